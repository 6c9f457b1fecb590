/* Greedy speculative decoding over two generators (docs/generation.md).
 * Draft state is forked by snapshot (labels held, no copy) and rolled back
 * by restoring it; re-feeding the accepted tokens is a chain of memo hits. */
#include "hologram/generate.h"

#include "hologram/error.h"

#define MAX_K 64

/* Emits one token; false when the caller must stop (on_token said so). */
static bool emit(const holo_gen_options *o, uint32_t *out, uint32_t cap, uint32_t *n_out, uint32_t tok) {
  if (out && *n_out < cap) out[*n_out] = tok;
  (*n_out)++;
  return !(o->on_token && !o->on_token(o->ctx, tok, *n_out - 1));
}

/* Sequence target: one target execution per round on [pending, d1 .. dm]. */
static holo_status run_seq(holo_gen *t, holo_gen *d, uint32_t k, const holo_gen_options *o, uint32_t *out, uint32_t cap,
                           uint32_t *n_out, holo_spec_report *rep, holo_error *err) {
  bool rewind_draft = d->m.masked_state || d->seq > 1;
  int64_t stop = o->stop_token;
  holo_status st = HOLO_OK;
  if (o->max_tokens == 0) return HOLO_OK;
  uint32_t pending = holo_argmax(t->logits, t->vocab, 0);
  if (stop >= 0 && (int64_t)pending == stop) return HOLO_OK;
  bool done = !emit(o, out, cap, n_out, pending);
  bool fed_pending = false;
  while (!done && *n_out < o->max_tokens) {
    uint32_t remaining = o->max_tokens - *n_out;
    uint32_t m = t->seq - 1;
    if (m > k) m = k;
    if (m > remaining - 1) m = remaining - 1; /* j accepted + 1 emitted per round */
    uint32_t batch[HOLO_GEN_MAX_SEQ];
    batch[0] = pending;
    /* the draft catches up with the pending token, then proposes m */
    holo_gen_snapshot snap;
    bool have_snap = false;
    if ((st = holo_gen_feed(d, pending, err))) break;
    if (!rewind_draft) {
      if ((st = holo_gen_snapshot_take(d, &snap, err))) break;
      have_snap = true;
    }
    uint32_t np = 0, dfed = 0;
    for (; np < m && !st; np++) {
      uint32_t p = holo_argmax(d->logits, d->vocab, 0);
      batch[1 + np] = p;
      if (stop >= 0 && (int64_t)p == stop) {
        np++;
        break; /* a proposed stop is verified, never fed to the draft */
      }
      if (np + 1 < m) { /* the last proposal needs no draft step */
        if ((st = holo_gen_feed(d, p, err))) break;
        dfed++;
      }
    }
    if (st) {
      if (have_snap) holo_gen_snapshot_free(d, &snap);
      break;
    }
    rep->rounds++;
    rep->proposed += np;
    /* one target execution verifies them all */
    if ((st = holo_gen_feed_seq(t, batch, 1 + np, err))) {
      if (have_snap) holo_gen_snapshot_free(d, &snap);
      break;
    }
    uint32_t j = 0;
    while (j < np && holo_argmax(holo_gen_rows(t, j), t->vocab, 0) == batch[1 + j] &&
           !(stop >= 0 && (int64_t)batch[1 + j] == stop))
      j++;
    rep->accepted += j;
    uint32_t next = holo_argmax(holo_gen_rows(t, j), t->vocab, 0);
    /* emit the accepted proposals (on_token may stop after any of them) */
    uint32_t kept = 0;
    while (kept < j && !done) done = !emit(o, out, cap, n_out, batch[1 + kept++]);
    /* roll back the rows past the kept tokens: the state label is kept */
    if ((st = holo_gen_rewind(t, np - kept, err))) {
      if (have_snap) holo_gen_snapshot_free(d, &snap);
      break;
    }
    if (rewind_draft) {
      st = holo_gen_rewind(d, dfed - (kept < dfed ? kept : dfed), err);
      for (uint32_t i = dfed; i < kept && !st; i++) st = holo_gen_feed(d, batch[1 + i], err);
    } else {
      bool all = kept >= dfed;
      if (!all) {
        holo_gen_snapshot_restore(d, &snap);
        for (uint32_t i = 0; i < kept && !st; i++) st = holo_gen_feed(d, batch[1 + i], err);
      }
      holo_gen_snapshot_free(d, &snap);
      for (uint32_t i = dfed; all && i < kept && !st; i++) st = holo_gen_feed(d, batch[1 + i], err);
    }
    if (st) break;
    if (done) {
      fed_pending = true; /* the target holds exactly the emitted tokens */
      break;
    }
    if (stop >= 0 && (int64_t)next == stop) {
      fed_pending = true;
      done = true;
      break;
    }
    if (*n_out >= o->max_tokens) { /* (not reached: m leaves room for it) */
      fed_pending = true;
      break;
    }
    pending = next;
    done = !emit(o, out, cap, n_out, pending);
  }
  /* the last emitted token is fed, as holo_gen_run leaves the generator */
  if (!st && !fed_pending && *n_out > 0) st = holo_gen_feed(t, pending, err);
  return st;
}

