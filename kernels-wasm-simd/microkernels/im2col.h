/* im2col for Conv's GEMM path (operators/conv2d.c). */
#ifndef HOLOGRAM_KERNELS_IM2COL_H
#define HOLOGRAM_KERNELS_IM2COL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/window2d.h"
#include "microkernels/gemm.h"

/* col rows k = (ic, kh, kw), ascending, over output positions [p0, p0+pc)
 * of one image and group xg (Cg channel planes of w->in), written as the
 * GEMM core's packed B: dst[(p/8)*K*8 + k*8 + p%8], K = Cg*kH*kW, columns
 * past pc and taps in the padding +0. */
void holo_ukernel_im2col_f32__scalar(float *dst, const float *xg, const holo_k_win2d *w, size_t Cg, size_t p0,
                                     size_t pc);

/* The same rows for ConvInteger as the integer core's packed B (igemm.h:
 * c2 pairs, K padded to even): x - zx as int16, x u8 (u8) or i8, taps in
 * the padding 0; colsum[j] = the sum of position p0 + j's K values, j < pc
 * (the weight zero point's correction). Exact integers: every variant
 * gives the same bytes.
 *   iim2col-i8-scalar.c   holo_ukernel_iim2col_i8__scalar, every build
 *   iim2col-i8-simd128.c  holo_ukernel_iim2col_i8__simd128, wasm SIMD: a
 *                         tap row of 64 positions at a time, 8 a step */
void holo_ukernel_iim2col_i8__scalar(int16_t *dst, int32_t *colsum, const void *xg, bool u8, int32_t zx,
                                     const holo_k_win2d *w, size_t Cg, size_t p0, size_t pc);
#ifdef __wasm_simd128__
void holo_ukernel_iim2col_i8__simd128(int16_t *dst, int32_t *colsum, const void *xg, bool u8, int32_t zx,
                                      const holo_k_win2d *w, size_t Cg, size_t p0, size_t pc);
#endif
static inline void holo_iim2col_i8(int16_t *dst, int32_t *colsum, const void *xg, bool u8, int32_t zx,
                                   const holo_k_win2d *w, size_t Cg, size_t p0, size_t pc) {
#ifdef __wasm_simd128__
  holo_ukernel_iim2col_i8__simd128(dst, colsum, xg, u8, zx, w, Cg, p0, pc);
#else
  holo_ukernel_iim2col_i8__scalar(dst, colsum, xg, u8, zx, w, Cg, p0, pc);
#endif
}

#endif
