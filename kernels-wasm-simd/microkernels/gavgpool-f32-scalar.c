/* GlobalAveragePool (pool2d.h). */
#include "microkernels/pool2d.h"

void holo_ukernel_gavgpool_f32__scalar(const float *X, float *Y, size_t planes, size_t n) {
  for (size_t p = 0; p < planes; p++) {
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++)
      sum += X[p * n + i];
    /* the mean of an empty plane is NaN, as numpy's */
    Y[p] = sum / (float)n;
  }
}
