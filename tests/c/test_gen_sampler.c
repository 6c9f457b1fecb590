/* Samplers: configuration errors, distributional behaviour over many
 * draws, determinism, Mirostat's surprise control, penalties, masks and
 * the regex constraint (docs/generation.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/generate.h"
#include "holo-std.h"

#define DRAWS 10000

static void random_logits(holo_rng *r, float *l, uint32_t n, float scale) {
  for (uint32_t i = 0; i < n; i++) l[i] = (holo_rng_uniform(r) * 2 - 1) * scale;
}

static void init(holo_sampler *s, const holo_sampler_config *c, uint32_t vocab) {
  holo_error err = {0};
  if (holo_sampler_init(s, c, vocab, holo_std_allocator(), &err)) fail_msg("%s", err.message);
}

static void expect_cfg_error(holo_sampler_config c, uint32_t vocab, const char *msg) {
  holo_error err = {0};
  holo_sampler s;
  assert_int_equal(holo_sampler_init(&s, &c, vocab, holo_std_allocator(), &err), HOLO_ERR_ARG);
  if (!strstr(err.message, msg)) fail_msg("expected '%s' in '%s'", msg, err.message);
  assert_non_null(strstr(err.message, "SamplingConfigurationError"));
}

static void config_errors(void **st) {
  (void)st;
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.top_p = 0;
  expect_cfg_error(c, 10, "top_p must be in (0, 1]");
  c.top_p = 1.5f;
  expect_cfg_error(c, 10, "top_p must be in (0, 1]");
  holo_sampler_config_default(&c);
  c.temperature = -1;
  expect_cfg_error(c, 10, "temperature");
  holo_sampler_config_default(&c);
  c.top_k = 11;
  expect_cfg_error(c, 10, "top_k 11 exceeds");
  holo_sampler_config_default(&c);
  c.min_p = 1;
  expect_cfg_error(c, 10, "min_p");
  holo_sampler_config_default(&c);
  c.penalty.repetition = 0;
  expect_cfg_error(c, 10, "repetition");
  holo_sampler_config_default(&c);
  c.kind = HOLO_SAMPLER_MIROSTAT_V2;
  c.mirostat_eta = 0;
  expect_cfg_error(c, 10, "eta");
  c.mirostat_eta = 0.1f, c.mirostat_tau = -2;
  expect_cfg_error(c, 10, "tau");
  holo_sampler_config_default(&c);
  expect_cfg_error(c, 0, "vocabulary is empty");
  c.temperature = NAN;
  expect_cfg_error(c, 10, "temperature");
}

/* The sampler's order (probability descending, equal probabilities by lower
 * token id) decides which tied tokens top-k keeps: over 300 tokens in groups
 * of equal logits, some -inf (fewer candidates than the vocabulary) and some
 * whose probability underflows to 0, top-k = 45 ends inside the second group,
 * so exactly its 15 lowest ids are kept with the whole first group. Guards
 * sort_desc's radix sort: its stability gives the tie rule, its keys are by
 * token id. */
static void top_k_ties_by_lower_id(void **st) {
  (void)st;
  enum { V = 300, K = 45 };
  static const float level[5] = {0.0f, -1.0f, -2.5f, -200.0f, -INFINITY};
  static const int size[5] = {30, 30, 40, 100, 100};
  int group[V];
  for (int i = 0, g = 0, left = size[0]; i < V; i++) {
    group[i] = g;
    if (--left == 0 && g < 4) left = size[++g];
  }
  holo_rng r;
  holo_rng_seed(&r, 5);
  for (int i = V - 1; i > 0; i--) { /* scatter the groups over the ids */
    int j = (int)(holo_rng_next(&r) % (uint32_t)(i + 1)), t = group[i];
    group[i] = group[j], group[j] = t;
  }
  float l[V];
  for (int i = 0; i < V; i++)
    l[i] = level[group[i]];
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.top_k = K, c.temperature = 0.8f;
  holo_sampler s;
  init(&s, &c, V);
  float p[V];
  holo_error err = {0};
  assert_int_equal(holo_sampler_probs(&s, l, 0, 0, 0, 0, p, &err), HOLO_OK);
  int second = 0;
  for (int i = 0; i < V; i++) {
    bool want = group[i] == 0 || (group[i] == 1 && second++ < K - size[0]);
    if (want != (p[i] > 0)) fail_msg("token %d (group %d): probability %g", i, group[i], (double)p[i]);
  }
  holo_sampler_free(&s);
}

