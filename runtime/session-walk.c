/* The execute walk: the memo, else each node outside the constant cone in
 * order -- its outputs found resident by label (elided) or computed by its
 * kernel -- with values released after their last reader. */
#include "session-impl.h"

/* ----------------------------------------------------------- slot binding */

void holo__s_bind(holo_session *s, uint32_t v, holo_entry *e) {
  s->slot[v] = e;
  holo_arena_touch(&s->arena, e);
  if (holo__s_counted(e) && !s->held[v]) {
    holo_arena_live_inc(&s->arena, e);
    s->held[v] = 1;
  }
}

void holo__s_unhold(holo_session *s, uint32_t v) {
  if (s->held[v]) {
    holo_entry *e = s->slot[v];
    holo_arena_live_dec(&s->arena, e);
    s->held[v] = 0;
    if (e->anon && !e->live) { /* its last reader is done: nothing can look it up */
      holo_arena_drop_anon(&s->arena, e);
      s->slot[v] = 0;
    }
  }
}

void holo__s_release_all(holo_session *s) {
  for (uint32_t v = 0; v < s->ar.n_values; v++)
    holo__s_unhold(s, v);
}

/* -------------------------------------------------------------- dispatch */

static holo_status scratch_reserve(holo_session *s, size_t bytes, holo_error *err) {
  if (bytes <= s->scratch_cap) return HOLO_OK;
  holo__s_free(s, s->scratch);
  s->scratch_cap = 0;
  s->scratch = s->a.alloc(s->a.ctx, bytes, 64);
  if (!s->scratch)
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory: kernel workspace of %zu bytes", bytes);
  s->scratch_cap = bytes;
  return HOLO_OK;
}

/* Binds outputs already resident (elision) or taken from the warm store.
 * Returns true when every output was found. */
