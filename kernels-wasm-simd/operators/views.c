/* The views: Reshape (opset 5-14), Flatten, Squeeze and Unsqueeze (opset
 * 13: axes is input 1, i32/i64 1-D; optional for Squeeze, where its absence
 * removes every dim of 1). The output is a view of input 0
 * (alias_input = 0), so infer does all the work and run
 * (holo_k_view_run) has nothing to do. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

holo_status holo_k_reshape_infer(holo_kernel_call *c) {
  holo_status st;
  char s1[HOLO_K_SHAPE_STR];
  if ((st = holo_k_infer_begin(c, "Reshape", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Reshape", 0, 0))) return st;
  if ((st = holo_k_check_input(c, "Reshape", 1, 0))) return st;
  const holo_tensor *x = &c->inputs[0], *s = &c->inputs[1];
  if (s->dtype != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: shape input must be i64, got %s",
                       holo_k_dtype_name(s->dtype));
  int64_t allowzero = holo_attr_int(c, "allowzero", 0);
  if (allowzero != 0 && allowzero != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: allowzero must be 0 or 1, got %lld",
                       (long long)allowzero);
  if (s->rank != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: shape input must be 1-D, got %s",
                       holo_k_shape_str(s1, s->shape, s->rank));
  if (s->shape[0] > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Reshape: target rank %lld exceeds %u",
                       (long long)s->shape[0], (unsigned)HOLO_MAX_RANK);
  uint32_t r = (uint32_t)s->shape[0];
  const int64_t *req = s->data;
  int64_t ys[HOLO_MAX_RANK];
  int32_t infer_at = -1;
  bool any_zero = false;
  for (uint32_t i = 0; i < r; i++) {
    int64_t d = req[i];
    if (d == -1) {
      if (infer_at >= 0)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: more than one -1 in shape (at %d and %u)",
                           infer_at, i);
      infer_at = (int32_t)i;
      ys[i] = 1;
    } else if (d < -1) {
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: invalid dim %lld at index %u", (long long)d, i);
    } else if (d == 0 && !allowzero) {
      if (i >= x->rank)
        return holo_k_fail(c, HOLO_ERR_KERNEL,
                           "Reshape: 0 at index %u copies an input dim, but the input has rank %u",
                           i, x->rank);
      ys[i] = x->shape[i];
    } else {
      any_zero |= d == 0;
      ys[i] = d;
    }
  }
  if (allowzero && any_zero && infer_at >= 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: allowzero=1 forbids both 0 and -1 in shape");
  size_t nx = 0, ny;
  holo_shape_numel(x->shape, x->rank, &nx);
  if (!holo_shape_numel(ys, r, &ny))
    return holo_k_fail(c, HOLO_ERR_LIMIT, "Reshape: target shape %s is too large",
                       holo_k_shape_str(s1, ys, r));
  if (infer_at >= 0) {
    if (ny == 0 || nx % ny != 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "Reshape: cannot infer -1: %zu elements do not divide into %zu", nx, ny);
    ys[infer_at] = (int64_t)(nx / ny);
    ny = nx;
  }
  if (nx != ny) {
    char s2[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Reshape: %s (%zu elements) cannot become %s (%zu elements)",
                       holo_k_shape_str(s1, x->shape, x->rank), nx, holo_k_shape_str(s2, ys, r), ny);
  }
  if ((st = holo_k_set_output(c, "Reshape", 0, x->dtype, r, ys))) return st;
  c->alias_input = 0;
  return HOLO_OK;
}

holo_status holo_k_flatten_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "Flatten", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Flatten", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", 1);
  uint32_t axis;
  if (!holo_k_axis(a, x->rank, true, &axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Flatten: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  int64_t ys[2] = {(int64_t)holo_k_prod(x->shape, 0, axis),
                   (int64_t)holo_k_prod(x->shape, axis, x->rank)};
  if ((st = holo_k_set_output(c, "Flatten", 0, x->dtype, 2, ys))) return st;
  c->alias_input = 0;
  return HOLO_OK;
}

holo_status holo_k_view_run(holo_kernel_call *c) {
  (void)c;
  return HOLO_OK;
}

holo_status holo_k_squeeze_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "Squeeze", 1, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Squeeze", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  uint32_t mask = 0;
  if (!holo_k_absent(c, 1)) {
    int64_t axes[HOLO_MAX_RANK];
    uint32_t n;
    if ((st = holo_k_read_ints(c, "Squeeze", 1, "axes", axes, HOLO_MAX_RANK, &n))) return st;
    if ((st = holo_k_axes_mask(c, "Squeeze", axes, n, x->rank, &mask))) return st;
    for (uint32_t i = 0; i < x->rank; i++)
      if ((mask & (1u << i)) && x->shape[i] != 1)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Squeeze: axis %u has size %lld, not 1", i,
                           (long long)x->shape[i]);
  } else {
    for (uint32_t i = 0; i < x->rank; i++)
      if (x->shape[i] == 1) mask |= 1u << i;
  }
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr = 0;
  for (uint32_t i = 0; i < x->rank; i++)
    if (!(mask & (1u << i))) ys[yr++] = x->shape[i];
  if ((st = holo_k_set_output(c, "Squeeze", 0, x->dtype, yr, ys))) return st;
  c->alias_input = 0;
  return HOLO_OK;
}

holo_status holo_k_unsqueeze_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "Unsqueeze", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Unsqueeze", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t axes[HOLO_MAX_RANK];
  uint32_t n, mask;
  if ((st = holo_k_read_ints(c, "Unsqueeze", 1, "axes", axes, HOLO_MAX_RANK, &n))) return st;
  uint32_t yr = x->rank + n;
  if (yr > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Unsqueeze: output rank %u exceeds %u", yr,
                       (unsigned)HOLO_MAX_RANK);
  if ((st = holo_k_axes_mask(c, "Unsqueeze", axes, n, yr, &mask))) return st;
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0, k = 0; i < yr; i++) ys[i] = (mask & (1u << i)) ? 1 : x->shape[k++];
  if ((st = holo_k_set_output(c, "Unsqueeze", 0, x->dtype, yr, ys))) return st;
  c->alias_input = 0;
  return HOLO_OK;
}