static void top_k_stays_in_k_best(void **st) {
  (void)st;
  enum { V = 50, K = 5 };
  holo_rng r;
  holo_rng_seed(&r, 11);
  float l[V];
  random_logits(&r, l, V, 2.0f);
  /* the K best, by rank */
  uint8_t best[V] = {0};
  for (int k = 0; k < K; k++) {
    int b = -1;
    for (int i = 0; i < V; i++)
      if (!best[i] && (b < 0 || l[i] > l[b])) b = i;
    best[b] = 1;
  }
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.top_k = K, c.seed = 3, c.temperature = 5.0f; /* flat: the filter does all the work */
  holo_sampler s;
  init(&s, &c, V);
  uint32_t seen[V] = {0};
  holo_error err = {0};
  for (int i = 0; i < DRAWS; i++) {
    uint32_t t;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    assert_true(t < V);
    if (!best[t]) fail_msg("draw %d: token %u is outside the top %d", i, t, K);
    seen[t]++;
  }
  for (int i = 0; i < V; i++)
    if (best[i]) assert_true(seen[i] > 0);
  holo_sampler_free(&s);
}

static void top_p_keeps_the_nucleus(void **st) {
  (void)st;
  enum { V = 5 };
  const float p[V] = {0.5f, 0.2f, 0.15f, 0.1f, 0.05f};
  float l[V];
  for (int i = 0; i < V; i++) l[i] = logf(p[i]);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.top_p = 0.75f, c.seed = 9;
  holo_sampler s;
  init(&s, &c, V);
  uint32_t seen[V] = {0};
  holo_error err = {0};
  for (int i = 0; i < DRAWS; i++) {
    uint32_t t;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    seen[t]++;
  }
  /* nucleus {0,1,2} (mass 0.85 >= 0.75; {0,1} has 0.7 < 0.75) */
  assert_int_equal(seen[3], 0);
  assert_int_equal(seen[4], 0);
  /* renormalised frequencies; binomial sd <= 0.005 at 10k draws, 4 sd */
  for (int i = 0; i < 3; i++) {
    double f = seen[i] / (double)DRAWS, want = p[i] / 0.85;
    if (fabs(f - want) > 0.02) fail_msg("token %d: frequency %.4f, expected %.4f", i, f, want);
  }
  holo_sampler_free(&s);
}

static void min_p_floor(void **st) {
  (void)st;
  enum { V = 40 };
  holo_rng r;
  holo_rng_seed(&r, 5);
  float l[V];
  random_logits(&r, l, V, 3.0f);
  float mx = l[0];
  for (int i = 1; i < V; i++) mx = l[i] > mx ? l[i] : mx;
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.min_p = 0.2f, c.seed = 1;
  holo_sampler s;
  init(&s, &c, V);
  holo_error err = {0};
  for (int i = 0; i < DRAWS; i++) {
    uint32_t t;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    /* p_t / p_max = exp(l_t - l_max) >= 0.2 */
    assert_true(expf(l[t] - mx) >= 0.2f * 0.999f);
  }
  holo_sampler_free(&s);
}

static void temperature_zero_is_greedy(void **st) {
  (void)st;
  enum { V = 64 };
  holo_rng r;
  holo_rng_seed(&r, 77);
  holo_sampler_config c0, c1, cg;
  holo_sampler_config_default(&c0);
  c0.temperature = 0;
  holo_sampler_config_default(&c1);
  c1.temperature = 1e-3f;
  holo_sampler_config_default(&cg);
  cg.kind = HOLO_SAMPLER_GREEDY;
  holo_sampler s0, s1, sg;
  init(&s0, &c0, V), init(&s1, &c1, V), init(&sg, &cg, V);
  holo_error err = {0};
  int compared = 0;
  for (int i = 0; i < 500; i++) {
    float l[V];
    random_logits(&r, l, V, 4.0f);
    uint32_t a, b, g;
    assert_int_equal(holo_sampler_sample(&s0, l, 0, 0, 0, 0, &a, &err), HOLO_OK);
    assert_int_equal(holo_sampler_sample(&sg, l, 0, 0, 0, 0, &g, &err), HOLO_OK);
    assert_int_equal(a, g);
    assert_int_equal(a, holo_argmax(l, V, 0));
    /* T = 1e-3 with a top-2 gap >= 0.05: the runner-up has relative weight
     * exp(-50) < 2e-22, below float resolution: the draw is the argmax. */
    float second = -1e30f;
    for (int j = 0; j < V; j++)
      if ((uint32_t)j != a && l[j] > second) second = l[j];
    if (l[a] - second < 0.05f) continue;
    assert_int_equal(holo_sampler_sample(&s1, l, 0, 0, 0, 0, &b, &err), HOLO_OK);
    assert_int_equal(b, a);
    compared++;
  }
  assert_true(compared > 300);
  holo_sampler_free(&s0), holo_sampler_free(&s1), holo_sampler_free(&sg);
}

