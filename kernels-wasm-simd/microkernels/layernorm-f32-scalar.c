/* LayerNormalization (layernorm.h), rows of n: mean and the biased variance
 * in double, ascending order per row; y = (x - mean) * inv * scale + b with
 * inv = 1 / sqrt(var + eps), rounded to f32 once. Rows go 4 at a time
 * through the sums (4 independent chains, each in its row's order: the same
 * bytes as one row at a time). */
#include "math/mathlib.h"
#include "microkernels/layernorm.h"

#define LN_RB 4

/* The statistics of rows x[q*n ..], q < nr: mean[q] and inv[q]. */
static inline void ln_stats(const float *x, size_t n, size_t nr, double eps, double *mean, double *inv) {
  double s[LN_RB] = {0}, v[LN_RB] = {0};
  if (nr == LN_RB) {
    for (size_t i = 0; i < n; i++)
      for (size_t q = 0; q < LN_RB; q++) s[q] += x[q * n + i];
  } else {
    for (size_t q = 0; q < nr; q++)
      for (size_t i = 0; i < n; i++) s[q] += x[q * n + i];
  }
  for (size_t q = 0; q < nr; q++) mean[q] = n ? s[q] / (double)n : 0.0;
  if (nr == LN_RB) {
    for (size_t i = 0; i < n; i++)
      for (size_t q = 0; q < LN_RB; q++) {
        double d = (double)x[q * n + i] - mean[q];
        v[q] += d * d;
      }
  } else {
    for (size_t q = 0; q < nr; q++)
      for (size_t i = 0; i < n; i++) {
        double d = (double)x[q * n + i] - mean[q];
        v[q] += d * d;
      }
  }
  for (size_t q = 0; q < nr; q++) inv[q] = 1.0 / holo_sqrt((n ? v[q] / (double)n : 0.0) + eps);
}

void holo_ukernel_layernorm_stats_f32__scalar(const float *x, size_t n, size_t nr, double eps, double *mean,
                                              double *inv) {
  ln_stats(x, n, nr, eps, mean, inv);
}

/* One row's normalization; Scale and B read through the walk w0, or
 * directly where both are the normalized shape's own (the loop the
 * compiler vectorizes: the same operations per element). */
static void ln_row(const float *xr, float *yr, size_t n, double mean, double inv, const float *sc,
                   const float *bi, const holo_bcast *w0) {
  if (w0->rows == 1 && w0->step[0] == 1 && (!bi || w0->step[1] == 1)) {
    if (bi)
      for (size_t i = 0; i < n; i++) yr[i] = (float)(((double)xr[i] - mean) * inv * (double)sc[i] + (double)bi[i]);
    else
      for (size_t i = 0; i < n; i++) yr[i] = (float)(((double)xr[i] - mean) * inv * (double)sc[i]);
    return;
  }
  holo_bcast w = *w0;
  size_t i = 0;
  for (size_t q = 0; q < w.rows; q++, holo_bcast_next(&w))
    for (size_t j = 0; j < w.row; j++, i++) {
      double v = ((double)xr[i] - mean) * inv * (double)sc[w.off[0] + j * w.step[0]];
      if (bi) v += (double)bi[w.off[1] + j * w.step[1]];
      yr[i] = (float)v;
    }
}

void holo_ukernel_layernorm_f32__scalar(const float *x, float *y, size_t rows, size_t n, double eps, const float *sc,
                                        const float *bi, const holo_bcast *w0, float *mean_out, float *inv_out) {
  for (size_t r0 = 0; r0 < rows; r0 += LN_RB) {
    const size_t nr = rows - r0 < LN_RB ? rows - r0 : LN_RB;
    double mean[LN_RB], inv[LN_RB];
    ln_stats(x + r0 * n, n, nr, eps, mean, inv);
    for (size_t q = 0; q < nr; q++) {
      ln_row(x + (r0 + q) * n, y + (r0 + q) * n, n, mean[q], inv[q], sc, bi, w0);
      if (mean_out) mean_out[r0 + q] = (float)mean[q];
      if (inv_out) inv_out[r0 + q] = (float)inv[q];
    }
  }
}
