#include "arena.h"

#include "hologram/error.h"
#include "hologram/mem.h"

#define BUF_ALIGN 64
/* An owned buffer's record sits in the first BUF_ALIGN bytes of its own
 * allocation, the data after it: one allocation (and one free) per computed
 * value instead of two. */
#define BUF_HDR BUF_ALIGN
_Static_assert(sizeof(holo_buf) <= BUF_HDR, "holo_buf fits its header slot");
/* Dropped entry records kept for reuse: an execution drops about as many
 * as it inserts, so the steady state allocates none. */
#define SPARE_ENTRIES 64u
/* Where the dead values held for memo hits start (hold_cap below). */
#define HOLD_FLOOR ((uint64_t)4 << 20)

/* The table: open addressing with linear probing over `cap` slots, each an
 * entry pointer and the first four bytes of its digest side by side, so a
 * probe compares within one slot and reads an entry only on a tag match.
 * The pool holds thousands of retained values and nearly every lookup is a
 * miss (a node's new label): without the tags each probe was a cache miss
 * on an entry (holo_arena_find was 15 % of a 64-node run in wasm, table
 * removal 7 %). Load factor at most 1/2. */
static uint32_t hash_of(const holo_digest *d) {
  return (uint32_t)d->b[0] | (uint32_t)d->b[1] << 8 | (uint32_t)d->b[2] << 16 | (uint32_t)d->b[3] << 24;
}

static void *alloc_evicting(holo_arena *ar, size_t bytes, size_t align);

static holo_slot *table_new(holo_arena *ar, uint32_t cap) {
  holo_slot *t = alloc_evicting(ar, sizeof *t * cap, 16);
  if (t) holo_memset(t, 0, sizeof *t * cap);
  return t;
}

holo_status holo_arena_init(holo_arena *ar, const holo_allocator *a, uint64_t budget, holo_error *err) {
  holo_memset(ar, 0, sizeof *ar);
  ar->a = *a;
  ar->budget = budget;
  ar->hold = HOLD_FLOOR;
  ar->cap = 64;
  ar->tab = table_new(ar, ar->cap);
  if (!ar->tab) return holo_err(err, HOLO_ERR_MEMORY, "out of memory creating the arena");
  return HOLO_OK;
}

holo_entry *holo_arena_find(holo_arena *ar, const holo_digest *d) {
  uint32_t h = hash_of(d), mask = ar->cap - 1;
  for (uint32_t i = h & mask;; i = (i + 1) & mask) {
    const holo_slot *t = &ar->tab[i];
    if (!t->e) return 0;
    if (t->h == h && holo_digest_eq(&t->e->d, d)) return t->e;
  }
}

/* Puts e (hash h) in the first free slot of its probe sequence. */
static void table_put(holo_slot *tab, uint32_t cap, holo_entry *e, uint32_t h) {
  uint32_t i = h & (cap - 1);
  while (tab[i].e)
    i = (i + 1) & (cap - 1);
  tab[i] = (holo_slot){e, h};
}

static holo_status grow_table(holo_arena *ar, holo_error *err) {
  uint32_t ncap = ar->cap * 2;
  holo_slot *nt = table_new(ar, ncap);
  if (!nt) return holo_err(err, HOLO_ERR_MEMORY, "out of memory growing the content store to %u slots", ncap);
  for (uint32_t i = 0; i < ar->cap; i++)
    if (ar->tab[i].e) table_put(nt, ncap, ar->tab[i].e, ar->tab[i].h);
  ar->a.free(ar->a.ctx, ar->tab);
  ar->tab = nt;
  ar->cap = ncap;
  return HOLO_OK;
}

/* Linear-probing removal with backward shift, so lookups need no tombstones. */
static void table_remove(holo_arena *ar, holo_entry *e) {
  uint32_t mask = ar->cap - 1, i = hash_of(&e->d) & mask;
  while (ar->tab[i].e != e)
    i = (i + 1) & mask;
  ar->tab[i].e = 0;
  for (uint32_t j = (i + 1) & mask; ar->tab[j].e; j = (j + 1) & mask) {
    uint32_t home = ar->tab[j].h & mask;
    /* Move tab[j] into the hole when its home is not within (i, j]. */
    bool between = (i <= j) ? (home > i && home <= j) : (home > i || home <= j);
    if (!between) {
      ar->tab[i] = ar->tab[j];
      ar->tab[j].e = 0;
      i = j;
    }
  }
  ar->count--;
}

