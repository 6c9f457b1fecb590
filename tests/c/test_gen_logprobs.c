/* Log-probabilities of a draw and the logit bias (docs/generation.md):
 * holo_sampler_logprobs against a direct double-precision log-softmax of
 * the logits (raw) and of the sampler's own pipeline (drawn), the top-k
 * order, and the bias's refusals and its all -inf error. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "holo-std.h"
#include "hologram/generate.h"

#define V 40
#define TOL 2e-5

static void init(holo_sampler *s, const holo_sampler_config *c) {
  holo_error err = {0};
  if (holo_sampler_init(s, c, V, holo_std_allocator(), &err)) fail_msg("%s", err.message);
}

/* ln softmax(l / t) over the tokens with keep[i] (all if keep is NULL). */
static double ref_logprob(const float *l, double t, const uint8_t *keep, uint32_t tok) {
  double mx = -INFINITY, sum = 0;
  for (uint32_t i = 0; i < V; i++)
    if ((!keep || keep[i]) && l[i] / t > mx) mx = l[i] / t;
  for (uint32_t i = 0; i < V; i++)
    if (!keep || keep[i]) sum += exp(l[i] / t - mx);
  if (keep && !keep[tok]) return -INFINITY;
  return l[tok] / t - mx - log(sum);
}

static void random_logits(holo_rng *r, float *l, float scale) {
  for (uint32_t i = 0; i < V; i++)
    l[i] = (holo_rng_uniform(r) * 2 - 1) * scale;
}

static void near(double got, double want, const char *what, int round) {
  if (isinf(want) && got == want) return;
  if (fabs(got - want) > TOL) fail_msg("%s (round %d): %.9g, want %.9g", what, round, got, want);
}

/* Temperature only: the drawn distribution is softmax(l / T), the raw one
 * softmax(l); top-k lists the k largest logits in order. */
static void matches_log_softmax(void **st) {
  (void)st;
  holo_rng r;
  holo_rng_seed(&r, 11);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.temperature = 0.7f;
  holo_sampler s;
  init(&s, &c);
  holo_error err = {0};
  float l[V];
  for (int round = 0; round < 200; round++) {
    random_logits(&r, l, 6);
    uint32_t t, n = 0;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    holo_token_logprob ch, top[8];
    assert_int_equal(holo_sampler_logprobs(&s, l, t, 8, &ch, top, &n, &err), HOLO_OK);
    assert_int_equal(ch.token, t);
    near(ch.raw_logprob, ref_logprob(l, 1, 0, t), "raw", round);
    near(ch.logprob, ref_logprob(l, 0.7, 0, t), "drawn", round);
    near(exp(ch.logprob), s.last_prob, "prob", round);
    assert_int_equal(n, 8);
    for (uint32_t j = 0; j < n; j++) {
      near(top[j].logprob, ref_logprob(l, 0.7, 0, top[j].token), "top drawn", round);
      near(top[j].raw_logprob, ref_logprob(l, 1, 0, top[j].token), "top raw", round);
      if (j) assert_true(l[top[j - 1].token] >= l[top[j].token]);
    }
    uint32_t above = 0; /* nothing outside the list beats its last entry */
    for (uint32_t i = 0; i < V; i++)
      above += l[i] > l[top[n - 1].token];
    assert_true(above <= n - 1);
  }
  holo_sampler_free(&s);
}

/* top-k 3 + a mask: the drawn distribution is the renormalised top 3 of the
 * allowed tokens; the list goes on with excluded tokens (drawn -inf) by raw
 * logit. Greedy: logprob 0 at the argmax, the others -inf. */
static holo_status mask_even(void *ctx, const uint32_t *g, uint32_t n, uint8_t *allowed, uint32_t vocab) {
  (void)ctx, (void)g, (void)n;
  for (uint32_t i = 0; i < vocab; i++)
    allowed[i] = i % 2 == 0;
  return HOLO_OK;
}