static void seeded_determinism(void **st) {
  (void)st;
  enum { V = 30 };
  holo_rng r;
  holo_rng_seed(&r, 2);
  float l[V];
  random_logits(&r, l, V, 1.0f);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.seed = 1234, c.top_k = 20, c.top_p = 0.95f;
  holo_sampler a, b, d;
  init(&a, &c, V), init(&b, &c, V);
  c.seed = 1235;
  init(&d, &c, V);
  holo_error err = {0};
  uint32_t first[1000];
  int differ = 0;
  for (int i = 0; i < 1000; i++) {
    uint32_t x, y, z;
    holo_sampler_sample(&a, l, 0, 0, 0, 0, &x, &err);
    holo_sampler_sample(&b, l, 0, 0, 0, 0, &y, &err);
    holo_sampler_sample(&d, l, 0, 0, 0, 0, &z, &err);
    assert_int_equal(x, y);
    differ += x != z;
    first[i] = x;
  }
  assert_true(differ > 100);
  /* reset replays the same stream */
  holo_sampler_reset(&a);
  for (int i = 0; i < 1000; i++) {
    uint32_t x;
    holo_sampler_sample(&a, l, 0, 0, 0, 0, &x, &err);
    assert_int_equal(x, first[i]);
  }
  /* the RNG stream itself is fixed across targets */
  holo_rng q;
  holo_rng_seed(&q, 0);
  uint32_t v0 = holo_rng_next(&q), v1 = holo_rng_next(&q);
  holo_rng_seed(&q, 0);
  assert_int_equal(holo_rng_next(&q), v0);
  assert_int_equal(holo_rng_next(&q), v1);
  holo_sampler_free(&a), holo_sampler_free(&b), holo_sampler_free(&d);
}

/* Mirostat v2: mu_{t+1} = mu_t - eta (s_t - tau), so summing over T draws,
 * mean(s) - tau = (mu_0 - mu_T) / (eta T) exactly. mu stays within the
 * range the distribution's surprises span (here < 12 bits), so with
 * eta = 0.1 and T = 4000 the mean is within 12 / 400 = 0.03 bits of tau;
 * we assert 0.1 (and the identity itself to float accuracy). */
static void mirostat_tracks_tau(void **st) {
  (void)st;
  enum { V = 200, T = 4000 };
  float l[V];
  for (int i = 0; i < V; i++) l[i] = -logf((float)(i + 1)) * 1.1f; /* Zipf-like */
  const float taus[2] = {3.0f, 5.0f};
  for (int k = 0; k < 2; k++) {
    holo_sampler_config c;
    holo_sampler_config_default(&c);
    c.kind = HOLO_SAMPLER_MIROSTAT_V2;
    c.mirostat_tau = taus[k], c.mirostat_eta = 0.1f, c.seed = 42;
    holo_sampler s;
    init(&s, &c, V);
    holo_error err = {0};
    double sum = 0;
    float mu0 = s.mu;
    for (int i = 0; i < T; i++) {
      uint32_t t;
      assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
      sum += s.last_surprise;
    }
    double mean = sum / T, ident = taus[k] + (mu0 - s.mu) / (0.1 * T);
    if (fabs(mean - taus[k]) > 0.1) fail_msg("tau %.1f: mean surprise %.3f", taus[k], mean);
    assert_true(fabs(mean - ident) < 1e-3);
    holo_sampler_free(&s);
  }
}

static double freq_of(holo_sampler *s, const float *l, const uint32_t *hist, uint32_t nh, uint32_t tok) {
  holo_error err = {0};
  int n = 0;
  for (int i = 0; i < DRAWS; i++) {
    uint32_t t;
    holo_sampler_sample(s, l, hist, nh, 0, 0, &t, &err);
    n += t == tok;
  }
  return n / (double)DRAWS;
}

