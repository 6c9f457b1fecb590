/* Sigmoid and SiLU (vunary.h): holo_vsigmoidf / holo_vsiluf per element,
 * the reference of vsigmoid-f32-simd128.c (math/vsigmoidf.h). */
#include "math/vsigmoidf.h"
#include "microkernels/vunary.h"

void holo_ukernel_vsigmoid_f32__scalar(size_t n, const float *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] = holo_vsigmoidf(x[i]);
}

void holo_ukernel_vsilu_f32__scalar(size_t n, const float *x, float *y) {
  for (size_t i = 0; i < n; i++) y[i] = holo_vsiluf(x[i]);
}
