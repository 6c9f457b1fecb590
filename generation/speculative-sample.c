/* Speculative decoding with sampling (docs/generation.md): the draft samples
 * proposals from its distribution q, the target accepts each with
 * probability min(1, p/q) and on a rejection resamples from the residual
 * max(0, p - q) renormalised (Leviathan et al. 2023, Chen et al. 2023). Every
 * emitted token is then distributed exactly as target-only sampling with the
 * same sampler would draw it; only the draws differ, so the bytes are not
 * those of holo_gen_run with the same seed.
 *
 * p and q are holo_sampler_probs of one sampler (temperature, top-k/p,
 * min-p, penalties over each generator's own history, the mask), so the draft
 * is judged under the very distribution the caller asked for. Mirostat is
 * refused: its state moves with every draw, so no fixed p exists to accept
 * against. One RNG (the sampler's) drives proposals, acceptances and
 * resamples: a seed names one output. */
#include "hologram/error.h"
#include "hologram/generate.h"

#define MAX_K 64

typedef struct spec {
  holo_gen *t, *d;
  holo_sampler *s;
  const holo_gen_options *o;
  uint32_t *out, cap, *n_out;
  holo_spec_report *rep;
  uint32_t V;
  float *q;   /* MAX_K rows of V: the draft's distribution per proposal */
  float *p;   /* V: the target's */
  float *res; /* V: the residual */
} spec;

static bool is_stop(const spec *c, uint32_t tok) {
  return c->o->stop_token >= 0 && (int64_t)tok == c->o->stop_token;
}

/* Emits one token; false when the caller must stop (on_token said so). */
static bool emit(spec *c, uint32_t tok) {
  if (c->out && *c->n_out < c->cap) c->out[*c->n_out] = tok;
  (*c->n_out)++;
  return !(c->o->on_token && !c->o->on_token(c->o->ctx, tok, *c->n_out - 1));
}

/* The sampler's distribution after g's first n_hist history tokens. */
static holo_status dist(spec *c, holo_gen *g, const float *logits, uint32_t n_hist, float *out,
                        holo_error *err) {
  uint32_t start = g->gen_start <= n_hist ? g->gen_start : n_hist;
  return holo_sampler_probs(c->s, logits, g->history, n_hist, g->history + start, n_hist - start, out, err);
}

/* A draw from the (unnormalised, non-negative) weights w. */
static uint32_t draw(spec *c, const float *w) {
  double mass = 0;
  uint32_t last = 0;
  for (uint32_t i = 0; i < c->V; i++)
    if (w[i] > 0) mass += w[i], last = i;
  double u = (double)holo_rng_uniform(&c->s->rng) * mass, acc = 0;
  for (uint32_t i = 0; i < c->V; i++) {
    if (!(w[i] > 0)) continue;
    acc += w[i];
    if (u < acc) return i;
  }
  return last;
}

/* Accepts proposal x (drawn from q) against p, else resamples from the
 * residual. *accepted tells which. */
static uint32_t judge(spec *c, const float *p, const float *q, uint32_t x, bool *accepted) {
  /* u < p/q, written without the division (q[x] > 0: x was drawn from q) */
  float u = holo_rng_uniform(&c->s->rng);
  if ((double)u * q[x] < (double)p[x]) {
    *accepted = true;
    return x;
  }
  *accepted = false;
  bool any = false;
  for (uint32_t i = 0; i < c->V; i++) {
    float r = p[i] - q[i];
    c->res[i] = r > 0 ? r : 0;
    any |= c->res[i] > 0;
  }
  /* p == q to rounding: the residual is empty, and p itself is the law */
  return draw(c, any ? c->res : p);
}

/* The draft samples up to m proposals into prop[], feeding all but the last
 * (when feed_last is false) and stopping after a proposed stop token, which
 * is never fed. *fed: tokens fed to the draft. Returns the count. */
static holo_status propose(spec *c, uint32_t m, bool feed_last, uint32_t *prop, uint32_t *np, uint32_t *fed,
                           holo_error *err) {
  holo_gen *d = c->d;
  *np = *fed = 0;
  for (uint32_t i = 0; i < m; i++) {
    holo_status st = dist(c, d, d->logits, d->n_history, c->q + (size_t)i * c->V, err);
    if (st) return st;
    prop[i] = draw(c, c->q + (size_t)i * c->V);
    (*np)++;
    if (is_stop(c, prop[i])) break;
    if (i + 1 < m || feed_last) {
      if ((st = holo_gen_feed(d, prop[i], err))) return st;
      (*fed)++;
    }
  }
  return HOLO_OK;
}

