/* BatchNormalization, inference form (opset 9, 14, 15; training_mode = 0,
 * which the converter checks): X [N, C, ...] f32 and per-channel scale, B,
 * mean, var [C] f32; y = (x - mean) * scale / sqrt(var + epsilon) + B,
 * computed in double per element and rounded once. The converter folds a
 * BatchNormalization after a constant Conv into the Conv; this kernel runs
 * the rest (statistics fed at execute time, or no Conv before it). */
#include "common/check.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

static holo_status bn_check(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "BatchNormalization", 5, 5, 1))) return st;
  for (uint32_t k = 0; k < 5; k++)
    if ((st = holo_k_check_input(c, "BatchNormalization", k, HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank < 2) return holo_k_fail(c, HOLO_ERR_KERNEL, "BatchNormalization: X must have rank >= 2");
  for (uint32_t k = 1; k < 5; k++)
    if (c->inputs[k].rank != 1 || c->inputs[k].shape[0] != x->shape[1])
      return holo_k_fail(c, HOLO_ERR_KERNEL, "BatchNormalization: input %u must be [C] = [%lld]", k,
                         (long long)x->shape[1]);
  float eps = holo_attr_float(c, "epsilon", 1e-5f);
  if (!(eps >= 0) || eps == __builtin_inff())
    return holo_k_fail(c, HOLO_ERR_KERNEL, "BatchNormalization: epsilon must be finite and >= 0");
  return HOLO_OK;
}

holo_status holo_k_batchnorm_infer(holo_kernel_call *c) {
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = bn_check(c))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "BatchNormalization", 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_batchnorm_run(holo_kernel_call *c) {
  if (bn_check(c)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const size_t N = (size_t)xt->shape[0], C = (size_t)xt->shape[1], S = holo_k_prod(xt->shape, 2, xt->rank);
  const float *x = xt->data, *scale = c->inputs[1].data, *bias = c->inputs[2].data, *mean = c->inputs[3].data,
              *var = c->inputs[4].data;
  const double eps = holo_attr_float(c, "epsilon", 1e-5f);
  float *y = c->outputs[0].data;
  for (size_t ch = 0; ch < C; ch++) {
    const double a = (double)scale[ch] / holo_sqrt((double)var[ch] + eps), m = mean[ch], b = bias[ch];
    for (size_t n = 0; n < N; n++) {
      const size_t o = (n * C + ch) * S;
      for (size_t i = 0; i < S; i++)
        y[o + i] = (float)(((double)x[o + i] - m) * a + b);
    }
  }
  return HOLO_OK;
}
