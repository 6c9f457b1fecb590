/* Loop (docs/holo-format.md §4a): iterations of the body graph while the
 * trip count and the condition allow, under an iteration budget; carried
 * values handed on by entry (their labels), scan outputs stacked into one
 * value whose label derives from the parts' labels. */
#include "session-impl.h"

/* A loop that never ends fails here instead of hanging the host. */
#define LOOP_MAX_ITERATIONS (1u << 16)

typedef struct loop_state {
  uint32_t n_carried, n_scan;
  holo_entry **cur;   /* n_carried + 1: cond, carried values; held */
  holo_entry **parts; /* n_scan x cap: the iterations' scan values; held */
  uint32_t cap, iters;
} loop_state;

static void hold(holo_session *s, holo_entry *e) {
  if (e && holo__s_counted(e)) holo_arena_live_inc(&s->arena, e);
}
static void drop(holo_session *s, holo_entry *e) {
  if (e && holo__s_counted(e)) holo_arena_live_dec(&s->arena, e);
}

/* A scalar of the given content (the iteration number, an absent cond),
 * content-labelled like any input. */
static holo_status scalar_entry(holo_session *s, uint32_t dtype, int64_t v, holo_entry **out,
                                holo_error *err) {
  uint8_t b[8];
  holo_put_i64le(b, v);
  size_t es = holo_dtype_size(dtype);
  holo_digest d;
  if (dtype == HOLO_DT_I64 && v >= 0 && v < 64) {
    if (!(s->iter_known >> v & 1)) {
      holo_content_digest(dtype, 0, 0, b, es, &s->iter_digest[v]);
      s->iter_known |= (uint64_t)1 << v;
    }
    d = s->iter_digest[v];
  } else {
    holo_content_digest(dtype, 0, 0, b, es, &d);
  }
  holo_entry *e = holo_arena_find(&s->arena, &d);
  if (!e) {
    holo_buf *buf;
    holo_status st = holo_arena_alloc(&s->arena, es, false, &buf, err);
    if (st) return st;
    holo_memcpy(buf->data, b, es);
    st = holo_arena_insert(&s->arena, &d, buf, dtype, 0, 0, false, &e, err);
    holo_arena_unref(&s->arena, buf);
    if (st) return st;
  }
  *out = e;
  return HOLO_OK;
}

static holo_status grow_parts(holo_session *s, loop_state *L, holo_error *err) {
  uint32_t cap = L->cap ? 2 * L->cap : 16;
  holo_entry **p = holo__s_zalloc(s, (size_t)cap * (L->n_scan ? L->n_scan : 1), sizeof *p);
  if (!p) return holo_err(err, HOLO_ERR_MEMORY, "out of memory: scan outputs of %u iterations", cap);
  for (uint32_t k = 0; k < L->n_scan; k++)
    for (uint32_t t = 0; t < L->iters; t++)
      p[(size_t)k * cap + t] = L->parts[(size_t)k * L->cap + t];
  holo__s_free(s, L->parts);
  L->parts = p;
  L->cap = cap;
  return HOLO_OK;
}

/* One iteration: binds the body's inputs, runs it, takes its outputs. */
static holo_status iterate(holo_session *s, uint32_t i, loop_state *L, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  const holo_ar_graph *g = &s->ar.graphs[n->first_graph];
  holo_entry *it;
  holo_status st = scalar_entry(s, HOLO_DT_I64, L->iters, &it, err);
  if (st) return st;
  if (L->iters == L->cap && (st = grow_parts(s, L, err))) return st;
  holo__s_bind(s, g->in[0], it);
  for (uint32_t k = 0; k <= L->n_carried; k++)
    holo__s_bind(s, g->in[1 + k], L->cur[k]);
  st = holo__s_run_graph(s, n->first_graph, err);
  for (uint32_t k = 0; k < g->n_out && !st; k++)
    st = holo__s_weights_need(s, g->out[k], err);
  if (!st) {
    for (uint32_t k = 0; k <= L->n_carried; k++) {
      holo_entry *e = s->slot[g->out[k]];
      hold(s, e);
      drop(s, L->cur[k]);
      L->cur[k] = e;
    }
    for (uint32_t k = 0; k < L->n_scan; k++) {
      holo_entry *e = s->slot[g->out[1 + L->n_carried + k]];
      hold(s, e);
      L->parts[(size_t)k * L->cap + L->iters] = e;
    }
    L->iters++;
  }
  holo__s_release_graph(s, n->first_graph);
  return st;
}