static void lru_unlink(holo_arena *ar, holo_entry *e) {
  ar->n_transient--;
  if (e->prev)
    e->prev->next = e->next;
  else if (ar->lru_head == e)
    ar->lru_head = e->next;
  if (e->next)
    e->next->prev = e->prev;
  else if (ar->lru_tail == e)
    ar->lru_tail = e->prev;
  e->prev = e->next = 0;
}

static void lru_append(holo_arena *ar, holo_entry *e) {
  ar->n_transient++;
  e->prev = ar->lru_tail;
  e->next = 0;
  if (ar->lru_tail)
    ar->lru_tail->next = e;
  else
    ar->lru_head = e;
  ar->lru_tail = e;
}

void holo_arena_unref(holo_arena *ar, holo_buf *b) {
  if (--b->refs) return;
  if (b->owned && !b->pinned) ar->transient_bytes -= b->bytes;
  ar->resident_bytes -= b->bytes;
  ar->n_bufs--;
  ar->a.free(ar->a.ctx, b); /* an owned buffer's data is in the same block */
}

static void entry_free(holo_arena *ar, holo_entry *e) {
  if (ar->n_spare < SPARE_ENTRIES) {
    e->next = ar->spare;
    ar->spare = e;
    ar->n_spare++;
    return;
  }
  ar->a.free(ar->a.ctx, e);
}

/* The bytes a demoted entry counts: its buffer's, if the arena owns it and
 * it is transient (a view sharing a buffer counts it again: stricter). */
static uint64_t demoted_size(const holo_entry *e) {
  return e->buf->owned && !e->buf->pinned ? e->buf->bytes : 0;
}

static void undemote(holo_arena *ar, holo_entry *e) {
  if (!e->demoted) return;
  e->demoted = false;
  ar->demoted_bytes -= e->dbytes;
}

static void entry_drop(holo_arena *ar, holo_entry *e) {
  undemote(ar, e);
  table_remove(ar, e);
  if (!e->pinned) lru_unlink(ar, e);
  holo_arena_unref(ar, e->buf);
  entry_free(ar, e);
}

/* Every eviction of the pool: the hook sees the entry while its bytes exist. */
static void evict(holo_arena *ar, holo_entry *e) {
  if (ar->on_evict) ar->on_evict(ar->on_evict_ctx, e);
  entry_drop(ar, e);
  ar->evictions++;
}

/* Evicts least-recently-touched non-live transient entries until `need`
 * more transient bytes fit the budget. The list is ordered by touch, so
 * entries of older executions go before those of the current one. */
static bool make_room(holo_arena *ar, size_t need) {
  holo_entry *e = ar->lru_head;
  while (ar->transient_bytes + need > ar->budget && e) {
    holo_entry *next = e->next;
    if (e->live == 0) evict(ar, e);
    e = next;
  }
  return ar->transient_bytes + need <= ar->budget;
}

/* Dead values are a cache: keep at most `retain` bytes of them, evicting
 * the least recently touched first, so memory stays bounded without a
 * budget and fresh allocations reuse freed blocks. */
/* What an entry costs beyond its bytes (entry, buffer record, table slot,
 * allocator rounding): counted so many tiny cached values stay bounded too. */
#define ENTRY_OVERHEAD 256u

/* Past executions' inputs and outputs (what a memo hit needs) are held to
 * `hold`, which starts at HOLD_FLOOR (or twice the peak live bytes, so the
 * last execution's outputs always stay) and doubles up to `retain` each time
 * a memo record finds its outputs evicted (holo_arena_widen). Going straight
 * to `retain` made every execution write memory nothing had touched until
 * 64 MiB had filled: a first touch of a wasm page costs 13.6 µs on the CI
 * machine (about 30,000 executions of a 4-node [1,512] chain at 2.3x its
 * steady time, docs/memory.md). The cache grows only as reuse proves it
 * pays; the labels and what a hit returns do not change. */
static uint64_t hold_cap(const holo_arena *ar) {
  uint64_t c = 2 * ar->peak_live > ar->hold ? 2 * ar->peak_live : ar->hold;
  return c < ar->retain ? c : ar->retain;
}

void holo_arena_widen(holo_arena *ar) {
  if (ar->hold < ar->retain) ar->hold = ar->hold > ar->retain / 2 ? ar->retain : 2 * ar->hold;
}

static void trim_retained(holo_arena *ar, size_t need) {
  holo_entry *e = ar->lru_head;
  uint64_t cap = hold_cap(ar);
  while (e && ar->transient_bytes + (uint64_t)ar->n_transient * ENTRY_OVERHEAD + need > ar->live_bytes + cap) {
    holo_entry *next = e->next;
    if (e->live == 0) evict(ar, e);
    e = next;
  }
}

