/* TopK (opset 10, 11): the k largest (largest=1) or smallest elements of X
 * along `axis`, values and their i64 indices. X: f32, f64, i32, i64; K: a
 * one-element i64 tensor with 0 <= k <= the axis' size. The order is total,
 * so every path gives the same bytes: by value, NaN beyond +inf (numpy's
 * sort order), ties by the lower index (the spec's rule). `sorted`=0 leaves
 * the order unspecified in the spec; here it is the sorted order too.
 * Small k selects by insertion (n*k), large k merge-sorts the row (n log n,
 * stable); both yield the same sequence. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

typedef struct {
  const void *x;
  uint32_t dt;
  size_t base, inner;
  bool largest;
} topk_row;

/* -1, 0, 1 for element i against j of the row (by value, NaN largest). */
static int cmp_value(const topk_row *r, size_t i, size_t j) {
  size_t a = r->base + i * r->inner, b = r->base + j * r->inner;
  if (r->dt == HOLO_DT_I32 || r->dt == HOLO_DT_I64) {
    int64_t u = holo_k_load_i64(r->x, r->dt, a), v = holo_k_load_i64(r->x, r->dt, b);
    return (u > v) - (u < v);
  }
  double u = holo_k_load_f64(r->x, r->dt, a), v = holo_k_load_f64(r->x, r->dt, b);
  if (u != u || v != v) return (u != u) - (v != v);
  return (u > v) - (u < v);
}

/* True when element i goes before element j in the output. */
static bool before(const topk_row *r, size_t i, size_t j) {
  int c = cmp_value(r, i, j);
  if (c == 0) return i < j;
  return r->largest ? c > 0 : c < 0;
}

static void merge_sort(const topk_row *r, size_t *a, size_t *tmp, size_t n) {
  for (size_t w = 1; w < n; w *= 2)
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo;
      while (i < mid && j < hi)
        tmp[o++] = before(r, a[j], a[i]) ? a[j++] : a[i++];
      while (i < mid)
        tmp[o++] = a[i++];
      while (j < hi)
        tmp[o++] = a[j++];
      for (size_t t = lo; t < hi; t++)
        a[t] = tmp[t];
    }
}

/* The first k of the row's order into sel[0..k). */
static void select_k(const topk_row *r, size_t n, size_t k, size_t *sel, size_t *tmp) {
  if (k == 0) return;
  if (k > 32) {
    for (size_t i = 0; i < n; i++)
      sel[i] = i;
    merge_sort(r, sel, tmp, n);
    return;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m == k && !before(r, i, sel[k - 1])) continue;
    size_t p = m < k ? m++ : k - 1;
    while (p > 0 && before(r, i, sel[p - 1]))
      sel[p] = sel[p - 1], p--;
    sel[p] = i;
  }
}

static holo_status topk_check(holo_kernel_call *c, uint32_t *axis, int64_t *k) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "TopK", 2, 2, 2))) return st;
  if ((st = holo_k_check_input(c, "TopK", 0, 0)) || (st = holo_k_check_input(c, "TopK", 1, HOLO_DT_I64)))
    return st;
  const holo_tensor *x = &c->inputs[0], *kt = &c->inputs[1];
  if (x->dtype != HOLO_DT_F32 && x->dtype != HOLO_DT_F64 && x->dtype != HOLO_DT_I32 &&
      x->dtype != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "TopK: dtype %s is not supported (f32, f64, i32, i64 are)",
                       holo_k_dtype_name(x->dtype));
  if (holo_k_prod(kt->shape, 0, kt->rank) != 1 || kt->rank > 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TopK: K must be a one-element 1-D tensor");
  int64_t a = holo_attr_int(c, "axis", -1), lg = holo_attr_int(c, "largest", 1),
          so = holo_attr_int(c, "sorted", 1);
  if (x->rank == 0 || !holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TopK: axis %lld is out of range for rank %u", (long long)a,
                       x->rank);
  if ((lg != 0 && lg != 1) || (so != 0 && so != 1))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TopK: largest and sorted must be 0 or 1");
  *k = holo_k_load_i64(kt->data, HOLO_DT_I64, 0);
  if (*k < 0 || *k > x->shape[*axis])
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TopK: k = %lld is outside [0, %lld]", (long long)*k,
                       (long long)x->shape[*axis]);
  return HOLO_OK;
}

holo_status holo_k_topk_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  int64_t k;
  holo_k_infer_reset(c);
  if ((st = topk_check(c, &axis, &k))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++)
    ys[i] = i == axis ? k : x->shape[i];
  if ((st = holo_k_set_output(c, "TopK", 0, x->dtype, x->rank, ys))) return st;
  if (c->n_outputs > 1 && (st = holo_k_set_output(c, "TopK", 1, HOLO_DT_I64, x->rank, ys))) return st;
  /* one row's order and the merge buffer */
  c->workspace_bytes = holo_k_mul_sat((uint64_t)x->shape[axis], 2 * sizeof(size_t));
  /* insertion: n * k comparisons per row; the merge sort: n * log2(n) <= 64 n */
  c->work = holo_k_mul_sat(holo_k_prod(x->shape, 0, x->rank), k > 32 ? 64 : (uint64_t)k + 1);
  return HOLO_OK;
}

holo_status holo_k_topk_run(holo_kernel_call *c) {
  uint32_t axis;
  int64_t k64;
  if (topk_check(c, &axis, &k64)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  size_t outer, n, inner, k = (size_t)k64, es = holo_dtype_size(xt->dtype);
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
  size_t *sel = c->workspace, *tmp = sel + n;
  uint8_t *vals = c->outputs[0].data;
  int64_t *idx = c->n_outputs > 1 ? c->outputs[1].data : 0;
  topk_row r = {xt->data, xt->dtype, 0, inner, holo_attr_int(c, "largest", 1) == 1};
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      r.base = o * n * inner + in;
      select_k(&r, n, k, sel, tmp);
      for (size_t t = 0; t < k; t++) {
        size_t dst = (o * k + t) * inner + in, src = r.base + sel[t] * inner;
        for (size_t b = 0; b < es; b++)
          vals[dst * es + b] = ((const uint8_t *)xt->data)[src * es + b];
        if (idx) idx[dst] = (int64_t)sel[t];
      }
    }
  return HOLO_OK;
}
