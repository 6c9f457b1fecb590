#include "common/attrs.h"

#include "common/check.h"
#include "common/shape.h"

holo_status holo_k_axis_attr(holo_kernel_call *c, const char *op, uint32_t *axis) {
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", -1);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", op, (long long)a, x->rank);
  return HOLO_OK;
}

holo_status holo_k_axis_op_infer(holo_kernel_call *c, const char *op) {
  holo_status st;
  uint32_t axis;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, op, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, op, 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_axis_attr(c, op, &axis))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, op, 0, HOLO_DT_F32, x->rank, x->shape);
}