/* Retired intermediates are the cheap cache: a memo hit needs only the
 * outputs, and a value of a sub-graph whose inputs recur is touched again
 * (and leaves this group) when it is reused. Keeping up to `retain` bytes of
 * them made every execution of a small model write fresh, never-touched
 * memory until the cache filled — page faults and cache misses, 6-17x the
 * steady time of bert/gpt-sized graphs for their first ~150 executions
 * (docs/memory.md). So they are held to a scratch cap, evicting the most
 * recently retired first (the head of the list), whose memory the next
 * allocation then reuses while it is still in cache. */
#define SCRATCH_FLOOR ((uint64_t)4 << 20)
static uint64_t scratch_cap(const holo_arena *ar) {
  uint64_t c = 2 * ar->peak_live > SCRATCH_FLOOR ? 2 * ar->peak_live : SCRATCH_FLOOR;
  return c < ar->retain ? c : ar->retain;
}

static void trim_scratch(holo_arena *ar) {
  uint64_t cap = scratch_cap(ar);
  while (ar->demoted_bytes > cap && ar->lru_head && ar->lru_head->demoted && ar->lru_head->live == 0) {
    evict(ar, ar->lru_head);
  }
}

static void note_peaks(holo_arena *ar) {
  if (ar->resident_bytes > ar->peak_resident) ar->peak_resident = ar->resident_bytes;
  if (ar->live_bytes > ar->peak_live) ar->peak_live = ar->live_bytes;
}

/* The allocator is out of memory (a heap with a ceiling, in a small
 * isolate): the cached dead values of earlier executions go before the call
 * fails, so a full cache evicts rather than asks for more memory. Entries
 * of the current execution stay: a caller may hold one. True if any went. */
static bool evict_older(holo_arena *ar) {
  bool any = false;
  for (holo_entry *e = ar->lru_head, *next; e; e = next) {
    next = e->next;
    if (e->live == 0 && e->stamp < ar->epoch) {
      evict(ar, e);
      any = true;
    }
  }
  return any;
}

/* An allocation that evicts older dead values once if it must. */
static void *alloc_evicting(holo_arena *ar, size_t bytes, size_t align) {
  void *p = ar->a.alloc(ar->a.ctx, bytes, align);
  if (!p && evict_older(ar)) p = ar->a.alloc(ar->a.ctx, bytes, align);
  return p;
}

holo_status holo_arena_alloc(holo_arena *ar, size_t bytes, bool pinned, holo_buf **out, holo_error *err) {
  *out = 0;
  /* No single value may exceed the bound, pinned cone results included:
   * an archive must not be able to demand unbounded memory at load. */
  if (pinned && ar->budget && bytes > ar->budget)
    return holo_err(err, HOLO_ERR_BUDGET,
                    "memory budget exceeded: a value needs %zu bytes, the bound is %llu bytes", bytes,
                    (unsigned long long)ar->budget);
  if (!pinned && ar->retain != UINT64_MAX) {
    trim_scratch(ar);
    trim_retained(ar, bytes);
  }
  if (!pinned && ar->budget) {
    if (bytes > ar->budget || !make_room(ar, bytes))
      return holo_err(err, HOLO_ERR_BUDGET,
                      "memory budget exceeded: a value needs %zu bytes, the transient bound is "
                      "%llu bytes and %llu bytes are still live",
                      bytes, (unsigned long long)ar->budget, (unsigned long long)ar->live_bytes);
  }
  holo_buf *b = bytes <= SIZE_MAX - BUF_HDR ? alloc_evicting(ar, BUF_HDR + bytes, BUF_ALIGN) : 0;
  if (!b) return holo_err(err, HOLO_ERR_MEMORY, "out of memory allocating %zu bytes", bytes);
  *b = (holo_buf){(uint8_t *)b + BUF_HDR, bytes, 1, 0, true, pinned};
  if (!pinned) ar->transient_bytes += bytes;
  ar->resident_bytes += bytes;
  ar->n_bufs++;
  note_peaks(ar);
  *out = b;
  return HOLO_OK;
}

holo_status holo_arena_borrow(holo_arena *ar, const uint8_t *data, size_t bytes, holo_buf **out,
                              holo_error *err) {
  holo_buf *b = ar->a.alloc(ar->a.ctx, sizeof *b, 16);
  if (!b) return holo_err(err, HOLO_ERR_MEMORY, "out of memory");
  *b = (holo_buf){(uint8_t *)data, bytes, 1, 0, false, true};
  ar->resident_bytes += bytes;
  ar->n_bufs++;
  note_peaks(ar);
  *out = b;
  return HOLO_OK;
}

