/* holo_session: load an archive -- parse it, plan the walk (a kernel and
 * label keys per node, last readers, the constant-only cone), bind the
 * constants and compute the cone once -- and free it. Executing is
 * session-walk.c's job; never computing the same content twice is the
 * labels' (session-labels.c). */
#include "session-impl.h"

static holo_status bind_constants(holo_session *s, holo_error *err) {
  if (s->src.read) return HOLO_OK; /* read by range as nodes need them (session-weights.c) */
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
    /* Nested graphs and control nodes run per execution, never in the cone:
     * a branch not taken must not run (nor fail) at load. */
    bool cone = ar->node_graph[i] == 0 && n->n_graphs == 0;
    for (uint32_t k = 0; k < n->n_in; k++) {
      uint32_t v = n->in[k];
      if (v == HOLO_ABSENT) continue;
      uint32_t at = holo__s_reader_in(s, i, holo_archive_value_graph(ar, v));
      if (at > s->last_use[v]) s->last_use[v] = at;
      const holo_ar_value *val = &ar->values[v];
      if (!(val->kind == HOLO_VK_CONST || (val->kind == HOLO_VK_NODE && s->in_cone[val->aux]))) cone = false;
    }
    s->in_cone[i] = cone && !(s->flags & HOLO_OPT_NO_WARM_CONE);
    if (n->n_graphs) {
      holo_status st = holo__s_plan_control(s, i, err);
      if (st) return st;
      continue;
    }
    s->kernels[i] = s->be->lookup(s->be->ctx, n->op.p, n->op.len);
    if (!s->kernels[i])
      return holo_err(err, HOLO_ERR_UNSUPPORTED, NODE_FMT ": unsupported op %.*s (backend %s)",
                      NODE_ARGS(i, n), (int)n->op.len, n->op.p, s->be->identity);
    holo__s_node_keys(s, i, s->kernels[i]);
  }
  holo__s_plan_graph_uses(s);
  for (uint32_t p = 0; p < ar->n_out_ports; p++)
    s->last_use[ar->out_ports[p]] = ar->n_nodes;
  return HOLO_OK;
}

/* The constant-only cone: computed once here, pinned for the session. */
static holo_status warm_cone(holo_session *s, holo_error *err) {
  s->loading = true;
  s->work = 0;
  holo_status st = HOLO_OK;
  for (uint32_t i = 0; i < s->ar.n_nodes && !st; i++)
    if (s->in_cone[i]) st = holo__s_run_node(s, i, err);
  s->loading = false;
  holo__s_release_all(s);
  return st;
}

static holo_status alloc_tables(holo_session *s, holo_error *err) {
  holo_archive *ar = &s->ar;
  s->kernels = holo__s_zalloc(s, ar->n_nodes, sizeof *s->kernels);
  s->key_at = holo__s_zalloc(s, ar->n_nodes, sizeof *s->key_at);
  uint64_t n_keys = 0;
  for (uint32_t i = 0; i < ar->n_nodes; i++) {
    if (s->key_at) s->key_at[i] = (uint32_t)n_keys;
    n_keys += ar->nodes[i].n_out;
  }
  s->keys = n_keys < UINT32_MAX ? holo__s_zalloc(s, n_keys ? (size_t)n_keys : 1, sizeof *s->keys) : NULL;
  s->in_cone = holo__s_zalloc(s, ar->n_nodes, 1);
  s->control = holo__s_zalloc(s, ar->n_nodes, 1);
  s->last_use = holo__s_zalloc(s, ar->n_values, sizeof *s->last_use);
  s->slot = holo__s_zalloc(s, ar->n_values, sizeof *s->slot);
  s->held = holo__s_zalloc(s, ar->n_values, 1);
  s->out_entries = holo__s_zalloc(s, ar->n_out_ports, sizeof *s->out_entries);
  s->sym = holo__s_zalloc(s, ar->n_syms, sizeof *s->sym);
  s->tin = holo__s_zalloc(s, 64, sizeof *s->tin);
  s->tout = holo__s_zalloc(s, 64, sizeof *s->tout);
  s->in_digests = holo__s_zalloc(s, ar->n_in_ports, sizeof *s->in_digests);
  if (!s->kernels || !s->key_at || !s->keys || !s->in_cone || !s->control || !s->last_use || !s->slot ||
      !s->held || !s->out_entries || !s->sym || !s->tin || !s->tout || !s->in_digests)
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory: session tables for %u nodes, %u values",
                    ar->n_nodes, ar->n_values);
  return HOLO_OK;
}

