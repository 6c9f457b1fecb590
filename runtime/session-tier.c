/* tiered-exec (docs/warm-store.md "Tiered execution"): what the pool evicts
 * and is worth keeping (an execution's outputs, the state a generator or a
 * refinement carries; not retired intermediates, which are the pool's
 * scratch) is written to the warm store, up to the spill budget over the
 * session's life, and read back by label when a later execution needs it:
 * a memo hit whose outputs left memory, or a node whose output label was
 * spilled. A read-back value is verified against its content digest like
 * every store record (unless the store is trusted), so a poisoned or
 * truncated record is counted and recomputed, never returned.
 *
 * A filter of the labels spilled keeps the store off the path of values
 * never spilled: without it every node of a fresh input would ask the store
 * first. A false positive costs one store miss. */
#include "hologram/error.h"
#include "hologram/mem.h"
#include "session-impl.h"
#include "warm.h"

#define FILTER_BITS (1u << 16)

static uint32_t filter_bit(const holo_digest *d, uint32_t k) {
  const uint8_t *p = d->b + 4 * k;
  return ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) &
         (FILTER_BITS - 1);
}

static bool maybe_spilled(const holo_session *s, const holo_digest *d) {
  for (uint32_t k = 0; k < 2; k++) {
    uint32_t b = filter_bit(d, k);
    if (!(s->tier.filter[b >> 3] & (1u << (b & 7)))) return false;
  }
  return true;
}

static void spill(void *ctx, const holo_entry *e) {
  holo_session *s = ctx;
  if (e->demoted || e->pinned || !e->buf->owned || e->buf->pinned) return;
  uint64_t n = e->buf->bytes;
  if (s->tier.spilled + n > s->tier.budget) return;
  uint64_t puts = s->c.store_puts;
  holo_warm_put(s->store, &s->arena, e, &s->c);
  if (s->c.store_puts == puts) return; /* the store refused it, or no memory for the record */
  s->tier.spilled += n;
  s->c.spills++;
  for (uint32_t k = 0; k < 2; k++) {
    uint32_t b = filter_bit(&e->d, k);
    s->tier.filter[b >> 3] |= (uint8_t)(1u << (b & 7));
  }
}

holo_status holo_session_set_spill_budget(holo_session *s, uint64_t bytes) {
  if (!s) return HOLO_ERR_ARG;
  if (bytes && (!s->store || !s->store->get || !s->store->put)) return HOLO_ERR_ARG;
  if (bytes && !s->tier.filter && !(s->tier.filter = holo__s_zalloc(s, FILTER_BITS / 8, 1)))
    return HOLO_ERR_MEMORY;
  s->tier.budget = bytes;
  s->arena.on_evict = bytes ? spill : 0;
  s->arena.on_evict_ctx = s;
  return HOLO_OK;
}

bool holo__s_tier_promote(holo_session *s, const holo_digest *d, uint32_t n) {
  if (!s->tier.filter) return false;
  bool any = false;
  for (uint32_t k = 0; k < n; k++) {
    if (holo_arena_find(&s->arena, &d[k])) continue;
    if (!maybe_spilled(s, &d[k])) return false;
    any = true;
  }
  if (!any) return false;
  /* A failure here (no room under the budget) only means the node runs. */
  holo_error scratch = {0};
  uint64_t hits = s->c.store_hits;
  if (holo_warm_fetch_as(s->store, &s->arena, d, n, s->flags & HOLO_OPT_TRUST_STORE, false, &s->c, &scratch))
    return false;
  s->c.promotions += s->c.store_hits - hits;
  for (uint32_t k = 0; k < n; k++)
    if (!holo_arena_find(&s->arena, &d[k])) return false;
  return true;
}

void holo__s_tier_free(holo_session *s) {
  s->arena.on_evict = 0;
  holo__s_free(s, s->tier.filter);
  s->tier.filter = 0;
}
