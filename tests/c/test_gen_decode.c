/* The generator over a session: state threading against a hand-driven
 * reference, memo hits for repeated prefixes, stop/max/callback, inspection
 * and intervention, the prompt cache (table, eviction, MemWarmStore and
 * FileWarmStore), and greedy speculative decoding (docs/generation.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/generate.h"
#include "holo-std.h"
#include "util/holo_fixture.h"

#define V 32


static void gen_open_opts(gfx *f, const char *name, holo_warm_store *ws) {
  holo_options o = {holo_std_allocator(), 0, ws, 0};
  holo_causal_model m;
  holo_causal_model_default(&m);
  if (strcmp(name, "gen-pos") == 0) m.position_input = 1;
  gfx_open(f, name, &o, &m, 0);
}
static void gen_open(gfx *f, const char *name) { gen_open_opts(f, name, 0); }

static holo_sampler greedy(void) {
  holo_sampler s;
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.kind = HOLO_SAMPLER_GREEDY;
  holo_error err = {0};
  assert_int_equal(holo_sampler_init(&s, &c, V, holo_std_allocator(), &err), HOLO_OK);
  return s;
}

static uint32_t argmax(const float *l) {
  uint32_t b = 0;
  for (uint32_t i = 1; i < V; i++)
    if (l[i] > l[b]) b = i;
  return b;
}

/* Reference: drive the bigram model by hand with holo_execute. */
static void reference_greedy(const uint32_t *prompt, uint32_t np, uint32_t n, uint32_t *out) {
  gfx f;
  gen_open(&f, "gen-bigram");
  float h[V] = {0}, last[V];
  holo_error err = {0};
  for (uint32_t i = 0; i < np + n; i++) {
    int64_t tok;
    if (i < np) tok = prompt[i];
    else tok = out[i - np] = argmax(last);
    holo_input in[2] = {{&tok, 8, 0, 0}, {h, sizeof h, 0, 0}};
    holo_output o[2];
    assert_int_equal(holo_execute(f.s, in, 2, o, 2, &err), HOLO_OK);
    memcpy(last, o[0].bytes, sizeof last);
    memcpy(h, o[1].bytes, sizeof h);
    holo_output_free(f.s, &o[0]);
    holo_output_free(f.s, &o[1]);
  }
  gfx_close(&f);
}

static void greedy_matches_hand_driven_reference(void **st) {
  (void)st;
  const uint32_t prompt[3] = {1, 2, 3};
  enum { N = 24 };
  uint32_t ref[N], got[N], n = 0;
  reference_greedy(prompt, 3, N, ref);
  gfx f;
  gen_open(&f, "gen-bigram");
  holo_sampler s = greedy();
  holo_error err = {0};
  assert_int_equal(f.g.vocab, V);
  assert_int_equal(f.g.n_state, 1);
  assert_int_equal(holo_gen_prefill(&f.g, prompt, 3, &err), HOLO_OK);
  holo_gen_options o = {N, -1, 0, 0};
  assert_int_equal(holo_gen_run(&f.g, &s, &o, got, N, &n, &err), HOLO_OK);
  assert_int_equal(n, N);
  assert_memory_equal(got, ref, sizeof ref);
  /* not constant: the model's state matters */
  int distinct = 0;
  for (int i = 1; i < N; i++) distinct += got[i] != got[0];
  assert_true(distinct > 0);
  holo_sampler_free(&s);
  gfx_close(&f);
}

static void repeated_prefix_dispatches_nothing(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-bigram");
  holo_sampler s = greedy();
  holo_error err = {0};
  const uint32_t prompt[5] = {4, 9, 9, 1, 30};
  uint32_t a[16], b[16], na, nb;
  holo_gen_options o = {16, -1, 0, 0};
  assert_int_equal(holo_gen_prefill(&f.g, prompt, 5, &err), HOLO_OK);
  char lab1[HOLO_MAX_STATE][HOLO_LABEL_LEN + 1], lab2[HOLO_MAX_STATE][HOLO_LABEL_LEN + 1];
  holo_gen_state_labels(&f.g, lab1);
  assert_true(f.g.stats.dispatches > 0);
  assert_int_equal(holo_gen_run(&f.g, &s, &o, a, 16, &na, &err), HOLO_OK);
  holo_gen_reset(&f.g);
  holo_gen_stats before = f.g.stats;
  assert_int_equal(holo_gen_prefill(&f.g, prompt, 5, &err), HOLO_OK);
  holo_gen_state_labels(&f.g, lab2);
  assert_string_equal(lab1[0], lab2[0]);
  assert_int_equal(f.g.stats.dispatches - before.dispatches, 0);
  assert_int_equal(f.g.stats.memo_hits - before.memo_hits, 5);
  /* the whole greedy continuation is memoised too */
  assert_int_equal(holo_gen_run(&f.g, &s, &o, b, 16, &nb, &err), HOLO_OK);
  assert_int_equal(f.g.stats.dispatches - before.dispatches, 0);
  assert_memory_equal(a, b, sizeof a);
  /* a prompt sharing the first 3 tokens only dispatches for the rest */
  holo_gen_reset(&f.g);
  before = f.g.stats;
  const uint32_t other[5] = {4, 9, 9, 2, 2};
  assert_int_equal(holo_gen_prefill(&f.g, other, 5, &err), HOLO_OK);
  assert_int_equal(f.g.stats.memo_hits - before.memo_hits, 3);
  assert_true(f.g.stats.dispatches - before.dispatches > 0);
  holo_sampler_free(&s);
  gfx_close(&f);
}

