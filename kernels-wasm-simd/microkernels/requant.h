/* Requantization of the integer core's int32 sums to u8 / i8, as ONNX's
 * QLinearConv / QLinearMatMul and onnxruntime's MlasRequantizeOutput do it:
 *
 *   f    = (float)(acc[j] + bias) * s[j * ss]        one f32 rounding each
 *   f    = f < lo - zp ? lo - zp : f;  f = hi - zp < f ? hi - zp : f
 *   y[j] = rne(f) + zp                               round half to even
 *
 * (lo, hi) = (0, 255) for u8, (-128, 127) for i8. Clamping before rounding
 * equals rounding then saturating, since the bounds are integers. The sum
 * acc + bias wraps as int32 (the caller's bias is the model's). rne is the
 * 1.5 * 2^23 bias trick, exact for |f| <= 2^22; the clamp keeps |f| <= 255.
 * A multiplier s that is not finite (or 0 * inf) would make a NaN whose
 * bits the wasm spec leaves open: the operators refuse non-finite
 * multipliers before calling, so f is never NaN and every variant gives
 * the same bytes (tests/c/test_microkernels_int.c).
 *
 *   requant-i32-scalar.c   holo_ukernel_requant_i32__scalar
 *   requant-i32-simd128.c  holo_ukernel_requant_i32__simd128 (4 lanes) */
#ifndef HOLOGRAM_KERNELS_REQUANT_H
#define HOLOGRAM_KERNELS_REQUANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct holo_requant {
  const float *s; /* multipliers, s[j * ss] for output j */
  size_t ss;      /* 0: one multiplier for all, 1: one per output */
  int32_t bias;   /* added to every sum (QLinearConv's B of this channel) */
  int32_t zp;     /* output zero point, within the dtype's range */
  bool u8;        /* output dtype: u8, else i8 */
} holo_requant;

void holo_ukernel_requant_i32__scalar(size_t n, const int32_t *acc, const holo_requant *q, void *y);
#ifdef __wasm_simd128__
void holo_ukernel_requant_i32__simd128(size_t n, const int32_t *acc, const holo_requant *q, void *y);
#endif

static inline void holo_requant_i32(size_t n, const int32_t *acc, const holo_requant *q, void *y) {
#ifdef __wasm_simd128__
  holo_ukernel_requant_i32__simd128(n, acc, q, y);
#else
  holo_ukernel_requant_i32__scalar(n, acc, q, y);
#endif
}

#endif
