/* Softmax along n of an [outer, n, inner] view (axis.h): the row maximum
 * is subtracted first so exp never overflows (exp: math/vexpf.h's f32
 * steps, holo_vexpf_nonpos, docs/kernels.md "Activations"); the sum is taken in
 * ascending index order in f32; one division per element. A NaN anywhere
 * in a row makes the whole row NaN (the max skips NaN, but exp(NaN - max)
 * is NaN and enters the sum). */
#include "math/vexpf.h"
#include "microkernels/axis.h"

void holo_ukernel_softmax_f32__scalar(const float *x, float *y, size_t outer, size_t n, size_t inner) {
  for (size_t o = 0; o < outer; o++) {
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      float mx = -__builtin_inff();
      for (size_t i = 0; i < n; i++)
        if (xr[i * inner] > mx) mx = xr[i * inner];
      float sum = 0.0f;
      for (size_t i = 0; i < n; i++) {
        float e = holo_vexpf_nonpos(xr[i * inner] - mx);
        yr[i * inner] = e;
        sum += e;
      }
      for (size_t i = 0; i < n; i++) yr[i * inner] = yr[i * inner] / sum;
    }
  }
}