holo_status holo_speculative_run(holo_gen *t, holo_gen *d, uint32_t k, const holo_gen_options *o, uint32_t *out,
                                 uint32_t cap, uint32_t *n_out, holo_spec_report *rep, holo_error *err) {
  if (!t || !d || !o || !n_out || !rep) return holo_err(err, HOLO_ERR_ARG, "speculative: NULL argument");
  if (k == 0 || k > MAX_K) return holo_err(err, HOLO_ERR_ARG, "speculative: k must be in 1..%d", MAX_K);
  if (t->vocab != d->vocab)
    return holo_err(err, HOLO_ERR_ARG, "speculative: vocabularies differ (target %u, draft %u)", t->vocab, d->vocab);
  if (!t->have_logits || !d->have_logits)
    return holo_err(err, HOLO_ERR_STATE, "speculative: prefill both generators with the prompt first");
  *n_out = 0;
  rep->proposed = rep->accepted = rep->rounds = 0;
  if (t->seq > 1) {
    uint64_t t0 = t->stats.steps, d0 = d->stats.steps;
    holo_status st = run_seq(t, d, k, o, out, cap, n_out, rep, err);
    rep->target_steps = t->stats.steps - t0;
    rep->draft_steps = d->stats.steps - d0;
    rep->acceptance = rep->proposed ? (float)rep->accepted / (float)rep->proposed : 0;
    return st;
  }
  uint64_t t0 = t->stats.steps, d0 = d->stats.steps;
  holo_status st = HOLO_OK;
  bool done = false;
  while (!done && *n_out < o->max_tokens) {
    uint32_t m = o->max_tokens - *n_out < k ? o->max_tokens - *n_out : k;
    uint32_t prop[MAX_K], emit[MAX_K + 1], ne = 0;
    holo_gen_snapshot snap;
    if ((st = holo_gen_snapshot_take(d, &snap, err))) break;
    uint32_t np = 0;
    for (; np < m; np++) {
      prop[np] = holo_argmax(d->logits, d->vocab, 0);
      if (o->stop_token >= 0 && (int64_t)prop[np] == o->stop_token) {
        np++;
        break; /* a proposed stop is verified, never fed */
      }
      if ((st = holo_gen_feed(d, prop[np], err))) break;
    }
    rep->rounds++;
    bool mismatch = false;
    for (uint32_t j = 0; j < np && !st && !done; j++) {
      uint32_t tok = holo_argmax(t->logits, t->vocab, 0);
      rep->proposed++;
      if (tok == prop[j]) rep->accepted++;
      else mismatch = true;
      if (o->stop_token >= 0 && (int64_t)tok == o->stop_token) {
        done = true;
        mismatch = true; /* the draft may have fed past it */
        break;
      }
      if ((st = holo_gen_feed(t, tok, err))) break;
      emit[ne++] = tok;
      if (out && *n_out < cap) out[*n_out] = tok;
      (*n_out)++;
      if (o->on_token && !o->on_token(o->ctx, tok, *n_out - 1)) done = true;
      if (mismatch) break;
    }
    if (!st && (mismatch || ne < np)) { /* roll the draft back, re-feed what was committed */
      holo_gen_snapshot_restore(d, &snap);
      for (uint32_t j = 0; j < ne && !st; j++) st = holo_gen_feed(d, emit[j], err);
    }
    holo_gen_snapshot_free(d, &snap);
    if (st) break;
  }
  rep->target_steps = t->stats.steps - t0;
  rep->draft_steps = d->stats.steps - d0;
  rep->acceptance = rep->proposed ? (float)rep->accepted / (float)rep->proposed : 0;
  return st;
}
