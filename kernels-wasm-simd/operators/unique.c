/* Unique (opset 11) as two kernels, so that the data-dependent output
 * shape is counted in O(n) by infer instead of sorted there (infer has no
 * scratch memory):
 *  - holo.UniqueOrder(X): i64 [n], the slices of X (its elements when the
 *    `axis` attribute is absent, else the n = X.shape[axis] slices along
 *    axis, each read in row-major order) sorted ascending by a stable merge
 *    sort, so equal slices keep their order of appearance;
 *  - Unique(X, order): the four ONNX outputs Y (the distinct slices,
 *    ascending when sorted = 1, else in order of first appearance),
 *    indices (each one's first index in X), inverse_indices (for each
 *    slice of X, its position in Y) and counts, all but Y i64.
 * X is any numeric dtype or bool. Elements compare as numbers: -0 equals
 * 0 (Y keeps the first occurrence's bytes), NaN equals NaN and sorts after
 * every number, as numpy's unique (equal_nan) does; onnxruntime leaves NaN
 * unspecified. infer checks that `order` is a sorted permutation index. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

typedef struct {
  const holo_tensor *x;
  size_t outer, n, inner, es;
  uint32_t axis;
} uq_view;

static holo_status uq_view_of(holo_kernel_call *c, const char *op, uq_view *v) {
  const holo_tensor *x = &c->inputs[0];
  if (!holo_k_numeric(x->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported", op,
                       holo_k_dtype_name(x->dtype));
  v->x = x;
  v->es = holo_dtype_size(x->dtype);
  if (!holo_attr_find(c, "axis")) {
    v->outer = v->inner = 1;
    v->n = holo_k_prod(x->shape, 0, x->rank);
    return HOLO_OK;
  }
  uint32_t a;
  if (!holo_k_axis(holo_attr_int(c, "axis", 0), x->rank, false, &a))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axis %lld is out of range for rank %u", op,
                       (long long)holo_attr_int(c, "axis", 0), x->rank);
  v->axis = a;
  holo_k_axis_split(x, a, &v->outer, &v->n, &v->inner);
  return HOLO_OK;
}

static int uq_cmp_elem(const holo_tensor *x, size_t i, size_t j) {
  if (holo_k_is_float(x->dtype)) {
    double a = holo_k_load_f64(x->data, x->dtype, i), b = holo_k_load_f64(x->data, x->dtype, j);
    bool na = a != a, nb = b != b;
    if (na || nb) return (int)na - (int)nb;
    return (a > b) - (a < b);
  }
  if (x->dtype == HOLO_DT_U64) {
    uint64_t a = ((const uint64_t *)x->data)[i], b = ((const uint64_t *)x->data)[j];
    return (a > b) - (a < b);
  }
  int64_t a = holo_k_load_i64(x->data, x->dtype, i), b = holo_k_load_i64(x->data, x->dtype, j);
  return (a > b) - (a < b);
}

/* Slices i and j, lexicographically. */
static int uq_cmp(const uq_view *v, size_t i, size_t j) {
  for (size_t o = 0; o < v->outer; o++)
    for (size_t k = 0; k < v->inner; k++) {
      int r = uq_cmp_elem(v->x, (o * v->n + i) * v->inner + k, (o * v->n + j) * v->inner + k);
      if (r) return r;
    }
  return 0;
}

holo_status holo_k_uniqueorder_infer(holo_kernel_call *c) {
  holo_status st;
  uq_view v;
  if ((st = holo_k_infer_begin(c, "holo.UniqueOrder", 1, 1, 1)) ||
      (st = holo_k_check_input(c, "holo.UniqueOrder", 0, 0)) || (st = uq_view_of(c, "holo.UniqueOrder", &v)))
    return st;
  int64_t n = (int64_t)v.n;
  uint64_t ws = holo_k_mul_sat(v.n, sizeof(int64_t));
  if (ws > (uint64_t)SIZE_MAX / 2)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "holo.UniqueOrder: %zu slices need too much scratch", v.n);
  c->workspace_bytes = (size_t)ws;
  /* a merge sort: n log n slice comparisons */
  uint64_t lg = 1;
  while (((uint64_t)1 << lg) < v.n)
    lg++;
  uint64_t f[3] = {v.n, lg, v.outer * v.inner};
  c->work = holo_k_work(3, f);
  return holo_k_set_output(c, "holo.UniqueOrder", 0, HOLO_DT_I64, 1, &n);
}

holo_status holo_k_uniqueorder_run(holo_kernel_call *c) {
  uq_view v;
  if (uq_view_of(c, "holo.UniqueOrder", &v)) return HOLO_ERR_KERNEL;
  int64_t *a = c->outputs[0].data, *b = c->workspace;
  for (size_t i = 0; i < v.n; i++)
    a[i] = (int64_t)i;
  /* bottom-up merge sort; `<=` on the left run keeps it stable */
  for (size_t w = 1; w < v.n; w *= 2) {
    for (size_t lo = 0; lo < v.n; lo += 2 * w) {
      size_t mid = lo + w < v.n ? lo + w : v.n, hi = lo + 2 * w < v.n ? lo + 2 * w : v.n;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        b[k++] = uq_cmp(&v, (size_t)a[i], (size_t)a[j]) <= 0 ? a[i++] : a[j++];
      while (i < mid)
        b[k++] = a[i++];
      while (j < hi)
        b[k++] = a[j++];
    }
    int64_t *t = a;
    a = b;
    b = t;
  }
  if (a != c->outputs[0].data)
    for (size_t i = 0; i < v.n; i++)
      ((int64_t *)c->outputs[0].data)[i] = a[i];
  return HOLO_OK;
}

