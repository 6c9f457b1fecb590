/* The prompt cache's integrity (docs/generation.md): a stored manifest is
 * accepted only whole (its digest), and the prefix key names everything that
 * decides the cached state — here, the generator's initial state. A refused
 * manifest is a counted miss whose output equals a cold run's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "holo-std.h"
#include "util/holo_fixture.h"
#include "hologram/cpu_backend.h"
#include "hologram/generate.h"

#define V 32
#define NP 20
#define NOUT 10


/* A "process": session and generator over gen-bigram (token, h f32[1,32]). */
static void gen_open(gfx *f, const float *h0) {
  holo_input init = {h0, V * sizeof(float), 0, 0};
  gfx_open(f, "gen-bigram", 0, 0, h0 ? &init : 0);
}

static void greedy_after(holo_gen *g, uint32_t n, uint32_t *out) {
  holo_sampler s;
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.kind = HOLO_SAMPLER_GREEDY;
  holo_error err = {0};
  assert_int_equal(holo_sampler_init(&s, &c, V, holo_std_allocator(), &err), HOLO_OK);
  uint32_t got;
  holo_gen_options o = {n, -1, 0, 0};
  assert_int_equal(holo_gen_run(g, &s, &o, out, n, &got, &err), HOLO_OK);
  assert_int_equal(got, n);
  holo_sampler_free(&s);
}

static void prompt(uint32_t *p) {
  for (int i = 0; i < NP; i++)
    p[i] = (uint32_t)(i * 5 + 1) % V;
}

/* Runs prefill_cached on a fresh process over store ws: the reused count,
 * the cache stats, the first logits and the greedy continuation. */
typedef struct run_result {
  uint32_t reused;
  holo_prompt_cache_stats stats;
  float logits[V];
  uint32_t out[NOUT];
} run_result;

static run_result run_cached(holo_warm_store *ws) {
  run_result r;
  gfx f;
  gen_open(&f, 0);
  holo_prompt_cache pc;
  holo_error err = {0};
  uint32_t p[NP];
  prompt(p);
  assert_int_equal(holo_prompt_cache_init(&pc, 4, 0, ws, holo_std_allocator(), &err), HOLO_OK);
  assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, p, NP, &r.reused, &err), HOLO_OK);
  memcpy(r.logits, f.g.logits, sizeof r.logits);
  greedy_after(&f.g, NOUT, r.out);
  r.stats = pc.stats;
  holo_prompt_cache_free(&pc, &f.g);
  gfx_close(&f);
  return r;
}

/* A store whose records the test can reach (and corrupt) in place. */
typedef struct rec {
  char label[HOLO_LABEL_LEN + 1];
  uint8_t *bytes;
  size_t len;
} rec;
typedef struct test_store {
  holo_warm_store store;
  rec r[8];
  uint32_t n;
} test_store;

static holo_status ts_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  test_store *t = ctx;
  for (uint32_t i = 0; i < t->n; i++)
    if (strcmp(t->r[i].label, label) == 0) {
      *bytes = t->r[i].bytes, *len = t->r[i].len;
      return HOLO_OK;
    }
  return HOLO_ERR_STORE;
}
static holo_status ts_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  test_store *t = ctx;
  for (uint32_t i = 0; i < t->n; i++)
    if (strcmp(t->r[i].label, label) == 0) return HOLO_OK; /* first write stands (as MemWarmStore) */
  assert_true(t->n < 8);
  rec *r = &t->r[t->n++];
  snprintf(r->label, sizeof r->label, "%s", label);
  r->bytes = malloc(len + 1);
  memcpy(r->bytes, bytes, len);
  r->len = len;
  return HOLO_OK;
}
static void ts_init(test_store *t) {
  memset(t, 0, sizeof *t);
  t->store = (holo_warm_store){t, ts_get, ts_put};
}
static void ts_free(test_store *t) {
  for (uint32_t i = 0; i < t->n; i++)
    free(t->r[i].bytes);
}

/* The stored manifest: the one record that is not a state record (HOLOWS). */
static rec *manifest_of(test_store *t) {
  rec *m = 0;
  for (uint32_t i = 0; i < t->n; i++)
    if (t->r[i].len < 6 || memcmp(t->r[i].bytes, "HOLOWS", 6) != 0) {
      assert_null(m);
      m = &t->r[i];
    }
  assert_non_null(m);
  return m;
}

/* Flips one byte in each region of the stored manifest (magic, n_tokens,
 * n_state, vocab, key, state label, logits, digest): every one is a counted
 * miss with the cold run's logits and tokens; the intact manifest is a hit. */
