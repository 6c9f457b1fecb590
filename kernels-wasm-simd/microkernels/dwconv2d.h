/* Depthwise 2-D convolution microkernels (Conv with one input and one
 * output channel per group; operators/conv2d.c runs them).
 *
 * All of them compute (image, channel) pairs [c0, c1) of X [N][C][H][W]
 * with filters Wt [C][kH][kW] and bias B [C] (or NULL) into Y [N][C][OH][OW],
 * geometry w; epi carries the fused activation (its bias is set per
 * channel). Every output element: acc = +0, acc = acc + w[kh,kw] * x for
 * (kh, kw) ascending, a padding tap adding w * 0, then epi's steps
 * (holo_gemm_epi): the operations, in the order, of the GEMM core's 1-row
 * product, so the bytes are those of the im2col path.
 *
 *   rows   along output rows, any strides; ws: OW floats of accumulators
 *          (dwconv2d-f32-rows-scalar.c, the reference; -relaxedsimd.c)
 *   plane  a zero-padded copy of each channel, 4 outputs per step; width
 *          strides 1 and 2; ws: holo_dwconv2d_plane_floats(w) floats
 *          (dwconv2d-f32-plane-simd128.c, -relaxedsimd.c)
 * (generated from the templates dwconv2d-f32-rows.c.in and
 * dwconv2d-f32-plane.c.in in kernels-wasm-simd/gen). */
#ifndef HOLOGRAM_KERNELS_DWCONV2D_H
#define HOLOGRAM_KERNELS_DWCONV2D_H

#include <stdbool.h>
#include <stddef.h>

#include "common/window2d.h"
#include "microkernels/gemm.h"

#define HOLO_DWCONV2D_ARGS                                                                                   \
  const holo_k_win2d *w, size_t C, const float *X, const float *Wt, const float *B, float *Y,             \
      const holo_gemm *epi, float *ws, size_t c0, size_t c1

void holo_ukernel_dwconv2d_f32_rows__scalar(HOLO_DWCONV2D_ARGS);
#ifdef __wasm_relaxed_simd__
void holo_ukernel_dwconv2d_f32_rows__relaxedsimd(HOLO_DWCONV2D_ARGS);
#endif
#ifdef __wasm_simd128__
void holo_ukernel_dwconv2d_f32_plane__simd128(HOLO_DWCONV2D_ARGS);
#endif
#ifdef __wasm_relaxed_simd__
void holo_ukernel_dwconv2d_f32_plane__relaxedsimd(HOLO_DWCONV2D_ARGS);
#endif

/* The plane kernels handle width strides 1 and 2. */
static inline bool holo_dwconv2d_plane_ok(const holo_k_win2d *w) { return w->stride[1] == 1 || w->stride[1] == 2; }

/* The padded plane: Hp rows of Wp floats cover every tap of every output
 * (rounded up to 4 per row, plus the second load of a stride-2 step). */
static inline void holo_dwconv2d_plane_geom(const holo_k_win2d *w, int64_t *Hp, int64_t *Wp) {
  const int64_t OWr = (w->out[1] + 3) & ~(int64_t)3;
  *Hp = (w->out[0] - 1) * w->stride[0] + (w->k[0] - 1) * w->dil[0] + 1;
  *Wp = (OWr - 1) * w->stride[1] + (w->k[1] - 1) * w->dil[1] + 1 + 4;
}
static inline size_t holo_dwconv2d_plane_floats(const holo_k_win2d *w) {
  int64_t Hp, Wp;
  holo_dwconv2d_plane_geom(w, &Hp, &Wp);
  return (size_t)(Hp * Wp);
}

/* The build's rows kernel: relaxed SIMD where built with it (its byte
 * class: the relaxed GEMM core's), else scalar. */
static inline void holo_dwconv2d_f32_rows(HOLO_DWCONV2D_ARGS) {
#ifdef __wasm_relaxed_simd__
  holo_ukernel_dwconv2d_f32_rows__relaxedsimd(w, C, X, Wt, B, Y, epi, ws, c0, c1);
#else
  holo_ukernel_dwconv2d_f32_rows__scalar(w, C, X, Wt, B, Y, epi, ws, c0, c1);
#endif
}

/* The build's plane kernel (SIMD builds only; holo_dwconv2d_plane_ok). */
#ifdef __wasm_simd128__
static inline void holo_dwconv2d_f32_plane(HOLO_DWCONV2D_ARGS) {
#ifdef __wasm_relaxed_simd__
  holo_ukernel_dwconv2d_f32_plane__relaxedsimd(w, C, X, Wt, B, Y, epi, ws, c0, c1);
#else
  holo_ukernel_dwconv2d_f32_plane__simd128(w, C, X, Wt, B, Y, epi, ws, c0, c1);
#endif
}
#endif

#endif
