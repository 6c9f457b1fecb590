/* PRelu(X f32, slope f32): the slope broadcast onto X (the output has X's
 * shape); y = x < 0 ? x * slope : x (microkernels/vbroadcast.h). */
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

holo_status holo_k_prelu_infer(holo_kernel_call *c) {
  const holo_tensor *t[2];
  holo_status st;
  if ((st = holo_k_ew_operands(c, "PRelu", 2, 2, t))) return st;
  if (t[0]->dtype != HOLO_DT_F32 || t[1]->dtype != HOLO_DT_F32)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "PRelu: dtypes %s, %s are not supported (f32 is)",
                       holo_k_dtype_name(t[0]->dtype), holo_k_dtype_name(t[1]->dtype));
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, "PRelu", t, 2, ys, &yr))) return st;
  bool same = yr == t[0]->rank;
  for (uint32_t i = 0; same && i < yr; i++) same = ys[i] == t[0]->shape[i];
  if (!same) {
    char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "PRelu: slope %s does not broadcast onto X %s",
                       holo_k_shape_str(s1, t[1]->shape, t[1]->rank), holo_k_shape_str(s2, t[0]->shape, t[0]->rank));
  }
  return holo_k_set_output(c, "PRelu", 0, HOLO_DT_F32, yr, ys);
}

holo_status holo_k_prelu_run(holo_kernel_call *c) {
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  float *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row, holo_bcast_next(&w))
    holo_ukernel_vprelu_f32__scalar(w.row, holo_k_ew_row(c, &w, 0), w.step[0], holo_k_ew_row(c, &w, 1), w.step[1], y);
  return HOLO_OK;
}
