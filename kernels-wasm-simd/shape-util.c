#include "shape-util.h"

#include "gemm.h"

#include "hologram/fmt.h"

holo_status holo_k_fail(holo_kernel_call *c, holo_status st, const char *fmt, ...) {
  if (c->msg && c->msg_cap) {
    va_list ap;
    va_start(ap, fmt);
    holo_vfmt(c->msg, c->msg_cap, fmt, ap);
    va_end(ap);
  }
  return st;
}

const char *holo_k_shape_str(char *buf, const int64_t *shape, uint32_t rank) {
  size_t n = 0;
  buf[n++] = '[';
  for (uint32_t i = 0; i < rank && i < HOLO_MAX_RANK; i++) {
    n += holo_fmt(buf + n, HOLO_K_SHAPE_STR - n, i ? ",%lld" : "%lld", (long long)shape[i]);
    if (n >= HOLO_K_SHAPE_STR - 2) break;
  }
  if (n > HOLO_K_SHAPE_STR - 2) n = HOLO_K_SHAPE_STR - 2;
  buf[n++] = ']';
  buf[n] = 0;
  return buf;
}

const char *holo_k_dtype_name(uint32_t dt) {
  switch (dt) {
  case 0: return "absent";
  case HOLO_DT_F32: return "f32";
  case HOLO_DT_U8: return "u8";
  case HOLO_DT_I8: return "i8";
  case HOLO_DT_U16: return "u16";
  case HOLO_DT_I16: return "i16";
  case HOLO_DT_I32: return "i32";
  case HOLO_DT_I64: return "i64";
  case HOLO_DT_BOOL: return "bool";
  case HOLO_DT_F16: return "f16";
  case HOLO_DT_F64: return "f64";
  case HOLO_DT_U32: return "u32";
  case HOLO_DT_U64: return "u64";
  default: return "unknown dtype";
  }
}

holo_status holo_k_check_arity(holo_kernel_call *c, const char *op, uint32_t min_in,
                               uint32_t max_in, uint32_t max_out) {
  if (c->n_inputs < min_in || c->n_inputs > max_in) {
    if (min_in == max_in)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects %u input%s, got %u", op, min_in,
                         min_in == 1 ? "" : "s", c->n_inputs);
    if (max_in == UINT32_MAX)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects at least %u input%s, got %u", op, min_in,
                         min_in == 1 ? "" : "s", c->n_inputs);
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects %u to %u inputs, got %u", op, min_in,
                       max_in, c->n_inputs);
  }
  if (c->n_outputs < 1 || c->n_outputs > max_out)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: expects %u output%s, got %u", op, max_out,
                       max_out == 1 ? "" : "s at most", c->n_outputs);
  return HOLO_OK;
}

holo_status holo_k_check_input(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t want) {
  if (idx >= c->n_inputs || c->inputs[idx].dtype == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is required but absent", op, idx);
  const holo_tensor *t = &c->inputs[idx];
  if (want && t->dtype != want)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: input %u has dtype %s, expected %s", op, idx,
                       holo_k_dtype_name(t->dtype), holo_k_dtype_name(want));
  if (holo_dtype_size(t->dtype) == 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: input %u has unknown dtype %u", op, idx,
                       t->dtype);
  if (t->rank > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u has rank %u, at most %u supported", op,
                       idx, t->rank, (unsigned)HOLO_MAX_RANK);
  for (uint32_t i = 0; i < t->rank; i++)
    if (t->shape[i] < 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u has negative dim %lld at axis %u", op,
                         idx, (long long)t->shape[i], i);
  size_t bytes;
  if (!holo_shape_bytes(t->dtype, t->shape, t->rank, &bytes)) {
    char s[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: input %u of shape %s is too large to address", op,
                       idx, holo_k_shape_str(s, t->shape, t->rank));
  }
  if (t->bytes < bytes || (bytes && !t->data))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u holds %zu bytes, its shape needs %zu", op,
                       idx, t->data ? t->bytes : (size_t)0, bytes);
  return HOLO_OK;
}

holo_status holo_k_set_output(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dtype,
                              uint32_t rank, const int64_t *shape) {
  holo_tensor *y = &c->outputs[idx];
  size_t bytes;
  if (rank > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: output %u would have rank %u, at most %u", op, idx,
                       rank, (unsigned)HOLO_MAX_RANK);
  if (!holo_shape_bytes(dtype, shape, rank, &bytes)) {
    char s[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: output %u of shape %s is too large to address", op,
                       idx, holo_k_shape_str(s, shape, rank));
  }
  y->dtype = dtype;
  y->rank = rank;
  for (uint32_t i = 0; i < HOLO_MAX_RANK; i++) y->shape[i] = i < rank ? shape[i] : 0;
  y->bytes = bytes;
  return HOLO_OK;
}

