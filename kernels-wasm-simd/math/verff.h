/* Erf and GELU per element in f32 (docs/kernels.md, "Activations"), scalar
 * and 4 lanes, the same operations in the same order; the 4-lane forms
 * compute both branches and select.
 *
 * erf(x), |x| < 0.921875: x * A(x^2), A of degree 5 (our own minimax fit of
 * erf(x)/x, relative error 1.6e-8 before f32 rounding), Horner.
 * erfc(z), z >= 0.921875: t = 1 / (1 + z/2); erfc(z) = t * e^(q(t) - z^2),
 * q of degree 7 (our own fit of log(erfc(z)/t) + z^2 on [0.921875, 10],
 * 3.6e-8). The square comes exact from a split of z (or of |x| with the
 * factor 1/2 for GELU's z = x / sqrt 2, so its rounding never enters the
 * exponent): zh = z's top 12 bits, zl = z - zh, hi = -(zh * zh) exact,
 * lo = q - zl * (z + zh), e^(hi + lo) by holo_vexpf_neg2; 0 unless
 * hi + lo >= CUTOFF (also for inf and NaN arguments).
 *   Erf:  small form, else sign(x) * (1 - erfc(|x|)); x + x where NaN.
 *   Gelu: h = 1 + erf(z) for |z| < 0.921875, else erfc(|z|) for x < 0,
 *         2 - erfc(|z|) otherwise; y = (0.5 * x) * h; x + x where NaN.
 *   Gelu (approximate = "tanh"): v = (0.044715 * ((x * x) * x) + x) *
 *         (2 sqrt(2/pi)); y = x * sigmoid(v) (math/vsigmoidf.h), as
 *         0.5 (1 + tanh(u)) = sigmoid(2u). */
#ifndef HOLOGRAM_KERNELS_MATH_VERFF_H
#define HOLOGRAM_KERNELS_MATH_VERFF_H

#include "math/vexpf.h"
#include "math/vsigmoidf.h"

#define HOLO_VERF_SPLIT 0.921875f
#define HOLO_VERF_RSQRT2 0x1.6a09e6p-1f
#define HOLO_VGELU_TANH_K 0x1.988454p+0f /* 2 sqrt(2 / pi) */
#define HOLO_VGELU_TANH_C 0x1.6e4e26p-5f /* 0.044715 */

static const float holo_verf_a[6] = {0x1.20dd74p+0f,  -0x1.8126e6p-2f, 0x1.ce1a6ap-4f,
                                     -0x1.b68b4ap-6f, 0x1.473b74p-8f,  -0x1.3a170ep-11f};
static const float holo_verfc_q[8] = {-0x1.43f104p+0f, 0x1.fe986ep-1f, 0x1.9bde38p-2f, -0x1.038960p-4f,
                                      0x1.8329c8p-2f,  -0x1.ff1482p-1f, 0x1.6f65e0p-1f, -0x1.56ed98p-3f};

static inline float holo_verf_small(float x) {
  const float x2 = x * x;
  float p = holo_verf_a[5] * x2 + holo_verf_a[4];
  for (int k = 3; k >= 0; k--) p = p * x2 + holo_verf_a[k];
  return x * p;
}

/* erfc(z) for z >= 0.921875 with z = a * sqrt(s2): the square as s2 * a^2. */
static inline float holo_verfc_big(float z, float a, float s2) {
  const float t = 1.0f / (1.0f + 0.5f * z);
  float q = holo_verfc_q[7] * t + holo_verfc_q[6];
  for (int k = 5; k >= 0; k--) q = q * t + holo_verfc_q[k];
  holo_vexp_bits hb = {a};
  hb.u &= 0xFFFFF000u;
  const float ah = hb.f, al = a - ah;
  const float hi = -(s2 * (ah * ah)), lo = q - s2 * (al * (a + ah));
  if (!(hi + lo >= HOLO_VEXP_CUTOFF)) return 0.0f;
  return t * holo_vexpf_neg2(hi, lo);
}

static inline float holo_verff(float x) {
  if (x != x) return x + x;
  const float a = __builtin_fabsf(x);
  if (a < HOLO_VERF_SPLIT) return holo_verf_small(x);
  return __builtin_copysignf(1.0f - holo_verfc_big(a, a, 1.0f), x);
}

static inline float holo_vgeluf(float x) {
  if (x != x) return x + x;
  const float z = x * HOLO_VERF_RSQRT2;
  const float a = __builtin_fabsf(z);
  float h;
  if (a < HOLO_VERF_SPLIT) {
    h = 1.0f + holo_verf_small(z);
  } else {
    const float e = holo_verfc_big(a, __builtin_fabsf(x), 0.5f);
    h = x < 0.0f ? e : 2.0f - e;
  }
  return (0.5f * x) * h;
}

