#include "gen-mathf.h"

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

/* exp in double for the clamped range of holo_gen_expf (2^k stays a normal
 * double): ln 2 split so k*LN2_HI is exact, Taylor to r^13 on |r| <= ln2/2
 * (error < 2e-16). */
static double exp_d(double x) {
  double kf = x * LOG2E;
  int64_t k = (int64_t)(kf < 0 ? kf - 0.5 : kf + 0.5);
  const double LN2_HI = 6.93147180369123816490e-01, LN2_LO = 1.90821492927058770002e-10;
  double r = (x - (double)k * LN2_HI) - (double)k * LN2_LO;
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

float holo_gen_expf(float x) {
  if (x != x) return x + x;
  if (x > 88.8f) return __builtin_inff();
  if (x < -104.0f) return 0.0f;
  return (float)exp_d((double)x);
}

float holo_gen_logf(float x) {
  if (x != x) return x + x;
  if (x < 0) return (x - x) / (x - x);
  if (x == 0) return -__builtin_inff();
  if (x == __builtin_inff()) return x;
  union { float f; uint32_t u; } fb = {x};
  uint32_t u = fb.u;
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
