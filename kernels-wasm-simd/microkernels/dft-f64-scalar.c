/* microkernels/dft.h: the direct DFT and its twiddle table. */
#include "math/mathlib.h"
#include "microkernels/dft.h"

void holo_ukernel_dft_twiddles_f64__scalar(size_t N, double *tw) {
  const double PI = 3.14159265358979323846;
  for (size_t m = 0; m < N; m++) {
    double c, s;
    /* 4m / N exact: a quarter turn, whose cos or sin libm gives as ~1e-16 */
    if ((4 * (unsigned long long)m) % N == 0) {
      unsigned q = (unsigned)((4 * (unsigned long long)m) / N);
      c = q == 0 ? 1 : q == 2 ? -1 : 0;
      s = q == 1 ? 1 : q == 3 ? -1 : 0;
    } else {
      double a = 2 * PI * (double)m / (double)N;
      c = holo_cos(a);
      s = holo_sin(a);
    }
    tw[2 * m] = c;
    tw[2 * m + 1] = s;
  }
}

void holo_ukernel_dft_f64__scalar(size_t n, size_t K, size_t N, const double *tw, const double *x, double *y,
                                  int inverse) {
  const double sg = inverse ? 1.0 : -1.0;
  for (size_t k = 0; k < K; k++) {
    /* the twiddle index j k mod N, stepped by k mod N: no product overflows */
    size_t m = 0, step = k % N;
    double re = 0, im = 0;
    for (size_t j = 0; j < n; j++) {
      double c = tw[2 * m], s = sg * tw[2 * m + 1], xr = x[2 * j], xi = x[2 * j + 1];
      re += xr * c - xi * s;
      im += xr * s + xi * c;
      m += step;
      if (m >= N) m -= N;
    }
    y[2 * k] = re;
    y[2 * k + 1] = im;
  }
}
