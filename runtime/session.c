/* holo_session: load an archive, execute it through a backend, never
 * compute the same content twice. */
#include "archive.h"
#include "arena.h"
#include "hologram/fmt.h"
#include "hologram/mem.h"
#include "memo.h"
#include "session-internal.h"
#include "warm.h"

struct holo_session {
  holo_allocator a;
  const holo_backend *be;
  holo_archive ar;
  holo_digest archive_digest;
  char archive_label[HOLO_LABEL_LEN + 1];
  uint32_t flags;
  holo_warm_store *store;
  holo_arena arena;
  holo_memo memo;

  const holo_kernel **kernels; /* per node */
  holo_sha256 *prefix;         /* per node: hash state after the label prefix */
  uint8_t *in_cone;            /* per node: all inputs constant (transitively) */
  uint32_t *last_use;          /* per value: last node reading it; n_nodes = kept to the end */
  holo_entry **slot;           /* per value: the entry bound in this execution */
  uint8_t *held;               /* per value: slot holds a live reference */
  holo_entry **out_entries;    /* per output port: the result of the last execution */
  int64_t *sym;                /* per symbol: binding of this execution, -1 unbound */
  holo_tensor *tin, *tout;     /* kernel call scratch, 64 each */
  holo_digest *in_digests;     /* per input port */
  void *scratch;
  size_t scratch_cap;
  holo_counters c;
  holo_hasher hasher;          /* host SHA-256 for large inputs; sha256 NULL: none */
  uint64_t work_budget;        /* per walk; 0 = unbounded */
  uint64_t work;               /* charged by the current (or last) walk */
  bool loading;
};

const char *holo_status_name(holo_status st) {
  static const char *names[] = {"ok",     "invalid argument", "bad archive",     "unsupported",
                                "bad input", "out of memory", "budget exceeded", "warm store",
                                "kernel", "state contract",    "limit"};
  return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "unknown";
}

static void *zalloc(holo_session *s, size_t n, size_t size) {
  if (n == 0) n = 1;
  if (n > SIZE_MAX / size) return 0;
  void *p = s->a.alloc(s->a.ctx, n * size, 16);
  if (p) holo_memset(p, 0, n * size);
  return p;
}

static void sfree(holo_session *s, void *p) {
  if (p) s->a.free(s->a.ctx, p);
}

/* ---------------------------------------------------------------- labels */

/* The per-node part of a computed label's preimage (format §5), hashed once
 * at load so each execution adds only the operands' labels. */
static void node_prefix(holo_session *s, uint32_t i, const holo_kernel *k) {
  static const char tag[] = "holo/node/v1";
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_sha256 *c = &s->prefix[i];
  uint8_t w[8];
  const char *bid = s->be->identity;
  uint32_t blen = 0, klen = 0;
  while (bid[blen]) blen++;
  while (k->identity[klen]) klen++;
  holo_sha256_init(c);
  holo_sha256_update(c, tag, sizeof tag);
  holo_sha256_update(c, bid, blen + 1);
  holo_sha256_update(c, k->identity, klen + 1);
  holo_put_u32le(w, n->n_attrs);
  holo_sha256_update(c, w, 4);
  for (uint32_t a = 0; a < n->n_attrs; a++) {
    const holo_attr *at = &n->attrs[a];
    size_t plen = at->type == HOLO_ATTR_INT || at->type == HOLO_ATTR_INTS       ? 8u * at->count
                  : at->type == HOLO_ATTR_FLOAT || at->type == HOLO_ATTR_FLOATS ? 4u * at->count
                                                                                : at->count;
    holo_sha256_update(c, at->name, at->name_len);
    holo_sha256_update(c, "", 1);
    holo_put_u32le(w, at->type);
    holo_put_u32le(w + 4, at->count);
    holo_sha256_update(c, w, 8);
    holo_sha256_update(c, at->payload, plen);
  }
}

static void computed_digest(holo_session *s, uint32_t i, uint32_t k, holo_digest *out) {
  static const uint8_t zeros[HOLO_LABEL_LEN] = {0};
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_sha256 c = s->prefix[i];
  uint8_t w[4];
  holo_put_u32le(w, n->n_in);
  holo_sha256_update(&c, w, 4);
  for (uint32_t j = 0; j < n->n_in; j++) {
    if (n->in[j] == HOLO_ABSENT) holo_sha256_update(&c, zeros, HOLO_LABEL_LEN);
    else holo_label_hash_into(&c, &s->slot[n->in[j]]->d);
  }
  holo_put_u32le(w, k);
  holo_sha256_update(&c, w, 4);
  holo_sha256_final(&c, out->b);
}

/* ----------------------------------------------------------- slot binding */

static void bind(holo_session *s, uint32_t v, holo_entry *e) {
  s->slot[v] = e;
  holo_arena_touch(&s->arena, e);
  if (!e->pinned && !s->held[v]) {
    holo_arena_live_inc(&s->arena, e);
    s->held[v] = 1;
  }
}

static void unhold(holo_session *s, uint32_t v) {
  if (s->held[v]) {
    holo_arena_live_dec(&s->arena, s->slot[v]);
    s->held[v] = 0;
  }
}

static void release_all(holo_session *s) {
  for (uint32_t v = 0; v < s->ar.n_values; v++) unhold(s, v);
}

/* -------------------------------------------------------------- dispatch */

