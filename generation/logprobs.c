/* Log-probabilities of a draw (docs/generation.md, "Log-probabilities"):
 * the draw's own distribution, read back from the sampler's record of it
 * (so it is exactly what the token was drawn from, after every filter),
 * and the model's raw distribution, a log-softmax of the logits. */
#include "gen-mathf.h"
#include "hologram/error.h"
#include "hologram/generate.h"

#define NEG_INF (-__builtin_inff())

/* ln softmax(logits) at each wanted token needs max and log-sum-exp. */
typedef struct lse {
  float mx;
  float log_sum;  /* ln sum exp(l - mx) */
  uint32_t n_max; /* tokens at an infinite maximum */
} lse;

static lse log_sum_exp(const float *l, uint32_t V) {
  lse r = {NEG_INF, 0, 0};
  for (uint32_t i = 0; i < V; i++)
    if (l[i] > r.mx) r.mx = l[i];
  if (r.mx == NEG_INF || r.mx == __builtin_inff()) { /* softmax is the uniform law over the maxima */
    for (uint32_t i = 0; i < V; i++)
      r.n_max += l[i] == r.mx;
    r.log_sum = holo_gen_logf((float)r.n_max);
    return r;
  }
  double sum = 0;
  for (uint32_t i = 0; i < V; i++)
    sum += holo_gen_expf(l[i] - r.mx);
  r.log_sum = holo_gen_logf((float)sum);
  return r;
}

static float raw_at(const lse *r, const float *l, uint32_t t) {
  if (r->n_max) return l[t] == r->mx ? -r->log_sum : NEG_INF;
  return (l[t] - r->mx) - r->log_sum;
}

/* Position of token t among the kept tokens (keep if it is not kept). */
static uint32_t kept_at(const holo_sampler *s, uint32_t t) {
  if (s->last_keep == 0) return t == s->last_token ? 0 : 1;
  for (uint32_t j = 0; j < s->last_keep; j++)
    if (s->idx[j] == t) return j;
  return s->last_keep;
}

static float drawn_logprob(const holo_sampler *s, uint32_t t) {
  uint32_t keep = s->last_keep ? s->last_keep : 1;
  if (kept_at(s, t) == keep) return NEG_INF;
  if (s->last_keep == 0) return 0;
  return holo_gen_logf((float)(s->work[t] / s->last_mass));
}

/* After the kept tokens (fewer than k), the excluded ones by raw logit,
 * then lower id: an insertion into top[from..*n) bounded by k. */
static void fill_excluded(const holo_sampler *s, const float *l, uint32_t from, uint32_t k,
                          holo_token_logprob *top, uint32_t *n) {
  uint32_t keep = s->last_keep ? s->last_keep : 1;
  for (uint32_t t = 0; t < s->vocab; t++) {
    if (kept_at(s, t) != keep) continue;
    uint32_t j = *n;
    if (j == k && !(l[t] > l[top[k - 1].token])) continue; /* ties keep the lower id already there */
    if (j == k) j--;
    while (j > from && l[t] > l[top[j - 1].token]) {
      top[j] = top[j - 1];
      j--;
    }
    top[j].token = t;
    if (*n < k) (*n)++;
  }
}

holo_status holo_sampler_logprobs(const holo_sampler *s, const float *logits, uint32_t token, uint32_t k,
                                  holo_token_logprob *chosen, holo_token_logprob *top, uint32_t *n_top,
                                  holo_error *err) {
  if (!s || !s->work || !logits || !chosen || (k && (!top || !n_top)))
    return holo_err(err, HOLO_ERR_ARG, "logprobs: NULL argument");
  if (!s->last_valid) return holo_err(err, HOLO_ERR_STATE, "logprobs: no draw on record (sample first)");
  if (token >= s->vocab)
    return holo_err(err, HOLO_ERR_ARG, "logprobs: token %u outside the vocabulary", token);
  if (k > HOLO_LOGPROBS_MAX_TOP)
    return holo_err(err, HOLO_ERR_LIMIT, "logprobs: at most %d top tokens (asked for %u)",
                    HOLO_LOGPROBS_MAX_TOP, k);
  if (k > s->vocab) k = s->vocab;
  lse r = log_sum_exp(logits, s->vocab);
  *chosen = (holo_token_logprob){token, drawn_logprob(s, token), raw_at(&r, logits, token)};
  if (n_top) *n_top = 0;
  if (!k) return HOLO_OK;
  uint32_t n = 0;
  if (s->last_keep == 0) top[n++].token = s->last_token;
  for (uint32_t j = 0; j < s->last_keep && n < k; j++)
    top[n++].token = s->idx[j];
  if (n < k) fill_excluded(s, logits, n, k, top, &n);
  for (uint32_t j = 0; j < n; j++) {
    top[j].logprob = drawn_logprob(s, top[j].token);
    top[j].raw_logprob = raw_at(&r, logits, top[j].token);
  }
  *n_top = n;
  return HOLO_OK;
}
