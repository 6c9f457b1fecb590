/* A session whose allocator has a ceiling (as the wasm heap has in a small
 * isolate): once the cache of dead values fills the memory, executions keep
 * succeeding by evicting the older cached values (runtime/arena.c), never by
 * needing more; repeated inputs are still memo hits. And the memo's size is
 * a host's choice (holo_session_set_memo_records). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/holo_fixture.h"

typedef struct capped {
  size_t in_use, cap, peak, refused;
} capped;

static void *capped_alloc(void *ctx, size_t size, size_t align) {
  capped *c = ctx;
  if (align < 16) align = 16;
  size_t total = size + align + 16;
  if (c->in_use + total > c->cap) {
    c->refused++;
    return 0;
  }
  uint8_t *raw = malloc(total);
  if (!raw) return 0;
  uintptr_t user = ((uintptr_t)raw + 16 + align - 1) & ~(uintptr_t)(align - 1);
  ((size_t *)user)[-1] = total;
  ((void **)user)[-2] = raw;
  c->in_use += total;
  if (c->in_use > c->peak) c->peak = c->in_use;
  return (void *)user;
}

static void capped_free(void *ctx, void *p) {
  if (!p) return;
  capped *c = ctx;
  c->in_use -= ((size_t *)p)[-1];
  free(((void **)p)[-2]);
}

static holo_status run(fx *f, float *x, uint32_t i) {
  x[0] = (float)i, x[1] = (float)i * 0.5f;
  holo_input in = {x, 64 * sizeof(float), NULL, 0};
  holo_view v;
  holo_error err;
  return holo_execute_addressed(f->s, &in, 1, &v, 1, &err);
}

static void full_cache_evicts_instead_of_growing(void **st) {
  (void)st;
  capped c = {0, SIZE_MAX, 0, 0};
  holo_allocator a = {&c, capped_alloc, capped_free};
  holo_options o = {&a, 0, 0, 0};
  fx f;
  fx_open(&f, "mlp", &o);
  assert_int_equal(holo_session_set_retain_bytes(f.s, UINT64_MAX), HOLO_OK); /* keep every dead value */
  float x[64] = {0};
  for (uint32_t i = 0; i < 300; i++)
    assert_int_equal(run(&f, x, i), HOLO_OK);
  c.cap = c.in_use + (64u << 10); /* no more than 64 KiB beyond what it holds */
  holo_counters before, after;
  holo_session_counters(f.s, &before);
  for (uint32_t i = 300; i < 3300; i++)
    assert_int_equal(run(&f, x, i), HOLO_OK);
  holo_session_counters(f.s, &after);
  assert_true(c.refused > 0);                             /* the ceiling was reached ... */
  assert_true(after.evictions > before.evictions + 1000); /* ... and the cache gave way */
  assert_true(c.peak <= c.cap);
  assert_int_equal(run(&f, x, 3299), HOLO_OK); /* the last input again: a memo hit */
  holo_session_counters(f.s, &before);
  assert_int_equal(before.memo_hits, after.memo_hits + 1);
  fx_close(&f);
  assert_int_equal(c.in_use, 0);
}

static uint64_t hits(fx *f) {
  holo_counters c;
  holo_session_counters(f->s, &c);
  return c.memo_hits;
}

/* The symbolic fixture at batch 256: a [256,3] output (3 KiB) a run. */
static holo_status run_batch(fx *f, float *x, uint32_t i) {
  x[0] = (float)i, x[1] = (float)i * 0.5f;
  int64_t shape[2] = {256, 4};
  holo_input in = {x, 256 * 4 * sizeof(float), shape, 2};
  holo_view v;
  holo_error err;
  return holo_execute_addressed(f->s, &in, 1, &v, 1, &err);
}

/* Past executions' values are held to 4 MiB until a memo record finds its
 * outputs evicted; then the hold doubles (runtime/arena.c, hold_cap). Under
 * the old rule the default 64 MiB filled first, every execution writing
 * memory nothing had touched (docs/memory.md). */
static void held_cache_grows_with_reuse(void **st) {
  (void)st;
  capped c = {0, SIZE_MAX, 0, 0};
  holo_allocator a = {&c, capped_alloc, capped_free};
  holo_options o = {&a, 0, 0, 0};
  fx f;
  fx_open(&f, "symbolic", &o);
  static float x[256 * 4];
  size_t at3k = 0;
  for (uint32_t i = 0; i < 6000; i++) {
    assert_int_equal(run_batch(&f, x, i), HOLO_OK);
    if (i == 3000) at3k = c.in_use;
  }
  /* Flat once the hold filled (3 KiB and the arena's per-entry count a run:
   * 4 MiB is ~1,260 runs); the old rule held all 6,000, 20 MiB more. */
  assert_true(c.in_use < at3k + (256u << 10));
  /* The oldest input still answered from the memo, probing oldest first:
   * each miss before it is a record without its outputs, which widens. */
  uint64_t h0 = hits(&f);
  uint32_t j = 0;
  while (j < 6000 && hits(&f) == h0)
    assert_int_equal(run_batch(&f, x, j += 50), HOLO_OK);
  uint32_t held = 6000 - j;
  assert_true(held > 800 && held < 2000);
  /* Widened to 8 MiB at least: 1.5x that many runs back is held now. */
  uint32_t k = held + held / 2;
  for (uint32_t i = 10000; i < 10000 + k; i++)
    assert_int_equal(run_batch(&f, x, i), HOLO_OK);
  h0 = hits(&f);
  assert_int_equal(run_batch(&f, x, 10000), HOLO_OK);
  assert_int_equal(hits(&f), h0 + 1);
  fx_close(&f);
  assert_int_equal(c.in_use, 0);
}

static void memo_records_are_a_hosts_choice(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "mlp", NULL);
  holo_error err;
  assert_int_equal(holo_session_memo_records(f.s), 16384); /* the default for one output */
  assert_int_equal(holo_session_set_memo_records(f.s, 1000, &err), HOLO_OK);
  assert_int_equal(holo_session_memo_records(f.s), 512); /* rounded down to a power of two */
  assert_int_equal(holo_session_set_memo_records(f.s, 3, &err), HOLO_OK);
  assert_int_equal(holo_session_memo_records(f.s), 8); /* two four-way sets at least */
  float x[64] = {0};
  assert_int_equal(run(&f, x, 1), HOLO_OK);
  assert_int_equal(run(&f, x, 1), HOLO_OK);
  holo_counters c;
  holo_session_counters(f.s, &c);
  assert_int_equal(c.memo_hits, 1);
  assert_int_equal(holo_session_set_memo_records(f.s, 0, &err), HOLO_OK);
  assert_int_equal(holo_session_memo_records(f.s), 16384);
  fx_close(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(full_cache_evicts_instead_of_growing),
      cmocka_unit_test(held_cache_grows_with_reuse),
      cmocka_unit_test(memo_records_are_a_hosts_choice),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
