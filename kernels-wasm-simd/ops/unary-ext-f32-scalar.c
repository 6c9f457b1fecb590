/* Elementwise f32 ops: Neg, Abs, Exp, Log, Sqrt, Reciprocal, Floor, Ceil,
 * Round (ties to even), Sign, Erf, Sin, Cos, Tan, Softplus, Softsign,
 * HardSwish, LeakyRelu (alpha), Elu (alpha), Selu (alpha, gamma),
 * HardSigmoid (alpha, beta), Celu (alpha), ThresholdedRelu (alpha), Gelu
 * (approximate "none" | "tanh").
 *
 * Each value is computed in double from the f32 input and rounded once
 * (Sqrt, Reciprocal, Neg, Abs, Floor, Ceil, Round are exact IEEE operations).
 * NaN propagates. Attribute defaults are the ONNX ones, but the converter
 * writes every attribute out. */
#include "ext-util.h"

enum {
  U_NEG, U_ABS, U_EXP, U_LOG, U_SQRT, U_RECIP, U_FLOOR, U_CEIL, U_ROUND, U_SIGN, U_ERF, U_SIN,
  U_COS, U_TAN, U_SOFTPLUS, U_SOFTSIGN, U_HARDSWISH, U_LEAKYRELU, U_ELU, U_SELU, U_HARDSIGMOID,
  U_CELU, U_THRELU, U_GELU, U_COUNT
};
static const char *const u_names[U_COUNT] = {
    "Neg",      "Abs",       "Exp",       "Log",       "Sqrt",      "Reciprocal",  "Floor",
    "Ceil",     "Round",     "Sign",      "Erf",       "Sin",       "Cos",         "Tan",
    "Softplus", "Softsign",  "HardSwish", "LeakyRelu", "Elu",       "Selu",        "HardSigmoid",
    "Celu",     "ThresholdedRelu", "Gelu"};

typedef struct uparams {
  double alpha, beta, gamma;
  bool tanh_approx;
} uparams;

static holo_status float_attr(holo_kernel_call *c, const char *op, const char *name, float dflt,
                              double *out) {
  const holo_attr *a = holo_attr_find(c, name);
  if (a && (a->type != HOLO_ATTR_FLOAT || a->count != 1))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute %s must be a float", op, name);
  float v = holo_attr_float(c, name, dflt);
  if (v != v || __builtin_fabsf(v) == __builtin_inff())
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute %s must be finite", op, name);
  *out = v;
  return HOLO_OK;
}

static holo_status u_params(holo_kernel_call *c, int op, uparams *p) {
  const char *name = u_names[op];
  holo_status st = HOLO_OK;
  p->alpha = p->beta = p->gamma = 0;
  p->tanh_approx = false;
  switch (op) {
  case U_LEAKYRELU: st = float_attr(c, name, "alpha", 0.01f, &p->alpha); break;
  case U_ELU: case U_CELU: case U_THRELU: st = float_attr(c, name, "alpha", 1.0f, &p->alpha); break;
  case U_SELU:
    if ((st = float_attr(c, name, "alpha", 1.67326319217681884765625f, &p->alpha))) break;
    st = float_attr(c, name, "gamma", 1.05070102214813232421875f, &p->gamma);
    break;
  case U_HARDSIGMOID:
    if ((st = float_attr(c, name, "alpha", 0.2f, &p->alpha))) break;
    st = float_attr(c, name, "beta", 0.5f, &p->beta);
    break;
  case U_GELU: {
    const holo_attr *a = holo_attr_find(c, "approximate");
    if (!a || holo_attr_string_is(c, "approximate", "none")) break;
    if (holo_attr_string_is(c, "approximate", "tanh")) p->tanh_approx = true;
    else
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Gelu: approximate must be \"none\" or \"tanh\"");
    break;
  }
  default: break;
  }
  if (!st && op == U_CELU && p->alpha == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Celu: alpha must not be 0");
  return st;
}

static holo_status u_infer(holo_kernel_call *c, int op) {
  const char *name = u_names[op];
  holo_status st;
  uparams p;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, name, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, name, 0, HOLO_DT_F32))) return st;
  if ((st = u_params(c, op, &p))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, name, 0, HOLO_DT_F32, x->rank, x->shape);
}

/* e^x - 1 without cancellation near 0 */
static double expm1_d(double x) {
  if (__builtin_fabs(x) < 1e-5) return x + x * x * 0.5 + x * x * x * (1.0 / 6.0);
  return holo_x_exp(x) - 1.0;
}

/* log(1 + x) for x >= 0 */
static double log1p_d(double x) {
  if (x < 1e-5) return x - x * x * 0.5 + x * x * x * (1.0 / 3.0);
  return holo_x_log(1.0 + x);
}

