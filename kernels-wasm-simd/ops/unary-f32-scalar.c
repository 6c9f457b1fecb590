/* Relu, Sigmoid, Tanh on f32. NaN propagates through all three. */
#include "mathf.h"
#include "ext-util.h"

static holo_status unary_infer(holo_kernel_call *c, const char *name) {
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, name, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, name, 0, HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, name, 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_relu_infer(holo_kernel_call *c) { return unary_infer(c, "Relu"); }
holo_status holo_k_sigmoid_infer(holo_kernel_call *c) { return unary_infer(c, "Sigmoid"); }
holo_status holo_k_tanh_infer(holo_kernel_call *c) { return unary_infer(c, "Tanh"); }

holo_status holo_k_relu_run(holo_kernel_call *c) {
  const float *x = c->inputs[0].data;
  float *y = c->outputs[0].data;
  size_t n = holo_k_prod(c->inputs[0].shape, 0, c->inputs[0].rank);
  /* written as "x < 0" so a NaN compares false and passes through */
  for (size_t i = 0; i < n; i++) y[i] = x[i] < 0.0f ? 0.0f : x[i];
  return HOLO_OK;
}

holo_status holo_k_sigmoid_run(holo_kernel_call *c) {
  const float *x = c->inputs[0].data;
  float *y = c->outputs[0].data;
  size_t n = holo_k_prod(c->inputs[0].shape, 0, c->inputs[0].rank);
  for (size_t i = 0; i < n; i++) y[i] = holo_sigmoidf(x[i]);
  return HOLO_OK;
}

holo_status holo_k_tanh_run(holo_kernel_call *c) {
  const float *x = c->inputs[0].data;
  float *y = c->outputs[0].data;
  size_t n = holo_k_prod(c->inputs[0].shape, 0, c->inputs[0].rank);
  for (size_t i = 0; i < n; i++) y[i] = holo_tanhf(x[i]);
  return HOLO_OK;
}
