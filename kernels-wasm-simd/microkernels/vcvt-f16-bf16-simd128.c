/* The 16-bit float <-> f32 conversions (vcvt.h), 8 lanes a step: the
 * scalar rule lane by lane in integer operations (the f16-subnormal lanes
 * through one exact f32 multiply, the f32 -> f16 subnormal lanes through
 * one f32 add whose result only finite lanes keep), so the same bytes;
 * the tail runs the scalar kernel. Unaligned loads and stores: x and y
 * need no alignment beyond their element's. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/vcvt.h"

/* four f16 (in the low halves of u32 lanes) -> four f32 bit patterns */
static inline v128_t f16x4_to_f32(v128_t w) {
  const v128_t a = wasm_v128_and(w, wasm_i32x4_splat(0x7fff));
  const v128_t sign = wasm_i32x4_shl(wasm_v128_and(w, wasm_i32x4_splat(0x8000)), 16);
  v128_t nrm = wasm_i32x4_add(wasm_i32x4_shl(a, 13), wasm_i32x4_splat(0x38000000));
  /* inf / NaN: the exponent goes on to 255 */
  nrm = wasm_i32x4_add(
      nrm, wasm_v128_and(wasm_i32x4_gt(a, wasm_i32x4_splat(0x7bff)), wasm_i32x4_splat(0x38000000)));
  const v128_t sub = wasm_f32x4_mul(wasm_f32x4_convert_i32x4(a), wasm_f32x4_splat(0x1p-24f));
  return wasm_v128_or(sign, wasm_v128_bitselect(sub, nrm, wasm_i32x4_lt(a, wasm_i32x4_splat(0x400))));
}

/* four f32 bit patterns -> four f16 (in u32 lanes) */
static inline v128_t f32x4_to_f16(v128_t u) {
  const v128_t a = wasm_v128_and(u, wasm_i32x4_splat(0x7fffffff));
  const v128_t sign = wasm_v128_and(wasm_u32x4_shr(u, 16), wasm_i32x4_splat(0x8000));
  const v128_t m = wasm_v128_and(wasm_u32x4_shr(a, 13), wasm_i32x4_splat(0x3ff));
  const v128_t nan =
      wasm_v128_or(wasm_v128_or(m, wasm_i32x4_splat(0x7c00)),
                   wasm_v128_and(wasm_i32x4_eq(m, wasm_i32x4_const_splat(0)), wasm_i32x4_splat(0x200)));
  const v128_t odd = wasm_v128_and(wasm_u32x4_shr(a, 13), wasm_i32x4_splat(1));
  const v128_t nrm =
      wasm_i32x4_sub(wasm_u32x4_shr(wasm_i32x4_add(wasm_i32x4_add(a, wasm_i32x4_splat(0xfff)), odd), 13),
                     wasm_i32x4_splat(0x1c000));
  const v128_t sub =
      wasm_i32x4_sub(wasm_f32x4_add(wasm_f32x4_mul(a, wasm_f32x4_splat(0x1p24f)), wasm_f32x4_splat(0x1p23f)),
                     wasm_i32x4_splat(0x4b000000));
  v128_t r = wasm_v128_bitselect(nrm, sub, wasm_i32x4_ge(a, wasm_i32x4_splat(0x38800000)));
  r = wasm_v128_bitselect(wasm_i32x4_splat(0x7c00), r, wasm_i32x4_ge(a, wasm_i32x4_splat(0x477ff000)));
  r = wasm_v128_bitselect(nan, r, wasm_i32x4_gt(a, wasm_i32x4_splat(0x7f800000)));
  return wasm_v128_or(r, sign);
}

/* four f32 bit patterns -> four bf16 (in u32 lanes) */
static inline v128_t f32x4_to_bf16(v128_t u) {
  const v128_t hi = wasm_u32x4_shr(u, 16);
  const v128_t rnd = wasm_u32x4_shr(
      wasm_i32x4_add(wasm_i32x4_add(u, wasm_i32x4_splat(0x7fff)), wasm_v128_and(hi, wasm_i32x4_splat(1))),
      16);
  const v128_t quiet =
      wasm_v128_and(wasm_i32x4_eq(wasm_v128_and(u, wasm_i32x4_splat(0x7f0000)), wasm_i32x4_const_splat(0)),
                    wasm_i32x4_splat(0x40));
  const v128_t isnan =
      wasm_i32x4_gt(wasm_v128_and(u, wasm_i32x4_splat(0x7fffffff)), wasm_i32x4_splat(0x7f800000));
  return wasm_v128_bitselect(wasm_v128_or(hi, quiet), rnd, isnan);
}

void holo_ukernel_vcvt_f16_f32__simd128(size_t n, const uint16_t *x, uint32_t *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t h = wasm_v128_load(x + i);
    wasm_v128_store(y + i, f16x4_to_f32(wasm_u32x4_extend_low_u16x8(h)));
    wasm_v128_store(y + i + 4, f16x4_to_f32(wasm_u32x4_extend_high_u16x8(h)));
  }
  holo_ukernel_vcvt_f16_f32__scalar(n - i, x + i, y + i);
}

void holo_ukernel_vcvt_f32_f16__simd128(size_t n, const uint32_t *x, uint16_t *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t lo = f32x4_to_f16(wasm_v128_load(x + i)), hi = f32x4_to_f16(wasm_v128_load(x + i + 4));
    wasm_v128_store(y + i, wasm_u16x8_narrow_i32x4(lo, hi)); /* every lane is 0 .. 0xffff: exact */
  }
  holo_ukernel_vcvt_f32_f16__scalar(n - i, x + i, y + i);
}

void holo_ukernel_vcvt_bf16_f32__simd128(size_t n, const uint16_t *x, uint32_t *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t h = wasm_v128_load(x + i);
    wasm_v128_store(y + i, wasm_i32x4_shl(wasm_u32x4_extend_low_u16x8(h), 16));
    wasm_v128_store(y + i + 4, wasm_i32x4_shl(wasm_u32x4_extend_high_u16x8(h), 16));
  }
  holo_ukernel_vcvt_bf16_f32__scalar(n - i, x + i, y + i);
}

void holo_ukernel_vcvt_f32_bf16__simd128(size_t n, const uint32_t *x, uint16_t *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t lo = f32x4_to_bf16(wasm_v128_load(x + i)), hi = f32x4_to_bf16(wasm_v128_load(x + i + 4));
    wasm_v128_store(y + i, wasm_u16x8_narrow_i32x4(lo, hi));
  }
  holo_ukernel_vcvt_f32_bf16__scalar(n - i, x + i, y + i);
}
#else
typedef int holo_vcvt_f16_bf16_simd128_unused; /* no wasm SIMD in this build */
#endif
