/* 2-D window geometry for Conv and pooling: the kernel_shape, strides,
 * dilations, pads, auto_pad and ceil_mode attributes resolved into explicit
 * numbers, and the taps of a window that fall inside the input. */
#ifndef HOLOGRAM_KERNELS_WINDOW2D_H
#define HOLOGRAM_KERNELS_WINDOW2D_H

#include <stdbool.h>
#include <stdint.h>

#include "hologram/backend.h"

/* Window geometry of a 2-D convolution or pooling over [H, W]: the
 * kernel_shape, strides, dilations, pads and auto_pad (and ceil_mode)
 * attributes resolved into explicit numbers. Index [0] is H, [1] is W. */
typedef struct holo_k_win2d {
  int64_t in[2], k[2], stride[2], dil[2], pad_begin[2], pad_end[2], out[2];
} holo_k_win2d;

/* kernel: the kernel dims taken from a weight tensor (the kernel_shape
 * attribute, if present, must agree), or NULL when kernel_shape is required.
 * ceil_mode is read only when use_ceil. */
holo_status holo_k_window2d(holo_kernel_call *c, const char *op, const int64_t *in_hw,
                            const int64_t *kernel, bool use_ceil, holo_k_win2d *w);

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
