#include "common/window2d.h"

#include "common/check.h"

/* Reads an INTS attribute of exactly n values >= lo (each <= 2^31, which
 * keeps window arithmetic far from int64 overflow); dflt when absent. */
static holo_status ints_attr(holo_kernel_call *c, const char *op, const char *name, uint32_t n,
                             int64_t lo, int64_t dflt, int64_t *out) {
  const holo_attr *a = holo_attr_find(c, name);
  if (!a) {
    for (uint32_t i = 0; i < n; i++) out[i] = dflt;
    return HOLO_OK;
  }
  if (a->type != HOLO_ATTR_INTS || a->count != n)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s must be %u ints for 2-D, got %u", op, name, n,
                       a->type == HOLO_ATTR_INTS ? a->count : 0u);
  holo_attr_ints(c, name, out, n);
  for (uint32_t i = 0; i < n; i++)
    if (out[i] < lo || out[i] > ((int64_t)1 << 31))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s[%u] = %lld is out of range", op, name, i,
                         (long long)out[i]);
  return HOLO_OK;
}

holo_status holo_k_window2d(holo_kernel_call *c, const char *op, const int64_t *in_hw,
                            const int64_t *kernel, bool use_ceil, holo_k_win2d *w) {
  holo_status st;
  int64_t ks[2], pads[4];
  static const char *const axis_name[2] = {"H", "W"};
  if (kernel) {
    const holo_attr *a = holo_attr_find(c, "kernel_shape");
    if (a) {
      if ((st = ints_attr(c, op, "kernel_shape", 2, 1, 1, ks))) return st;
      if (ks[0] != kernel[0] || ks[1] != kernel[1])
        return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: kernel_shape [%lld,%lld] differs from weights [%lld,%lld]",
                           op, (long long)ks[0], (long long)ks[1], (long long)kernel[0],
                           (long long)kernel[1]);
    }
    ks[0] = kernel[0];
    ks[1] = kernel[1];
    if (ks[0] < 1 || ks[1] < 1 || ks[0] > ((int64_t)1 << 31) || ks[1] > ((int64_t)1 << 31))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: kernel dims [%lld,%lld] are out of range", op,
                         (long long)ks[0], (long long)ks[1]);
  } else {
    if (!holo_attr_find(c, "kernel_shape"))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: the kernel_shape attribute is required", op);
    if ((st = ints_attr(c, op, "kernel_shape", 2, 1, 1, ks))) return st;
  }
  if ((st = ints_attr(c, op, "strides", 2, 1, 1, w->stride))) return st;
  if ((st = ints_attr(c, op, "dilations", 2, 1, 1, w->dil))) return st;
  if ((st = ints_attr(c, op, "pads", 4, 0, 0, pads))) return st;
  int64_t ceil_mode = use_ceil ? holo_attr_int(c, "ceil_mode", 0) : 0;
  if (ceil_mode != 0 && ceil_mode != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: ceil_mode must be 0 or 1, got %lld", op,
                       (long long)ceil_mode);
  enum { NOTSET, VALID, SAME_UPPER, SAME_LOWER } mode = NOTSET;
  const holo_attr *ap = holo_attr_find(c, "auto_pad");
  if (ap) {
    if (holo_attr_string_is(c, "auto_pad", "NOTSET")) mode = NOTSET;
    else if (holo_attr_string_is(c, "auto_pad", "VALID")) mode = VALID;
    else if (holo_attr_string_is(c, "auto_pad", "SAME_UPPER")) mode = SAME_UPPER;
    else if (holo_attr_string_is(c, "auto_pad", "SAME_LOWER")) mode = SAME_LOWER;
    else if (ap->type != HOLO_ATTR_STRING)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: auto_pad must be a string", op);
    else
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: unknown auto_pad \"%.*s\"", op,
                         (int)(ap->count > 32 ? 32 : ap->count), (const char *)ap->payload);
  }
  if (mode != NOTSET && (pads[0] | pads[1] | pads[2] | pads[3]))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: explicit pads cannot be combined with auto_pad", op);
  for (int i = 0; i < 2; i++) {
    int64_t in = in_hw[i], s = w->stride[i], ek = (ks[i] - 1) * w->dil[i] + 1, out;
    int64_t pb = pads[i], pe = pads[i + 2];
    if (mode == SAME_UPPER || mode == SAME_LOWER) {
      out = (in + s - 1) / s;
      int64_t total = out > 0 ? (out - 1) * s + ek - in : 0;
      if (total < 0) total = 0;
      pb = mode == SAME_UPPER ? total / 2 : (total + 1) / 2;
      pe = total - pb;
    } else {
      int64_t padded = in + pb + pe;
      if (padded < ek)
        return holo_k_fail(c, HOLO_ERR_KERNEL,
                           "%s: kernel extent %lld exceeds padded input %lld along %s", op,
                           (long long)ek, (long long)padded, axis_name[i]);
      if (ceil_mode && mode == NOTSET) {
        out = (padded - ek + s - 1) / s + 1;
        /* the last window must start inside the input or its front padding */
        if ((out - 1) * s >= in + pb) out--;
      } else {
        out = (padded - ek) / s + 1;
      }
    }
    w->in[i] = in;
    w->k[i] = ks[i];
    w->pad_begin[i] = pb;
    w->pad_end[i] = pe;
    w->out[i] = out;
  }
  return HOLO_OK;
}
