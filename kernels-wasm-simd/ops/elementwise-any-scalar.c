/* Broadcasting elementwise ops over several dtypes (numpy multidirectional
 * broadcasting throughout):
 *  Max, Min      1..8 inputs of one numeric dtype; NaN propagates.
 *  Pow           base f32/f64/f16/i32/i64, exponent any numeric dtype;
 *                output the base dtype. Float bases: C pow in double,
 *                integral exponents |e| <= 2^16 by repeated squaring.
 *                Integer base and exponent: exact, wrapping modulo 2^n; a
 *                negative exponent gives 1/b^|e| truncated (0 unless |b| = 1).
 *                Integer base with a float exponent: pow in double, truncated
 *                and saturated.
 *  Mod           one numeric dtype; fmod=0 (integers only): the sign of the
 *                divisor (Python %); fmod=1: C fmod / %, the sign of the
 *                dividend. Float dtypes require fmod=1; an integer divisor of 0
 *                is refused.
 *  PRelu         f32; slope broadcast onto X (the output has X's shape).
 *  Equal, Less, Greater, LessOrEqual, GreaterOrEqual
 *                one dtype (Equal also bool); output bool; NaN compares false.
 *  And, Or, Xor  bool; Not bool (unary).
 *  Where         bool condition, X and Y of one dtype (any).
 * Integer comparisons are exact (no conversion through double). */
#include "ext-util.h"

#include "hologram/mem.h"

enum {
  E_MAX, E_MIN, E_POW, E_MOD, E_PRELU, E_EQ, E_LT, E_GT, E_LE, E_GE, E_AND, E_OR, E_XOR, E_NOT,
  E_WHERE, E_COUNT
};
static const char *const e_names[E_COUNT] = {
    "Max",   "Min",  "Pow",         "Mod",            "PRelu", "Equal", "Less", "Greater",
    "LessOrEqual", "GreaterOrEqual", "And", "Or",   "Xor",     "Not",   "Where"};

#define INT_CASES(M)                                                                               \
  case HOLO_DT_I8: M(int8_t); break;                                                               \
  case HOLO_DT_U8: M(uint8_t); break;                                                              \
  case HOLO_DT_I16: M(int16_t); break;                                                             \
  case HOLO_DT_U16: M(uint16_t); break;                                                            \
  case HOLO_DT_I32: M(int32_t); break;                                                             \
  case HOLO_DT_U32: M(uint32_t); break;                                                            \
  case HOLO_DT_I64: M(int64_t); break;                                                             \
  case HOLO_DT_U64: M(uint64_t); break;

/* true when some element of an integer tensor is 0 */
static bool int_has_zero(const holo_tensor *t) {
  size_t n = holo_k_prod(t->shape, 0, t->rank), es = holo_dtype_size(t->dtype);
  const uint8_t *p = t->data;
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 0;
    for (size_t b = 0; b < es; b++) v |= p[i * es + b];
    if (v == 0) return true;
  }
  return false;
}