static holo_status scratch_reserve(holo_session *s, size_t bytes, holo_error *err) {
  if (bytes <= s->scratch_cap) return HOLO_OK;
  sfree(s, s->scratch);
  s->scratch_cap = 0;
  s->scratch = s->a.alloc(s->a.ctx, bytes, 64);
  if (!s->scratch) return holo_err(err, HOLO_ERR_MEMORY, "out of memory: kernel workspace of %zu bytes", bytes);
  s->scratch_cap = bytes;
  return HOLO_OK;
}

#define NODE_FMT "node %u (%.*s %.*s)"
#define NODE_ARGS(i, n) (i), (int)(n)->op.len, (n)->op.p, (int)(n)->name.len, (n)->name.p

/* Binds outputs already resident (elision) or taken from the warm store.
 * Returns true when every output was found. */
static bool try_resident(holo_session *s, uint32_t i, const holo_digest *od) {
  const holo_ar_node *n = &s->ar.nodes[i];
  for (uint32_t k = 0; k < n->n_out; k++)
    if (!holo_arena_find(&s->arena, &od[k])) return false;
  for (uint32_t k = 0; k < n->n_out; k++) bind(s, n->out[k], holo_arena_find(&s->arena, &od[k]));
  return true;
}

/* Saturating: work estimates multiply attribute-sized numbers. */
static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }

/* Charges node i's work to the walk before its kernel runs, so an archive
 * that asks for more than the host allows costs nothing but this check.
 * The floor is the element count of operands and outputs (every op whose
 * kernel leaves call->work at 0 is linear in them). */
static holo_status charge_work(holo_session *s, uint32_t i, const holo_kernel_call *call, holo_error *err) {
  uint64_t w = 0;
  for (uint32_t k = 0; k < call->n_inputs; k++) {
    size_t es = holo_dtype_size(call->inputs[k].dtype);
    if (es) w = sat_add(w, call->inputs[k].bytes / es);
  }
  for (uint32_t k = 0; k < call->n_outputs; k++) {
    size_t es = holo_dtype_size(call->outputs[k].dtype);
    if (es) w = sat_add(w, call->outputs[k].bytes / es);
  }
  if (call->work > w) w = call->work;
  s->work = sat_add(s->work, w);
  if (s->work_budget && s->work > s->work_budget) {
    const holo_ar_node *n = &s->ar.nodes[i];
    return holo_err(
        err, HOLO_ERR_BUDGET,
        NODE_FMT
        ": work budget exceeded: this node needs %llu operations, %llu in all so far, the bound is %llu",
        NODE_ARGS(i, n), (unsigned long long)w, (unsigned long long)s->work,
        (unsigned long long)s->work_budget);
  }
  return HOLO_OK;
}

static holo_status run_node(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  const holo_kernel *kern = s->kernels[i];
  holo_digest od[64];
  holo_status st;
  char msg[HOLO_MSG_CAP];

  for (uint32_t k = 0; k < n->n_out; k++) computed_digest(s, i, k, &od[k]);
  if (try_resident(s, i, od)) {
    s->c.elided++;
    return HOLO_OK;
  }
  if (s->loading && s->store) {
    st = holo_warm_fetch(s->store, &s->arena, od, n->n_out, s->flags & HOLO_OPT_TRUST_STORE, &s->c, err);
    if (st) return st;
    if (try_resident(s, i, od)) return HOLO_OK;
  }

  for (uint32_t k = 0; k < n->n_in; k++) {
    holo_tensor *t = &s->tin[k];
    holo_memset(t, 0, sizeof *t);
    if (n->in[k] == HOLO_ABSENT) continue;
    holo_entry *e = s->slot[n->in[k]];
    t->data = e->buf->data;
    t->dtype = e->dtype;
    t->rank = e->rank;
    for (uint32_t d = 0; d < e->rank; d++) t->shape[d] = e->shape[d];
    t->bytes = e->buf->bytes;
  }
  holo_memset(s->tout, 0, sizeof(holo_tensor) * n->n_out);
  msg[0] = 0;
  holo_kernel_call call = {n->attrs, n->n_attrs, s->tin, n->n_in, s->tout, n->n_out, 0, 0, -1,
                           s->be->parallel_for, s->be->pctx, msg, sizeof msg, 0};
  st = kern->infer(&call);
  if (st) return holo_err(err, st, NODE_FMT ": %s", NODE_ARGS(i, n), msg[0] ? msg : "refused by the kernel");
  for (uint32_t k = 0; k < n->n_out; k++) {
    holo_tensor *t = &s->tout[k];
    if (t->rank > HOLO_MAX_RANK || !holo_shape_bytes(t->dtype, t->shape, t->rank, &t->bytes))
      return holo_err(err, HOLO_ERR_LIMIT, NODE_FMT ": output %u shape is invalid or its size overflows", NODE_ARGS(i, n), k);
  }
  if ((st = charge_work(s, i, &call, err))) return st;

  holo_buf *bufs[64] = {0};
  if (call.alias_input >= 0) {
    const holo_tensor *src = (uint32_t)call.alias_input < n->n_in ? &s->tin[call.alias_input] : 0;
    if (n->n_out != 1 || !src || !src->data || src->bytes != s->tout[0].bytes)
      return holo_err(err, HOLO_ERR_KERNEL, NODE_FMT ": invalid view of input %d", NODE_ARGS(i, n), call.alias_input);
    bufs[0] = s->slot[n->in[call.alias_input]]->buf;
    bufs[0]->refs++;
  } else {
    for (uint32_t k = 0; k < n->n_out; k++) {
      if ((st = holo_arena_alloc(&s->arena, s->tout[k].bytes, s->loading, &bufs[k], err))) goto fail;
      s->tout[k].data = bufs[k]->data;
    }
    if ((st = scratch_reserve(s, call.workspace_bytes, err))) goto fail;
    call.workspace = s->scratch;
    st = kern->run(&call);
    s->c.dispatches++;
    if (st) {
      holo_err(err, st, NODE_FMT ": %s", NODE_ARGS(i, n), msg[0] ? msg : "kernel failed");
      goto fail;
    }
  }
  for (uint32_t k = 0; k < n->n_out; k++) {
    holo_entry *e = holo_arena_find(&s->arena, &od[k]);
    if (!e && (st = holo_arena_insert(&s->arena, &od[k], bufs[k], s->tout[k].dtype, s->tout[k].rank,
                                      s->tout[k].shape, s->loading, &e, err)))
      goto fail;
    holo_arena_unref(&s->arena, bufs[k]);
    bufs[k] = 0;
    bind(s, n->out[k], e);
    if (s->loading && s->store && call.alias_input < 0) holo_warm_put(s->store, &s->arena, e, &s->c);
  }
  return HOLO_OK;
fail:
  for (uint32_t k = 0; k < n->n_out; k++)
    if (bufs[k]) holo_arena_unref(&s->arena, bufs[k]);
  return st;
}

