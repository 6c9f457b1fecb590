/* Slice (opset 13): data of any dtype; starts, ends (input 1, 2) and the
 * optional axes, steps (input 3, 4) are 1-D i32/i64 of one length. Starts
 * and ends are clamped as the spec says ([0, d] for a positive step,
 * [0, d-1] and [-1, d-1] for a negative one, after adding d to negatives);
 * a step of 0 and repeated axes are refused. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

typedef struct slice_plan {
  int64_t start[HOLO_MAX_RANK], step[HOLO_MAX_RANK], count[HOLO_MAX_RANK];
} slice_plan;

static holo_status slice_plan_make(holo_kernel_call *c, slice_plan *p) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Slice", 3, 5, 1))) return st;
  if ((st = holo_k_check_input(c, "Slice", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t starts[HOLO_MAX_RANK], ends[HOLO_MAX_RANK], axes[HOLO_MAX_RANK], steps[HOLO_MAX_RANK];
  uint32_t ns, ne, na, nt;
  if ((st = holo_k_read_ints(c, "Slice", 1, "starts", starts, HOLO_MAX_RANK, &ns))) return st;
  if ((st = holo_k_read_ints(c, "Slice", 2, "ends", ends, HOLO_MAX_RANK, &ne))) return st;
  if (ns != ne)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Slice: starts has %u values, ends %u", ns, ne);
  if (!holo_k_absent(c, 3)) {
    if ((st = holo_k_read_ints(c, "Slice", 3, "axes", axes, HOLO_MAX_RANK, &na))) return st;
    if (na != ns)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Slice: axes has %u values, starts %u", na, ns);
  } else {
    if (ns > x->rank)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Slice: %u starts for an input of rank %u", ns,
                         x->rank);
    for (uint32_t i = 0; i < ns; i++) axes[i] = i;
  }
  if (!holo_k_absent(c, 4)) {
    if ((st = holo_k_read_ints(c, "Slice", 4, "steps", steps, HOLO_MAX_RANK, &nt))) return st;
    if (nt != ns)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Slice: steps has %u values, starts %u", nt, ns);
  } else {
    for (uint32_t i = 0; i < ns; i++) steps[i] = 1;
  }
  uint32_t mask;
  if ((st = holo_k_axes_mask(c, "Slice", axes, ns, x->rank, &mask))) return st;
  for (uint32_t a = 0; a < x->rank; a++) {
    p->start[a] = 0;
    p->step[a] = 1;
    p->count[a] = x->shape[a];
  }
  for (uint32_t i = 0; i < ns; i++) {
    uint32_t a;
    holo_k_axis(axes[i], x->rank, false, &a);
    int64_t d = x->shape[a], s = steps[i], b = starts[i], e = ends[i];
    if (s == 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "Slice: step 0 on axis %u", a);
    if (b < 0) b += d;
    if (e < 0) e += d;
    int64_t cnt;
    if (s > 0) {
      b = b < 0 ? 0 : b > d ? d : b;
      e = e < 0 ? 0 : e > d ? d : e;
      cnt = e > b ? (e - b - 1) / s + 1 : 0;
    } else {
      b = b < 0 ? 0 : b > d - 1 ? d - 1 : b;
      e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
      /* -s cannot overflow here unless s is INT64_MIN: then at most one element */
      cnt = b > e ? (s == INT64_MIN ? 1 : (b - e - 1) / -s + 1) : 0;
    }
    p->start[a] = b;
    p->step[a] = cnt > 1 ? s : 1; /* with 2+ elements |s| < d: no overflow in run */
    p->count[a] = cnt;
  }
  return HOLO_OK;
}

holo_status holo_k_slice_infer(holo_kernel_call *c) {
  holo_status st;
  slice_plan p;
  holo_k_infer_reset(c);
  if ((st = slice_plan_make(c, &p))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Slice", 0, x->dtype, x->rank, p.count);
}

holo_status holo_k_slice_run(holo_kernel_call *c) {
  slice_plan p;
  if (slice_plan_make(c, &p)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  uint32_t r = xt->rank;
  size_t es = holo_dtype_size(xt->dtype), n = holo_k_prod(p.count, 0, r);
  if (n == 0) return HOLO_OK;
  int64_t xs[HOLO_MAX_RANK], st[HOLO_MAX_RANK], idx[HOLO_MAX_RANK] = {0};
  holo_k_strides(xt->shape, r, xs);
  /* offset (in elements) of the current output element, and its step along
   * each axis; steps may be negative */
  int64_t start = 0;
  for (uint32_t a = 0; a < r; a++) {
    start += p.start[a] * xs[a];
    st[a] = p.step[a] * xs[a];
  }
  size_t off = (size_t)start;
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  if (r > 0 && p.step[r - 1] == 1) {
    /* unit step on the last axis: whole runs of count[r-1] elements are
     * contiguous in X and in Y, copied as blocks (pure data movement: the
     * bytes are the element loop's) */
    const size_t run = (size_t)p.count[r - 1], rb = run * es;
    for (size_t i = 0; i < n; i += run) {
      __builtin_memcpy(y + i * es, x + off * es, rb);
      holo_k_next_offset(idx, p.count, st, r - 1, &off);
    }
    return HOLO_OK;
  }
  /* a scalar (rank 0) is one element at offset 0 */
  for (size_t i = 0; i < n; i++) {
    const uint8_t *src = x + off * es;
    for (size_t b = 0; b < es; b++) y[i * es + b] = src[b];
    holo_k_next_offset(idx, p.count, st, r, &off);
  }
  return HOLO_OK;
}