/* The checks of Unique(X, order); *u gets the number of distinct slices. */
static holo_status uq_check(holo_kernel_call *c, uq_view *v, size_t *u) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Unique", 2, 2, 4)) || (st = holo_k_check_input(c, "Unique", 0, 0)) ||
      (st = holo_k_check_input(c, "Unique", 1, HOLO_DT_I64)) || (st = uq_view_of(c, "Unique", v)))
    return st;
  int64_t s = holo_attr_int(c, "sorted", -1);
  if (s != 0 && s != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "Unique: sorted must be 0 or 1");
  const holo_tensor *ord = &c->inputs[1];
  if (ord->rank != 1 || (size_t)ord->shape[0] != v->n)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Unique: the order input must be i64 [%zu]", v->n);
  const int64_t *o = ord->data;
  *u = v->n ? 1 : 0;
  for (size_t k = 0; k < v->n; k++) {
    if (o[k] < 0 || (uint64_t)o[k] >= v->n)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Unique: order index %lld is out of range", (long long)o[k]);
    if (k == 0) continue;
    int r = uq_cmp(v, (size_t)o[k - 1], (size_t)o[k]);
    if (r > 0 || (r == 0 && o[k - 1] >= o[k]))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Unique: the order input is not a stable ascending order of X");
    *u += r != 0;
  }
  return HOLO_OK;
}

holo_status holo_k_unique_infer(holo_kernel_call *c) {
  holo_status st;
  uq_view v;
  size_t u;
  holo_k_infer_reset(c);
  if ((st = uq_check(c, &v, &u))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK], un = (int64_t)u, nn = (int64_t)v.n;
  uint32_t r = 1;
  ys[0] = un;
  if (holo_attr_find(c, "axis")) {
    r = x->rank;
    for (uint32_t i = 0; i < r; i++)
      ys[i] = i == v.axis ? un : x->shape[i];
  }
  if ((st = holo_k_set_output(c, "Unique", 0, x->dtype, r, ys))) return st;
  for (uint32_t k = 1; k < c->n_outputs; k++)
    if ((st = holo_k_set_output(c, "Unique", k, HOLO_DT_I64, 1, k == 2 ? &nn : &un))) return st;
  uint64_t ws = holo_k_mul_sat((uint64_t)v.n + 3 * (uint64_t)u, sizeof(int64_t));
  if (ws > (uint64_t)SIZE_MAX / 2)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "Unique: %zu slices need too much scratch", v.n);
  c->workspace_bytes = (size_t)ws;
  uint64_t f[2] = {v.n, v.outer * v.inner};
  c->work = holo_k_work(2, f);
  return HOLO_OK;
}

holo_status holo_k_unique_run(holo_kernel_call *c) {
  uq_view v;
  size_t u;
  if (uq_check(c, &v, &u)) return HOLO_ERR_KERNEL;
  const int64_t *o = c->inputs[1].data;
  int64_t *grp = c->workspace, *first = grp + v.n, *cnt = first + u, *pos = cnt + u;
  /* groups in sorted order; the first member of each is its first occurrence (the sort is stable) */
  size_t g = 0;
  for (size_t k = 0; k < v.n; k++) {
    bool fresh = k == 0 || uq_cmp(&v, (size_t)o[k - 1], (size_t)o[k]) != 0;
    if (fresh && k) g++;
    if (fresh) first[g] = o[k], cnt[g] = 0;
    grp[o[k]] = (int64_t)g;
    cnt[g]++;
  }
  /* a group's place in Y: its sorted rank, or (sorted = 0) its rank by first occurrence */
  bool sorted = holo_attr_int(c, "sorted", 1) == 1;
  for (size_t h = 0, r = 0; h < (sorted ? u : v.n); h++) {
    if (sorted)
      pos[h] = (int64_t)h;
    else if (first[grp[h]] == (int64_t)h)
      pos[grp[h]] = (int64_t)r++;
  }
  holo_tensor *y = &c->outputs[0];
  int64_t *idx = c->n_outputs > 1 ? c->outputs[1].data : 0, *inv = c->n_outputs > 2 ? c->outputs[2].data : 0;
  int64_t *cts = c->n_outputs > 3 ? c->outputs[3].data : 0;
  for (size_t i = 0; inv && i < v.n; i++)
    inv[i] = pos[grp[i]];
  for (size_t h = 0; h < u; h++) {
    size_t p = (size_t)pos[h];
    if (idx) idx[p] = first[h];
    if (cts) cts[p] = cnt[h];
    for (size_t oo = 0; oo < v.outer; oo++) {
      const uint8_t *src = (const uint8_t *)v.x->data + ((oo * v.n + (size_t)first[h]) * v.inner) * v.es;
      uint8_t *dst = (uint8_t *)y->data + ((oo * u + p) * v.inner) * v.es;
      for (size_t b = 0; b < v.inner * v.es; b++)
        dst[b] = src[b];
    }
  }
  return HOLO_OK;
}
