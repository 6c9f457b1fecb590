/* And, Or, Xor (two bool operands, broadcast together) and Not (one);
 * output bool (microkernels/vbroadcast.h). */
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

static const char *const logic_names[] = {"And", "Or", "Xor", "Not"};

static holo_status logic_infer(holo_kernel_call *c, int op) {
  const char *name = logic_names[op];
  const uint32_t n = op == HOLO_LOGIC_NOT ? 1 : 2;
  const holo_tensor *t[2];
  holo_status st;
  if ((st = holo_k_ew_operands(c, name, n, n, t))) return st;
  for (uint32_t k = 0; k < n; k++)
    if (t[k]->dtype != HOLO_DT_BOOL)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u must be bool, got %s", name, k,
                         holo_k_dtype_name(t[k]->dtype));
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, name, t, n, ys, &yr))) return st;
  return holo_k_set_output(c, name, 0, HOLO_DT_BOOL, yr, ys);
}

static holo_status logic_run(holo_kernel_call *c, int op) {
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  uint8_t *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row, holo_bcast_next(&w)) {
    const uint8_t *b = op == HOLO_LOGIC_NOT ? 0 : holo_k_ew_row(c, &w, 1);
    holo_ukernel_vlogic_bool__scalar(op, w.row, holo_k_ew_row(c, &w, 0), w.step[0], b, w.step[1], y);
  }
  return HOLO_OK;
}

#define DEF(fn, op)                                                                                          \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return logic_infer(c, op); }                       \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return logic_run(c, op); }
DEF(and, HOLO_LOGIC_AND) DEF(or, HOLO_LOGIC_OR) DEF(xor, HOLO_LOGIC_XOR) DEF(not, HOLO_LOGIC_NOT)
