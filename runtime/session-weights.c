/* Constants under a weight budget (docs/decisions.md 60): in a sourced
 * session no constant is pinned at load. A node's constant inputs are read
 * by range when it runs (and is not elided), verified against their labels,
 * and kept in one LRU with the kernels' packed forms of them, both evicted
 * least recently used first once the budget would be passed. A packed form
 * is re-derivable (the kernel packs it again from the constant); a constant
 * is re-readable (the source). What a running node uses is busy and never
 * evicted, nor is an entry still bound elsewhere (its live count). */
#include "hologram/fmt.h"
#include "session-impl.h"

static void lru_unlink(holo_weights *w, holo_witem *it) {
  if (it->prev)
    it->prev->next = it->next;
  else
    w->head = it->next;
  if (it->next)
    it->next->prev = it->prev;
  else
    w->tail = it->prev;
  it->prev = it->next = 0;
}

static void lru_append(holo_weights *w, holo_witem *it) {
  it->prev = w->tail;
  it->next = 0;
  if (w->tail)
    w->tail->next = it;
  else
    w->head = it;
  w->tail = it;
}

static void touch(holo_weights *w, holo_witem *it) {
  if (w->tail == it) return;
  lru_unlink(w, it);
  lru_append(w, it);
}

holo_status holo__s_weights_init(holo_session *s, holo_error *err) {
  holo_weights *w = &s->w;
  if (!s->src.read) return HOLO_OK;
  w->n_consts = s->ar.n_consts;
  w->items = holo__s_zalloc(s, (size_t)w->n_consts + s->n_pack_slots, sizeof *w->items);
  w->entries = holo__s_zalloc(s, w->n_consts, sizeof *w->entries);
  w->cons_value = holo__s_zalloc(s, w->n_consts, sizeof *w->cons_value);
  w->pack_node = holo__s_zalloc(s, s->n_pack_slots, sizeof *w->pack_node);
  if (!w->items || !w->entries || !w->cons_value || !w->pack_node)
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory: weight tables for %u constants", w->n_consts);
  for (uint32_t v = 0; v < s->ar.n_values; v++)
    if (s->ar.values[v].kind == HOLO_VK_CONST) w->cons_value[s->ar.values[v].aux] = v;
  for (uint32_t i = 0; i < s->ar.n_nodes; i++)
    if (s->pack_base[i] != 0xFFFFFFFFu)
      for (uint32_t k = 0; k < s->ar.nodes[i].n_in; k++)
        w->pack_node[s->pack_base[i] + k] = i;
  return HOLO_OK;
}

static bool evictable(const holo_session *s, const holo_witem *it) {
  uint32_t idx = (uint32_t)(it - s->w.items);
  return it->busy == 0 && (idx >= s->w.n_consts || s->w.entries[idx].live == 0);
}

static void evict(holo_session *s, holo_witem *it) {
  holo_weights *w = &s->w;
  uint32_t idx = (uint32_t)(it - w->items);
  lru_unlink(w, it);
  it->resident = false;
  w->bytes -= it->bytes;
  w->evictions++;
  if (idx < w->n_consts) {
    holo_entry *e = &w->entries[idx];
    holo_arena_unref(&s->arena, e->buf); /* a view of it keeps the buffer */
    holo_memset(e, 0, sizeof *e);
    s->slot[w->cons_value[idx]] = 0;
    return;
  }
  uint32_t slot = idx - w->n_consts;
  holo_arena_unref(&s->arena, s->pack_bufs[slot]);
  s->pack_bufs[slot] = 0;
  s->packed[slot] = 0;
  s->pack_done[w->pack_node[slot]] = 0; /* re-packed when the node runs again */
}

/* Evicts least recently used items until `bytes` more fit the budget. */
static bool make_room(holo_session *s, uint64_t bytes) {
  holo_weights *w = &s->w;
  if (!w->budget) return true;
  if (bytes > w->budget) return false;
  for (holo_witem *it = w->head, *next; it && w->bytes + bytes > w->budget; it = next) {
    next = it->next;
    if (evictable(s, it)) evict(s, it);
  }
  return w->bytes + bytes <= w->budget;
}

