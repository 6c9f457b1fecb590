/* Hardmax (opset 13) on f32: along one axis (default -1), 1 at the first
 * maximum and 0 elsewhere. NaN compares false, so it never wins unless the
 * row starts with it (then index 0 stays). */
#include "ext-util.h"

holo_status holo_k_hardmax_infer(holo_kernel_call *c) { return holo_k_axis_op_infer(c, "Hardmax"); }

holo_status holo_k_hardmax_run(holo_kernel_call *c) {
  uint32_t axis;
  if (holo_k_axis_attr(c, "Hardmax", &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
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
