#include "common/attrs.h"

#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"

holo_status holo_k_axis_attr(holo_kernel_call *c, const char *op, uint32_t *axis) {
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", -1);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", op, (long long)a, x->rank);
  return HOLO_OK;
}

holo_status holo_k_read_ints(holo_kernel_call *c, const char *op, uint32_t idx, const char *what,
                             int64_t *out, uint32_t max, uint32_t *n) {
  holo_status st;
  if ((st = holo_k_check_input(c, op, idx, 0))) return st;
  const holo_tensor *t = &c->inputs[idx];
  if (t->dtype != HOLO_DT_I64 && t->dtype != HOLO_DT_I32)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s (input %u) must be i64 or i32, got %s", op, what,
                       idx, holo_k_dtype_name(t->dtype));
  if (t->rank > 1) {
    char s[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s (input %u) must be 1-D, got shape %s", op, what,
                       idx, holo_k_shape_str(s, t->shape, t->rank));
  }
  size_t cnt = t->rank ? (size_t)t->shape[0] : 1;
  if (cnt > max)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s (input %u) has %zu values, at most %u allowed",
                       op, what, idx, cnt, max);
  for (size_t i = 0; i < cnt; i++) out[i] = holo_k_load_i64(t->data, t->dtype, i);
  *n = (uint32_t)cnt;
  return HOLO_OK;
}

holo_status holo_k_axes_mask(holo_kernel_call *c, const char *op, const int64_t *axes, uint32_t n,
                             uint32_t rank, uint32_t *mask) {
  *mask = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t a;
    if (!holo_k_axis(axes[i], rank, false, &a))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", op,
                         (long long)axes[i], rank);
    if (*mask & (1u << a))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is repeated", op, (long long)axes[i]);
    *mask |= 1u << a;
  }
  return HOLO_OK;
}

holo_status holo_k_flag(holo_kernel_call *c, const char *op, const char *name, int64_t dflt,
                        bool *out) {
  const holo_attr *a = holo_attr_find(c, name);
  if (a && a->type != HOLO_ATTR_INT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute %s must be an int", op, name);
  int64_t v = holo_attr_int(c, name, dflt);
  if (v != 0 && v != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s must be 0 or 1, got %lld", op, name,
                       (long long)v);
  *out = v != 0;
  return HOLO_OK;
}