/* Step-graph target: the target judges the proposals one step at a time. */
static holo_status run_step(spec *c, uint32_t k, holo_error *err) {
  holo_gen *t = c->t, *d = c->d;
  holo_status st = HOLO_OK;
  bool done = false;
  while (!done && *c->n_out < c->o->max_tokens) {
    uint32_t m = c->o->max_tokens - *c->n_out < k ? c->o->max_tokens - *c->n_out : k;
    uint32_t prop[MAX_K], emitted[MAX_K], ne = 0, np = 0, fed = 0;
    holo_gen_snapshot snap;
    if ((st = holo_gen_snapshot_take(d, &snap, err))) break;
    st = propose(c, m, true, prop, &np, &fed, err);
    c->rep->rounds++;
    bool rejected = false;
    for (uint32_t j = 0; j < np && !st && !done && !rejected; j++) {
      if ((st = dist(c, t, t->logits, t->n_history, c->p, err))) break;
      bool ok;
      uint32_t tok = judge(c, c->p, c->q + (size_t)j * c->V, prop[j], &ok);
      c->rep->proposed++;
      c->rep->accepted += ok;
      rejected = !ok;
      if (is_stop(c, tok)) {
        done = true;
        break;
      }
      if ((st = holo_gen_feed(t, tok, err))) break;
      emitted[ne++] = tok;
      done = !emit(c, tok);
    }
    if (!st && (ne < fed || rejected)) { /* roll the draft back, re-feed what was committed */
      holo_gen_snapshot_restore(d, &snap);
      for (uint32_t j = 0; j < ne && !st; j++)
        st = holo_gen_feed(d, emitted[j], err);
    }
    holo_gen_snapshot_free(d, &snap);
    if (st) break;
  }
  return st;
}

/* Rolls the draft back to the kept proposals (it was fed `fed` of them). */
static holo_status draft_keep(spec *c, const uint32_t *prop, uint32_t fed, uint32_t kept, bool rewind,
                              holo_gen_snapshot *snap, holo_error *err) {
  holo_gen *d = c->d;
  holo_status st = HOLO_OK;
  if (rewind) {
    st = holo_gen_rewind(d, fed - (kept < fed ? kept : fed), err);
    for (uint32_t i = fed; i < kept && !st; i++)
      st = holo_gen_feed(d, prop[i], err);
    return st;
  }
  if (kept < fed) {
    holo_gen_snapshot_restore(d, snap);
    for (uint32_t i = 0; i < kept && !st; i++)
      st = holo_gen_feed(d, prop[i], err);
  } else {
    for (uint32_t i = fed; i < kept && !st; i++)
      st = holo_gen_feed(d, prop[i], err);
  }
  return st;
}

/* Judges the proposals against the rows of one target execution. Returns the
 * accepted count; *next is the token after them (a resample, a bonus draw,
 * or a stop), undefined on error. */
static holo_status judge_rows(spec *c, const uint32_t *prop, uint32_t np, uint32_t h0, uint32_t *kept,
                              uint32_t *next, holo_error *err) {
  holo_gen *t = c->t;
  holo_status st;
  uint32_t j = 0;
  for (; j < np; j++) {
    if ((st = dist(c, t, holo_gen_rows(t, j), h0 + j + 1, c->p, err))) return st;
    bool ok;
    uint32_t tok = judge(c, c->p, c->q + (size_t)j * c->V, prop[j], &ok);
    c->rep->proposed++;
    c->rep->accepted += ok;
    if (!ok || is_stop(c, tok)) {
      *kept = j;
      *next = tok;
      return HOLO_OK;
    }
  }
  /* all accepted: the bonus token from the last row */
  if ((st = dist(c, t, holo_gen_rows(t, np), h0 + np + 1, c->p, err))) return st;
  *kept = np;
  *next = draw(c, c->p);
  return HOLO_OK;
}

