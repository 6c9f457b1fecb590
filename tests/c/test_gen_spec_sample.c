/* Speculative decoding with sampling (holo_speculative_sample_run,
 * docs/generation.md): the emitted tokens follow target-only sampling's law.
 * Chi-square of the first two tokens' joint law and of the third token's
 * marginal against the exact target distribution (computed by stepping the
 * single-token graph of the same weights through every prefix), over
 * 10,000 runs, for a sequence target and a step target, at temperature 0.8
 * and with top-p; the same statistic on the draft sampling alone must fail
 * (the test has power). Also: greedy equals holo_speculative_run, a seed
 * names one output, stop / max_tokens / on_token, and the refusals.
 * Fixtures: tests/fixtures/make-gen-seq.mjs (V = 32). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/generate.h"
#include "holo-std.h"
#include "util/holo_fixture.h"

#define V 32
/* 10,000 runs; tools/valgrind.sh asks for fewer (HOLO_TEST_LIGHT: the law
 * is checked at full size by the ASan and wasm runs) */
static uint32_t RUNS = 10000;
#define NTOK 3

/* A session fixture with its generator (tests/c/util/holo_fixture.h):
 * position input 1, the draft's state masked past the position. */
static void spec_open(gfx *x, const char *name, bool masked) {
  holo_causal_model m;
  holo_causal_model_default(&m);
  m.position_input = 1;
  m.masked_state = masked;
  gfx_open(x, name, 0, &m, 0);
}

static const uint32_t PROMPT[5] = {3, 17, 4, 29, 8};

static void prefill(holo_gen *g) {
  holo_error err = {0};
  holo_gen_reset(g);
  if (holo_gen_prefill(g, PROMPT, 5, &err)) fail_msg("%s", err.message);
}

static void sampler(holo_sampler *s, float top_p, uint64_t seed) {
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.temperature = 0.8f;
  c.top_p = top_p;
  c.seed = seed;
  holo_error err = {0};
  if (holo_sampler_init(s, &c, V, holo_std_allocator(), &err)) fail_msg("%s", err.message);
}

/* The exact law of (x1, x2) and of x3 under target-only sampling: joint[a*V+b],
 * third[c]. The step graph of the target's weights walks every prefix. */
static void exact_law(holo_sampler *s, double *joint, double *third) {
  gfx f;
  spec_open(&f, "gen-seq-step", false);
  holo_error err = {0};
  float p1[V], p2[V], p3[V];
  holo_gen *g = &f.g;
  prefill(g);
  assert_int_equal(holo_sampler_probs(s, g->logits, g->history, g->n_history, 0, 0, p1, &err), HOLO_OK);
  memset(third, 0, V * sizeof *third);
  holo_gen_snapshot s0, s1;
  assert_int_equal(holo_gen_snapshot_take(g, &s0, &err), HOLO_OK);
  for (uint32_t a = 0; a < V; a++) {
    for (uint32_t b = 0; b < V; b++)
      joint[a * V + b] = 0;
    if (p1[a] == 0) continue;
    holo_gen_snapshot_restore(g, &s0);
    assert_int_equal(holo_gen_feed(g, a, &err), HOLO_OK);
    assert_int_equal(holo_sampler_probs(s, g->logits, g->history, g->n_history, 0, 0, p2, &err), HOLO_OK);
    assert_int_equal(holo_gen_snapshot_take(g, &s1, &err), HOLO_OK);
    for (uint32_t b = 0; b < V; b++) {
      joint[a * V + b] = (double)p1[a] * p2[b];
      if (p2[b] == 0) continue;
      holo_gen_snapshot_restore(g, &s1);
      assert_int_equal(holo_gen_feed(g, b, &err), HOLO_OK);
      assert_int_equal(holo_sampler_probs(s, g->logits, g->history, g->n_history, 0, 0, p3, &err), HOLO_OK);
      for (uint32_t c = 0; c < V; c++)
        third[c] += joint[a * V + b] * p3[c];
    }
    holo_gen_snapshot_free(g, &s1);
  }
  holo_gen_snapshot_free(g, &s0);
  gfx_close(&f);
}

/* Pearson's statistic with cells of expectation < 5 pooled; *df out. */
static double chi2(const double *expect_p, const uint32_t *count, uint32_t cells, uint32_t n, uint32_t *df) {
  double stat = 0, pool_e = 0, pool_o = 0;
  uint32_t used = 0;
  for (uint32_t i = 0; i < cells; i++) {
    double e = expect_p[i] * n;
    if (e < 5) {
      pool_e += e, pool_o += count[i];
      continue;
    }
    stat += (count[i] - e) * (count[i] - e) / e, used++;
  }
  if (pool_e > 0) stat += (pool_o - pool_e) * (pool_o - pool_e) / (pool_e < 1 ? 1 : pool_e), used++;
  *df = used - 1;
  return stat;
}

