/* The 16-bit float <-> f32 conversions, one element at a time (vcvt.h). */
#include "microkernels/vcvt.h"

void holo_ukernel_vcvt_f16_f32__scalar(size_t n, const uint16_t *x, uint32_t *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = holo_cvt_f16_f32(x[i]);
}

void holo_ukernel_vcvt_f32_f16__scalar(size_t n, const uint32_t *x, uint16_t *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = holo_cvt_f32_f16(x[i]);
}

void holo_ukernel_vcvt_bf16_f32__scalar(size_t n, const uint16_t *x, uint32_t *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = holo_cvt_bf16_f32(x[i]);
}

void holo_ukernel_vcvt_f32_bf16__scalar(size_t n, const uint32_t *x, uint16_t *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = holo_cvt_f32_bf16(x[i]);
}