static holo_status e_infer(holo_kernel_call *c, int op) {
  const char *name = e_names[op];
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  uint32_t min_in = 2, max_in = 2;
  if (op == E_MAX || op == E_MIN) min_in = 1, max_in = HOLO_X_MAX_OPS;
  else if (op == E_NOT) min_in = max_in = 1;
  else if (op == E_WHERE) min_in = max_in = 3;
  if ((st = holo_k_check_arity(c, name, min_in, max_in, 1))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++)
    if ((st = holo_k_check_input(c, name, k, 0))) return st;
  const holo_tensor *t[HOLO_X_MAX_OPS];
  for (uint32_t k = 0; k < c->n_inputs; k++) t[k] = &c->inputs[k];
  uint32_t dt = t[0]->dtype, out_dt = dt;
  /* dtype rules */
  switch (op) {
  case E_POW:
    if (dt != HOLO_DT_F32 && dt != HOLO_DT_F64 && dt != HOLO_DT_F16 && dt != HOLO_DT_I32 &&
        dt != HOLO_DT_I64)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Pow: base dtype %s is not supported",
                         holo_k_dtype_name(dt));
    if (t[1]->dtype == HOLO_DT_BOOL)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Pow: exponent dtype bool is not supported");
    break;
  case E_PRELU:
    if (dt != HOLO_DT_F32 || t[1]->dtype != HOLO_DT_F32)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "PRelu: dtypes %s, %s are not supported (f32 is)",
                         holo_k_dtype_name(dt), holo_k_dtype_name(t[1]->dtype));
    break;
  case E_AND: case E_OR: case E_XOR: case E_NOT:
    for (uint32_t k = 0; k < c->n_inputs; k++)
      if (t[k]->dtype != HOLO_DT_BOOL)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u must be bool, got %s", name, k,
                           holo_k_dtype_name(t[k]->dtype));
    break;
  case E_WHERE:
    if (dt != HOLO_DT_BOOL)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Where: condition must be bool, got %s",
                         holo_k_dtype_name(dt));
    if (t[1]->dtype != t[2]->dtype)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Where: X and Y dtypes differ: %s vs %s",
                         holo_k_dtype_name(t[1]->dtype), holo_k_dtype_name(t[2]->dtype));
    out_dt = t[1]->dtype;
    break;
  default:
    for (uint32_t k = 1; k < c->n_inputs; k++)
      if (t[k]->dtype != dt)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: operand dtypes differ: %s vs %s", name,
                           holo_k_dtype_name(dt), holo_k_dtype_name(t[k]->dtype));
    if (dt == HOLO_DT_BOOL && op != E_EQ)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype bool is not supported", name);
    break;
  }
  if (op >= E_EQ && op <= E_NOT) out_dt = HOLO_DT_BOOL;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (!holo_x_broadcast_n(t, c->n_inputs, ys, &yr)) {
    char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: shapes do not broadcast: %s vs %s", name,
                       holo_k_shape_str(s1, t[0]->shape, t[0]->rank),
                       holo_k_shape_str(s2, t[1 % c->n_inputs]->shape, t[1 % c->n_inputs]->rank));
  }
  if (op == E_PRELU) {
    bool same = yr == t[0]->rank;
    for (uint32_t i = 0; same && i < yr; i++) same = ys[i] == t[0]->shape[i];
    if (!same) {
      char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
      return holo_k_fail(c, HOLO_ERR_KERNEL, "PRelu: slope %s does not broadcast onto X %s",
                         holo_k_shape_str(s1, t[1]->shape, t[1]->rank),
                         holo_k_shape_str(s2, t[0]->shape, t[0]->rank));
    }
  }
  if (op == E_MOD) {
    bool fm;
    if ((st = holo_x_flag(c, name, "fmod", 0, &fm))) return st;
    if (!fm && holo_x_is_float(dt))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Mod: fmod must be 1 for dtype %s",
                         holo_k_dtype_name(dt));
    if (!holo_x_is_float(dt) && holo_k_prod(ys, 0, yr) != 0 && int_has_zero(t[1]))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Mod: integer division by zero (%s)",
                         holo_k_dtype_name(dt));
  }
  return holo_k_set_output(c, name, 0, out_dt, yr, ys);
}

/* ---- per-op loops ---- */

#define LOOP(w) for (size_t i = 0; i < (w).n; i++, holo_x_walk_next(&(w)))
#define AT(T, k) (((const T *)t[k]->data)[w.off[k]])

static void minmax(holo_x_walk *wp, const holo_tensor *const *t, uint32_t n, void *y, bool mx) {
  holo_x_walk w = *wp;
  switch (t[0]->dtype) {
#define MM_INT(T)                                                                                  \
  LOOP(w) {                                                                                        \
    T v = AT(T, 0);                                                                                \
    for (uint32_t k = 1; k < n; k++) {                                                             \
      T u = AT(T, k);                                                                              \
      if (mx ? u > v : u < v) v = u;                                                               \
    }                                                                                              \
    ((T *)y)[i] = v;                                                                               \
  }
    INT_CASES(MM_INT)
#define MM_FLT(T)                                                                                  \
  LOOP(w) {                                                                                        \
    T v = AT(T, 0);                                                                                \
    for (uint32_t k = 1; k < n; k++) {                                                             \
      T u = AT(T, k);                                                                              \
      if (v == v && (u != u || (mx ? u > v : u < v))) v = u;                                      \
    }                                                                                              \
    ((T *)y)[i] = v;                                                                               \
  }
  case HOLO_DT_F32: MM_FLT(float); break;
  case HOLO_DT_F64: MM_FLT(double); break;
  default: /* F16: compare as double, keep the bits */
    LOOP(w) {
      uint16_t v = AT(uint16_t, 0);
      double dv = holo_x_f16_to_f64(v);
      for (uint32_t k = 1; k < n; k++) {
        uint16_t u = AT(uint16_t, k);
        double du = holo_x_f16_to_f64(u);
        if (dv == dv && (du != du || (mx ? du > dv : du < dv))) v = u, dv = du;
      }
      ((uint16_t *)y)[i] = v;
    }
    break;
  }
}