/* Releases the live references whose last reader was node i. */
/* Releases the live references whose last reader was node i. Such values
 * are never graph outputs (those live to the end), so they go to the
 * evict-first end of the pool: a memo hit needs only the outputs, and
 * intermediates are the cheaper cache to lose. */
static void retire_value(holo_session *s, uint32_t v) {
  holo_entry *e = s->slot[v];
  unhold(s, v);
  if (e && e->live == 0) holo_arena_demote(&s->arena, e);
}

static void retire(holo_session *s, uint32_t i) {
  const holo_ar_node *n = &s->ar.nodes[i];
  for (uint32_t k = 0; k < n->n_in; k++) {
    uint32_t v = n->in[k];
    if (v != HOLO_ABSENT && s->last_use[v] == i) retire_value(s, v);
  }
  for (uint32_t k = 0; k < n->n_out; k++)
    if (s->last_use[n->out[k]] == i) retire_value(s, n->out[k]);
}

/* ------------------------------------------------------------------ load */

static holo_status bind_constants(holo_session *s, holo_error *err) {
  for (uint32_t v = 0; v < s->ar.n_values; v++) {
    const holo_ar_value *val = &s->ar.values[v];
    if (val->kind != HOLO_VK_CONST) continue;
    const holo_ar_const *c = &s->ar.consts[val->aux];
    holo_entry *e = holo_arena_find(&s->arena, &c->digest);
    if (!e) {
      holo_buf *b;
      holo_status st;
      if (((uintptr_t)c->data & 63) == 0) {
        st = holo_arena_borrow(&s->arena, c->data, c->len, &b, err);
      } else { /* archive not 64-aligned in memory: one aligned copy */
        st = holo_arena_alloc(&s->arena, c->len, true, &b, err);
        if (!st) holo_memcpy(b->data, c->data, c->len);
      }
      if (st) return st;
      st = holo_arena_insert(&s->arena, &c->digest, b, val->dtype, val->rank, val->dims, true, &e, err);
      holo_arena_unref(&s->arena, b);
      if (st) return st;
    }
    s->slot[v] = e;
  }
  return HOLO_OK;
}

static holo_status plan(holo_session *s, holo_error *err) {
  holo_archive *ar = &s->ar;
  for (uint32_t v = 0; v < ar->n_values; v++)
    s->last_use[v] = ar->values[v].kind == HOLO_VK_NODE ? ar->values[v].aux : 0;
  for (uint32_t i = 0; i < ar->n_nodes; i++) {
    const holo_ar_node *n = &ar->nodes[i];
    bool cone = true;
    for (uint32_t k = 0; k < n->n_in; k++) {
      uint32_t v = n->in[k];
      if (v == HOLO_ABSENT) continue;
      s->last_use[v] = i;
      const holo_ar_value *val = &ar->values[v];
      if (!(val->kind == HOLO_VK_CONST || (val->kind == HOLO_VK_NODE && s->in_cone[val->aux]))) cone = false;
    }
    s->in_cone[i] = cone && !(s->flags & HOLO_OPT_NO_WARM_CONE);
    s->kernels[i] = s->be->lookup(s->be->ctx, n->op.p, n->op.len);
    if (!s->kernels[i])
      return holo_err(err, HOLO_ERR_UNSUPPORTED, NODE_FMT ": unsupported op %.*s (backend %s)",
                      NODE_ARGS(i, n), (int)n->op.len, n->op.p, s->be->identity);
    node_prefix(s, i, s->kernels[i]);
  }
  for (uint32_t p = 0; p < ar->n_out_ports; p++) s->last_use[ar->out_ports[p]] = ar->n_nodes;
  return HOLO_OK;
}

/* The constant-only cone: computed once here, pinned for the session. */
static holo_status warm_cone(holo_session *s, holo_error *err) {
  s->loading = true;
  s->work = 0;
  holo_status st = HOLO_OK;
  for (uint32_t i = 0; i < s->ar.n_nodes && !st; i++)
    if (s->in_cone[i]) st = run_node(s, i, err);
  s->loading = false;
  release_all(s);
  return st;
}

