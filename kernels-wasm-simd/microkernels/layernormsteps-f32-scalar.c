/* The steps of holo.LayerNormSteps (layernorm.h), one row at a time: the
 * references of layernormsteps-f32-simd128.c, and the row sums of every
 * build (sequential double adds in ascending order: the ReduceMean
 * kernel's; 4 rows' chains interleaved, each in its own order). */
#include "microkernels/layernorm.h"

/* acc[q] = sum over i of (double)p[q*n + i], ascending i, for q < nr (<= 4) */
void holo_ukernel_lns_rowsums_f32__scalar(const float *p, size_t n, size_t nr, double *acc) {
  if (nr == 4) {
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    const float *p1 = p + n, *p2 = p1 + n, *p3 = p2 + n;
    for (size_t i = 0; i < n; i++) {
      a0 += (double)p[i];
      a1 += (double)p1[i];
      a2 += (double)p2[i];
      a3 += (double)p3[i];
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    return;
  }
  for (size_t q = 0; q < nr; q++) {
    double a = 0.0;
    for (size_t i = 0; i < n; i++) a += (double)p[q * n + i];
    acc[q] = a;
  }
}

/* yr[i] = d*d with d = xr[i] - mean (the squares wait in the output row) */
void holo_ukernel_lns_squares_f32__scalar(const float *xr, float *yr, size_t n, float mean) {
  for (size_t i = 0; i < n; i++) {
    float d = xr[i] - mean;
    yr[i] = d * d;
  }
}

/* yr[i] = ((xr[i] - mean) / s) * scale + b, scale / b absent when NULL */
void holo_ukernel_lns_norm_f32__scalar(const float *xr, float *yr, size_t n, float mean, float s,
                                       const float *sc, size_t ss, const float *bi, size_t bs) {
  for (size_t i = 0; i < n; i++) {
    float v = (xr[i] - mean) / s;
    if (sc) v = v * sc[i * ss];
    if (bi) v = v + bi[i * bs];
    yr[i] = v;
  }
}
