/* GatherElements (opset 13): data of any dtype, indices i32/i64 of the same
 * rank, attribute axis (default 0); the output has the indices' shape.
 * Negative indices count from the end; an index outside [-d, d) is refused
 * before anything is read. Index dims other than axis must not exceed the
 * data's. */
#include "ext-util.h"

static holo_status ge_check(holo_kernel_call *c, uint32_t *axis) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "GatherElements", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "GatherElements", 0, 0))) return st;
  if ((st = holo_k_check_input(c, "GatherElements", 1, 0))) return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1];
  if (ind->dtype != HOLO_DT_I64 && ind->dtype != HOLO_DT_I32)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GatherElements: indices must be i32 or i64, got %s",
                       holo_k_dtype_name(ind->dtype));
  if (x->rank == 0 || ind->rank != x->rank)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "GatherElements: indices rank %u must equal data rank %u (>= 1)", ind->rank,
                       x->rank);
  int64_t a = holo_attr_int(c, "axis", 0);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GatherElements: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  for (uint32_t i = 0; i < x->rank; i++)
    if (i != *axis && ind->shape[i] > x->shape[i])
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "GatherElements: indices dim %u (%lld) exceeds the data's (%lld)", i,
                         (long long)ind->shape[i], (long long)x->shape[i]);
  return holo_x_check_indices(c, "GatherElements", ind, *axis, x->shape[*axis]);
}

holo_status holo_k_gatherelements_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = ge_check(c, &axis))) return st;
  const holo_tensor *ind = &c->inputs[1];
  return holo_k_set_output(c, "GatherElements", 0, c->inputs[0].dtype, ind->rank, ind->shape);
}

holo_status holo_k_gatherelements_run(holo_kernel_call *c) {
  uint32_t axis;
  if (ge_check(c, &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0], *ind = &c->inputs[1];
  uint32_t r = xt->rank;
  size_t es = holo_dtype_size(xt->dtype), n = holo_k_prod(ind->shape, 0, r);
  int64_t xs[HOLO_MAX_RANK], idx[HOLO_MAX_RANK] = {0}, d = xt->shape[axis];
  holo_k_strides(xt->shape, r, xs);
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  for (size_t i = 0; i < n; i++) {
    int64_t v = holo_x_load_i64(ind->data, ind->dtype, i);
    if (v < 0) v += d;
    if (v < 0 || v >= d) return HOLO_ERR_KERNEL; /* checked above */
    int64_t off = 0;
    for (uint32_t a = 0; a < r; a++) off += (a == axis ? v : idx[a]) * xs[a];
    for (size_t b = 0; b < es; b++) y[i * es + b] = x[(size_t)off * es + b];
    for (int32_t a = (int32_t)r - 1; a >= 0; a--) {
      if (++idx[a] < ind->shape[a]) break;
      idx[a] = 0;
    }
  }
  return HOLO_OK;
}