holo_status holo_session_load(const uint8_t *archive, size_t len, const holo_backend *backend,
                              const holo_options *options, holo_session **out, holo_error *err) {
  if (out) *out = 0;
  if (!archive || !backend || !out) return holo_err(err, HOLO_ERR_ARG, "load: archive, backend or out is NULL");
  const holo_allocator *a = options ? options->allocator : 0;
  if (!a || !a->alloc || !a->free) return holo_err(err, HOLO_ERR_ARG, "load: options->allocator is required");
  if (!backend->identity || !backend->lookup) return holo_err(err, HOLO_ERR_ARG, "load: backend has no identity or lookup");
  holo_session *s = a->alloc(a->ctx, sizeof *s, 16);
  if (!s) return holo_err(err, HOLO_ERR_MEMORY, "out of memory allocating the session");
  holo_memset(s, 0, sizeof *s);
  s->a = *a;
  s->be = backend;
  s->flags = options->flags;
  s->store = options->warm_store;
  holo_status st = holo_archive_parse(archive, len, a, &s->ar, err);
  if (st) {
    s->a.free(s->a.ctx, s);
    return st;
  }
  if ((st = holo_arena_init(&s->arena, a, options->memory_budget, err))) goto fail;
  s->arena.retain = HOLO_DEFAULT_RETAIN_BYTES;
  if ((st = holo_memo_init(&s->memo, a, s->ar.n_out_ports, err))) goto fail;
  holo_archive *ar = &s->ar;
  s->kernels = zalloc(s, ar->n_nodes, sizeof *s->kernels);
  s->prefix = zalloc(s, ar->n_nodes, sizeof *s->prefix);
  s->in_cone = zalloc(s, ar->n_nodes, 1);
  s->last_use = zalloc(s, ar->n_values, sizeof *s->last_use);
  s->slot = zalloc(s, ar->n_values, sizeof *s->slot);
  s->held = zalloc(s, ar->n_values, 1);
  s->out_entries = zalloc(s, ar->n_out_ports, sizeof *s->out_entries);
  s->sym = zalloc(s, ar->n_syms, sizeof *s->sym);
  s->tin = zalloc(s, 64, sizeof *s->tin);
  s->tout = zalloc(s, 64, sizeof *s->tout);
  s->in_digests = zalloc(s, ar->n_in_ports, sizeof *s->in_digests);
  if (!s->kernels || !s->prefix || !s->in_cone || !s->last_use || !s->slot || !s->held ||
      !s->out_entries || !s->sym || !s->tin || !s->tout || !s->in_digests) {
    st = holo_err(err, HOLO_ERR_MEMORY, "out of memory: session tables for %u nodes, %u values", ar->n_nodes, ar->n_values);
    goto fail;
  }
  {
    static const char tag[] = "holo/archive/v1";
    holo_sha256 c;
    holo_sha256_init(&c);
    holo_sha256_update(&c, tag, sizeof tag);
    holo_sha256_update(&c, archive, len);
    holo_sha256_final(&c, s->archive_digest.b);
    holo_label_render(&s->archive_digest, s->archive_label);
    s->c.bytes_hashed += len;
  }
  /* A warm store is shared across archives: a constant whose stored digest
   * lies would poison it, so constants are verified whenever one is used. */
  if ((s->flags & HOLO_OPT_VERIFY_CONSTANTS) || s->store) {
    if ((st = holo_session_verify_constants(s, err))) goto fail;
  }
  if ((st = plan(s, err)) || (st = bind_constants(s, err)) || (st = warm_cone(s, err))) goto fail;
  *out = s;
  return HOLO_OK;
fail:
  holo_session_free(s);
  return st;
}

void holo_session_free(holo_session *s) {
  if (!s) return;
  holo_arena_destroy(&s->arena);
  holo_memo_destroy(&s->memo);
  void *p[] = {s->kernels, s->prefix, s->in_cone, s->last_use, s->slot, s->held,
               s->out_entries, s->sym, s->tin, s->tout, s->in_digests, s->scratch};
  for (unsigned i = 0; i < sizeof p / sizeof p[0]; i++) sfree(s, p[i]);
  holo_archive_release(&s->ar, &s->a);
  s->a.free(s->a.ctx, s);
}

holo_status holo_session_verify_constants(holo_session *s, holo_error *err) {
  if (!s) return holo_err(err, HOLO_ERR_ARG, "session is NULL");
  for (uint32_t v = 0; v < s->ar.n_values; v++) {
    const holo_ar_value *val = &s->ar.values[v];
    if (val->kind != HOLO_VK_CONST) continue;
    const holo_ar_const *c = &s->ar.consts[val->aux];
    holo_digest d;
    holo_content_digest(val->dtype, val->dims, val->rank, c->data, c->len, &d);
    s->c.bytes_hashed += c->len;
    if (!holo_digest_eq(&d, &c->digest))
      return holo_err(err, HOLO_ERR_FORMAT, "constant %.*s (value %u): stored label does not match its bytes",
                      (int)val->name.len, val->name.p, v);
  }
  return HOLO_OK;
}

/* --------------------------------------------------------------- execute */

