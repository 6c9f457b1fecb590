/* TfIdfVectorizer (opset 9) over an integer pool (pool_int64s): X is i32 or
 * i64, [C] or [N, C]; Y is f32, [K] or [N, K] with K = max(ngram_indexes)+1.
 *
 * Counting follows onnxruntime's trie walk, restated without the trie (a
 * k-gram can only be in the pool if its prefixes are, so walking every k
 * finds the same matches): for each skip distance d = 1 .. max_skip_count+1
 * and each start s, the k-grams x[s], x[s+d], ..., x[s+d(k-1)] for k in
 * [min_gram_length, max_gram_length] that fit in the row are looked up; a
 * hit counts once at ngram_indexes[id]. Unigrams do not depend on d, so
 * they are counted in the first pass only (from the second pass on, k
 * starts at 2). Pool n-gram ids run over the levels of ngram_counts in
 * order (level l holds (l+1)-grams), whatever gram lengths are selected.
 * Lookup is a binary search over the selected pool n-grams, sorted in run's
 * workspace (merge sort: deterministic, O(P log P)).
 *
 * Modes, per hit of pool n-gram id at output o = ngram_indexes[id]: TF
 * adds 1 to y[o]; IDF sets y[o] = weights[id] (1 without weights); TFIDF
 * adds weights[id] (1). weights are per pool n-gram, as the spec says and
 * onnxruntime-node 1.30 reads them (older onnxruntime read weights[o]).
 * A pool_strings vectorizer needs string tensors and is refused by name. */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

enum { TF_TF, TF_IDF, TF_TFIDF };

typedef struct tfidf_cfg {
  const holo_attr *pool, *counts, *indexes, *weights;
  int64_t min_n, max_n, skip;
  int mode;
  size_t rows, cols, n_grams, out_size, selected;
} tfidf_cfg;

static int64_t rd_at(const holo_attr *a, size_t i) { return holo__rd_i64(a->payload + 8u * i); }

/* Level l's pool range [*b, *e) and its (l+1)-gram count. */
static void level_range(const tfidf_cfg *g, uint32_t l, size_t *b, size_t *e) {
  *b = (size_t)rd_at(g->counts, l);
  *e = l + 1 < g->counts->count ? (size_t)rd_at(g->counts, l + 1) : g->pool->count;
}

static holo_status check_levels(holo_kernel_call *c, tfidf_cfg *g) {
  size_t total = 0, selected = 0, prev = 0;
  for (uint32_t l = 0; l < g->counts->count; l++) {
    int64_t v = rd_at(g->counts, l);
    if (v < (int64_t)prev || v > (int64_t)g->pool->count)
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "TfIdfVectorizer: ngram_counts[%u] = %lld is out of order or past the pool (%u)", l,
                         (long long)v, g->pool->count);
    prev = (size_t)v;
    size_t b, e;
    level_range(g, l, &b, &e);
    if ((e - b) % (l + 1))
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "TfIdfVectorizer: level %u holds %zu items, not a multiple of its gram length %u", l,
                         e - b, l + 1);
    total += (e - b) / (l + 1);
    if ((int64_t)l + 1 >= g->min_n && (int64_t)l + 1 <= g->max_n) selected += (e - b) / (l + 1);
  }
  if (total != g->indexes->count)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "TfIdfVectorizer: the pool holds %zu n-grams but ngram_indexes has %u", total,
                       g->indexes->count);
  g->n_grams = total;
  g->selected = selected;
  return HOLO_OK;
}

