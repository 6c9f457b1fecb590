/* BufferArena: the content-addressed pool. Every resident value is an entry
 * keyed by its κ-label digest and bound to one 64-byte-aligned buffer;
 * views (reshapes) are further entries on the same buffer.
 *
 * Pinned entries (constants, the constant-only cone) stay for the session.
 * Transient entries live in a byte-bounded pool ordered least- to
 * most-recently touched: entries not touched by the current execution (the
 * older generation) are evicted first, and an entry still live in the
 * current execution is never evicted. */
#ifndef HOLO_ARENA_H
#define HOLO_ARENA_H

#include "hologram/holo.h"
#include "label.h"

typedef struct holo_buf {
  uint8_t *data;
  size_t bytes;
  uint32_t refs;      /* entries bound to it (+1 while being filled) */
  uint32_t live_refs; /* live entries bound to it */
  bool owned;         /* allocated by the arena (else: borrowed archive bytes) */
  bool pinned;
} holo_buf;

typedef struct holo_entry {
  holo_digest d;
  holo_buf *buf;
  uint32_t dtype, rank;
  int64_t shape[HOLO_MAX_RANK];
  uint32_t live; /* slots of the current execution still needing it */
  bool pinned;
  bool demoted;                   /* retired intermediate, at the evict-first end */
  bool fed;                       /* made from a caller's input bytes, not computed */
  bool anon;                      /* outside the table and the list: dropped when no longer live */
  bool sourced;                   /* a constant read from a source (session-weights.c): pinned,
                                     not in the table, its live count keeps it from eviction */
  uint64_t dbytes;                /* what it added to demoted_bytes when demoted */
  uint64_t stamp;                 /* execution number that last touched it */
  struct holo_entry *prev, *next; /* LRU list of transient entries */
} holo_entry;

typedef struct holo_slot {
  holo_entry *e; /* 0: empty */
  uint32_t h;    /* the first four bytes of e's digest */
} holo_slot;

typedef struct holo_arena {
  holo_allocator a;
  holo_slot *tab; /* the content table (arena.c) */
  uint32_t cap, count;
  holo_entry *lru_head, *lru_tail;
  holo_entry *spare; /* dropped entry records kept for reuse (linked by next) */
  uint32_t n_spare;
  uint64_t budget;          /* 0 = unbounded */
  uint64_t retain;          /* cap on transient bytes kept after they stop being live */
  uint64_t hold;            /* the part of it earned so far by memo records (arena.c) */
  uint64_t demoted_bytes;   /* of those, retired intermediates' (demoted entries) */
  uint32_t n_transient;     /* entries in the LRU list */
  uint64_t transient_bytes; /* owned, unpinned buffers */
  uint64_t resident_bytes;  /* all buffers, pinned and borrowed included */
  uint64_t live_bytes, peak_live, peak_resident;
  uint32_t n_bufs;
  uint64_t evictions;
  uint64_t epoch; /* current execution number */
  /* Called with each entry the pool evicts, before its bytes go (tiered
   * execution writes it to a warm store: runtime/session-tier.c). */
  void (*on_evict)(void *ctx, const holo_entry *e);
  void *on_evict_ctx;
} holo_arena;

holo_status holo_arena_init(holo_arena *ar, const holo_allocator *a, uint64_t budget, holo_error *err);
void holo_arena_destroy(holo_arena *ar);

holo_entry *holo_arena_find(holo_arena *ar, const holo_digest *d);
/* A new owned buffer of `bytes` (refs = 1, the caller's). Transient ones
 * may evict older entries; HOLO_ERR_BUDGET when even that cannot make room. */
holo_status holo_arena_alloc(holo_arena *ar, size_t bytes, bool pinned, holo_buf **out, holo_error *err);
/* A buffer over bytes the arena does not own (archive constants). */
holo_status holo_arena_borrow(holo_arena *ar, const uint8_t *data, size_t bytes, holo_buf **out,
                              holo_error *err);
void holo_arena_unref(holo_arena *ar, holo_buf *b);
/* Binds a new entry to buf (taking a ref). The digest must not be resident. */
holo_status holo_arena_insert(holo_arena *ar, const holo_digest *d, holo_buf *buf, uint32_t dtype,
                              uint32_t rank, const int64_t *shape, bool pinned, holo_entry **out,
                              holo_error *err);
/* An entry for a value never looked up by label (runtime/session-anon.c):
 * bound to buf (taking a ref) but in neither the table nor the LRU list;
 * the caller drops it with holo_arena_drop_anon when it is no longer live. */
holo_status holo_arena_anon(holo_arena *ar, const holo_digest *d, holo_buf *buf, uint32_t dtype,
                            uint32_t rank, const int64_t *shape, holo_entry **out, holo_error *err);
void holo_arena_drop_anon(holo_arena *ar, holo_entry *e);
/* Marks the entry used by the current execution (promotes it). */
void holo_arena_touch(holo_arena *ar, holo_entry *e);
/* Moves a transient entry to the evict-first end. */
void holo_arena_demote(holo_arena *ar, holo_entry *e);
void holo_arena_live_inc(holo_arena *ar, holo_entry *e);
void holo_arena_live_dec(holo_arena *ar, holo_entry *e);
/* A memo record named outputs the pool had evicted: a larger cache would
 * have answered, so the dead values held may double, up to `retain`. */
void holo_arena_widen(holo_arena *ar);
/* Makes a transient entry pinned (cone results). */
void holo_arena_pin(holo_arena *ar, holo_entry *e);

#endif
