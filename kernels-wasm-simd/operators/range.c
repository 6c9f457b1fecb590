/* Range (opset 11): scalar start, limit, delta of one dtype (f32, f64, i16,
 * i32, i64); n = max(ceil((limit - start) / delta), 0) elements
 * start + i * delta. Floats compute in double and round once per element;
 * integers count exactly and wrap like the dtype.
 * delta = 0 is refused; a count beyond 2^40 is refused (HOLO_ERR_LIMIT). */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

static holo_status range_count(holo_kernel_call *c, int64_t *n) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Range", 3, 3, 1))) return st;
  uint32_t dt = 0;
  for (uint32_t k = 0; k < 3; k++) {
    if ((st = holo_k_check_input(c, "Range", k, k ? dt : 0))) return st;
    dt = c->inputs[0].dtype;
    if (holo_k_prod(c->inputs[k].shape, 0, c->inputs[k].rank) != 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Range: input %u must be a scalar", k);
  }
  if (dt != HOLO_DT_F32 && dt != HOLO_DT_F64 && dt != HOLO_DT_I16 && dt != HOLO_DT_I32 &&
      dt != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Range: dtype %s is not supported",
                       holo_k_dtype_name(dt));
  const double LIM = 1099511627776.0; /* 2^40 */
  if (holo_k_is_float(dt)) {
    double s = holo_k_load_f64(c->inputs[0].data, dt, 0), l = holo_k_load_f64(c->inputs[1].data, dt, 0),
           d = holo_k_load_f64(c->inputs[2].data, dt, 0);
    if (d == 0 || d != d || s != s || l != l)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Range: delta must be non-zero and operands not NaN");
    double q = holo_ceil((l - s) / d);
    if (!(q <= LIM)) return holo_k_fail(c, HOLO_ERR_LIMIT, "Range: too many elements");
    *n = q > 0 ? (int64_t)q : 0;
  } else {
    int64_t s = holo_k_load_i64(c->inputs[0].data, dt, 0), l = holo_k_load_i64(c->inputs[1].data, dt, 0),
            d = holo_k_load_i64(c->inputs[2].data, dt, 0);
    if (d == 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "Range: delta must be non-zero");
    /* |l - s| and |d| fit in uint64 */
    uint64_t span, step = d > 0 ? (uint64_t)d : 0 - (uint64_t)d;
    if ((d > 0 && l <= s) || (d < 0 && l >= s)) {
      *n = 0;
      return HOLO_OK;
    }
    span = d > 0 ? (uint64_t)l - (uint64_t)s : (uint64_t)s - (uint64_t)l;
    uint64_t q = span / step + (span % step != 0);
    if (q > (uint64_t)LIM) return holo_k_fail(c, HOLO_ERR_LIMIT, "Range: too many elements");
    *n = (int64_t)q;
  }
  return HOLO_OK;
}

holo_status holo_k_range_infer(holo_kernel_call *c) {
  holo_status st;
  int64_t n;
  holo_k_infer_reset(c);
  if ((st = range_count(c, &n))) return st;
  return holo_k_set_output(c, "Range", 0, c->inputs[0].dtype, 1, &n);
}

holo_status holo_k_range_run(holo_kernel_call *c) {
  int64_t n;
  if (range_count(c, &n)) return HOLO_ERR_KERNEL;
  uint32_t dt = c->inputs[0].dtype;
  void *y = c->outputs[0].data;
  if (holo_k_is_float(dt)) {
    double s = holo_k_load_f64(c->inputs[0].data, dt, 0), d = holo_k_load_f64(c->inputs[2].data, dt, 0);
    for (int64_t i = 0; i < n; i++) {
      double v = s + (double)i * d;
      if (dt == HOLO_DT_F32) ((float *)y)[i] = (float)v;
      else ((double *)y)[i] = v;
    }
  } else {
    uint64_t s = (uint64_t)holo_k_load_i64(c->inputs[0].data, dt, 0),
             d = (uint64_t)holo_k_load_i64(c->inputs[2].data, dt, 0);
    for (int64_t i = 0; i < n; i++) {
      uint64_t v = s + (uint64_t)i * d;
      if (dt == HOLO_DT_I16) ((uint16_t *)y)[i] = (uint16_t)v;
      else if (dt == HOLO_DT_I32) ((uint32_t *)y)[i] = (uint32_t)v;
      else ((uint64_t *)y)[i] = v;
    }
  }
  return HOLO_OK;
}
