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
 * Two forms share these steps: holo_vexpf_neg2(hi, lo) takes the argument
 * as an exact hi plus a small lo (the square in erfc's e^(-x^2), where one
 * f32 rounding of the argument would cost up to 80 ulp): n comes from
 * hi + lo, the reduction is done on hi (exact: both terms are multiples of
 * 2^-17 below 128), then t = t + lo. holo_vexpf_neg(z) is (z, -0): adding
 * -0 is the identity on every float, so it is the plain steps above and
 * compilers drop it. holo_vexpm1f_neg: e^z - 1 = t * s * p + (s - 1),
 * accurate near 0 (s - 1 is exact; for n = 0 it is 0).
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

typedef union { float f; uint32_t u; } holo_vexp_bits;

/* n, s = 2^n and the reduced t of hi + lo (the steps above, t += lo). */
static inline float holo_vexp_reduce(float hi, float lo, float *s) {
  holo_vexp_bits nb, sb;
  nb.f = (hi + lo) * HOLO_VEXP_LOG2E + HOLO_VEXP_MAGIC;
  sb.u = nb.u << 23;
  *s = sb.f;
  const float n = nb.f - HOLO_VEXP_MAGIC;
  float t = n * HOLO_VEXP_NLN2_HI + hi;
  t = n * HOLO_VEXP_NLN2_LO + t;
  return t + lo;
}

static inline float holo_vexp_poly(float t) {
  float p = HOLO_VEXP_C6 * t + HOLO_VEXP_C5;
  p = p * t + HOLO_VEXP_C4;
  p = p * t + HOLO_VEXP_C3;
  p = p * t + HOLO_VEXP_C2;
  return p * t + HOLO_VEXP_C1;
}

/* e^(hi + lo) for HOLO_VEXP_CUTOFF <= hi + lo <= 0, hi exact (see above). */
static inline float holo_vexpf_neg2(float hi, float lo) {
  float s;
  float t = holo_vexp_reduce(hi, lo, &s);
  const float p = holo_vexp_poly(t);
  t = t * s;
  return t * p + s;
}

/* e^z for HOLO_VEXP_CUTOFF <= z <= 0. */
static inline float holo_vexpf_neg(float z) { return holo_vexpf_neg2(z, -0.0f); }

/* e^d for any d <= 0 or NaN (Softmax's x - max): 0 below CUTOFF (and for
 * -inf), d + d for NaN. */
static inline float holo_vexpf_nonpos(float d) {
  if (d != d) return d + d;
  return d < HOLO_VEXP_CUTOFF ? 0.0f : holo_vexpf_neg(d);
}

/* e^z - 1 for HOLO_VEXP_CUTOFF <= z <= 0. */
static inline float holo_vexpm1f_neg(float z) {
  float s;
  float t = holo_vexp_reduce(z, -0.0f, &s);
  const float p = holo_vexp_poly(t);
  t = t * s;
  return t * p + (s - 1.0f);
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#define HOLO_V4(c) wasm_f32x4_splat(c)

static inline v128_t holo_vexp4_reduce(v128_t hi, v128_t lo, v128_t *s) {
  v128_t n = wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_add(hi, lo), HOLO_V4(HOLO_VEXP_LOG2E)), HOLO_V4(HOLO_VEXP_MAGIC));
  *s = wasm_i32x4_shl(n, 23);
  n = wasm_f32x4_sub(n, HOLO_V4(HOLO_VEXP_MAGIC));
  v128_t t = wasm_f32x4_add(wasm_f32x4_mul(n, HOLO_V4(HOLO_VEXP_NLN2_HI)), hi);
  t = wasm_f32x4_add(wasm_f32x4_mul(n, HOLO_V4(HOLO_VEXP_NLN2_LO)), t);
  return wasm_f32x4_add(t, lo);
}

static inline v128_t holo_vexp4_poly(v128_t t) {
  v128_t p = wasm_f32x4_add(wasm_f32x4_mul(HOLO_V4(HOLO_VEXP_C6), t), HOLO_V4(HOLO_VEXP_C5));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), HOLO_V4(HOLO_VEXP_C4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), HOLO_V4(HOLO_VEXP_C3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, t), HOLO_V4(HOLO_VEXP_C2));
  return wasm_f32x4_add(wasm_f32x4_mul(p, t), HOLO_V4(HOLO_VEXP_C1));
}

/* The 4-lane forms, the same operations in the same order. Lanes outside
 * [CUTOFF, 0] give garbage (never a trap): the caller selects. */
static inline v128_t holo_vexpf4_neg2(v128_t hi, v128_t lo) {
  v128_t s;
  v128_t t = holo_vexp4_reduce(hi, lo, &s);
  const v128_t p = holo_vexp4_poly(t);
  t = wasm_f32x4_mul(t, s);
  return wasm_f32x4_add(wasm_f32x4_mul(t, p), s);
}

static inline v128_t holo_vexpf4_neg(v128_t z) { return holo_vexpf4_neg2(z, HOLO_V4(-0.0f)); }

static inline v128_t holo_vexpf4_nonpos(v128_t d) {
  const v128_t e = wasm_v128_andnot(holo_vexpf4_neg(d), wasm_f32x4_lt(d, HOLO_V4(HOLO_VEXP_CUTOFF)));
  return wasm_v128_bitselect(wasm_f32x4_add(d, d), e, wasm_f32x4_ne(d, d));
}

static inline v128_t holo_vexpm1f4_neg(v128_t z) {
  v128_t s;
  v128_t t = holo_vexp4_reduce(z, HOLO_V4(-0.0f), &s);
  const v128_t p = holo_vexp4_poly(t);
  t = wasm_f32x4_mul(t, s);
  return wasm_f32x4_add(wasm_f32x4_mul(t, p), wasm_f32x4_sub(s, HOLO_V4(1.0f)));
}
#endif

#endif
