/* Softmax, opset-13 semantics: normalizes along one axis (default -1).
 * The row maximum is subtracted first so exp never overflows; the sum is
 * taken in ascending index order. A NaN anywhere in a row makes the whole
 * row NaN (the max skips NaN, but exp(NaN - max) is NaN and enters the sum). */
#include "../mathf.h"
#include "../shape-util.h"

holo_status holo_k_softmax_f32_infer(holo_kernel_call *c) { return holo_k_axis_op_infer(c, "Softmax"); }

holo_status holo_k_softmax_f32_run(holo_kernel_call *c) {
  uint32_t axis;
  if (holo_k_axis_attr(c, "Softmax", &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  size_t outer = holo_k_prod(xt->shape, 0, axis), n = (size_t)xt->shape[axis];
  size_t inner = holo_k_prod(xt->shape, axis + 1, xt->rank);
  for (size_t o = 0; o < outer; o++) {
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      float mx = -__builtin_inff();
      for (size_t i = 0; i < n; i++)
        if (xr[i * inner] > mx) mx = xr[i * inner];
      float sum = 0.0f;
      for (size_t i = 0; i < n; i++) {
        float e = holo_expf(xr[i * inner] - mx);
        yr[i * inner] = e;
        sum += e;
      }
      for (size_t i = 0; i < n; i++) yr[i * inner] = yr[i * inner] / sum;
    }
  }
  return HOLO_OK;
}
