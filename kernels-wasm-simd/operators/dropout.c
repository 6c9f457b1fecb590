/* Dropout (opset 12, 13) where its training_mode input is known only at
 * execute time (the converter removes every Dropout it can prove is the
 * identity). Inputs: data, optional ratio (float scalar, default 0.5),
 * optional training_mode (bool scalar, default false); outputs: output and
 * the optional mask (bool, data's shape). In inference, or in training with
 * ratio 0, the output is the data and the mask is all true: that is every
 * case whose result does not depend on a random draw. Training with any
 * other ratio draws from a generator the spec leaves to the implementation,
 * so it is refused (HOLO_ERR_UNSUPPORTED) rather than answered differently
 * from every other runtime. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status scalar_input(holo_kernel_call *c, uint32_t k, const char *what) {
  const holo_tensor *t = &c->inputs[k];
  holo_status st;
  if ((st = holo_k_check_input(c, "Dropout", k, 0))) return st;
  size_t n = 0;
  holo_shape_numel(t->shape, t->rank, &n);
  if (n != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Dropout: %s must be a scalar, got %zu elements", what, n);
  if (!t->data) return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Dropout: %s has no value at inference", what);
  return HOLO_OK;
}

holo_status holo_k_dropout_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "Dropout", 1, 3, 2)) || (st = holo_k_check_input(c, "Dropout", 0, 0)))
    return st;
  bool training = false;
  double ratio = 0.5;
  if (!holo_k_absent(c, 2)) {
    if ((st = scalar_input(c, 2, "training_mode"))) return st;
    if (c->inputs[2].dtype != HOLO_DT_BOOL)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Dropout: training_mode must be bool, got %s",
                         holo_k_dtype_name(c->inputs[2].dtype));
    training = *(const uint8_t *)c->inputs[2].data != 0;
  }
  if (!holo_k_absent(c, 1)) {
    if ((st = scalar_input(c, 1, "ratio"))) return st;
    if (!holo_k_is_float(c->inputs[1].dtype))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Dropout: ratio must be a float, got %s",
                         holo_k_dtype_name(c->inputs[1].dtype));
    ratio = holo_k_load_f64(c->inputs[1].data, c->inputs[1].dtype, 0);
  }
  if (!(ratio >= 0 && ratio < 1)) return holo_k_fail(c, HOLO_ERR_KERNEL, "Dropout: ratio must be in [0, 1)");
  if (training && ratio != 0)
    return holo_k_fail(
        c, HOLO_ERR_UNSUPPORTED,
        "Dropout: training_mode=true with a nonzero ratio draws random numbers (not reproducible)");
  const holo_tensor *x = &c->inputs[0];
  if (c->n_outputs > 1 && (st = holo_k_set_output(c, "Dropout", 1, HOLO_DT_BOOL, x->rank, x->shape)))
    return st;
  return holo_k_set_output(c, "Dropout", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_dropout_run(holo_kernel_call *c) {
  const uint8_t *x = c->inputs[0].data;
  uint8_t *y = c->outputs[0].data;
  for (size_t i = 0; i < c->outputs[0].bytes; i++)
    y[i] = x[i];
  if (c->n_outputs > 1) {
    uint8_t *m = c->outputs[1].data;
    for (size_t i = 0; i < c->outputs[1].bytes; i++)
      m[i] = 1;
  }
  return HOLO_OK;
}
