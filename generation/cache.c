/* Prompt cache: prefix key -> state labels + logits, bounded by bytes, LRU,
 * persisted through a WarmStore (docs/generation.md). */
#include "hologram/generate.h"

#include "hologram/mem.h"
#include "hologram/resident.h"
#include "hologram/sha256.h"

#define D(x) ((holo_digest *)(x))

/* Manifest v2: magic, n_tokens, n_state, vocab (u32 each), the prefix key,
 * the state content labels, the logits, then SHA-256 over all of that under
 * MANIFEST_TAG. v1 manifests (no digest) are keyed differently and refused
 * by the magic. */
static const uint8_t MANIFEST_MAGIC[8] = {'H', 'O', 'L', 'O', 'P', 'C', '2', 0};
static const char MANIFEST_TAG[] = "holo/prompt-manifest/v2";
#define MANIFEST_HEAD 52u
static const uint8_t RECORD_MAGIC[8] = {'H', 'O', 'L', 'O', 'W', 'S', '1', 0};

holo_status holo_prompt_cache_init(holo_prompt_cache *pc, uint32_t max_entries, uint64_t budget, holo_warm_store *store,
                                   const holo_allocator *a, holo_error *err) {
  if (!pc || !a || !max_entries) return holo_err(err, HOLO_ERR_ARG, "prompt cache: NULL argument or 0 entries");
  holo_memset(pc, 0, sizeof *pc);
  pc->a = *a;
  pc->e = a->alloc(a->ctx, (size_t)max_entries * sizeof *pc->e, 16);
  if (!pc->e) return holo_err(err, HOLO_ERR_MEMORY, "prompt cache: out of memory");
  holo_memset(pc->e, 0, (size_t)max_entries * sizeof *pc->e);
  pc->cap = max_entries;
  pc->budget = budget;
  pc->store = store;
  return HOLO_OK;
}

static void drop(holo_prompt_cache *pc, holo_prompt_entry *e) {
  for (uint32_t k = 0; k < e->n_state; k++) holo_session_release(pc->s, D(e->state[k]));
  if (e->logits) pc->a.free(pc->a.ctx, e->logits);
  pc->bytes -= e->bytes;
  holo_memset(e, 0, sizeof *e);
}

void holo_prompt_cache_free(holo_prompt_cache *pc, holo_gen *g) {
  if (!pc || !pc->e) return;
  if (g && !pc->s) pc->s = g->s;
  for (uint32_t i = 0; i < pc->cap; i++)
    if (pc->e[i].used) drop(pc, &pc->e[i]);
  pc->a.free(pc->a.ctx, pc->e);
  pc->e = 0;
}

