/* LayerNormalization (layernorm.h), one row of n: mean and the biased
 * variance in double, ascending order; y = (x - mean) * inv * scale + b
 * with inv = 1 / sqrt(var + eps), rounded to f32 once. */
#include "math/mathlib.h"
#include "microkernels/layernorm.h"

void holo_ukernel_layernorm_f32__scalar(const float *xr, float *yr, size_t n, double eps, const float *sc,
                                        const float *bi, const holo_bcast *w0, float *mean_out, float *inv_out) {
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += xr[i];
  double mean = n ? sum / (double)n : 0.0, var = 0;
  for (size_t i = 0; i < n; i++) {
    double d = (double)xr[i] - mean;
    var += d * d;
  }
  var = n ? var / (double)n : 0.0;
  double inv = 1.0 / holo_sqrt(var + eps);
  holo_bcast w = *w0;
  size_t i = 0;
  for (size_t q = 0; q < w.rows; q++, holo_bcast_next(&w))
    for (size_t j = 0; j < w.row; j++, i++) {
      double v = ((double)xr[i] - mean) * inv * (double)sc[w.off[0] + j * w.step[0]];
      if (bi) v += (double)bi[w.off[1] + j * w.step[1]];
      yr[i] = (float)v;
    }
  if (mean_out) *mean_out = (float)mean;
  if (inv_out) *inv_out = (float)inv;
}
