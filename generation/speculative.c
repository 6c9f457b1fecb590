/* Greedy speculative decoding over two generators (docs/generation.md).
 * Draft state is forked by snapshot (labels held, no copy) and rolled back
 * by restoring it; re-feeding the accepted tokens is a chain of memo hits. */
#include "hologram/generate.h"

#include "../runtime/archive.h"

#define MAX_K 64

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