static holo_status bind_symbols(holo_session *s, const holo_ar_value *val, const int64_t *shape,
                                const char *what, uint32_t idx, holo_error *err) {
  for (uint32_t d = 0; d < val->rank; d++) {
    int64_t want = val->dims[d];
    if (want >= 0) {
      if (shape[d] != want)
        return holo_err(err, HOLO_ERR_INPUT, "%s %u (%.*s): dim %u is %lld, expected %lld", what, idx,
                        (int)val->name.len, val->name.p, d, (long long)shape[d], (long long)want);
      continue;
    }
    uint32_t sym = (uint32_t)(-(want + 1));
    const holo_ar_str *nm = &s->ar.syms[sym];
    if (shape[d] < 0)
      return holo_err(err, HOLO_ERR_INPUT, "%s %u (%.*s): dim %u (%.*s) is negative", what, idx,
                      (int)val->name.len, val->name.p, d, (int)nm->len, nm->p);
    if (s->sym[sym] < 0) s->sym[sym] = shape[d];
    else if (s->sym[sym] != shape[d])
      return holo_err(err, HOLO_ERR_INPUT, "%s %u (%.*s): dim %u (%.*s) is %lld but was bound to %lld",
                      what, idx, (int)val->name.len, val->name.p, d, (int)nm->len, nm->p,
                      (long long)shape[d], (long long)s->sym[sym]);
  }
  return HOLO_OK;
}

/* The content label of an execute-time input: the host's SHA-256 when one
 * is installed and the input is large enough, else ours (also when the host
 * declines). Same preimage, same label either way. */
static void input_digest(holo_session *s, uint32_t dtype, const int64_t *shape, uint32_t rank, const void *bytes,
                         size_t len, holo_digest *out) {
  s->c.bytes_hashed += len;
  if (s->hasher.sha256 && len >= s->hasher.min_bytes) {
    uint8_t hdr[HOLO_CONTENT_HEADER_MAX];
    holo_span parts[2] = {{hdr, holo_content_header(dtype, shape, rank, hdr)}, {bytes, len}};
    if (s->hasher.sha256(s->hasher.ctx, parts, 2, out->b) == HOLO_OK) return;
  }
  holo_content_digest(dtype, shape, rank, bytes, len, out);
}

/* Validates the inputs, binds symbols and computes the input labels. */
static holo_status label_inputs(holo_session *s, const holo_input *in, uint32_t n, int64_t (*shapes)[HOLO_MAX_RANK],
                                holo_error *err) {
  holo_archive *ar = &s->ar;
  if (n != ar->n_in_ports)
    return holo_err(err, HOLO_ERR_INPUT, "expected %u inputs, got %u", ar->n_in_ports, n);
  if (n && !in) return holo_err(err, HOLO_ERR_ARG, "inputs is NULL");
  for (uint32_t y = 0; y < ar->n_syms; y++) s->sym[y] = -1;
  for (uint32_t i = 0; i < n; i++) {
    const holo_ar_value *val = &ar->values[ar->in_ports[i]];
    const int64_t *shape = in[i].shape;
    if (shape && in[i].rank != val->rank)
      return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s): rank %u, expected %u", i,
                      (int)val->name.len, val->name.p, in[i].rank, val->rank);
    if (!shape) {
      for (uint32_t d = 0; d < val->rank; d++)
        if (val->dims[d] < 0)
          return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s) has symbolic dims: pass its shape", i,
                          (int)val->name.len, val->name.p);
      shape = val->dims;
    }
    holo_status st = bind_symbols(s, val, shape, "input", i, err);
    if (st) return st;
    size_t need;
    if (!holo_shape_bytes(val->dtype, shape, val->rank, &need))
      return holo_err(err, HOLO_ERR_LIMIT, "input %u (%.*s): shape size overflows", i, (int)val->name.len, val->name.p);
    if (in[i].len != need)
      return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s): %zu bytes, expected %zu", i,
                      (int)val->name.len, val->name.p, in[i].len, need);
    if (need && !in[i].bytes)
      return holo_err(err, HOLO_ERR_ARG, "input %u (%.*s): bytes is NULL", i, (int)val->name.len, val->name.p);
    for (uint32_t d = 0; d < val->rank; d++) shapes[i][d] = shape[d];
    input_digest(s, val->dtype, shape, val->rank, in[i].bytes, need, &s->in_digests[i]);
  }
  return HOLO_OK;
}

static holo_status bind_input(holo_session *s, uint32_t i, const holo_input *in, const int64_t *shape,
                              holo_error *err) {
  const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
  holo_entry *e = holo_arena_find(&s->arena, &s->in_digests[i]);
  if (!e && !in) return holo_err(err, HOLO_ERR_STATE, "input %u: value is no longer resident", i);
  if (!e) {
    holo_buf *b;
    holo_status st = holo_arena_alloc(&s->arena, in->len, false, &b, err);
    if (st) return st;
    if (in->len) holo_memcpy(b->data, in->bytes, in->len);
    st = holo_arena_insert(&s->arena, &s->in_digests[i], b, val->dtype, val->rank, shape, false, &e, err);
    holo_arena_unref(&s->arena, b);
    if (st) return st;
  }
  bind(s, s->ar.in_ports[i], e);
  return HOLO_OK;
}

