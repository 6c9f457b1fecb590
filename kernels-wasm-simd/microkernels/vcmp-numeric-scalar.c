/* Comparisons along one broadcast row (vbroadcast.h). */
#include "common/elements.h"
#include "math/mathlib.h"
#include "microkernels/vbroadcast.h"

#include "hologram/types.h"

#define CMP(x, v)                                                                                            \
  (cmp == HOLO_CMP_EQ   ? (x) == (v)                                                                         \
   : cmp == HOLO_CMP_LT ? (x) < (v)                                                                          \
   : cmp == HOLO_CMP_GT ? (x) > (v)                                                                          \
   : cmp == HOLO_CMP_LE ? (x) <= (v)                                                                         \
                        : (x) >= (v))
#define CMP_T(T)                                                                                             \
  for (size_t j = 0; j < n; j++) {                                                                           \
    T x = ((const T *)a)[j * sa], v = ((const T *)b)[j * sb];                                                \
    y[j] = (uint8_t)(CMP(x, v) ? 1 : 0);                                                                     \
  }

void holo_ukernel_vcmp_numeric__scalar(int cmp, uint32_t dt, size_t n, const void *a, size_t sa, const void *b,
                                       size_t sb, uint8_t *y) {
  switch (dt) {
  HOLO_K_SIGNED_CASES(CMP_T)
  HOLO_K_UNSIGNED_CASES(CMP_T)
  case HOLO_DT_BOOL: CMP_T(uint8_t) break;
  case HOLO_DT_F32: CMP_T(float) break;
  case HOLO_DT_F64: CMP_T(double) break;
  default: /* F16 */
    for (size_t j = 0; j < n; j++) {
      double x = holo_f16_to_f64(((const uint16_t *)a)[j * sa]), v = holo_f16_to_f64(((const uint16_t *)b)[j * sb]);
      y[j] = (uint8_t)(CMP(x, v) ? 1 : 0);
    }
    break;
  }
}
