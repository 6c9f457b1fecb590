/* QuantizeLinear's pass in wasm SIMD128 (vquantize.h), 16 values a step:
 * f32x4.div, the clamp as pmin / pmax of a non-NaN value against integer
 * bounds (no signed-zero case: lo <= -1, hi >= 1), the 1.5 * 2^23 add and
 * subtract, an exact conversion (the value is an integer of at most 2^9),
 * NaN lanes zeroed, then the saturating narrows (exact: every lane is
 * already within the dtype). A tail goes through the scalar reference. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/vquantize.h"

static inline v128_t vq4(const float *x, v128_t s, v128_t lo, v128_t hi, v128_t bias, v128_t zp, v128_t qmin,
                         v128_t qmax) {
  v128_t v = wasm_f32x4_div(wasm_v128_load(x), s);
  v128_t ok = wasm_f32x4_eq(v, v);
  v128_t c = wasm_f32x4_pmin(wasm_f32x4_pmax(v, lo), hi);
  c = wasm_f32x4_sub(wasm_f32x4_add(c, bias), bias);
  v128_t q = wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(c), zp);
  q = wasm_i32x4_min(wasm_i32x4_max(q, qmin), qmax);
  return wasm_v128_and(q, ok);
}

void holo_ukernel_vquantize_f32_q8__simd128(const float *x, size_t n, float s, int32_t zp, bool u8,
                                            uint8_t *y) {
  const int32_t qn = u8 ? 0 : -128, qx = u8 ? 255 : 127;
  const v128_t vs = wasm_f32x4_splat(s), lo = wasm_f32x4_splat((float)(qn - zp - 1)),
               hi = wasm_f32x4_splat((float)(qx - zp + 1)), bias = wasm_f32x4_splat(12582912.0f),
               vz = wasm_i32x4_splat(zp), qmin = wasm_i32x4_splat(qn), qmax = wasm_i32x4_splat(qx);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    v128_t a = vq4(x + i, vs, lo, hi, bias, vz, qmin, qmax),
           b = vq4(x + i + 4, vs, lo, hi, bias, vz, qmin, qmax);
    v128_t c = vq4(x + i + 8, vs, lo, hi, bias, vz, qmin, qmax),
           d = vq4(x + i + 12, vs, lo, hi, bias, vz, qmin, qmax);
    v128_t ab = wasm_i16x8_narrow_i32x4(a, b), cd = wasm_i16x8_narrow_i32x4(c, d);
    wasm_v128_store(y + i, u8 ? wasm_u8x16_narrow_i16x8(ab, cd) : wasm_i8x16_narrow_i16x8(ab, cd));
  }
  holo_ukernel_vquantize_f32_q8__scalar(x + i, n - i, s, zp, u8, y + i);
}
#endif
