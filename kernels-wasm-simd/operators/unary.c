/* Relu, Sigmoid, Tanh and the other elementwise f32 functions: Neg, Abs,
 * Exp, Log, Sqrt, Reciprocal, Floor, Ceil, Round (ties to even), Sign,
 * Erf, Sin, Cos, Tan, Softplus, Softsign, HardSwish, LeakyRelu (alpha), Elu
 * (alpha), Selu (alpha, gamma), HardSigmoid (alpha, beta), Celu (alpha),
 * ThresholdedRelu (alpha), Gelu (approximate "none" | "tanh"), Asin, Acos,
 * Atan, Sinh, Cosh, Asinh, Acosh, Atanh, Mish, Shrink (lambd, bias), holo.SiLU
 * (x * Sigmoid(x), the converter's fusion of that pair): validation
 * and attributes here, the loops in microkernels/vunary.h. NaN propagates.
 * Neg, Abs and Sign of f64 and integers are unary-exact.c's.
 * Attribute defaults are the ONNX ones, but the converter writes every
 * attribute out. */
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/vunary.h"
#include "operators/operators.h"
#include "operators/products.h"
#include "operators/unary-exact.h"

enum { U_SILU = -4, U_RELU = -3, U_SIGMOID = -2, U_TANH = -1 };

/* Index: the vunary.h op (>= 0), or one of the four with a microkernel of its own. */
static const struct {
  const char *name;
  int op;
} u_ops[] = {
    {"Neg", HOLO_VUNARY_NEG},
    {"Abs", HOLO_VUNARY_ABS},
    {"Exp", HOLO_VUNARY_EXP},
    {"Log", HOLO_VUNARY_LOG},
    {"Sqrt", HOLO_VUNARY_SQRT},
    {"Reciprocal", HOLO_VUNARY_RECIP},
    {"Floor", HOLO_VUNARY_FLOOR},
    {"Ceil", HOLO_VUNARY_CEIL},
    {"Round", HOLO_VUNARY_ROUND},
    {"Sign", HOLO_VUNARY_SIGN},
    {"Erf", HOLO_VUNARY_ERF},
    {"Sin", HOLO_VUNARY_SIN},
    {"Cos", HOLO_VUNARY_COS},
    {"Tan", HOLO_VUNARY_TAN},
    {"Softplus", HOLO_VUNARY_SOFTPLUS},
    {"Softsign", HOLO_VUNARY_SOFTSIGN},
    {"HardSwish", HOLO_VUNARY_HARDSWISH},
    {"LeakyRelu", HOLO_VUNARY_LEAKYRELU},
    {"Elu", HOLO_VUNARY_ELU},
    {"Selu", HOLO_VUNARY_SELU},
    {"HardSigmoid", HOLO_VUNARY_HARDSIGMOID},
    {"Celu", HOLO_VUNARY_CELU},
    {"ThresholdedRelu", HOLO_VUNARY_THRELU},
    {"Gelu", HOLO_VUNARY_GELU},
    {"Asin", HOLO_VUNARY_ASIN},
    {"Acos", HOLO_VUNARY_ACOS},
    {"Atan", HOLO_VUNARY_ATAN},
    {"Sinh", HOLO_VUNARY_SINH},
    {"Cosh", HOLO_VUNARY_COSH},
    {"Asinh", HOLO_VUNARY_ASINH},
    {"Acosh", HOLO_VUNARY_ACOSH},
    {"Atanh", HOLO_VUNARY_ATANH},
    {"Mish", HOLO_VUNARY_MISH},
    {"Shrink", HOLO_VUNARY_SHRINK},
    {"Relu", U_RELU},
    {"Sigmoid", U_SIGMOID},
    {"Tanh", U_TANH},
    {"holo.SiLU", U_SILU},
};
/* the first HOLO_VUNARY_COUNT rows are in vunary.h's order: row i is op i */
enum { I_RELU = HOLO_VUNARY_COUNT, I_SIGMOID, I_TANH, I_SILU };
_Static_assert(sizeof u_ops / sizeof u_ops[0] == I_SILU + 1, "one row per op");

/* `prefix` + `name`: the op's own attribute (prefix "") or a fused one's
 * (prefix "holo_activation_", gemm-epilogue.c). */