static void corrupt_manifest_is_a_counted_miss(void **st) {
  (void)st;
  test_store ms;
  ts_init(&ms);
  run_result cold = run_cached(&ms.store);
  assert_int_equal(cold.reused, 0);
  assert_int_equal(cold.stats.store_puts, 2); /* one state value, one manifest */
  rec *m = manifest_of(&ms);
  assert_int_equal(m->len, 52 + 32 + 4 * V + 32);
  run_result warm = run_cached(&ms.store);
  assert_int_equal(warm.reused, NP);
  assert_int_equal(warm.stats.store_hits, 1);
  assert_int_equal(warm.stats.store_corrupt, 0);
  assert_memory_equal(warm.out, cold.out, sizeof cold.out);
  /* offset, what: logits bytes 3 are exponent bytes (a big change) */
  const struct {
    size_t off;
    const char *what;
  } at[] = {{0, "magic"},
            {6, "format version"},
            {8, "n_tokens"},
            {12, "n_state"},
            {16, "vocab"},
            {20, "key"},
            {51, "key end"},
            {52, "state label"},
            {83, "state label end"},
            {84 + 3, "logit 0"},
            {84 + 4 * 7 + 3, "logit 7"},
            {84 + 4 * V - 1, "last logit"},
            {84 + 4 * V, "digest"},
            {84 + 4 * V + 31, "digest end"}};
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
    m->bytes[at[i].off] ^= 0x40;
    run_result r = run_cached(&ms.store);
    m->bytes[at[i].off] ^= 0x40;
    if (r.reused != 0 || r.stats.store_hits != 0 || r.stats.store_corrupt != 1 || r.stats.misses != 1)
      fail_msg("flipped %s (byte %zu): reused %u, store hits %llu, corrupt %llu, misses %llu", at[i].what,
               at[i].off, r.reused, (unsigned long long)r.stats.store_hits,
               (unsigned long long)r.stats.store_corrupt, (unsigned long long)r.stats.misses);
    assert_memory_equal(r.logits, cold.logits, sizeof cold.logits);
    assert_memory_equal(r.out, cold.out, sizeof cold.out);
  }
  /* A truncated manifest (and one with a byte more) is refused alike. */
  size_t len = m->len;
  m->len = len - 1;
  run_result r = run_cached(&ms.store);
  assert_int_equal(r.reused, 0);
  assert_int_equal(r.stats.store_corrupt, 1);
  m->len = len;
  /* Restored: a hit again. */
  r = run_cached(&ms.store);
  assert_int_equal(r.reused, NP);
  assert_memory_equal(r.out, cold.out, sizeof cold.out);
  ts_free(&ms);
}

/* Same session, same tokens, two initial states: two keys. The second
 * generator must not be handed the first one's state. */
static void initial_state_enters_the_key(void **st) {
  (void)st;
  float h1[V] = {0};
  for (int i = 0; i < V; i++)
    h1[i] = (float)((i * 7) % 5) * 2.0f;
  const uint32_t p[2] = {3, 9};
  float ref0[V], ref1[V];
  uint32_t out0[NOUT], out1[NOUT];
  holo_error err = {0};
  { /* cold references, no cache */
    gfx a, b;
    gen_open(&a, 0);
    gen_open(&b, h1);
    assert_int_equal(holo_gen_prefill(&a.g, p, 2, &err), HOLO_OK);
    assert_int_equal(holo_gen_prefill(&b.g, p, 2, &err), HOLO_OK);
    memcpy(ref0, a.g.logits, sizeof ref0);
    memcpy(ref1, b.g.logits, sizeof ref1);
    greedy_after(&a.g, NOUT, out0);
    greedy_after(&b.g, NOUT, out1);
    gfx_close(&b);
    gfx_close(&a);
  }
  assert_true(memcmp(ref0, ref1, sizeof ref0) != 0); /* the initial state matters */
  gfx f;
  gen_open(&f, 0);
  holo_gen g1;
  holo_input init = {h1, sizeof h1, 0, 0};
  holo_causal_model m;
  holo_causal_model_default(&m);
  assert_int_equal(holo_gen_init(&g1, f.s, &m, &init, holo_std_allocator(), &err), HOLO_OK);
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_prompt_cache pc;
  assert_int_equal(holo_prompt_cache_init(&pc, 4, 0, &ms.store, holo_std_allocator(), &err), HOLO_OK);
  uint32_t reused, out[NOUT];
  assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, p, 2, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 0);
  assert_int_equal(holo_gen_prefill_cached(&g1, &pc, p, 2, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 0); /* its own key: neither the table nor the store has it */
  assert_int_equal(pc.stats.misses, 2);
  assert_int_equal(pc.stats.inserts, 2);
  assert_memory_equal(g1.logits, ref1, sizeof ref1);
  greedy_after(&g1, NOUT, out);
  assert_memory_equal(out, out1, sizeof out1);
  /* and each is a hit for itself */
  assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, p, 2, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 2);
  assert_memory_equal(f.g.logits, ref0, sizeof ref0);
  greedy_after(&f.g, NOUT, out);
  assert_memory_equal(out, out0, sizeof out0);
  assert_int_equal(holo_gen_prefill_cached(&g1, &pc, p, 2, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 2);
  assert_memory_equal(g1.logits, ref1, sizeof ref1);
  holo_prompt_cache_free(&pc, &f.g);
  holo_mem_store_release(&ms);
  holo_gen_free(&g1);
  gfx_close(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(corrupt_manifest_is_a_counted_miss),
      cmocka_unit_test(initial_state_enters_the_key),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
