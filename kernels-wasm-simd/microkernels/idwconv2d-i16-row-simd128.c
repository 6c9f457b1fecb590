/* One output row of a depthwise integer convolution over the padded int16
 * plane (idwconv2d.h), width strides 1 and 2, any dilations: 8 outputs a
 * step in two i32x4 accumulators, each tap one i16x8 of inputs (stride 2:
 * the even lanes of two loads) times the splatted weight through
 * i32x4.extmul_{low,high}_i16x8_s -- exact products, exact sums, so the
 * bytes are the scalar reference's. The plane holds the row rounded up to
 * 8 outputs; a partial last step goes through a local buffer. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/idwconv2d.h"

static inline v128_t idw_taps(const int16_t *p, int64_t s1) {
  v128_t a = wasm_v128_load(p);
  if (s1 == 1) return a;
  v128_t b = wasm_v128_load(p + 8);
  return wasm_i16x8_shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
}

void holo_ukernel_idwconv2d_i16_row__simd128(const holo_k_win2d *w, const int16_t *xp, size_t ldx,
                                             const int16_t *wt, int32_t *y, int64_t oh) {
  const int64_t OW = w->out[1], kH = w->k[0], kW = w->k[1], s1 = w->stride[1];
  const int64_t d0 = w->dil[0], d1 = w->dil[1];
  const int16_t *x0 = xp + (size_t)(oh * w->stride[0]) * ldx;
  for (int64_t ow = 0; ow < OW; ow += 8) {
    v128_t lo = wasm_i32x4_splat(0), hi = wasm_i32x4_splat(0);
    for (int64_t kh = 0; kh < kH; kh++) {
      const int16_t *xr = x0 + (size_t)(kh * d0) * ldx + ow * s1;
      const int16_t *wr = wt + kh * kW;
      for (int64_t kw = 0; kw < kW; kw++) {
        v128_t v = idw_taps(xr + kw * d1, s1), c = wasm_i16x8_splat(wr[kw]);
        lo = wasm_i32x4_add(lo, wasm_i32x4_extmul_low_i16x8(v, c));
        hi = wasm_i32x4_add(hi, wasm_i32x4_extmul_high_i16x8(v, c));
      }
    }
    if (OW - ow >= 8) {
      wasm_v128_store(y + ow, lo);
      wasm_v128_store(y + ow + 4, hi);
    } else {
      int32_t t[8];
      wasm_v128_store(t, lo);
      wasm_v128_store(t + 4, hi);
      for (int64_t e = 0; e < OW - ow; e++)
        y[ow + e] = t[e];
    }
  }
}
#endif