static void put_u32le(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put_i64le(uint8_t *p, int64_t v) {
  put_u32le(p, (uint32_t)(uint64_t)v);
  put_u32le(p + 4, (uint32_t)((uint64_t)v >> 32));
}

static void put_u32(holo_sha256 *c, uint32_t v) {
  uint8_t b[4];
  put_u32le(b, v);
  holo_sha256_update(c, b, 4);
}

/* keys[L-1] = key of tokens[0..L). The preimage holds everything that
 * decides the state and logits after the prefix (docs/generation.md):
 * the archive, the code that computes it, which ports are token, position,
 * logits and state, the initial state, then the tokens. */
static void prefix_keys(const holo_prompt_cache *pc, holo_gen *g, const uint32_t *tokens, uint32_t n,
                        uint8_t (*keys)[32]) {
  static const char tag[] = "holo/prompt-cache/v2";
  holo_sha256 c;
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  holo_sha256_update(&c, holo_session_archive_label(g->s), HOLO_LABEL_LEN);
  holo_sha256_update(&c, pc->code, 32);
  put_u32(&c, g->m.token_input);
  put_u32(&c, g->m.position_input < 0 ? UINT32_MAX : (uint32_t)g->m.position_input);
  put_u32(&c, g->m.logits_output);
  put_u32(&c, g->n_state);
  for (uint32_t k = 0; k < g->n_state; k++) {
    put_u32(&c, g->c.input[k]);
    put_u32(&c, g->c.output[k]);
    holo_sha256_update(&c, g->init_state[k], 32);
  }
  for (uint32_t i = 0; i < n; i++) {
    put_u32(&c, tokens[i]);
    holo_sha256 f = c;
    holo_sha256_final(&f, keys[i]);
  }
}

static holo_prompt_entry *find(holo_prompt_cache *pc, const uint8_t *key) {
  for (uint32_t i = 0; i < pc->cap; i++)
    if (pc->e[i].used && holo_memcmp(pc->e[i].key, key, 32) == 0) return &pc->e[i];
  return 0;
}

static void restore(holo_gen *g, const holo_prompt_entry *e, const uint32_t *tokens) {
  for (uint32_t k = 0; k < g->n_state; k++) holo_session_hold(g->s, D((void *)e->state[k]));
  for (uint32_t k = 0; k < g->n_state; k++) holo_session_release(g->s, D(g->state[k]));
  for (uint32_t k = 0; k < g->n_state; k++) holo_memcpy(g->state[k], e->state[k], 32);
  g->pos = e->n_tokens;
  g->n_history = 0;
  for (uint32_t i = 0; i < e->n_tokens; i++) g->history[g->n_history++] = tokens[i]; /* capacity ensured by caller */
  holo_memcpy(g->logits, e->logits, (size_t)g->vocab * 4);
  g->have_logits = true;
  g->rows_n = 0, g->rows_pos = UINT32_MAX;
}

static uint64_t value_bytes(holo_gen *g, const uint8_t *d) {
  size_t len = 0;
  uint32_t dt, rank;
  const int64_t *shape;
  holo_session_resident(g->s, (const holo_digest *)d, &len, &dt, &rank, &shape);
  return len;
}

/* Evicts least-recently-used entries until `need` more bytes fit; returns a
 * free slot or NULL when the entry alone exceeds the budget. */
static holo_prompt_entry *make_room(holo_prompt_cache *pc, uint64_t need) {
  if (pc->budget && need > pc->budget) return 0;
  for (;;) {
    holo_prompt_entry *free_slot = 0, *lru = 0;
    for (uint32_t i = 0; i < pc->cap; i++) {
      holo_prompt_entry *e = &pc->e[i];
      if (!e->used) free_slot = free_slot ? free_slot : e;
      else if (!lru || e->tick < lru->tick) lru = e;
    }
    if (free_slot && (!pc->budget || pc->bytes + need <= pc->budget)) return free_slot;
    if (!lru) return 0;
    drop(pc, lru);
    pc->stats.evictions++;
  }
}

static void manifest_digest(const uint8_t *body, size_t len, uint8_t out[32]) {
  holo_sha256 c;
  holo_sha256_init(&c);
  holo_sha256_update(&c, MANIFEST_TAG, sizeof MANIFEST_TAG);
  holo_sha256_update(&c, body, len);
  holo_sha256_final(&c, out);
}

/* Writes the prefix as records under the state values' CONTENT labels (the
 * generator may hold them by computed labels: the bytes are hashed here, once
 * per recorded prefix) and a manifest naming those labels. */
static void put_store(holo_prompt_cache *pc, holo_gen *g, const holo_prompt_entry *e) {
  uint8_t content[HOLO_MAX_STATE][32];
  for (uint32_t k = 0; k < e->n_state; k++) {
    size_t len = 0;
    uint32_t dt, rank;
    const int64_t *shape;
    const void *data = holo_session_resident(g->s, (const holo_digest *)e->state[k], &len, &dt, &rank, &shape);
    if (!data) return;
    holo_digest cd;
    holo_content_digest(dt, shape, rank, data, len, &cd);
    holo_memcpy(content[k], cd.b, 32);
    size_t rec = 16 + 8 * (size_t)rank + 32 + len;
    uint8_t *b = pc->a.alloc(pc->a.ctx, rec, 16);
    if (!b) return;
    holo_memcpy(b, RECORD_MAGIC, 8);
    put_u32le(b + 8, dt);
    put_u32le(b + 12, rank);
    for (uint32_t d = 0; d < rank; d++) put_i64le(b + 16 + 8 * d, shape[d]);
    holo_memcpy(b + 16 + 8 * rank, content[k], 32);
    if (len) holo_memcpy(b + 16 + 8 * rank + 32, data, len);
    char label[HOLO_LABEL_LEN + 1];
    holo_label_render((const holo_digest *)content[k], label);
    if (pc->store->put(pc->store->ctx, label, b, rec) == HOLO_OK) pc->stats.store_puts++;
    pc->a.free(pc->a.ctx, b);
  }
  size_t body = MANIFEST_HEAD + 32 * (size_t)e->n_state + 4 * (size_t)g->vocab;
  uint8_t *m = pc->a.alloc(pc->a.ctx, body + 32, 16);
  if (!m) return;
  holo_memcpy(m, MANIFEST_MAGIC, 8);
  put_u32le(m + 8, e->n_tokens);
  put_u32le(m + 12, e->n_state);
  put_u32le(m + 16, g->vocab);
  holo_memcpy(m + 20, e->key, 32);
  for (uint32_t k = 0; k < e->n_state; k++)
    holo_memcpy(m + MANIFEST_HEAD + 32 * k, content[k], 32);
  holo_memcpy(m + MANIFEST_HEAD + 32 * e->n_state, e->logits, 4 * (size_t)g->vocab);
  manifest_digest(m, body, m + body);
  char label[HOLO_LABEL_LEN + 1];
  holo_label_render((const holo_digest *)e->key, label);
  if (pc->store->put(pc->store->ctx, label, m, body + 32) == HOLO_OK) pc->stats.store_puts++;
  pc->a.free(pc->a.ctx, m);
}

static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static int64_t rd64(const uint8_t *p) { return (int64_t)((uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32); }

/* Inserts (holding the values) an entry for the generator's current state. */
static holo_prompt_entry *insert(holo_prompt_cache *pc, holo_gen *g, const uint8_t *key, uint32_t n_tokens,
                                 uint8_t (*state)[32], const float *logits) {
  uint64_t bytes = 4 * (uint64_t)g->vocab;
  for (uint32_t k = 0; k < g->n_state; k++) bytes += value_bytes(g, state[k]);
  holo_prompt_entry *e = make_room(pc, bytes);
  if (!e) return 0;
  e->logits = pc->a.alloc(pc->a.ctx, 4 * (size_t)g->vocab, 16);
  if (!e->logits) return 0;
  holo_memcpy(e->logits, logits, 4 * (size_t)g->vocab);
  holo_memcpy(e->key, key, 32);
  e->n_tokens = n_tokens, e->n_state = g->n_state, e->bytes = bytes, e->used = true, e->tick = ++pc->tick;
  for (uint32_t k = 0; k < g->n_state; k++) {
    holo_memcpy(e->state[k], state[k], 32);
    holo_session_hold(g->s, D(e->state[k]));
  }
  pc->bytes += bytes;
  pc->stats.inserts++;
  return e;
}

/* Reads a prefix from the store: the manifest, then each state record,
 * interned (re-hashed) and checked against the manifest's label. */
static holo_prompt_entry *fetch(holo_prompt_cache *pc, holo_gen *g, const uint8_t *key, uint32_t n_tokens) {
  char label[HOLO_LABEL_LEN + 1];
  holo_label_render((const holo_digest *)key, label);
  const uint8_t *m;
  size_t mlen;
  if (pc->store->get(pc->store->ctx, label, &m, &mlen) != HOLO_OK) return 0;
  size_t body = MANIFEST_HEAD + 32 * (size_t)g->n_state + 4 * (size_t)g->vocab;
  uint8_t sum[32];
  if (mlen == body + 32) manifest_digest(m, body, sum);
  /* The digest first: nothing of a manifest is read unless all of it is
   * what was written. */
  if (mlen != body + 32 || holo_memcmp(sum, m + body, 32) || holo_memcmp(m, MANIFEST_MAGIC, 8) ||
      rd32(m + 8) != n_tokens || rd32(m + 12) != g->n_state || rd32(m + 16) != g->vocab ||
      holo_memcmp(m + 20, key, 32)) {
    pc->stats.store_corrupt++;
    return 0;
  }
  uint8_t want[HOLO_MAX_STATE][32];
  float *logits = pc->a.alloc(pc->a.ctx, 4 * (size_t)g->vocab, 16);
  if (!logits) return 0;
  for (uint32_t k = 0; k < g->n_state; k++)
    holo_memcpy(want[k], m + MANIFEST_HEAD + 32 * k, 32);
  holo_memcpy(logits, m + MANIFEST_HEAD + 32 * g->n_state, 4 * (size_t)g->vocab);
  uint32_t got = 0;
  holo_error err;
  for (; got < g->n_state; got++) {
    const uint8_t *r;
    size_t rlen;
    holo_label_render((const holo_digest *)want[got], label);
    if (pc->store->get(pc->store->ctx, label, &r, &rlen) != HOLO_OK || rlen < 16 || holo_memcmp(r, RECORD_MAGIC, 8)) break;
    uint32_t rank = rd32(r + 12);
    if (rank > HOLO_MAX_RANK || rlen < 16 + 8 * (size_t)rank + 32) break;
    int64_t shape[HOLO_MAX_RANK];
    for (uint32_t d = 0; d < rank; d++) shape[d] = rd64(r + 16 + 8 * d);
    size_t off = 16 + 8 * (size_t)rank + 32;
    holo_input in = {r + off, rlen - off, shape, rank};
    holo_digest d;
    if (holo_session_intern_input(g->s, g->c.input[got], &in, &d, &err)) break;
    if (holo_memcmp(d.b, want[got], 32)) {
      holo_session_release(g->s, &d);
      break;
    }
  }
  holo_prompt_entry *e = 0;
  if (got == g->n_state) e = insert(pc, g, key, n_tokens, want, logits);
  else
    pc->stats.store_corrupt++; /* a named state record is missing or not what it names */
  for (uint32_t k = 0; k < got; k++) holo_session_release(g->s, D(want[k])); /* insert holds its own */
  pc->a.free(pc->a.ctx, logits);
  if (e) pc->stats.store_hits++;
  return e;
}

/* The longest prefix of tokens[0..n) in the table or, longer, in the store. */
static holo_prompt_entry *longest(holo_prompt_cache *pc, holo_gen *g, uint8_t (*keys)[32], uint32_t n) {
  holo_prompt_entry *hit = 0;
  for (uint32_t L = n; L > 0 && !hit; L--) hit = find(pc, keys[L - 1]);
  if (pc->store) { /* a longer prefix may be in the store */
    uint32_t have = hit ? hit->n_tokens : 0;
    for (uint32_t L = n; L > have; L--) {
      holo_prompt_entry *e = fetch(pc, g, keys[L - 1], L);
      if (e) return e;
    }
  }
  return hit;
}

/* Records the generator's current state as the prefix of L tokens, unless
 * it is there already. */
static void record(holo_prompt_cache *pc, holo_gen *g, const uint8_t *key, uint32_t L) {
  if (find(pc, key)) return;
  holo_prompt_entry *e = insert(pc, g, key, L, g->state, g->logits);
  if (e && pc->store) put_store(pc, g, e);
}

/* Feeds tokens[from..n) (K per execution for a sequence model), never
 * across a checkpoint, recording the state at each checkpoint it passes. */
static holo_status feed_recording(holo_prompt_cache *pc, holo_gen *g, const uint32_t *tokens, uint32_t from,
                                  uint32_t n, const uint32_t *cps, uint32_t n_cp, uint8_t (*keys)[32],
                                  holo_error *err) {
  uint32_t next = 0;
  while (next < n_cp && cps[next] <= from) next++;
  for (uint32_t i = from; i < n;) {
    uint32_t end = next < n_cp ? cps[next] : n, c = end - i < g->seq ? end - i : g->seq;
    holo_status st = holo_gen_feed_seq(g, tokens + i, c, err);
    if (st) return st;
    i += c;
    if (next < n_cp && i == cps[next]) {
      if (i < n) record(pc, g, keys[i - 1], i); /* the whole prompt is recorded by the caller */
      next++;
    }
  }
  return HOLO_OK;
}

static holo_status check_checkpoints(const uint32_t *cps, uint32_t n_cp, uint32_t n, holo_error *err) {
  if (n_cp && !cps) return holo_err(err, HOLO_ERR_ARG, "prefill_cached: NULL checkpoints");
  for (uint32_t i = 0; i < n_cp; i++)
    if (cps[i] == 0 || cps[i] > n || (i && cps[i] <= cps[i - 1]))
      return holo_err(err, HOLO_ERR_ARG,
                      "prefill_cached: checkpoints must be ascending prefix lengths in 1..%u (checkpoint %u is %u)", n,
                      i, cps[i]);
  return HOLO_OK;
}

holo_status holo_gen_prefill_cached(holo_gen *g, holo_prompt_cache *pc, const uint32_t *tokens, uint32_t n,
                                    uint32_t *reused, holo_error *err) {
  return holo_gen_prefill_checkpointed(g, pc, tokens, n, 0, 0, reused, err);
}

holo_status holo_gen_prefill_checkpointed(holo_gen *g, holo_prompt_cache *pc, const uint32_t *tokens, uint32_t n,
                                          const uint32_t *checkpoints, uint32_t n_cp, uint32_t *reused,
                                          holo_error *err) {
  if (!g || !pc || !pc->e || (n && !tokens)) return holo_err(err, HOLO_ERR_ARG, "prefill_cached: NULL argument");
  if (pc->s && pc->s != g->s)
    return holo_err(err, HOLO_ERR_ARG, "prefill_cached: the prompt cache holds values of another session");
  holo_status st = check_checkpoints(checkpoints, n_cp, n, err);
  if (st) return st;
  pc->s = g->s;
  if (!pc->have_code) holo_session_code_identity(g->s, pc->code), pc->have_code = true;
  if (reused) *reused = 0;
  holo_gen_reset(g);
  if (!n) return HOLO_OK;
  uint8_t(*keys)[32] = pc->a.alloc(pc->a.ctx, (size_t)n * 32, 16);
  if (!keys) return holo_err(err, HOLO_ERR_MEMORY, "prefill_cached: out of memory");
  prefix_keys(pc, g, tokens, n, keys);
  pc->stats.lookups++;
  holo_prompt_entry *hit = longest(pc, g, keys, n);
  uint32_t from = 0;
  if (hit) {
    hit->tick = ++pc->tick;
    /* make room in the history for the restored prefix */
    if (g->cap_history < hit->n_tokens) {
      uint32_t *h = g->a.alloc(g->a.ctx, (size_t)hit->n_tokens * 4, 16);
      if (!h) st = holo_err(err, HOLO_ERR_MEMORY, "prefill_cached: out of memory (history)");
      else g->a.free(g->a.ctx, g->history), g->history = h, g->cap_history = hit->n_tokens;
    }
    if (!st) {
      restore(g, hit, tokens);
      from = hit->n_tokens;
      pc->stats.hits++;
      pc->stats.tokens_reused += from;
    }
  } else {
    pc->stats.misses++;
  }
  if (!st) st = feed_recording(pc, g, tokens, from, n, checkpoints, n_cp, keys, err);
  if (!st) {
    g->gen_start = g->n_history;
    if (reused) *reused = from;
    if (from < n) record(pc, g, keys[n - 1], n);
  }
  pc->a.free(pc->a.ctx, keys);
  return st;
}
