/* What the packed-A microkernels (packa-f32-scalar.c, packa-f32-simd128.c)
 * share: a strip's row pointers and the element loop over its columns. */
#ifndef HOLOGRAM_KERNELS_PACKA_H
#define HOLOGRAM_KERNELS_PACKA_H

#include "microkernels/gemm.h"

/* Strip rows a[0..3] (NULL past M), columns [k, K), into d (strip layout). */
static inline void holo_packa_cols(float *d, const float *const a[4], size_t k, size_t K, size_t csa) {
  for (; k < K; k++, d += 4)
    for (size_t r = 0; r < 4; r++)
      d[r] = a[r] ? a[r][k * csa] : 0.0f;
}

/* The strip's row pointers; returns the strip's start in dst. */
static inline float *holo_packa_strip(float *dst, const holo_gemm *g, size_t s, size_t i1,
                                      const float *a[4]) {
  for (size_t r = 0; r < 4; r++)
    a[r] = s + r < i1 ? g->A + (s + r) * g->rsa : 0;
  return dst + s * g->K;
}

#endif
