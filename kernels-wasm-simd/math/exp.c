/* The f64 exponential, over the whole double range (subnormal results
 * scaled in two steps), and e^x - 1. */
#include "math/bits.h"
#include "math/mathlib.h"

double holo_exp(double x) {
  if (x != x) return x + x;
  if (x > 709.782712893384) return __builtin_inf();
  if (x < -745.2) return 0.0;
  double kf = x * HOLO_M_LOG2E;
  int64_t k = (int64_t)(kf < 0 ? kf - 0.5 : kf + 0.5);
  double r = (x - (double)k * HOLO_M_LN2_HI) - (double)k * HOLO_M_LN2_LO;
  /* |r| <= ~ln2/2: Taylor to r^14 */
  double p = 1.0 / 87178291200.0;
  static const double c[] = {1.0 / 6227020800.0, 1.0 / 479001600.0, 1.0 / 39916800.0,
                             1.0 / 3628800.0,    1.0 / 362880.0,    1.0 / 40320.0,
                             1.0 / 5040.0,       1.0 / 720.0,       1.0 / 120.0,
                             1.0 / 24.0,         1.0 / 6.0,         0.5,
                             1.0,                1.0};
  for (int i = 0; i < 14; i++) p = p * r + c[i];
  if (k > 1023) return p * 2.0 * holo_m_double((uint64_t)(k - 1 + 1023) << 52);
  if (k < -1021) /* subnormal result: scale in two steps */
    return (p * holo_m_double((uint64_t)(k + 54 + 1023) << 52)) * holo_m_double((uint64_t)(1023 - 54) << 52);
  return p * holo_m_double((uint64_t)(k + 1023) << 52);
}

double holo_expm1(double x) {
  if (__builtin_fabs(x) < 1e-5) return x + x * x * 0.5 + x * x * x * (1.0 / 6.0);
  return holo_exp(x) - 1.0;
}
