/* QuantizeLinear's pass, scalar: the reference (vquantize.h). */
#include "microkernels/vquantize.h"

void holo_ukernel_vquantize_f32_q8__scalar(const float *x, size_t n, float s, int32_t zp, bool u8,
                                           uint8_t *y) {
  const int32_t qmin = u8 ? 0 : -128, qmax = u8 ? 255 : 127;
  const float lo = (float)(qmin - zp - 1), hi = (float)(qmax - zp + 1), bias = 12582912.0f; /* 1.5 * 2^23 */
  for (size_t i = 0; i < n; i++) {
    float v = x[i] / s;
    int32_t q;
    if (v != v) {
      q = 0; /* the lowering's Cast of NaN */
    } else {
      v = v < lo ? lo : v > hi ? hi : v;
      q = (int32_t)((v + bias) - bias) + zp;
      q = q < qmin ? qmin : q > qmax ? qmax : q;
    }
    y[i] = (uint8_t)q; /* an i8's two's-complement byte */
  }
}
