/* Samplers (docs/generation.md): greedy, temperature / top-k / top-p /
 * min-p, penalties, Mirostat v2, and an allowed-token mask. No libm: exp
 * and log are generation's own (gen-mathf.h: one rounding, same on every
 * target). */
#include "hologram/generate.h"

#include "gen-mathf.h"
#include "hologram/error.h"
#include "hologram/mem.h"

#define NEG_INF (-__builtin_inff())

/* ------------------------------------------------------------------ RNG */

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void holo_rng_seed(holo_rng *r, uint64_t seed) {
  uint64_t x = seed, a = splitmix64(&x), b = splitmix64(&x);
  r->s[0] = (uint32_t)a, r->s[1] = (uint32_t)(a >> 32), r->s[2] = (uint32_t)b, r->s[3] = (uint32_t)(b >> 32);
  if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3])) r->s[0] = 1;
}

static inline uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

uint32_t holo_rng_next(holo_rng *r) {
  uint32_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 9;
  s[2] ^= s[0], s[3] ^= s[1], s[1] ^= s[2], s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return out;
}

float holo_rng_uniform(holo_rng *r) { return (float)(holo_rng_next(r) >> 8) * (1.0f / 16777216.0f); }

/* -------------------------------------------------------------- config */

static bool finite(float x) { return x == x && x != __builtin_inff() && x != NEG_INF; }

void holo_sampler_config_default(holo_sampler_config *c) {
  holo_memset(c, 0, sizeof *c);
  c->kind = HOLO_SAMPLER_DEFAULT;
  c->temperature = 1.0f;
  c->top_p = 1.0f;
  c->penalty.repetition = 1.0f;
  c->penalty.window = 64;
  c->mirostat_tau = 5.0f;
  c->mirostat_eta = 0.1f;
}

#define CFG_ERR(...) holo_err(err, HOLO_ERR_ARG, "SamplingConfigurationError: " __VA_ARGS__)

holo_status holo_sampler_config_check(const holo_sampler_config *c, uint32_t vocab, holo_error *err) {
  if (!c) return CFG_ERR("config is NULL");
  if (c->kind != HOLO_SAMPLER_GREEDY && c->kind != HOLO_SAMPLER_DEFAULT &&
      c->kind != HOLO_SAMPLER_MIROSTAT_V2)
    return CFG_ERR("unknown sampler kind %d", (int)c->kind);
  if (!finite(c->temperature) || c->temperature < 0) return CFG_ERR("temperature must be finite and >= 0");
  if (!(c->top_p > 0 && c->top_p <= 1)) return CFG_ERR("top_p must be in (0, 1]");
  if (!(c->min_p >= 0 && c->min_p < 1)) return CFG_ERR("min_p must be in [0, 1)");
  if (vocab && c->top_k > vocab) return CFG_ERR("top_k %u exceeds the vocabulary (%u)", c->top_k, vocab);
  if (!finite(c->penalty.repetition) || !(c->penalty.repetition > 0))
    return CFG_ERR("repetition penalty must be finite and > 0");
  if (!finite(c->penalty.frequency) || !finite(c->penalty.presence))
    return CFG_ERR("frequency and presence penalties must be finite");
  if (c->kind == HOLO_SAMPLER_MIROSTAT_V2) {
    if (!finite(c->mirostat_tau) || !(c->mirostat_tau > 0))
      return CFG_ERR("mirostat tau must be finite and > 0");
    if (!(c->mirostat_eta > 0 && c->mirostat_eta <= 1)) return CFG_ERR("mirostat eta must be in (0, 1]");
  }
  return HOLO_OK;
}

void holo_sampler_reset(holo_sampler *s) {
  holo_rng_seed(&s->rng, s->cfg.seed);
  s->mu = 2.0f * s->cfg.mirostat_tau;
  s->last_surprise = 0;
  s->last_prob = 0;
  s->last_valid = false;
}

