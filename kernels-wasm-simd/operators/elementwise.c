#include "operators/elementwise.h"

#include "common/check.h"
#include "common/shape.h"

holo_status holo_k_ew_operands(holo_kernel_call *c, const char *op, uint32_t min_in, uint32_t max_in,
                               const holo_tensor **t) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, op, min_in, max_in, 1))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++)
    if ((st = holo_k_check_input(c, op, k, 0))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++) t[k] = &c->inputs[k];
  return HOLO_OK;
}

holo_status holo_k_ew_same_dtype(holo_kernel_call *c, const char *op, const holo_tensor *const *t, uint32_t n) {
  for (uint32_t k = 1; k < n; k++)
    if (t[k]->dtype != t[0]->dtype)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: operand dtypes differ: %s vs %s", op, holo_k_dtype_name(t[0]->dtype),
                         holo_k_dtype_name(t[k]->dtype));
  return HOLO_OK;
}

holo_status holo_k_ew_shape(holo_kernel_call *c, const char *op, const holo_tensor *const *t, uint32_t n,
                            int64_t *ys, uint32_t *yr) {
  if (holo_k_broadcast_tensors(t, n, ys, yr)) return HOLO_OK;
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: shapes do not broadcast: %s vs %s", op,
                     holo_k_shape_str(s1, t[0]->shape, t[0]->rank),
                     holo_k_shape_str(s2, t[1 % n]->shape, t[1 % n]->rank));
}

bool holo_k_ew_has_zero(const holo_tensor *t) {
  size_t n = holo_k_prod(t->shape, 0, t->rank), es = holo_dtype_size(t->dtype);
  const uint8_t *p = t->data;
  for (size_t i = 0; i < n; i++) {
    uint64_t v = 0;
    for (size_t b = 0; b < es; b++) v |= p[i * es + b];
    if (v == 0) return true;
  }
  return false;
}

bool holo_k_ew_walk(const holo_kernel_call *c, holo_bcast *w) {
  const holo_tensor *t[HOLO_BCAST_MAX_OPS];
  for (uint32_t k = 0; k < c->n_inputs; k++) t[k] = &c->inputs[k];
  const holo_tensor *y = &c->outputs[0];
  if (holo_k_prod(y->shape, 0, y->rank) == 0) return false;
  holo_bcast_init(w, y, t, c->n_inputs);
  return true;
}