static void add(holo_weights *w, holo_witem *it, uint64_t bytes) {
  it->resident = true;
  it->bytes = bytes;
  it->busy = 0;
  lru_append(w, it);
  w->bytes += bytes;
  if (w->bytes > w->peak) w->peak = w->bytes;
}

bool holo__s_weights_room(holo_session *s, uint64_t bytes) { return !s->src.read || make_room(s, bytes); }

void holo__s_weights_add_pack(holo_session *s, uint32_t slot, uint64_t bytes) {
  if (!s->src.read) return;
  holo_witem *it = &s->w.items[s->w.n_consts + slot];
  add(&s->w, it, bytes);
  it->busy = 1;
}

void holo__s_weights_forget_pack(holo_session *s, uint32_t slot) {
  if (!s->w.items) return;
  holo_witem *it = &s->w.items[s->w.n_consts + slot];
  if (!it->resident) return;
  lru_unlink(&s->w, it);
  it->resident = false;
  it->busy = 0;
  s->w.bytes -= it->bytes;
}

/* Reads constant c into a fresh buffer and checks it against its label. */
static holo_status read_verified(holo_session *s, uint32_t c, holo_buf **out, holo_error *err) {
  const holo_ar_const *k = &s->ar.consts[c];
  const holo_ar_value *val = &s->ar.values[s->w.cons_value[c]];
  uint64_t t0 = s->src.clock_ns ? s->src.clock_ns(s->src.ctx) : 0;
  holo_status st = holo_arena_alloc(&s->arena, k->len, true, out, err);
  if (st) return st;
  if (k->len && s->src.read(s->src.ctx, k->off, (*out)->data, k->len) != HOLO_OK)
    st = holo_err(err, HOLO_ERR_IO, "constant %.*s (value %u): the source could not read bytes [%llu, +%zu)",
                  (int)val->name.len, val->name.p, s->w.cons_value[c], (unsigned long long)k->off, k->len);
  if (!st) {
    holo_digest d;
    holo__s_input_digest(s, val->dtype, val->dims, val->rank, (*out)->data, k->len, &d);
    if (!holo_digest_eq(&d, &k->digest))
      st = holo_err(
          err, HOLO_ERR_FORMAT,
          "constant %.*s (value %u): the bytes read do not match its label (corrupt or changed archive)",
          (int)val->name.len, val->name.p, s->w.cons_value[c]);
  }
  if (s->src.clock_ns) s->w.stall_ns += s->src.clock_ns(s->src.ctx) - t0;
  if (st) {
    holo_arena_unref(&s->arena, *out);
    *out = 0;
  }
  return st;
}

/* Reads constant c for node i (HOLO_ABSENT: a graph's output). */
static holo_status fetch(holo_session *s, uint32_t i, uint32_t c, holo_error *err) {
  holo_weights *w = &s->w;
  const holo_ar_const *k = &s->ar.consts[c];
  uint32_t v = w->cons_value[c];
  const holo_ar_value *val = &s->ar.values[v];
  if (w->budget && k->len > w->budget)
    return holo_err(err, HOLO_ERR_BUDGET,
                    "weight budget exceeded: constant %.*s (value %u) is %zu bytes, the bound is %llu",
                    (int)val->name.len, val->name.p, v, k->len, (unsigned long long)w->budget);
  if (!make_room(s, k->len)) {
    char who[160] = "a graph output";
    if (i != HOLO_ABSENT) holo_fmt(who, sizeof who, NODE_FMT, NODE_ARGS(i, &s->ar.nodes[i]));
    return holo_err(err, HOLO_ERR_BUDGET,
                    "%s: weight budget exceeded: constant %.*s needs %zu bytes, %llu of the %llu are in use "
                    "by running nodes",
                    who, (int)val->name.len, val->name.p, k->len, (unsigned long long)w->bytes,
                    (unsigned long long)w->budget);
  }
  holo_buf *b;
  holo_status st = read_verified(s, c, &b, err);
  if (st) return st;
  holo_entry *e = &w->entries[c];
  holo_memset(e, 0, sizeof *e);
  e->d = k->digest;
  e->buf = b; /* the allocation's reference */
  e->dtype = val->dtype;
  e->rank = val->rank;
  for (uint32_t d = 0; d < val->rank; d++)
    e->shape[d] = val->dims[d];
  e->pinned = e->sourced = true;
  e->stamp = s->arena.epoch;
  s->slot[v] = e;
  add(w, &w->items[c], k->len);
  w->fetches++;
  w->fetched += k->len;
  return HOLO_OK;
}

