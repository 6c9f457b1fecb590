/* Max, Min: 1..8 inputs of one numeric dtype, broadcast together; NaN
 * propagates (microkernels/vbroadcast.h). */
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

static holo_status minmax_infer(holo_kernel_call *c, const char *name) {
  const holo_tensor *t[HOLO_BCAST_MAX_OPS];
  holo_status st;
  if ((st = holo_k_ew_operands(c, name, 1, HOLO_BCAST_MAX_OPS, t))) return st;
  if ((st = holo_k_ew_same_dtype(c, name, t, c->n_inputs))) return st;
  if (t[0]->dtype == HOLO_DT_BOOL)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype bool is not supported", name);
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, name, t, c->n_inputs, ys, &yr))) return st;
  return holo_k_set_output(c, name, 0, t[0]->dtype, yr, ys);
}

static holo_status minmax_run(holo_kernel_call *c, bool max) {
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  const uint32_t dt = c->outputs[0].dtype, n = c->n_inputs;
  const size_t es = holo_dtype_size(dt);
  uint8_t *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row * es, holo_bcast_next(&w)) {
    const void *p[HOLO_BCAST_MAX_OPS];
    for (uint32_t k = 0; k < n; k++) p[k] = holo_k_ew_row(c, &w, k);
    holo_ukernel_vminmax_numeric__scalar(dt, max, w.row, n, p, w.step, y);
  }
  return HOLO_OK;
}

holo_status holo_k_max_infer(holo_kernel_call *c) { return minmax_infer(c, "Max"); }
holo_status holo_k_min_infer(holo_kernel_call *c) { return minmax_infer(c, "Min"); }
holo_status holo_k_max_run(holo_kernel_call *c) { return minmax_run(c, true); }
holo_status holo_k_min_run(holo_kernel_call *c) { return minmax_run(c, false); }
