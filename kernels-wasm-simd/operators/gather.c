/* Gather (opset 13): data of any dtype, indices i32/i64 of any rank,
 * attribute axis (default 0). Negative indices count from the end; an index
 * outside [-d, d) is refused (HOLO_ERR_KERNEL) before anything is read.
 *
 * GatherElements (opset 13): data of any dtype, indices i32/i64 of the same
 * rank, attribute axis (default 0); the output has the indices' shape.
 * Negative indices count from the end; an index outside [-d, d) is refused
 * before anything is read. Index dims other than axis must not exceed the
 * data's. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

/* Every index of ind (i32/i64) lies in [-d, d) for axis `axis` of size d;
 * else a message naming op, the index and its position. Checked in infer
 * so run never reads out of bounds. */
static holo_status check_indices(holo_kernel_call *c, const char *op, const holo_tensor *ind, uint32_t axis,
                                 int64_t d) {
  size_t n = holo_k_prod(ind->shape, 0, ind->rank);
  for (size_t i = 0; i < n; i++) {
    int64_t v = holo_k_load_i64(ind->data, ind->dtype, i);
    if (v < -d || v >= d)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: index %lld at position %zu is out of range for axis %u of size %lld",
                         op, (long long)v, i, axis, (long long)d);
  }
  return HOLO_OK;
}

static holo_status gather_check(holo_kernel_call *c, uint32_t *axis) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Gather", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Gather", 0, 0))) return st;
  if ((st = holo_k_check_input(c, "Gather", 1, 0))) return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1];
  if (ind->dtype != HOLO_DT_I64 && ind->dtype != HOLO_DT_I32)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gather: indices must be i32 or i64, got %s",
                       holo_k_dtype_name(ind->dtype));
  if (x->rank == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gather: data must have rank >= 1, got a scalar");
  if (x->rank + ind->rank - 1 > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Gather: output rank %u exceeds %u",
                       x->rank + ind->rank - 1, (unsigned)HOLO_MAX_RANK);
  int64_t a = holo_attr_int(c, "axis", 0);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gather: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  return check_indices(c, "Gather", ind, *axis, x->shape[*axis]);
}

holo_status holo_k_gather_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  holo_k_infer_reset(c);
  if ((st = gather_check(c, &axis))) return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1];
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr = 0;
  for (uint32_t i = 0; i < axis; i++) ys[yr++] = x->shape[i];
  for (uint32_t i = 0; i < ind->rank; i++) ys[yr++] = ind->shape[i];
  for (uint32_t i = axis + 1; i < x->rank; i++) ys[yr++] = x->shape[i];
  return holo_k_set_output(c, "Gather", 0, x->dtype, yr, ys);
}

holo_status holo_k_gather_run(holo_kernel_call *c) {
  uint32_t axis;
  if (gather_check(c, &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0], *ind = &c->inputs[1];
  size_t es = holo_dtype_size(xt->dtype);
  size_t outer = holo_k_prod(xt->shape, 0, axis), d = (size_t)xt->shape[axis];
  size_t inner = holo_k_prod(xt->shape, axis + 1, xt->rank) * es;
  size_t ni = holo_k_prod(ind->shape, 0, ind->rank);
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  for (size_t o = 0; o < outer; o++)
    for (size_t i = 0; i < ni; i++) {
      int64_t v = holo_k_load_i64(ind->data, ind->dtype, i);
      if (v < 0) v += (int64_t)d;
      if (v < 0 || (size_t)v >= d) return HOLO_ERR_KERNEL; /* checked above; never read outside */
      const uint8_t *src = x + (o * d + (size_t)v) * inner;
      uint8_t *dst = y + (o * ni + i) * inner;
      for (size_t b = 0; b < inner; b++) dst[b] = src[b];
    }
  return HOLO_OK;
}

/* ---- GatherElements ---- */

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
  return check_indices(c, "GatherElements", ind, *axis, x->shape[*axis]);
}

holo_status holo_k_gatherelements_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  holo_k_infer_reset(c);
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
    int64_t v = holo_k_load_i64(ind->data, ind->dtype, i);
    if (v < 0) v += d;
    if (v < 0 || v >= d) return HOLO_ERR_KERNEL; /* checked above */
    int64_t off = 0;
    for (uint32_t a = 0; a < r; a++) off += (a == axis ? v : idx[a]) * xs[a];
    for (size_t b = 0; b < es; b++) y[i * es + b] = x[(size_t)off * es + b];
    holo_k_next_index(idx, ind->shape, r);
  }
  return HOLO_OK;
}
