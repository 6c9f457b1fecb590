/* Elementwise f32 microkernels over n contiguous elements (operators/
 * unary.c): y[i] = f(x[i]).
 *
 * Relu and the f32-only activations below have a microkernel each
 * (vrelu-f32-scalar.c, v<name>-f32-{scalar,simd128}.c); a SIMD variant
 * must give the scalar bytes (docs/kernels.md) and has a case in
 * tests/c/test_vact.c. The other functions share
 * holo_ukernel_vunary_f32__scalar, one `op` each. */
#ifndef HOLOGRAM_KERNELS_VUNARY_H
#define HOLOGRAM_KERNELS_VUNARY_H

#include <stdbool.h>
#include <stddef.h>

#include "common/fp-contract.h"

/* y = x < 0 ? 0 : x (NaN and -0 pass through). */
void holo_ukernel_vrelu_f32__scalar(size_t n, const float *x, float *y);
/* The f32-only activations (docs/kernels.md "Activations"): Sigmoid and
 * SiLU = x * sigmoid(x) (math/vsigmoidf.h; vsigmoid-f32-*.c), Tanh
 * (math/vtanhf.h; vtanh-f32-*.c), Erf, Gelu and Gelu's tanh form
 * (math/verff.h; verf-f32-*.c). Each has a scalar reference and a simd128
 * variant with the same bytes; holo_v<name>_f32 is the build's. */
#define HOLO_VACT_DECLARE(name)                                                                              \
  void holo_ukernel_##name##_f32__scalar(size_t n, const float *x, float *y);                                \
  void holo_ukernel_##name##_f32__simd128(size_t n, const float *x, float *y);                               \
  static inline void holo_##name##_f32(size_t n, const float *x, float *y) {                                 \
    HOLO_VACT_VARIANT(holo_ukernel_##name##_f32)(n, x, y);                                                   \
  }
#ifdef __wasm_simd128__
#define HOLO_VACT_VARIANT(f) f##__simd128
#else
#define HOLO_VACT_VARIANT(f) f##__scalar
#endif
HOLO_VACT_DECLARE(vsigmoid)
HOLO_VACT_DECLARE(vsilu)
HOLO_VACT_DECLARE(vtanh)
HOLO_VACT_DECLARE(verf)
HOLO_VACT_DECLARE(vgelu)
HOLO_VACT_DECLARE(vgelutanh)

/* A simd128 variant: 4 lanes at a time (unaligned loads and stores), the
 * last n % 4 elements by the scalar reference's own per-element function
 * f1, so the bytes are the reference's. */
#define HOLO_VACT_SIMD128(name, f4, f1)                                                                      \
  void holo_ukernel_##name##_f32__simd128(size_t n, const float *x, float *y) {                              \
    size_t i = 0;                                                                                            \
    for (; i + 8 <= n; i += 8) {                                                                             \
      const v128_t a = f4(wasm_v128_load(x + i)), b = f4(wasm_v128_load(x + i + 4));                         \
      wasm_v128_store(y + i, a);                                                                             \
      wasm_v128_store(y + i + 4, b);                                                                         \
    }                                                                                                        \
    for (; i + 4 <= n; i += 4)                                                                               \
      wasm_v128_store(y + i, f4(wasm_v128_load(x + i)));                                                     \
    for (; i < n; i++)                                                                                       \
      y[i] = f1(x[i]);                                                                                       \
  }
/* The scalar reference: f1 per element. */
#define HOLO_VACT_SCALAR(name, f1)                                                                           \
  void holo_ukernel_##name##_f32__scalar(size_t n, const float *x, float *y) {                               \
    for (size_t i = 0; i < n; i++)                                                                           \
      y[i] = f1(x[i]);                                                                                       \
  }

/* The build's variants. */
static inline void holo_vrelu_f32(size_t n, const float *x, float *y) {
  holo_ukernel_vrelu_f32__scalar(n, x, y);
}

enum {
  HOLO_VUNARY_NEG,
  HOLO_VUNARY_ABS,
  HOLO_VUNARY_EXP,
  HOLO_VUNARY_LOG,
  HOLO_VUNARY_SQRT,
  HOLO_VUNARY_RECIP,
  HOLO_VUNARY_FLOOR,
  HOLO_VUNARY_CEIL,
  HOLO_VUNARY_ROUND,
  HOLO_VUNARY_SIGN,
  HOLO_VUNARY_ERF,
  HOLO_VUNARY_SIN,
  HOLO_VUNARY_COS,
  HOLO_VUNARY_TAN,
  HOLO_VUNARY_SOFTPLUS,
  HOLO_VUNARY_SOFTSIGN,
  HOLO_VUNARY_HARDSWISH,
  HOLO_VUNARY_LEAKYRELU,
  HOLO_VUNARY_ELU,
  HOLO_VUNARY_SELU,
  HOLO_VUNARY_HARDSIGMOID,
  HOLO_VUNARY_CELU,
  HOLO_VUNARY_THRELU,
  HOLO_VUNARY_GELU,
  HOLO_VUNARY_ASIN,
  HOLO_VUNARY_ACOS,
  HOLO_VUNARY_ATAN,
  HOLO_VUNARY_SINH,
  HOLO_VUNARY_COSH,
  HOLO_VUNARY_ASINH,
  HOLO_VUNARY_ACOSH,
  HOLO_VUNARY_ATANH,
  HOLO_VUNARY_MISH,
  HOLO_VUNARY_SHRINK,
  HOLO_VUNARY_COUNT
};

/* The attributes of the parameterized functions (LeakyRelu alpha, Elu,
 * Celu, ThresholdedRelu alpha, Selu alpha and gamma, HardSigmoid alpha and
 * beta, Shrink lambd (alpha) and bias (beta), Gelu's tanh approximation), validated by the operator. */
typedef struct holo_vunary_params {
  double alpha, beta, gamma;
  bool tanh_approx;
} holo_vunary_params;

/* y[i] = op(x[i]) computed in double and rounded once (vunary-f32-scalar.c). */
void holo_ukernel_vunary_f32__scalar(int op, const holo_vunary_params *p, size_t n, const float *x, float *y);

#endif
