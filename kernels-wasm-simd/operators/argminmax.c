/* ArgMax / ArgMin on the numeric dtypes of the spec (i8..i64, u8..u64,
 * f16, bf16, f32, f64; opsets 11..13 read alike): attributes axis (default
 * 0), keepdims (default 1), select_last_index (default 0); output i64. Ties
 * give the first index (the last with select_last_index=1). A NaN counts
 * as larger and smaller than every number (numpy's argmax/argmin pick the
 * first NaN), so the first NaN wins (the last with select_last_index=1).
 * An empty reduction axis is refused. The loop: microkernels/axis.h. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "microkernels/axis.h"
#include "operators/operators.h"

static holo_status arg_plan(holo_kernel_call *c, const char *name, uint32_t *axis, bool *keep,
                            bool *last) {
  holo_status st;
  if ((st = holo_k_check_arity(c, name, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, name, 0, 0))) return st;
  const uint32_t dt = c->inputs[0].dtype;
  if (dt == HOLO_DT_BOOL || !holo_k_numeric(dt))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported (the integer and float ones are)",
                       name, holo_k_dtype_name(dt));
  if ((st = holo_k_flag(c, name, "keepdims", 1, keep))) return st;
  if ((st = holo_k_flag(c, name, "select_last_index", 0, last))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", 0);
  if (x->rank == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input must have rank >= 1, got a scalar", name);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", name,
                       (long long)a, x->rank);
  if (x->shape[*axis] == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: the reduced axis %u is empty", name, *axis);
  return HOLO_OK;
}

static holo_status arg_infer(holo_kernel_call *c, const char *name) {
  uint32_t axis;
  bool keep, last;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = arg_plan(c, name, &axis, &keep, &last))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr = 0;
  for (uint32_t i = 0; i < x->rank; i++) {
    if (i != axis) ys[yr++] = x->shape[i];
    else if (keep) ys[yr++] = 1;
  }
  return holo_k_set_output(c, name, 0, HOLO_DT_I64, yr, ys);
}

static holo_status arg_run(holo_kernel_call *c, const char *name, bool is_max) {
  uint32_t axis;
  bool keep, last;
  if (arg_plan(c, name, &axis, &keep, &last)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
  if (xt->dtype == HOLO_DT_F32)
    holo_ukernel_argminmax_f32__scalar(xt->data, c->outputs[0].data, outer, n, inner, is_max, last);
  else
    holo_ukernel_argminmax_numeric__scalar(xt->dtype, xt->data, c->outputs[0].data, outer, n, inner, is_max, last);
  return HOLO_OK;
}

holo_status holo_k_argmax_infer(holo_kernel_call *c) { return arg_infer(c, "ArgMax"); }
holo_status holo_k_argmin_infer(holo_kernel_call *c) { return arg_infer(c, "ArgMin"); }
holo_status holo_k_argmax_run(holo_kernel_call *c) { return arg_run(c, "ArgMax", true); }
holo_status holo_k_argmin_run(holo_kernel_call *c) { return arg_run(c, "ArgMin", false); }
