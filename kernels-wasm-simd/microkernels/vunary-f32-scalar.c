/* The elementwise f32 functions of vunary.h without a microkernel of their
 * own (Erf and Gelu have one: verf-f32-*.c): each value computed in double from the f32 input and rounded
 * once (Sqrt, Reciprocal, Neg, Abs, Floor, Ceil, Round are exact IEEE operations); NaN propagates. */
#include "math/mathlib.h"
#include "microkernels/vunary.h"

static float eval(int op, const holo_vunary_params *p, float xf) {
  double x = xf;
  switch (op) {
  case HOLO_VUNARY_NEG: return -xf;
  case HOLO_VUNARY_ABS: return __builtin_fabsf(xf);
  case HOLO_VUNARY_EXP: return (float)holo_exp(x);
  case HOLO_VUNARY_LOG: return (float)holo_log(x);
  case HOLO_VUNARY_SQRT: return __builtin_sqrtf(xf);
  case HOLO_VUNARY_RECIP: return 1.0f / xf;
  case HOLO_VUNARY_FLOOR: return (float)holo_floor(x);
  case HOLO_VUNARY_CEIL: return (float)holo_ceil(x);
  case HOLO_VUNARY_ROUND: return (float)holo_rint(x);
  case HOLO_VUNARY_SIGN: return xf > 0 ? 1.0f : xf < 0 ? -1.0f : xf; /* 0 and NaN pass through */
  case HOLO_VUNARY_SIN: return (float)holo_sin(x);
  case HOLO_VUNARY_COS: return (float)holo_cos(x);
  case HOLO_VUNARY_TAN: return (float)(holo_sin(x) / holo_cos(x));
  case HOLO_VUNARY_SOFTPLUS:
    if (xf != xf) return xf;
    if (x > 40) return xf;
    return (float)holo_log1p(holo_exp(x));
  case HOLO_VUNARY_SOFTSIGN: return (float)(x / (1.0 + __builtin_fabs(x)));
  case HOLO_VUNARY_HARDSWISH: {
    double t = x * (1.0 / 6.0) + 0.5;
    if (xf != xf) return xf;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return (float)(x * t);
  }
  case HOLO_VUNARY_LEAKYRELU: return xf < 0 ? (float)(p->alpha * x) : xf;
  case HOLO_VUNARY_ELU: return xf < 0 ? (float)(p->alpha * holo_expm1(x)) : xf;
  case HOLO_VUNARY_SELU:
    return xf > 0 ? (float)(p->gamma * x) : xf != xf ? xf : (float)(p->gamma * p->alpha * holo_expm1(x));
  case HOLO_VUNARY_HARDSIGMOID: {
    if (xf != xf) return xf;
    double t = p->alpha * x + p->beta;
    return (float)(t < 0 ? 0 : t > 1 ? 1 : t);
  }
  case HOLO_VUNARY_CELU:
    if (xf != xf) return xf;
    return xf > 0 ? xf : (float)(p->alpha * holo_expm1(x / p->alpha));
  case HOLO_VUNARY_THRELU: return xf > p->alpha ? xf : xf != xf ? xf : 0.0f;
  case HOLO_VUNARY_ASIN: return (float)holo_asin(x);
  case HOLO_VUNARY_ACOS: return (float)holo_acos(x);
  case HOLO_VUNARY_ATAN: return (float)holo_atan(x);
  case HOLO_VUNARY_SINH: return (float)holo_sinh(x);
  case HOLO_VUNARY_COSH: return (float)holo_cosh(x);
  case HOLO_VUNARY_ASINH: return (float)holo_asinh(x);
  case HOLO_VUNARY_ACOSH: return (float)holo_acosh(x);
  case HOLO_VUNARY_ATANH: return (float)holo_atanh(x);
  case HOLO_VUNARY_MISH: { /* x tanh(softplus(x)); tanh(s) = expm1(2s) / (expm1(2s) + 2) */
    if (xf != xf) return xf;
    double sp = x > 40 ? x : holo_log1p(holo_exp(x));
    if (sp > 20) return xf;
    double e = holo_expm1(2 * sp);
    return (float)(x * (e / (e + 2)));
  }
  case HOLO_VUNARY_SHRINK: /* alpha = lambd, beta = bias */
    return xf < -p->alpha  ? (float)(x + p->beta)
           : xf > p->alpha ? (float)(x - p->beta)
           : xf != xf      ? xf
                           : 0.0f;
  default: return xf; /* Erf and Gelu have microkernels of their own (verf-f32-*.c) */
  }
}

void holo_ukernel_vunary_f32__scalar(int op, const holo_vunary_params *p, size_t n, const float *x,
                                     float *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = eval(op, p, x[i]);
}
