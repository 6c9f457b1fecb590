/* Cast (opset 13 semantics for the numeric dtypes: f32, f64, f16, i8, u8,
 * i16, u16, i32, u32, i64, u64, bool), attribute `to` (required).
 *
 * Conversions, all deterministic:
 *  - float -> float rounds to nearest, ties to even, once (f64 -> f16 goes
 *    straight from the double, no double rounding); overflow gives +-inf,
 *    NaN stays NaN.
 *  - float -> integer truncates toward zero and saturates to the target
 *    range (like wasm's trunc_sat); NaN becomes 0. (ONNX leaves
 *    out-of-range values undefined.)
 *  - integer -> integer wraps modulo 2^n (two's complement).
 *  - integer -> float rounds to nearest even.
 *  - anything -> bool is (x != 0) (NaN -> true); bool -> anything is 0 / 1. */
#include "ext-util.h"

#include "hologram/mem.h"

static holo_status cast_to(holo_kernel_call *c, uint32_t *to) {
  const holo_attr *a = holo_attr_find(c, "to");
  if (!a || a->type != HOLO_ATTR_INT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Cast: the int attribute 'to' is required");
  int64_t v = holo__rd_i64(a->payload);
  if (v <= 0 || v > 64 || holo_dtype_size((uint32_t)v) == 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Cast: target dtype %lld is not supported",
                       (long long)v);
  *to = (uint32_t)v;
  return HOLO_OK;
}

holo_status holo_k_cast_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t to = 0;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "Cast", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Cast", 0, 0))) return st;
  if ((st = cast_to(c, &to))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Cast", 0, to, x->rank, x->shape);
}

/* float value -> integer of [lo, hi] (as int64; u64 handled apart) */
static int64_t sat_i64(double d, double lo, double hi) {
  if (d != d) return 0;
  if (d <= lo) return (int64_t)lo;
  if (d >= hi) return (int64_t)hi;
  return (int64_t)d;
}

static void store_f(void *y, uint32_t dt, size_t i, double d) {
  switch (dt) {
  case HOLO_DT_F32: ((float *)y)[i] = (float)d; break;
  case HOLO_DT_F64: ((double *)y)[i] = d; break;
  case HOLO_DT_F16: ((uint16_t *)y)[i] = holo_x_f64_to_f16(d); break;
  case HOLO_DT_BOOL: ((uint8_t *)y)[i] = d != 0; break;
  case HOLO_DT_U8: ((uint8_t *)y)[i] = (uint8_t)sat_i64(d, 0, 255); break;
  case HOLO_DT_I8: ((int8_t *)y)[i] = (int8_t)sat_i64(d, -128, 127); break;
  case HOLO_DT_U16: ((uint16_t *)y)[i] = (uint16_t)sat_i64(d, 0, 65535); break;
  case HOLO_DT_I16: ((int16_t *)y)[i] = (int16_t)sat_i64(d, -32768, 32767); break;
  case HOLO_DT_U32: ((uint32_t *)y)[i] = (uint32_t)sat_i64(d, 0, 4294967295.0); break;
  case HOLO_DT_I32: ((int32_t *)y)[i] = (int32_t)sat_i64(d, -2147483648.0, 2147483647.0); break;
  case HOLO_DT_I64:
    /* 2^63 is the first double above the range */
    ((int64_t *)y)[i] = d != d ? 0
                        : d >= 9223372036854775808.0   ? INT64_MAX
                        : d <= -9223372036854775808.0  ? INT64_MIN
                                                       : (int64_t)d;
    break;
  case HOLO_DT_U64:
    ((uint64_t *)y)[i] = d != d || d <= 0 ? 0 : d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
    break;
  default: break;
  }
}

/* integer source: v holds the value's bits; is_signed tells how to read them */
static void store_i(void *y, uint32_t dt, size_t i, uint64_t v, bool is_signed) {
  switch (dt) {
  case HOLO_DT_F32: ((float *)y)[i] = is_signed ? (float)(int64_t)v : (float)v; break;
  case HOLO_DT_F64: ((double *)y)[i] = is_signed ? (double)(int64_t)v : (double)v; break;
  case HOLO_DT_F16:
    /* beyond 2^53 the double rounds first, but such values are inf in f16 */
    ((uint16_t *)y)[i] = holo_x_f64_to_f16(is_signed ? (double)(int64_t)v : (double)v);
    break;
  case HOLO_DT_BOOL: ((uint8_t *)y)[i] = v != 0; break;
  case HOLO_DT_U8: case HOLO_DT_I8: ((uint8_t *)y)[i] = (uint8_t)v; break;
  case HOLO_DT_U16: case HOLO_DT_I16: ((uint16_t *)y)[i] = (uint16_t)v; break;
  case HOLO_DT_U32: case HOLO_DT_I32: ((uint32_t *)y)[i] = (uint32_t)v; break;
  case HOLO_DT_U64: case HOLO_DT_I64: ((uint64_t *)y)[i] = v; break;
  default: break;
  }
}

holo_status holo_k_cast_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  holo_tensor *yt = &c->outputs[0];
  uint32_t sd = xt->dtype, dd = yt->dtype;
  size_t n = holo_k_prod(xt->shape, 0, xt->rank);
  if (n == 0) return HOLO_OK;
  const void *x = xt->data;
  void *y = yt->data;
  if (sd == dd && sd != HOLO_DT_BOOL) {
    holo_memcpy(y, x, n * holo_dtype_size(sd));
    return HOLO_OK;
  }
  if (holo_x_is_float(sd)) {
    for (size_t i = 0; i < n; i++) store_f(y, dd, i, holo_x_load_f64(x, sd, i));
  } else if (sd == HOLO_DT_U64) {
    for (size_t i = 0; i < n; i++) store_i(y, dd, i, ((const uint64_t *)x)[i], false);
  } else if (sd == HOLO_DT_BOOL) {
    for (size_t i = 0; i < n; i++) store_i(y, dd, i, ((const uint8_t *)x)[i] != 0, true);
  } else {
    for (size_t i = 0; i < n; i++) store_i(y, dd, i, (uint64_t)holo_x_load_i64(x, sd, i), true);
  }
  return HOLO_OK;
}
