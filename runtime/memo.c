#include "memo.h"

#include "hologram/error.h"
#include "hologram/mem.h"

#define WAYS 4u

/* A build for a small-RAM target caps the table (16384 records of one
 * output are 1.1 MiB; boards/mps2-an386 builds with 256). The memo is a
 * cache: its size changes hit rates, never bytes or labels. */
#ifndef HOLO_MEMO_MAX_SLOTS
#define HOLO_MEMO_MAX_SLOTS 16384u
#endif
_Static_assert(HOLO_MEMO_MAX_SLOTS >= 2 * WAYS && (HOLO_MEMO_MAX_SLOTS & (HOLO_MEMO_MAX_SLOTS - 1)) == 0,
               "HOLO_MEMO_MAX_SLOTS: a power of two, at least two sets");

/* First slot of one of the key's two sets (keys are SHA-256 digests: any
 * bytes are uniform, so bytes 0-3 and 4-7 are independent hashes). Two
 * choices, not one: with a single 4-way set per key, 2,004 keys in 4,096
 * sets left some set with a 5th key about every other archive label (the
 * expected count of such sets is ~0.5), so a session evicted memo records
 * at 12% load; with the emptier of two sets taken at insert the chance of
 * both being full at that load is negligible (power of two choices). */
static uint32_t set_of(const holo_memo *m, const holo_digest *k, uint32_t which) {
  const uint8_t *b = k->b + 4 * which;
  uint32_t h = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return (h & (m->slots / WAYS - 1)) * WAYS;
}

holo_status holo_memo_init(holo_memo *m, const holo_allocator *a, uint32_t n_out, holo_error *err) {
  return holo_memo_init_records(m, a, n_out, 0, err);
}

holo_status holo_memo_init_records(holo_memo *m, const holo_allocator *a, uint32_t n_out, uint32_t records,
                                   holo_error *err) {
  holo_memset(m, 0, sizeof *m);
  m->a = *a;
  m->n_out = n_out;
  m->slots = n_out <= 2 ? 16384 : n_out <= 8 ? 4096 : n_out <= 64 ? 512 : 64;
  if (records) { /* a host's choice (a small isolate): a power of two, two sets at least */
    m->slots = 2 * WAYS;
    while (m->slots * 2 <= records && m->slots < HOLO_MEMO_MAX_SLOTS)
      m->slots *= 2;
  }
  if (m->slots > HOLO_MEMO_MAX_SLOTS) m->slots = HOLO_MEMO_MAX_SLOTS;
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

#define NONE 0xFFFFFFFFu

/* The slot holding key, or NONE. */
static uint32_t find(const holo_memo *m, const holo_digest *key) {
  for (uint32_t w = 0; w < 2; w++) {
    uint32_t s = set_of(m, key, w);
    for (uint32_t i = s; i < s + WAYS; i++)
      if (m->used[i] && holo_digest_eq(&m->keys[i], key)) return i;
  }
  return NONE;
}

/* A slot for a new key: the first free slot of the emptier of its two sets,
 * else the least recently used of the 8 candidates. */
static uint32_t place(const holo_memo *m, const holo_digest *key) {
  uint32_t set[2] = {set_of(m, key, 0), set_of(m, key, 1)}, n_free[2] = {0, 0}, lru = set[0];
  for (uint32_t w = 0; w < 2; w++)
    for (uint32_t i = set[w]; i < set[w] + WAYS; i++) {
      if (!m->used[i])
        n_free[w]++;
      else if (m->used[i] < m->used[lru])
        lru = i;
    }
  if (!n_free[0] && !n_free[1]) return lru;
  uint32_t i = n_free[1] > n_free[0] ? set[1] : set[0];
  while (m->used[i])
    i++;
  return i;
}

const holo_digest *holo_memo_get(holo_memo *m, const holo_digest *key) {
  if (!m->used) return 0;
  uint32_t i = find(m, key);
  if (i == NONE) return 0;
  touch(m, i);
  return m->outs + (size_t)i * m->n_out;
}

void holo_memo_put(holo_memo *m, const holo_digest *key, const holo_digest *outs) {
  if (!m->used) return;
  uint32_t i = find(m, key); /* same key: refreshed in place */
  if (i == NONE) i = place(m, key);
  m->keys[i] = *key;
  for (uint32_t k = 0; k < m->n_out; k++)
    m->outs[(size_t)i * m->n_out + k] = outs[k];
  touch(m, i);
}