/* A fresh entry record for d over buf (taking a ref), from the spares first. */
static holo_entry *entry_new(holo_arena *ar, const holo_digest *d, holo_buf *buf, uint32_t dtype, uint32_t rank,
                             const int64_t *shape) {
  holo_entry *e = ar->spare;
  if (e) {
    ar->spare = e->next;
    ar->n_spare--;
  } else if (!(e = alloc_evicting(ar, sizeof *e, 16))) {
    return 0;
  }
  holo_memset(e, 0, sizeof *e);
  e->d = *d;
  e->buf = buf;
  buf->refs++;
  e->dtype = dtype;
  e->rank = rank;
  for (uint32_t i = 0; i < rank; i++)
    e->shape[i] = shape[i];
  e->stamp = ar->epoch;
  return e;
}

holo_status holo_arena_anon(holo_arena *ar, const holo_digest *d, holo_buf *buf, uint32_t dtype,
                            uint32_t rank, const int64_t *shape, holo_entry **out, holo_error *err) {
  holo_entry *e = entry_new(ar, d, buf, dtype, rank, shape);
  if (!e) return holo_err(err, HOLO_ERR_MEMORY, "out of memory adding a value entry");
  e->anon = true;
  *out = e;
  return HOLO_OK;
}

void holo_arena_drop_anon(holo_arena *ar, holo_entry *e) {
  holo_arena_unref(ar, e->buf);
  entry_free(ar, e);
}

holo_status holo_arena_insert(holo_arena *ar, const holo_digest *d, holo_buf *buf, uint32_t dtype,
                              uint32_t rank, const int64_t *shape, bool pinned, holo_entry **out,
                              holo_error *err) {
  if ((ar->count + 1) * 2 > ar->cap) {
    holo_status st = grow_table(ar, err);
    if (st) return st;
  }
  holo_entry *e = entry_new(ar, d, buf, dtype, rank, shape);
  if (!e) return holo_err(err, HOLO_ERR_MEMORY, "out of memory adding a content entry");
  e->pinned = pinned;
  table_put(ar->tab, ar->cap, e, hash_of(d));
  ar->count++;
  if (!pinned) lru_append(ar, e);
  *out = e;
  return HOLO_OK;
}

void holo_arena_touch(holo_arena *ar, holo_entry *e) {
  e->stamp = ar->epoch;
  undemote(ar, e);
  if (e->pinned || e->anon || ar->lru_tail == e) return;
  lru_unlink(ar, e);
  lru_append(ar, e);
}

void holo_arena_demote(holo_arena *ar, holo_entry *e) {
  if (e->pinned || e->anon) return;
  if (!e->demoted) {
    e->demoted = true;
    e->dbytes = demoted_size(e);
    ar->demoted_bytes += e->dbytes;
  }
  if (ar->lru_head == e) return;
  lru_unlink(ar, e);
  ar->n_transient++;
  e->next = ar->lru_head;
  e->prev = 0;
  if (ar->lru_head)
    ar->lru_head->prev = e;
  else
    ar->lru_tail = e;
  ar->lru_head = e;
}

void holo_arena_live_inc(holo_arena *ar, holo_entry *e) {
  if (e->live++ == 0 && e->buf->live_refs++ == 0 && !e->buf->pinned && e->buf->owned) {
    ar->live_bytes += e->buf->bytes;
    note_peaks(ar);
  }
}

void holo_arena_live_dec(holo_arena *ar, holo_entry *e) {
  if (--e->live == 0 && --e->buf->live_refs == 0 && !e->buf->pinned && e->buf->owned)
    ar->live_bytes -= e->buf->bytes;
}

void holo_arena_pin(holo_arena *ar, holo_entry *e) {
  if (e->pinned) return;
  undemote(ar, e);
  lru_unlink(ar, e);
  e->pinned = true;
  holo_buf *b = e->buf;
  if (!b->pinned) {
    if (b->live_refs && b->owned) ar->live_bytes -= b->bytes;
    if (b->owned) ar->transient_bytes -= b->bytes;
    b->pinned = true;
  }
}

void holo_arena_destroy(holo_arena *ar) {
  if (!ar->tab) return;
  for (uint32_t i = 0; i < ar->cap; i++) {
    holo_entry *e = ar->tab[i].e;
    if (!e) continue;
    holo_arena_unref(ar, e->buf);
    ar->a.free(ar->a.ctx, e);
  }
  while (ar->spare) {
    holo_entry *e = ar->spare;
    ar->spare = e->next;
    ar->a.free(ar->a.ctx, e);
  }
  ar->n_spare = 0;
  ar->a.free(ar->a.ctx, ar->tab);
  ar->tab = 0;
}
