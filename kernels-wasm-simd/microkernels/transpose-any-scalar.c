/* Transpose's gather (transpose.h): the output written in order, the
 * input read through permuted strides, elements moved as 1, 2, 4 or 8-byte
 * units (any dtype). */
#include "common/shape.h"
#include "microkernels/transpose.h"

#define DEF_TRANSPOSE(fn, T)                                                                       \
  static void fn(const T *x, T *y, uint32_t rank, const int64_t *shape, const int64_t *stride) {  \
    int64_t idx[HOLO_MAX_RANK] = {0};                                                              \
    size_t n = (size_t)shape[rank - 1], s = (size_t)stride[rank - 1];                              \
    size_t rows = holo_k_prod(shape, 0, rank - 1), off = 0;                                        \
    for (size_t r = 0; r < rows; r++, y += n) {                                                    \
      for (size_t j = 0; j < n; j++) y[j] = x[off + j * s];                                        \
      holo_k_next_offset(idx, shape, stride, rank - 1, &off);                                       \
    }                                                                                              \
  }

DEF_TRANSPOSE(tr8, uint8_t)
DEF_TRANSPOSE(tr16, uint16_t)
DEF_TRANSPOSE(tr32, uint32_t)
DEF_TRANSPOSE(tr64, uint64_t)

void holo_ukernel_transpose_any__scalar(size_t es, const void *x, void *y, uint32_t rank, const int64_t *shape,
                                        const int64_t *stride) {
  switch (es) {
  case 1: tr8(x, y, rank, shape, stride); break;
  case 2: tr16(x, y, rank, shape, stride); break;
  case 4: tr32(x, y, rank, shape, stride); break;
  default: tr64(x, y, rank, shape, stride); break;
  }
}

/* Tiles of 8x8 keep both the reads and the writes within a few cache
 * lines. */
void holo_ukernel_transpose2d_x32__scalar(const uint32_t *x, size_t s, uint32_t *y, size_t P, size_t Q) {
  for (size_t p0 = 0; p0 < P; p0 += 8)
    for (size_t q0 = 0; q0 < Q; q0 += 8) {
      const size_t p1 = p0 + 8 < P ? p0 + 8 : P, q1 = q0 + 8 < Q ? q0 + 8 : Q;
      for (size_t p = p0; p < p1; p++)
        for (size_t q = q0; q < q1; q++) y[p * Q + q] = x[q * s + p];
    }
}
