/* Cast (opset 13 semantics for the numeric dtypes: f32, f64, f16, bf16, i8,
 * u8, i16, u16, i32, u32, i64, u64, bool), attribute `to` (required).
 *
 * Conversions, all deterministic:
 *  - float -> float rounds to nearest, ties to even, once (f64 -> f16 goes
 *    straight from the double, no double rounding; bf16 likewise, as
 *    onnxruntime's BFloat16 rounds); overflow gives +-inf, NaN stays NaN.
 *    Between f16 / bf16 and f32 a NaN keeps its bits (sign, quiet bit,
 *    payload; identity version 2): a 16-bit value widened and narrowed
 *    again is the same 16 bits, as the converter's widening needs.
 *  - float -> integer truncates toward zero and saturates to the target
 *    range (like wasm's trunc_sat); NaN becomes 0. (ONNX leaves
 *    out-of-range values undefined.)
 *  - integer -> integer wraps modulo 2^n (two's complement).
 *  - integer -> float rounds to nearest even.
 *  - anything -> bool is (x != 0) (NaN -> true); bool -> anything is 0 / 1.
 * The conversions: microkernels/cast.h. */
#include "microkernels/cast.h"
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/vcvt.h"
#include "operators/operators.h"

static holo_status cast_to(holo_kernel_call *c, uint32_t *to) {
  const holo_attr *a = holo_attr_find(c, "to");
  if (!a || a->type != HOLO_ATTR_INT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Cast: the int attribute 'to' is required");
  int64_t v = holo__rd_i64(a->payload);
  if (v <= 0 || v > 64 || holo_dtype_size((uint32_t)v) == 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Cast: target dtype %lld is not supported", (long long)v);
  *to = (uint32_t)v;
  return HOLO_OK;
}

holo_status holo_k_cast_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t to = 0;
  if ((st = holo_k_infer_begin(c, "Cast", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Cast", 0, 0))) return st;
  if ((st = cast_to(c, &to))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Cast", 0, to, x->rank, x->shape);
}

holo_status holo_k_cast_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  holo_tensor *yt = &c->outputs[0];
  size_t n = holo_k_prod(xt->shape, 0, xt->rank);
  if (n == 0) return HOLO_OK;
  /* the half <-> f32 casts of a widened f16 / bf16 model: SIMD where built */
  uint32_t sd = xt->dtype, dd = yt->dtype;
  if (sd == HOLO_DT_F16 && dd == HOLO_DT_F32)
    HOLO_VCVT(f16_f32)(n, xt->data, yt->data);
  else if (sd == HOLO_DT_F32 && dd == HOLO_DT_F16)
    HOLO_VCVT(f32_f16)(n, xt->data, yt->data);
  else if (sd == HOLO_DT_BF16 && dd == HOLO_DT_F32)
    HOLO_VCVT(bf16_f32)(n, xt->data, yt->data);
  else if (sd == HOLO_DT_F32 && dd == HOLO_DT_BF16)
    HOLO_VCVT(f32_bf16)(n, xt->data, yt->data);
  else
    holo_ukernel_cast_numeric__scalar(xt->dtype, yt->dtype, n, xt->data, yt->data);
  return HOLO_OK;
}
