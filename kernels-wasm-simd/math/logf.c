#include "math/bits.h"
#include "math/mathlib.h"

float holo_logf(float x) {
  if (x != x) return x + x;
  if (x < 0) return (x - x) / (x - x);
  if (x == 0) return -__builtin_inff();
  if (x == __builtin_inff()) return x;
  uint32_t u = holo_m_bits32(x);
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
  return (float)(2.0 * sum + (double)e * HOLO_M_LN2);
}