static holo_status check_attrs(holo_kernel_call *c, tfidf_cfg *g) {
  g->counts = holo_attr_find(c, "ngram_counts");
  g->indexes = holo_attr_find(c, "ngram_indexes");
  g->pool = holo_attr_find(c, "pool_int64s");
  g->weights = holo_attr_find(c, "weights");
  if (holo_attr_find(c, "pool_strings"))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                       "TfIdfVectorizer: pool_strings needs string tensors, which are not supported");
  if (!g->counts || g->counts->type != HOLO_ATTR_INTS || !g->indexes || g->indexes->type != HOLO_ATTR_INTS ||
      !g->pool || g->pool->type != HOLO_ATTR_INTS)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "TfIdfVectorizer: ngram_counts, ngram_indexes and pool_int64s (ints) are required");
  if (g->weights && g->weights->type != HOLO_ATTR_FLOATS)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: weights must be floats");
  g->min_n = holo_attr_int(c, "min_gram_length", 0);
  g->max_n = holo_attr_int(c, "max_gram_length", 0);
  g->skip = holo_attr_int(c, "max_skip_count", 0);
  if (g->min_n < 1 || g->max_n < g->min_n || g->max_n > 0x10000 || g->skip < 0 || g->skip > 0x1000000)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "TfIdfVectorizer: need 1 <= min_gram_length (%lld) <= max_gram_length (%lld), 0 <= "
                       "max_skip_count (%lld)",
                       (long long)g->min_n, (long long)g->max_n, (long long)g->skip);
  if (holo_attr_string_is(c, "mode", "TF"))
    g->mode = TF_TF;
  else if (holo_attr_string_is(c, "mode", "IDF"))
    g->mode = TF_IDF;
  else if (holo_attr_string_is(c, "mode", "TFIDF"))
    g->mode = TF_TFIDF;
  else
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: mode must be TF, IDF or TFIDF");
  holo_status st = check_levels(c, g);
  if (st) return st;
  int64_t mx = -1;
  for (size_t i = 0; i < g->indexes->count; i++) {
    int64_t v = rd_at(g->indexes, i);
    if (v < 0 || v >= 0x40000000)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: ngram_indexes[%zu] = %lld is out of range", i,
                         (long long)v);
    mx = v > mx ? v : mx;
  }
  if (mx < 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: ngram_indexes is empty");
  g->out_size = (size_t)mx + 1;
  if (g->weights && g->weights->count != g->indexes->count)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: %u weights for %u n-grams (ngram_indexes)",
                       g->weights->count, g->indexes->count);
  return HOLO_OK;
}

static holo_status tfidf_check(holo_kernel_call *c, tfidf_cfg *g) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "TfIdfVectorizer", 1, 1, 1)) ||
      (st = holo_k_check_input(c, "TfIdfVectorizer", 0, 0)))
    return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->dtype != HOLO_DT_I32 && x->dtype != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "TfIdfVectorizer: input dtype %s is not supported (i32, i64)",
                       holo_k_dtype_name(x->dtype));
  if (x->rank != 1 && x->rank != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: input must be [C] or [N, C], got rank %u",
                       x->rank);
  g->rows = x->rank == 2 ? (size_t)x->shape[0] : 1;
  g->cols = (size_t)x->shape[x->rank - 1];
  return check_attrs(c, g);
}

holo_status holo_k_tfidfvectorizer_infer(holo_kernel_call *c) {
  tfidf_cfg g;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = tfidf_check(c, &g))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[2] = {x->shape[0], (int64_t)g.out_size};
  if (x->rank == 1) ys[0] = (int64_t)g.out_size;
  /* per selected pool n-gram: sorted order, merge buffer, length, offset, id */
  c->workspace_bytes = 5 * g.selected * sizeof(uint32_t);
  /* lookups x compares per lookup, plus the sort; saturating */
  uint64_t lg = 1, span = (uint64_t)g.cols + 1;
  while ((1ull << lg) < g.selected + 1)
    lg++;
  uint64_t f[6] = {g.rows ? g.rows : 1,
                   span,
                   (uint64_t)g.skip + 1 < span ? (uint64_t)g.skip + 1 : span,
                   (uint64_t)g.max_n < span ? (uint64_t)g.max_n : span,
                   (uint64_t)g.max_n < span ? (uint64_t)g.max_n : span,
                   lg};
  uint64_t w = 1;
  /* by bit lengths: a checked 64-bit multiply needs __multi3 on wasm32 */
  for (int i = 0; i < 6 && w != UINT64_MAX; i++)
    w = 64 - __builtin_clzll(w) + 64 - __builtin_clzll(f[i]) >= 63 ? UINT64_MAX : w * f[i];
  c->work = w;
  return holo_k_set_output(c, "TfIdfVectorizer", 0, HOLO_DT_F32, x->rank, ys);
}

/* ---- the sorted pool: entry e has gram length len[e], pool offset off[e]
 * and n-gram id id[e]; entries compare by length, then lexicographically. */

typedef struct pool_view {
  const tfidf_cfg *g;
  uint32_t *len, *off; /* per selected entry */
  uint32_t *id;
} pool_view;

static int cmp_entries(const pool_view *p, uint32_t a, uint32_t b) {
  if (p->len[a] != p->len[b]) return p->len[a] < p->len[b] ? -1 : 1;
  for (uint32_t k = 0; k < p->len[a]; k++) {
    int64_t u = rd_at(p->g->pool, p->off[a] + k), v = rd_at(p->g->pool, p->off[b] + k);
    if (u != v) return u < v ? -1 : 1;
  }
  return 0;
}

