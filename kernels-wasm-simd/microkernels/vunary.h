/* Elementwise f32 microkernels over n contiguous elements (operators/
 * unary.c): y[i] = f(x[i]).
 *
 * Relu, Sigmoid (with SiLU) and Tanh have a microkernel each (vrelu-f32-scalar.c,
 * vsigmoid-f32-scalar.c, vtanh-f32-scalar.c): a SIMD variant of one of them
 * is one more file beside the scalar one, plus its line in the build's
 * choice below and a case in tests/c/test_microkernels.c; it must give the
 * scalar bytes (docs/kernels.md), so no identity changes. The other
 * functions share holo_ukernel_vunary_f32__scalar, one `op` each. */
#ifndef HOLOGRAM_KERNELS_VUNARY_H
#define HOLOGRAM_KERNELS_VUNARY_H

#include <stdbool.h>
#include <stddef.h>

#include "common/fp-contract.h"

/* y = x < 0 ? 0 : x (NaN and -0 pass through). */
void holo_ukernel_vrelu_f32__scalar(size_t n, const float *x, float *y);
/* Sigmoid and SiLU (x * sigmoid(x)) on the f32 exponential of math/
 * vsigmoidf.h (vsigmoid-f32-scalar.c, vsigmoid-f32-simd128.c: the same
 * bytes; docs/kernels.md "Activations"). */
void holo_ukernel_vsigmoid_f32__scalar(size_t n, const float *x, float *y);
void holo_ukernel_vsilu_f32__scalar(size_t n, const float *x, float *y);
#ifdef __wasm_simd128__
void holo_ukernel_vsigmoid_f32__simd128(size_t n, const float *x, float *y);
void holo_ukernel_vsilu_f32__simd128(size_t n, const float *x, float *y);
#endif
/* holo_tanhf (math/mathlib.h). */
void holo_ukernel_vtanh_f32__scalar(size_t n, const float *x, float *y);

/* The build's variants. */
static inline void holo_vrelu_f32(size_t n, const float *x, float *y) { holo_ukernel_vrelu_f32__scalar(n, x, y); }
#ifdef __wasm_simd128__
static inline void holo_vsigmoid_f32(size_t n, const float *x, float *y) {
  holo_ukernel_vsigmoid_f32__simd128(n, x, y);
}
static inline void holo_vsilu_f32(size_t n, const float *x, float *y) { holo_ukernel_vsilu_f32__simd128(n, x, y); }
#else
static inline void holo_vsigmoid_f32(size_t n, const float *x, float *y) {
  holo_ukernel_vsigmoid_f32__scalar(n, x, y);
}
static inline void holo_vsilu_f32(size_t n, const float *x, float *y) { holo_ukernel_vsilu_f32__scalar(n, x, y); }
#endif
static inline void holo_vtanh_f32(size_t n, const float *x, float *y) { holo_ukernel_vtanh_f32__scalar(n, x, y); }

enum {
  HOLO_VUNARY_NEG, HOLO_VUNARY_ABS, HOLO_VUNARY_EXP, HOLO_VUNARY_LOG, HOLO_VUNARY_SQRT, HOLO_VUNARY_RECIP,
  HOLO_VUNARY_FLOOR, HOLO_VUNARY_CEIL, HOLO_VUNARY_ROUND, HOLO_VUNARY_SIGN, HOLO_VUNARY_ERF, HOLO_VUNARY_SIN,
  HOLO_VUNARY_COS, HOLO_VUNARY_TAN, HOLO_VUNARY_SOFTPLUS, HOLO_VUNARY_SOFTSIGN, HOLO_VUNARY_HARDSWISH,
  HOLO_VUNARY_LEAKYRELU, HOLO_VUNARY_ELU, HOLO_VUNARY_SELU, HOLO_VUNARY_HARDSIGMOID, HOLO_VUNARY_CELU,
  HOLO_VUNARY_THRELU, HOLO_VUNARY_GELU
};

/* The attributes of the parameterized functions (LeakyRelu alpha, Elu,
 * Celu, ThresholdedRelu alpha, Selu alpha and gamma, HardSigmoid alpha and
 * beta, Gelu's tanh approximation), validated by the operator. */
typedef struct holo_vunary_params {
  double alpha, beta, gamma;
  bool tanh_approx;
} holo_vunary_params;

/* y[i] = op(x[i]) computed in double and rounded once (vunary-f32-scalar.c). */
void holo_ukernel_vunary_f32__scalar(int op, const holo_vunary_params *p, size_t n, const float *x, float *y);

#endif
