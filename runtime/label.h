/* κ-labels: the preimages of docs/holo-format.md §5. Internally a label is
 * its 32-byte digest; it is rendered as `sha256:<64 hex>` at the edges and
 * inside preimages. */
#ifndef HOLO_LABEL_H
#define HOLO_LABEL_H

#include "hologram/types.h"
#include "sha256.h"

typedef struct holo_digest {
  uint8_t b[HOLO_DIGEST_LEN];
} holo_digest;

/* out receives 71 chars and a NUL. */
void holo_label_render(const holo_digest *d, char out[HOLO_LABEL_LEN + 1]);
/* Strict: exactly `sha256:` + 64 lowercase hex digits. */
bool holo_label_parse(const char *s, size_t len, holo_digest *d);
void holo_label_hash_into(holo_sha256 *c, const holo_digest *d);

void holo_content_digest(uint32_t dtype, const int64_t *shape, uint32_t rank, const void *bytes,
                         size_t len, holo_digest *out);

/* The content preimage before the tensor bytes: "holo/content/v1\0", dtype,
 * rank, dims. Returns its length; content label = SHA-256(header || bytes). */
#define HOLO_CONTENT_HEADER_MAX (16 + 8 + 8 * HOLO_MAX_RANK)
size_t holo_content_header(uint32_t dtype, const int64_t *shape, uint32_t rank, uint8_t out[HOLO_CONTENT_HEADER_MAX]);

static inline bool holo_digest_eq(const holo_digest *a, const holo_digest *b) {
  for (int i = 0; i < HOLO_DIGEST_LEN; i++)
    if (a->b[i] != b->b[i]) return false;
  return true;
}

void holo_put_u32le(uint8_t *p, uint32_t v);
void holo_put_i64le(uint8_t *p, int64_t v);

#endif