static void position_input_and_counter_state(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-pos");
  holo_error err = {0};
  /* compare logits with a hand-driven execute: token 5 at pos 0..9 */
  gfx r;
  gen_open(&r, "gen-pos");
  float cnt = 0;
  for (int64_t p = 0; p < 10; p++) {
    assert_int_equal(holo_gen_feed(&f.g, 5, &err), HOLO_OK);
    int64_t tok = 5;
    holo_input in[3] = {{&tok, 8, 0, 0}, {&p, 8, 0, 0}, {&cnt, 4, 0, 0}};
    holo_output o[2];
    assert_int_equal(holo_execute(r.s, in, 3, o, 2, &err), HOLO_OK);
    assert_memory_equal(f.g.logits, o[0].bytes, V * 4);
    cnt = *(float *)o[1].bytes;
    holo_output_free(r.s, &o[0]), holo_output_free(r.s, &o[1]);
  }
  assert_true(cnt == 10.0f);
  assert_int_equal(f.g.pos, 10);
  gfx_close(&r);
  gfx_close(&f);
}

typedef struct cb_ctx {
  int calls, stop_at;
} cb_ctx;
static bool on_tok(void *ctx, uint32_t t, uint32_t i) {
  cb_ctx *c = ctx;
  (void)t;
  c->calls++;
  return (int)i + 1 < c->stop_at;
}

