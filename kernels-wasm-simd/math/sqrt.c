#include "math/bits.h"
#include "math/mathlib.h"

/* Digit-by-digit integer square root of the 106-bit m * 2^52 (two bits of
 * it per step), then one rounding: exact, so the same bytes as hardware. */
double holo_sqrt_soft(double x) {
  uint64_t ix = holo_m_bits(x), m = ix & ((1ull << 52) - 1);
  int e = (int)((ix >> 52) & 0x7ff);
  if (e == 0x7ff && m) return holo_m_double(ix | (1ull << 51)); /* NaN: quieted */
  if (e == 0 && m == 0) return x;                               /* +-0 */
  if (ix >> 63) return holo_m_double(0x7ff8000000000000ull);    /* < 0: NaN */
  if (e == 0x7ff) return x;                                     /* +Inf */
  if (e == 0) {                                                 /* subnormal: normalize so bit 52 is set */
    int sh = __builtin_clzll(m) - 11;
    m <<= sh;
    e = 1 - sh;
  } else {
    m |= 1ull << 52;
  }
  int ex = e - 1023; /* x = m * 2^(ex - 52), m in [2^52, 2^53) */
  if (ex & 1) {
    m <<= 1;
    ex -= 1;
  }
  uint64_t rem = 0, root = 0;
  for (int i = 0; i < 53; i++) {
    rem = (rem << 2) | (i < 27 ? (m >> (52 - 2 * i)) & 3 : 0);
    uint64_t t = (root << 2) | 1;
    root <<= 1;
    if (rem >= t) {
      rem -= t;
      root |= 1;
    }
  }
  /* sqrt > root + 1/2 iff rem > root (no ties: a square is never a
   * half-integer's); a carry into bit 53 bumps the exponent by itself. */
  if (rem > root) root++;
  return holo_m_double(((uint64_t)(ex / 2 + 1022) << 52) + root);
}
