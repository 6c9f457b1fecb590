/* Concat of any dtype along one axis: for each outer index, the inputs'
 * contiguous slabs are copied one after another. */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

#include "hologram/mem.h"

static holo_status concat_axis(holo_kernel_call *c, uint32_t *axis) {
  const holo_tensor *x = &c->inputs[0];
  const holo_attr *at = holo_attr_find(c, "axis");
  if (!at || at->type != HOLO_ATTR_INT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Concat: the axis attribute is required (an int)");
  int64_t a = holo_attr_int(c, "axis", 0);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Concat: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  return HOLO_OK;
}

holo_status holo_k_concat_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  if ((st = holo_k_infer_begin(c, "Concat", 1, UINT32_MAX, 1))) return st;
  for (uint32_t i = 0; i < c->n_inputs; i++)
    if ((st = holo_k_check_input(c, "Concat", i, 0))) return st;
  if ((st = concat_axis(c, &axis))) return st;
  const holo_tensor *x0 = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t d = 0; d < x0->rank; d++) ys[d] = x0->shape[d];
  ys[axis] = 0;
  for (uint32_t i = 0; i < c->n_inputs; i++) {
    const holo_tensor *x = &c->inputs[i];
    char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
    if (x->dtype != x0->dtype)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Concat: input %u has dtype %s, input 0 has %s", i,
                         holo_k_dtype_name(x->dtype), holo_k_dtype_name(x0->dtype));
    if (x->rank != x0->rank)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Concat: input %u has rank %u, input 0 has %u", i,
                         x->rank, x0->rank);
    for (uint32_t d = 0; d < x0->rank; d++)
      if (d != axis && x->shape[d] != x0->shape[d])
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Concat: input %u %s differs from input 0 %s off axis %u",
                           i, holo_k_shape_str(s1, x->shape, x->rank),
                           holo_k_shape_str(s2, x0->shape, x0->rank), axis);
    if (ys[axis] > INT64_MAX - x->shape[axis])
      return holo_k_fail(c, HOLO_ERR_LIMIT, "Concat: output dim along axis %u overflows", axis);
    ys[axis] += x->shape[axis];
  }
  return holo_k_set_output(c, "Concat", 0, x0->dtype, x0->rank, ys);
}

holo_status holo_k_concat_run(holo_kernel_call *c) {
  uint32_t axis;
  if (concat_axis(c, &axis)) return HOLO_ERR_KERNEL;
  holo_tensor *y = &c->outputs[0];
  size_t es = holo_dtype_size(y->dtype);
  size_t outer = holo_k_prod(y->shape, 0, axis), inner = holo_k_prod(y->shape, axis + 1, y->rank);
  uint8_t *dst = y->data;
  if (holo_k_prod(y->shape, 0, y->rank) == 0) return HOLO_OK;
  for (size_t o = 0; o < outer; o++) {
    for (uint32_t i = 0; i < c->n_inputs; i++) {
      const holo_tensor *x = &c->inputs[i];
      size_t slab = (size_t)x->shape[axis] * inner * es;
      holo_memcpy(dst, (const uint8_t *)x->data + o * slab, slab);
      dst += slab;
    }
  }
  return HOLO_OK;
}
