/* The graph memo's table (runtime/memo.c): fixed size, two candidate 4-way
 * sets per key, LRU replacement. Keys here are SHA-256 digests of counters,
 * as the session's keys are digests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "holo-std.h"
#include "memo.h"
#include "hologram/sha256.h"

static holo_digest key_of(uint32_t i) {
  holo_digest d;
  uint8_t b[4] = {(uint8_t)i, (uint8_t)(i >> 8), (uint8_t)(i >> 16), (uint8_t)(i >> 24)};
  holo_sha256_digest(b, 4, d.b);
  return d;
}

/* 3,000 keys in a 16,384-record table: every one is still there. With one
 * 4-way set per key some set receives a 5th key at this load for most key
 * sets (docs: runtime/memo.c), losing a record far below capacity. */
static void holds_every_key_far_below_capacity(void **st) {
  (void)st;
  holo_memo m;
  assert_int_equal(holo_memo_init(&m, holo_std_allocator(), 1, 0), HOLO_OK);
  assert_int_equal(m.slots, 16384);
  for (uint32_t i = 0; i < 3000; i++) {
    holo_digest k = key_of(i), v = key_of(i + 1000000);
    holo_memo_put(&m, &k, &v);
  }
  for (uint32_t i = 0; i < 3000; i++) {
    holo_digest k = key_of(i), v = key_of(i + 1000000);
    const holo_digest *got = holo_memo_get(&m, &k);
    assert_non_null(got);
    assert_memory_equal(got->b, v.b, sizeof v.b);
  }
  holo_memo_destroy(&m);
}

/* Over capacity the least recently used records go: after 40,000 distinct
 * keys the most recent 500 are all present, a re-put key is refreshed in
 * place, and a key touched by a get survives the next inserts. */
static void lru_over_capacity(void **st) {
  (void)st;
  holo_memo m;
  assert_int_equal(holo_memo_init(&m, holo_std_allocator(), 2, 0), HOLO_OK);
  holo_digest hot = key_of(7), outs[2] = {key_of(1), key_of(2)};
  holo_memo_put(&m, &hot, outs);
  for (uint32_t i = 100; i < 40100; i++) {
    holo_digest k = key_of(i);
    holo_memo_put(&m, &k, outs);
    if (i % 1000 == 0) assert_non_null(holo_memo_get(&m, &hot)); /* kept warm */
  }
  assert_non_null(holo_memo_get(&m, &hot));
  for (uint32_t i = 39600; i < 40100; i++) {
    holo_digest k = key_of(i);
    assert_non_null(holo_memo_get(&m, &k));
  }
  holo_digest k = key_of(40099), other[2] = {key_of(3), key_of(4)};
  holo_memo_put(&m, &k, other);
  const holo_digest *got = holo_memo_get(&m, &k);
  assert_non_null(got);
  assert_memory_equal(got[1].b, other[1].b, sizeof other[1].b);
  uint32_t copies = 0;
  for (uint32_t i = 0; i < m.slots; i++)
    if (m.used[i] && holo_digest_eq(&m.keys[i], &k)) copies++;
  assert_int_equal(copies, 1);
  holo_memo_destroy(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(holds_every_key_far_below_capacity),
      cmocka_unit_test(lru_over_capacity),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
