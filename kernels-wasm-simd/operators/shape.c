/* Shape (opset 15: start, end) and Size: the dims, or the element count,
 * of input 0 as i64. The converter folds them whenever input 0's shape is
 * known at conversion; these kernels serve the rest (symbolic batch and
 * sequence dims), so the shape arithmetic after them (Gather, Concat,
 * Reshape ...) runs at execute time. They read input 0's shape only. */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

/* [start, end) of Shape, clamped to [0, rank] as opset 15 says (negative
 * counts from the end; an absent end is the rank). */
static void shape_span(const holo_kernel_call *c, uint32_t rank, uint32_t *s, uint32_t *e) {
  int64_t r = rank, a = holo_attr_int(c, "start", 0), b = holo_attr_int(c, "end", r);
  if (a < 0) a += r;
  if (b < 0) b += r;
  a = a < 0 ? 0 : a > r ? r : a;
  b = b < 0 ? 0 : b > r ? r : b;
  *s = (uint32_t)a;
  *e = (uint32_t)(b > a ? b : a);
}

holo_status holo_k_shape_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "Shape", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Shape", 0, 0))) return st;
  uint32_t s, e;
  shape_span(c, c->inputs[0].rank, &s, &e);
  int64_t n = e - s;
  return holo_k_set_output(c, "Shape", 0, HOLO_DT_I64, 1, &n);
}

holo_status holo_k_shape_run(holo_kernel_call *c) {
  uint32_t s, e;
  shape_span(c, c->inputs[0].rank, &s, &e);
  int64_t *y = c->outputs[0].data;
  for (uint32_t i = s; i < e; i++) y[i - s] = c->inputs[0].shape[i];
  return HOLO_OK;
}

holo_status holo_k_size_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "Size", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Size", 0, 0))) return st;
  return holo_k_set_output(c, "Size", 0, HOLO_DT_I64, 0, NULL);
}

holo_status holo_k_size_run(holo_kernel_call *c) {
  /* check_input bounded the element count by the addressable size */
  *(int64_t *)c->outputs[0].data = (int64_t)holo_k_prod(c->inputs[0].shape, 0, c->inputs[0].rank);
  return HOLO_OK;
}
