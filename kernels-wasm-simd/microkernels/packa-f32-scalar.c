/* A into the SIMD GEMM core's 4-row strips (gemm.h), element by element:
 * the reference for packa-f32-simd128.c. */
#include "microkernels/packa.h"

void holo_gemm_pack_a_rows__scalar(float *dst, const holo_gemm *g, size_t i0, size_t i1) {
  for (size_t s = i0; s < i1; s += 4) {
    const float *a[4];
    float *d = holo_packa_strip(dst, g, s, i1, a);
    holo_packa_cols(d, a, 0, g->K, g->csa);
  }
}