static void penalties_lower_repeats(void **st) {
  (void)st;
  enum { V = 8 };
  float l[V] = {2.0f, 1.5f, 1.0f, 0.5f, 0.0f, -0.5f, -1.0f, -1.5f};
  uint32_t hist[6] = {0, 0, 0, 3, 3, 7};
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.seed = 5;
  holo_sampler plain;
  init(&plain, &c, V);
  double base0 = freq_of(&plain, l, hist, 6, 0), base3 = freq_of(&plain, l, hist, 6, 3), base1 = freq_of(&plain, l, hist, 6, 1);
  const char *which[3] = {"repetition", "frequency", "presence"};
  for (int k = 0; k < 3; k++) {
    holo_sampler_config_default(&c);
    c.seed = 5;
    if (k == 0) c.penalty.repetition = 1.8f;
    if (k == 1) c.penalty.frequency = 0.5f;
    if (k == 2) c.penalty.presence = 1.0f;
    holo_sampler s;
    init(&s, &c, V);
    double p0 = freq_of(&s, l, hist, 6, 0), p3 = freq_of(&s, l, hist, 6, 3), p1 = freq_of(&s, l, hist, 6, 1);
    if (!(p0 < base0 - 0.03)) fail_msg("%s: token 0 %.3f vs %.3f", which[k], p0, base0);
    if (!(p3 < base3 - 0.01 || k == 0)) fail_msg("%s: token 3 %.3f vs %.3f", which[k], p3, base3);
    if (!(p1 > base1)) fail_msg("%s: unseen token 1 should gain: %.3f vs %.3f", which[k], p1, base1);
    holo_sampler_free(&s);
  }
  /* the window: only the last 1 token (7) counts, token 0 is not penalised */
  holo_sampler_config_default(&c);
  c.kind = HOLO_SAMPLER_GREEDY, c.penalty.presence = 10, c.penalty.window = 1;
  holo_sampler g;
  init(&g, &c, V);
  holo_error err = {0};
  uint32_t t;
  holo_sampler_sample(&g, l, hist, 6, 0, 0, &t, &err);
  assert_int_equal(t, 0);
  g.cfg.penalty.window = 0; /* whole history: 0 and 3 and 7 are out */
  holo_sampler_sample(&g, l, hist, 6, 0, 0, &t, &err);
  assert_int_equal(t, 1);
  /* logits are not modified */
  assert_true(l[0] == 2.0f);
  holo_sampler_free(&g);
  holo_sampler_free(&plain);
}

static holo_status even_only(void *ctx, const uint32_t *gen, uint32_t n, uint8_t *allowed, uint32_t vocab) {
  (void)gen, (void)n;
  (*(int *)ctx)++;
  for (uint32_t i = 0; i < vocab; i++) allowed[i] = (i % 2) == 0;
  return HOLO_OK;
}

static holo_status none_allowed(void *ctx, const uint32_t *gen, uint32_t n, uint8_t *allowed, uint32_t vocab) {
  (void)ctx, (void)gen, (void)n, (void)allowed, (void)vocab;
  return HOLO_OK;
}

static void mask_never_emits_disallowed(void **st) {
  (void)st;
  enum { V = 21 };
  holo_rng r;
  holo_rng_seed(&r, 8);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.seed = 4, c.temperature = 3.0f;
  holo_sampler s;
  init(&s, &c, V);
  int calls = 0;
  holo_sampler_set_mask(&s, even_only, &calls);
  holo_error err = {0};
  for (int i = 0; i < DRAWS; i++) {
    float l[V];
    random_logits(&r, l, V, 5.0f);
    uint32_t t;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    assert_int_equal(t % 2, 0);
  }
  assert_int_equal(calls, DRAWS);
  /* greedy too */
  s.cfg.temperature = 0;
  float l[V];
  for (int i = 0; i < V; i++) l[i] = (float)(i % 2 ? 10 : i);
  uint32_t t;
  holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err);
  assert_int_equal(t, 20);
  holo_sampler_set_mask(&s, none_allowed, 0);
  assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "ConstrainedSampler"));
  holo_sampler_free(&s);
}