static void stop_token_max_tokens_callback(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-bigram");
  holo_sampler s = greedy();
  holo_error err = {0};
  uint32_t out[40], n;
  const uint32_t p[1] = {7};
  assert_int_equal(holo_gen_sample(&f.g, &s, out, &err), HOLO_ERR_STATE); /* nothing fed yet */
  assert_int_equal(holo_gen_feed(&f.g, V, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_gen_prefill(&f.g, p, 1, &err), HOLO_OK);
  holo_gen_options o = {40, -1, 0, 0};
  assert_int_equal(holo_gen_run(&f.g, &s, &o, out, 40, &n, &err), HOLO_OK);
  assert_int_equal(n, 40);
  /* stop at the 6th token's value: output ends before it, not fed */
  uint32_t stop = out[5], first = 0;
  while (out[first] != stop) first++;
  holo_gen_reset(&f.g);
  holo_gen_prefill(&f.g, p, 1, &err);
  uint32_t pos0 = f.g.pos;
  o.stop_token = stop;
  uint32_t out2[40];
  assert_int_equal(holo_gen_run(&f.g, &s, &o, out2, 40, &n, &err), HOLO_OK);
  assert_int_equal(n, first);
  assert_int_equal(f.g.pos, pos0 + first);
  /* callback stops after 3 */
  holo_gen_reset(&f.g);
  holo_gen_prefill(&f.g, p, 1, &err);
  cb_ctx c = {0, 3};
  holo_gen_options o3 = {40, -1, on_tok, &c};
  assert_int_equal(holo_gen_run(&f.g, &s, &o3, out2, 40, &n, &err), HOLO_OK);
  assert_int_equal(n, 3);
  assert_int_equal(c.calls, 3);
  assert_memory_equal(out2, out, 3 * 4);
  holo_sampler_free(&s);
  gfx_close(&f);
}

typedef struct insp_ctx {
  int observed, intervened;
  uint32_t force;
  float last_max;
  char label0[HOLO_LABEL_LEN + 1];
} insp_ctx;
static holo_status force_token(void *ctx, uint32_t pos, float *l, uint32_t vocab) {
  insp_ctx *c = ctx;
  (void)pos, (void)vocab;
  c->intervened++;
  l[c->force] += 1000.0f;
  return HOLO_OK;
}
static void observe(void *ctx, const holo_gen_step_info *i) {
  insp_ctx *c = ctx;
  c->observed++;
  c->last_max = i->logits[i->token];
  assert_int_equal(i->vocab, V);
  assert_int_equal(i->n_state, 1);
  memcpy(c->label0, i->state_labels[0], sizeof c->label0);
}

static void inspection_and_intervention(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-bigram");
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.seed = 3;
  holo_sampler s;
  holo_error err = {0};
  assert_int_equal(holo_sampler_init(&s, &c, V, holo_std_allocator(), &err), HOLO_OK);
  insp_ctx ic = {0};
  ic.force = 17;
  holo_gen_inspector in = {&ic, force_token, observe};
  holo_gen_set_inspector(&f.g, &in);
  const uint32_t p[2] = {3, 4};
  holo_gen_prefill(&f.g, p, 2, &err);
  uint32_t out[12], n;
  holo_gen_options o = {12, -1, 0, 0};
  assert_int_equal(holo_gen_run(&f.g, &s, &o, out, 12, &n, &err), HOLO_OK);
  for (uint32_t i = 0; i < n; i++) assert_int_equal(out[i], 17);
  assert_int_equal(ic.observed, 12);
  assert_int_equal(ic.intervened, 12);
  assert_true(ic.last_max > 900.0f); /* the observer sees the edited logits */
  assert_memory_equal(ic.label0, "sha256:", 7);
  /* the model's own logits are untouched */
  assert_true(f.g.logits[17] < 900.0f);
  holo_gen_set_inspector(&f.g, 0);
  holo_sampler_free(&s);
  gfx_close(&f);
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void greedy_after(holo_gen *g, uint32_t n, uint32_t *out) {
  holo_sampler s = greedy();
  holo_error err = {0};
  uint32_t got;
  holo_gen_options o = {n, -1, 0, 0};
  assert_int_equal(holo_gen_run(g, &s, &o, out, n, &got, &err), HOLO_OK);
  holo_sampler_free(&s);
}

static void prompt_cache_table_and_eviction(void **st) {
  (void)st;
  gfx f;
  gen_open(&f, "gen-bigram");
  holo_prompt_cache pc;
  holo_error err = {0};
  assert_int_equal(holo_prompt_cache_init(&pc, 8, 0, 0, holo_std_allocator(), &err), HOLO_OK);
  uint32_t prompt[48];
  for (int i = 0; i < 48; i++) prompt[i] = (uint32_t)(i * 7 + 3) % V;
  uint32_t reused;
  double t0 = now_ms();
  assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, prompt, 32, &reused, &err), HOLO_OK);
  double cold = now_ms() - t0;
  assert_int_equal(reused, 0);
  uint32_t ref[8];
  greedy_after(&f.g, 8, ref);
  /* the 32-token prefix is reused: only 16 steps run for a 48-token prompt */
  holo_gen_stats b = f.g.stats;
  assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, prompt, 48, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 32);
  assert_int_equal(f.g.stats.steps - b.steps, 16);
  /* the same 32-token prompt again: a table hit, zero steps */
  b = f.g.stats;
  t0 = now_ms();
  assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, prompt, 32, &reused, &err), HOLO_OK);
  double hit = now_ms() - t0;
  assert_int_equal(reused, 32);
  assert_int_equal(f.g.stats.steps - b.steps, 0);
  uint32_t again[8];
  greedy_after(&f.g, 8, again);
  assert_memory_equal(again, ref, sizeof ref);
  print_message("prompt cache: 32-token prefill cold %.3f ms, table hit %.3f ms\n", cold, hit);
  assert_int_equal(pc.stats.hits, 2);
  assert_int_equal(pc.stats.misses, 1);
  holo_prompt_cache_free(&pc, &f.g);
  /* bounded by bytes: each entry is 128 B of state + 128 B of logits */
  assert_int_equal(holo_prompt_cache_init(&pc, 8, 600, 0, holo_std_allocator(), &err), HOLO_OK);
  for (uint32_t k = 0; k < 5; k++) {
    uint32_t p2[3] = {k, k + 1, k + 2};
    assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, p2, 3, &reused, &err), HOLO_OK);
  }
  assert_int_equal(pc.stats.inserts, 5);
  assert_int_equal(pc.stats.evictions, 3);
  assert_true(pc.bytes <= 600);
  uint32_t p_old[3] = {0, 1, 2}, p_new[3] = {4, 5, 6};
  holo_gen_prefill_cached(&f.g, &pc, p_old, 3, &reused, &err);
  assert_int_equal(reused, 0); /* evicted */
  holo_gen_prefill_cached(&f.g, &pc, p_new, 3, &reused, &err);
  assert_int_equal(reused, 3);
  holo_prompt_cache_free(&pc, &f.g);
  gfx_close(&f);
}

