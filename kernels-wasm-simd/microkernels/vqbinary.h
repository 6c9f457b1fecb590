/* QLinearAdd / QLinearMul rows (operators/qlinear-binary.c): the float
 * path of DequantizeLinear -> Add|Mul [-> Relu] -> QuantizeLinear, in its
 * f32 steps, on one broadcast row (common/bcast.h):
 *
 *   va = (float)(a[j*sa] - za) * as      DequantizeLinear (exact difference)
 *   vb = (float)(b[j*sb] - zb) * bs
 *   v  = mul ? va * vb : va + vb         one rounding, never fused
 *   v  = relu && v < 0 ? 0 : v
 *   v  = v / cs                          QuantizeLinear's true division
 *   y  = rne(clamp(v, qmin - zc, qmax - zc)) + zc
 *
 * which is onnxruntime's reference QLinearAdd (MlasQLinearAddKernelRawHelper:
 * nearbyintf((ValueA + ValueB) / ScaleC) + ZeroPointC, saturated) and the
 * bytes the unfused chain computes. Clamping to the integer bounds before
 * rounding equals rounding then saturating. The operator admits only
 * scales that keep every v finite-or-infinite, never NaN (|as|, |bs| <=
 * 2^100, cs finite and nonzero), so every variant gives the same bytes
 * (tests/c/test_microkernels_qbinary.c).
 *
 *   vqbinary-u8-i8-scalar.c   holo_ukernel_vqbinary_u8i8__scalar
 *   vqbinary-u8-i8-simd128.c  holo_ukernel_vqbinary_u8i8__simd128 (16 lanes
 *                             where the row steps are (1,1), (1,0), (0,1)) */
#ifndef HOLOGRAM_KERNELS_VQBINARY_H
#define HOLOGRAM_KERNELS_VQBINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct holo_vqbinary {
  float as, bs, cs;   /* scales */
  int32_t za, zb, zc; /* zero points, within the dtype's range */
  bool u8;            /* dtype of a, b and y: u8, else i8 */
  bool mul;           /* Mul, else Add */
  bool relu;          /* a Relu between the op and the quantization */
} holo_vqbinary;

void holo_ukernel_vqbinary_u8i8__scalar(const holo_vqbinary *p, size_t n, const void *a, size_t sa,
                                        const void *b, size_t sb, void *y);
#ifdef __wasm_simd128__
void holo_ukernel_vqbinary_u8i8__simd128(const holo_vqbinary *p, size_t n, const void *a, size_t sa,
                                         const void *b, size_t sb, void *y);
#endif

static inline void holo_vqbinary_row(const holo_vqbinary *p, size_t n, const void *a, size_t sa,
                                     const void *b, size_t sb, void *y) {
#ifdef __wasm_simd128__
  holo_ukernel_vqbinary_u8i8__simd128(p, n, a, sa, b, sb, y);
#else
  holo_ukernel_vqbinary_u8i8__scalar(p, n, a, sa, b, sb, y);
#endif
}

#endif
