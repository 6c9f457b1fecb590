/* OneHot (opset 9, 11): indices (any numeric dtype; floats truncate
 * toward 0), depth (a one-element numeric tensor, truncated, >= 1) and
 * values [off, on] of the output's dtype (any); attribute axis (default -1)
 * in [-r-1, r]. Index i in [-depth, depth) (negative counts from the end,
 * opset 11) puts `on` at its place, an index outside that range gives a
 * row of `off` (the spec's rule, not an error). */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status oh_check(holo_kernel_call *c, uint32_t *axis, int64_t *depth) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "OneHot", 3, 3, 1))) return st;
  for (uint32_t k = 0; k < 3; k++)
    if ((st = holo_k_check_input(c, "OneHot", k, 0))) return st;
  const holo_tensor *ind = &c->inputs[0], *d = &c->inputs[1], *v = &c->inputs[2];
  if (!holo_k_numeric(ind->dtype) || !holo_k_numeric(d->dtype) || ind->dtype == HOLO_DT_BOOL)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "OneHot: indices and depth must be numeric");
  if (holo_k_prod(d->shape, 0, d->rank) != 1 || d->rank > 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "OneHot: depth must have one element");
  if (v->rank != 1 || v->shape[0] != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "OneHot: values must be [off_value, on_value]");
  *depth = holo_k_load_i64(d->data, d->dtype, 0);
  if (*depth < 1 || *depth > ((int64_t)1 << 31))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "OneHot: depth %lld is outside [1, 2^31]", (long long)*depth);
  if (ind->rank + 1 > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "OneHot: output rank exceeds %u", (unsigned)HOLO_MAX_RANK);
  int64_t a = holo_attr_int(c, "axis", -1);
  if (!holo_k_axis(a, ind->rank + 1, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "OneHot: axis %lld is out of range for rank %u", (long long)a,
                       ind->rank + 1);
  if (holo_k_mul_sat(holo_k_prod(ind->shape, 0, ind->rank), (uint64_t)*depth) > ((uint64_t)1 << 40))
    return holo_k_fail(c, HOLO_ERR_LIMIT, "OneHot: output too large");
  return HOLO_OK;
}

holo_status holo_k_onehot_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  int64_t depth;
  holo_k_infer_reset(c);
  if ((st = oh_check(c, &axis, &depth))) return st;
  const holo_tensor *ind = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0, j = 0; i <= ind->rank; i++)
    ys[i] = i == axis ? depth : ind->shape[j++];
  return holo_k_set_output(c, "OneHot", 0, c->inputs[2].dtype, ind->rank + 1, ys);
}

holo_status holo_k_onehot_run(holo_kernel_call *c) {
  uint32_t axis;
  int64_t depth;
  if (oh_check(c, &axis, &depth)) return HOLO_ERR_KERNEL;
  const holo_tensor *ind = &c->inputs[0];
  const size_t es = holo_dtype_size(c->inputs[2].dtype), D = (size_t)depth;
  const size_t outer = holo_k_prod(ind->shape, 0, axis), inner = holo_k_prod(ind->shape, axis, ind->rank);
  const uint8_t *off = c->inputs[2].data, *on = off + es;
  uint8_t *y = c->outputs[0].data;
  for (size_t o = 0; o < outer; o++)
    for (size_t d = 0; d < D; d++)
      for (size_t i = 0; i < inner; i++) {
        int64_t v = holo_k_load_i64(ind->data, ind->dtype, o * inner + i);
        if (v < 0) v += depth;
        const uint8_t *src = v == (int64_t)d ? on : off;
        for (size_t e = 0; e < es; e++)
          y[((o * D + d) * inner + i) * es + e] = src[e];
      }
  return HOLO_OK;
}