/* A second "process" (new session, generator and cache) starts warm. */
static void persisted_roundtrip(holo_warm_store *ws, const char *what) {
  uint32_t prompt[20];
  for (int i = 0; i < 20; i++) prompt[i] = (uint32_t)(i * 5 + 1) % V;
  uint32_t ref[10], got[10], reused;
  holo_error err = {0};
  {
    gfx f;
    gen_open_opts(&f, "gen-bigram", ws);
    holo_prompt_cache pc;
    assert_int_equal(holo_prompt_cache_init(&pc, 4, 0, ws, holo_std_allocator(), &err), HOLO_OK);
    assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, prompt, 20, &reused, &err), HOLO_OK);
    assert_int_equal(reused, 0);
    assert_int_equal(pc.stats.store_puts, 2); /* one state value, one manifest */
    greedy_after(&f.g, 10, ref);
    holo_prompt_cache_free(&pc, &f.g);
    gfx_close(&f);
  }
  {
    gfx f;
    gen_open_opts(&f, "gen-bigram", ws);
    holo_prompt_cache pc;
    assert_int_equal(holo_prompt_cache_init(&pc, 4, 0, ws, holo_std_allocator(), &err), HOLO_OK);
    /* a longer prompt: the stored 20-token prefix is found, 2 tokens run */
    uint32_t longer[22];
    memcpy(longer, prompt, sizeof prompt);
    longer[20] = 3, longer[21] = 4;
    assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, prompt, 20, &reused, &err), HOLO_OK);
    assert_int_equal(reused, 20);
    assert_int_equal(pc.stats.store_hits, 1);
    assert_int_equal(f.g.stats.steps, 0);
    greedy_after(&f.g, 10, got);
    assert_memory_equal(got, ref, sizeof ref);
    assert_int_equal(holo_gen_prefill_cached(&f.g, &pc, longer, 22, &reused, &err), HOLO_OK);
    assert_int_equal(reused, 20);
    print_message("%s: new process reused %u prompt tokens from the store\n", what, 20);
    holo_prompt_cache_free(&pc, &f.g);
    gfx_close(&f);
  }
}

static void prompt_cache_mem_store(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  persisted_roundtrip(&ms.store, "MemWarmStore");
  holo_mem_store_release(&ms);
}

static void prompt_cache_file_store(void **st) {
  (void)st;
  char dir[] = "/tmp/holo-gen-cache-XXXXXX";
  assert_non_null(mkdtemp(dir));
  holo_file_store fs;
  holo_error err = {0};
  assert_int_equal(holo_file_store_open(&fs, dir, &err), HOLO_OK);
  persisted_roundtrip(&fs.store, "FileWarmStore");
  holo_file_store_close(&fs);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
}

static void speculative_equals_target_greedy(void **st) {
  (void)st;
  const uint32_t prompt[4] = {2, 11, 5, 8};
  enum { N = 40 };
  uint32_t ref[N];
  {
    gfx t;
    gen_open(&t, "gen-bigram");
    holo_error err = {0};
    holo_gen_prefill(&t.g, prompt, 4, &err);
    greedy_after(&t.g, N, ref);
    gfx_close(&t);
  }
  const char *drafts[2] = {"gen-draft", "gen-bigram"};
  for (int d = 0; d < 2; d++) {
    for (uint32_t k = 1; k <= 6; k += 2) {
      gfx t, dr;
      gen_open(&t, "gen-bigram");
      gen_open(&dr, drafts[d]);
      holo_error err = {0};
      holo_gen_prefill(&t.g, prompt, 4, &err);
      holo_gen_prefill(&dr.g, prompt, 4, &err);
      uint32_t out[N], n;
      holo_spec_report rep;
      holo_gen_options o = {N, -1, 0, 0};
      assert_int_equal(holo_speculative_run(&t.g, &dr.g, k, &o, out, N, &n, &rep, &err), HOLO_OK);
      assert_int_equal(n, N);
      assert_memory_equal(out, ref, sizeof ref);
      assert_int_equal(rep.target_steps, N);
      if (d == 1) assert_true(rep.acceptance == 1.0f);
      else assert_true(rep.acceptance > 0.0f && rep.acceptance < 1.0f);
      print_message("speculative k=%u draft=%s: acceptance %.3f (%llu/%llu), draft steps %llu, draft dispatches %llu\n", k,
                    drafts[d], rep.acceptance, (unsigned long long)rep.accepted, (unsigned long long)rep.proposed,
                    (unsigned long long)rep.draft_steps, (unsigned long long)dr.g.stats.dispatches);
      gfx_close(&dr);
      gfx_close(&t);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(greedy_matches_hand_driven_reference),
      cmocka_unit_test(repeated_prefix_dispatches_nothing),
      cmocka_unit_test(position_input_and_counter_state),
      cmocka_unit_test(stop_token_max_tokens_callback),
      cmocka_unit_test(inspection_and_intervention),
      cmocka_unit_test(prompt_cache_table_and_eviction),
      cmocka_unit_test(prompt_cache_mem_store),
      cmocka_unit_test(prompt_cache_file_store),
      cmocka_unit_test(speculative_equals_target_greedy),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
