/* Clip (opset 13): input any numeric dtype but bool; min and max are
 * optional inputs 1 and 2, scalars (or one-element tensors) of the input's
 * dtype; an absent bound does not clip. y = min(max(x, lo), hi), so lo > hi
 * gives hi everywhere (as the spec says). A NaN input stays NaN
 * (microkernels/vclip.h). */
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/vclip.h"
#include "operators/operators.h"

static holo_status clip_check(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Clip", 1, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "Clip", 0, 0))) return st;
  uint32_t dt = c->inputs[0].dtype;
  if (dt == HOLO_DT_BOOL)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Clip: dtype bool is not supported");
  for (uint32_t k = 1; k < c->n_inputs; k++) {
    if (holo_k_absent(c, k)) continue;
    if ((st = holo_k_check_input(c, "Clip", k, dt))) return st;
    const holo_tensor *b = &c->inputs[k];
    if (holo_k_prod(b->shape, 0, b->rank) != 1) {
      char s[HOLO_K_SHAPE_STR];
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Clip: %s must be a scalar, got shape %s",
                         k == 1 ? "min" : "max", holo_k_shape_str(s, b->shape, b->rank));
    }
  }
  return HOLO_OK;
}

holo_status holo_k_clip_infer(holo_kernel_call *c) {
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = clip_check(c))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Clip", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_clip_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  size_t n = holo_k_prod(xt->shape, 0, xt->rank);
  bool has_lo = !holo_k_absent(c, 1), has_hi = c->n_inputs > 2 && !holo_k_absent(c, 2);
  holo_ukernel_vclip_numeric__scalar(xt->dtype, n, xt->data, has_lo ? c->inputs[1].data : 0,
                                     has_hi ? c->inputs[2].data : 0, c->outputs[0].data);
  return HOLO_OK;
}
