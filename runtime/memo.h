/* The graph memo: execution key (archive label + input labels) -> output
 * labels. Direct-mapped and fixed-size so a lookup is O(1) whatever the
 * graph; a colliding key simply replaces the older record. */
#ifndef HOLO_MEMO_H
#define HOLO_MEMO_H

#include "hologram/holo.h"
#include "label.h"

#define HOLO_MEMO_SLOTS 256u

typedef struct holo_memo {
  holo_allocator a;
  uint32_t n_out;
  holo_digest *keys;  /* HOLO_MEMO_SLOTS */
  uint8_t *used;      /* HOLO_MEMO_SLOTS */
  holo_digest *outs;  /* HOLO_MEMO_SLOTS * n_out */
} holo_memo;

holo_status holo_memo_init(holo_memo *m, const holo_allocator *a, uint32_t n_out, holo_error *err);
void holo_memo_destroy(holo_memo *m);
const holo_digest *holo_memo_get(const holo_memo *m, const holo_digest *key);
void holo_memo_put(holo_memo *m, const holo_digest *key, const holo_digest *outs);

#endif
