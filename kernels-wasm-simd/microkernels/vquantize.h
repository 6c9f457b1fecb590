/* QuantizeLinear's per-tensor pass (operators/qlinear-quant.c, decision 66)
 * as microkernels: y = sat(rne(x / s) + zp) into u8 or i8, NaN -> 0, in
 * these f32 steps (the converter's Div, Round, Add, saturating Cast):
 *
 *   v = x / s                       a true division
 *   v = clamp(v, qmin - zp - 1, qmax - zp + 1)   (not NaN)
 *   q = (int32)((v + 1.5 * 2^23) - 1.5 * 2^23) + zp, saturated
 *
 * Every step is a correctly rounded IEEE operation or exact, so the SIMD
 * variant gives the scalar reference's bytes (tests/c/test_microkernels_int.c).
 *
 *   vquantize-f32-q8-scalar.c   holo_ukernel_vquantize_f32_q8__scalar
 *   vquantize-f32-q8-simd128.c  holo_ukernel_vquantize_f32_q8__simd128, 16 a step */
#ifndef HOLOGRAM_KERNELS_VQUANTIZE_H
#define HOLOGRAM_KERNELS_VQUANTIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void holo_ukernel_vquantize_f32_q8__scalar(const float *x, size_t n, float s, int32_t zp, bool u8,
                                           uint8_t *y);
#ifdef __wasm_simd128__
void holo_ukernel_vquantize_f32_q8__simd128(const float *x, size_t n, float s, int32_t zp, bool u8,
                                            uint8_t *y);
#endif

static inline void holo_vquantize_f32_q8(const float *x, size_t n, float s, int32_t zp, bool u8, uint8_t *y) {
#ifdef __wasm_simd128__
  holo_ukernel_vquantize_f32_q8__simd128(x, n, s, zp, u8, y);
#else
  holo_ukernel_vquantize_f32_q8__scalar(x, n, s, zp, u8, y);
#endif
}

#endif