static int64_t ipow(int64_t b, int64_t e) {
  if (e < 0) return b == 1 ? 1 : b == -1 ? ((e & 1) ? -1 : 1) : 0;
  uint64_t r = 1, x = (uint64_t)b;
  while (e) {
    if (e & 1) r *= x;
    e >>= 1;
    if (e) x *= x;
  }
  return (int64_t)r;
}

static int64_t sat_trunc(double d, double lo, double hi) {
  if (d != d) return 0;
  if (d <= lo) return (int64_t)lo;
  if (d >= hi) return (int64_t)hi;
  return (int64_t)d;
}

static void pow_loop(holo_x_walk *wp, const holo_tensor *const *t, void *y) {
  holo_x_walk w = *wp;
  uint32_t bt = t[0]->dtype, et = t[1]->dtype;
  const void *E = t[1]->data;
  bool eint = !holo_x_is_float(et);
  switch (bt) {
  case HOLO_DT_F32:
    LOOP(w) ((float *)y)[i] = (float)holo_x_pow(AT(float, 0), holo_x_load_f64(E, et, w.off[1]));
    break;
  case HOLO_DT_F64:
    LOOP(w) ((double *)y)[i] = holo_x_pow(AT(double, 0), holo_x_load_f64(E, et, w.off[1]));
    break;
  case HOLO_DT_F16:
    LOOP(w)
    ((uint16_t *)y)[i] = holo_x_f64_to_f16(
        holo_x_pow(holo_x_f16_to_f64(AT(uint16_t, 0)), holo_x_load_f64(E, et, w.off[1])));
    break;
  case HOLO_DT_I32:
    LOOP(w) {
      int32_t b = AT(int32_t, 0);
      ((int32_t *)y)[i] =
          eint ? (int32_t)(uint32_t)(uint64_t)ipow(b, holo_x_load_i64(E, et, w.off[1]))
               : (int32_t)sat_trunc(holo_x_pow(b, holo_x_load_f64(E, et, w.off[1])),
                                    -2147483648.0, 2147483647.0);
    }
    break;
  default: /* I64 */
    LOOP(w) {
      int64_t b = AT(int64_t, 0);
      double d = eint ? 0 : holo_x_pow((double)b, holo_x_load_f64(E, et, w.off[1]));
      ((int64_t *)y)[i] = eint ? ipow(b, holo_x_load_i64(E, et, w.off[1]))
                          : d != d                         ? 0
                          : d >= 9223372036854775808.0     ? INT64_MAX
                          : d <= -9223372036854775808.0    ? INT64_MIN
                                                           : (int64_t)d;
    }
    break;
  }
}

static void mod_loop(holo_x_walk *wp, const holo_tensor *const *t, void *y, bool fm) {
  holo_x_walk w = *wp;
  uint32_t dt = t[0]->dtype;
  switch (dt) {
#define MOD_S(T)                                                                                   \
  LOOP(w) {                                                                                        \
    T a = AT(T, 0), b = AT(T, 1), r;                                                               \
    if (b == 0 || b == -1) r = 0; /* 0 is refused by infer; never trap */                         \
    else {                                                                                         \
      r = (T)(a % b);                                                                              \
      if (!fm && r != 0 && ((r < 0) != (b < 0))) r = (T)(r + b);                                   \
    }                                                                                              \
    ((T *)y)[i] = r;                                                                               \
  }
#define MOD_U(T)                                                                                   \
  LOOP(w) {                                                                                        \
    T a = AT(T, 0), b = AT(T, 1);                                                                  \
    ((T *)y)[i] = b == 0 ? 0 : (T)(a % b);                                                         \
  }
  case HOLO_DT_I8: MOD_S(int8_t); break;
  case HOLO_DT_I16: MOD_S(int16_t); break;
  case HOLO_DT_I32: MOD_S(int32_t); break;
  case HOLO_DT_I64: MOD_S(int64_t); break;
  case HOLO_DT_U8: MOD_U(uint8_t); break;
  case HOLO_DT_U16: MOD_U(uint16_t); break;
  case HOLO_DT_U32: MOD_U(uint32_t); break;
  case HOLO_DT_U64: MOD_U(uint64_t); break;
  case HOLO_DT_F32: LOOP(w) ((float *)y)[i] = (float)holo_x_fmod(AT(float, 0), AT(float, 1)); break;
  case HOLO_DT_F64: LOOP(w) ((double *)y)[i] = holo_x_fmod(AT(double, 0), AT(double, 1)); break;
  default: /* F16: fmod is exact, so the f16 result is too */
    LOOP(w)
    ((uint16_t *)y)[i] = holo_x_f64_to_f16(
        holo_x_fmod(holo_x_f16_to_f64(AT(uint16_t, 0)), holo_x_f16_to_f64(AT(uint16_t, 1))));
    break;
  }
}