/* Label of a stacked value (format §4a): dtype, shape, the parts' labels. */
static void stack_digest(holo_session *s, const holo_entry *const *parts, uint32_t n, uint32_t dtype,
                         const int64_t *shape, uint32_t rank, holo_digest *out) {
  static const char tag[] = "holo/stack/v1";
  holo_sha256 c;
  uint8_t w[8];
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  holo_put_u32le(w, dtype);
  holo_sha256_update(&c, w, 4);
  holo_put_u32le(w, rank);
  holo_sha256_update(&c, w, 4);
  for (uint32_t d = 0; d < rank; d++) {
    holo_put_i64le(w, shape[d]);
    holo_sha256_update(&c, w, 8);
  }
  holo_put_u32le(w, n);
  holo_sha256_update(&c, w, 4);
  for (uint32_t t = 0; t < n; t++)
    holo_label_hash_into(&c, &parts[t]->d);
  holo_sha256_final(&c, out->b);
  (void)s;
}

/* The stacked shape: [n, part shape...]; zero iterations: the body output's
 * declared concrete shape. */
static holo_status stack_shape(holo_session *s, uint32_t i, uint32_t k, const holo_entry *const *parts,
                               uint32_t n, uint32_t *dtype, int64_t *shape, uint32_t *rank, holo_error *err) {
  const holo_ar_node *n_ = &s->ar.nodes[i];
  const holo_ar_graph *g = &s->ar.graphs[n_->first_graph];
  const holo_ar_value *decl = &s->ar.values[g->out[g->n_out - (n_->n_out - k)]];
  const int64_t *ps = n ? parts[0]->shape : decl->dims;
  uint32_t pr = n ? parts[0]->rank : decl->rank;
  *dtype = n ? parts[0]->dtype : decl->dtype;
  if (!n && pr == HOLO_RANK_UNKNOWN)
    return holo_err(err, HOLO_ERR_KERNEL,
                    NODE_FMT ": zero iterations and scan output %u has no declared shape", NODE_ARGS(i, n_),
                    k);
  if (pr + 1 > HOLO_MAX_RANK)
    return holo_err(err, HOLO_ERR_LIMIT, NODE_FMT ": scan output %u: stacked rank %u exceeds %u",
                    NODE_ARGS(i, n_), k, pr + 1, HOLO_MAX_RANK);
  shape[0] = n;
  for (uint32_t d = 0; d < pr; d++) {
    if (ps[d] < 0)
      return holo_err(err, HOLO_ERR_KERNEL,
                      NODE_FMT ": zero iterations and scan output %u has a symbolic dim", NODE_ARGS(i, n_),
                      k);
    shape[d + 1] = ps[d];
  }
  *rank = pr + 1;
  for (uint32_t t = 1; t < n; t++) {
    bool same = parts[t]->dtype == *dtype && parts[t]->rank == pr;
    for (uint32_t d = 0; same && d < pr; d++)
      same = parts[t]->shape[d] == ps[d];
    if (!same)
      return holo_err(err, HOLO_ERR_KERNEL,
                      NODE_FMT ": scan output %u: iteration %u's shape differs from iteration 0's",
                      NODE_ARGS(i, n_), k, t);
  }
  return HOLO_OK;
}

