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
 *     y = (float)(x - zp) * x_scale (the difference is exact in f32).
 *   DynamicQuantizeLinear(x f32) -> y u8, y_scale f32, y_zero_point u8: the
 *     converter's lowering (onnx-ops-quant.js lowerDynamicQuantize: 19
 *     nodes) in one min/max pass and QuantizeLinear's pass (decision 72). */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"
#include "operators/qlinear.h"
#include "microkernels/vquantize.h"

static size_t qq_numel(const holo_tensor *t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    n *= (size_t)t->shape[i];
  return n;
}

/* y = sat(rne(x / s) + zp) into u8 (u8) or i8, NaN -> 0 (QuantizeLinear's
 * steps: microkernels/vquantize.h, the build's variant). */
void holo_k_q_quantize(const float *x, size_t n, float s, int32_t zp, bool u8, uint8_t *y) {
  holo_vquantize_f32_q8(x, n, s, zp, u8, y);
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
  holo_k_q_quantize(x, qq_numel(&c->inputs[0]), s, zp, u8, c->outputs[0].data);
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

/* DynamicQuantizeLinear's parameters over x[0..n), the lowering's steps
 * (compiler/onnx-ops-quant.js, onnxruntime's GetQuantizationParameter) one
 * by one in f32: mn = min(ReduceMin(x), 0), mx = max(ReduceMax(x), 0), both
 * NaN when x holds a NaN (the reductions and Min/Max propagate it);
 * scale = range == 0 ? 1 : range / 255; z0 = clip(-(mn / scale), 0, 255)
 * (a NaN stays); zp = z0 - floor(z0) >= 0.5 ? ceil(z0) : floor(z0). *zp is
 * -1 when that is NaN: every q is then NaN + ..., which the Cast makes 0,
 * and the zero point's own Cast gives 0. */
void holo_k_dql_params(const float *x, size_t n, float *scale, int32_t *zp) {
  float mn = __builtin_inff(), mx = -__builtin_inff();
  bool nan = false;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    nan |= v != v;
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  if (nan) mn = mx = __builtin_nanf("");
  mn = mn < 0.0f || nan ? mn : 0.0f;
  mx = mx > 0.0f || nan ? mx : 0.0f;
  float range = mx - mn;
  float s = range == 0.0f ? 1.0f : range / 255.0f;
  float z0 = -(mn / s);
  *scale = s;
  if (z0 != z0) {
    *zp = -1;
    return;
  }
  z0 = z0 < 0.0f ? 0.0f : z0 > 255.0f ? 255.0f : z0;
  int32_t fl = (int32_t)z0; /* floor: z0 >= 0 */
  *zp = z0 - (float)fl >= 0.5f ? fl + ((float)fl < z0) : fl;
}

/* y (u8, x's shape), y_scale (f32 scalar), y_zero_point (u8 scalar) of x. */
void holo_k_dql(const float *x, size_t n, uint8_t *y, float *scale, uint8_t *zp) {
  int32_t z;
  holo_k_dql_params(x, n, scale, &z);
  if (z < 0) {
    for (size_t i = 0; i < n; i++)
      y[i] = 0;
    *zp = 0;
    return;
  }
  holo_k_q_quantize(x, n, *scale, z, true, y);
  *zp = (uint8_t)z;
}

static holo_status dql_check(holo_kernel_call *c) {
  const char *op = "DynamicQuantizeLinear";
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 1, 1, 3)) || (st = holo_k_check_input(c, op, 0, HOLO_DT_F32)))
    return st;
  if (c->n_outputs != 3)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: takes 3 outputs, got %u", op, c->n_outputs);
  return HOLO_OK;
}

holo_status holo_k_dynquantizelinear_infer(holo_kernel_call *c) {
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = dql_check(c))) return st;
  const holo_tensor *x = &c->inputs[0];
  uint64_t f[1] = {2 * (uint64_t)qq_numel(x)};
  c->work = holo_k_work(1, f);
  const char *op = "DynamicQuantizeLinear";
  if ((st = holo_k_set_output(c, op, 0, HOLO_DT_U8, x->rank, x->shape)) ||
      (st = holo_k_set_output(c, op, 1, HOLO_DT_F32, 0, x->shape)))
    return st;
  return holo_k_set_output(c, op, 2, HOLO_DT_U8, 0, x->shape);
}

holo_status holo_k_dynquantizelinear_run(holo_kernel_call *c) {
  if (dql_check(c)) return HOLO_ERR_KERNEL;
  holo_k_dql(c->inputs[0].data, qq_numel(&c->inputs[0]), c->outputs[0].data, c->outputs[1].data,
             c->outputs[2].data);
  return HOLO_OK;
}