/* Sequence target: one target execution per round on [pending, x1 .. xm]. */
static holo_status run_seq(spec *c, uint32_t k, holo_error *err) {
  holo_gen *t = c->t, *d = c->d;
  bool rewind = d->m.masked_state || d->seq > 1;
  holo_status st;
  uint32_t pending;
  if (c->o->max_tokens == 0) return HOLO_OK;
  if ((st = dist(c, t, t->logits, t->n_history, c->p, err))) return st;
  pending = draw(c, c->p);
  if (is_stop(c, pending)) return HOLO_OK;
  bool done = !emit(c, pending), fed_pending = false;
  while (!done && !st && *c->n_out < c->o->max_tokens) {
    uint32_t remaining = c->o->max_tokens - *c->n_out, m = t->seq - 1;
    if (m > k) m = k;
    if (m > remaining - 1) m = remaining - 1; /* kept + 1 emitted per round */
    uint32_t batch[HOLO_GEN_MAX_SEQ], np = 0, fed = 0, kept = 0, next = 0;
    batch[0] = pending;
    holo_gen_snapshot snap;
    bool have_snap = false;
    if ((st = holo_gen_feed(d, pending, err))) break;
    if (!rewind) {
      if ((st = holo_gen_snapshot_take(d, &snap, err))) break;
      have_snap = true;
    }
    uint32_t h0 = t->n_history;
    st = propose(c, m, false, batch + 1, &np, &fed, err);
    if (!st) {
      c->rep->rounds++;
      st = holo_gen_feed_seq(t, batch, 1 + np, err);
    }
    if (!st) st = judge_rows(c, batch + 1, np, h0, &kept, &next, err);
    uint32_t shown = 0;
    while (!st && shown < kept && !done)
      done = !emit(c, batch[1 + shown++]);
    /* roll back the rows past the shown tokens: the state label is kept */
    if (!st) st = holo_gen_rewind(t, np - shown, err);
    if (!st) st = draft_keep(c, batch + 1, fed, shown, rewind, &snap, err);
    if (have_snap) holo_gen_snapshot_free(d, &snap);
    if (st) break;
    if (done || is_stop(c, next) || *c->n_out >= c->o->max_tokens) {
      fed_pending = true; /* the target holds exactly the emitted tokens */
      break;
    }
    pending = next;
    done = !emit(c, pending);
  }
  /* the last emitted token is fed, as holo_gen_run leaves the generator */
  if (!st && !fed_pending && *c->n_out > 0) st = holo_gen_feed(t, pending, err);
  return st;
}

static holo_status check(holo_gen *t, holo_gen *d, uint32_t k, holo_sampler *s, const holo_gen_options *o,
                         uint32_t *n_out, holo_spec_report *rep, holo_error *err) {
  if (!t || !d || !s || !o || !n_out || !rep)
    return holo_err(err, HOLO_ERR_ARG, "speculative: NULL argument");
  if (k == 0 || k > MAX_K) return holo_err(err, HOLO_ERR_ARG, "speculative: k must be in 1..%d", MAX_K);
  if (t->vocab != d->vocab)
    return holo_err(err, HOLO_ERR_ARG, "speculative: vocabularies differ (target %u, draft %u)", t->vocab,
                    d->vocab);
  if (s->vocab != t->vocab)
    return holo_err(err, HOLO_ERR_ARG, "speculative: sampler vocabulary %u differs from the model's %u",
                    s->vocab, t->vocab);
  if (s->cfg.kind == HOLO_SAMPLER_MIROSTAT_V2)
    return holo_err(
        err, HOLO_ERR_ARG,
        "speculative: Mirostat cannot be sampled speculatively (its state moves with every draw)");
  if (!t->have_logits || !d->have_logits)
    return holo_err(err, HOLO_ERR_STATE, "speculative: prefill both generators with the prompt first");
  return HOLO_OK;
}

holo_status holo_speculative_sample_run(holo_gen *t, holo_gen *d, uint32_t k, holo_sampler *s,
                                        const holo_gen_options *o, uint32_t *out, uint32_t cap,
                                        uint32_t *n_out, holo_spec_report *rep, holo_error *err) {
  holo_status st = check(t, d, k, s, o, n_out, rep, err);
  if (st) return st;
  *n_out = 0;
  rep->proposed = rep->accepted = rep->rounds = 0;
  const uint32_t V = t->vocab;
  if ((uint64_t)V * (MAX_K + 2) * 4 > SIZE_MAX / 2)
    return holo_err(err, HOLO_ERR_LIMIT, "speculative: vocabulary too large");
  float *buf = t->a.alloc(t->a.ctx, (size_t)V * (MAX_K + 2) * 4, 16);
  if (!buf) return holo_err(err, HOLO_ERR_MEMORY, "speculative: out of memory (vocabulary %u)", V);
  spec c = {t, d, s, o, out, cap, n_out, rep, V, buf, buf + (size_t)V * MAX_K, buf + (size_t)V * (MAX_K + 1)};
  uint64_t t0 = t->stats.steps, d0 = d->stats.steps;
  st = t->seq > 1 ? run_seq(&c, k, err) : run_step(&c, k, err);
  t->a.free(t->a.ctx, buf);
  rep->target_steps = t->stats.steps - t0;
  rep->draft_steps = d->stats.steps - d0;
  rep->acceptance = rep->proposed ? (float)rep->accepted / (float)rep->proposed : 0;
  return st;
}