static const char *attr_name(char *buf, size_t cap, const char *prefix, const char *name) {
  size_t n = 0;
  for (const char *s = prefix; *s && n + 1 < cap; s++)
    buf[n++] = *s;
  for (const char *s = name; *s && n + 1 < cap; s++)
    buf[n++] = *s;
  buf[n] = 0;
  return buf;
}

static holo_status float_attr(holo_kernel_call *c, const char *op, const char *prefix, const char *name,
                              float dflt, double *out) {
  char buf[48];
  name = attr_name(buf, sizeof buf, prefix, name);
  const holo_attr *a = holo_attr_find(c, name);
  if (a && (a->type != HOLO_ATTR_FLOAT || a->count != 1))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute %s must be a float", op, name);
  float v = holo_attr_float(c, name, dflt);
  if (v != v || __builtin_fabsf(v) == __builtin_inff())
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute %s must be finite", op, name);
  *out = v;
  return HOLO_OK;
}

holo_status holo_k_unary_attrs(holo_kernel_call *c, int i, const char *prefix, holo_vunary_params *p) {
  const char *name = u_ops[i].name;
  const int op = u_ops[i].op;
  holo_status st = HOLO_OK;
  p->alpha = p->beta = p->gamma = 0;
  p->tanh_approx = false;
  switch (op) {
  case HOLO_VUNARY_LEAKYRELU: st = float_attr(c, name, prefix, "alpha", 0.01f, &p->alpha); break;
  case HOLO_VUNARY_ELU:
  case HOLO_VUNARY_CELU:
  case HOLO_VUNARY_THRELU: st = float_attr(c, name, prefix, "alpha", 1.0f, &p->alpha); break;
  case HOLO_VUNARY_SELU:
    if ((st = float_attr(c, name, prefix, "alpha", 1.67326319217681884765625f, &p->alpha))) break;
    st = float_attr(c, name, prefix, "gamma", 1.05070102214813232421875f, &p->gamma);
    break;
  case HOLO_VUNARY_HARDSIGMOID:
    if ((st = float_attr(c, name, prefix, "alpha", 0.2f, &p->alpha))) break;
    st = float_attr(c, name, prefix, "beta", 0.5f, &p->beta);
    break;
  case HOLO_VUNARY_SHRINK:
    if ((st = float_attr(c, name, prefix, "lambd", 0.5f, &p->alpha))) break;
    st = float_attr(c, name, prefix, "bias", 0.0f, &p->beta);
    break;
  case HOLO_VUNARY_GELU: {
    char buf[48];
    const char *an = attr_name(buf, sizeof buf, prefix, "approximate");
    const holo_attr *a = holo_attr_find(c, an);
    if (!a || holo_attr_string_is(c, an, "none")) break;
    if (holo_attr_string_is(c, an, "tanh"))
      p->tanh_approx = true;
    else
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Gelu: %s must be \"none\" or \"tanh\"", an);
    break;
  }
  default: break;
  }
  if (!st && op == HOLO_VUNARY_CELU && p->alpha == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Celu: alpha must not be 0");
  return st;
}

int holo_k_unary_row(const char *op) {
  for (int i = 0; i < (int)(sizeof u_ops / sizeof u_ops[0]); i++) {
    const char *a = u_ops[i].name, *b = op;
    while (*a && *a == *b)
      a++, b++;
    if (!*a && !*b) return i;
  }
  return -1;
}

void holo_k_unary_apply(int i, const holo_vunary_params *p, size_t n, const float *x, float *y) {
  switch (u_ops[i].op) {
  case U_RELU: holo_vrelu_f32(n, x, y); break;
  case U_SIGMOID: holo_vsigmoid_f32(n, x, y); break;
  case U_TANH: holo_vtanh_f32(n, x, y); break;
  case U_SILU: holo_vsilu_f32(n, x, y); break;
  case HOLO_VUNARY_ERF: holo_verf_f32(n, x, y); break;
  case HOLO_VUNARY_GELU: (p->tanh_approx ? holo_vgelutanh_f32 : holo_vgelu_f32)(n, x, y); break;
  default: holo_ukernel_vunary_f32__scalar(u_ops[i].op, p, n, x, y); break;
  }
}

/* The unary-exact.c op of row i (Neg, Abs, Sign), or -1. */
static int exact_op(int i) {
  switch (u_ops[i].op) {
  case HOLO_VUNARY_NEG: return HOLO_K_EXACT_NEG;
  case HOLO_VUNARY_ABS: return HOLO_K_EXACT_ABS;
  case HOLO_VUNARY_SIGN: return HOLO_K_EXACT_SIGN;
  default: return -1;
  }
}

