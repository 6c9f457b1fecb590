/* erfc in double: a series for erf below 3, a continued fraction above
 * (erfc(z < 0) = 2 - erfc(-z): one level of recursion, -z > 0). */
#include "math/bits.h"
#include "math/mathlib.h"

double holo_erfc(double z) {
  if (z != z) return z;
  if (z < 0) return 2.0 - holo_erfc(-z);
  if (z < 3.0) {
    double z2 = z * z, term = z, sum = z;
    for (int n = 1; n < 120; n++) {
      term *= -z2 / n;
      double add = term / (2 * n + 1);
      sum += add;
      if (__builtin_fabs(add) < 1e-18 * __builtin_fabs(sum)) break;
    }
    return 1.0 - sum * 1.12837916709551257390;
  }
  if (z > 27.0) return 0.0;
  /* erfc(z) = exp(-z^2)/sqrt(pi) * 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + ...)))) */
  double f = z;
  for (int k = 60; k >= 1; k--) f = z + (k * 0.5) / f;
  return holo_exp(-z * z) / f * 0.56418958354775628695; /* 1/sqrt(pi) */
}
