/* Neg, Abs and Sign over f64 and the integer dtypes (the f32 forms are
 * unary.c's, SIMD and fused into products). Exact in every dtype: integers
 * wrap in two's complement as numpy and onnxruntime do (Neg and Abs of the
 * most negative value give it back), so the arithmetic is done unsigned,
 * where C defines wrapping. Sign of a NaN is NaN. Exporters emit these on
 * int64 axes and shapes (the ONNX LayerNormalization function's expansion
 * negates its axis). */
#include "operators/unary-exact.h"
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"

bool holo_k_unary_exact_dtype(int op, uint32_t dt) {
  switch (dt) {
  case HOLO_DT_F64:
  case HOLO_DT_I8:
  case HOLO_DT_I16:
  case HOLO_DT_I32:
  case HOLO_DT_I64: return true;
  case HOLO_DT_U8:
  case HOLO_DT_U16:
  case HOLO_DT_U32:
  case HOLO_DT_U64: return op != HOLO_K_EXACT_NEG;
  default: return false;
  }
}

#define SIGNED_LOOP(T, UT)                                                                                   \
  {                                                                                                          \
    const T *x = xv;                                                                                         \
    T *y = yv;                                                                                               \
    for (size_t i = 0; i < n; i++) {                                                                         \
      UT u = (UT)x[i], neg = (UT)(0u - u);                                                                   \
      if (op == HOLO_K_EXACT_NEG)                                                                            \
        y[i] = (T)neg;                                                                                       \
      else if (op == HOLO_K_EXACT_ABS)                                                                       \
        y[i] = x[i] < 0 ? (T)neg : x[i];                                                                     \
      else                                                                                                   \
        y[i] = (T)((x[i] > 0) - (x[i] < 0));                                                                 \
    }                                                                                                        \
  }
#define UNSIGNED_LOOP(T)                                                                                     \
  {                                                                                                          \
    const T *x = xv;                                                                                         \
    T *y = yv;                                                                                               \
    for (size_t i = 0; i < n; i++)                                                                           \
      y[i] = op == HOLO_K_EXACT_ABS ? x[i] : (T)(x[i] != 0);                                                 \
  }

static void f64_loop(int op, size_t n, const double *x, double *y) {
  for (size_t i = 0; i < n; i++) {
    double v = x[i];
    if (op == HOLO_K_EXACT_NEG)
      y[i] = -v;
    else if (op == HOLO_K_EXACT_ABS)
      y[i] = __builtin_fabs(v);
    else
      y[i] = v > 0 ? 1.0 : v < 0 ? -1.0 : v; /* 0, -0 and NaN are their own sign */
  }
}

void holo_k_unary_exact_run(int op, uint32_t dt, size_t n, const void *xv, void *yv) {
  switch (dt) {
  case HOLO_DT_F64: f64_loop(op, n, xv, yv); break;
  case HOLO_DT_I8: SIGNED_LOOP(int8_t, uint8_t) break;
  case HOLO_DT_I16: SIGNED_LOOP(int16_t, uint16_t) break;
  case HOLO_DT_I32: SIGNED_LOOP(int32_t, uint32_t) break;
  case HOLO_DT_I64: SIGNED_LOOP(int64_t, uint64_t) break; HOLO_K_UNSIGNED_CASES(UNSIGNED_LOOP)
  default: break;
  }
}