static holo_status u_infer(holo_kernel_call *c, int i) {
  const char *name = u_ops[i].name;
  holo_status st;
  holo_vunary_params p;
  if ((st = holo_k_infer_begin(c, name, 1, 1, 1))) return st;
  const int ex = exact_op(i);
  if (ex >= 0 && c->inputs[0].dtype != 0 && c->inputs[0].dtype != HOLO_DT_F32) {
    const holo_tensor *x = &c->inputs[0];
    if (!holo_k_unary_exact_dtype(ex, x->dtype))
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported", name,
                         holo_k_dtype_name(x->dtype));
    return holo_k_set_output(c, name, 0, x->dtype, x->rank, x->shape);
  }
  if ((st = holo_k_check_input(c, name, 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_unary_attrs(c, i, "", &p))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, name, 0, HOLO_DT_F32, x->rank, x->shape);
}

static holo_status u_run(holo_kernel_call *c, int i) {
  holo_vunary_params p;
  const holo_tensor *x = &c->inputs[0];
  if (x->dtype != HOLO_DT_F32) { /* infer let it through: Neg, Abs or Sign of f64 or an integer */
    holo_k_unary_exact_run(exact_op(i), x->dtype, holo_k_prod(x->shape, 0, x->rank), x->data,
                           c->outputs[0].data);
    return HOLO_OK;
  }
  if (holo_k_unary_attrs(c, i, "", &p)) return HOLO_ERR_KERNEL;
  holo_k_unary_apply(i, &p, holo_k_prod(c->inputs[0].shape, 0, c->inputs[0].rank), c->inputs[0].data,
                     c->outputs[0].data);
  return HOLO_OK;
}

#define DEF(fn, i)                                                                                           \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return u_infer(c, i); }                             \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return u_run(c, i); }
DEF(neg, HOLO_VUNARY_NEG)
DEF(abs, HOLO_VUNARY_ABS)
DEF(exp, HOLO_VUNARY_EXP) DEF(log, HOLO_VUNARY_LOG) DEF(sqrt, HOLO_VUNARY_SQRT)
    DEF(reciprocal, HOLO_VUNARY_RECIP) DEF(floor, HOLO_VUNARY_FLOOR) DEF(ceil, HOLO_VUNARY_CEIL)
        DEF(round, HOLO_VUNARY_ROUND) DEF(sign, HOLO_VUNARY_SIGN) DEF(erf, HOLO_VUNARY_ERF)
            DEF(sin, HOLO_VUNARY_SIN) DEF(cos, HOLO_VUNARY_COS) DEF(tan, HOLO_VUNARY_TAN)
                DEF(softplus, HOLO_VUNARY_SOFTPLUS) DEF(softsign, HOLO_VUNARY_SOFTSIGN)
                    DEF(hardswish, HOLO_VUNARY_HARDSWISH) DEF(leakyrelu, HOLO_VUNARY_LEAKYRELU)
                        DEF(elu, HOLO_VUNARY_ELU) DEF(selu, HOLO_VUNARY_SELU)
                            DEF(hardsigmoid, HOLO_VUNARY_HARDSIGMOID) DEF(celu, HOLO_VUNARY_CELU)
                                DEF(thresholdedrelu, HOLO_VUNARY_THRELU) DEF(gelu, HOLO_VUNARY_GELU)
                                    DEF(asin, HOLO_VUNARY_ASIN) DEF(acos, HOLO_VUNARY_ACOS)
                                        DEF(atan, HOLO_VUNARY_ATAN) DEF(sinh, HOLO_VUNARY_SINH)
                                            DEF(cosh, HOLO_VUNARY_COSH) DEF(asinh, HOLO_VUNARY_ASINH)
                                                DEF(acosh, HOLO_VUNARY_ACOSH) DEF(atanh, HOLO_VUNARY_ATANH)
                                                    DEF(mish, HOLO_VUNARY_MISH)
                                                        DEF(shrink, HOLO_VUNARY_SHRINK) DEF(relu, I_RELU)
                                                            DEF(sigmoid, I_SIGMOID) DEF(tanh, I_TANH)
                                                                DEF(silu, I_SILU)
