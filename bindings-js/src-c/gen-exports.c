/* Generation exports beyond exports.c's step API (docs/generation.md):
 * batched prefill, position rewind, the prompt cache (bounded, persisted
 * through the host WarmStore) and speculative decoding for the JS shim.
 *
 * A generator handle from holo_wasm_gen_new (exports.c) points at a struct
 * whose FIRST member is the holo_gen, so the handle converts to a holo_gen*
 * (C11 6.7.2.1p15); every function here takes it as such. */
#include "hologram/generate.h"
#include "hologram/holo.h"

#define EXPORT(name) __attribute__((export_name(#name)))
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))

IMPORT(holo_host_store_get) int gx_host_store_get(const char *label, const uint8_t **bytes, size_t *len);
IMPORT(holo_host_store_put) int gx_host_store_put(const char *label, const uint8_t *bytes, size_t len);

/* The module's heap (exports.c). */
void *wasm_alloc(size_t size, size_t align);
void wasm_free(void *p);
static void *gx_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  return wasm_alloc(size, align);
}
static void gx_free(void *ctx, void *p) {
  (void)ctx;
  wasm_free(p);
}
static const holo_allocator GX_ALLOC = {0, gx_alloc, gx_free};

static void set_err(holo_error *err, holo_status st, const char *m) {
  err->status = st;
  uint32_t i = 0;
  for (; m[i] && i + 1 < HOLO_MSG_CAP; i++)
    err->message[i] = m[i];
  err->message[i] = 0;
}

/* ------------------------------------------------------------ generator */

EXPORT(holo_wasm_gen_seq) uint32_t wasm_gen_seq(holo_gen *g) { return g->seq; }
EXPORT(holo_wasm_gen_pos) uint32_t wasm_gen_pos(holo_gen *g) { return g->pos; }
EXPORT(holo_wasm_gen_set_masked) void wasm_gen_set_masked(holo_gen *g, uint32_t on) {
  g->m.masked_state = on != 0;
}
EXPORT(holo_wasm_gen_set_content) void wasm_gen_set_content(holo_gen *g, uint32_t on) {
  g->m.content_state = on != 0;
}

/* steps, dispatches, memo hits, elided, tokens fed */
EXPORT(holo_wasm_gen_stats2) void wasm_gen_stats2(holo_gen *g, uint64_t *out) {
  out[0] = g->stats.steps, out[1] = g->stats.dispatches, out[2] = g->stats.memo_hits,
  out[3] = g->stats.elided;
  out[4] = g->stats.tokens;
}

EXPORT(holo_wasm_gen_prefill)
int wasm_gen_prefill(holo_gen *g, const uint32_t *tokens, uint32_t n, holo_error *err) {
  return holo_gen_prefill(g, tokens, n, err);
}

EXPORT(holo_wasm_gen_rewind) int wasm_gen_rewind(holo_gen *g, uint32_t n, holo_error *err) {
  return holo_gen_rewind(g, n, err);
}

/* Greedy speculative decoding; report: proposed, accepted, rounds, target
 * executions, draft executions (u64 each). stop < 0: none. */
EXPORT(holo_wasm_gen_speculative)
int wasm_gen_speculative(holo_gen *t, holo_gen *d, uint32_t k, uint32_t max_tokens, int32_t stop,
                         uint32_t *out, uint32_t cap, uint32_t *n_out, uint64_t *report, holo_error *err) {
  holo_gen_options o = {max_tokens, stop, 0, 0};
  holo_spec_report r = {0};
  holo_status st = holo_speculative_run(t, d, k, &o, out, cap, n_out, &r, err);
  report[0] = r.proposed, report[1] = r.accepted, report[2] = r.rounds, report[3] = r.target_steps;
  report[4] = r.draft_steps;
  return st;
}

/* --------------------------------------------------------- prompt cache */

typedef struct wasm_pcache {
  holo_prompt_cache pc;
  holo_warm_store store;
  const uint8_t *last_get; /* host-allocated bytes of the last get */
} wasm_pcache;

static holo_status pc_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  wasm_pcache *w = ctx;
  if (w->last_get) wasm_free((void *)w->last_get);
  w->last_get = 0;
  if (gx_host_store_get(label, bytes, len) != 0 || !*bytes) return HOLO_ERR_STORE;
  w->last_get = *bytes;
  return HOLO_OK;
}

static holo_status pc_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  (void)ctx;
  return gx_host_store_put(label, bytes, len) == 0 ? HOLO_OK : HOLO_ERR_STORE;
}

EXPORT(holo_wasm_pcache_new)
wasm_pcache *wasm_pcache_new(uint32_t max_entries, uint32_t budget_lo, uint32_t budget_hi, uint32_t use_store,
                             holo_error *err) {
  wasm_pcache *w = wasm_alloc(sizeof *w, 16);
  if (!w) {
    set_err(err, HOLO_ERR_MEMORY, "prompt cache: out of memory");
    return 0;
  }
  w->store = (holo_warm_store){w, pc_get, pc_put};
  w->last_get = 0;
  if (holo_prompt_cache_init(&w->pc, max_entries, (uint64_t)budget_hi << 32 | budget_lo,
                             use_store ? &w->store : 0, &GX_ALLOC, err) != HOLO_OK) {
    wasm_free(w);
    return 0;
  }
  return w;
}

/* Call before the session is freed (the entries hold values in it). */
EXPORT(holo_wasm_pcache_free) void wasm_pcache_free(wasm_pcache *w) {
  if (!w) return;
  holo_prompt_cache_free(&w->pc, 0);
  if (w->last_get) wasm_free((void *)w->last_get);
  wasm_free(w);
}

EXPORT(holo_wasm_gen_prefill_cached)
int wasm_gen_prefill_cached(holo_gen *g, wasm_pcache *w, const uint32_t *tokens, uint32_t n, uint32_t *reused,
                            holo_error *err) {
  holo_status st = holo_gen_prefill_cached(g, &w->pc, tokens, n, reused, err);
  if (w->last_get) wasm_free((void *)w->last_get);
  w->last_get = 0;
  return st;
}

/* lookups, hits, misses, tokens reused, inserts, evictions, store hits,
 * store puts, bytes held, entries, byte bound, store corrupt (last: the
 * earlier slots keep their places) */
EXPORT(holo_wasm_pcache_stats) void wasm_pcache_stats(wasm_pcache *w, uint64_t *out) {
  const holo_prompt_cache_stats *s = &w->pc.stats;
  out[0] = s->lookups, out[1] = s->hits, out[2] = s->misses, out[3] = s->tokens_reused, out[4] = s->inserts;
  out[5] = s->evictions, out[6] = s->store_hits, out[7] = s->store_puts, out[8] = w->pc.bytes;
  uint64_t n = 0;
  for (uint32_t i = 0; i < w->pc.cap; i++)
    n += w->pc.e[i].used;
  out[9] = n, out[10] = w->pc.budget, out[11] = s->store_corrupt;
}
