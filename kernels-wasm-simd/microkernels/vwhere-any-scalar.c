/* Where along one broadcast row (vbroadcast.h): a select of es-byte
 * elements, their bits copied. */
#include "microkernels/vbroadcast.h"

void holo_ukernel_vwhere_any__scalar(size_t es, size_t n, const uint8_t *c, size_t sc, const uint8_t *x, size_t sx,
                                     const uint8_t *v, size_t sv, uint8_t *y) {
  for (size_t j = 0; j < n; j++) {
    const uint8_t *src = c[j * sc] ? x + j * sx * es : v + j * sv * es;
    for (size_t b = 0; b < es; b++) y[j * es + b] = src[b];
  }
}
