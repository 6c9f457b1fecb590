/* Equal, Less, Greater, LessOrEqual, GreaterOrEqual: two operands of one
 * dtype (Equal also bool), broadcast together; output bool; NaN compares
 * false; integer comparisons are exact (microkernels/vbroadcast.h). */
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

static const char *const cmp_names[] = {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"};

static holo_status cmp_infer(holo_kernel_call *c, int cmp) {
  const char *name = cmp_names[cmp];
  const holo_tensor *t[2];
  holo_status st;
  if ((st = holo_k_ew_operands(c, name, 2, 2, t))) return st;
  if ((st = holo_k_ew_same_dtype(c, name, t, 2))) return st;
  if (t[0]->dtype == HOLO_DT_BOOL && cmp != HOLO_CMP_EQ)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype bool is not supported", name);
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, name, t, 2, ys, &yr))) return st;
  return holo_k_set_output(c, name, 0, HOLO_DT_BOOL, yr, ys);
}

static holo_status cmp_run(holo_kernel_call *c, int cmp) {
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  uint8_t *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row, holo_bcast_next(&w))
    holo_ukernel_vcmp_numeric__scalar(cmp, c->inputs[0].dtype, w.row, holo_k_ew_row(c, &w, 0), w.step[0],
                                      holo_k_ew_row(c, &w, 1), w.step[1], y);
  return HOLO_OK;
}

#define DEF(fn, cmp)                                                                                         \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return cmp_infer(c, cmp); }                        \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return cmp_run(c, cmp); }
DEF(equal, HOLO_CMP_EQ) DEF(less, HOLO_CMP_LT) DEF(greater, HOLO_CMP_GT)
DEF(lessorequal, HOLO_CMP_LE) DEF(greaterorequal, HOLO_CMP_GE)
