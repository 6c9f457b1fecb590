/* Tree content labels (docs/holo-format.md §5): content of more than one
 * chunk is labelled by a root over its chunks' leaf digests, so the leaves
 * can be hashed four at a time in vector lanes (sha256-lanes.c) and across
 * a pool's threads; content of one chunk or less keeps the flat label. */
#include "label.h"
#include "sha256-lanes.h"

const uint8_t holo__content_leaf_block[64] = "holo/content-leaf/v1"; /* NUL-padded to one block */

static void leaf_scalar(const uint8_t *p, size_t n, uint8_t out[32]) {
  holo_sha256 c;
  holo_sha256_init(&c);
  holo_sha256_update(&c, holo__content_leaf_block, 64);
  holo_sha256_update(&c, p, n);
  holo_sha256_final(&c, out);
}

size_t holo__content_leaves(size_t len) {
  return len <= HOLO_CONTENT_CHUNK ? 0 : (len + HOLO_CONTENT_CHUNK - 1) / HOLO_CONTENT_CHUNK;
}

/* Leaves leaf0 .. leaf0+n-1 (n <= 4) of len content bytes. Whole chunks go
 * through the lanes (two or more of them: a lone one is cheaper serially),
 * a short last chunk serially. */
void holo__content_leaf_group(const uint8_t *bytes, size_t len, size_t leaf0, size_t n, uint8_t out[][32]) {
  const size_t C = HOLO_CONTENT_CHUNK;
  size_t whole = 0;
  while (whole < n && (leaf0 + whole + 1) * C <= len) whole++;
  size_t i = 0;
  if (whole >= 2) {
    uint32_t mid[8];
    holo_sha256 iv;
    holo_sha256_init(&iv);
    for (int k = 0; k < 8; k++) mid[k] = iv.h[k];
    holo__sha256_blocks(mid, holo__content_leaf_block, 1);
    const uint8_t *p[4];
    uint8_t d[4][32];
    for (size_t l = 0; l < 4; l++) p[l] = bytes + (leaf0 + (l < whole ? l : 0)) * C;
    holo__sha256_x4(mid, 64, p, C / 64, d);
    for (; i < whole; i++)
      for (int k = 0; k < 32; k++) out[i][k] = d[i][k];
  }
  for (; i < n; i++) {
    size_t at = (leaf0 + i) * C, m = len - at < C ? len - at : C;
    leaf_scalar(bytes + at, m, out[i]);
  }
}

void holo__content_root_init(holo_sha256 *c, uint32_t dtype, const int64_t *shape, uint32_t rank, size_t len) {
  static const char tag[] = "holo/content-tree/v1"; /* sizeof includes the NUL */
  uint8_t w[8 + 8 * HOLO_MAX_RANK + 8];
  if (rank > HOLO_MAX_RANK) rank = HOLO_MAX_RANK; /* callers validate; never overrun */
  holo_sha256_init(c);
  holo_sha256_update(c, tag, sizeof tag);
  holo_put_u32le(w, dtype);
  holo_put_u32le(w + 4, rank);
  for (uint32_t i = 0; i < rank; i++) holo_put_i64le(w + 8 + 8 * i, shape[i]);
  holo_put_i64le(w + 8 + 8 * rank, (int64_t)len);
  holo_sha256_update(c, w, 16 + 8 * (size_t)rank);
}

void holo__content_tree_digest(uint32_t dtype, const int64_t *shape, uint32_t rank, const void *bytes, size_t len,
                               holo_digest *out) {
  holo_sha256 root;
  uint8_t d[4][32];
  size_t n = holo__content_leaves(len);
  holo__content_root_init(&root, dtype, shape, rank, len);
  for (size_t i = 0; i < n; i += 4) {
    size_t g = n - i < 4 ? n - i : 4;
    holo__content_leaf_group(bytes, len, i, g, d);
    holo_sha256_update(&root, d, 32 * g);
  }
  holo_sha256_final(&root, out->b);
}
