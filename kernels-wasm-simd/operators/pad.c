/* Pad (opset 18): data of any dtype; pads (input 1, i32/i64, 2 values per
 * padded axis: all begins then all ends; negative values crop); the
 * optional constant_value (input 2, a scalar of data's dtype, default 0)
 * and axes (input 3); attribute mode "constant" | "reflect" | "edge" |
 * "wrap". reflect mirrors without repeating the edge and, like numpy,
 * keeps reflecting when a pad exceeds the axis; edge, reflect and wrap
 * refuse to pad an empty axis. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

enum { M_CONSTANT, M_REFLECT, M_EDGE, M_WRAP };

typedef struct pad_plan {
  int mode;
  int64_t begin[HOLO_MAX_RANK], out[HOLO_MAX_RANK];
} pad_plan;

static holo_status pad_plan_make(holo_kernel_call *c, pad_plan *p) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Pad", 2, 4, 1))) return st;
  if ((st = holo_k_check_input(c, "Pad", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  uint32_t r = x->rank;
  const holo_attr *ma = holo_attr_find(c, "mode");
  if (!ma || holo_attr_string_is(c, "mode", "constant")) p->mode = M_CONSTANT;
  else if (holo_attr_string_is(c, "mode", "reflect")) p->mode = M_REFLECT;
  else if (holo_attr_string_is(c, "mode", "edge")) p->mode = M_EDGE;
  else if (holo_attr_string_is(c, "mode", "wrap")) p->mode = M_WRAP;
  else return holo_k_fail(c, HOLO_ERR_KERNEL, "Pad: unknown mode");
  int64_t pads[2 * HOLO_MAX_RANK], axes[HOLO_MAX_RANK];
  uint32_t np, na;
  if ((st = holo_k_read_ints(c, "Pad", 1, "pads", pads, 2 * HOLO_MAX_RANK, &np))) return st;
  if (c->n_inputs > 3 && !holo_k_absent(c, 3)) {
    if ((st = holo_k_read_ints(c, "Pad", 3, "axes", axes, HOLO_MAX_RANK, &na))) return st;
  } else {
    na = r;
    for (uint32_t i = 0; i < r; i++) axes[i] = i;
  }
  if (np != 2 * na)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Pad: pads has %u values, expected %u", np, 2 * na);
  uint32_t mask;
  if ((st = holo_k_axes_mask(c, "Pad", axes, na, r, &mask))) return st;
  if (c->n_inputs > 2 && !holo_k_absent(c, 2)) {
    if ((st = holo_k_check_input(c, "Pad", 2, x->dtype))) return st;
    const holo_tensor *v = &c->inputs[2];
    if (holo_k_prod(v->shape, 0, v->rank) != 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Pad: constant_value must hold one value");
  }
  for (uint32_t a = 0; a < r; a++) {
    p->begin[a] = 0;
    p->out[a] = x->shape[a];
  }
  for (uint32_t i = 0; i < na; i++) {
    uint32_t a;
    holo_k_axis(axes[i], r, false, &a);
    int64_t b = pads[i], e = pads[i + na], d = x->shape[a];
    const int64_t LIM = (int64_t)1 << 40;
    if (b < -LIM || b > LIM || e < -LIM || e > LIM)
      return holo_k_fail(c, HOLO_ERR_LIMIT, "Pad: pads on axis %u are out of range", a);
    if (d + b + e < 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Pad: pads %lld, %lld crop axis %u of size %lld below 0",
                         (long long)b, (long long)e, a, (long long)d);
    if (p->mode != M_CONSTANT && d == 0 && (b > 0 || e > 0))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Pad: cannot pad the empty axis %u in this mode", a);
    p->begin[a] = b;
    p->out[a] = d + b + e;
  }
  return HOLO_OK;
}

holo_status holo_k_pad_infer(holo_kernel_call *c) {
  holo_status st;
  pad_plan p;
  holo_k_infer_reset(c);
  if ((st = pad_plan_make(c, &p))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Pad", 0, x->dtype, x->rank, p.out);
}

/* input coordinate for output coordinate o along an axis of size d; -1 for padding */
static int64_t pad_src(int mode, int64_t o, int64_t begin, int64_t d) {
  int64_t i = o - begin;
  if (i >= 0 && i < d) return i;
  switch (mode) {
  case M_CONSTANT: return -1;
  case M_EDGE: return i < 0 ? 0 : d - 1;
  case M_WRAP: {
    int64_t m = i % d;
    return m < 0 ? m + d : m;
  }
  default: { /* reflect, period 2(d-1) */
    if (d == 1) return 0;
    int64_t per = 2 * (d - 1), m = i % per;
    if (m < 0) m += per;
    return m < d ? m : per - m;
  }
  }
}

holo_status holo_k_pad_run(holo_kernel_call *c) {
  pad_plan p;
  if (pad_plan_make(c, &p)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  uint32_t r = xt->rank;
  size_t es = holo_dtype_size(xt->dtype), n = holo_k_prod(p.out, 0, r);
  if (n == 0) return HOLO_OK;
  uint8_t zero[8] = {0};
  const uint8_t *val = zero;
  if (c->n_inputs > 2 && !holo_k_absent(c, 2)) val = c->inputs[2].data;
  int64_t xs[HOLO_MAX_RANK], idx[HOLO_MAX_RANK] = {0};
  holo_k_strides(xt->shape, r, xs);
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  for (size_t i = 0; i < n; i++) {
    int64_t off = 0;
    bool pad = false;
    for (uint32_t a = 0; a < r; a++) {
      int64_t s = pad_src(p.mode, idx[a], p.begin[a], xt->shape[a]);
      if (s < 0) {
        pad = true;
        break;
      }
      off += s * xs[a];
    }
    const uint8_t *src = pad ? val : x + (size_t)off * es;
    for (size_t b = 0; b < es; b++) y[i * es + b] = src[b];
    holo_k_next_index(idx, p.out, r);
  }
  return HOLO_OK;
}
