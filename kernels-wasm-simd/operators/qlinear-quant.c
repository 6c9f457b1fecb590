/* QuantizeLinear / DequantizeLinear with per-tensor parameters, one pass
 * each (decision 66): what the converter's lowerings (compiler/
 * onnx-ops-quant.js: Div, Round, Add, Cast / Cast, Sub, Mul) compute, in
 * the same f32 steps, so the bytes are those of the lowered chains. The
 * static-QDQ models keep one of each around every fused product, and the
 * seven passes over f32 tensors cost as much as the integer core saved.
 *
 *   QuantizeLinear(x f32, y_scale f32 [1], y_zero_point u8/i8 [1]) -> y:
 *     v = x / y_scale (a true division, as the lowering's Div);
 *     y = sat(rne(v) + zp), NaN -> 0 (the lowering's saturating Cast).
 *     rne(v) + zp saturates the same once v is clamped to
 *     [qmin - zp - 1, qmax - zp + 1] (rne is monotone and those bounds are
 *     integers), and there rne is the 1.5 * 2^23 bias (|v| < 2^22).
 *   DequantizeLinear(x u8/i8, x_scale f32 [1], x_zero_point [1]?) -> f32:
 *     y = (float)(x - zp) * x_scale (the difference is exact in f32). */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"
#include "operators/qlinear.h"

static size_t qq_numel(const holo_tensor *t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    n *= (size_t)t->shape[i];
  return n;
}

static holo_status quant_check(holo_kernel_call *c) {
  const char *op = "QuantizeLinear";
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 3, 3, 1)) || (st = holo_k_check_input(c, op, 0, HOLO_DT_F32)) ||
      (st = holo_k_q_scale(c, op, 1, 1, "y_scale")))
    return st;
  if (holo_k_absent(c, 2)) return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: y_zero_point is required", op);
  return holo_k_q_zero(c, op, 2, 0, 1, "y_zero_point");
}

holo_status holo_k_quantizelinear_infer(holo_kernel_call *c) {
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = quant_check(c))) return st;
  const holo_tensor *x = &c->inputs[0];
  uint64_t f[1] = {qq_numel(x)};
  c->work = holo_k_work(1, f);
  return holo_k_set_output(c, "QuantizeLinear", 0, c->inputs[2].dtype, x->rank, x->shape);
}

holo_status holo_k_quantizelinear_run(holo_kernel_call *c) {
  if (quant_check(c)) return HOLO_ERR_KERNEL;
  const float *x = c->inputs[0].data;
  const float s = holo_k_q_scale_at(c, 1, 0);
  const int32_t zp = holo_k_q_zero_at(c, 2, 0);
  const bool u8 = c->inputs[2].dtype == HOLO_DT_U8;
  const int32_t qmin = u8 ? 0 : -128, qmax = u8 ? 255 : 127;
  const float lo = (float)(qmin - zp - 1), hi = (float)(qmax - zp + 1), bias = 12582912.0f; /* 1.5 * 2^23 */
  size_t n = qq_numel(&c->inputs[0]);
  uint8_t *y = c->outputs[0].data;
  for (size_t i = 0; i < n; i++) {
    float v = x[i] / s;
    int32_t q;
    if (v != v) {
      q = 0; /* the lowering's Cast of NaN */
    } else {
      v = v < lo ? lo : v > hi ? hi : v;
      q = (int32_t)((v + bias) - bias) + zp;
      q = q < qmin ? qmin : q > qmax ? qmax : q;
    }
    y[i] = (uint8_t)q; /* an i8's two's-complement byte */
  }
  return HOLO_OK;
}

static holo_status dequant_check(holo_kernel_call *c) {
  const char *op = "DequantizeLinear";
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 2, 3, 1)) || (st = holo_k_check_input(c, op, 0, 0)) ||
      (st = holo_k_q_scale(c, op, 1, 1, "x_scale")))
    return st;
  uint32_t dt = c->inputs[0].dtype;
  if (dt != HOLO_DT_U8 && dt != HOLO_DT_I8)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: x must be u8 or i8, got %s", op, holo_k_dtype_name(dt));
  return holo_k_q_zero(c, op, 2, dt, 1, "x_zero_point");
}

holo_status holo_k_dequantizelinear_infer(holo_kernel_call *c) {
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = dequant_check(c))) return st;
  const holo_tensor *x = &c->inputs[0];
  uint64_t f[1] = {qq_numel(x)};
  c->work = holo_k_work(1, f);
  return holo_k_set_output(c, "DequantizeLinear", 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_dequantizelinear_run(holo_kernel_call *c) {
  if (dequant_check(c)) return HOLO_ERR_KERNEL;
  const float s = holo_k_q_scale_at(c, 1, 0);
  const int32_t zp = holo_k_q_zero_at(c, 2, 0);
  size_t n = qq_numel(&c->inputs[0]);
  float *y = c->outputs[0].data;
  if (c->inputs[0].dtype == HOLO_DT_U8) {
    const uint8_t *x = c->inputs[0].data;
    for (size_t i = 0; i < n; i++)
      y[i] = (float)((int32_t)x[i] - zp) * s;
  } else {
    const int8_t *x = c->inputs[0].data;
    for (size_t i = 0; i < n; i++)
      y[i] = (float)((int32_t)x[i] - zp) * s;
  }
  return HOLO_OK;
}
