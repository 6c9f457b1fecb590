/* Broadcasting arithmetic (numpy multidirectional broadcasting):
 *  Add, Sub, Mul, Div  f32, f64 and every integer dtype. Integer add/sub/mul
 *                      wrap modulo 2^n;
 *                      integer division truncates toward zero, INT_MIN / -1
 *                      wraps to INT_MIN, and division by zero is an error
 *                      value, never a trap.
 *  Pow                 base f32/f64/f16/i32/i64, exponent any numeric dtype;
 *                      output the base dtype (microkernels/vbroadcast.h).
 *  Mod                 one numeric dtype; fmod=0 (integers only): the sign of
 *                      the divisor (Python %); fmod=1: C fmod / %, the sign
 *                      of the dividend. Float dtypes require fmod=1; an
 *                      integer divisor of 0 is refused.
 * Each output row is one microkernel call (operators/elementwise.h). */
#include "common/attrs.h"
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW, OP_MOD };
static const char *const op_names[] = {"Add", "Sub", "Mul", "Div", "Pow", "Mod"};

/* The dtype rules of each op, checked before the shapes. */
static holo_status binary_dtypes(holo_kernel_call *c, int op, const holo_tensor *const *t) {
  const char *name = op_names[op];
  uint32_t dt = t[0]->dtype;
  holo_status st;
  if (op == OP_POW) {
    if (dt != HOLO_DT_F32 && dt != HOLO_DT_F64 && dt != HOLO_DT_F16 && dt != HOLO_DT_I32 && dt != HOLO_DT_I64)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Pow: base dtype %s is not supported",
                         holo_k_dtype_name(dt));
    if (t[1]->dtype == HOLO_DT_BOOL)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Pow: exponent dtype bool is not supported");
    return HOLO_OK;
  }
  if ((st = holo_k_ew_same_dtype(c, name, t, 2))) return st;
  if (op == OP_MOD)
    return dt == HOLO_DT_BOOL || dt == HOLO_DT_BF16
               ? holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Mod: dtype %s is not supported", holo_k_dtype_name(dt))
               : HOLO_OK;
  if (dt == HOLO_DT_BOOL || dt == HOLO_DT_F16 || dt == HOLO_DT_BF16 || holo_dtype_size(dt) == 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                       "%s: dtype %s is not supported (f32, f64 and the integers are)", name,
                       holo_k_dtype_name(dt));
  return HOLO_OK;
}

static holo_status binary_infer(holo_kernel_call *c, int op) {
  const char *name = op_names[op];
  const holo_tensor *t[2];
  holo_status st;
  if ((st = holo_k_ew_operands(c, name, 2, 2, t))) return st;
  if ((st = binary_dtypes(c, op, t))) return st;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, name, t, 2, ys, &yr))) return st;
  if (op == OP_MOD) {
    uint32_t dt = t[0]->dtype;
    bool fm;
    if ((st = holo_k_flag(c, name, "fmod", 0, &fm))) return st;
    if (!fm && holo_k_is_float(dt))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Mod: fmod must be 1 for dtype %s", holo_k_dtype_name(dt));
    if (!holo_k_is_float(dt) && holo_k_prod(ys, 0, yr) != 0 && holo_k_ew_has_zero(t[1]))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Mod: integer division by zero (%s)", holo_k_dtype_name(dt));
  }
  return holo_k_set_output(c, name, 0, t[0]->dtype, yr, ys);
}

/* One row of Add..Div in the operands' dtype (f32: the SIMD kernel where
 * the build has it, the same bytes). */
static void arith_row(int op, uint32_t dt, size_t n, const void *a, size_t sa, const void *b, size_t sb,
                      void *y) {
#define ROW(DT, ISA)                                                                                         \
  switch (op) {                                                                                              \
  case OP_ADD: holo_ukernel_vadd_##DT##__##ISA(n, a, sa, b, sb, y); break;                                   \
  case OP_SUB: holo_ukernel_vsub_##DT##__##ISA(n, a, sa, b, sb, y); break;                                   \
  case OP_MUL: holo_ukernel_vmul_##DT##__##ISA(n, a, sa, b, sb, y); break;                                   \
  default: holo_ukernel_vdiv_##DT##__##ISA(n, a, sa, b, sb, y); break;                                       \
  }
#ifdef __wasm_simd128__
  if (dt == HOLO_DT_F32) ROW(f32, simd128)
#else
  if (dt == HOLO_DT_F32) ROW(f32, scalar)
#endif
  else
    switch (dt) {
    case HOLO_DT_F64: ROW(f64, scalar) break;
    case HOLO_DT_I8: ROW(i8, scalar) break;
    case HOLO_DT_I16: ROW(i16, scalar) break;
    case HOLO_DT_I32: ROW(i32, scalar) break;
    case HOLO_DT_U8: ROW(u8, scalar) break;
    case HOLO_DT_U16: ROW(u16, scalar) break;
    case HOLO_DT_U32: ROW(u32, scalar) break;
    case HOLO_DT_U64: ROW(u64, scalar) break;
    default: ROW(i64, scalar) break;
    }
#undef ROW
}

static holo_status binary_run(holo_kernel_call *c, int op) {
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  holo_tensor *yt = &c->outputs[0];
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  /* Checked up front so no output bytes are written on failure. Every
   * divisor element is used when the output is non-empty. */
  if (op == OP_DIV && !holo_k_is_float(a->dtype) && holo_k_ew_has_zero(b))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Div: integer division by zero (%s)", holo_k_dtype_name(a->dtype));
  const bool fm = holo_attr_int(c, "fmod", 0) != 0;
  const size_t es = holo_dtype_size(yt->dtype);
  uint8_t *y = yt->data;
  for (size_t r = 0; r < w.rows; r++, y += w.row * es, holo_bcast_next(&w)) {
    const void *ar = holo_k_ew_row(c, &w, 0), *br = holo_k_ew_row(c, &w, 1);
    if (op == OP_POW)
      holo_ukernel_vpow_numeric__scalar(a->dtype, b->dtype, w.row, ar, w.step[0], br, w.step[1], y);
    else if (op == OP_MOD)
      holo_ukernel_vmod_numeric__scalar(a->dtype, fm, w.row, ar, w.step[0], br, w.step[1], y);
    else
      arith_row(op, a->dtype, w.row, ar, w.step[0], br, w.step[1], y);
  }
  return HOLO_OK;
}

#define DEF(fn, op)                                                                                          \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return binary_infer(c, op); }                       \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return binary_run(c, op); }
DEF(add, OP_ADD) DEF(sub, OP_SUB) DEF(mul, OP_MUL) DEF(div, OP_DIV) DEF(pow, OP_POW) DEF(mod, OP_MOD)