/* The chi-square quantile at p = 0.999 (Wilson-Hilferty). */
static double crit(uint32_t df) {
  double k = df, z = 3.090;
  double t = 1 - 2 / (9 * k) + z * sqrt(2 / (9 * k));
  return k * t * t * t;
}

/* RUNS draws of NTOK tokens: speculative (draft given) or the draft alone. */
static void tally(const char *target, const char *draft, bool alone, float top_p, uint32_t *joint,
                  uint32_t *third, holo_spec_report *sum) {
  gfx t, d;
  spec_open(&t, target, false);
  spec_open(&d, draft, true);
  holo_sampler s;
  sampler(&s, top_p, 2026);
  memset(joint, 0, V * V * sizeof *joint);
  memset(third, 0, V * sizeof *third);
  memset(sum, 0, sizeof *sum);
  holo_error err = {0};
  for (uint32_t r = 0; r < RUNS; r++) {
    uint32_t out[NTOK], n = 0;
    holo_gen_options o = {NTOK, -1, 0, 0};
    prefill(&d.g);
    if (alone) {
      assert_int_equal(holo_gen_run(&d.g, &s, &o, out, NTOK, &n, &err), HOLO_OK);
    } else {
      prefill(&t.g);
      holo_spec_report rep;
      if (holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, NTOK, &n, &rep, &err))
        fail_msg("%s", err.message);
      sum->proposed += rep.proposed, sum->accepted += rep.accepted;
      sum->target_steps += rep.target_steps, sum->rounds += rep.rounds;
      /* the generator holds exactly the emitted tokens */
      assert_int_equal(t.g.n_history, 5 + NTOK);
      assert_memory_equal(t.g.history + 5, out, NTOK * 4);
    }
    assert_int_equal(n, NTOK);
    joint[out[0] * V + out[1]]++;
    third[out[2]]++;
  }
  holo_sampler_free(&s);
  gfx_close(&t);
  gfx_close(&d);
}

static void law_case(const char *target, float top_p, bool power) {
  holo_sampler s;
  sampler(&s, top_p, 0);
  static double ej[V * V], e3[V];
  exact_law(&s, ej, e3);
  holo_sampler_free(&s);
  static uint32_t cj[V * V], c3[V];
  holo_spec_report rep;
  uint32_t df;
  tally(target, "gen-seq-draft", false, top_p, cj, c3, &rep);
  double sj = chi2(ej, cj, V * V, RUNS, &df), lj = crit(df);
  uint32_t df3;
  double s3 = chi2(e3, c3, V, RUNS, &df3), l3 = crit(df3);
  printf("  %s top_p %.2f: joint(x1,x2) chi2 %.1f (df %u, limit %.1f); x3 chi2 %.1f (df %u, limit %.1f); "
         "acceptance %.3f, %.2f tokens per target execution\n",
         target, top_p, sj, df, lj, s3, df3, l3, rep.proposed ? (double)rep.accepted / rep.proposed : 0,
         (double)RUNS * NTOK / (double)rep.target_steps);
  assert_true(sj < lj);
  assert_true(s3 < l3);
  assert_true(rep.accepted > 0 && rep.accepted < rep.proposed);
  if (!power) return;
  /* power: the draft's own law is rejected by the same statistic */
  tally(target, "gen-seq-draft", true, top_p, cj, c3, &rep);
  double dj = chi2(ej, cj, V * V, RUNS, &df);
  printf("  draft alone: joint chi2 %.1f (df %u, limit %.1f)\n", dj, df, crit(df));
  assert_true(dj > crit(df));
}

static void law_sequence_target(void **st) {
  (void)st;
  law_case("gen-seq", 1.0f, true);
  law_case("gen-seq", 0.9f, false);
}

static void law_step_target(void **st) {
  (void)st;
  law_case("gen-seq-step", 1.0f, false);
}

/* Greedy through the sampled path equals the greedy speculative run. */
static void greedy_equals_greedy_run(void **st) {
  (void)st;
  holo_error err = {0};
  for (int seq = 0; seq < 2; seq++) {
    gfx t, d, t2, d2;
    spec_open(&t, seq ? "gen-seq" : "gen-seq-step", false);
    spec_open(&d, "gen-seq-draft", true);
    spec_open(&t2, seq ? "gen-seq" : "gen-seq-step", false);
    spec_open(&d2, "gen-seq-draft", true);
    prefill(&t.g), prefill(&d.g), prefill(&t2.g), prefill(&d2.g);
    holo_sampler_config c;
    holo_sampler_config_default(&c);
    c.kind = HOLO_SAMPLER_GREEDY;
    holo_sampler s;
    assert_int_equal(holo_sampler_init(&s, &c, V, holo_std_allocator(), &err), HOLO_OK);
    uint32_t a[20], b[20], na, nb;
    holo_spec_report ra, rb;
    holo_gen_options o = {20, -1, 0, 0};
    assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, a, 20, &na, &ra, &err), HOLO_OK);
    assert_int_equal(holo_speculative_run(&t2.g, &d2.g, 3, &o, b, 20, &nb, &rb, &err), HOLO_OK);
    assert_int_equal(na, 20);
    assert_int_equal(nb, 20);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(ra.accepted, rb.accepted);
    holo_sampler_free(&s);
    gfx_close(&t), gfx_close(&d), gfx_close(&t2), gfx_close(&d2);
  }
}

