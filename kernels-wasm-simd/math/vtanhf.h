/* Tanh per element on holo_vexpm1f_neg (math/vexpf.h), scalar and 4
 * lanes, the same f32 operations in the same order (docs/kernels.md,
 * "Activations"):
 *
 *   z = -2 * |x|                 (exact)
 *   e = e^z - 1                  (-1 where z < CUTOFF: tanh rounds to 1)
 *   r = -e / (2 + e)             tanh(|x|) = (1 - e^z) / (1 + e^z), no
 *                                cancellation near 0 (e is e^z - 1 itself)
 *   r with x's sign bit; x + x where x is NaN. */
#ifndef HOLOGRAM_KERNELS_MATH_VTANHF_H
#define HOLOGRAM_KERNELS_MATH_VTANHF_H

#include "math/vexpf.h"

static inline float holo_vtanhf(float x) {
  if (x != x) return x + x;
  const float z = -2.0f * __builtin_fabsf(x);
  const float e = z < HOLO_VEXP_CUTOFF ? -1.0f : holo_vexpm1f_neg(z);
  return __builtin_copysignf(-e / (2.0f + e), x);
}

#ifdef __wasm_simd128__
static inline v128_t holo_vtanhf4(v128_t x) {
  const v128_t z = wasm_f32x4_mul(HOLO_V4(-2.0f), wasm_f32x4_abs(x));
  v128_t e = holo_vexpm1f4_neg(z);
  e = wasm_v128_bitselect(HOLO_V4(-1.0f), e, wasm_f32x4_lt(z, HOLO_V4(HOLO_VEXP_CUTOFF)));
  const v128_t r = wasm_f32x4_div(wasm_f32x4_neg(e), wasm_f32x4_add(HOLO_V4(2.0f), e));
  const v128_t y = wasm_v128_bitselect(x, r, HOLO_V4(-0.0f)); /* copysign */
  return wasm_v128_bitselect(wasm_f32x4_add(x, x), y, wasm_f32x4_ne(x, x));
}
#endif

#endif
