/* Four SHA-256 messages at once, one per 32-bit lane (the leaves of a tree
 * content label, docs/holo-format.md §5): a serial SHA-256 stream cannot use
 * SIMD, four independent ones can. */
#ifndef HOLO_SHA256_LANES_H
#define HOLO_SHA256_LANES_H

#include <stddef.h>
#include <stdint.h>

/* The round constants and the compression function over n whole 64-byte blocks (sha256.c). */
extern const uint32_t holo__sha256_k[64];
void holo__sha256_blocks(uint32_t h[8], const uint8_t *p, size_t n);

/* out[l] = the SHA-256 of a message whose first `done` bytes (a multiple of
 * 64) left the state `mid`, followed by the n_blocks * 64 bytes at p[l]:
 * the four messages share their prefix and length. holo__sha256_x4 uses the
 * target's vector unit where there is one (v128, SSE2, NEON) and is the
 * scalar twin elsewhere; both give the same digests (tests/c/test_label_tree.c). */
void holo__sha256_x4(const uint32_t mid[8], uint64_t done, const uint8_t *const p[4], size_t n_blocks,
                     uint8_t out[4][32]);
/* The scalar twin: four serial SHA-256 computations, always compiled. */
void holo__sha256_x4_scalar(const uint32_t mid[8], uint64_t done, const uint8_t *const p[4], size_t n_blocks,
                            uint8_t out[4][32]);
/* 1 when holo__sha256_x4 is the vector path on this build. */
int holo__sha256_x4_is_vector(void);

#endif