static bool try_resident(holo_session *s, uint32_t i, const holo_digest *od) {
  const holo_ar_node *n = &s->ar.nodes[i];
  for (uint32_t k = 0; k < n->n_out; k++)
    if (!holo_arena_find(&s->arena, &od[k])) return false;
  for (uint32_t k = 0; k < n->n_out; k++)
    holo__s_bind(s, n->out[k], holo_arena_find(&s->arena, &od[k]));
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

/* Points the kernel call's input tensors at the bound values. */
static void bind_call_inputs(holo_session *s, const holo_ar_node *n) {
  for (uint32_t k = 0; k < n->n_in; k++) {
    holo_tensor *t = &s->tin[k];
    holo_memset(t, 0, sizeof *t);
    if (n->in[k] == HOLO_ABSENT) continue;
    holo_entry *e = s->slot[n->in[k]];
    t->data = e->buf->data;
    t->dtype = e->dtype;
    t->rank = e->rank;
    for (uint32_t d = 0; d < e->rank; d++)
      t->shape[d] = e->shape[d];
    t->bytes = e->buf->bytes;
  }
  holo_memset(s->tout, 0, sizeof(holo_tensor) * n->n_out);
}

/* Binds output k of node i, computed into buf, under label od: a table
 * entry (one already resident wins), or an anonymous one. */
static holo_status bind_output(holo_session *s, uint32_t i, uint32_t k, const holo_digest *od, holo_buf *buf,
                               holo_error *err) {
  const holo_tensor *t = &s->tout[k];
  holo_entry *e = 0;
  holo_status st;
  if (s->anon && s->anon[i] && !s->loading)
    st = holo_arena_anon(&s->arena, od, buf, t->dtype, t->rank, t->shape, &e, err);
  else if (!(e = holo_arena_find(&s->arena, od)))
    st = holo_arena_insert(&s->arena, od, buf, t->dtype, t->rank, t->shape, s->loading, &e, err);
  else
    st = HOLO_OK;
  if (st) return st;
  holo__s_bind(s, s->ar.nodes[i].out[k], e);
  return HOLO_OK;
}

/* Computes node i's outputs into fresh buffers (or, for a view, the input's
 * buffer) and binds them under the labels od. */
static holo_status compute_node(holo_session *s, uint32_t i, const holo_digest *od, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_status st;
  char msg[HOLO_MSG_CAP];
  const void *const *packed;
  bind_call_inputs(s, n);
  if ((st = holo__s_packed(s, i, &packed, err))) return st;
  msg[0] = 0;
  holo_kernel_call call = {n->attrs,    n->n_attrs, s->tin,     n->n_in, s->tout,
                           n->n_out,    0,          0,          -1,      s->be->parallel_for,
                           s->be->pctx, msg,        sizeof msg, 0,       packed};
  st = s->kernels[i]->infer(&call);
  if (st) return holo_err(err, st, NODE_FMT ": %s", NODE_ARGS(i, n), msg[0] ? msg : "refused by the kernel");
  for (uint32_t k = 0; k < n->n_out; k++) {
    holo_tensor *t = &s->tout[k];
    if (t->rank > HOLO_MAX_RANK || !holo_shape_bytes(t->dtype, t->shape, t->rank, &t->bytes))
      return holo_err(err, HOLO_ERR_LIMIT, NODE_FMT ": output %u shape is invalid or its size overflows",
                      NODE_ARGS(i, n), k);
  }
  if ((st = charge_work(s, i, &call, err))) return st;

  holo_buf *bufs[64] = {0};
  if (call.alias_input >= 0) {
    const holo_tensor *src = (uint32_t)call.alias_input < n->n_in ? &s->tin[call.alias_input] : 0;
    if (n->n_out != 1 || !src || !src->data || src->bytes != s->tout[0].bytes)
      return holo_err(err, HOLO_ERR_KERNEL, NODE_FMT ": invalid view of input %d", NODE_ARGS(i, n),
                      call.alias_input);
    bufs[0] = s->slot[n->in[call.alias_input]]->buf;
    bufs[0]->refs++;
  } else {
    for (uint32_t k = 0; k < n->n_out; k++) {
      if ((st = holo_arena_alloc(&s->arena, s->tout[k].bytes, s->loading, &bufs[k], err))) goto fail;
      s->tout[k].data = bufs[k]->data;
    }
    if ((st = scratch_reserve(s, call.workspace_bytes, err))) goto fail;
    call.workspace = s->scratch;
    st = s->kernels[i]->run(&call);
    s->c.dispatches++;
    if (st) {
      holo_err(err, st, NODE_FMT ": %s", NODE_ARGS(i, n), msg[0] ? msg : "kernel failed");
      goto fail;
    }
  }
  for (uint32_t k = 0; k < n->n_out; k++) {
    if ((st = bind_output(s, i, k, &od[k], bufs[k], err))) goto fail;
    holo_arena_unref(&s->arena, bufs[k]);
    bufs[k] = 0;
    if (s->loading && s->store && call.alias_input < 0) holo_warm_put(s->store, &s->arena, s->slot[n->out[k]], &s->c);
  }
  return HOLO_OK;
fail:
  for (uint32_t k = 0; k < n->n_out; k++)
    if (bufs[k]) holo_arena_unref(&s->arena, bufs[k]);
  return st;
}

holo_status holo__s_run_node(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_digest od[64];
  holo__s_computed_digests(s, i, od);
  if (s->anon && s->anon[i] && !s->loading) { /* never resident: no look-up (session-anon.c) */
    holo_status st = holo__s_weights_acquire(s, i, err);
    if (st) return st;
    st = compute_node(s, i, od, err);
    holo__s_weights_release(s, i);
    return st;
  }
  if (try_resident(s, i, od) || (holo__s_tier_promote(s, od, n->n_out) && try_resident(s, i, od))) {
    s->c.elided++;
    return HOLO_OK;
  }
  if (s->loading && s->store) {
    holo_status st =
        holo_warm_fetch(s->store, &s->arena, od, n->n_out, s->flags & HOLO_OPT_TRUST_STORE, &s->c, err);
    if (st) return st;
    if (try_resident(s, i, od)) return HOLO_OK;
  }
  /* only a node that computes needs its constants read */
  holo_status st = holo__s_weights_acquire(s, i, err);
  if (st) return st;
  st = compute_node(s, i, od, err);
  holo__s_weights_release(s, i);
  return st;
}

/* Releases the live references whose last reader was node i. Such values
 * are never graph outputs (those live to the end), so they go to the
 * evict-first end of the pool: a memo hit needs only the outputs, and
 * intermediates are the cheaper cache to lose. */
static void retire_value(holo_session *s, uint32_t v) {
  holo_entry *e = s->slot[v];
  bool anon = e && e->anon; /* holo__s_unhold drops it with its last reference */
  holo__s_unhold(s, v);
  if (e && !anon && e->live == 0) holo_arena_demote(&s->arena, e);
}

void holo__s_retire(holo_session *s, uint32_t i) {
  const holo_ar_node *n = &s->ar.nodes[i];
  for (uint32_t k = 0; k < n->n_in; k++) {
    uint32_t v = n->in[k];
    if (v != HOLO_ABSENT && s->last_use[v] == i) retire_value(s, v);
  }
  for (uint32_t k = 0; k < n->n_out; k++)
    if (s->last_use[n->out[k]] == i) retire_value(s, n->out[k]);
}

/* ------------------------------------------------------------------ walk */

static holo_status check_outputs(holo_session *s, holo_error *err) {
  for (uint32_t p = 0; p < s->ar.n_out_ports; p++) {
    const holo_ar_value *val = &s->ar.values[s->ar.out_ports[p]];
    holo_status st = holo__s_weights_need(s, s->ar.out_ports[p], err);
    if (st) return st;
    holo_entry *e = s->slot[s->ar.out_ports[p]];
    s->out_entries[p] = e;
    if (val->rank == HOLO_RANK_UNKNOWN) continue;
    if (e->rank != val->rank || e->dtype != val->dtype)
      return holo_err(err, HOLO_ERR_FORMAT,
                      "output %u (%.*s): computed dtype %u rank %u, archive declares dtype %u rank %u", p,
                      (int)val->name.len, val->name.p, e->dtype, e->rank, val->dtype, val->rank);
    st = holo__s_bind_symbols(s, val, e->shape, "output", p, err);
    if (st) return holo_err_prefix(err, HOLO_ERR_FORMAT, "output shape differs from the archive: ");
  }
  return HOLO_OK;
}

/* A memo hit: every output of an earlier execution with these input labels
 * is still resident, or was spilled and is read back (tiered-exec). */
static bool memo_hit(holo_session *s, const holo_digest *key) {
  const holo_digest *outs = holo_memo_get(&s->memo, key);
  if (!outs) return false;
  holo__s_tier_promote(s, outs, s->ar.n_out_ports);
  for (uint32_t p = 0; p < s->ar.n_out_ports; p++)
    if (!(s->out_entries[p] = holo_arena_find(&s->arena, &outs[p]))) {
      holo_arena_widen(&s->arena); /* a bigger cache would have answered */
      return false;
    }
  for (uint32_t p = 0; p < s->ar.n_out_ports; p++)
    holo_arena_touch(&s->arena, s->out_entries[p]);
  s->c.memo_hits++;
  return true;
}

/* A memo hit from the store (HOLO_OPT_STORE_MEMO): a process with the same
 * archive, backend and input labels computed this execution and stored its
 * memo record; the outputs it names are fetched, each verified by its
 * content digest, and the execution dispatches nothing. */
static bool store_memo_hit(holo_session *s, const holo_digest *key, holo_error *err) {
  if (!s->store || !(s->flags & HOLO_OPT_STORE_MEMO) || s->ar.n_out_ports > 64) return false;
  holo_digest outs[64];
  if (!holo_warm_memo_fetch(s->store, &s->arena, key, s->ar.n_out_ports, s->flags & HOLO_OPT_TRUST_STORE, outs,
                            &s->c, err))
    return false;
  holo_memo_put(&s->memo, key, outs);
  return memo_hit(s, key);
}

holo_status holo__s_walk(holo_session *s, const holo_input *in, int64_t (*shapes)[HOLO_MAX_RANK], holo_error *err) {
  holo_status st = HOLO_OK;
  uint32_t n = s->ar.n_in_ports;
  s->arena.epoch++;
  s->c.executions++;
  s->work = 0; /* a memo hit costs no work */

  holo_digest key;
  holo__s_memo_key(s, &key);
  if (memo_hit(s, &key) || store_memo_hit(s, &key, err)) return HOLO_OK;

  /* A graph walk: slots of inputs and node outputs start empty. */
  for (uint32_t v = 0; v < s->ar.n_values; v++)
    if (s->ar.values[v].kind != HOLO_VK_CONST &&
        !(s->ar.values[v].kind == HOLO_VK_NODE && s->in_cone[s->ar.values[v].aux]))
      s->slot[v] = 0;
  for (uint32_t i = 0; i < n && !st; i++)
    st = holo__s_bind_input(s, i, in ? &in[i] : 0, shapes[i], err);
  for (uint32_t i = 0; i < s->ar.n_nodes && !st; i++) {
    if (s->in_cone[i] || s->ar.node_graph[i]) continue; /* nested graphs run inside their control node */
    st = s->control[i] ? holo__s_run_control(s, i, err) : holo__s_run_node(s, i, err);
    if (!st) holo__s_retire(s, i);
  }
  if (!st) st = check_outputs(s, err);
  holo__s_release_all(s);
  if (st) {
    for (uint32_t p = 0; p < s->ar.n_out_ports; p++)
      s->out_entries[p] = 0;
    return st;
  }
  holo_digest od[64];
  if (s->ar.n_out_ports <= 64) {
    for (uint32_t p = 0; p < s->ar.n_out_ports; p++)
      od[p] = s->out_entries[p]->d;
    holo_memo_put(&s->memo, &key, od);
    if (s->store && (s->flags & HOLO_OPT_STORE_MEMO))
      holo_warm_memo_put(s->store, &s->arena, &key, s->out_entries, s->ar.n_out_ports, &s->c);
  }
  return HOLO_OK;
}
