/* CumSum (opset 14): x of f32, f64, i32, i64; axis (input 1, an i32/i64
 * scalar); attributes exclusive and reverse (default 0). Floats accumulate
 * in double in the scan order and round each output once; integers wrap
 * (microkernels/axis.h). */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/axis.h"
#include "operators/operators.h"

static holo_status cs_check(holo_kernel_call *c, uint32_t *axis, bool *excl, bool *rev) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "CumSum", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "CumSum", 0, 0))) return st;
  uint32_t dt = c->inputs[0].dtype;
  if (dt != HOLO_DT_F32 && dt != HOLO_DT_F64 && dt != HOLO_DT_I32 && dt != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "CumSum: dtype %s is not supported",
                       holo_k_dtype_name(dt));
  if ((st = holo_k_flag(c, "CumSum", "exclusive", 0, excl))) return st;
  if ((st = holo_k_flag(c, "CumSum", "reverse", 0, rev))) return st;
  int64_t a;
  uint32_t n;
  if ((st = holo_k_read_ints(c, "CumSum", 1, "axis", &a, 1, &n))) return st;
  if (n != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "CumSum: axis must hold one value");
  const holo_tensor *x = &c->inputs[0];
  if (x->rank == 0 || !holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "CumSum: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  return HOLO_OK;
}

holo_status holo_k_cumsum_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  bool excl, rev;
  holo_k_infer_reset(c);
  if ((st = cs_check(c, &axis, &excl, &rev))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "CumSum", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_cumsum_run(holo_kernel_call *c) {
  uint32_t axis;
  bool excl, rev;
  if (cs_check(c, &axis, &excl, &rev)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
  holo_ukernel_cumsum__scalar(xt->dtype, xt->data, c->outputs[0].data, outer, n, inner, excl, rev);
  return HOLO_OK;
}