static holo_status check_outputs(holo_session *s, holo_error *err) {
  for (uint32_t p = 0; p < s->ar.n_out_ports; p++) {
    const holo_ar_value *val = &s->ar.values[s->ar.out_ports[p]];
    holo_entry *e = s->slot[s->ar.out_ports[p]];
    s->out_entries[p] = e;
    if (val->rank == HOLO_RANK_UNKNOWN) continue;
    if (e->rank != val->rank || e->dtype != val->dtype)
      return holo_err(err, HOLO_ERR_FORMAT, "output %u (%.*s): computed dtype %u rank %u, archive declares dtype %u rank %u",
                      p, (int)val->name.len, val->name.p, e->dtype, e->rank, val->dtype, val->rank);
    holo_status st = bind_symbols(s, val, e->shape, "output", p, err);
    if (st) return holo_err_prefix(err, HOLO_ERR_FORMAT, "output shape differs from the archive: ");
  }
  return HOLO_OK;
}

static holo_status memo_key(holo_session *s, holo_digest *key) {
  static const char tag[] = "holo/memo/v1";
  holo_sha256 c;
  uint8_t w[4];
  const char *bid = s->be->identity;
  uint32_t blen = 0;
  while (bid[blen]) blen++;
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  holo_label_hash_into(&c, &s->archive_digest);
  holo_sha256_update(&c, bid, blen + 1);
  holo_put_u32le(w, s->ar.n_in_ports);
  holo_sha256_update(&c, w, 4);
  for (uint32_t i = 0; i < s->ar.n_in_ports; i++) holo_label_hash_into(&c, &s->in_digests[i]);
  holo_sha256_final(&c, key->b);
  return HOLO_OK;
}

/* The part of an execution after the input labels are known: the memo,
 * else a graph walk. in may be NULL when every input is already resident. */
static holo_status walk(holo_session *s, const holo_input *in, int64_t (*shapes)[HOLO_MAX_RANK], holo_error *err) {
  holo_status st = HOLO_OK;
  uint32_t n = s->ar.n_in_ports;
  s->arena.epoch++;
  s->c.executions++;
  s->work = 0; /* a memo hit costs no work */

  holo_digest key;
  memo_key(s, &key);
  const holo_digest *outs = holo_memo_get(&s->memo, &key);
  if (outs) {
    bool all = true;
    for (uint32_t p = 0; p < s->ar.n_out_ports && all; p++)
      all = (s->out_entries[p] = holo_arena_find(&s->arena, &outs[p])) != 0;
    if (all) {
      for (uint32_t p = 0; p < s->ar.n_out_ports; p++) holo_arena_touch(&s->arena, s->out_entries[p]);
      s->c.memo_hits++;
      return HOLO_OK;
    }
  }

  /* A graph walk: slots of inputs and node outputs start empty. */
  for (uint32_t v = 0; v < s->ar.n_values; v++)
    if (s->ar.values[v].kind != HOLO_VK_CONST && !(s->ar.values[v].kind == HOLO_VK_NODE && s->in_cone[s->ar.values[v].aux]))
      s->slot[v] = 0;
  for (uint32_t i = 0; i < n && !st; i++) st = bind_input(s, i, in ? &in[i] : 0, shapes[i], err);
  for (uint32_t i = 0; i < s->ar.n_nodes && !st; i++) {
    if (s->in_cone[i]) continue;
    st = run_node(s, i, err);
    if (!st) retire(s, i);
  }
  if (!st) st = check_outputs(s, err);
  release_all(s);
  if (st) {
    for (uint32_t p = 0; p < s->ar.n_out_ports; p++) s->out_entries[p] = 0;
    return st;
  }
  holo_digest od[64];
  if (s->ar.n_out_ports <= 64) {
    for (uint32_t p = 0; p < s->ar.n_out_ports; p++) od[p] = s->out_entries[p]->d;
    holo_memo_put(&s->memo, &key, od);
  }
  return HOLO_OK;
}

/* Leaves s->out_entries bound to the results, resident until the next call. */
static holo_status execute_core(holo_session *s, const holo_input *in, uint32_t n, holo_error *err) {
  int64_t shapes[64][HOLO_MAX_RANK];
  if (!s) return holo_err(err, HOLO_ERR_ARG, "session is NULL");
  if (s->ar.n_in_ports > 64) return holo_err(err, HOLO_ERR_LIMIT, "more than 64 input ports");
  holo_status st = label_inputs(s, in, n, shapes, err);
  if (st) return st;
  return walk(s, in, shapes, err);
}

/* ------------------------------------------- internal API (refinement) */

holo_status holo__intern_input(holo_session *s, uint32_t i, const holo_input *in, holo_digest *out, holo_error *err) {
  const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
  const int64_t *shape = in->shape ? in->shape : val->dims;
  size_t need;
  if ((in->shape && in->rank != val->rank) || !holo_shape_bytes(val->dtype, shape, val->rank, &need) || need != in->len ||
      (need && !in->bytes))
    return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s): shape or byte length does not match the port", i,
                    (int)val->name.len, val->name.p);
  input_digest(s, val->dtype, shape, val->rank, in->bytes, need, out);
  holo_entry *e = holo_arena_find(&s->arena, out);
  if (!e) {
    holo_buf *b;
    holo_status st = holo_arena_alloc(&s->arena, need, false, &b, err);
    if (st) return st;
    if (need) holo_memcpy(b->data, in->bytes, need);
    st = holo_arena_insert(&s->arena, out, b, val->dtype, val->rank, shape, false, &e, err);
    holo_arena_unref(&s->arena, b);
    if (st) return st;
  }
  holo_arena_live_inc(&s->arena, e);
  return HOLO_OK;
}

void holo__release(holo_session *s, const holo_digest *d) {
  holo_entry *e = holo_arena_find(&s->arena, d);
  if (e && e->live) holo_arena_live_dec(&s->arena, e);
}