holo_status holo_sampler_init(holo_sampler *s, const holo_sampler_config *c, uint32_t vocab,
                              const holo_allocator *a, holo_error *err) {
  if (!s || !a) return holo_err(err, HOLO_ERR_ARG, "sampler: sampler or allocator is NULL");
  holo_memset(s, 0, sizeof *s);
  if (vocab == 0) return CFG_ERR("vocabulary is empty");
  holo_status st = holo_sampler_config_check(c, vocab, err);
  if (st) return st;
  if (vocab > (uint32_t)(SIZE_MAX / 16))
    return holo_err(err, HOLO_ERR_LIMIT, "sampler: vocabulary too large");
  s->cfg = *c;
  s->vocab = vocab;
  s->a = *a;
  s->work = a->alloc(a->ctx, (size_t)vocab * 4, 16);
  s->idx = a->alloc(a->ctx, (size_t)vocab * 4, 16);
  s->cnt = a->alloc(a->ctx, (size_t)vocab * 4, 16);
  s->allowed = a->alloc(a->ctx, vocab, 16);
  s->sort_tmp = a->alloc(a->ctx, (size_t)vocab * 8, 16);
  if (!s->work || !s->idx || !s->cnt || !s->allowed || !s->sort_tmp) {
    holo_sampler_free(s);
    return holo_err(err, HOLO_ERR_MEMORY, "sampler: out of memory (vocabulary %u)", vocab);
  }
  holo_memset(s->cnt, 0, (size_t)vocab * 4);
  holo_sampler_reset(s);
  return HOLO_OK;
}

void holo_sampler_free(holo_sampler *s) {
  if (!s || !s->a.free) return;
  void *p[5] = {s->work, s->idx, s->cnt, s->allowed, s->sort_tmp};
  for (int i = 0; i < 5; i++)
    if (p[i]) s->a.free(s->a.ctx, p[i]);
  s->work = 0, s->idx = 0, s->cnt = 0, s->allowed = 0, s->sort_tmp = 0;
}

void holo_sampler_set_mask(holo_sampler *s, holo_token_mask_fn fn, void *ctx) {
  s->mask = fn;
  s->mask_ctx = ctx;
}

holo_status holo_sampler_set_bias(holo_sampler *s, const float *bias, holo_error *err) {
  if (!s) return holo_err(err, HOLO_ERR_ARG, "logit bias: sampler is NULL");
  for (uint32_t i = 0; bias && i < s->vocab; i++)
    if (!finite(bias[i]) && bias[i] != NEG_INF)
      return holo_err(err, HOLO_ERR_ARG,
                      "SamplingConfigurationError: logit bias of token %u must be finite or -inf", i);
  s->bias = bias;
  return HOLO_OK;
}

uint32_t holo_argmax(const float *l, uint32_t vocab, const uint8_t *allowed) {
  uint32_t best = UINT32_MAX;
  for (uint32_t i = 0; i < vocab; i++) {
    if (allowed && !allowed[i]) continue;
    if (best == UINT32_MAX || l[i] > l[best]) best = i;
  }
  return best == UINT32_MAX ? 0 : best;
}

/* ------------------------------------------------------------- sampling */

/* Sorts idx[0..n) by w[idx] descending, ties by lower index first: a total
 * order, so the result is deterministic. w holds non-negative floats (the
 * softmax), whose bit patterns order as the values do, so this is a stable
 * LSD radix sort on ~bits (8 bits a pass), the indices entering in
 * ascending order: stability keeps equal probabilities by lower index.
 * The permutation is the one the heap sort it replaces produced (the same
 * total order), so every draw keeps its bytes; at a vocabulary of 256 it
 * takes 31k instructions against the heap sort's 83k (callgrind, x64,
 * softmax-like weights); `truncated`, around the heap sort, was 8 %
 * of a sampled speculative run (two distributions per token). A pass
 * whose digit is the same for every key is skipped (the exponent byte of
 * probabilities in [0, 1] mostly is). tmp: 2 * V words (keys by token id, then
 * the second index buffer). */
static void sort_desc(const float *w, uint32_t *idx, uint32_t n, uint32_t *tmp, uint32_t V) {
  if (n < 2) return;
  uint32_t *key = tmp, *alt = tmp + V, *src = idx, *dst = alt;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t b;
    holo_memcpy(&b, &w[idx[j]], 4);
    key[idx[j]] = ~b;
  }
  for (uint32_t shift = 0; shift < 32; shift += 8) {
    uint32_t count[256] = {0};
    for (uint32_t j = 0; j < n; j++)
      count[(key[src[j]] >> shift) & 255]++;
    if (count[(key[src[0]] >> shift) & 255] == n) continue; /* one digit: the pass is the identity */
    uint32_t at = 0;
    for (uint32_t d = 0; d < 256; d++) {
      uint32_t c = count[d];
      count[d] = at;
      at += c;
    }
    for (uint32_t j = 0; j < n; j++)
      dst[count[(key[src[j]] >> shift) & 255]++] = src[j];
    uint32_t *t = src;
    src = dst, dst = t;
  }
  if (src != idx) holo_memcpy(idx, src, (size_t)n * 4);
}

