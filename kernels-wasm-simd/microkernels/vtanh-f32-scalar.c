/* Tanh (vunary.h): holo_tanhf per element, in double, rounded once. */
#include "math/mathlib.h"
#include "microkernels/vunary.h"

void holo_ukernel_vtanh_f32__scalar(size_t n, const float *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] = holo_tanhf(x[i]);
}
