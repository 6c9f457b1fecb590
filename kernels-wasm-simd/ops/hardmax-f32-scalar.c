/* Hardmax (opset 13) on f32: along one axis (default -1), 1 at the first
 * maximum and 0 elsewhere. NaN compares false, so it never wins unless the
 * row starts with it (then index 0 stays). */
#include "../ext-util.h"

static holo_status hm_axis(holo_kernel_call *c, uint32_t *axis) {
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", -1);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Hardmax: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  return HOLO_OK;
}

holo_status holo_k_hardmax_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "Hardmax", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Hardmax", 0, HOLO_DT_F32))) return st;
  if ((st = hm_axis(c, &axis))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Hardmax", 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_hardmax_run(holo_kernel_call *c) {
  uint32_t axis;
  if (hm_axis(c, &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  size_t outer = holo_k_prod(xt->shape, 0, axis), n = (size_t)xt->shape[axis];
  size_t inner = holo_k_prod(xt->shape, axis + 1, xt->rank);
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      size_t best = 0;
      for (size_t i = 1; i < n; i++)
        if (xr[i * inner] > xr[best * inner]) best = i;
      for (size_t i = 0; i < n; i++) yr[i * inner] = i == best ? 1.0f : 0.0f;
    }
  return HOLO_OK;
}
