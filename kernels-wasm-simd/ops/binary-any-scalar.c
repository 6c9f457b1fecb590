/* Add, Sub, Mul, Div over f32, i32 and i64 with multidirectional (numpy)
 * broadcasting. Integer add/sub/mul wrap modulo 2^n (through unsigned
 * arithmetic: signed overflow would be undefined); integer division
 * truncates toward zero, INT_MIN / -1 wraps to INT_MIN, and division by zero
 * is an error value, never a trap. */
#include "ext-util.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV };
static const char *const op_names[] = {"Add", "Sub", "Mul", "Div"};

static holo_status binary_infer(holo_kernel_call *c, int op) {
  const char *name = op_names[op];
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, name, 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, name, 0, 0))) return st;
  if ((st = holo_k_check_input(c, name, 1, 0))) return st;
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  if (a->dtype != b->dtype)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: operand dtypes differ: %s vs %s", name,
                       holo_k_dtype_name(a->dtype), holo_k_dtype_name(b->dtype));
  if (a->dtype != HOLO_DT_F32 && a->dtype != HOLO_DT_I32 && a->dtype != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported (f32, i32, i64 are)",
                       name, holo_k_dtype_name(a->dtype));
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (!holo_k_broadcast_shape(a->shape, a->rank, b->shape, b->rank, ys, &yr)) {
    char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: shapes do not broadcast: %s vs %s", name,
                       holo_k_shape_str(s1, a->shape, a->rank),
                       holo_k_shape_str(s2, b->shape, b->rank));
  }
  return holo_k_set_output(c, name, 0, a->dtype, yr, ys);
}

#define F_ADD(x, y) ((x) + (y))
#define F_SUB(x, y) ((x) - (y))
#define F_MUL(x, y) ((x) * (y))
#define F_DIV(x, y) ((x) / (y))
#define U_ADD(T, U, x, y) ((T)((U)(x) + (U)(y)))
#define U_SUB(T, U, x, y) ((T)((U)(x) - (U)(y)))
#define U_MUL(T, U, x, y) ((T)((U)(x) * (U)(y)))
/* -1 is special-cased: INT_MIN / -1 overflows (a trap in wasm). */
#define U_DIV(T, U, x, y) ((y) == -1 ? (T)((U)0 - (U)(x)) : (T)((x) / (y)))

/* One loop per (op, dtype): the row loop walks broadcast offsets, the inner
 * loop has strides 0 or 1 per operand. */
#define DEF_FLOAT(fn, T, EXPR)                                                                     \
  static void fn(const holo_k_bcast *p, const T *A, const T *B, T *Y) {                           \
    int64_t idx[HOLO_MAX_RANK] = {0};                                                              \
    size_t oa = 0, ob = 0, n = p->row;                                                             \
    size_t ia = (size_t)p->sa[p->rank - 1], ib = (size_t)p->sb[p->rank - 1];                       \
    for (size_t r = 0; r < p->n_rows; r++, Y += n) {                                               \
      const T *a = A + oa, *b = B + ob;                                                            \
      for (size_t j = 0; j < n; j++) Y[j] = EXPR(a[j * ia], b[j * ib]);                            \
      holo_k_bcast_next(p, idx, &oa, &ob);                                                         \
    }                                                                                              \
  }

#define DEF_INT(fn, T, U, EXPR)                                                                    \
  static void fn(const holo_k_bcast *p, const T *A, const T *B, T *Y) {                           \
    int64_t idx[HOLO_MAX_RANK] = {0};                                                              \
    size_t oa = 0, ob = 0, n = p->row;                                                             \
    size_t ia = (size_t)p->sa[p->rank - 1], ib = (size_t)p->sb[p->rank - 1];                       \
    for (size_t r = 0; r < p->n_rows; r++, Y += n) {                                               \
      const T *a = A + oa, *b = B + ob;                                                            \
      for (size_t j = 0; j < n; j++) Y[j] = EXPR(T, U, a[j * ia], b[j * ib]);                      \
      holo_k_bcast_next(p, idx, &oa, &ob);                                                         \
    }                                                                                              \
  }

