/* The graph memo: execution key (archive label + input labels) -> output
 * labels. Fixed-size, each key with two candidate four-way sets (memo.c says
 * why two), so a lookup is O(1) whatever the graph: a put takes a free slot
 * of the emptier set, else replaces the least recently used of the 8. Size: 16384 records for up to 2
 * outputs, fewer for more, so a session's memo stays around 1 MiB. */
#ifndef HOLO_MEMO_H
#define HOLO_MEMO_H

#include "hologram/holo.h"
#include "label.h"

typedef struct holo_memo {
  holo_allocator a;
  uint32_t n_out, slots; /* slots: a power of two, four per set */
  uint32_t clock;        /* recency counter */
  holo_digest *keys;     /* slots */
  uint32_t *used;        /* slots: 0 empty, else the clock of the last use */
  holo_digest *outs;     /* slots * n_out */
} holo_memo;

holo_status holo_memo_init(holo_memo *m, const holo_allocator *a, uint32_t n_out, holo_error *err);
/* The same with `records` slots (rounded down to a power of two, at least
 * two sets, at most HOLO_MEMO_MAX_SLOTS); 0: the default for n_out. */
holo_status holo_memo_init_records(holo_memo *m, const holo_allocator *a, uint32_t n_out, uint32_t records,
                                   holo_error *err);
void holo_memo_destroy(holo_memo *m);
const holo_digest *holo_memo_get(holo_memo *m, const holo_digest *key);
void holo_memo_put(holo_memo *m, const holo_digest *key, const holo_digest *outs);

#endif
