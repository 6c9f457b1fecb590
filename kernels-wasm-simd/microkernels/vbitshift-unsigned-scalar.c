/* BitShift along one broadcast row (vbroadcast.h). The shift amount is
 * compared with the width before shifting: C's x << 64 is undefined, the
 * op's answer is 0. */
#include "hologram/types.h"
#include "microkernels/vbroadcast.h"

#define SHIFT_ROW(T, W)                                                                                      \
  {                                                                                                          \
    const T *a = x, *b = s;                                                                                  \
    T *o = y;                                                                                                \
    for (size_t j = 0; j < n; j++) {                                                                         \
      T v = a[j * sx], k = b[j * ss];                                                                        \
      o[j] = k >= W ? 0 : left ? (T)(v << k) : (T)(v >> k);                                                  \
    }                                                                                                        \
  }

void holo_ukernel_vbitshift_unsigned__scalar(uint32_t dt, bool left, size_t n, const void *x, size_t sx,
                                             const void *s, size_t ss, void *y) {
  switch (dt) {
  case HOLO_DT_U8: SHIFT_ROW(uint8_t, 8) break;
  case HOLO_DT_U16: SHIFT_ROW(uint16_t, 16) break;
  case HOLO_DT_U32: SHIFT_ROW(uint32_t, 32) break;
  default: SHIFT_ROW(uint64_t, 64) break;
  }
}
