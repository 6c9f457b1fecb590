/* Where(condition bool, X, Y of one dtype, any), broadcast together; the
 * output has X's dtype and its elements' bits are X's or Y's
 * (microkernels/vbroadcast.h). */
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

holo_status holo_k_where_infer(holo_kernel_call *c) {
  const holo_tensor *t[3];
  holo_status st;
  if ((st = holo_k_ew_operands(c, "Where", 3, 3, t))) return st;
  if (t[0]->dtype != HOLO_DT_BOOL)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Where: condition must be bool, got %s", holo_k_dtype_name(t[0]->dtype));
  if (t[1]->dtype != t[2]->dtype)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Where: X and Y dtypes differ: %s vs %s", holo_k_dtype_name(t[1]->dtype),
                       holo_k_dtype_name(t[2]->dtype));
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, "Where", t, 3, ys, &yr))) return st;
  return holo_k_set_output(c, "Where", 0, t[1]->dtype, yr, ys);
}

holo_status holo_k_where_run(holo_kernel_call *c) {
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  const size_t es = holo_dtype_size(c->inputs[1].dtype);
  uint8_t *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row * es, holo_bcast_next(&w))
    holo_ukernel_vwhere_any__scalar(es, w.row, holo_k_ew_row(c, &w, 0), w.step[0], holo_k_ew_row(c, &w, 1),
                                    w.step[1], holo_k_ew_row(c, &w, 2), w.step[2], y);
  return HOLO_OK;
}
