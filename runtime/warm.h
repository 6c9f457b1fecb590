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
/* The same, the entries pinned or transient (an execution's outputs). */
holo_status holo_warm_fetch_as(holo_warm_store *ws, holo_arena *ar, const holo_digest *labels, uint32_t n,
                               bool trust, bool pinned, holo_counters *c, holo_error *err);
/* Writes one entry; a store failure is counted, never fatal. */
void holo_warm_put(holo_warm_store *ws, holo_arena *ar, const holo_entry *e, holo_counters *c);

/* Memo records (runtime/warm-memo.c): an execution's memo key -> its output
 * labels, so another process with the same archive and input labels answers
 * from the store. Record layout (docs/warm-store.md):
 *   "HOLOMK1\0" | 71-byte memo-key label | u32 n | n 71-byte output labels
 * The record is stored under the memo key's label. */
/* Looks up the record for key and fetches the n output values it names
 * (transient entries). True when the record was intact and every output is
 * now resident; a malformed record, or one that names another key or another
 * output count, is counted in store_corrupt. */
bool holo_warm_memo_fetch(holo_warm_store *ws, holo_arena *ar, const holo_digest *key, uint32_t n, bool trust,
                          holo_digest *outs, holo_counters *c, holo_error *err);
/* Writes the n output values, then the memo record naming them (so a reader
 * who finds the record finds the values). */
void holo_warm_memo_put(holo_warm_store *ws, holo_arena *ar, const holo_digest *key, holo_entry *const *outs,
                        uint32_t n, holo_counters *c);

#endif