static void merge_sort(const pool_view *p, uint32_t *a, uint32_t *tmp, size_t n) {
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = cmp_entries(p, a[j], a[i]) < 0 ? a[j++] : a[i++];
      while (i < mid)
        tmp[k++] = a[i++];
      while (j < hi)
        tmp[k++] = a[j++];
    }
    for (size_t i = 0; i < n; i++)
      a[i] = tmp[i];
  }
}

/* Key: the k items of x at s, s+d, ...; returns the entry whose gram equals it, or -1. */
static int64_t find_gram(const pool_view *p, const uint32_t *sorted, size_t n, const holo_tensor *x,
                         size_t base, size_t s, size_t d, uint32_t k) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t m = lo + (hi - lo) / 2;
    uint32_t e = sorted[m];
    int c = p->len[e] < k ? -1 : p->len[e] > k ? 1 : 0;
    for (uint32_t j = 0; c == 0 && j < k; j++) {
      size_t at = base + s + d * j;
      int64_t xv = x->dtype == HOLO_DT_I32 ? ((const int32_t *)x->data)[at] : ((const int64_t *)x->data)[at];
      int64_t pv = rd_at(p->g->pool, p->off[e] + j);
      c = pv < xv ? -1 : pv > xv ? 1 : 0;
    }
    if (c == 0) return e;
    if (c < 0)
      lo = m + 1;
    else
      hi = m;
  }
  return -1;
}

/* One hit of n-gram id: onnxruntime 1.30 applies the weight at each hit,
 * in this walk's order, so repeated float sums and a later IDF hit on a
 * shared output index come out as its do. */
static void hit(const tfidf_cfg *g, uint32_t id, float *y) {
  float *o = &y[rd_at(g->indexes, id)];
  float w = g->weights ? holo__rd_f32(g->weights->payload + 4u * id) : 1.0f;
  if (g->mode == TF_TF)
    *o += 1.0f;
  else if (g->mode == TF_IDF)
    *o = w;
  else
    *o += w;
}

static void walk_row(const pool_view *p, const uint32_t *sorted, const holo_tensor *x, size_t row, float *y) {
  const tfidf_cfg *g = p->g;
  const size_t C = g->cols, base = row * C;
  size_t start_n = (size_t)g->min_n;
  for (size_t i = 0; i < g->out_size; i++)
    y[i] = 0.0f;
  for (size_t d = 1; d <= (size_t)g->skip + 1; d++) {
    for (size_t s = 0; s < C; s++) {
      if (s + d * (start_n - 1) >= C) break;
      for (size_t k = start_n; k <= (size_t)g->max_n && s + d * (k - 1) < C; k++) {
        int64_t e = find_gram(p, sorted, g->selected, x, base, s, d, (uint32_t)k);
        if (e >= 0) hit(g, p->id[e], y);
      }
    }
    if (start_n == 1 && ++start_n > (size_t)g->max_n) break;
  }
}

/* Fills the selected entries' length/offset/id tables; returns a duplicate
 * gram's id + 1 after sorting, 0 when all are distinct. */
static size_t build_pool(pool_view *p, uint32_t *sorted, uint32_t *tmp) {
  const tfidf_cfg *g = p->g;
  size_t n = 0, id = 0;
  for (uint32_t l = 0; l < g->counts->count; l++) {
    size_t b, e;
    level_range(g, l, &b, &e);
    for (size_t o = b; o < e; o += l + 1, id++) {
      if ((int64_t)l + 1 < g->min_n || (int64_t)l + 1 > g->max_n) continue;
      p->len[n] = l + 1, p->off[n] = (uint32_t)o, p->id[n] = (uint32_t)id, sorted[n] = (uint32_t)n;
      n++;
    }
  }
  merge_sort(p, sorted, tmp, n);
  for (size_t i = 1; i < n; i++)
    if (cmp_entries(p, sorted[i - 1], sorted[i]) == 0) return p->id[sorted[i]] + 1;
  return 0;
}

holo_status holo_k_tfidfvectorizer_run(holo_kernel_call *c) {
  tfidf_cfg g;
  if (tfidf_check(c, &g)) return HOLO_ERR_KERNEL;
  const size_t n = g.selected;
  uint32_t *ws = c->workspace, *sorted = ws, *tmp = ws + n;
  pool_view p = {.g = &g, .len = ws + 2 * n, .off = ws + 3 * n, .id = ws + 4 * n};
  size_t dup = build_pool(&p, sorted, tmp);
  if (dup)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "TfIdfVectorizer: n-gram %zu of the pool is a duplicate", dup - 1);
  float *y = c->outputs[0].data;
  for (size_t r = 0; r < g.rows; r++)
    walk_row(&p, sorted, &c->inputs[0], r, y + r * g.out_size);
  return HOLO_OK;
}
