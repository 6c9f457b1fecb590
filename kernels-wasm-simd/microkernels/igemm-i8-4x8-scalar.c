/* The integer GEMM tile, scalar reference (igemm.h): the packed c2 pairs of
 * one A panel against one B panel, exact int32 sums. */
#include "microkernels/igemm.h"

void holo_ukernel_igemm_i8_4x8__scalar(size_t kp, const int16_t *pa, const int16_t *pb, int32_t *c,
                                       size_t ldc, size_t mr, size_t nr) {
  int32_t acc[HOLO_IGEMM_MR][HOLO_IGEMM_NR] = {{0}};
  for (size_t q = 0; q < kp / 2; q++) {
    const int16_t *a = pa + q * 2 * HOLO_IGEMM_MR, *b = pb + q * 2 * HOLO_IGEMM_NR;
    for (size_t i = 0; i < HOLO_IGEMM_MR; i++)
      for (size_t j = 0; j < HOLO_IGEMM_NR; j++)
        acc[i][j] += (int32_t)a[2 * i] * b[2 * j] + (int32_t)a[2 * i + 1] * b[2 * j + 1];
  }
  for (size_t i = 0; i < mr; i++)
    for (size_t j = 0; j < nr; j++)
      c[i * ldc + j] = acc[i][j];
}
