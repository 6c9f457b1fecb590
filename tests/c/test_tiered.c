/* tiered-exec (runtime/session-tier.c, docs/warm-store.md "Tiered
 * execution"): under a memory budget the pool evicts an execution's outputs;
 * with a spill budget they go to the warm store and a repeat of that input
 * is answered from it with no dispatch and the same bytes. The spill budget
 * bounds what is written; retired intermediates are never spilled; a
 * poisoned spilled record is counted and recomputed, never returned; a
 * session without a store refuses a spill budget. Fixture: mlp (64 -> 10). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "holo-std.h"
#include "hologram/holo.h"
#include "util/holo_fixture.h"

#define NX 64
#define NY 10

static holo_counters counters(const holo_session *s) {
  holo_counters c;
  holo_session_counters(s, &c);
  return c;
}

static void run(holo_session *s, float seed, float *y) {
  float x[NX];
  for (int i = 0; i < NX; i++)
    x[i] = seed + 0.01f * (float)i;
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o;
  holo_error err = {0};
  if (holo_execute(s, &in, 1, &o, 1, &err)) fail_msg("%s", err.message);
  assert_int_equal(o.len, NY * sizeof(float));
  memcpy(y, o.bytes, NY * sizeof(float));
  holo_output_free(s, &o);
}

/* Input 0, then `others` distinct inputs that push it out of a 2 KiB pool,
 * then input 0 again: the dispatches of that last execution. */
static uint64_t repeat_after_pressure(holo_session *s, int others, float *first, float *again) {
  run(s, 0.0f, first);
  float y[NY];
  for (int k = 1; k <= others; k++)
    run(s, (float)k, y);
  uint64_t d = counters(s).dispatches;
  run(s, 0.0f, again);
  return counters(s).dispatches - d;
}

static void evicted_outputs_come_back_from_the_store(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_options o = {holo_std_allocator(), 2048, &ms.store, 0};
  fx t, plain;
  fx_open(&t, "mlp", &o);
  assert_int_equal(holo_session_set_spill_budget(t.s, 1 << 20), HOLO_OK);
  float a[NY], b[NY];
  assert_int_equal(repeat_after_pressure(t.s, 20, a, b), 0);
  assert_memory_equal(a, b, sizeof a);
  holo_counters c = counters(t.s);
  assert_true(c.spills >= 20); /* every evicted output, no intermediate */
  assert_true(c.spills <= 22);
  assert_true(c.promotions >= 1);
  assert_int_equal(c.store_corrupt, 0);

  /* the same without a spill budget: the repeat recomputes */
  holo_options p = {holo_std_allocator(), 2048, 0, 0};
  fx_open(&plain, "mlp", &p);
  float c0[NY], c1[NY];
  assert_true(repeat_after_pressure(plain.s, 20, c0, c1) > 0);
  assert_memory_equal(a, c0, sizeof a);
  assert_int_equal(counters(plain.s).spills, 0);
  fx_close(&plain);
  fx_close(&t);
  holo_mem_store_release(&ms);
}

static void spill_budget_bounds_what_is_written(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_options o = {holo_std_allocator(), 2048, &ms.store, 0};
  fx t;
  fx_open(&t, "mlp", &o);
  /* room for three 40-byte outputs */
  assert_int_equal(holo_session_set_spill_budget(t.s, 3 * NY * sizeof(float)), HOLO_OK);
  float a[NY], b[NY];
  assert_true(repeat_after_pressure(t.s, 20, a, b) == 0); /* input 0's output was among the first three */
  assert_int_equal(counters(t.s).spills, 3);
  assert_int_equal(ms.count, 3);
  /* off again: nothing more is written */
  assert_int_equal(holo_session_set_spill_budget(t.s, 0), HOLO_OK);
  uint64_t puts = counters(t.s).store_puts;
  float y[NY];
  for (int k = 30; k < 40; k++)
    run(t.s, (float)k, y);
  assert_int_equal(counters(t.s).store_puts, puts);
  fx_close(&t);
  holo_mem_store_release(&ms);
}

/* A store that hands back every record with its last byte flipped once
 * `poison` is set: a spilled value then fails its content digest. */
typedef struct poison_store {
  holo_warm_store store;
  holo_mem_store inner;
  bool poison;
  uint8_t copy[4096];
} poison_store;

static holo_status poison_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  poison_store *p = ctx;
  holo_status st = p->inner.store.get(p->inner.store.ctx, label, bytes, len);
  if (st || !p->poison || *len > sizeof p->copy || *len == 0) return st;
  memcpy(p->copy, *bytes, *len);
  p->copy[*len - 1] ^= 0x40;
  *bytes = p->copy;
  return HOLO_OK;
}

static holo_status poison_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  poison_store *p = ctx;
  return p->inner.store.put(p->inner.store.ctx, label, bytes, len);
}

static void poisoned_spill_is_recomputed(void **st) {
  (void)st;
  poison_store ps = {.store = {&ps, poison_get, poison_put}};
  holo_mem_store_init(&ps.inner, holo_std_allocator());
  holo_options o = {holo_std_allocator(), 2048, &ps.store, 0};
  fx t;
  fx_open(&t, "mlp", &o);
  assert_int_equal(holo_session_set_spill_budget(t.s, 1 << 20), HOLO_OK);
  float a[NY], y[NY];
  run(t.s, 0.0f, a);
  for (int k = 1; k <= 20; k++)
    run(t.s, (float)k, y);
  ps.poison = true;
  uint64_t d = counters(t.s).dispatches;
  float b[NY];
  run(t.s, 0.0f, b);
  assert_true(counters(t.s).dispatches > d);
  assert_true(counters(t.s).store_corrupt >= 1);
  assert_int_equal(counters(t.s).promotions, 0);
  assert_memory_equal(a, b, sizeof a);
  fx_close(&t);
  holo_mem_store_release(&ps.inner);
}

static void spill_budget_needs_a_store(void **st) {
  (void)st;
  fx t;
  fx_open(&t, "mlp", NULL);
  assert_int_equal(holo_session_set_spill_budget(t.s, 1024), HOLO_ERR_ARG);
  assert_int_equal(holo_session_set_spill_budget(t.s, 0), HOLO_OK);
  assert_int_equal(holo_session_set_spill_budget(NULL, 1), HOLO_ERR_ARG);
  float y[NY];
  run(t.s, 1.0f, y); /* still usable */
  fx_close(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(evicted_outputs_come_back_from_the_store),
      cmocka_unit_test(spill_budget_bounds_what_is_written),
      cmocka_unit_test(poisoned_spill_is_recomputed),
      cmocka_unit_test(spill_budget_needs_a_store),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