static void regex_subset(void **st) {
  (void)st;
  uint8_t bytes[128];
  for (int i = 0; i < 128; i++) bytes[i] = (uint8_t)i;
  holo_regex re;
  holo_error err = {0};
  assert_int_equal(holo_regex_compile(&re, "ab?c", bytes, 0, 128, -1, &err), HOLO_OK);
  assert_true(holo_regex_match(&re, (const uint8_t *)"ac", 2));
  assert_true(holo_regex_match(&re, (const uint8_t *)"abc", 3));
  assert_false(holo_regex_match(&re, (const uint8_t *)"abbc", 4));
  assert_int_equal(holo_regex_compile(&re, "[A-Z][a-z]* \\d+", bytes, 0, 128, -1, &err), HOLO_OK);
  assert_true(holo_regex_match(&re, (const uint8_t *)"Hello 42", 8));
  assert_false(holo_regex_match(&re, (const uint8_t *)"hello 42", 8));
  assert_false(holo_regex_match(&re, (const uint8_t *)"Hello ", 6));
  assert_int_equal(holo_regex_compile(&re, "[^0-9]+x", bytes, 0, 128, -1, &err), HOLO_OK);
  assert_true(holo_regex_match(&re, (const uint8_t *)"abx", 3));
  assert_false(holo_regex_match(&re, (const uint8_t *)"a1x", 3));
  assert_int_equal(holo_regex_compile(&re, "*a", bytes, 0, 128, -1, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_regex_compile(&re, "a{2}", bytes, 0, 128, -1, &err), HOLO_ERR_UNSUPPORTED);
  assert_int_equal(holo_regex_compile(&re, "(ab|c)+d", bytes, 0, 128, -1, &err), HOLO_OK);
  assert_true(holo_regex_match(&re, (const uint8_t *)"abcabd", 6));
  assert_true(holo_regex_match(&re, (const uint8_t *)"cd", 2));
  assert_false(holo_regex_match(&re, (const uint8_t *)"d", 1));
  assert_false(holo_regex_match(&re, (const uint8_t *)"acd", 3));
  assert_int_equal(holo_regex_compile(&re, "x(|y(z|w)*)", bytes, 0, 128, -1, &err), HOLO_OK);
  assert_true(holo_regex_match(&re, (const uint8_t *)"x", 1));
  assert_true(holo_regex_match(&re, (const uint8_t *)"xyzwz", 5));
  assert_false(holo_regex_match(&re, (const uint8_t *)"xz", 2));
  assert_int_equal(holo_regex_compile(&re, "(a|b", bytes, 0, 128, -1, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_regex_compile(&re, "a)", bytes, 0, 128, -1, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_regex_compile(&re, "[a-", bytes, 0, 128, -1, &err), HOLO_ERR_ARG);
}

/* A char vocabulary: 0 = end, 1..26 = a..z, 27 = ' ', 28..31 = digits 0-3. */
static void regex_constrained_sampling(void **st) {
  (void)st;
  enum { V = 32 };
  uint8_t bytes[V];
  bytes[0] = 0;
  for (int i = 1; i <= 26; i++) bytes[i] = (uint8_t)('a' + i - 1);
  bytes[27] = ' ';
  for (int i = 28; i < 32; i++) bytes[i] = (uint8_t)('0' + i - 28);
  const char *pats[5] = {"[a-z ]+", "[a-c]+ [0-9]?", "x[a-z]*y", "(ab|c)+( [0-3]+)?", "(x(y|z)*|w)+q"};
  holo_rng r;
  holo_rng_seed(&r, 99);
  for (int p = 0; p < 5; p++) {
    holo_regex re;
    holo_error err = {0};
    assert_int_equal(holo_regex_compile(&re, pats[p], bytes, 0, V, 0, &err), HOLO_OK);
    holo_sampler_config c;
    holo_sampler_config_default(&c);
    c.seed = (uint64_t)p, c.temperature = 2.0f;
    holo_sampler s;
    init(&s, &c, V);
    holo_sampler_set_mask(&s, holo_regex_mask, &re);
    for (int seq = 0; seq < 200; seq++) {
      uint32_t gen[40];
      uint32_t n = 0;
      bool ended = false;
      while (n < 40) {
        float l[V];
        random_logits(&r, l, V, 3.0f);
        l[0] += 1.0f; /* end often once allowed */
        uint32_t t;
        assert_int_equal(holo_sampler_sample(&s, l, 0, 0, gen, n, &t, &err), HOLO_OK);
        if (t == 0) {
          ended = true;
          break;
        }
        gen[n++] = t;
      }
      uint8_t text[40];
      for (uint32_t i = 0; i < n; i++) text[i] = bytes[gen[i]];
      if (ended && !holo_regex_match(&re, text, n)) fail_msg("pattern %s: '%.*s' does not match", pats[p], (int)n, text);
      /* every emitted prefix stays viable: each char belongs to the pattern's alphabet */
      for (uint32_t i = 0; i < n; i++) assert_true(bytes[gen[i]] != 0);
    }
    holo_sampler_free(&s);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(config_errors),          cmocka_unit_test(top_k_stays_in_k_best), cmocka_unit_test(top_k_ties_by_lower_id),
      cmocka_unit_test(top_p_keeps_the_nucleus), cmocka_unit_test(min_p_floor),
      cmocka_unit_test(temperature_zero_is_greedy), cmocka_unit_test(seeded_determinism),
      cmocka_unit_test(mirostat_tracks_tau),    cmocka_unit_test(penalties_lower_repeats),
      cmocka_unit_test(mask_never_emits_disallowed), cmocka_unit_test(regex_subset),
      cmocka_unit_test(regex_constrained_sampling),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
