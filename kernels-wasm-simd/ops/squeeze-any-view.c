/* Squeeze and Unsqueeze (opset 13: axes is input 1, i32/i64 1-D; optional
 * for Squeeze, where its absence removes every dim of 1). The output is a
 * view of input 0: infer does all the work (run is holo_k_view_run). */
#include "ext-util.h"

holo_status holo_k_squeeze_infer(holo_kernel_call *c) {
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "Squeeze", 1, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Squeeze", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  uint32_t mask = 0;
  if (!holo_k_absent(c, 1)) {
    int64_t axes[HOLO_MAX_RANK];
    uint32_t n;
    if ((st = holo_x_read_ints(c, "Squeeze", 1, "axes", axes, HOLO_MAX_RANK, &n))) return st;
    if ((st = holo_x_axes_mask(c, "Squeeze", axes, n, x->rank, &mask))) return st;
    for (uint32_t i = 0; i < x->rank; i++)
      if ((mask & (1u << i)) && x->shape[i] != 1)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Squeeze: axis %u has size %lld, not 1", i,
                           (long long)x->shape[i]);
  } else {
    for (uint32_t i = 0; i < x->rank; i++)
      if (x->shape[i] == 1) mask |= 1u << i;
  }
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr = 0;
  for (uint32_t i = 0; i < x->rank; i++)
    if (!(mask & (1u << i))) ys[yr++] = x->shape[i];
  if ((st = holo_k_set_output(c, "Squeeze", 0, x->dtype, yr, ys))) return st;
  c->alias_input = 0;
  return HOLO_OK;
}

holo_status holo_k_unsqueeze_infer(holo_kernel_call *c) {
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "Unsqueeze", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Unsqueeze", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t axes[HOLO_MAX_RANK];
  uint32_t n, mask;
  if ((st = holo_x_read_ints(c, "Unsqueeze", 1, "axes", axes, HOLO_MAX_RANK, &n))) return st;
  uint32_t yr = x->rank + n;
  if (yr > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Unsqueeze: output rank %u exceeds %u", yr,
                       (unsigned)HOLO_MAX_RANK);
  if ((st = holo_x_axes_mask(c, "Unsqueeze", axes, n, yr, &mask))) return st;
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0, k = 0; i < yr; i++) ys[i] = (mask & (1u << i)) ? 1 : x->shape[k++];
  if ((st = holo_k_set_output(c, "Unsqueeze", 0, x->dtype, yr, ys))) return st;
  c->alias_input = 0;
  return HOLO_OK;
}
