/* InstanceNormalization's rows (layernorm.h): LayerNormalization's
 * statistics 4 rows at a time, then each row with its channel's scale and
 * bias as two constants (a loop of the same per-element operations in every
 * build: the compiler's vector form gives the same bytes). */
#include "microkernels/layernorm.h"

#define IN_RB 4

void holo_ukernel_instancenorm_f32__scalar(const float *x, float *y, size_t r0, size_t rows, size_t n,
                                           size_t C, double eps, const float *sc, const float *bi) {
  for (size_t q0 = 0; q0 < rows; q0 += IN_RB) {
    const size_t nr = rows - q0 < IN_RB ? rows - q0 : IN_RB;
    double mean[IN_RB], inv[IN_RB];
    holo_ukernel_layernorm_stats_f32__scalar(x + q0 * n, n, nr, eps, mean, inv);
    for (size_t q = 0; q < nr; q++) {
      const size_t ch = (r0 + q0 + q) % C;
      const double m = mean[q], iv = inv[q], s = sc[ch], b = bi[ch];
      const float *xr = x + (q0 + q) * n;
      float *yr = y + (q0 + q) * n;
      for (size_t i = 0; i < n; i++)
        yr[i] = (float)(((double)xr[i] - m) * iv * s + b);
    }
  }
}
