/* PRelu along one broadcast row (vbroadcast.h); written as "x < 0" so a
 * NaN passes through. */
#include "microkernels/vbroadcast.h"

void holo_ukernel_vprelu_f32__scalar(size_t n, const float *x, size_t sx, const float *slope, size_t ss, float *y) {
  for (size_t j = 0; j < n; j++) {
    float v = x[j * sx];
    y[j] = v < 0 ? v * slope[j * ss] : v;
  }
}
