/* LogSoftmax, opset-13 semantics: along one axis (default -1),
 * y = (x - max) - log(sum(exp(x - max))). The sum runs in ascending index
 * order in double; each output is rounded to f32 once. A NaN in a row makes
 * the row NaN; a row whose maximum is +inf gives NaN where x is +inf too
 * (inf - inf), as the formula does. */
#include "ext-util.h"

holo_status holo_k_logsoftmax_infer(holo_kernel_call *c) { return holo_k_axis_op_infer(c, "LogSoftmax"); }

holo_status holo_k_logsoftmax_run(holo_kernel_call *c) {
  uint32_t axis;
  if (holo_k_axis_attr(c, "LogSoftmax", &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      float mx = -__builtin_inff();
      bool nan = false;
      for (size_t i = 0; i < n; i++) {
        float v = xr[i * inner];
        if (v != v) nan = true;
        else if (v > mx) mx = v;
      }
      double m = mx, sum = 0.0;
      if (mx == -__builtin_inff() || mx == __builtin_inff()) m = 0.0; /* keep inf - inf out of exp */
      for (size_t i = 0; i < n; i++) sum += holo_x_exp((double)xr[i * inner] - m);
      double ls = holo_x_log(sum);
      for (size_t i = 0; i < n; i++) {
        double v = ((double)xr[i * inner] - m) - ls;
        yr[i * inner] = nan ? __builtin_nanf("") : (float)v;
      }
    }
  return HOLO_OK;
}