static void truncated_and_greedy(void **st) {
  (void)st;
  holo_rng r;
  holo_rng_seed(&r, 5);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.top_k = 3;
  holo_sampler s;
  init(&s, &c);
  holo_sampler_set_mask(&s, mask_even, 0);
  holo_error err = {0};
  float l[V];
  for (int round = 0; round < 100; round++) {
    random_logits(&r, l, 4);
    uint8_t keep[V] = {0};
    for (int k = 0; k < 3; k++) { /* the 3 best even tokens */
      int best = -1;
      for (uint32_t i = 0; i < V; i += 2)
        if (!keep[i] && (best < 0 || l[i] > l[best])) best = (int)i;
      keep[best] = 1;
    }
    uint32_t t, n = 0;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    assert_true(keep[t]);
    holo_token_logprob ch, top[5];
    assert_int_equal(holo_sampler_logprobs(&s, l, t, 5, &ch, top, &n, &err), HOLO_OK);
    near(ch.logprob, ref_logprob(l, 1, keep, t), "masked drawn", round);
    near(ch.raw_logprob, ref_logprob(l, 1, 0, t), "masked raw", round);
    assert_int_equal(n, 5);
    for (uint32_t j = 0; j < 3; j++)
      assert_true(keep[top[j].token]);
    for (uint32_t j = 3; j < 5; j++) {
      assert_false(keep[top[j].token]);
      assert_true(isinf(top[j].logprob) && top[j].logprob < 0);
    }
    assert_true(l[top[3].token] >= l[top[4].token]);
    for (uint32_t i = 0; i < V; i++) /* the excluded tokens listed are the best excluded ones */
      if (!keep[i] && i != top[3].token && i != top[4].token) assert_true(l[i] <= l[top[4].token]);
  }
  holo_sampler_free(&s);
  c.kind = HOLO_SAMPLER_GREEDY;
  init(&s, &c);
  random_logits(&r, l, 4);
  uint32_t t, n = 0;
  holo_token_logprob ch, top[3];
  assert_int_equal(holo_sampler_logprobs(&s, l, 0, 0, &ch, 0, 0, &err),
                   HOLO_ERR_STATE); /* nothing drawn yet */
  assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
  assert_int_equal(holo_sampler_logprobs(&s, l, t, 3, &ch, top, &n, &err), HOLO_OK);
  assert_true(ch.logprob == 0);
  near(ch.raw_logprob, ref_logprob(l, 1, 0, t), "greedy raw", 0);
  assert_int_equal(top[0].token, t);
  assert_true(isinf(top[1].logprob) && isinf(top[2].logprob));
  assert_int_equal(holo_sampler_logprobs(&s, l, t, HOLO_LOGPROBS_MAX_TOP + 1, &ch, top, &n, &err),
                   HOLO_ERR_LIMIT);
  holo_sampler_free(&s);
}

/* The bias shifts the logits before the temperature: drawn logprobs equal
 * a log-softmax of (l + b) / T; -inf bans; NaN and +inf are refused; a bias
 * that leaves every token at -inf is an error, not a draw. */
static void logit_bias(void **st) {
  (void)st;
  holo_rng r;
  holo_rng_seed(&r, 9);
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.temperature = 1.3f;
  holo_sampler s;
  init(&s, &c);
  holo_error err = {0};
  float l[V], b[V], lb[V];
  for (uint32_t i = 0; i < V; i++)
    b[i] = i % 3 == 0 ? -__builtin_inff() : (float)i * 0.05f;
  assert_int_equal(holo_sampler_set_bias(&s, b, &err), HOLO_OK);
  for (int round = 0; round < 200; round++) {
    random_logits(&r, l, 3);
    for (uint32_t i = 0; i < V; i++)
      lb[i] = l[i] + b[i];
    uint32_t t;
    assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
    assert_true(t % 3 != 0);
    holo_token_logprob ch;
    assert_int_equal(holo_sampler_logprobs(&s, l, t, 0, &ch, 0, 0, &err), HOLO_OK);
    near(ch.logprob, ref_logprob(lb, 1.3, 0, t), "biased drawn", round);
    near(ch.raw_logprob, ref_logprob(l, 1, 0, t), "biased raw", round);
  }
  float bad[V] = {0};
  bad[4] = __builtin_nanf("");
  assert_int_equal(holo_sampler_set_bias(&s, bad, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "token 4"));
  bad[4] = __builtin_inff();
  assert_int_equal(holo_sampler_set_bias(&s, bad, &err), HOLO_ERR_ARG);
  assert_ptr_equal(s.bias, b); /* refused: the old bias stays */
  for (uint32_t i = 0; i < V; i++)
    bad[i] = -__builtin_inff();
  assert_int_equal(holo_sampler_set_bias(&s, bad, &err), HOLO_OK);
  uint32_t t;
  assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "-inf"));
  s.cfg.kind = HOLO_SAMPLER_GREEDY;
  assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_ERR_STATE);
  assert_int_equal(holo_sampler_set_bias(&s, 0, &err), HOLO_OK);
  assert_int_equal(holo_sampler_sample(&s, l, 0, 0, 0, 0, &t, &err), HOLO_OK);
  holo_sampler_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(matches_log_softmax),
      cmocka_unit_test(truncated_and_greedy),
      cmocka_unit_test(logit_bias),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
