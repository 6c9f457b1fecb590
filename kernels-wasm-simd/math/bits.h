/* Bit views of floats and the ln 2 split the exponentials share (math/
 * only). */
#ifndef HOLOGRAM_KERNELS_MATH_BITS_H
#define HOLOGRAM_KERNELS_MATH_BITS_H

#include <stdint.h>

#include "common/fp-contract.h"

static inline uint64_t holo_m_bits(double d) {
  union { double d; uint64_t u; } v = {d};
  return v.u;
}
static inline double holo_m_double(uint64_t u) {
  union { uint64_t u; double d; } v = {u};
  return v.d;
}
static inline uint32_t holo_m_bits32(float f) {
  union { float f; uint32_t u; } v = {f};
  return v.u;
}
static inline float holo_m_float32(uint32_t u) {
  union { uint32_t u; float f; } v = {u};
  return v.f;
}

/* ln 2 split so k * HOLO_M_LN2_HI is exact for |k| < 2^11 */
#define HOLO_M_LN2_HI 6.93147180369123816490e-01
#define HOLO_M_LN2_LO 1.90821492927058770002e-10
#define HOLO_M_LOG2E 1.44269504088896340736
#define HOLO_M_LN2 0.69314718055994530942

#endif