static inline float holo_vgelutanhf(float x) {
  const float v = (HOLO_VGELU_TANH_C * ((x * x) * x) + x) * HOLO_VGELU_TANH_K;
  return x * holo_vsigmoidf(v);
}

#ifdef __wasm_simd128__
static inline v128_t holo_verf4_small(v128_t x) {
  const v128_t x2 = wasm_f32x4_mul(x, x);
  v128_t p = wasm_f32x4_add(wasm_f32x4_mul(HOLO_V4(holo_verf_a[5]), x2), HOLO_V4(holo_verf_a[4]));
  for (int k = 3; k >= 0; k--) p = wasm_f32x4_add(wasm_f32x4_mul(p, x2), HOLO_V4(holo_verf_a[k]));
  return wasm_f32x4_mul(x, p);
}

static inline v128_t holo_verfc4_big(v128_t z, v128_t a, float s2) {
  const v128_t t = wasm_f32x4_div(HOLO_V4(1.0f), wasm_f32x4_add(HOLO_V4(1.0f), wasm_f32x4_mul(HOLO_V4(0.5f), z)));
  v128_t q = wasm_f32x4_add(wasm_f32x4_mul(HOLO_V4(holo_verfc_q[7]), t), HOLO_V4(holo_verfc_q[6]));
  for (int k = 5; k >= 0; k--) q = wasm_f32x4_add(wasm_f32x4_mul(q, t), HOLO_V4(holo_verfc_q[k]));
  const v128_t ah = wasm_v128_and(a, wasm_i32x4_splat((int32_t)0xFFFFF000u)), al = wasm_f32x4_sub(a, ah);
  const v128_t hi = wasm_f32x4_neg(wasm_f32x4_mul(HOLO_V4(s2), wasm_f32x4_mul(ah, ah)));
  const v128_t lo = wasm_f32x4_sub(q, wasm_f32x4_mul(HOLO_V4(s2), wasm_f32x4_mul(al, wasm_f32x4_add(a, ah))));
  const v128_t r = wasm_f32x4_mul(t, holo_vexpf4_neg2(hi, lo));
  return wasm_v128_and(r, wasm_f32x4_ge(wasm_f32x4_add(hi, lo), HOLO_V4(HOLO_VEXP_CUTOFF)));
}

static inline v128_t holo_verff4(v128_t x) {
  const v128_t a = wasm_f32x4_abs(x);
  const v128_t big = wasm_v128_bitselect(x, wasm_f32x4_sub(HOLO_V4(1.0f), holo_verfc4_big(a, a, 1.0f)), HOLO_V4(-0.0f));
  const v128_t y = wasm_v128_bitselect(holo_verf4_small(x), big, wasm_f32x4_lt(a, HOLO_V4(HOLO_VERF_SPLIT)));
  return wasm_v128_bitselect(wasm_f32x4_add(x, x), y, wasm_f32x4_ne(x, x));
}

static inline v128_t holo_vgeluf4(v128_t x) {
  const v128_t z = wasm_f32x4_mul(x, HOLO_V4(HOLO_VERF_RSQRT2));
  const v128_t a = wasm_f32x4_abs(z);
  const v128_t e = holo_verfc4_big(a, wasm_f32x4_abs(x), 0.5f);
  const v128_t big = wasm_v128_bitselect(e, wasm_f32x4_sub(HOLO_V4(2.0f), e), wasm_f32x4_lt(x, HOLO_V4(0.0f)));
  const v128_t h = wasm_v128_bitselect(wasm_f32x4_add(HOLO_V4(1.0f), holo_verf4_small(z)), big,
                                       wasm_f32x4_lt(a, HOLO_V4(HOLO_VERF_SPLIT)));
  const v128_t y = wasm_f32x4_mul(wasm_f32x4_mul(HOLO_V4(0.5f), x), h);
  return wasm_v128_bitselect(wasm_f32x4_add(x, x), y, wasm_f32x4_ne(x, x));
}

static inline v128_t holo_vgelutanhf4(v128_t x) {
  const v128_t x3 = wasm_f32x4_mul(wasm_f32x4_mul(x, x), x);
  const v128_t v = wasm_f32x4_mul(wasm_f32x4_add(wasm_f32x4_mul(HOLO_V4(HOLO_VGELU_TANH_C), x3), x),
                                  HOLO_V4(HOLO_VGELU_TANH_K));
  return wasm_f32x4_mul(x, holo_vsigmoidf4(v));
}
#endif

#endif