static holo_status stack(holo_session *s, uint32_t i, uint32_t k, const holo_entry *const *parts, uint32_t n,
                         holo_entry **out, holo_error *err) {
  uint32_t dtype = 0, rank = 0;
  int64_t shape[HOLO_MAX_RANK] = {0};
  size_t bytes;
  holo_status st = stack_shape(s, i, k, parts, n, &dtype, shape, &rank, err);
  if (st) return st;
  if (!holo_shape_bytes(dtype, shape, rank, &bytes))
    return holo_err(err, HOLO_ERR_LIMIT, "scan output %u: size overflows", k);
  holo_digest d;
  stack_digest(s, parts, n, dtype, shape, rank, &d);
  if ((*out = holo_arena_find(&s->arena, &d))) return HOLO_OK;
  holo_buf *buf;
  if ((st = holo_arena_alloc(&s->arena, bytes, false, &buf, err))) return st;
  size_t step = n ? bytes / n : 0;
  for (uint32_t t = 0; t < n; t++)
    holo_memcpy(buf->data + (size_t)t * step, parts[t]->buf->data, step);
  st = holo_arena_insert(&s->arena, &d, buf, dtype, rank, shape, false, out, err);
  holo_arena_unref(&s->arena, buf);
  return st;
}

static holo_status start(holo_session *s, uint32_t i, loop_state *L, bool *has_m, int64_t *m, int64_t *cond,
                         holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_status st;
  *has_m = n->in[0] != HOLO_ABSENT;
  if (*has_m && (st = holo__s_scalar_of(s, i, s->slot[n->in[0]], HOLO_DT_I64, "the trip count M", m, err)))
    return st;
  if (n->in[1] != HOLO_ABSENT) {
    if ((st = holo__s_scalar_of(s, i, s->slot[n->in[1]], HOLO_DT_BOOL, "the condition", cond, err)))
      return st;
    L->cur[0] = s->slot[n->in[1]];
  } else if ((st = scalar_entry(s, HOLO_DT_BOOL, 1, &L->cur[0], err))) {
    return st;
  }
  hold(s, L->cur[0]);
  for (uint32_t k = 0; k < L->n_carried; k++)
    hold(s, L->cur[1 + k] = s->slot[n->in[2 + k]]);
  return HOLO_OK;
}

static holo_status run(holo_session *s, uint32_t i, loop_state *L, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  bool has_m, has_cond = n->in[1] != HOLO_ABSENT;
  int64_t m = 0, cond = 1;
  holo_status st = start(s, i, L, &has_m, &m, &cond, err);
  while (!st && (!has_m || (int64_t)L->iters < m) && (!has_cond || cond)) {
    if (L->iters >= LOOP_MAX_ITERATIONS)
      return holo_err(err, HOLO_ERR_BUDGET,
                      NODE_FMT ": the loop ran %u iterations, the budget, without ending", NODE_ARGS(i, n),
                      LOOP_MAX_ITERATIONS);
    if ((st = iterate(s, i, L, err))) break;
    if (has_cond) st = holo__s_scalar_of(s, i, L->cur[0], HOLO_DT_BOOL, "the body's condition", &cond, err);
  }
  if (st) return st;
  for (uint32_t k = 0; k < L->n_carried; k++)
    holo__s_bind(s, n->out[k], L->cur[1 + k]);
  for (uint32_t k = 0; k < L->n_scan && !st; k++) {
    holo_entry *e;
    st = stack(s, i, L->n_carried + k, (const holo_entry *const *)L->parts + (size_t)k * L->cap, L->iters, &e,
               err);
    if (!st) holo__s_bind(s, n->out[L->n_carried + k], e);
  }
  return st;
}

holo_status holo__s_run_loop(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  loop_state L = {n->n_in - 2, 0, 0, 0, 0, 0};
  L.n_scan = n->n_out - L.n_carried;
  L.cur = holo__s_zalloc(s, L.n_carried + 1, sizeof *L.cur);
  if (!L.cur) return holo_err(err, HOLO_ERR_MEMORY, "out of memory: loop state");
  holo_status st = grow_parts(s, &L, err);
  if (!st) st = run(s, i, &L, err);
  for (uint32_t k = 0; k <= L.n_carried; k++)
    drop(s, L.cur[k]);
  for (uint32_t k = 0; k < L.n_scan; k++)
    for (uint32_t t = 0; t < L.iters; t++)
      drop(s, L.parts[(size_t)k * L.cap + t]);
  holo__s_free(s, L.cur);
  holo__s_free(s, L.parts);
  return st;
}
