/* sinh, cosh and the inverse hyperbolic functions in double, from
 * holo_exp / holo_expm1 / holo_log / holo_log1p: the cancellation-free forms
 * (expm1 near 0 for sinh, log1p near 0 and near 1 for the inverses), and
 * log(2|x|) where x^2 would overflow. Odd functions are computed on |x|. */
#include "math/mathlib.h"

static const double LN2 = 0.69314718055994530942;

double holo_sinh(double x) {
  double a = __builtin_fabs(x), r;
  if (a != a) return x;
  if (a < 22) {
    double t = holo_expm1(a); /* (e^a - e^-a) / 2 = (t + t / (t + 1)) / 2 */
    r = 0.5 * (t + t / (t + 1));
  } else if (a < 709) {
    r = 0.5 * holo_exp(a);
  } else {
    double h = holo_exp(0.5 * a); /* e^a / 2 = (e^(a/2) / 2) * e^(a/2), no early overflow */
    r = (0.5 * h) * h;
  }
  return x < 0 ? -r : r;
}

double holo_cosh(double x) {
  double a = __builtin_fabs(x);
  if (a != a) return a;
  if (a < 22) {
    double t = holo_exp(a);
    return 0.5 * (t + 1 / t);
  }
  if (a < 709) return 0.5 * holo_exp(a);
  double h = holo_exp(0.5 * a);
  return (0.5 * h) * h;
}

double holo_asinh(double x) {
  double a = __builtin_fabs(x), r;
  if (a != a || a == __builtin_inf()) return x;
  if (a > 1e150)
    r = holo_log(a) + LN2;
  else
    r = holo_log1p(a + a * a / (1 + holo_sqrt(1 + a * a))); /* log(a + sqrt(a^2 + 1)) */
  return x < 0 ? -r : r;
}

/* x >= 1; NaN below. */
double holo_acosh(double x) {
  if (!(x >= 1)) return (x - x) / (x - x);
  if (x == __builtin_inf()) return x;
  if (x > 1e150) return holo_log(x) + LN2;
  double t = x - 1; /* exact for x near 1 */
  return holo_log1p(t + holo_sqrt(t * (t + 2)));
}

/* |x| <= 1 (+-inf at +-1); NaN beyond. */
double holo_atanh(double x) {
  double a = __builtin_fabs(x);
  if (!(a <= 1)) return (x - x) / (x - x);
  double r = a == 1 ? __builtin_inf() : 0.5 * holo_log1p(2 * a / (1 - a));
  return x < 0 ? -r : r;
}
