/* B into the GEMM core's panels of w columns (gemm.h): pure data movement,
 * zero padded past N. */
#include "microkernels/gemm.h"

void holo_gemm_pack_b_w(float *dst, const float *B, size_t rsb, size_t csb, size_t K, size_t N, size_t w) {
  for (size_t j0 = 0; j0 < N; j0 += w) {
    size_t nc = N - j0 < w ? N - j0 : w;
    for (size_t k = 0; k < K; k++) {
      const float *src = B + k * rsb + j0 * csb;
      size_t c = 0;
      for (; c < nc; c++)
        dst[c] = src[c * csb];
      for (; c < w; c++)
        dst[c] = 0.0f;
      dst += w;
    }
  }
}
