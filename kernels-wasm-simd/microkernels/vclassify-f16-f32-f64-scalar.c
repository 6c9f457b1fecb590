/* IsNaN / IsInf from the bits (vclassify.h): exponent all ones, and a
 * mantissa that is nonzero (NaN) or zero (infinity, the sign bit saying
 * which). */
#include "hologram/types.h"
#include "microkernels/vclassify.h"

#define CLASSIFY(T, SIGN, EXP, MANT)                                                                         \
  {                                                                                                          \
    const T *b = x;                                                                                          \
    for (size_t i = 0; i < n; i++) {                                                                         \
      T v = b[i];                                                                                            \
      bool special = (v & EXP) == EXP, isnan = special && (v & MANT) != 0, isinf = special && !(v & MANT);   \
      bool negative = (v & SIGN) != 0;                                                                       \
      y[i] = (uint8_t)(nan ? isnan : isinf && (negative ? neg : pos));                                       \
    }                                                                                                        \
  }

void holo_ukernel_vclassify_float__scalar(uint32_t dt, bool nan, bool neg, bool pos, size_t n, const void *x,
                                          uint8_t *y) {
  switch (dt) {
  case HOLO_DT_F16: CLASSIFY(uint16_t, 0x8000u, 0x7c00u, 0x03ffu) break;
  case HOLO_DT_F64:
    CLASSIFY(uint64_t, 0x8000000000000000ull, 0x7ff0000000000000ull, 0x000fffffffffffffull) break;
  default: CLASSIFY(uint32_t, 0x80000000u, 0x7f800000u, 0x007fffffu) break;
  }
}
