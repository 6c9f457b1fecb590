/* Relu (vunary.h): written as "x < 0" so a NaN compares false and passes
 * through. */
#include "microkernels/vunary.h"

void holo_ukernel_vrelu_f32__scalar(size_t n, const float *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] = x[i] < 0.0f ? 0.0f : x[i];
}