static void cmp_loop(holo_x_walk *wp, const holo_tensor *const *t, uint8_t *y, int op) {
  holo_x_walk w = *wp;
#define CMP_EXPR(a, b)                                                                             \
  (op == E_EQ ? (a) == (b) : op == E_LT ? (a) < (b) : op == E_GT ? (a) > (b) : op == E_LE ? (a) <= (b) \
                                                                                         : (a) >= (b))
  switch (t[0]->dtype) {
#define CMP_T(T)                                                                                   \
  LOOP(w) {                                                                                        \
    T a = AT(T, 0), b = AT(T, 1);                                                                  \
    y[i] = (uint8_t)(CMP_EXPR(a, b) ? 1 : 0);                                                      \
  }
    INT_CASES(CMP_T)
  case HOLO_DT_BOOL: CMP_T(uint8_t); break;
  case HOLO_DT_F32: CMP_T(float); break;
  case HOLO_DT_F64: CMP_T(double); break;
  default: /* F16 */
    LOOP(w) {
      double a = holo_x_f16_to_f64(AT(uint16_t, 0)), b = holo_x_f16_to_f64(AT(uint16_t, 1));
      y[i] = (uint8_t)(CMP_EXPR(a, b) ? 1 : 0);
    }
    break;
  }
}

static holo_status e_run(holo_kernel_call *c, int op) {
  holo_tensor *yt = &c->outputs[0];
  const holo_tensor *t[HOLO_X_MAX_OPS];
  uint32_t n = c->n_inputs;
  for (uint32_t k = 0; k < n; k++) t[k] = &c->inputs[k];
  holo_x_walk w;
  holo_x_walk_init(&w, yt, t, n);
  if (holo_k_prod(yt->shape, 0, yt->rank) == 0) return HOLO_OK;
  void *y = yt->data;
  switch (op) {
  case E_MAX: case E_MIN: minmax(&w, t, n, y, op == E_MAX); break;
  case E_POW: pow_loop(&w, t, y); break;
  case E_MOD: mod_loop(&w, t, y, holo_attr_int(c, "fmod", 0) != 0); break;
  case E_PRELU:
    LOOP(w) {
      float x = AT(float, 0);
      ((float *)y)[i] = x < 0 ? x * AT(float, 1) : x;
    }
    break;
  case E_AND: LOOP(w) ((uint8_t *)y)[i] = (uint8_t)((AT(uint8_t, 0) != 0) & (AT(uint8_t, 1) != 0)); break;
  case E_OR: LOOP(w) ((uint8_t *)y)[i] = (uint8_t)((AT(uint8_t, 0) != 0) | (AT(uint8_t, 1) != 0)); break;
  case E_XOR: LOOP(w) ((uint8_t *)y)[i] = (uint8_t)((AT(uint8_t, 0) != 0) ^ (AT(uint8_t, 1) != 0)); break;
  case E_NOT: LOOP(w) ((uint8_t *)y)[i] = (uint8_t)(AT(uint8_t, 0) == 0); break;
  case E_WHERE: {
    size_t es = holo_dtype_size(t[1]->dtype);
    const uint8_t *X = t[1]->data, *Y = t[2]->data;
    uint8_t *o = y;
    LOOP(w) {
      const uint8_t *src = AT(uint8_t, 0) ? X + w.off[1] * es : Y + w.off[2] * es;
      for (size_t b = 0; b < es; b++) o[i * es + b] = src[b];
    }
    break;
  }
  default: cmp_loop(&w, t, y, op); break;
  }
  return HOLO_OK;
}

#define DEF(fn, op)                                                                                \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return e_infer(c, op); }                 \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return e_run(c, op); }
DEF(max, E_MAX)
DEF(min, E_MIN)
DEF(pow, E_POW)
DEF(mod, E_MOD)
DEF(prelu, E_PRELU)
DEF(equal, E_EQ)
DEF(less, E_LT)
DEF(greater, E_GT)
DEF(lessorequal, E_LE)
DEF(greaterorequal, E_GE)
DEF(and, E_AND)
DEF(or, E_OR)
DEF(xor, E_XOR)
DEF(not, E_NOT)
DEF(where, E_WHERE)
