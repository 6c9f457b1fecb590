/* Sequence (K-token) step graphs (docs/generation.md): batched prefill equals
 * token-by-token stepping, rewind keeps the state label and restores logits,
 * one-execution speculative verification equals target-only greedy (draft
 * rolled back by rewind and by snapshot), the prompt cache over a sequence
 * model, and every misuse is an error value. Fixtures: make-gen-seq.mjs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/generate.h"
#include "holo-std.h"
#include "util/holo_fixture.h"

#define V 32


static void gen_open(gfx *f, const char *name, bool masked) {
  holo_causal_model m;
  holo_causal_model_default(&m);
  m.position_input = 1;
  m.masked_state = masked;
  gfx_open(f, name, 0, &m, 0);
}

static void batched_prefill_equals_stepping(void **st) {
  (void)st;
  gfx a, b;
  gen_open(&a, "gen-seq-step", false);
  gen_open(&b, "gen-seq", false);
  assert_int_equal(a.g.seq, 1);
  assert_int_equal(b.g.seq, 4);
  holo_error err = {0};
  const uint32_t p[11] = {30, 1, 17, 4, 4, 9, 22, 0, 31, 8, 5};
  for (uint32_t i = 0; i < 11; i++) {
    assert_int_equal(holo_gen_feed(&a.g, p[i], &err), HOLO_OK);
  }
  assert_int_equal(holo_gen_prefill(&b.g, p, 11, &err), HOLO_OK);
  assert_int_equal(b.g.stats.steps, 3); /* 4 + 4 + 3 */
  assert_int_equal(b.g.stats.tokens, 11);
  assert_int_equal(b.g.pos, 11);
  assert_memory_equal(a.g.logits, b.g.logits, V * 4);
  /* the rows of the last execution are the logits after each of its tokens */
  gfx c;
  gen_open(&c, "gen-seq-step", false);
  for (uint32_t i = 0; i < 9; i++) assert_int_equal(holo_gen_feed(&c.g, p[i], &err), HOLO_OK);
  assert_memory_equal(holo_gen_rows(&b.g, 0), c.g.logits, V * 4);
  assert_null(holo_gen_rows(&b.g, 3));
  /* the continuation: 20 greedy tokens, each a one-token (padded) execution */
  uint32_t ra[20], rb[20];
  gfx_greedy_feed(&a.g, V, 20, ra);
  gfx_greedy_feed(&b.g, V, 20, rb);
  assert_memory_equal(ra, rb, sizeof ra);
  /* past the model's 32 positions: an error value, not a crash */
  holo_status s1 = HOLO_OK;
  for (uint32_t i = 0; i < 4 && !s1; i++) s1 = holo_gen_feed(&b.g, 1, &err);
  assert_int_not_equal(s1, HOLO_OK);
  assert_true(err.message[0] != 0);
  gfx_close(&a), gfx_close(&b), gfx_close(&c);
}

