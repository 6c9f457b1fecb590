/* The f32 exponential family: exp, tanh and sigmoid, each computed in
 * double through one polynomial exp and rounded once. */
#include "math/bits.h"
#include "math/mathlib.h"

/* exp for |x| <= ~750 in double, relative error ~1e-16. Callers clamp the
 * range first, so 2^k stays a normal double. */
static double exp_d(double x) {
  double kf = x * HOLO_M_LOG2E;
  int64_t k = (int64_t)(kf < 0 ? kf - 0.5 : kf + 0.5);
  double r = (x - (double)k * HOLO_M_LN2_HI) - (double)k * HOLO_M_LN2_LO;
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
  return p * holo_m_double((uint64_t)(k + 1023) << 52);
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
