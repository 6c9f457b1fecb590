/* Clip (opset 13): input any numeric dtype but bool; min and max are
 * optional inputs 1 and 2, scalars (or one-element tensors) of the input's
 * dtype; an absent bound does not clip. y = min(max(x, lo), hi), so lo > hi
 * gives hi everywhere (as the spec says). A NaN input stays NaN. */
#include "ext-util.h"

static holo_status clip_check(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Clip", 1, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "Clip", 0, 0))) return st;
  uint32_t dt = c->inputs[0].dtype;
  if (dt == HOLO_DT_BOOL)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Clip: dtype bool is not supported");
  for (uint32_t k = 1; k < c->n_inputs; k++) {
    if (holo_k_absent(c, k)) continue;
    if ((st = holo_k_check_input(c, "Clip", k, dt))) return st;
    const holo_tensor *b = &c->inputs[k];
    if (holo_k_prod(b->shape, 0, b->rank) != 1) {
      char s[HOLO_K_SHAPE_STR];
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Clip: %s must be a scalar, got shape %s",
                         k == 1 ? "min" : "max", holo_k_shape_str(s, b->shape, b->rank));
    }
  }
  return HOLO_OK;
}

holo_status holo_k_clip_infer(holo_kernel_call *c) {
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = clip_check(c))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Clip", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_clip_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  size_t n = holo_k_prod(xt->shape, 0, xt->rank);
  bool has_lo = !holo_k_absent(c, 1), has_hi = c->n_inputs > 2 && !holo_k_absent(c, 2);
  const void *lo = has_lo ? c->inputs[1].data : 0, *hi = has_hi ? c->inputs[2].data : 0;
  void *y = c->outputs[0].data;
  switch (xt->dtype) {
#define CLIP(T)                                                                                    \
  {                                                                                                \
    const T *x = xt->data;                                                                         \
    T l = has_lo ? *(const T *)lo : 0, h = has_hi ? *(const T *)hi : 0;                            \
    for (size_t i = 0; i < n; i++) {                                                               \
      T v = x[i];                                                                                  \
      if (has_lo && v < l) v = l;                                                                  \
      if (has_hi && v > h) v = h;                                                                  \
      ((T *)y)[i] = v;                                                                             \
    }                                                                                              \
  }                                                                                                \
  break;
  case HOLO_DT_F32: CLIP(float)
  case HOLO_DT_F64: CLIP(double)
  case HOLO_DT_I8: CLIP(int8_t)
  case HOLO_DT_U8: CLIP(uint8_t)
  case HOLO_DT_I16: CLIP(int16_t)
  case HOLO_DT_U16: CLIP(uint16_t)
  case HOLO_DT_I32: CLIP(int32_t)
  case HOLO_DT_U32: CLIP(uint32_t)
  case HOLO_DT_I64: CLIP(int64_t)
  case HOLO_DT_U64: CLIP(uint64_t)
  default: { /* F16: compare as double, keep the bits */
    const uint16_t *x = xt->data;
    uint16_t l = has_lo ? *(const uint16_t *)lo : 0, h = has_hi ? *(const uint16_t *)hi : 0;
    double dl = holo_x_f16_to_f64(l), dh = holo_x_f16_to_f64(h);
    for (size_t i = 0; i < n; i++) {
      uint16_t v = x[i];
      double dv = holo_x_f16_to_f64(v);
      if (has_lo && dv < dl) v = l, dv = dl;
      if (has_hi && dv > dh) v = h;
      ((uint16_t *)y)[i] = v;
    }
    break;
  }
  }
  return HOLO_OK;
}
