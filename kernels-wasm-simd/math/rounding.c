/* Rounding to integers and the exact remainder. */
#include "math/bits.h"
#include "math/mathlib.h"

double holo_rint(double x) {
  double a = __builtin_fabs(x);
  if (!(a < 4503599627370496.0)) return x; /* integral already, or NaN/inf */
  double r = (a + 4503599627370496.0) - 4503599627370496.0;
  return __builtin_copysign(r, x);
}

double holo_floor(double x) {
  double r = holo_rint(x);
  return r > x ? r - 1.0 : r;
}

double holo_ceil(double x) {
  double r = holo_rint(x);
  if (r < x) r += 1.0;
  return r == 0.0 ? __builtin_copysign(0.0, x) : r;
}

/* The significand of the bits u with its implicit bit, a subnormal's
 * normalized (its exponent *e lowered to match). */
static inline uint64_t fmod_mantissa(uint64_t u, int *e) {
  if (!*e) {
    uint64_t i;
    for (i = u << 12; i >> 63 == 0; (*e)--, i <<= 1) {
    }
    return u << (-*e + 1);
  }
  u &= -1ULL >> 12;
  return u | 1ULL << 52;
}

/* Bitwise long division (the algorithm of musl's fmod): exact. */
double holo_fmod(double x, double y) {
  uint64_t uxi = holo_m_bits(x), uyi = holo_m_bits(y), i;
  int ex = (int)(uxi >> 52 & 0x7ff), ey = (int)(uyi >> 52 & 0x7ff);
  uint64_t sx = uxi >> 63;
  if ((uyi << 1) == 0 || y != y || ex == 0x7ff) return (x * y) / (x * y);
  if ((uxi << 1) <= (uyi << 1)) {
    if ((uxi << 1) == (uyi << 1)) return 0 * x;
    return x;
  }
  uxi = fmod_mantissa(uxi, &ex);
  uyi = fmod_mantissa(uyi, &ey);
  for (; ex > ey; ex--) {
    i = uxi - uyi;
    if (i >> 63 == 0) {
      if (i == 0) return 0 * x;
      uxi = i;
    }
    uxi <<= 1;
  }
  i = uxi - uyi;
  if (i >> 63 == 0) {
    if (i == 0) return 0 * x;
    uxi = i;
  }
  for (; uxi >> 52 == 0; uxi <<= 1, ex--) {
  }
  if (ex > 0) {
    uxi -= 1ULL << 52;
    uxi |= (uint64_t)ex << 52;
  } else {
    uxi >>= -ex + 1;
  }
  uxi |= sx << 63;
  return holo_m_double(uxi);
}