DEF_FLOAT(add_f32, float, F_ADD)
DEF_FLOAT(sub_f32, float, F_SUB)
DEF_FLOAT(mul_f32, float, F_MUL)
DEF_FLOAT(div_f32, float, F_DIV)
DEF_INT(add_i32, int32_t, uint32_t, U_ADD)
DEF_INT(sub_i32, int32_t, uint32_t, U_SUB)
DEF_INT(mul_i32, int32_t, uint32_t, U_MUL)
DEF_INT(div_i32, int32_t, uint32_t, U_DIV)
DEF_INT(add_i64, int64_t, uint64_t, U_ADD)
DEF_INT(sub_i64, int64_t, uint64_t, U_SUB)
DEF_INT(mul_i64, int64_t, uint64_t, U_MUL)
DEF_INT(div_i64, int64_t, uint64_t, U_DIV)

#define BIN_CALL(fn, T) fn(&p, (const T *)a->data, (const T *)b->data, (T *)y->data)

static bool has_zero_i32(const holo_tensor *t) {
  const int32_t *d = t->data;
  size_t n = holo_k_prod(t->shape, 0, t->rank);
  for (size_t i = 0; i < n; i++)
    if (d[i] == 0) return true;
  return false;
}

static bool has_zero_i64(const holo_tensor *t) {
  const int64_t *d = t->data;
  size_t n = holo_k_prod(t->shape, 0, t->rank);
  for (size_t i = 0; i < n; i++)
    if (d[i] == 0) return true;
  return false;
}

static holo_status binary_run(holo_kernel_call *c, int op) {
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  holo_tensor *y = &c->outputs[0];
  if (holo_k_prod(y->shape, 0, y->rank) == 0) return HOLO_OK;
  /* Checked up front so no output bytes are written on failure. Every
   * divisor element is used when the output is non-empty. */
  if (op == OP_DIV && ((a->dtype == HOLO_DT_I32 && has_zero_i32(b)) ||
                       (a->dtype == HOLO_DT_I64 && has_zero_i64(b))))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Div: integer division by zero (%s)",
                       holo_k_dtype_name(a->dtype));
  holo_k_bcast p;
  holo_k_bcast_plan(&p, a, b, y);
  switch (a->dtype) {
  case HOLO_DT_F32:
    switch (op) {
    case OP_ADD: BIN_CALL(add_f32, float); break;
    case OP_SUB: BIN_CALL(sub_f32, float); break;
    case OP_MUL: BIN_CALL(mul_f32, float); break;
    default: BIN_CALL(div_f32, float); break;
    }
    break;
  case HOLO_DT_I32:
    switch (op) {
    case OP_ADD: BIN_CALL(add_i32, int32_t); break;
    case OP_SUB: BIN_CALL(sub_i32, int32_t); break;
    case OP_MUL: BIN_CALL(mul_i32, int32_t); break;
    default: BIN_CALL(div_i32, int32_t); break;
    }
    break;
  default:
    switch (op) {
    case OP_ADD: BIN_CALL(add_i64, int64_t); break;
    case OP_SUB: BIN_CALL(sub_i64, int64_t); break;
    case OP_MUL: BIN_CALL(mul_i64, int64_t); break;
    default: BIN_CALL(div_i64, int64_t); break;
    }
    break;
  }
  return HOLO_OK;
}

holo_status holo_k_add_infer(holo_kernel_call *c) { return binary_infer(c, OP_ADD); }
holo_status holo_k_sub_infer(holo_kernel_call *c) { return binary_infer(c, OP_SUB); }
holo_status holo_k_mul_infer(holo_kernel_call *c) { return binary_infer(c, OP_MUL); }
holo_status holo_k_div_infer(holo_kernel_call *c) { return binary_infer(c, OP_DIV); }
holo_status holo_k_add_run(holo_kernel_call *c) { return binary_run(c, OP_ADD); }
holo_status holo_k_sub_run(holo_kernel_call *c) { return binary_run(c, OP_SUB); }
holo_status holo_k_mul_run(holo_kernel_call *c) { return binary_run(c, OP_MUL); }
holo_status holo_k_div_run(holo_kernel_call *c) { return binary_run(c, OP_DIV); }
