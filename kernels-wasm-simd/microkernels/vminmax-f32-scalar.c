/* Max / Min of several f32 operands along one broadcast row (vbroadcast.h):
 * a NaN met first stays; a later NaN replaces a number. The other dtypes:
 * vminmax-numeric-scalar.c. */
#include "microkernels/vbroadcast.h"

void holo_ukernel_vminmax_f32__scalar(bool max, size_t n, uint32_t nops, const void *const *p,
                                      const size_t *s, void *y) {
  for (size_t j = 0; j < n; j++) {
    float v = ((const float *)p[0])[j * s[0]];
    for (uint32_t k = 1; k < nops; k++) {
      float u = ((const float *)p[k])[j * s[k]];
      if (v == v && (u != u || (max ? u > v : u < v))) v = u;
    }
    ((float *)y)[j] = v;
  }
}