static float log2f_(float p) { return holo_gen_logf(p) * 1.4426950408889634f; }

static void apply_penalties(holo_sampler *s, float *w, const uint32_t *hist, uint32_t n) {
  const holo_penalty_config *p = &s->cfg.penalty;
  if (p->repetition == 1.0f && p->frequency == 0 && p->presence == 0) return;
  if (!hist || !n) return;
  uint32_t from = p->window && n > p->window ? n - p->window : 0;
  for (uint32_t i = from; i < n; i++)
    if (hist[i] < s->vocab) s->cnt[hist[i]]++;
  for (uint32_t i = from; i < n; i++) {
    uint32_t t = hist[i];
    if (t >= s->vocab || !s->cnt[t]) continue;
    float l = w[t];
    if (l != NEG_INF) {
      l = l > 0 ? l / p->repetition : l * p->repetition;
      l -= (float)s->cnt[t] * p->frequency + p->presence;
      w[t] = l;
    }
    s->cnt[t] = 0; /* once per distinct token; leaves cnt all zero */
  }
}

/* The sampler's final distribution before the draw: w[] holds the
 * probabilities, idx[0..keep) the kept tokens in descending order (keep 0:
 * the draw is deterministic and *token is set). Shared by the draw and by
 * holo_sampler_probs, so speculative acceptance sees exactly the
 * distribution a plain draw samples. */
static holo_status truncated(holo_sampler *s, const float *logits, const uint32_t *history,
                             uint32_t n_history, const uint32_t *generated, uint32_t n_generated,
                             uint32_t *keep_out, double *mass_out, uint32_t *token, holo_error *err) {
  const uint32_t V = s->vocab;
  float *w = s->work;
  *keep_out = 0;
  holo_memcpy(w, logits, (size_t)V * 4);
  for (uint32_t i = 0; i < V; i++)
    if (w[i] != w[i]) return holo_err(err, HOLO_ERR_ARG, "sample: logit %u is NaN", i);
  apply_penalties(s, w, history, n_history);
  if (s->bias)
    for (uint32_t i = 0; i < V; i++) /* a -inf bias bans the token, even one at +inf */
      w[i] = s->bias[i] == NEG_INF ? NEG_INF : w[i] + s->bias[i];
  uint8_t *allowed = 0;
  if (s->mask) {
    holo_memset(s->allowed, 0, V);
    holo_status st = s->mask(s->mask_ctx, generated, n_generated, s->allowed, V);
    if (st)
      return holo_err(err, st, "ConstrainedSampler: the mask callback failed (%s)", holo_status_name(st));
    allowed = s->allowed;
    uint32_t any = 0;
    for (uint32_t i = 0; i < V; i++)
      any |= allowed[i];
    if (!any)
      return holo_err(err, HOLO_ERR_STATE, "ConstrainedSampler: no token is allowed after %u tokens",
                      n_generated);
    for (uint32_t i = 0; i < V; i++)
      if (!allowed[i]) w[i] = NEG_INF;
  }
  if (s->mask || s->bias) { /* a constraint that leaves only -inf logits leaves nothing to draw */
    uint32_t i = 0;
    while (i < V && w[i] == NEG_INF)
      i++;
    if (i == V)
      return holo_err(
          err, HOLO_ERR_STATE,
          "ConstrainedSampler: every allowed token has logit -inf (after the logit bias) after %u tokens",
          n_generated);
  }
  if (s->cfg.kind == HOLO_SAMPLER_GREEDY || s->cfg.temperature == 0) {
    *token = holo_argmax(w, V, allowed);
    return HOLO_OK;
  }
  /* Softmax of w / T over the finite candidates, sorted by probability. */
  float inv_t = 1.0f / s->cfg.temperature, mx = NEG_INF;
  uint32_t n = 0;
  for (uint32_t i = 0; i < V; i++)
    if (w[i] != NEG_INF) {
      s->idx[n++] = i;
      if (w[i] > mx) mx = w[i];
    }
  if (n == 0 || mx == __builtin_inff()) {
    *token = holo_argmax(w, V, allowed);
    return HOLO_OK;
  }
  double sum = 0;
  for (uint32_t j = 0; j < n; j++) {
    uint32_t i = s->idx[j];
    w[i] = holo_gen_expf((w[i] - mx) * inv_t);
    sum += w[i];
  }
  for (uint32_t j = 0; j < n; j++)
    w[s->idx[j]] = (float)(w[s->idx[j]] / sum);
  sort_desc(w, s->idx, n, s->sort_tmp, V);
  uint32_t keep = n;
  if (s->cfg.kind == HOLO_SAMPLER_MIROSTAT_V2) {
    /* Keep the tokens whose surprise -log2 p is at most mu (at least one). */
    keep = 1;
    while (keep < n && -log2f_(w[s->idx[keep]]) <= s->mu)
      keep++;
  } else {
    if (s->cfg.top_k && s->cfg.top_k < keep) keep = s->cfg.top_k;
    if (s->cfg.top_p < 1.0f) { /* smallest prefix whose mass reaches top_p */
      double c = 0;
      uint32_t j = 0;
      while (j < keep) {
        c += w[s->idx[j++]];
        if (c >= s->cfg.top_p) break;
      }
      keep = j;
    }
    if (s->cfg.min_p > 0) {
      float floor = s->cfg.min_p * w[s->idx[0]];
      uint32_t j = 1;
      while (j < keep && w[s->idx[j]] >= floor)
        j++;
      keep = j;
    }
  }
  double mass = 0;
  for (uint32_t j = 0; j < keep; j++)
    mass += w[s->idx[j]];
  *keep_out = keep;
  *mass_out = mass;
  return HOLO_OK;
}

