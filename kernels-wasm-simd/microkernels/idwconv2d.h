/* Depthwise integer 2-D convolution microkernels (ConvInteger / QLinearConv
 * with one input and one output channel per group; operators/conv-integer.c
 * runs them instead of its per-group im2col + igemm, whose 4x8 tiles would
 * be 1/4 empty and whose im2col copies every tap).
 *
 * Each channel of X is first copied into a zero-padded plane of int16
 * differences x - zx (holo_ukernel_idwpad_i8__scalar): a padding tap is 0,
 * as onnxruntime pads X with its zero point. The filter is given as int16
 * differences w - zw (-255..255). Then one output row oh of the channel is
 *
 *   y[ow] = sum_{kh, kw} wt[kh*kW + kw] * xp[(oh*s0 + kh*d0)*ldx + ow*s1 + kw*d1]
 *
 * in int32: every product |p| <= 65025 and the operator admits at most
 * HOLO_IGEMM_MAX_K taps, so the sum is exact and has one value in any
 * order. Every variant gives the same bytes (no byte class of its own), and
 * the same bytes as the im2col path (tests/c/test_microkernels_int.c).
 *
 *   idwpad-i8-scalar.c             holo_ukernel_idwpad_i8__scalar
 *   idwconv2d-i16-row-scalar.c     holo_ukernel_idwconv2d_i16_row__scalar, any strides
 *   idwconv2d-i16-row-simd128.c    holo_ukernel_idwconv2d_i16_row__simd128, width
 *                                  strides 1 and 2 (holo_idwconv2d_simd_ok): 8 outputs
 *                                  a step, i32x4.extmul_{low,high}_i16x8_s per tap */
#ifndef HOLOGRAM_KERNELS_IDWCONV2D_H
#define HOLOGRAM_KERNELS_IDWCONV2D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/window2d.h"

/* The padded plane: Hp rows of Wp int16 cover every tap of every output,
 * the output row rounded up to 8 (the SIMD step), plus 8 for the second
 * load of a stride-2 step. */
static inline void holo_idwconv2d_plane_geom(const holo_k_win2d *w, size_t *Hp, size_t *Wp) {
  const int64_t OWr = (w->out[1] + 7) & ~(int64_t)7;
  *Hp = (size_t)((w->out[0] - 1) * w->stride[0] + (w->k[0] - 1) * w->dil[0] + 1);
  *Wp = (size_t)((OWr - 1) * w->stride[1] + (w->k[1] - 1) * w->dil[1] + 1 + 8);
}
static inline size_t holo_idwconv2d_plane_elems(const holo_k_win2d *w) {
  size_t Hp, Wp;
  holo_idwconv2d_plane_geom(w, &Hp, &Wp);
  return Hp * Wp;
}

/* xp[r][q] = x[r - pad_top][q - pad_left] - zx inside X [H][W] (u8 or i8),
 * 0 elsewhere, for the plane of holo_idwconv2d_plane_geom. */
void holo_ukernel_idwpad_i8__scalar(int16_t *xp, const void *x, bool u8, int32_t zx, const holo_k_win2d *w);

#define HOLO_IDWCONV2D_ARGS                                                                                  \
  const holo_k_win2d *w, const int16_t *xp, size_t ldx, const int16_t *wt, int32_t *y, int64_t oh

void holo_ukernel_idwconv2d_i16_row__scalar(HOLO_IDWCONV2D_ARGS);
#ifdef __wasm_simd128__
void holo_ukernel_idwconv2d_i16_row__simd128(HOLO_IDWCONV2D_ARGS);
#endif

static inline bool holo_idwconv2d_simd_ok(const holo_k_win2d *w) {
  return w->stride[1] == 1 || w->stride[1] == 2;
}

/* The build's kernel for one output row. */
static inline void holo_idwconv2d_i16_row(HOLO_IDWCONV2D_ARGS) {
#ifdef __wasm_simd128__
  if (holo_idwconv2d_simd_ok(w)) {
    holo_ukernel_idwconv2d_i16_row__simd128(w, xp, ldx, wt, y, oh);
    return;
  }
#endif
  holo_ukernel_idwconv2d_i16_row__scalar(w, xp, ldx, wt, y, oh);
}

#endif
