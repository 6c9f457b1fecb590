/* holo_expf on 4 lanes (mathlib.h): the same operations per lane as
 * expf.c's exp_d and holo_expf, so each lane's bytes are holo_expf's. */
#ifdef __wasm_simd128__
#include "math/mathlib.h"

/* 2 lanes of expf.c's exp_d (see holo_expf4): kf = x*log2e; k = trunc(kf
 * -+ 0.5) (what the (int64_t) cast of the rounded value gives); r = (x -
 * k*LN2_HI) - k*LN2_LO; Horner; times 2^k built from k's bits. */
static v128_t exp_d2(v128_t x) {
  const v128_t kf = wasm_f64x2_mul(x, wasm_f64x2_splat(1.44269504088896340736));
  const v128_t half = wasm_v128_bitselect(wasm_f64x2_splat(-0.5), wasm_f64x2_splat(0.5),
                                          wasm_f64x2_lt(kf, wasm_f64x2_splat(0.0)));
  const v128_t k = wasm_f64x2_trunc(wasm_f64x2_add(kf, half));
  const v128_t r = wasm_f64x2_sub(wasm_f64x2_sub(x, wasm_f64x2_mul(k, wasm_f64x2_splat(6.93147180369123816490e-01))),
                                  wasm_f64x2_mul(k, wasm_f64x2_splat(1.90821492927058770002e-10)));
  static const double c[] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0, 1.0 / 362880.0,
                             1.0 / 40320.0,     1.0 / 5040.0,     1.0 / 720.0,     1.0 / 120.0,
                             1.0 / 24.0,        1.0 / 6.0,        0.5,             1.0,
                             1.0};
  v128_t p = wasm_f64x2_splat(1.0 / 6227020800.0);
  for (int i = 0; i < 13; i++) p = wasm_f64x2_add(wasm_f64x2_mul(p, r), wasm_f64x2_splat(c[i]));
  /* k is an integer in [-151, 129] here: k + 1.5*2^52 holds it in the low
   * mantissa bits; (those bits + 1023) << 52 is 2^k (the rest shifts out) */
  const v128_t kb = wasm_f64x2_add(k, wasm_f64x2_splat(6755399441055744.0));
  const v128_t scale = wasm_i64x2_shl(wasm_i64x2_add(kb, wasm_i64x2_splat(1023)), 52);
  return wasm_f64x2_mul(p, scale);
}

v128_t holo_expf4(v128_t x) {
  /* the polynomial on a clamped copy (out-of-range lanes are replaced below) */
  const v128_t xc = wasm_f32x4_pmax(wasm_f32x4_pmin(x, wasm_f32x4_splat(88.8f)), wasm_f32x4_splat(-104.0f));
  const v128_t lo = exp_d2(wasm_f64x2_promote_low_f32x4(xc));
  const v128_t hi = exp_d2(wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(xc, xc, 2, 3, 2, 3)));
  v128_t y = wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi), 0, 1, 4, 5);
  y = wasm_v128_bitselect(wasm_f32x4_splat(__builtin_inff()), y, wasm_f32x4_gt(x, wasm_f32x4_splat(88.8f)));
  y = wasm_v128_bitselect(wasm_f32x4_splat(0.0f), y, wasm_f32x4_lt(x, wasm_f32x4_splat(-104.0f)));
  return wasm_v128_bitselect(wasm_f32x4_add(x, x), y, wasm_f32x4_ne(x, x));
}
#else
typedef int holo_expf_simd128_unused; /* no wasm SIMD in this build */
#endif
