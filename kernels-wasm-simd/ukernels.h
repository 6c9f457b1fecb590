/* The SIMD microkernels and their scalar references, as separately named
 * functions (name__scalar / name__simd128), so one wasm SIMD binary holds
 * both and tests/c/test_microkernels.c compares them byte for byte. The
 * kernels call the __simd128 variant where the build has wasm SIMD and the
 * __scalar one otherwise; the pairs compute the same bytes (only NaN sign
 * and payload bits may differ where arithmetic makes a NaN, which wasm
 * leaves nondeterministic; docs/kernels.md). The GEMM core and A packing
 * pairs are in gemm.h, holo_x_expf4 (against holo_expf) in ext-util.h. */
#ifndef HOLOGRAM_KERNELS_UKERNELS_H
#define HOLOGRAM_KERNELS_UKERNELS_H

#include "gemm.h"
#include "shape-util.h"

/* Depthwise Conv (ops/conv2d-f32.c): N images of C channels, one filter
 * Wt[C][kH][kW] per channel, bias B[C] or NULL, geometry w; epi holds the
 * fused activation (relu / lo_on / hi_on; its bias is set per channel).
 * ws: holo_ukernel_dwconv2d_f32_ws_floats(w, simd) floats. The __scalar
 * variant is the direct loop (with the relaxed build's multiply-add there);
 * __simd128 exists for width strides 1 and 2 (false otherwise: the kernel
 * then runs __scalar). */
size_t holo_ukernel_dwconv2d_f32_ws_floats(const holo_k_win2d *w, bool simd);
void holo_ukernel_dwconv2d_f32__scalar(const holo_k_win2d *w, size_t N, size_t C, const float *X,
                                       const float *Wt, const float *B, float *Y, const holo_gemm *epi,
                                       float *ws);
#ifdef __wasm_simd128__
bool holo_ukernel_dwconv2d_f32__simd128(const holo_k_win2d *w, size_t N, size_t C, const float *X,
                                        const float *Wt, const float *B, float *Y, const holo_gemm *epi,
                                        float *ws);
#endif

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
