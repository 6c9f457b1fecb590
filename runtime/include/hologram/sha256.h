/* SHA-256 (FIPS 180-4), ours because the core has no libc and labels must
 * be bit-exact on every target. Public because the layers above the
 * executor derive their own keys with it (generation's prompt cache) and a
 * host may want the hash its labels are made of. */
#ifndef HOLOGRAM_SHA256_H
#define HOLOGRAM_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct holo_sha256 {
  uint32_t h[8];
  uint64_t total;
  uint8_t buf[64];
  uint32_t used;
} holo_sha256;

void holo_sha256_init(holo_sha256 *c);
void holo_sha256_update(holo_sha256 *c, const void *data, size_t len);
void holo_sha256_final(holo_sha256 *c, uint8_t out[32]);
void holo_sha256_digest(const void *data, size_t len, uint8_t out[32]);

#endif