static void rewind_keeps_state_and_restores_logits(void **st) {
  (void)st;
  gfx b, a;
  gen_open(&b, "gen-seq", false);
  gen_open(&a, "gen-seq-step", false);
  holo_error err = {0};
  const uint32_t p[6] = {7, 3, 3, 12, 20, 2};
  assert_int_equal(holo_gen_prefill(&b.g, p, 2, &err), HOLO_OK);
  float before[V];
  memcpy(before, b.g.logits, sizeof before);
  uint8_t s0[32];
  assert_int_equal(holo_gen_feed_seq(&b.g, p + 2, 4, &err), HOLO_OK);
  memcpy(s0, b.g.state[0], 32);
  /* keep 1 of the 4: logits are row 0, the state label is unchanged */
  assert_int_equal(holo_gen_rewind(&b.g, 3, &err), HOLO_OK);
  assert_int_equal(b.g.pos, 3);
  assert_int_equal(b.g.n_history, 3);
  assert_memory_equal(b.g.state[0], s0, 32);
  assert_memory_equal(b.g.logits, holo_gen_rows(&b.g, 0), V * 4);
  for (uint32_t i = 0; i < 3; i++) assert_int_equal(holo_gen_feed(&a.g, p[i], &err), HOLO_OK);
  assert_memory_equal(a.g.logits, b.g.logits, V * 4);
  /* feeding on from the rewound position equals stepping (stale rows masked) */
  assert_int_equal(holo_gen_feed(&b.g, 9, &err), HOLO_OK);
  assert_int_equal(holo_gen_feed(&a.g, 9, &err), HOLO_OK);
  assert_memory_equal(a.g.logits, b.g.logits, V * 4);
  /* rewinding the whole last execution restores the logits before it */
  assert_int_equal(holo_gen_feed_seq(&b.g, p, 3, &err), HOLO_OK);
  assert_int_equal(holo_gen_rewind(&b.g, 3, &err), HOLO_OK);
  assert_memory_equal(a.g.logits, b.g.logits, V * 4);
  /* past the last execution: no logits until the next feed */
  assert_int_equal(holo_gen_rewind(&b.g, 2, &err), HOLO_OK);
  assert_false(b.g.have_logits);
  holo_sampler smp;
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.kind = HOLO_SAMPLER_GREEDY;
  assert_int_equal(holo_sampler_init(&smp, &c, V, holo_std_allocator(), &err), HOLO_OK);
  uint32_t t;
  assert_int_equal(holo_gen_sample(&b.g, &smp, &t, &err), HOLO_ERR_STATE);
  holo_sampler_free(&smp);
  /* errors: too many, unmasked step model, bad feed sizes */
  assert_int_equal(holo_gen_rewind(&b.g, 99, &err), HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "cannot rewind"));
  assert_int_equal(holo_gen_rewind(&a.g, 1, &err), HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "masked"));
  assert_int_equal(holo_gen_feed_seq(&b.g, p, 5, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_gen_feed_seq(&b.g, p, 0, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_gen_feed_seq(&a.g, p, 2, &err), HOLO_ERR_ARG);
  const uint32_t bad[2] = {1, 99};
  assert_int_equal(holo_gen_feed_seq(&b.g, bad, 2, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "outside the vocabulary"));
  gfx_close(&b), gfx_close(&a);
}

typedef struct stopper {
  uint32_t after, seen;
} stopper;
static bool stop_after(void *ctx, uint32_t token, uint32_t index) {
  stopper *s = ctx;
  (void)token, (void)index;
  return ++s->seen < s->after;
}

static void speculative_one_execution_equals_greedy(void **st) {
  (void)st;
  const uint32_t prompts[2][3] = {{7, 7, 7}, {30, 1, 17}};
  const uint32_t plen[2] = {1, 3};
  enum { N = 24 };
  for (int pi = 0; pi < 2; pi++) {
    uint32_t ref[N + 1];
    gfx r;
    gen_open(&r, "gen-seq-step", false);
    holo_error err = {0};
    assert_int_equal(holo_gen_prefill(&r.g, prompts[pi] + (pi ? 0 : 2), plen[pi], &err), HOLO_OK);
    gfx_greedy_feed(&r.g, V, N + 1, ref);
    gfx_close(&r);
    for (uint32_t k = 1; k <= 5; k++) {
      for (int masked = 0; masked < 2; masked++) {
        for (int dr = 0; dr < 2; dr++) {
          gfx t, d;
          gen_open(&t, "gen-seq", false);
          gen_open(&d, dr ? "gen-seq-draft" : "gen-seq-step", masked);
          const uint32_t *p = prompts[pi] + (pi ? 0 : 2);
          assert_int_equal(holo_gen_prefill(&t.g, p, plen[pi], &err), HOLO_OK);
          assert_int_equal(holo_gen_prefill(&d.g, p, plen[pi], &err), HOLO_OK);
          uint32_t out[N], n = 0;
          holo_spec_report rep;
          holo_gen_options o = {N, -1, 0, 0};
          assert_int_equal(holo_speculative_run(&t.g, &d.g, k, &o, out, N, &n, &rep, &err), HOLO_OK);
          assert_int_equal(n, N);
          assert_memory_equal(out, ref, sizeof out);
          assert_true(rep.accepted <= rep.proposed);
          assert_true(rep.target_steps <= rep.rounds + 1);
          if (!dr) assert_int_equal(rep.accepted, rep.proposed); /* draft = target */
          if (!dr && k >= 3) assert_true(rep.target_steps < N / 2);
          /* the target leaves with every emitted token fed */
          assert_int_equal(t.g.pos, plen[pi] + N);
          assert_int_equal(holo_argmax(t.g.logits, V, 0), ref[N]);
          if (pi == 1 && k == 3 && masked && dr)
            print_message("gen-seq k=3 draft perturbed: acceptance %.3f (%llu/%llu), %llu target executions, %llu draft\n",
                          rep.acceptance, (unsigned long long)rep.accepted, (unsigned long long)rep.proposed,
                          (unsigned long long)rep.target_steps, (unsigned long long)rep.draft_steps);
          gfx_close(&t), gfx_close(&d);
        }
      }
    }
    /* stop token, max tokens, on_token */
    for (uint32_t m = 0; m < 6; m++) {
      gfx t, d;
      gen_open(&t, "gen-seq", false);
      gen_open(&d, "gen-seq-draft", true);
      const uint32_t *p = prompts[pi] + (pi ? 0 : 2);
      holo_gen_prefill(&t.g, p, plen[pi], &err);
      holo_gen_prefill(&d.g, p, plen[pi], &err);
      uint32_t out[N], n = 0;
      holo_spec_report rep;
      stopper sp = {m + 1, 0};
      holo_gen_options o = {m >= 4 ? N : m, m == 5 ? (int64_t)ref[7] : -1, m == 4 ? stop_after : 0, &sp};
      assert_int_equal(holo_speculative_run(&t.g, &d.g, 3, &o, out, N, &n, &rep, &err), HOLO_OK);
      uint32_t want = m == 5 ? 0 : m;
      if (m == 5) while (ref[want] != ref[7]) want++;
      if (m == 4) want = 5;
      assert_int_equal(n, want);
      assert_memory_equal(out, ref, n * 4);
      assert_int_equal(t.g.pos, plen[pi] + n);
      gfx_close(&t), gfx_close(&d);
    }
  }
}

static void prompt_cache_over_a_sequence_model(void **st) {
  (void)st;
  gfx b;
  gen_open(&b, "gen-seq", false);
  holo_error err = {0};
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_prompt_cache pc;
  assert_int_equal(holo_prompt_cache_init(&pc, 8, 1 << 20, &ms.store, holo_std_allocator(), &err), HOLO_OK);
  const uint32_t p[10] = {30, 1, 17, 4, 4, 9, 22, 0, 31, 8};
  uint32_t reused = 99;
  assert_int_equal(holo_gen_prefill_cached(&b.g, &pc, p, 6, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 0);
  assert_int_equal(b.g.stats.steps, 2); /* 4 + 2 */
  float l6[V];
  memcpy(l6, b.g.logits, sizeof l6);
  assert_int_equal(holo_gen_prefill_cached(&b.g, &pc, p, 10, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 6);
  assert_int_equal(b.g.stats.steps, 3); /* the remaining 4 in one execution */
  gfx a;
  gen_open(&a, "gen-seq-step", false);
  for (uint32_t i = 0; i < 10; i++) holo_gen_feed(&a.g, p[i], &err);
  assert_memory_equal(a.g.logits, b.g.logits, V * 4);
  /* a new session (a new process, as far as the store knows) starts warm */
  gfx c;
  gen_open(&c, "gen-seq", false);
  holo_prompt_cache pc2;
  assert_int_equal(holo_prompt_cache_init(&pc2, 8, 1 << 20, &ms.store, holo_std_allocator(), &err), HOLO_OK);
  assert_int_equal(holo_gen_prefill_cached(&c.g, &pc2, p, 10, &reused, &err), HOLO_OK);
  assert_int_equal(reused, 10);
  assert_int_equal(c.g.stats.steps, 0);
  assert_int_equal(pc2.stats.store_hits, 1);
  assert_memory_equal(a.g.logits, c.g.logits, V * 4);
  /* another session's cache is refused */
  assert_int_equal(holo_gen_prefill_cached(&a.g, &pc2, p, 3, &reused, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "another session"));
  holo_prompt_cache_free(&pc2, 0);
  holo_prompt_cache_free(&pc, &b.g);
  holo_mem_store_release(&ms);
  gfx_close(&a), gfx_close(&b), gfx_close(&c);
}

static void content_and_computed_labels_agree_on_output(void **st) {
  (void)st;
  gfx a, b;
  gen_open(&a, "gen-seq", false);
  gen_open(&b, "gen-seq", false);
  b.g.m.content_state = true;
  holo_error err = {0};
  const uint32_t p[5] = {30, 1, 17, 4, 4};
  assert_int_equal(holo_gen_prefill(&a.g, p, 5, &err), HOLO_OK);
  assert_int_equal(holo_gen_prefill(&b.g, p, 5, &err), HOLO_OK);
  assert_memory_not_equal(a.g.state[0], b.g.state[0], 32); /* different names ... */
  assert_memory_equal(a.g.logits, b.g.logits, V * 4);      /* ... for the same values */
  uint32_t ra[12], rb[12];
  gfx_greedy_feed(&a.g, V, 12, ra);
  gfx_greedy_feed(&b.g, V, 12, rb);
  assert_memory_equal(ra, rb, sizeof ra);
  gfx_close(&a), gfx_close(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(batched_prefill_equals_stepping),
      cmocka_unit_test(rewind_keeps_state_and_restores_logits),
      cmocka_unit_test(speculative_one_execution_equals_greedy),
      cmocka_unit_test(prompt_cache_over_a_sequence_model),
      cmocka_unit_test(content_and_computed_labels_agree_on_output),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