/* erfc in double: series for erf below 3, a continued fraction above. */
static double erfc_d(double z) {
  if (z != z) return z;
  if (z < 0) return 2.0 - erfc_d(-z);
  if (z < 3.0) {
    double z2 = z * z, term = z, sum = z;
    for (int n = 1; n < 120; n++) {
      term *= -z2 / n;
      double add = term / (2 * n + 1);
      sum += add;
      if (__builtin_fabs(add) < 1e-18 * __builtin_fabs(sum)) break;
    }
    return 1.0 - sum * 1.12837916709551257390;
  }
  if (z > 27.0) return 0.0;
  /* erfc(z) = exp(-z^2)/sqrt(pi) * 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + ...)))) */
  double f = z;
  for (int k = 60; k >= 1; k--) f = z + (k * 0.5) / f;
  return holo_x_exp(-z * z) / f * 0.56418958354775628695; /* 1/sqrt(pi) */
}

static float u_eval(int op, const uparams *p, float xf) {
  double x = xf;
  switch (op) {
  case U_NEG: return -xf;
  case U_ABS: return __builtin_fabsf(xf);
  case U_EXP: return (float)holo_x_exp(x);
  case U_LOG: return (float)holo_x_log(x);
  case U_SQRT: return __builtin_sqrtf(xf);
  case U_RECIP: return 1.0f / xf;
  case U_FLOOR: return (float)holo_x_floor(x);
  case U_CEIL: return (float)holo_x_ceil(x);
  case U_ROUND: return (float)holo_x_rint(x);
  case U_SIGN: return xf > 0 ? 1.0f : xf < 0 ? -1.0f : xf; /* 0 and NaN pass through */
  case U_ERF: return xf != xf ? xf : (float)(1.0 - erfc_d(x));
  case U_SIN: return (float)holo_x_sin(x);
  case U_COS: return (float)holo_x_cos(x);
  case U_TAN: return (float)(holo_x_sin(x) / holo_x_cos(x));
  case U_SOFTPLUS:
    if (xf != xf) return xf;
    if (x > 40) return xf;
    return (float)log1p_d(holo_x_exp(x));
  case U_SOFTSIGN: return (float)(x / (1.0 + __builtin_fabs(x)));
  case U_HARDSWISH: {
    double t = x * (1.0 / 6.0) + 0.5;
    if (xf != xf) return xf;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return (float)(x * t);
  }
  case U_LEAKYRELU: return xf < 0 ? (float)(p->alpha * x) : xf;
  case U_ELU: return xf < 0 ? (float)(p->alpha * expm1_d(x)) : xf;
  case U_SELU:
    return xf > 0 ? (float)(p->gamma * x) : xf != xf ? xf : (float)(p->gamma * p->alpha * expm1_d(x));
  case U_HARDSIGMOID: {
    if (xf != xf) return xf;
    double t = p->alpha * x + p->beta;
    return (float)(t < 0 ? 0 : t > 1 ? 1 : t);
  }
  case U_CELU:
    if (xf != xf) return xf;
    return xf > 0 ? xf : (float)(p->alpha * expm1_d(x / p->alpha));
  case U_THRELU: return xf > p->alpha ? xf : xf != xf ? xf : 0.0f;
  default: /* GELU */
    if (xf != xf) return xf;
    if (p->tanh_approx) {
      double u = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
      /* 1 + tanh(u) = 2 / (1 + e^(-2u)) */
      if (u < -20) return (float)(x * holo_x_exp(2.0 * u));
      return (float)(x / (1.0 + holo_x_exp(-2.0 * u)));
    }
    /* 0.5 x (1 + erf(x / sqrt 2)) = 0.5 x erfc(-x / sqrt 2) */
    return (float)(0.5 * x * erfc_d(-x * 0.70710678118654752440));
  }
}

static holo_status u_run(holo_kernel_call *c, int op) {
  uparams p;
  if (u_params(c, op, &p)) return HOLO_ERR_KERNEL;
  const float *x = c->inputs[0].data;
  float *y = c->outputs[0].data;
  size_t n = holo_k_prod(c->inputs[0].shape, 0, c->inputs[0].rank);
  for (size_t i = 0; i < n; i++) y[i] = u_eval(op, &p, x[i]);
  return HOLO_OK;
}

#define DEF(fn, op)                                                                                \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return u_infer(c, op); }                 \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return u_run(c, op); }
DEF(neg, U_NEG)
DEF(abs, U_ABS)
DEF(exp, U_EXP)
DEF(log, U_LOG)
DEF(sqrt, U_SQRT)
DEF(reciprocal, U_RECIP)
DEF(floor, U_FLOOR)
DEF(ceil, U_CEIL)
DEF(round, U_ROUND)
DEF(sign, U_SIGN)
DEF(erf, U_ERF)
DEF(sin, U_SIN)
DEF(cos, U_COS)
DEF(tan, U_TAN)
DEF(softplus, U_SOFTPLUS)
DEF(softsign, U_SOFTSIGN)
DEF(hardswish, U_HARDSWISH)
DEF(leakyrelu, U_LEAKYRELU)
DEF(elu, U_ELU)
DEF(selu, U_SELU)
DEF(hardsigmoid, U_HARDSIGMOID)
DEF(celu, U_CELU)
DEF(thresholdedrelu, U_THRELU)
DEF(gelu, U_GELU)
