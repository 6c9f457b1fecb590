/* Softmax, LogSoftmax and Hardmax (opset 13) on f32, along one axis
 * (default -1); the output has the input's shape. The loops are
 * microkernels/axis.h's (Softmax in SIMD builds on contiguous rows). */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/axis.h"
#include "operators/operators.h"

static holo_status axis_op_infer(holo_kernel_call *c, const char *op) {
  holo_status st;
  uint32_t axis;
  if ((st = holo_k_infer_begin(c, op, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, op, 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_axis_attr(c, op, &axis))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, op, 0, HOLO_DT_F32, x->rank, x->shape);
}

enum { AX_SOFTMAX, AX_LOGSOFTMAX, AX_HARDMAX };
static const char *const ax_names[] = {"Softmax", "LogSoftmax", "Hardmax"};

static holo_status axis_op_run(holo_kernel_call *c, int op) {
  uint32_t axis;
  if (holo_k_axis_attr(c, ax_names[op], &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
  switch (op) {
  case AX_SOFTMAX: holo_softmax_f32(x, y, outer, n, inner); break;
  case AX_LOGSOFTMAX: holo_ukernel_logsoftmax_f32__scalar(x, y, outer, n, inner); break;
  default: holo_ukernel_hardmax_f32__scalar(x, y, outer, n, inner); break;
  }
  return HOLO_OK;
}

holo_status holo_k_softmax_f32_infer(holo_kernel_call *c) { return axis_op_infer(c, "Softmax"); }
holo_status holo_k_logsoftmax_infer(holo_kernel_call *c) { return axis_op_infer(c, "LogSoftmax"); }
holo_status holo_k_hardmax_infer(holo_kernel_call *c) { return axis_op_infer(c, "Hardmax"); }
holo_status holo_k_softmax_f32_run(holo_kernel_call *c) { return axis_op_run(c, AX_SOFTMAX); }
holo_status holo_k_logsoftmax_run(holo_kernel_call *c) { return axis_op_run(c, AX_LOGSOFTMAX); }
holo_status holo_k_hardmax_run(holo_kernel_call *c) { return axis_op_run(c, AX_HARDMAX); }
