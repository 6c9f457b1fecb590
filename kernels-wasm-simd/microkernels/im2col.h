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
 * the padding 0. */
void holo_ukernel_iim2col_i8__scalar(int16_t *dst, const void *xg, bool u8, int32_t zx, const holo_k_win2d *w,
                                     size_t Cg, size_t p0, size_t pc);

#endif
