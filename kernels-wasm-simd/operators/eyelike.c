/* EyeLike (opset 9): a 2-D tensor of the input's shape with ones on the
 * diagonal shifted by k (attribute, default 0) and zeros elsewhere; dtype
 * the attribute `dtype` (an ONNX TensorProto code, which the converter
 * writes as the archive's dtype code) or the input's. Any numeric dtype or
 * bool; the input's values are not read. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

static holo_status eye_check(holo_kernel_call *c, uint32_t *dt) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "EyeLike", 1, 1, 1)) || (st = holo_k_check_input(c, "EyeLike", 0, 0)))
    return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "EyeLike: input must be 2-D, got rank %u", x->rank);
  int64_t d = holo_attr_int(c, "dtype", x->dtype);
  if (d <= 0 || d > 0xffff || !holo_k_numeric((uint32_t)d) || holo_dtype_size((uint32_t)d) == 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "EyeLike: dtype %lld is not supported", (long long)d);
  *dt = (uint32_t)d;
  return HOLO_OK;
}

holo_status holo_k_eyelike_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t dt;
  holo_k_infer_reset(c);
  if ((st = eye_check(c, &dt))) return st;
  return holo_k_set_output(c, "EyeLike", 0, dt, 2, c->inputs[0].shape);
}

/* The bytes of 1 in dtype dt. */
static void one_of(uint32_t dt, uint8_t *b) {
  for (int i = 0; i < 8; i++)
    b[i] = 0;
  switch (dt) {
  case HOLO_DT_F32: {
    float f = 1;
    __builtin_memcpy(b, &f, 4);
    break;
  }
  case HOLO_DT_F64: {
    double f = 1;
    __builtin_memcpy(b, &f, 8);
    break;
  }
  case HOLO_DT_BF16: b[0] = 0x80, b[1] = 0x3f; break; /* 1.0 */
  case HOLO_DT_F16: {
    uint16_t h = holo_f64_to_f16(1.0);
    __builtin_memcpy(b, &h, 2);
    break;
  }
  default: b[0] = 1; break; /* little-endian integers and bool */
  }
}

holo_status holo_k_eyelike_run(holo_kernel_call *c) {
  uint32_t dt;
  if (eye_check(c, &dt)) return HOLO_ERR_KERNEL;
  const int64_t R = c->outputs[0].shape[0], C = c->outputs[0].shape[1], k = holo_attr_int(c, "k", 0);
  const size_t es = holo_dtype_size(dt);
  uint8_t one[8], *y = c->outputs[0].data;
  one_of(dt, one);
  for (size_t i = 0, n = (size_t)(R * C) * es; i < n; i++)
    y[i] = 0;
  for (int64_t r = 0; r < R; r++) {
    int64_t col = r + k;
    if (col < 0 || col >= C) continue;
    for (size_t e = 0; e < es; e++)
      y[((size_t)r * (size_t)C + (size_t)col) * es + e] = one[e];
  }
  return HOLO_OK;
}