/* The weight items node i's input k stands for: its constant, its packed form. */
static void input_items(holo_session *s, uint32_t i, uint32_t k, holo_witem **c, holo_witem **p) {
  uint32_t v = s->ar.nodes[i].in[k];
  *c = *p = 0;
  if (v != HOLO_ABSENT && s->ar.values[v].kind == HOLO_VK_CONST) *c = &s->w.items[s->ar.values[v].aux];
  if (s->pack_base[i] != 0xFFFFFFFFu && s->pack_bufs[s->pack_base[i] + k])
    *p = &s->w.items[s->w.n_consts + s->pack_base[i] + k];
}

static void release_first(holo_session *s, uint32_t i, uint32_t upto) {
  for (uint32_t k = 0; k < upto; k++) {
    holo_witem *c, *p;
    input_items(s, i, k, &c, &p);
    if (c && c->resident && c->busy) c->busy--;
    if (p && p->resident && p->busy) p->busy--;
  }
}

holo_status holo__s_weights_acquire(holo_session *s, uint32_t i, holo_error *err) {
  if (!s->src.read) return HOLO_OK;
  const holo_ar_node *n = &s->ar.nodes[i];
  for (uint32_t k = 0; k < n->n_in; k++) {
    holo_witem *c, *p;
    input_items(s, i, k, &c, &p);
    if (c && !c->resident) {
      holo_status st = fetch(s, i, (uint32_t)(c - s->w.items), err);
      if (st) {
        release_first(s, i, k);
        return st;
      }
    }
    if (c) {
      c->busy++;
      touch(&s->w, c);
    }
    if (p) {
      p->busy++;
      touch(&s->w, p);
    }
  }
  return HOLO_OK;
}

holo_status holo__s_weights_need(holo_session *s, uint32_t v, holo_error *err) {
  if (!s->src.read || v == HOLO_ABSENT || s->ar.values[v].kind != HOLO_VK_CONST) return HOLO_OK;
  uint32_t c = s->ar.values[v].aux;
  if (s->w.items[c].resident) {
    touch(&s->w, &s->w.items[c]);
  } else {
    holo_status st = fetch(s, HOLO_ABSENT, c, err);
    if (st) return st;
  }
  /* held (unevictable) to the end of the walk: what binds it next takes its own hold */
  holo__s_bind(s, v, s->slot[v]);
  return HOLO_OK;
}

void holo__s_weights_release(holo_session *s, uint32_t i) {
  if (s->src.read) release_first(s, i, s->ar.nodes[i].n_in);
}

holo_status holo_session_set_weight_budget(holo_session *s, uint64_t bytes) {
  if (!s || !s->src.read) return HOLO_ERR_ARG;
  s->w.budget = bytes;
  return HOLO_OK;
}

void holo__s_weights_free(holo_session *s) {
  holo_weights *w = &s->w;
  if (w->entries)
    for (uint32_t c = 0; c < w->n_consts; c++)
      if (w->items[c].resident) holo_arena_unref(&s->arena, w->entries[c].buf);
  void *p[] = {w->items, w->entries, w->cons_value, w->pack_node};
  for (unsigned k = 0; k < sizeof p / sizeof p[0]; k++)
    holo__s_free(s, p[k]);
  holo_memset(w, 0, sizeof *w);
}

holo_status holo__s_weights_verify(holo_session *s, holo_error *err) {
  for (uint32_t c = 0; c < s->w.n_consts; c++) {
    if (s->w.items[c].resident) continue; /* verified when it was read */
    holo_buf *b;
    holo_status st = read_verified(s, c, &b, err);
    if (st) return st;
    holo_arena_unref(&s->arena, b);
  }
  return HOLO_OK;
}
