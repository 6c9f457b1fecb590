/* Split (opset 18): input of any dtype; attribute axis (default 0); either
 * the split input (1-D i64 sizes, summing to the axis) or the attribute
 * num_outputs (the axis cut into pieces of ceil(d / n), the last one
 * smaller). Without either, the outputs share the axis evenly. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

#define SPLIT_MAX 64

static holo_status split_plan(holo_kernel_call *c, uint32_t *axis, int64_t *sizes) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Split", 1, 2, SPLIT_MAX))) return st;
  if ((st = holo_k_check_input(c, "Split", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", 0);
  if (x->rank == 0 || !holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Split: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  uint32_t no = c->n_outputs;
  int64_t d = x->shape[*axis];
  if (!holo_k_absent(c, 1)) {
    uint32_t n;
    if ((st = holo_k_read_ints(c, "Split", 1, "split", sizes, SPLIT_MAX, &n))) return st;
    if (n != no)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Split: split has %u sizes for %u outputs", n, no);
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (sizes[i] < 0 || sizes[i] > d)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Split: size %lld at %u is out of range",
                           (long long)sizes[i], i);
      sum += sizes[i];
    }
    if (sum != d)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Split: sizes sum to %lld, the axis has %lld",
                         (long long)sum, (long long)d);
    return HOLO_OK;
  }
  int64_t n = holo_attr_int(c, "num_outputs", no);
  if (n != (int64_t)no)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Split: num_outputs %lld but %u outputs", (long long)n,
                       no);
  int64_t piece = (d + n - 1) / n, left = d;
  for (uint32_t i = 0; i < no; i++) {
    sizes[i] = left < piece ? left : piece;
    left -= sizes[i];
  }
  if (d > 0 && (no - 1) * piece >= d)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Split: axis of %lld cannot make %u non-empty pieces",
                       (long long)d, no);
  return HOLO_OK;
}

holo_status holo_k_split_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  int64_t sizes[SPLIT_MAX];
  holo_k_infer_reset(c);
  if ((st = split_plan(c, &axis, sizes))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++) ys[i] = x->shape[i];
  for (uint32_t k = 0; k < c->n_outputs; k++) {
    ys[axis] = sizes[k];
    if ((st = holo_k_set_output(c, "Split", k, x->dtype, x->rank, ys))) return st;
  }
  return HOLO_OK;
}

holo_status holo_k_split_run(holo_kernel_call *c) {
  uint32_t axis;
  int64_t sizes[SPLIT_MAX];
  if (split_plan(c, &axis, sizes)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  size_t es = holo_dtype_size(xt->dtype), outer = holo_k_prod(xt->shape, 0, axis);
  size_t inner = holo_k_prod(xt->shape, axis + 1, xt->rank) * es, d = (size_t)xt->shape[axis];
  const uint8_t *x = xt->data;
  size_t start = 0;
  for (uint32_t k = 0; k < c->n_outputs; k++) {
    size_t len = (size_t)sizes[k] * inner;
    uint8_t *y = c->outputs[k].data;
    for (size_t o = 0; o < outer; o++) {
      const uint8_t *src = x + (o * d + start) * inner;
      for (size_t b = 0; b < len; b++) y[o * len + b] = src[b];
    }
    start += (size_t)sizes[k];
  }
  return HOLO_OK;
}
