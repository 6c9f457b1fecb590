/* Hardmax along n of an [outer, n, inner] view (axis.h): 1 at the first
 * maximum and 0 elsewhere. NaN compares false, so it never wins unless the
 * row starts with it (then index 0 stays). */
#include "microkernels/axis.h"

void holo_ukernel_hardmax_f32__scalar(const float *x, float *y, size_t outer, size_t n, size_t inner) {
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      size_t best = 0;
      for (size_t i = 1; i < n; i++)
        if (xr[i * inner] > xr[best * inner]) best = i;
      for (size_t i = 0; i < n; i++) yr[i * inner] = i == best ? 1.0f : 0.0f;
    }
}
