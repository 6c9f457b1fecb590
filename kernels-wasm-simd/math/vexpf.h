/* The f32 exponential of the activation microkernels (docs/kernels.md,
 * "Activations"): e^z for z <= 0 computed in f32 only, one operation at a
 * time in a fixed order, so the scalar reference and every SIMD lane give
 * the same bytes on every IEEE-754 target (no FMA: fp-contract.h).
 *
 *   n = z * LOG2E + MAGIC      round(z / ln2) in the low mantissa bits,
 *                              MAGIC = 1.5 * 2^23 + 127 (the exponent bias)
 *   s = bits(n) << 23          2^round(z / ln2), built from those bits
 *   n = n - MAGIC
 *   t = n * NLN2_HI + z        the two-step (rr2) reduction: n * NLN2_HI is
 *   t = n * NLN2_LO + t        exact (NLN2_HI has 16 significant bits)
 *   p = C6 * t + C5, then p = p * t + Ck for k = 4, 3, 2, 1
 *   t = t * s
 *   e = t * p + s              s * (1 + t * p(t))
 *
 * C1..C6: a degree-6 weighted minimax fit of e^t = 1 + t * p(t) on
 * [-ln2/2, ln2/2] (our own fit, Lawson's algorithm on relative error,
 * rounded to f32): 1.33 ulp for e^z without FMA (degree 5 gave 2.3 and
 * Sigmoid 3.4 ulp; docs/kernels.md has the measured bounds). Valid for CUTOFF <= z <= 0,
 * CUTOFF = -87.33654 (below it e^z is subnormal and the 2^n of the bits
 * is not a float): callers replace those lanes, and NaN / -inf ones, by
 * selects after the arithmetic, as the scalar code does by branches. */
#ifndef HOLOGRAM_KERNELS_MATH_VEXPF_H
#define HOLOGRAM_KERNELS_MATH_VEXPF_H

#include <stdint.h>

#include "common/fp-contract.h"

#define HOLO_VEXP_LOG2E 0x1.715476p+0f
#define HOLO_VEXP_MAGIC 0x1.8000FEp23f
#define HOLO_VEXP_NLN2_HI -0x1.62E400p-1f
#define HOLO_VEXP_NLN2_LO -0x1.7F7D1Cp-20f
#define HOLO_VEXP_C1 0x1.000000p+0f
#define HOLO_VEXP_C2 0x1.fffffcp-2f
#define HOLO_VEXP_C3 0x1.55541ap-3f
#define HOLO_VEXP_C4 0x1.555822p-5f
#define HOLO_VEXP_C5 0x1.12678ap-7f
#define HOLO_VEXP_C6 0x1.6ae72ep-10f
/* the smallest z whose e^z is a normal float */
#define HOLO_VEXP_CUTOFF -0x1.5D589Ep+6f

/* e^z for HOLO_VEXP_CUTOFF <= z <= 0, the operations above. */
static inline float holo_vexpf_neg(float z) {
  union { float f; uint32_t u; } nb, sb;
  nb.f = z * HOLO_VEXP_LOG2E + HOLO_VEXP_MAGIC;
  sb.u = nb.u << 23;
  const float n = nb.f - HOLO_VEXP_MAGIC;
  float t = n * HOLO_VEXP_NLN2_HI + z;
  t = n * HOLO_VEXP_NLN2_LO + t;
  float p = HOLO_VEXP_C6 * t + HOLO_VEXP_C5;
  p = p * t + HOLO_VEXP_C4;
  p = p * t + HOLO_VEXP_C3;
  p = p * t + HOLO_VEXP_C2;
  p = p * t + HOLO_VEXP_C1;
  t = t * sb.f;
  return t * p + sb.f;
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* holo_vexpf_neg on 4 lanes, the same operations in the same order. Lanes
 * outside [CUTOFF, 0] give garbage (never a trap): the caller selects. */
static inline v128_t holo_vexpf4_neg(v128_t z) {
  v128_t n = wasm_f32x4_add(wasm_f32x4_mul(z, wasm_f32x4_splat(HOLO_VEXP_LOG2E)), wasm_f32x4_splat(HOLO_VEXP_MAGIC));
  const v128_t s = wasm_i32x4_shl(n, 23);
  n = wasm_f32x4_sub(n, wasm_f32x4_splat(HOLO_VEXP_MAGIC));
  v128_t t = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(HOLO_VEXP_NLN2_HI)), z);
  t = wasm_f32x4_add(wasm_f32x4_mul(n, wasm_f32x4_splat(HOLO_VEXP_NLN2_LO)), t);
  v128_t p = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_splat(HOLO_VEXP_C6), t), wasm_f32x4_splat(HOLO_VEXP_C5));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(HOLO_VEXP_C4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(HOLO_VEXP_C3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(HOLO_VEXP_C2));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), wasm_f32x4_splat(HOLO_VEXP_C1));
  t = wasm_f32x4_mul(t, s);
  return wasm_f32x4_add(wasm_f32x4_mul(t, p), s);
}
#endif

#endif
