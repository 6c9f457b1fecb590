/* The scalar GEMM core: the reference for the order contract in gemm.h,
 * compiled into every build (the core of builds without wasm SIMD; in SIMD
 * builds the reference the microkernel tester compares against). i-k-j
 * order: the C row is the accumulator, so every C(i,j) still sums its
 * products in ascending k from +0. It reads A in place (never g->Ap). */
#include "microkernels/gemm.h"

void holo_gemm_f32__scalar(const holo_gemm *g) {
  size_t M = g->M, N = g->N, K = g->K;
  for (size_t i = 0; i < M; i++) {
    float *cr = g->C + i * g->ldc;
    for (size_t j = 0; j < N; j++)
      cr[j] = 0.0f;
    for (size_t k = 0; k < K; k++) {
      float av = g->A[i * g->rsa + k * g->csa];
      if (g->Bp) {
        size_t w = g->bpw ? g->bpw : HOLO_GEMM_NR;
        for (size_t j0 = 0; j0 < N; j0 += w) {
          const float *bp = g->Bp + j0 * K + k * w;
          size_t nc = N - j0 < w ? N - j0 : w;
          for (size_t c = 0; c < nc; c++)
            cr[j0 + c] += av * bp[c];
        }
      } else {
        const float *br = g->B + k * g->ldb;
        for (size_t j = 0; j < N; j++)
          cr[j] += av * br[j];
      }
    }
    for (size_t j = 0; j < N; j++)
      cr[j] = holo_gemm_epi(g, i, j, cr[j]);
  }
}
