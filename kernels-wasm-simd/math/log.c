/* The f64 logarithm (2 atanh series, small terms summed first) and
 * log(1 + x). */
#include "math/bits.h"
#include "math/mathlib.h"

double holo_log(double x) {
  if (x != x) return x + x;
  if (x < 0) return __builtin_nan("");
  if (x == 0) return -__builtin_inf();
  if (x == __builtin_inf()) return x;
  uint64_t u = holo_m_bits(x);
  int e = 0;
  if ((u >> 52) == 0) { /* subnormal */
    u = holo_m_bits(x * 18014398509481984.0); /* 2^54 */
    e = -54;
  }
  e += (int)(u >> 52) - 1023;
  double m = holo_m_double((u & 0xfffffffffffffull) | 0x3ff0000000000000ull); /* [1, 2) */
  if (m > 1.41421356237309504880) {
    m *= 0.5;
    e++;
  }
  double s = (m - 1.0) / (m + 1.0), s2 = s * s, term = s, sum = 0.0;
  /* 2 atanh(s), |s| <= 0.172: terms to s^41 */
  double t[21];
  for (int n = 0; n < 21; n++) {
    t[n] = term / (double)(2 * n + 1);
    term *= s2;
  }
  for (int n = 20; n >= 1; n--) sum += t[n]; /* small terms first */
  return ((double)e * HOLO_M_LN2_HI + (2.0 * t[0] + (2.0 * sum + (double)e * HOLO_M_LN2_LO)));
}

double holo_log1p(double x) {
  if (x < 1e-5) return x - x * x * 0.5 + x * x * x * (1.0 / 3.0);
  return holo_log(1.0 + x);
}
