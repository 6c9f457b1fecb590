/* Sigmoid and SiLU per element on holo_vexpf_neg (math/vexpf.h), scalar
 * and 4 lanes, the same f32 operations in the same order (docs/kernels.md,
 * "Activations"):
 *
 *   z = -|x|                    (the sign bit set)
 *   e = e^z, f = e / (e + 1)    sigmoid(z) = sigmoid(-|x|), never overflows
 *   f = 0       where z < CUTOFF (sigmoid(-|x|) subnormal or 0; -inf too)
 *   f = 1 - f   where x > 0
 *   f = x + x   where x is NaN
 *   SiLU: x * f, the very multiply of Mul(x, Sigmoid(x)), so the fused
 *   node's bytes are the pair's. */
#ifndef HOLOGRAM_KERNELS_MATH_VSIGMOIDF_H
#define HOLOGRAM_KERNELS_MATH_VSIGMOIDF_H

#include "math/vexpf.h"

static inline float holo_vsigmoidf(float x) {
  if (x != x) return x + x;
  const float z = -__builtin_fabsf(x);
  float f = 0.0f;
  if (!(z < HOLO_VEXP_CUTOFF)) {
    const float e = holo_vexpf_neg(z);
    f = e / (e + 1.0f);
  }
  return x > 0.0f ? 1.0f - f : f;
}

static inline float holo_vsiluf(float x) { return x * holo_vsigmoidf(x); }

#ifdef __wasm_simd128__
static inline v128_t holo_vsigmoidf4(v128_t x) {
  const v128_t z = wasm_v128_or(x, wasm_f32x4_splat(-0.0f));
  const v128_t e = holo_vexpf4_neg(z);
  const v128_t one = wasm_f32x4_splat(1.0f);
  v128_t f = wasm_f32x4_div(e, wasm_f32x4_add(e, one));
  f = wasm_v128_andnot(f, wasm_f32x4_lt(z, wasm_f32x4_splat(HOLO_VEXP_CUTOFF)));
  f = wasm_v128_bitselect(wasm_f32x4_sub(one, f), f, wasm_f32x4_gt(x, wasm_f32x4_splat(0.0f)));
  return wasm_v128_bitselect(wasm_f32x4_add(x, x), f, wasm_f32x4_ne(x, x));
}

static inline v128_t holo_vsiluf4(v128_t x) { return wasm_f32x4_mul(x, holo_vsigmoidf4(x)); }
#endif

#endif
