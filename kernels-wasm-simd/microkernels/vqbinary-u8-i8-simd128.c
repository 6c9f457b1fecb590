/* QLinearAdd / QLinearMul row in wasm SIMD128 (vqbinary.h): 16 elements
 * at a time, widened to four i32x4, then per lane exactly the scalar's f32
 * steps (convert, mul, add|mul, pmax with 0 for `v < 0 ? 0 : v`, div,
 * pmax / pmin for the clamps, the same 1.5 * 2^23 rounding bias) and two
 * narrowing steps (values in range: saturation never acts). A broadcast
 * operand (step 0) is one splatted element. Other steps, and the tail, go
 * to the scalar kernel: the same bytes. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "common/fp-contract.h"
#include "microkernels/vqbinary.h"

/* Four f32x4 of (x - z) * s from 16 bytes (u8 or i8). */
static inline void vq_dequant(bool u8, v128_t x, v128_t z, v128_t s, v128_t *f) {
  v128_t lo = u8 ? wasm_u16x8_extend_low_u8x16(x) : wasm_i16x8_extend_low_i8x16(x);
  v128_t hi = u8 ? wasm_u16x8_extend_high_u8x16(x) : wasm_i16x8_extend_high_i8x16(x);
  v128_t w[4] = {wasm_i32x4_extend_low_i16x8(lo), wasm_i32x4_extend_high_i16x8(lo),
                 wasm_i32x4_extend_low_i16x8(hi), wasm_i32x4_extend_high_i16x8(hi)};
  for (int k = 0; k < 4; k++)
    f[k] = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(wasm_i32x4_sub(w[k], z)), s);
}

static inline v128_t vq_splat(bool u8, const void *p) {
  return wasm_i8x16_splat(u8 ? (int8_t) * (const uint8_t *)p : *(const int8_t *)p);
}

void holo_ukernel_vqbinary_u8i8__simd128(const holo_vqbinary *p, size_t n, const void *a, size_t sa,
                                         const void *b, size_t sb, void *y) {
  if (!((sa == 1 && sb <= 1) || (sa == 0 && sb == 1))) {
    holo_ukernel_vqbinary_u8i8__scalar(p, n, a, sa, b, sb, y);
    return;
  }
  const float lo = (float)((p->u8 ? 0 : -128) - p->zc), hi = (float)((p->u8 ? 255 : 127) - p->zc);
  const v128_t vlo = wasm_f32x4_splat(lo), vhi = wasm_f32x4_splat(hi), zero = wasm_f32x4_splat(0.0f);
  const v128_t za = wasm_i32x4_splat(p->za), zb = wasm_i32x4_splat(p->zb), cs = wasm_f32x4_splat(p->cs);
  const v128_t as = wasm_f32x4_splat(p->as), bs = wasm_f32x4_splat(p->bs);
  const v128_t magic = wasm_f32x4_splat(12582912.0f), mbits = wasm_i32x4_splat(0x4B400000 - p->zc);
  const uint8_t *pa = a, *pb = b;
  uint8_t *py = y;
  const v128_t xa0 = vq_splat(p->u8, a), xb0 = vq_splat(p->u8, b);
  size_t j = 0;
  for (; j + 16 <= n; j += 16) {
    v128_t fa[4], fb[4], r[4];
    vq_dequant(p->u8, sa ? wasm_v128_load(pa + j) : xa0, za, as, fa);
    vq_dequant(p->u8, sb ? wasm_v128_load(pb + j) : xb0, zb, bs, fb);
    for (int k = 0; k < 4; k++) {
      v128_t v = p->mul ? wasm_f32x4_mul(fa[k], fb[k]) : wasm_f32x4_add(fa[k], fb[k]);
      if (p->relu) v = wasm_f32x4_pmax(v, zero);
      v = wasm_f32x4_div(v, cs);
      v = wasm_f32x4_pmin(wasm_f32x4_pmax(v, vlo), vhi);
      r[k] = wasm_i32x4_sub(wasm_f32x4_add(v, magic), mbits);
    }
    v128_t h0 = wasm_i16x8_narrow_i32x4(r[0], r[1]), h1 = wasm_i16x8_narrow_i32x4(r[2], r[3]);
    wasm_v128_store(py + j, p->u8 ? wasm_u8x16_narrow_i16x8(h0, h1) : wasm_i8x16_narrow_i16x8(h0, h1));
  }
  if (j < n) holo_ukernel_vqbinary_u8i8__scalar(p, n - j, pa + j * sa, sa, pb + j * sb, sb, py + j);
}
#endif
