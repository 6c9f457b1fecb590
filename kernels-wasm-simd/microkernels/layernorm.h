/* The normalization microkernels (operators/layernorm.c). */
#ifndef HOLOGRAM_KERNELS_LAYERNORM_H
#define HOLOGRAM_KERNELS_LAYERNORM_H

#include <stddef.h>

#include "common/bcast.h"
#include "common/fp-contract.h"

/* LayerNormalization, rows x -> y of n elements each (layernorm-f32-scalar.c).
 * w0: the walk over the normalized shape whose operand 0 is Scale, 1 is B
 * (bi NULL: no bias); mean_out[r] / inv_out[r] (or NULL) get row r's mean
 * and 1 / sqrt(var + eps), rounded to f32. */
void holo_ukernel_layernorm_f32__scalar(const float *x, float *y, size_t rows, size_t n, double eps, const float *sc,
                                        const float *bi, const holo_bcast *w0, float *mean_out, float *inv_out);

/* InstanceNormalization (instancenorm-f32-scalar.c): rows r0 .. r0+rows-1
 * of n elements (row r's channel r % C, scale sc[c], bias bi[c]), the same
 * statistics and rounding as LayerNormalization's rows with the channel's
 * scale and bias: mean and biased variance in double, ascending, y =
 * (f32)(((x - mean) * inv) * scale + b). Rows go 4 at a time through the sums
 * (4 independent chains: the bytes of one row at a time). x and y point at
 * row r0. */
void holo_ukernel_instancenorm_f32__scalar(const float *x, float *y, size_t r0, size_t rows, size_t n, size_t C,
                                           double eps, const float *sc, const float *bi);
/* The row statistics both share (layernorm-f32-scalar.c): rows x[q*n ..], q <
 * nr <= 4: mean[q] and inv[q] = 1 / sqrt(var + eps), in double. */
void holo_ukernel_layernorm_stats_f32__scalar(const float *x, size_t n, size_t nr, double eps, double *mean,
                                              double *inv);

/* holo.LayerNormSteps (layernormsteps-f32-scalar.c, -simd128.c).
 * rowsums: acc[q] = sum over i of (double)p[q*n + i], ascending i, q < nr <= 4.
 * squares: yr[i] = (xr[i] - mean)^2. norm: yr[i] = ((xr[i] - mean) / s)
 * * sc[i*ss] + bi[i*bs] (sc / bi NULL: that step is absent; ss / bs 0: one
 * broadcast value). */
void holo_ukernel_lns_rowsums_f32__scalar(const float *p, size_t n, size_t nr, double *acc);
void holo_ukernel_lns_squares_f32__scalar(const float *xr, float *yr, size_t n, float mean);
void holo_ukernel_lns_norm_f32__scalar(const float *xr, float *yr, size_t n, float mean, float s, const float *sc,
                                       size_t ss, const float *bi, size_t bs);
#ifdef __wasm_simd128__
void holo_ukernel_lns_squares_f32__simd128(const float *xr, float *yr, size_t n, float mean);
void holo_ukernel_lns_norm_f32__simd128(const float *xr, float *yr, size_t n, float mean, float s, const float *sc,
                                        size_t ss, const float *bi, size_t bs);
#endif

/* The build's variants. */
static inline void holo_lns_squares_f32(const float *xr, float *yr, size_t n, float mean) {
#ifdef __wasm_simd128__
  holo_ukernel_lns_squares_f32__simd128(xr, yr, n, mean);
#else
  holo_ukernel_lns_squares_f32__scalar(xr, yr, n, mean);
#endif
}
static inline void holo_lns_norm_f32(const float *xr, float *yr, size_t n, float mean, float s, const float *sc,
                                     size_t ss, const float *bi, size_t bs) {
#ifdef __wasm_simd128__
  holo_ukernel_lns_norm_f32__simd128(xr, yr, n, mean, s, sc, ss, bi, bs);
#else
  holo_ukernel_lns_norm_f32__scalar(xr, yr, n, mean, s, sc, ss, bi, bs);
#endif
}

#endif
