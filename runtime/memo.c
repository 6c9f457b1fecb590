#include "memo.h"

#include "archive.h"
#include "hologram/mem.h"

#define WAYS 4u

/* First slot of the key's set (keys are SHA-256 digests: any bytes are uniform). */
static uint32_t set_of(const holo_memo *m, const holo_digest *k) {
  uint32_t h = (uint32_t)k->b[0] | (uint32_t)k->b[1] << 8 | (uint32_t)k->b[2] << 16 | (uint32_t)k->b[3] << 24;
  return (h & (m->slots / WAYS - 1)) * WAYS;
}

holo_status holo_memo_init(holo_memo *m, const holo_allocator *a, uint32_t n_out, holo_error *err) {
  holo_memset(m, 0, sizeof *m);
  m->a = *a;
  m->n_out = n_out;
  m->slots = n_out <= 2 ? 16384 : n_out <= 8 ? 4096 : n_out <= 64 ? 512 : 64;
  size_t outs = (size_t)m->slots * (n_out ? n_out : 1) * sizeof(holo_digest);
  m->keys = a->alloc(a->ctx, m->slots * sizeof(holo_digest), 16);
  m->used = a->alloc(a->ctx, m->slots * sizeof(uint32_t), 16);
  m->outs = a->alloc(a->ctx, outs, 16);
  if (!m->keys || !m->used || !m->outs) {
    holo_memo_destroy(m);
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory creating the graph memo");
  }
  holo_memset(m->used, 0, m->slots * sizeof(uint32_t));
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

/* Recency by a wrapping counter: on wrap every record restarts at 1, so
 * order is lost once per 2^32 uses, never correctness. */
static void touch(holo_memo *m, uint32_t i) {
  if (++m->clock == 0) {
    for (uint32_t j = 0; j < m->slots; j++)
      if (m->used[j]) m->used[j] = 1;
    m->clock = 2;
  }
  m->used[i] = m->clock;
}

const holo_digest *holo_memo_get(holo_memo *m, const holo_digest *key) {
  if (!m->used) return 0;
  uint32_t s = set_of(m, key);
  for (uint32_t i = s; i < s + WAYS; i++)
    if (m->used[i] && holo_digest_eq(&m->keys[i], key)) {
      touch(m, i);
      return m->outs + (size_t)i * m->n_out;
    }
  return 0;
}

void holo_memo_put(holo_memo *m, const holo_digest *key, const holo_digest *outs) {
  if (!m->used) return;
  uint32_t s = set_of(m, key), victim = s;
  for (uint32_t i = s; i < s + WAYS; i++) {
    if (m->used[i] && holo_digest_eq(&m->keys[i], key)) { victim = i; break; } /* same key: refresh */
    if (!m->used[i]) { victim = i; break; }
    if (m->used[i] < m->used[victim]) victim = i;
  }
  m->keys[victim] = *key;
  for (uint32_t k = 0; k < m->n_out; k++) m->outs[(size_t)victim * m->n_out + k] = outs[k];
  touch(m, victim);
}
