/* IEEE-754 binary16 and bfloat16 <-> double, exact in and rounded once out. */
#include "math/bits.h"
#include "math/mathlib.h"

double holo_f16_to_f64(uint16_t h) {
  double s = (h & 0x8000) ? -1.0 : 1.0;
  uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) return s * (double)m * (1.0 / 16777216.0); /* m * 2^-24, exact */
  if (e == 31) {
    if (m == 0) return s * __builtin_inf();
    /* keep sign and payload: binary16 payload bits go to the top of the
     * double's fraction */
    return holo_m_double(((uint64_t)(h & 0x8000) << 48) | 0x7ff8000000000000ull | ((uint64_t)m << 42));
  }
  return s * (double)(m | 0x400) * holo_m_double((uint64_t)(1023 + (int)e - 25) << 52);
}

double holo_bf16_to_f64(uint16_t b) { return (double)holo_m_float32((uint32_t)b << 16); }

/* Rounded to f32 by round-to-odd first (the nearest f32 toward zero, its
 * last bit set when inexact), then to bf16 to nearest even: two roundings
 * that give the one correct rounding, since f32 has more than 8 + 1 bits. */
uint16_t holo_f64_to_bf16(double d) {
  if (d != d) {
    uint64_t u = holo_m_bits(d);
    return (uint16_t)(((u >> 48) & 0x8000) | 0x7fc0 | ((u >> 45) & 0x3f));
  }
  float f = (float)d;
  uint32_t u = holo_m_bits32(f);
  if ((double)f != d && !(u & 1)) u = __builtin_fabs((double)f) < __builtin_fabs(d) ? u + 1 : u - 1;
  if ((u & 0x7fffffffu) >= 0x7f800000u) return (uint16_t)(u >> 16); /* inf */
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

uint16_t holo_f64_to_f16(double d) {
  uint64_t u = holo_m_bits(d);
  uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
  uint64_t a = u & 0x7fffffffffffffffull;
  if (a > 0x7ff0000000000000ull) return (uint16_t)(sign | 0x7e00 | ((a >> 42) & 0x1ff));
  if (a == 0x7ff0000000000000ull) return (uint16_t)(sign | 0x7c00);
  double ad = holo_m_double(a);
  if (ad >= 65520.0) return (uint16_t)(sign | 0x7c00); /* rounds past the largest finite 65504 */
  if (ad < 6.103515625e-05) {                          /* below 2^-14: a multiple of 2^-24 */
    double s = ad * 16777216.0;                        /* exact scaling */
    double r = (s + 4503599627370496.0) - 4503599627370496.0; /* ties to even */
    return (uint16_t)(sign | (uint16_t)r);             /* r = 1024 encodes 2^-14 */
  }
  int e = (int)(a >> 52) - 1023; /* -14 .. 15 */
  uint64_t mant = (a & 0xfffffffffffffull) | (1ull << 52);
  uint64_t q = mant >> 42, rem = mant & ((1ull << 42) - 1), half = 1ull << 41;
  if (rem > half || (rem == half && (q & 1))) q++;
  uint32_t b = ((uint32_t)(e + 15) << 10) + (uint32_t)(q - 1024); /* a carry bumps the exponent */
  if (b >= 0x7c00) b = 0x7c00;
  return (uint16_t)(sign | b);
}
