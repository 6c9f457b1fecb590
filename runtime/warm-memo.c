/* Memo records in a WarmStore (warm.h): memo key -> output labels. A record
 * is only a pointer: the values it names are ordinary value records, each
 * verified against its content digest when fetched, so a poisoned memo
 * record can at worst make the session fetch (verified) values or recompute. */
#include "hologram/error.h"
#include "hologram/label.h"
#include "hologram/mem.h"
#include "label.h"
#include "warm.h"

static const uint8_t MAGIC[8] = {'H', 'O', 'L', 'O', 'M', 'K', '1', 0};
#define MEMO_MAX_OUT 64

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static size_t record_len(uint32_t n) { return 8 + HOLO_LABEL_LEN + 4 + (size_t)n * HOLO_LABEL_LEN; }

/* False unless the record is exactly one for this key with n outputs: a
 * record replayed from another key (another input, another archive or
 * backend) or truncated is refused. */
static bool parse(const uint8_t *p, size_t len, const char *key, uint32_t n, holo_digest *outs) {
  if (len < record_len(0) || holo_memcmp(p, MAGIC, 8) != 0) return false;
  if (holo_memcmp(p + 8, key, HOLO_LABEL_LEN) != 0) return false;
  if (rd32(p + 8 + HOLO_LABEL_LEN) != n || len != record_len(n)) return false;
  const uint8_t *q = p + record_len(0);
  for (uint32_t k = 0; k < n; k++)
    if (!holo_label_parse((const char *)q + (size_t)k * HOLO_LABEL_LEN, HOLO_LABEL_LEN, &outs[k]))
      return false;
  return true;
}

bool holo_warm_memo_fetch(holo_warm_store *ws, holo_arena *ar, const holo_digest *key, uint32_t n, bool trust,
                          holo_digest *outs, holo_counters *c, holo_error *err) {
  if (!ws || !ws->get || n > MEMO_MAX_OUT) return false;
  char label[HOLO_LABEL_LEN + 1];
  holo_label_render(key, label);
  const uint8_t *bytes = 0;
  size_t len = 0;
  if (ws->get(ws->ctx, label, &bytes, &len) != HOLO_OK || !bytes) {
    c->store_misses++;
    return false;
  }
  if (!parse(bytes, len, label, n, outs)) {
    c->store_corrupt++;
    return false;
  }
  c->store_hits++;
  /* bytes are the store's until its next call: outs holds what we need. */
  if (holo_warm_fetch_as(ws, ar, outs, n, trust, false, c, err) != HOLO_OK) return false;
  for (uint32_t k = 0; k < n; k++)
    if (!holo_arena_find(ar, &outs[k])) return false;
  return true;
}

void holo_warm_memo_put(holo_warm_store *ws, holo_arena *ar, const holo_digest *key, holo_entry *const *outs,
                        uint32_t n, holo_counters *c) {
  if (!ws || !ws->put || n > MEMO_MAX_OUT) return;
  for (uint32_t k = 0; k < n; k++)
    holo_warm_put(ws, ar, outs[k], c);
  size_t len = record_len(n);
  uint8_t *rec = ar->a.alloc(ar->a.ctx, len, 16);
  if (!rec) return;
  char label[HOLO_LABEL_LEN + 1];
  holo_label_render(key, label);
  holo_memcpy(rec, MAGIC, 8);
  holo_memcpy(rec + 8, label, HOLO_LABEL_LEN);
  holo_put_u32le(rec + 8 + HOLO_LABEL_LEN, n);
  for (uint32_t k = 0; k < n; k++) {
    holo_label_render(&outs[k]->d, label);
    holo_memcpy(rec + record_len(k), label, HOLO_LABEL_LEN);
  }
  holo_label_render(key, label);
  if (ws->put(ws->ctx, label, rec, len) == HOLO_OK) c->store_puts++;
  ar->a.free(ar->a.ctx, rec);
}
