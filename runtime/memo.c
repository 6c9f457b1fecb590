#include "memo.h"

#include "archive.h"
#include "hologram/mem.h"

static uint32_t slot(const holo_digest *k) { return ((uint32_t)k->b[0] | (uint32_t)k->b[1] << 8) % HOLO_MEMO_SLOTS; }

holo_status holo_memo_init(holo_memo *m, const holo_allocator *a, uint32_t n_out, holo_error *err) {
  holo_memset(m, 0, sizeof *m);
  m->a = *a;
  m->n_out = n_out;
  size_t outs = (size_t)HOLO_MEMO_SLOTS * (n_out ? n_out : 1) * sizeof(holo_digest);
  m->keys = a->alloc(a->ctx, HOLO_MEMO_SLOTS * sizeof(holo_digest), 16);
  m->used = a->alloc(a->ctx, HOLO_MEMO_SLOTS, 16);
  m->outs = a->alloc(a->ctx, outs, 16);
  if (!m->keys || !m->used || !m->outs) {
    holo_memo_destroy(m);
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory creating the graph memo");
  }
  holo_memset(m->used, 0, HOLO_MEMO_SLOTS);
  return HOLO_OK;
}

void holo_memo_destroy(holo_memo *m) {
  if (m->keys) m->a.free(m->a.ctx, m->keys);
  if (m->used) m->a.free(m->a.ctx, m->used);
  if (m->outs) m->a.free(m->a.ctx, m->outs);
  m->keys = 0;
  m->used = 0;
  m->outs = 0;
}

const holo_digest *holo_memo_get(const holo_memo *m, const holo_digest *key) {
  uint32_t i = slot(key);
  if (!m->used || !m->used[i] || !holo_digest_eq(&m->keys[i], key)) return 0;
  return m->outs + (size_t)i * m->n_out;
}

void holo_memo_put(holo_memo *m, const holo_digest *key, const holo_digest *outs) {
  uint32_t i = slot(key);
  if (!m->used) return;
  m->keys[i] = *key;
  m->used[i] = 1;
  for (uint32_t k = 0; k < m->n_out; k++) m->outs[(size_t)i * m->n_out + k] = outs[k];
}
