/* 2-D pooling microkernels on one plane xp (w->in[0] x w->in[1]) of NCHW
 * f32 (operators/pool2d.c). Window elements are visited in ascending
 * (kh, kw) order; padding never enters a max, and enters an average only
 * through its divisor (count_include_pad). A NaN in a MaxPool window makes
 * that output NaN. */
#ifndef HOLOGRAM_KERNELS_POOL2D_H
#define HOLOGRAM_KERNELS_POOL2D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"
#include "common/window2d.h"

/* One output (oh, ow) of plane xp: the window's taps inside X in ascending
 * (kh, kw). Only those are visited (holo_k_pool_taps): the padding taps add nothing
 * to a max or a sum, and their number, for count_include_pad, is a product
 * of two tap ranges. */
static inline float holo_pool2d_one_f32(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow, bool is_max,
                                        bool include_pad) {
  const int64_t H = w->in[0], W = w->in[1];
  const int64_t ihb = oh * w->stride[0] - w->pad_begin[0], iwb = ow * w->stride[1] - w->pad_begin[1];
  int64_t kh0, kh1, kw0, kw1;
  holo_k_pool_taps(ihb, w->dil[0], w->k[0], 0, H, &kh0, &kh1);
  holo_k_pool_taps(iwb, w->dil[1], w->k[1], 0, W, &kw0, &kw1);
  float mx = -__builtin_inff(), sum = 0.0f;
  for (int64_t kh = kh0; kh < kh1; kh++) {
    const int64_t r = (ihb + kh * w->dil[0]) * W + iwb;
    for (int64_t kw = kw0; kw < kw1; kw++) {
      float v = xp[r + kw * w->dil[1]];
      if (is_max) {
        if (v > mx || v != v) mx = mx != mx ? mx : v;
      } else {
        sum += v;
      }
    }
  }
  if (is_max) return mx;
  int64_t count = (kh1 - kh0) * (kw1 - kw0);
  if (include_pad) {
    int64_t ph0, ph1, pw0, pw1;
    holo_k_pool_taps(ihb, w->dil[0], w->k[0], -w->pad_begin[0], H + w->pad_end[0], &ph0, &ph1);
    holo_k_pool_taps(iwb, w->dil[1], w->k[1], -w->pad_begin[1], W + w->pad_end[1], &pw0, &pw1);
    count = (ph1 - ph0) * (pw1 - pw0);
  }
  /* an average over no element is 0, not 0/0 */
  return count ? sum / (float)count : 0.0f;
}

/* MaxPool, output row oh into y[0 .. w->out[1]) (maxpool2d-f32-scalar.c;
 * maxpool2d-f32-simd128.c: the row's interior in f32x4 groups, 4 outputs
 * per step for width strides 1 and 2, each lane with the scalar compare
 * and NaN rule in the same order; the edges by the scalar rule). */
void holo_ukernel_maxpool2d_row_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t oh, float *y);
#ifdef __wasm_simd128__
void holo_ukernel_maxpool2d_row_f32__simd128(const float *xp, const holo_k_win2d *w, int64_t oh, float *y);
#endif
static inline void holo_maxpool2d_row_f32(const float *xp, const holo_k_win2d *w, int64_t oh, float *y) {
#ifdef __wasm_simd128__
  holo_ukernel_maxpool2d_row_f32__simd128(xp, w, oh, y);
#else
  holo_ukernel_maxpool2d_row_f32__scalar(xp, w, oh, y);
#endif
}

/* MaxPool with Indices over one whole plane xp: y and idx get w->out[0] x
 * w->out[1] values; idx is base (the plane's offset in X) plus the chosen
 * element's position in the plane, row-major or (col_major) column-major
 * (maxpool2d-argmax-f32-scalar.c; one scalar class, every build). */
void holo_ukernel_maxpool2d_argmax_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t base, bool col_major,
                                               float *y, int64_t *idx);

/* AveragePool, output row oh (avgpool2d-f32-scalar.c). */
void holo_ukernel_avgpool2d_row_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t oh, bool include_pad,
                                            float *y);

/* GlobalAveragePool: Y[p] = the ascending f32 sum of plane p's n elements
 * / n (an empty plane gives NaN, as numpy's mean) (gavgpool-f32-scalar.c;
 * gavgpool-f32-simd128.c: 4 planes in 4 lanes, each in the same order, the
 * same bytes). */
void holo_ukernel_gavgpool_f32__scalar(const float *X, float *Y, size_t planes, size_t n);
#ifdef __wasm_simd128__
void holo_ukernel_gavgpool_f32__simd128(const float *X, float *Y, size_t planes, size_t n);
#define holo_gavgpool_f32 holo_ukernel_gavgpool_f32__simd128 /* the build's variant */
#else
#define holo_gavgpool_f32 holo_ukernel_gavgpool_f32__scalar
#endif

#endif
