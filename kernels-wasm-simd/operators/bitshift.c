/* BitShift (opset 11): two operands of one unsigned dtype (u8, u16, u32,
 * u64), broadcast together; direction "LEFT" or "RIGHT" (required). */
#include "common/attrs.h"
#include "common/check.h"
#include "microkernels/vbroadcast.h"
#include "operators/elementwise.h"
#include "operators/operators.h"

static holo_status direction(holo_kernel_call *c, bool *left) {
  if (holo_attr_string_is(c, "direction", "LEFT"))
    *left = true;
  else if (holo_attr_string_is(c, "direction", "RIGHT"))
    *left = false;
  else
    return holo_k_fail(c, HOLO_ERR_KERNEL, "BitShift: direction must be \"LEFT\" or \"RIGHT\"");
  return HOLO_OK;
}

holo_status holo_k_bitshift_infer(holo_kernel_call *c) {
  const holo_tensor *t[2];
  holo_status st;
  bool left;
  if ((st = holo_k_ew_operands(c, "BitShift", 2, 2, t))) return st;
  if ((st = holo_k_ew_same_dtype(c, "BitShift", t, 2))) return st;
  uint32_t dt = t[0]->dtype;
  if (dt != HOLO_DT_U8 && dt != HOLO_DT_U16 && dt != HOLO_DT_U32 && dt != HOLO_DT_U64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                       "BitShift: dtype %s is not supported (unsigned integers only)", holo_k_dtype_name(dt));
  if ((st = direction(c, &left))) return st;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = holo_k_ew_shape(c, "BitShift", t, 2, ys, &yr))) return st;
  return holo_k_set_output(c, "BitShift", 0, dt, yr, ys);
}

holo_status holo_k_bitshift_run(holo_kernel_call *c) {
  bool left;
  if (direction(c, &left)) return HOLO_ERR_KERNEL;
  holo_bcast w;
  if (!holo_k_ew_walk(c, &w)) return HOLO_OK;
  const uint32_t dt = c->inputs[0].dtype;
  const size_t es = holo_dtype_size(dt);
  uint8_t *y = c->outputs[0].data;
  for (size_t r = 0; r < w.rows; r++, y += w.row * es, holo_bcast_next(&w))
    holo_ukernel_vbitshift_unsigned__scalar(dt, left, w.row, holo_k_ew_row(c, &w, 0), w.step[0],
                                            holo_k_ew_row(c, &w, 1), w.step[1], y);
  return HOLO_OK;
}
