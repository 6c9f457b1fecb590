/* Scales, zero points and multipliers of the QLinear products (qlinear.h). */
#include "operators/qlinear.h"

#include "common/check.h"

static size_t q_numel(const holo_tensor *t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    n *= (size_t)t->shape[i];
  return n;
}

static holo_status q_shape(holo_kernel_call *c, const char *op, uint32_t idx, size_t per, const char *what) {
  const holo_tensor *t = &c->inputs[idx];
  size_t n = q_numel(t);
  if (t->rank <= 1 && (n == 1 || (per > 1 && t->rank == 1 && n == per))) return HOLO_OK;
  char s[HOLO_K_SHAPE_STR];
  if (per > 1)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %s must be a scalar or 1-D of %zu, got %s", op, what,
                       per, holo_k_shape_str(s, t->shape, t->rank));
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %s must be a scalar, got %s", op, what,
                     holo_k_shape_str(s, t->shape, t->rank));
}

holo_status holo_k_q_scale(holo_kernel_call *c, const char *op, uint32_t idx, size_t per, const char *what) {
  holo_status st;
  if ((st = holo_k_check_input(c, op, idx, 0))) return st;
  if (c->inputs[idx].dtype != HOLO_DT_F32)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %s must be f32, got %s", op, what,
                       holo_k_dtype_name(c->inputs[idx].dtype));
  return q_shape(c, op, idx, per, what);
}

holo_status holo_k_q_zero(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dt, size_t per,
                          const char *what) {
  if (holo_k_absent(c, idx)) return HOLO_OK;
  holo_status st;
  if ((st = holo_k_check_input(c, op, idx, 0))) return st;
  uint32_t zdt = c->inputs[idx].dtype;
  if (dt ? zdt != dt : zdt != HOLO_DT_U8 && zdt != HOLO_DT_I8)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %s has dtype %s, expected %s", op, what,
                       holo_k_dtype_name(zdt), dt ? holo_k_dtype_name(dt) : "u8 or i8");
  return q_shape(c, op, idx, per, what);
}

float holo_k_q_scale_at(const holo_kernel_call *c, uint32_t idx, size_t j) {
  const holo_tensor *t = &c->inputs[idx];
  return ((const float *)t->data)[q_numel(t) > 1 ? j : 0];
}

int32_t holo_k_q_zero_at(const holo_kernel_call *c, uint32_t idx, size_t j) {
  if (holo_k_absent(c, idx)) return 0;
  const holo_tensor *t = &c->inputs[idx];
  size_t i = q_numel(t) > 1 ? j : 0;
  return t->dtype == HOLO_DT_U8 ? (int32_t)((const uint8_t *)t->data)[i]
                                : (int32_t)((const int8_t *)t->data)[i];
}

holo_status holo_k_q_multipliers(holo_kernel_call *c, const char *op, uint32_t xs, uint32_t ws, uint32_t ys,
                                 float *mult, size_t n) {
  const float xv = holo_k_q_scale_at(c, xs, 0), yv = holo_k_q_scale_at(c, ys, 0);
  for (size_t j = 0; j < n; j++) {
    float m = xv * holo_k_q_scale_at(c, ws, j) / yv;
    /* m - m is 0 for a finite m, NaN for an infinite or NaN one */
    if (!(m - m == 0.0f))
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "%s: the scales give a requantization multiplier that is not finite (channel %zu)",
                         op, j);
    mult[j] = m;
  }
  return HOLO_OK;
}