/* The archive label: SHA-256 over the whole file. */
static void archive_label(holo_session *s, const uint8_t *archive, size_t len) {
  holo_sha256 c;
  holo__s_archive_label_begin(&c);
  holo_sha256_update(&c, archive, len);
  holo__s_archive_label_end(s, &c, len);
}

void holo__s_archive_label_begin(holo_sha256 *c) {
  static const char tag[] = "holo/archive/v1";
  holo_sha256_init(c);
  holo_sha256_update(c, tag, sizeof tag);
}

void holo__s_archive_label_end(holo_session *s, holo_sha256 *c, uint64_t len) {
  holo_sha256_final(c, s->archive_digest.b);
  holo_label_render(&s->archive_digest, s->archive_label);
  s->c.bytes_hashed += len;
}

holo_status holo__s_load_parsed(holo_session *s, const holo_options *options, holo_error *err) {
  holo_status st;
  if ((st = holo_arena_init(&s->arena, &s->a, options->memory_budget, err))) return st;
  holo__s_memo_prefix(s);
  s->arena.retain = HOLO_DEFAULT_RETAIN_BYTES;
  if ((st = holo_memo_init(&s->memo, &s->a, s->ar.n_out_ports, err))) return st;
  if ((st = alloc_tables(s, err))) return st;
  /* Constants read by range: each is verified as it is read, and the cone
   * is not pinned (its values are cached and re-derived like any other). */
  if (s->src.read) s->flags |= HOLO_OPT_NO_WARM_CONE;
  /* A warm store is shared across archives: a constant whose stored digest
   * lies would poison it, so constants are verified whenever one is used. */
  if (!s->src.read && ((s->flags & HOLO_OPT_VERIFY_CONSTANTS) || s->store)) {
    if ((st = holo_session_verify_constants(s, err))) return st;
  }
  if ((st = plan(s, err)) || (st = holo__s_plan_anon(s, err)) || (st = holo__s_plan_packs(s, err)) || (st = holo__s_weights_init(s, err)) ||
      (st = bind_constants(s, err)) || (st = warm_cone(s, err)))
    return st;
  return HOLO_OK;
}

holo_status holo__s_new(const holo_backend *backend, const holo_options *options, holo_session **out,
                        holo_error *err) {
  *out = 0;
  const holo_allocator *a = options ? options->allocator : 0;
  if (!a || !a->alloc || !a->free) return holo_err(err, HOLO_ERR_ARG, "load: options->allocator is required");
  if (!backend->identity || !backend->lookup)
    return holo_err(err, HOLO_ERR_ARG, "load: backend has no identity or lookup");
  holo_session *s = a->alloc(a->ctx, sizeof *s, 16);
  if (!s) return holo_err(err, HOLO_ERR_MEMORY, "out of memory allocating the session");
  holo_memset(s, 0, sizeof *s);
  s->a = *a;
  s->be = backend;
  s->flags = options->flags;
  s->store = options->warm_store;
  *out = s;
  return HOLO_OK;
}

holo_status holo_session_load(const uint8_t *archive, size_t len, const holo_backend *backend,
                              const holo_options *options, holo_session **out, holo_error *err) {
  if (out) *out = 0;
  if (!archive || !backend || !out)
    return holo_err(err, HOLO_ERR_ARG, "load: archive, backend or out is NULL");
  holo_session *s;
  holo_status st = holo__s_new(backend, options, &s, err);
  if (st) return st;
  if ((st = holo_archive_parse(archive, len, &s->a, &s->ar, err))) {
    s->a.free(s->a.ctx, s);
    return st;
  }
  archive_label(s, archive, len);
  if ((st = holo__s_load_parsed(s, options, err))) {
    holo_session_free(s);
    return st;
  }
  *out = s;
  return HOLO_OK;
}

void holo_session_free(holo_session *s) {
  if (!s) return;
  holo__s_free_packs(s);
  holo__s_weights_free(s);
  holo__s_tier_free(s);
  holo_arena_destroy(&s->arena);
  holo_memo_destroy(&s->memo);
  void *p[] = {s->kernels, s->key_at,      s->keys, s->in_cone, s->control, s->last_use,   s->slot,
               s->held,    s->out_entries, s->sym,  s->tin,     s->tout,    s->in_digests, s->scratch, s->anon};
  for (unsigned i = 0; i < sizeof p / sizeof p[0]; i++)
    holo__s_free(s, p[i]);
  holo_archive_release(&s->ar, &s->a);
  holo__s_free(s, s->head);
  s->a.free(s->a.ctx, s);
}

holo_status holo_session_verify_constants(holo_session *s, holo_error *err) {
  if (!s) return holo_err(err, HOLO_ERR_ARG, "session is NULL");
  if (s->src.read) return holo__s_weights_verify(s, err);
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