bool holo__hold(holo_session *s, const holo_digest *d) {
  holo_entry *e = holo_arena_find(&s->arena, d);
  if (!e) return false;
  holo_arena_live_inc(&s->arena, e);
  return true;
}

holo_status holo__execute_digests(holo_session *s, const holo_digest *in, holo_error *err) {
  int64_t shapes[64][HOLO_MAX_RANK];
  if (s->ar.n_in_ports > 64) return holo_err(err, HOLO_ERR_LIMIT, "more than 64 input ports");
  for (uint32_t y = 0; y < s->ar.n_syms; y++) s->sym[y] = -1;
  for (uint32_t i = 0; i < s->ar.n_in_ports; i++) {
    const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
    holo_entry *e = holo_arena_find(&s->arena, &in[i]);
    if (!e) return holo_err(err, HOLO_ERR_STATE, "input %u: state value is no longer resident", i);
    if (e->dtype != val->dtype || e->rank != val->rank)
      return holo_err(err, HOLO_ERR_STATE, "input %u (%.*s): state dtype/rank differ from the port", i,
                      (int)val->name.len, val->name.p);
    holo_status st = bind_symbols(s, val, e->shape, "input", i, err);
    if (st) return st;
    for (uint32_t d = 0; d < e->rank; d++) shapes[i][d] = e->shape[d];
    s->in_digests[i] = in[i];
  }
  return walk(s, 0, shapes, err);
}

/* The content label of output p of the last execution: hashed once, then
 * bound as a second entry over the same buffer and held by the caller. */
holo_status holo__output_content(holo_session *s, uint32_t p, holo_digest *out, holo_error *err) {
  holo_entry *e = s->out_entries[p];
  size_t len = 0;
  holo_shape_bytes(e->dtype, e->shape, e->rank, &len);
  holo_content_digest(e->dtype, e->shape, e->rank, e->buf->data, len, out);
  s->c.bytes_hashed += len;
  holo_entry *c = holo_arena_find(&s->arena, out);
  if (!c) {
    holo_status st = holo_arena_insert(&s->arena, out, e->buf, e->dtype, e->rank, e->shape, false, &c, err);
    if (st) return st;
  }
  holo_arena_touch(&s->arena, c);
  holo_arena_live_inc(&s->arena, c);
  return HOLO_OK;
}

const void *holo__resident(holo_session *s, const holo_digest *d, size_t *len, uint32_t *dtype, uint32_t *rank,
                           const int64_t **shape) {
  holo_entry *e = holo_arena_find(&s->arena, d);
  if (!e) return 0;
  *len = 0;
  holo_shape_bytes(e->dtype, e->shape, e->rank, len);
  *dtype = e->dtype;
  *rank = e->rank;
  *shape = e->shape;
  return e->buf->data;
}

void holo__output_view(holo_session *s, uint32_t p, holo_view *v) {
  const holo_entry *e = s->out_entries[p];
  holo_label_render(&e->d, v->label);
  v->data = e->buf->data;
  holo_shape_bytes(e->dtype, e->shape, e->rank, &v->len);
  v->dtype = e->dtype;
  v->rank = e->rank;
  for (uint32_t d = 0; d < HOLO_MAX_RANK; d++) v->shape[d] = d < e->rank ? e->shape[d] : 0;
}

const holo_archive *holo__archive(const holo_session *s) { return &s->ar; }

static void hash_cstr(holo_sha256 *c, const char *p) {
  uint32_t n = 0;
  while (p[n])
    n++;
  holo_sha256_update(c, p, n + 1);
}

void holo__code_identity(const holo_session *s, uint8_t out[32]) {
  static const char tag[] = "holo/code/v1";
  holo_sha256 c;
  uint8_t w[4];
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  hash_cstr(&c, s->be->identity);
  holo_put_u32le(w, s->ar.n_nodes);
  holo_sha256_update(&c, w, 4);
  for (uint32_t i = 0; i < s->ar.n_nodes; i++)
    hash_cstr(&c, s->kernels[i]->identity);
  holo_sha256_final(&c, out);
}

bool holo__probe_node_label(holo_session *s, uint32_t node, uint32_t k, holo_digest *out) {
  if (node >= s->ar.n_nodes || k >= s->ar.nodes[node].n_out) return false;
  const holo_ar_node *n = &s->ar.nodes[node];
  for (uint32_t j = 0; j < n->n_in; j++)
    if (n->in[j] != HOLO_ABSENT && !s->slot[n->in[j]]) return false;
  computed_digest(s, node, k, out);
  return true;
}

static void fill_shape(const holo_entry *e, uint32_t *dtype, uint32_t *rank, int64_t *shape) {
  *dtype = e->dtype;
  *rank = e->rank;
  for (uint32_t d = 0; d < HOLO_MAX_RANK; d++) shape[d] = d < e->rank ? e->shape[d] : 0;
}

