/* And, Or, Xor, Not along one broadcast row (vbroadcast.h): any nonzero
 * byte is true, the output 0 or 1. */
#include "microkernels/vbroadcast.h"

void holo_ukernel_vlogic_bool__scalar(int op, size_t n, const uint8_t *a, size_t sa, const uint8_t *b, size_t sb,
                                      uint8_t *y) {
  switch (op) {
  case HOLO_LOGIC_AND:
    for (size_t j = 0; j < n; j++) y[j] = (uint8_t)((a[j * sa] != 0) & (b[j * sb] != 0));
    break;
  case HOLO_LOGIC_OR:
    for (size_t j = 0; j < n; j++) y[j] = (uint8_t)((a[j * sa] != 0) | (b[j * sb] != 0));
    break;
  case HOLO_LOGIC_XOR:
    for (size_t j = 0; j < n; j++) y[j] = (uint8_t)((a[j * sa] != 0) ^ (b[j * sb] != 0));
    break;
  default: /* NOT */
    for (size_t j = 0; j < n; j++) y[j] = (uint8_t)(a[j * sa] == 0);
    break;
  }
}
