/* BLAKE3's keyed hash of a short message: the per-node computed label of
 * format §5 (holo/node/v4). A node's operand digests are at most 64 x 32 =
 * 2048 bytes, two BLAKE3 chunks, so this implements exactly that much of
 * the tree: one or two chunks and, for two, their parent. */
#ifndef HOLO_BLAKE3_H
#define HOLO_BLAKE3_H

#include <stddef.h>
#include <stdint.h>

#define HOLO_BLAKE3_MAX_LEN 2048u

/* out = BLAKE3 keyed_hash(key, msg[0..len)), 32 bytes; key as the eight
 * little-endian words of the 32 key bytes. len <= HOLO_BLAKE3_MAX_LEN. */
void holo__blake3_keyed(const uint32_t key[8], const uint8_t *msg, size_t len, uint8_t out[32]);

#endif
