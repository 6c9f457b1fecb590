/* WarmStore records: how a resident value is written to and read back from
 * a host store. Record layout (docs/warm-store.md):
 *   "HOLOWS2\0" | 71-byte label | u32 dtype | u32 rank | i64 dims[rank] | 32-byte content digest | bytes
 * The content digest lets a reader detect a corrupt or truncated record. */
#ifndef HOLO_WARM_H
#define HOLO_WARM_H

#include "arena.h"

/* Looks up each of the n labels; every record found and intact becomes a
 * pinned entry. A corrupt record is counted and ignored (the value is then
 * recomputed). Only an allocation failure is an error. */
holo_status holo_warm_fetch(holo_warm_store *ws, holo_arena *ar, const holo_digest *labels, uint32_t n,
                            bool trust, holo_counters *c, holo_error *err);
/* Writes one entry; a store failure is counted, never fatal. */
void holo_warm_put(holo_warm_store *ws, holo_arena *ar, const holo_entry *e, holo_counters *c);

#endif