holo_status holo_execute(holo_session *s, const holo_input *inputs, uint32_t n, holo_output *outputs,
                         uint32_t n_out, holo_error *err) {
  if (!s || (!outputs && n_out)) return holo_err(err, HOLO_ERR_ARG, "execute: session or outputs is NULL");
  if (n_out != s->ar.n_out_ports)
    return holo_err(err, HOLO_ERR_ARG, "execute: %u output slots given, the archive has %u", n_out, s->ar.n_out_ports);
  holo_status st = execute_core(s, inputs, n, err);
  if (st) return st;
  for (uint32_t p = 0; p < n_out; p++) {
    const holo_entry *e = s->out_entries[p];
    holo_output *o = &outputs[p];
    size_t len = 0;
    holo_shape_bytes(e->dtype, e->shape, e->rank, &len);
    o->bytes = s->a.alloc(s->a.ctx, len ? len : 1, 64);
    if (!o->bytes) {
      for (uint32_t q = 0; q < p; q++) holo_output_free(s, &outputs[q]);
      return holo_err(err, HOLO_ERR_MEMORY, "out of memory copying output %u (%zu bytes)", p, len);
    }
    holo_memcpy(o->bytes, e->buf->data, len);
    o->len = len;
    fill_shape(e, &o->dtype, &o->rank, o->shape);
  }
  return HOLO_OK;
}

holo_status holo_execute_addressed(holo_session *s, const holo_input *inputs, uint32_t n, holo_view *views,
                                   uint32_t n_out, holo_error *err) {
  if (!s || (!views && n_out)) return holo_err(err, HOLO_ERR_ARG, "execute_addressed: session or views is NULL");
  if (n_out != s->ar.n_out_ports)
    return holo_err(err, HOLO_ERR_ARG, "execute_addressed: %u views given, the archive has %u", n_out, s->ar.n_out_ports);
  holo_status st = execute_core(s, inputs, n, err);
  if (st) return st;
  for (uint32_t p = 0; p < n_out; p++) {
    const holo_entry *e = s->out_entries[p];
    holo_label_render(&e->d, views[p].label);
    views[p].data = e->buf->data;
    holo_shape_bytes(e->dtype, e->shape, e->rank, &views[p].len);
    fill_shape(e, &views[p].dtype, &views[p].rank, views[p].shape);
  }
  return HOLO_OK;
}

void holo_output_free(holo_session *s, holo_output *o) {
  if (!s || !o || !o->bytes) return;
  s->a.free(s->a.ctx, o->bytes);
  o->bytes = 0;
  o->len = 0;
}

/* ------------------------------------------------------------- accessors */

holo_status holo_session_set_retain_bytes(holo_session *s, uint64_t bytes) {
  if (!s) return HOLO_ERR_ARG;
  s->arena.retain = bytes;
  return HOLO_OK;
}

holo_status holo_session_set_hasher(holo_session *s, const holo_hasher *h) {
  if (!s) return HOLO_ERR_ARG;
  if (h && h->sha256) s->hasher = *h;
  else s->hasher = (holo_hasher){0, 0, 0};
  return HOLO_OK;
}

holo_status holo_session_set_memory_budget(holo_session *s, uint64_t bytes) {
  if (!s) return HOLO_ERR_ARG;
  s->arena.budget = bytes;
  return HOLO_OK;
}

holo_status holo_session_set_work_budget(holo_session *s, uint64_t ops) {
  if (!s) return HOLO_ERR_ARG;
  s->work_budget = ops;
  return HOLO_OK;
}

uint64_t holo_session_last_work(const holo_session *s) { return s ? s->work : 0; }

uint32_t holo_session_input_count(const holo_session *s) { return s ? s->ar.n_in_ports : 0; }
uint32_t holo_session_output_count(const holo_session *s) { return s ? s->ar.n_out_ports : 0; }
uint32_t holo_session_kernel_count(const holo_session *s) { return s ? s->ar.n_nodes : 0; }
uint64_t holo_session_resident_bytes(const holo_session *s) { return s ? s->arena.resident_bytes : 0; }
uint32_t holo_session_resident_count(const holo_session *s) { return s ? s->arena.n_bufs : 0; }
uint32_t holo_session_content_store_len(const holo_session *s) { return s ? s->arena.count : 0; }
const char *holo_session_archive_label(const holo_session *s) { return s ? s->archive_label : ""; }
const char *holo_session_backend_identity(const holo_session *s) { return s ? s->be->identity : ""; }

void holo_session_counters(const holo_session *s, holo_counters *c) {
  if (!s || !c) return;
  *c = s->c;
  c->evictions = s->arena.evictions;
  c->peak_live_bytes = s->arena.peak_live;
  c->peak_resident_bytes = s->arena.peak_resident;
}

static holo_status port_info(const holo_session *s, uint32_t v, holo_port_info *info) {
  const holo_ar_value *val = &s->ar.values[v];
  holo_memset(info, 0, sizeof *info);
  info->name = val->name.p;
  info->name_len = val->name.len;
  info->dtype = val->dtype;
  info->rank = val->rank;
  for (uint32_t d = 0; d < HOLO_MAX_RANK && val->rank != HOLO_RANK_UNKNOWN && d < val->rank; d++) {
    info->shape[d] = val->dims[d];
    if (val->dims[d] < 0) {
      const holo_ar_str *nm = &s->ar.syms[-(val->dims[d] + 1)];
      info->symbol[d] = nm->p;
      info->symbol_len[d] = nm->len;
    }
  }
  return HOLO_OK;
}

holo_status holo_session_input_info(const holo_session *s, uint32_t i, holo_port_info *info) {
  if (!s || !info || i >= s->ar.n_in_ports) return HOLO_ERR_ARG;
  return port_info(s, s->ar.in_ports[i], info);
}

holo_status holo_session_output_info(const holo_session *s, uint32_t i, holo_port_info *info) {
  if (!s || !info || i >= s->ar.n_out_ports) return HOLO_ERR_ARG;
  return port_info(s, s->ar.out_ports[i], info);
}
