/* Expand (opset 13): data of any dtype broadcast (numpy rules) with the
 * shape given by input 1 (1-D i64); the output rank is the larger one and a
 * requested dim of 1 keeps the data's dim. */
#include "common/attrs.h"
#include "common/bcast.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status expand_shape(holo_kernel_call *c, int64_t *ys, uint32_t *yr) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Expand", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Expand", 0, 0))) return st;
  int64_t req[HOLO_MAX_RANK];
  uint32_t n;
  if ((st = holo_k_read_ints(c, "Expand", 1, "shape", req, HOLO_MAX_RANK, &n))) return st;
  for (uint32_t i = 0; i < n; i++)
    if (req[i] < 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Expand: shape has negative dim %lld at %u",
                         (long long)req[i], i);
  const holo_tensor *x = &c->inputs[0];
  if (!holo_k_broadcast_shape(x->shape, x->rank, req, n, ys, yr)) {
    char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Expand: %s does not broadcast to %s",
                       holo_k_shape_str(s1, x->shape, x->rank), holo_k_shape_str(s2, req, n));
  }
  return HOLO_OK;
}

holo_status holo_k_expand_infer(holo_kernel_call *c) {
  holo_status st;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  holo_k_infer_reset(c);
  if ((st = expand_shape(c, ys, &yr))) return st;
  return holo_k_set_output(c, "Expand", 0, c->inputs[0].dtype, yr, ys);
}

holo_status holo_k_expand_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  holo_tensor *yt = &c->outputs[0];
  if (holo_k_prod(yt->shape, 0, yt->rank) == 0) return HOLO_OK;
  const holo_tensor *t[1] = {xt};
  holo_bcast w;
  holo_bcast_init(&w, yt, t, 1);
  size_t es = holo_dtype_size(xt->dtype), i = 0;
  const uint8_t *x = xt->data;
  uint8_t *y = yt->data;
  for (size_t r = 0; r < w.rows; r++, holo_bcast_next(&w))
    for (size_t j = 0; j < w.row; j++, i++)
      for (size_t b = 0; b < es; b++) y[i * es + b] = x[(w.off[0] + j * w.step[0]) * es + b];
  return HOLO_OK;
}
