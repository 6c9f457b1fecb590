/* And, Or, Xor (two bool operands, broadcast together) and Not (one);
 * output bool. BitwiseAnd, BitwiseOr, BitwiseXor (opset 18: two operands of
 * one integer dtype) and BitwiseNot (one); output that dtype. Both families
 * share the operand and shape checks (microkernels/vbroadcast.h). */
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

static const char *const logic_names[] = {"And", "Or", "Xor", "Not"};
static const char *const bitwise_names[] = {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"};

static bool is_integer(uint32_t dt) {
  return dt == HOLO_DT_I8 || dt == HOLO_DT_U8 || dt == HOLO_DT_I16 || dt == HOLO_DT_U16 ||
         dt == HOLO_DT_I32 || dt == HOLO_DT_U32 || dt == HOLO_DT_I64 || dt == HOLO_DT_U64;
}

static holo_status logic_infer(holo_kernel_call *c, int op, bool bitwise) {
  const char *name = (bitwise ? bitwise_names : logic_names)[op];
  const uint32_t n = op == HOLO_LOGIC_NOT ? 1 : 2;
  const holo_tensor *t[2];
  holo_status st;
  if ((st = holo_k_ew_operands(c, name, n, n, t))) return st;
  if (bitwise && n == 2 && (st = holo_k_ew_same_dtype(c, name, t, 2))) return st;
  for (uint32_t k = 0; k < n; k++)
    if (bitwise ? !is_integer(t[k]->dtype) : t[k]->dtype != HOLO_DT_BOOL)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u must be %s, got %s", name, k,
                         bitwise ? "an integer" : "bool", holo_k_dtype_name(t[k]->dtype));
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, name, t, n, ys, &yr))) return st;
  return holo_k_set_output(c, name, 0, bitwise ? t[0]->dtype : HOLO_DT_BOOL, yr, ys);
}

static holo_status logic_run(holo_kernel_call *c, int op, bool bitwise) {
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  const size_t es = bitwise ? holo_dtype_size(c->inputs[0].dtype) : 1;
  uint8_t *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row * es, holo_bcast_next(&w)) {
    const uint8_t *b = op == HOLO_LOGIC_NOT ? 0 : holo_k_ew_row(c, &w, 1);
    if (bitwise)
      holo_ukernel_vbitwise_int__scalar(op, es, w.row, holo_k_ew_row(c, &w, 0), w.step[0], b, w.step[1], y);
    else
      holo_ukernel_vlogic_bool__scalar(op, w.row, holo_k_ew_row(c, &w, 0), w.step[0], b, w.step[1], y);
  }
  return HOLO_OK;
}

/* clang-format off */
#define DEF(fn, op, bitwise)                                                                                 \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return logic_infer(c, op, bitwise); }              \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return logic_run(c, op, bitwise); }
DEF(and, HOLO_LOGIC_AND, false)
DEF(or, HOLO_LOGIC_OR, false)
DEF(xor, HOLO_LOGIC_XOR, false)
DEF(not, HOLO_LOGIC_NOT, false)
DEF(bitwiseand, HOLO_LOGIC_AND, true)
DEF(bitwiseor, HOLO_LOGIC_OR, true)
DEF(bitwisexor, HOLO_LOGIC_XOR, true)
DEF(bitwisenot, HOLO_LOGIC_NOT, true)
/* clang-format on */
