/* The SIMD microkernels and their scalar references, as separately named
 * functions (name__scalar / name__simd128), so one wasm SIMD binary holds
 * both and tests/c/test_microkernels.c compares them byte for byte. The
 * kernels call the __simd128 variant where the build has wasm SIMD and the
 * __scalar one otherwise; the pairs compute the same bytes (only NaN sign
 * and payload bits may differ where arithmetic makes a NaN, which wasm
 * leaves nondeterministic; docs/kernels.md). The GEMM core and A packing
 * pairs are in microkernels/gemm.h, the depthwise Conv ones in
 * microkernels/dwconv2d.h, holo_x_expf4 (against holo_expf) in ext-util.h. */
#ifndef HOLOGRAM_KERNELS_UKERNELS_H
#define HOLOGRAM_KERNELS_UKERNELS_H

#include "common/check.h"
#include "common/window2d.h"

/* MaxPool (ops/pool2d-f32-scalar.c): output row oh of one plane xp
 * (w->in[0] x w->in[1]) into y[0 .. w->out[1]); __simd128 runs the
 * interior in f32x4 groups (holo_k_maxpool2d_row_f32) and the edges with
 * the scalar rule. */
void holo_ukernel_maxpool2d_row_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t oh, float *y);
#ifdef __wasm_simd128__
void holo_ukernel_maxpool2d_row_f32__simd128(const float *xp, const holo_k_win2d *w, int64_t oh, float *y);
#endif

/* Softmax (ops/softmax-f32-scalar.c) over `rows` contiguous rows of n. */
void holo_ukernel_softmax_rows_f32__scalar(const float *x, float *y, size_t n, size_t rows);
#ifdef __wasm_simd128__
void holo_ukernel_softmax_rows_f32__simd128(const float *x, float *y, size_t n, size_t rows);
#endif

/* holo.LayerNormSteps (ops/layernormsteps-f32-simd128.c), the two
 * vectorized steps of one row of n: squares yr[i] = (xr[i] - mean)^2, and
 * yr[i] = ((xr[i] - mean) / s) * sc[i*ss] + bi[i*bs] (sc / bi NULL: that
 * step is absent; ss / bs 0: one broadcast value). */
void holo_ukernel_lns_squares_f32__scalar(const float *xr, float *yr, size_t n, float mean);
void holo_ukernel_lns_norm_f32__scalar(const float *xr, float *yr, size_t n, float mean, float s,
                                       const float *sc, size_t ss, const float *bi, size_t bs);
#ifdef __wasm_simd128__
void holo_ukernel_lns_squares_f32__simd128(const float *xr, float *yr, size_t n, float mean);
void holo_ukernel_lns_norm_f32__simd128(const float *xr, float *yr, size_t n, float mean, float s,
                                        const float *sc, size_t ss, const float *bi, size_t bs);
#endif

#endif
