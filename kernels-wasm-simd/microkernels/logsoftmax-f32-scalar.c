/* LogSoftmax along n of an [outer, n, inner] view (axis.h):
 * y = (x - max) - log(sum(exp(x - max))), the sum in ascending index order
 * in double, each output rounded to f32 once. A NaN in a row makes the row
 * NaN; a row whose maximum is +inf gives NaN where x is +inf too
 * (inf - inf), as the formula does. */
#include "math/mathlib.h"
#include "microkernels/axis.h"

void holo_ukernel_logsoftmax_f32__scalar(const float *x, float *y, size_t outer, size_t n, size_t inner) {
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      float mx = -__builtin_inff();
      bool nan = false;
      for (size_t i = 0; i < n; i++) {
        float v = xr[i * inner];
        if (v != v) nan = true;
        else if (v > mx) mx = v;
      }
      double m = mx, sum = 0.0;
      if (mx == -__builtin_inff() || mx == __builtin_inff()) m = 0.0; /* keep inf - inf out of exp */
      for (size_t i = 0; i < n; i++) sum += holo_exp((double)xr[i * inner] - m);
      double ls = holo_log(sum);
      for (size_t i = 0; i < n; i++) {
        double v = ((double)xr[i * inner] - m) - ls;
        yr[i * inner] = nan ? __builtin_nanf("") : (float)v;
      }
    }
}
