#include "math/bits.h"
#include "math/mathlib.h"

/* sin and cos on [-pi/4, pi/4] */
static double sin_k(double r) {
  double r2 = r * r, p = -1.0 / 121645100408832000.0; /* -1/19! */
  static const double c[] = {1.0 / 355687428096000.0, -1.0 / 1307674368000.0,
                             1.0 / 6227020800.0,      -1.0 / 39916800.0,
                             1.0 / 362880.0,          -1.0 / 5040.0,
                             1.0 / 120.0,             -1.0 / 6.0,
                             1.0};
  for (int i = 0; i < 9; i++) p = p * r2 + c[i];
  return r * p;
}
static double cos_k(double r) {
  double r2 = r * r, p = -1.0 / 6402373705728000.0; /* -1/18! */
  static const double c[] = {1.0 / 20922789888000.0, -1.0 / 87178291200.0, 1.0 / 479001600.0,
                             -1.0 / 3628800.0,       1.0 / 40320.0,        -1.0 / 720.0,
                             1.0 / 24.0,             -0.5,                 1.0};
  for (int i = 0; i < 9; i++) p = p * r2 + c[i];
  return p;
}

/* x = k pi/2 + r; returns k mod 4 */
static int reduce_pio2(double x, double *r) {
  static const double PIO2_1 = 1.57079632673412561417e+00, PIO2_2 = 6.07710050630396597660e-11,
                      PIO2_3 = 2.02226624871116645580e-21, TWO_PI = 6.28318530717958647693;
  if (__builtin_fabs(x) > 1073741824.0) x = holo_fmod(x, TWO_PI); /* beyond 2^30: coarse */
  double kf = holo_rint(x * 0.63661977236758134308);
  *r = ((x - kf * PIO2_1) - kf * PIO2_2) - kf * PIO2_3;
  return (int)((int64_t)kf & 3);
}

double holo_sin(double x) {
  if (x != x || __builtin_fabs(x) == __builtin_inf()) return x - x;
  if (__builtin_fabs(x) < 7.450580596923828e-09) return x; /* keeps -0 */
  double r;
  switch (reduce_pio2(x, &r)) {
  case 0: return sin_k(r);
  case 1: return cos_k(r);
  case 2: return -sin_k(r);
  default: return -cos_k(r);
  }
}

double holo_cos(double x) {
  if (x != x || __builtin_fabs(x) == __builtin_inf()) return x - x;
  double r;
  switch (reduce_pio2(x, &r)) {
  case 0: return cos_k(r);
  case 1: return -sin_k(r);
  case 2: return -cos_k(r);
  default: return sin_k(r);
  }
}
