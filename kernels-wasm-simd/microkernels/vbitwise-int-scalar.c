/* BitwiseAnd, BitwiseOr, BitwiseXor, BitwiseNot (b NULL) along one
 * broadcast row (vbroadcast.h). The bits do not depend on signedness, so
 * the row is walked by element size only (1, 2, 4 or 8 bytes) as unsigned
 * words: one loop per size serves all eight integer dtypes. */
#include "microkernels/vbroadcast.h"

#define BITWISE_ROW(T)                                                                                       \
  {                                                                                                          \
    const T *p = a, *q = b;                                                                                  \
    T *o = y;                                                                                                \
    switch (op) {                                                                                            \
    case HOLO_LOGIC_AND:                                                                                     \
      for (size_t j = 0; j < n; j++)                                                                         \
        o[j] = (T)(p[j * sa] & q[j * sb]);                                                                   \
      break;                                                                                                 \
    case HOLO_LOGIC_OR:                                                                                      \
      for (size_t j = 0; j < n; j++)                                                                         \
        o[j] = (T)(p[j * sa] | q[j * sb]);                                                                   \
      break;                                                                                                 \
    case HOLO_LOGIC_XOR:                                                                                     \
      for (size_t j = 0; j < n; j++)                                                                         \
        o[j] = (T)(p[j * sa] ^ q[j * sb]);                                                                   \
      break;                                                                                                 \
    default:                                                                                                 \
      for (size_t j = 0; j < n; j++)                                                                         \
        o[j] = (T)~p[j * sa];                                                                                \
      break;                                                                                                 \
    }                                                                                                        \
  }

void holo_ukernel_vbitwise_int__scalar(int op, size_t es, size_t n, const void *a, size_t sa, const void *b,
                                       size_t sb, void *y) {
  switch (es) {
  case 1: BITWISE_ROW(uint8_t) break;
  case 2: BITWISE_ROW(uint16_t) break;
  case 4: BITWISE_ROW(uint32_t) break;
  default: BITWISE_ROW(uint64_t) break;
  }
}
