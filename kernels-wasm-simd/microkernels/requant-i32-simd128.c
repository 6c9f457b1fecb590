/* Requantization in wasm SIMD128 (requant.h): four sums at a time,
 * f32x4.convert, mul, pmax / pmin (exactly the scalar's `f < lo ? lo : f`
 * and `hi < f ? hi : f`), the same 1.5 * 2^23 rounding bias, then two
 * narrowing steps (the values are in range, so saturation never acts).
 * Every step is the scalar's operation on each lane: the same bytes. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "common/fp-contract.h"
#include "microkernels/requant.h"

void holo_ukernel_requant_i32__simd128(size_t n, const int32_t *acc, const holo_requant *q, void *y) {
  const float lo = (float)((q->u8 ? 0 : -128) - q->zp), hi = (float)((q->u8 ? 255 : 127) - q->zp);
  const v128_t vlo = wasm_f32x4_splat(lo), vhi = wasm_f32x4_splat(hi), vb = wasm_i32x4_splat(q->bias);
  const v128_t magic = wasm_f32x4_splat(12582912.0f), mbits = wasm_i32x4_splat(0x4B400000 - q->zp);
  v128_t s = wasm_f32x4_splat(q->s[0]);
  size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    if (q->ss) s = wasm_v128_load(q->s + j);
    v128_t f = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_add(wasm_v128_load(acc + j), vb)), s);
    f = wasm_f32x4_pmax(f, vlo);
    f = wasm_f32x4_pmin(f, vhi);
    v128_t r = wasm_i32x4_sub(wasm_f32x4_add(f, magic), mbits);
    v128_t h = wasm_i16x8_narrow_i32x4(r, r);
    v128_t b = q->u8 ? wasm_u8x16_narrow_i16x8(h, h) : wasm_i8x16_narrow_i16x8(h, h);
    wasm_v128_store32_lane((uint8_t *)y + j, b, 0);
  }
  if (j < n) {
    holo_requant t = *q;
    t.s = q->s + j * q->ss;
    holo_ukernel_requant_i32__scalar(n - j, acc + j, &t, (uint8_t *)y + j);
  }
}
#endif
