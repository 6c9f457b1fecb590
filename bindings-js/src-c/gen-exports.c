/* Generation exports beyond exports.c's step API (docs/generation.md):
 * batched prefill, position rewind, the prompt cache (bounded, persisted
 * through the host WarmStore) for the JS shim.
 *
 * A generator handle from holo_wasm_gen_new (exports.c) points at a struct
 * whose FIRST member is the holo_gen, so the handle converts to a holo_gen*
 * (C11 6.7.2.1p15); every function here takes it as such. */
#include "boundary.h"
#include "hologram/generate.h"
#include "hologram/holo.h"
#include "host-store.h"
#include "module.h"

/* ------------------------------------------------------------ generator */

EXPORT(holo_wasm_gen_seq) uint32_t wasm_gen_seq(holo_gen *g) { return g->seq; }
EXPORT(holo_wasm_gen_pos) uint32_t wasm_gen_pos(holo_gen *g) { return g->pos; }
EXPORT(holo_wasm_gen_set_masked) void wasm_gen_set_masked(holo_gen *g, uint32_t on) {
  g->m.masked_state = on != 0;
}
EXPORT(holo_wasm_gen_set_content) void wasm_gen_set_content(holo_gen *g, uint32_t on) {
  g->m.content_state = on != 0;
}

EXPORT(holo_wasm_gen_stats2) void wasm_gen_stats2_get(holo_gen *g, wasm_gen_stats *out) {
  out->steps = g->stats.steps, out->dispatches = g->stats.dispatches, out->memo_hits = g->stats.memo_hits;
  out->elided = g->stats.elided, out->tokens = g->stats.tokens;
}

EXPORT(holo_wasm_gen_prefill)
int wasm_gen_prefill(holo_gen *g, const uint32_t *tokens, uint32_t n, holo_error *err) {
  return holo_gen_prefill(g, tokens, n, err);
}

EXPORT(holo_wasm_gen_rewind) int wasm_gen_rewind(holo_gen *g, uint32_t n, holo_error *err) {
  return holo_gen_rewind(g, n, err);
}

/* (speculative decoding is in exports.c: it needs the target's sampler) */

/* --------------------------------------------------------- prompt cache */

typedef struct wasm_pcache {
  holo_prompt_cache pc;
  wasm_host_store host;
} wasm_pcache;

EXPORT(holo_wasm_pcache_new)
wasm_pcache *wasm_pcache_new(uint32_t max_entries, uint32_t budget_lo, uint32_t budget_hi, uint32_t use_store,
                             holo_error *err) {
  wasm_pcache *w = wasm_alloc(sizeof *w, 16);
  if (!w) {
    wasm_set_error(err, HOLO_ERR_MEMORY, "prompt cache: out of memory");
    return 0;
  }
  wasm_host_store_init(&w->host);
  if (holo_prompt_cache_init(&w->pc, max_entries, (uint64_t)budget_hi << 32 | budget_lo,
                             use_store ? &w->host.store : 0, &wasm_allocator, err) != HOLO_OK) {
    wasm_free(w);
    return 0;
  }
  return w;
}

/* Call before the session is freed (the entries hold values in it). */
EXPORT(holo_wasm_pcache_free) void wasm_pcache_free(wasm_pcache *w) {
  if (!w) return;
  holo_prompt_cache_free(&w->pc, 0);
  wasm_host_store_release(&w->host);
  wasm_free(w);
}

EXPORT(holo_wasm_gen_prefill_cached)
int wasm_gen_prefill_cached(holo_gen *g, wasm_pcache *w, const uint32_t *tokens, uint32_t n, uint32_t *reused,
                            holo_error *err) {
  holo_status st = holo_gen_prefill_cached(g, &w->pc, tokens, n, reused, err);
  wasm_host_store_release(&w->host);
  return st;
}

/* prefill_cached that also records the prefixes at checkpoints[0..n_cp) (ascending lengths). */
EXPORT(holo_wasm_gen_prefill_checkpointed)
int wasm_gen_prefill_checkpointed(holo_gen *g, wasm_pcache *w, const uint32_t *tokens, uint32_t n,
                                  const uint32_t *checkpoints, uint32_t n_cp, uint32_t *reused, holo_error *err) {
  holo_status st = holo_gen_prefill_checkpointed(g, &w->pc, tokens, n, checkpoints, n_cp, reused, err);
  wasm_host_store_release(&w->host);
  return st;
}

EXPORT(holo_wasm_pcache_stats) void wasm_pcache_stats_get(wasm_pcache *w, wasm_pcache_stats *out) {
  const holo_prompt_cache_stats *s = &w->pc.stats;
  out->lookups = s->lookups, out->hits = s->hits, out->misses = s->misses, out->tokens_reused = s->tokens_reused;
  out->inserts = s->inserts, out->evictions = s->evictions, out->store_hits = s->store_hits;
  out->store_puts = s->store_puts, out->bytes = w->pc.bytes, out->max_bytes = w->pc.budget;
  out->store_corrupt = s->store_corrupt;
  uint64_t n = 0;
  for (uint32_t i = 0; i < w->pc.cap; i++)
    n += w->pc.e[i].used;
  out->entries = n;
}