/* Keeps the draw's distribution on record for holo_sampler_logprobs. */
static void record(holo_sampler *s, uint32_t keep, double mass, uint32_t token) {
  s->last_keep = keep, s->last_mass = mass, s->last_token = token;
  s->last_valid = true;
}

holo_status holo_sampler_sample(holo_sampler *s, const float *logits, const uint32_t *history,
                                uint32_t n_history, const uint32_t *generated, uint32_t n_generated,
                                uint32_t *token, holo_error *err) {
  if (!s || !s->work || !logits || !token)
    return holo_err(err, HOLO_ERR_ARG, "sample: sampler, logits or token is NULL");
  uint32_t keep;
  double mass;
  s->last_valid = false;
  holo_status st = truncated(s, logits, history, n_history, generated, n_generated, &keep, &mass, token, err);
  if (st) return st;
  if (keep == 0) {
    s->last_prob = 1.0f;
    s->last_surprise = 0;
    record(s, 0, 1.0, *token);
    return HOLO_OK;
  }
  const float *w = s->work;
  double r = (double)holo_rng_uniform(&s->rng) * mass, c = 0;
  uint32_t pick = keep - 1;
  for (uint32_t j = 0; j < keep; j++) {
    c += w[s->idx[j]];
    if (r < c) {
      pick = j;
      break;
    }
  }
  *token = s->idx[pick];
  record(s, keep, mass, *token);
  float p = (float)(w[*token] / mass);
  s->last_prob = p;
  s->last_surprise = -log2f_(p);
  if (s->cfg.kind == HOLO_SAMPLER_MIROSTAT_V2)
    s->mu -= s->cfg.mirostat_eta * (s->last_surprise - s->cfg.mirostat_tau);
  return HOLO_OK;
}

holo_status holo_sampler_probs(holo_sampler *s, const float *logits, const uint32_t *history,
                               uint32_t n_history, const uint32_t *generated, uint32_t n_generated,
                               float *probs, holo_error *err) {
  if (!s || !s->work || !logits || !probs)
    return holo_err(err, HOLO_ERR_ARG, "probs: sampler, logits or probs is NULL");
  uint32_t keep, tok = 0;
  double mass;
  s->last_valid = false; /* truncated() overwrites the last draw's distribution */
  holo_status st = truncated(s, logits, history, n_history, generated, n_generated, &keep, &mass, &tok, err);
  if (st) return st;
  holo_memset(probs, 0, (size_t)s->vocab * 4);
  if (keep == 0) {
    probs[tok] = 1.0f;
    return HOLO_OK;
  }
  for (uint32_t j = 0; j < keep; j++)
    probs[s->idx[j]] = (float)(s->work[s->idx[j]] / mass);
  return HOLO_OK;
}
