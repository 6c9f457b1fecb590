/* The bounded MemWarmStore (runtime/mem-store.c, issue 22): caps on bytes
 * and records hold under 10,000 distinct puts, eviction is least recently
 * used with get refreshing recency, a record over the byte cap is not kept,
 * a repeated put is one record, lowering the caps evicts at once; the
 * order is checked against a reference model of the LRU list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "holo-std.h"
#include "hologram/holo.h"
#include "hologram/label.h"
#include "hologram/sha256.h"

static void label_of(uint32_t i, char out[HOLO_LABEL_LEN + 1]) {
  holo_digest d;
  uint8_t b[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16), (uint8_t)(i >> 24)};
  holo_sha256_digest(b, 4, d.b);
  holo_label_render(&d, out);
}

static holo_status put(holo_mem_store *ms, uint32_t i, size_t len) {
  char l[HOLO_LABEL_LEN + 1];
  uint8_t buf[512];
  label_of(i, l);
  memset(buf, (int)(i & 0xff), sizeof buf);
  return ms->store.put(ms->store.ctx, l, buf, len);
}

static bool has(holo_mem_store *ms, uint32_t i) {
  char l[HOLO_LABEL_LEN + 1];
  const uint8_t *b = 0;
  size_t n = 0;
  label_of(i, l);
  if (ms->store.get(ms->store.ctx, l, &b, &n) != HOLO_OK) return false;
  for (size_t k = 0; k < n; k++)
    if (b[k] != (uint8_t)(i & 0xff)) fail_msg("record %u: byte %zu changed", i, k);
  return true;
}

static void caps_hold_under_ten_thousand_puts(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  assert_int_equal(ms.max_bytes, HOLO_MEM_STORE_MAX_BYTES);
  holo_mem_store_bound(&ms, 30000, 300);
  for (uint32_t i = 0; i < 10000; i++) {
    assert_int_equal(put(&ms, i, 1 + i % 500), HOLO_OK);
    if (ms.bytes > 30000 || ms.count > 300)
      fail_msg("after put %u: %u records, %llu bytes", i, ms.count, (unsigned long long)ms.bytes);
  }
  assert_true(ms.evicted > 9000);
  assert_true(has(&ms, 9999)); /* the newest is always kept */
  uint64_t sum = 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < 10000; i++)
    if (has(&ms, i)) sum += 1 + i % 500, n++;
  assert_int_equal(n, ms.count);
  assert_int_equal(sum, ms.bytes);
  holo_mem_store_release(&ms);
  assert_int_equal(ms.count, 0);
  assert_int_equal(ms.bytes, 0);
}

/* Reference: an array in recency order (index 0 most recent). */
typedef struct {
  uint32_t id[64], len[64], n;
} lru_model;

static void model_touch(lru_model *m, uint32_t k) {
  uint32_t id = m->id[k], len = m->len[k];
  memmove(m->id + 1, m->id, k * sizeof m->id[0]);
  memmove(m->len + 1, m->len, k * sizeof m->len[0]);
  m->id[0] = id, m->len[0] = len;
}

static void eviction_is_least_recently_used(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_mem_store_bound(&ms, 2000, 8);
  lru_model m = {{0}, {0}, 0};
  uint32_t x = 12345;
  for (uint32_t step = 0; step < 3000; step++) {
    x = x * 1103515245u + 12345u;
    uint32_t id = (x >> 8) % 24, len = 1 + (x >> 20) % 400;
    if ((x >> 4) & 1) { /* get: present iff the model has it, and it becomes most recent */
      uint32_t k = 0;
      while (k < m.n && m.id[k] != id)
        k++;
      assert_int_equal(has(&ms, id), k < m.n);
      if (k < m.n) model_touch(&m, k);
      continue;
    }
    uint32_t k = 0;
    while (k < m.n && m.id[k] != id)
      k++;
    assert_int_equal(put(&ms, id, len), HOLO_OK);
    if (k < m.n) continue; /* same label: unchanged, recency unchanged */
    uint64_t bytes = 0;
    for (uint32_t j = 0; j < m.n; j++)
      bytes += m.len[j];
    while (m.n && (bytes + len > 2000 || m.n + 1 > 8))
      bytes -= m.len[--m.n];
    memmove(m.id + 1, m.id, m.n * sizeof m.id[0]);
    memmove(m.len + 1, m.len, m.n * sizeof m.len[0]);
    m.id[0] = id, m.len[0] = (uint32_t)len, m.n++;
    assert_int_equal(ms.count, m.n);
  }
  holo_mem_store_release(&ms);
}

static void oversize_repeat_and_lowered_caps(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_mem_store_bound(&ms, 100, 10);
  assert_int_equal(put(&ms, 1, 101), HOLO_OK); /* over the cap: not kept */
  assert_false(has(&ms, 1));
  assert_int_equal(ms.count, 0);
  assert_int_equal(ms.evicted, 1);
  assert_int_equal(put(&ms, 2, 100), HOLO_OK);
  assert_int_equal(put(&ms, 2, 100), HOLO_OK);
  assert_int_equal(ms.count, 1);
  assert_int_equal(ms.bytes, 100);
  assert_int_equal(put(&ms, 3, 0), HOLO_OK); /* an empty record is a record */
  assert_true(has(&ms, 3));
  for (uint32_t i = 4; i < 12; i++)
    assert_int_equal(put(&ms, i, 0), HOLO_OK);
  assert_int_equal(ms.count, 10);
  assert_true(has(&ms, 2));
  holo_mem_store_bound(&ms, 100, 3); /* evicts down at once */
  assert_int_equal(ms.count, 3);
  assert_true(has(&ms, 2));        /* refreshed by the last get */
  holo_mem_store_bound(&ms, 0, 0); /* 0: the defaults */
  assert_int_equal(ms.max_entries, HOLO_MEM_STORE_MAX_ENTRIES);
  char bad[HOLO_LABEL_LEN + 1];
  memset(bad, 'x', HOLO_LABEL_LEN);
  bad[HOLO_LABEL_LEN] = 0;
  assert_int_equal(ms.store.put(ms.store.ctx, bad, (const uint8_t *)"", 0), HOLO_ERR_STORE);
  holo_mem_store_release(&ms);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(caps_hold_under_ten_thousand_puts),
      cmocka_unit_test(eviction_is_least_recently_used),
      cmocka_unit_test(oversize_repeat_and_lowered_caps),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
