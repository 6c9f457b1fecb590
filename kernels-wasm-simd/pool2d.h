/* The MaxPool row microkernel's interface (ops/maxpool2d-f32-simd128.c),
 * called by the scalar pooling kernel (ops/pool2d-f32-scalar.c) for the
 * interior of each output row. */
#ifndef HOLOGRAM_KERNELS_POOL2D_H
#define HOLOGRAM_KERNELS_POOL2D_H

#include "common/window2d.h"

/* Computes MaxPool outputs y[ow0], y[ow0+1], ... of output row oh of one
 * plane xp (w->in[0] x w->in[1]) in groups of 4, for as long as every window
 * column of a group lies inside the row (for stride 2 one column more: the
 * load that deinterleaves reads it); returns how many it computed (a
 * multiple of 4; 0 where ow0 is not such a group, and always 0 in the
 * scalar build). Same bytes as the scalar loop: each lane visits its window
 * in ascending (kh, kw) order with the same compare and NaN rule. */
int64_t holo_k_maxpool2d_row_f32(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow0, float *y);

#endif
