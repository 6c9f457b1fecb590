/* atan, asin and acos in double. atan reduces |x| to [0, tan(pi/12)] with
 * atan(x) = pi/2 - atan(1/x) and atan(x) = pi/6 + atan((x sqrt3 - 1) /
 * (x + sqrt3)), then sums its Taylor series (t^2 <= 0.072: 15 terms reach
 * double precision). Written from those identities rather than from a
 * minimax table: the f32 kernels round the double result once, so the
 * few-ulp double error never shows, and every constant here is checkable. */
#include "math/mathlib.h"

static const double PIO2 = 1.57079632679489661923, PIO6 = 0.52359877559829887308,
                    SQRT3 = 1.73205080756887729353, TAN_PIO12 = 0.26794919243112270647;

static double atan_series(double t) {
  double t2 = t * t, p = 0;
  for (int k = 14; k >= 0; k--)
    p = p * t2 + ((k & 1) ? -1.0 : 1.0) / (2 * k + 1);
  return t * p;
}

double holo_atan(double x) {
  if (x != x) return x;
  double a = __builtin_fabs(x), r;
  int inv = a > 1;
  if (inv) a = 1 / a; /* inf -> 0 */
  if (a > TAN_PIO12)
    r = PIO6 + atan_series((a * SQRT3 - 1) / (a + SQRT3));
  else
    r = atan_series(a);
  if (inv) r = PIO2 - r;
  return x < 0 ? -r : r;
}

/* |x| <= 1; NaN outside. (1 - x)(1 + x) keeps the digits near |x| = 1. */
double holo_asin(double x) {
  if (!(__builtin_fabs(x) <= 1)) return (x - x) / (x - x);
  double c = holo_sqrt((1 - x) * (1 + x));
  return c == 0 ? (x < 0 ? -PIO2 : PIO2) : holo_atan(x / c);
}

double holo_acos(double x) {
  if (!(__builtin_fabs(x) <= 1)) return (x - x) / (x - x);
  if (x == -1) return 2 * PIO2;
  return 2 * holo_atan(holo_sqrt((1 - x) / (1 + x)));
}