typedef struct stopper {
  uint32_t after, seen;
} stopper;

static bool stop_after(void *ctx, uint32_t tok, uint32_t i) {
  (void)tok, (void)i;
  stopper *s = ctx;
  return ++s->seen < s->after;
}

/* A seed names one output; stop, max_tokens and on_token are honoured. */
static void seeds_and_limits(void **st) {
  (void)st;
  holo_error err = {0};
  gfx t, d;
  spec_open(&t, "gen-seq", false);
  spec_open(&d, "gen-seq-draft", true);
  uint32_t first[24] = {0}, n = 0;
  holo_spec_report rep;
  for (int rep_i = 0; rep_i < 2; rep_i++) {
    holo_sampler s;
    sampler(&s, 1.0f, 77);
    prefill(&t.g), prefill(&d.g);
    uint32_t out[24];
    holo_gen_options o = {24, -1, 0, 0};
    assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, 24, &n, &rep, &err), HOLO_OK);
    assert_int_equal(n, 24);
    if (rep_i) assert_memory_equal(first, out, sizeof out);
    memcpy(first, out, sizeof out);
    holo_sampler_free(&s);
  }
  for (uint32_t m = 0; m < 7; m++) {
    holo_sampler s;
    sampler(&s, 1.0f, 77);
    prefill(&t.g), prefill(&d.g);
    uint32_t out[24];
    stopper sp = {m + 1, 0};
    int64_t stop = m == 5 ? (int64_t)first[6] : m == 6 ? (int64_t)first[0] : -1;
    holo_gen_options o = {m >= 4 ? 24 : m, stop, m == 4 ? stop_after : 0, &sp};
    assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, 24, &n, &rep, &err), HOLO_OK);
    if (m < 4) assert_int_equal(n, m);
    if (m == 4) assert_int_equal(n, 5);
    /* the first draw precedes any proposal: with the same seed it is first[0] */
    if (m == 6) assert_int_equal(n, 0);
    for (uint32_t i = 0; i < n; i++)
      assert_true(stop < 0 || out[i] != (uint32_t)stop);
    assert_int_equal(t.g.n_history, 5 + n);
    assert_memory_equal(t.g.history + 5, out, n * 4);
    holo_sampler_free(&s);
  }
  gfx_close(&t), gfx_close(&d);
}

static void refusals(void **st) {
  (void)st;
  holo_error err = {0};
  gfx t, d;
  spec_open(&t, "gen-seq", false);
  spec_open(&d, "gen-seq-draft", true);
  holo_sampler s;
  sampler(&s, 1.0f, 1);
  uint32_t out[4], n;
  holo_spec_report rep;
  holo_gen_options o = {4, -1, 0, 0};
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, 4, &n, &rep, &err),
                   HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "prefill"));
  prefill(&t.g), prefill(&d.g);
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 0, &s, &o, out, 4, &n, &rep, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 65, &s, &o, out, 4, &n, &rep, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, 0, &o, out, 4, &n, &rep, &err), HOLO_ERR_ARG);
  holo_sampler_free(&s);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.kind = HOLO_SAMPLER_MIROSTAT_V2;
  assert_int_equal(holo_sampler_init(&s, &c, V, holo_std_allocator(), &err), HOLO_OK);
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, 4, &n, &rep, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "Mirostat"));
  holo_sampler_free(&s);
  holo_sampler_config_default(&c);
  assert_int_equal(holo_sampler_init(&s, &c, V - 1, holo_std_allocator(), &err), HOLO_OK);
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, 4, &n, &rep, &err), HOLO_ERR_ARG);
  holo_sampler_free(&s);
  /* the generators are still usable */
  sampler(&s, 1.0f, 1);
  assert_int_equal(holo_speculative_sample_run(&t.g, &d.g, 3, &s, &o, out, 4, &n, &rep, &err), HOLO_OK);
  assert_int_equal(n, 4);
  holo_sampler_free(&s);
  gfx_close(&t), gfx_close(&d);
}

int main(void) {
  if (getenv("HOLO_TEST_LIGHT")) RUNS = 1000;
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(law_sequence_target),
      cmocka_unit_test(law_step_target),
      cmocka_unit_test(greedy_equals_greedy_run),
      cmocka_unit_test(seeds_and_limits),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
