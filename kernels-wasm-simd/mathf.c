#include "mathf.h"

#include <stdint.h>

/* Separate multiply and add everywhere: a fused multiply-add would change
 * the bytes between targets. */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

static const double LN2 = 0.69314718055994530942;
static const double LOG2E = 1.44269504088896340736;

static inline double dbl_from_bits(uint64_t u) {
  union { uint64_t u; double d; } v = {u};
  return v.d;
}

static inline uint32_t f32_bits(float f) {
  union { float f; uint32_t u; } v = {f};
  return v.u;
}

/* exp for |x| <= ~750 in double, relative error ~1e-16. Callers clamp the
 * range first, so 2^k stays a normal double. */
static double exp_d(double x) {
  double kf = x * LOG2E;
  int64_t k = (int64_t)(kf < 0 ? kf - 0.5 : kf + 0.5);
  /* ln2 split so k*LN2_HI is exact for |k| < 2^11 */
  const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
  double r = (x - (double)k * LN2_HI) - (double)k * LN2_LO;
  /* |r| <= ln2/2: Taylor to r^13 leaves < 2e-16 */
  static const double c[] = {1.0 / 479001600.0, 1.0 / 39916800.0, 1.0 / 3628800.0,
                             1.0 / 362880.0,    1.0 / 40320.0,    1.0 / 5040.0,
                             1.0 / 720.0,       1.0 / 120.0,      1.0 / 24.0,
                             1.0 / 6.0,         0.5,              1.0,
                             1.0};
  double p = 1.0 / 6227020800.0;
  for (int i = 0; i < 13; i++) {
    p *= r;
    p += c[i];
  }
  return p * dbl_from_bits((uint64_t)(k + 1023) << 52);
}

float holo_expf(float x) {
  if (x != x) return x + x;
  if (x > 88.8f) return __builtin_inff();
  if (x < -104.0f) return 0.0f;
  return (float)exp_d((double)x);
}

float holo_tanhf(float x) {
  if (x != x) return x + x;
  double a = __builtin_fabs((double)x), t;
  if (a > 10.0) {
    t = 1.0; /* 1 - tanh(10) < 5e-9, below half an ulp of 1.0f */
  } else if (a < 0.0625) {
    /* series avoids the cancellation in (e-1)/(e+1) for small x */
    double a2 = a * a;
    t = a * (1.0 + a2 * (-1.0 / 3 + a2 * (2.0 / 15 + a2 * (-17.0 / 315 + a2 * (62.0 / 2835)))));
  } else {
    double e = exp_d(2.0 * a);
    t = (e - 1.0) / (e + 1.0);
  }
  return (float)__builtin_copysign(t, (double)x);
}

float holo_sigmoidf(float x) {
  if (x != x) return x + x;
  double d = (double)x;
  if (d >= 0) {
    if (d > 120) return 1.0f;
    return (float)(1.0 / (1.0 + exp_d(-d)));
  }
  if (d < -120) return 0.0f;
  double e = exp_d(d);
  return (float)(e / (1.0 + e));
}

float holo_erff(float x) {
  if (x != x) return x + x;
  double a = __builtin_fabs((double)x), r;
  if (a >= 4.0) {
    r = 1.0; /* erfc(4) = 1.5e-8, below half an ulp of 1.0f */
  } else {
    /* Maclaurin series in double: the largest term near |x| = 4 is ~1e5,
     * so cancellation costs ~1e-11 absolute, far below float precision. */
    double x2 = a * a, term = a, sum = a;
    for (int n = 1; n < 200; n++) {
      term *= -x2 / n;
      double add = term / (2 * n + 1);
      sum += add;
      if (__builtin_fabs(add) < 1e-17 * __builtin_fabs(sum) && n > x2) break;
    }
    r = sum * 1.12837916709551257390; /* 2/sqrt(pi) */
  }
  return (float)__builtin_copysign(r, (double)x);
}

float holo_logf(float x) {
  if (x != x) return x + x;
  if (x < 0) return (x - x) / (x - x);
  if (x == 0) return -__builtin_inff();
  if (x == __builtin_inff()) return x;
  uint32_t u = f32_bits(x);
  int e = (int)(u >> 23) - 127;
  if ((u >> 23) == 0) { /* subnormal: renormalize */
    union { float f; uint32_t u; } v = {x * 8388608.0f};
    u = v.u;
    e = (int)(u >> 23) - 127 - 23;
  }
  union { uint32_t u; float f; } mv = {(u & 0x7fffffu) | 0x3f800000u};
  double m = mv.f; /* [1, 2) */
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    e++;
  }
  /* log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172 */
  double s = (m - 1.0) / (m + 1.0), s2 = s * s, term = s, sum = s;
  for (int n = 3; n < 40; n += 2) {
    term *= s2;
    sum += term / n;
  }
  return (float)(2.0 * sum + (double)e * LN2);
}

static inline uint64_t dbl_bits(double d) {
  union {
    double d;
    uint64_t u;
  } v = {d};
  return v.u;
}

/* Digit-by-digit integer square root of the 106-bit m * 2^52 (two bits of
 * it per step), then one rounding: exact, so the same bytes as hardware. */
double holo_sqrt_soft(double x) {
  uint64_t ix = dbl_bits(x), m = ix & ((1ull << 52) - 1);
  int e = (int)((ix >> 52) & 0x7ff);
  if (e == 0x7ff && m) return dbl_from_bits(ix | (1ull << 51)); /* NaN: quieted */
  if (e == 0 && m == 0) return x;                               /* +-0 */
  if (ix >> 63) return dbl_from_bits(0x7ff8000000000000ull);    /* < 0: NaN */
  if (e == 0x7ff) return x;                                     /* +Inf */
  if (e == 0) {                                                 /* subnormal: normalize so bit 52 is set */
    int sh = __builtin_clzll(m) - 11;
    m <<= sh;
    e = 1 - sh;
  } else {
    m |= 1ull << 52;
  }
  int ex = e - 1023; /* x = m * 2^(ex - 52), m in [2^52, 2^53) */
  if (ex & 1) {
    m <<= 1;
    ex -= 1;
  }
  uint64_t rem = 0, root = 0;
  for (int i = 0; i < 53; i++) {
    rem = (rem << 2) | (i < 27 ? (m >> (52 - 2 * i)) & 3 : 0);
    uint64_t t = (root << 2) | 1;
    root <<= 1;
    if (rem >= t) {
      rem -= t;
      root |= 1;
    }
  }
  /* sqrt > root + 1/2 iff rem > root (no ties: a square is never a
   * half-integer's); a carry into bit 53 bumps the exponent by itself. */
  if (rem > root) root++;
  return dbl_from_bits(((uint64_t)(ex / 2 + 1022) << 52) + root);
}
