/* LRN (opset 1, 13): local response normalization across channels of
 * X [N, C, ...] f32: y = x / (bias + alpha / size * sum of x^2 over the
 * channels [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)] clipped
 * to [0, C))^beta, in double, rounded once. size (required) >= 1. */
#include "common/check.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

static holo_status lrn_check(holo_kernel_call *c, int64_t *size) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "LRN", 1, 1, 1)) || (st = holo_k_check_input(c, "LRN", 0, HOLO_DT_F32)))
    return st;
  if (c->inputs[0].rank < 2) return holo_k_fail(c, HOLO_ERR_KERNEL, "LRN: X must have rank >= 2");
  *size = holo_attr_int(c, "size", 0);
  if (*size < 1 || *size > 65536) return holo_k_fail(c, HOLO_ERR_KERNEL, "LRN: size must be in [1, 65536]");
  float a = holo_attr_float(c, "alpha", 1e-4f), b = holo_attr_float(c, "beta", 0.75f),
        k = holo_attr_float(c, "bias", 1.0f);
  if (a != a || b != b || k != k)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "LRN: alpha, beta and bias must not be NaN");
  return HOLO_OK;
}

holo_status holo_k_lrn_infer(holo_kernel_call *c) {
  holo_status st;
  int64_t size;
  holo_k_infer_reset(c);
  if ((st = lrn_check(c, &size))) return st;
  const holo_tensor *x = &c->inputs[0];
  c->work = holo_k_mul_sat(holo_k_prod(x->shape, 0, x->rank), (uint64_t)size + 1);
  return holo_k_set_output(c, "LRN", 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_lrn_run(holo_kernel_call *c) {
  int64_t size;
  if (lrn_check(c, &size)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const size_t N = (size_t)xt->shape[0], C = (size_t)xt->shape[1], S = holo_k_prod(xt->shape, 2, xt->rank);
  const double alpha = holo_attr_float(c, "alpha", 1e-4f), beta = holo_attr_float(c, "beta", 0.75f),
               bias = holo_attr_float(c, "bias", 1.0f);
  const int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  for (size_t n = 0; n < N; n++)
    for (size_t ch = 0; ch < C; ch++)
      for (size_t i = 0; i < S; i++) {
        int64_t c0 = (int64_t)ch - lo, c1 = (int64_t)ch + hi;
        if (c0 < 0) c0 = 0;
        if (c1 > (int64_t)C - 1) c1 = (int64_t)C - 1;
        double sq = 0;
        for (int64_t k = c0; k <= c1; k++) {
          double v = x[(n * C + (size_t)k) * S + i];
          sq += v * v;
        }
        size_t at = (n * C + ch) * S + i;
        y[at] = (float)(x[at] / holo_pow(bias + alpha / (double)size * sq, beta));
      }
  return HOLO_OK;
}
