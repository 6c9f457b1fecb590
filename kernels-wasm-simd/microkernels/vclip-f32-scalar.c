/* Clip on f32 (vclip.h): y = min(max(x, lo), hi), each bound only when
 * given (NULL: absent); a NaN stays NaN. The other dtypes:
 * vclip-numeric-scalar.c. */
#include "microkernels/vclip.h"

void holo_ukernel_vclip_f32__scalar(size_t n, const float *x, const float *lo, const float *hi, float *y) {
  const bool has_lo = lo != 0, has_hi = hi != 0;
  const float l = has_lo ? *lo : 0, h = has_hi ? *hi : 0;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    if (has_lo && v < l) v = l;
    if (has_hi && v > h) v = h;
    y[i] = v;
  }
}
