/* The MaxPool row microkernel's interface (ops/maxpool2d-f32-simd128.c),
 * called by the scalar pooling kernel (ops/pool2d-f32-scalar.c) for the
 * interior of each output row. */
#ifndef HOLOGRAM_KERNELS_POOL2D_H
#define HOLOGRAM_KERNELS_POOL2D_H

#include "shape-util.h"

/* Computes MaxPool outputs y[ow0], y[ow0+1], ... of output row oh of one
 * plane xp (w->in[0] x w->in[1]) in groups of 4, for as long as every window
 * column of a group lies inside the row (for stride 2 one column more: the
 * load that deinterleaves reads it); returns how many it computed (a
 * multiple of 4; 0 where ow0 is not such a group, and always 0 in the
 * scalar build). Same bytes as the scalar loop: each lane visits its window
 * in ascending (kh, kw) order with the same compare and NaN rule. */
int64_t holo_k_maxpool2d_row_f32(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow0, float *y);

/* The taps t in [*t0, *t1) of a window of k taps at base + t*dil that fall
 * in [lo, hi). Pooling loops visit only these: kernel_shape, pads and
 * strides are attributes of up to 2^31 each, so a window over a 1x1 input
 * can have 2^62 taps, all padding (fuzz_archive finding, docs/fuzzing.md). */
static inline void holo_k_pool_taps(int64_t base, int64_t dil, int64_t k, int64_t lo, int64_t hi, int64_t *t0,
                                    int64_t *t1) {
  int64_t a = base >= lo ? 0 : (lo - base + dil - 1) / dil;
  int64_t b = hi <= base ? 0 : (hi - base + dil - 1) / dil;
  if (b > k) b = k;
  if (a > b) a = b;
  *t0 = a;
  *t1 = b;
}

#endif