size_t holo_k_prod(const int64_t *shape, uint32_t from, uint32_t to) {
  size_t n = 1;
  for (uint32_t i = from; i < to; i++) n *= (size_t)shape[i];
  return n;
}

bool holo_k_axis(int64_t axis, uint32_t rank, bool inclusive, uint32_t *out) {
  int64_t r = (int64_t)rank + (inclusive ? 1 : 0);
  if (axis < -(int64_t)rank || axis >= r) return false;
  if (axis < 0) axis += rank;
  *out = (uint32_t)axis;
  return true;
}

bool holo_k_broadcast_shape(const int64_t *a, uint32_t ra, const int64_t *b, uint32_t rb,
                            int64_t *out, uint32_t *rout) {
  uint32_t r = ra > rb ? ra : rb;
  for (uint32_t i = 0; i < r; i++) {
    /* dims aligned from the right; a missing dim acts as 1 */
    int64_t da = i < r - ra ? 1 : a[i - (r - ra)];
    int64_t db = i < r - rb ? 1 : b[i - (r - rb)];
    if (da == db || db == 1) out[i] = da;
    else if (da == 1) out[i] = db;
    else return false;
  }
  *rout = r;
  return true;
}

void holo_k_broadcast_strides(const int64_t *in, uint32_t rin, const int64_t *out, uint32_t rout,
                              int64_t *strides) {
  int64_t s = 1;
  for (int32_t i = (int32_t)rout - 1; i >= 0; i--) {
    int32_t j = i - (int32_t)(rout - rin);
    if (j < 0) {
      strides[i] = 0;
      continue;
    }
    strides[i] = (in[j] == 1 && out[i] != 1) ? 0 : s;
    s *= in[j];
  }
}

void holo_k_strides(const int64_t *shape, uint32_t rank, int64_t *strides) {
  int64_t s = 1;
  for (int32_t i = (int32_t)rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= shape[i];
  }
}

void holo_k_bcast_plan(holo_k_bcast *p, const holo_tensor *a, const holo_tensor *b,
                       const holo_tensor *y) {
  if (y->rank == 0) {
    p->rank = 1;
    p->shape[0] = 1;
    p->sa[0] = p->sb[0] = 0;
  } else {
    p->rank = y->rank;
    for (uint32_t i = 0; i < y->rank; i++) p->shape[i] = y->shape[i];
    holo_k_broadcast_strides(a->shape, a->rank, y->shape, y->rank, p->sa);
    holo_k_broadcast_strides(b->shape, b->rank, y->shape, y->rank, p->sb);
  }
  p->row = (size_t)p->shape[p->rank - 1];
  p->n_rows = holo_k_prod(p->shape, 0, p->rank - 1);
}

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

holo_status holo_k_axis_attr(holo_kernel_call *c, const char *op, uint32_t *axis) {
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", -1);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", op, (long long)a, x->rank);
  return HOLO_OK;
}

holo_status holo_k_axis_op_infer(holo_kernel_call *c, const char *op) {
  holo_status st;
  uint32_t axis;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, op, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, op, 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_axis_attr(c, op, &axis))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, op, 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_gemm_act(holo_kernel_call *c, const char *op, struct holo_gemm *g) {
  const holo_attr *a = holo_attr_find(c, "holo_activation");
  if (!a) return HOLO_OK;
  if (holo_attr_string_is(c, "holo_activation", "Relu")) {
    g->relu = true;
    return HOLO_OK;
  }
  if (holo_attr_string_is(c, "holo_activation", "Clip")) {
    const holo_attr *lo = holo_attr_find(c, "holo_clip_min"), *hi = holo_attr_find(c, "holo_clip_max");
    if ((lo && lo->type != HOLO_ATTR_FLOAT) || (hi && hi->type != HOLO_ATTR_FLOAT))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: holo_clip_min / holo_clip_max must be FLOAT", op);
    g->lo_on = lo != 0;
    g->hi_on = hi != 0;
    g->lo = holo_attr_float(c, "holo_clip_min", 0.0f);
    g->hi = holo_attr_float(c, "holo_clip_max", 0.0f);
    return HOLO_OK;
  }
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                     "%s: holo_activation must be the STRING \"Relu\" or \"Clip\" (the fused activations)",
                     op);
}
