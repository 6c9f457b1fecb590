#include "math/bits.h"
#include "math/mathlib.h"

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
