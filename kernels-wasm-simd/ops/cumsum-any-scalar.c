/* CumSum (opset 14): x of f32, f64, i32, i64; axis (input 1, an i32/i64
 * scalar); attributes exclusive and reverse (default 0). Floats accumulate
 * in double in the scan order and round each output once; integers wrap. */
#include "ext-util.h"

static holo_status cs_check(holo_kernel_call *c, uint32_t *axis, bool *excl, bool *rev) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "CumSum", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "CumSum", 0, 0))) return st;
  uint32_t dt = c->inputs[0].dtype;
  if (dt != HOLO_DT_F32 && dt != HOLO_DT_F64 && dt != HOLO_DT_I32 && dt != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "CumSum: dtype %s is not supported",
                       holo_k_dtype_name(dt));
  if ((st = holo_x_flag(c, "CumSum", "exclusive", 0, excl))) return st;
  if ((st = holo_x_flag(c, "CumSum", "reverse", 0, rev))) return st;
  int64_t a;
  uint32_t n;
  if ((st = holo_x_read_ints(c, "CumSum", 1, "axis", &a, 1, &n))) return st;
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
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = cs_check(c, &axis, &excl, &rev))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "CumSum", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_cumsum_run(holo_kernel_call *c) {
  uint32_t axis;
  bool excl, rev;
  if (cs_check(c, &axis, &excl, &rev)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  uint32_t dt = xt->dtype;
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
  void *y = c->outputs[0].data;
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      double accd = 0;
      uint64_t acci = 0;
      for (size_t s = 0; s < n; s++) {
        size_t i = rev ? n - 1 - s : s, p = (o * n + i) * inner + in;
        double vd = 0;
        uint64_t vi = 0;
        if (holo_x_is_float(dt)) vd = holo_x_load_f64(xt->data, dt, p);
        else vi = (uint64_t)holo_x_load_i64(xt->data, dt, p);
        if (!excl) accd += vd, acci += vi;
        switch (dt) {
        case HOLO_DT_F32: ((float *)y)[p] = (float)accd; break;
        case HOLO_DT_F64: ((double *)y)[p] = accd; break;
        case HOLO_DT_I32: ((uint32_t *)y)[p] = (uint32_t)acci; break;
        default: ((uint64_t *)y)[p] = acci; break;
        }
        if (excl) accd += vd, acci += vi;
      }
    }
  return HOLO_OK;
}
