/* Variant-independent parts of the GEMM core: B packing. */
#include "gemm.h"

void holo_gemm_pack_b(float *dst, const float *B, size_t rsb, size_t csb, size_t K, size_t N) {
  for (size_t j0 = 0; j0 < N; j0 += HOLO_GEMM_NR) {
    size_t nc = N - j0 < HOLO_GEMM_NR ? N - j0 : HOLO_GEMM_NR;
    for (size_t k = 0; k < K; k++) {
      const float *src = B + k * rsb + j0 * csb;
      size_t c = 0;
      for (; c < nc; c++) dst[c] = src[c * csb];
      for (; c < HOLO_GEMM_NR; c++) dst[c] = 0.0f;
      dst += HOLO_GEMM_NR;
    }
  }
}
