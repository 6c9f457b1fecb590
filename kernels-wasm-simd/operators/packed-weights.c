/* The header of a weight packed once per session by its kernel (products.h,
 * backend.h holo_pack_call): what run needs to read the layout back. */
#include "operators/products.h"

typedef struct {
  uint32_t magic, kind;
  uint64_t w, rows, cols, groups;
} pack_header;
#define PACK_MAGIC 0x4b434150u /* "PACK" */

size_t holo_gemm_packed_b_floats_checked(size_t K, size_t N, size_t w) {
  size_t cols = N / w * w + (N % w ? w : 0); /* no N + w - 1 overflow */
  if (cols < N || (K && cols > SIZE_MAX / K)) return 0;
  return cols * K;
}

float *holo_gemm_pack_header(void *dst, holo_gemm_pack_kind kind, size_t w, size_t rows, size_t cols,
                             size_t groups) {
  pack_header h = {PACK_MAGIC, (uint32_t)kind, w, rows, cols, groups};
  uint8_t *d = dst;
  for (size_t i = 0; i < HOLO_GEMM_PACK_HDR; i++) d[i] = 0;
  __builtin_memcpy(d, &h, sizeof h);
  return (float *)(d + HOLO_GEMM_PACK_HDR);
}

const float *holo_gemm_packed(const void *p, holo_gemm_pack_kind kind, size_t rows, size_t cols, size_t groups,
                              size_t *w) {
  pack_header h;
  if (!p) return 0;
  __builtin_memcpy(&h, p, sizeof h);
  if (h.magic != PACK_MAGIC || h.kind != (uint32_t)kind || h.rows != rows || h.cols != cols || h.groups != groups)
    return 0;
  *w = (size_t)h.w;
  return (const float *)((const uint8_t *)p + HOLO_GEMM_PACK_HDR);
}
