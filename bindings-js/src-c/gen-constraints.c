/* What JS attaches to a generator's draws (docs/generation.md, "Logit bias
 * and allowed masks", "Log-probabilities"): a logit bias table, a per-draw
 * allowed-token mask written by JS before each sample (the JS `allowed`
 * callback's answer), and the log-probabilities of each draw, recorded by
 * the generator's observe hook (the logits inspector) for JS to read. */
#include "gen-handle.h"
#include "hologram/error.h"
#include "hologram/mem.h"
#include "module.h"

void wasm_gen_constraints_init(wasm_gen *x) {
  x->bias = 0, x->allowed = 0, x->lp_k = 0, x->lp_on = false, x->re = 0, x->re_bytes = 0;
  holo_memset(&x->lp, 0, sizeof x->lp);
}

void wasm_gen_constraints_free(wasm_gen *x) {
  if (x->bias) wasm_free(x->bias);
  if (x->allowed) wasm_free(x->allowed);
  if (x->re) wasm_free(x->re);
  if (x->re_bytes) wasm_free(x->re_bytes);
  x->bias = 0, x->allowed = 0, x->re = 0, x->re_bytes = 0;
}

/* sampler.regex: compiles the NUL-terminated pattern over a token domain
 * (off: vocab + 1 u32, then nbytes of token bytes, in JS's scratch; a
 * one-byte-per-token table is the domain off[t] = t) copied into one owned
 * table, and masks every draw by it (generation/regex.c: matched in full;
 * eos >= 0 is allowed only where the text so far matches). off must end at
 * nbytes (else ARG: the reads would leave the table); refused: no
 * constraint is set. */
EXPORT(holo_wasm_gen_set_regex_domain)
int wasm_gen_set_regex_domain(wasm_gen *x, const char *pattern, const uint32_t *off, const uint8_t *bytes,
                              uint32_t nbytes, int32_t eos, holo_error *err) {
  uint32_t V = x->g.vocab;
  if (off[V] != nbytes)
    return holo_err(err, HOLO_ERR_ARG, "sampler.regex: the token table's offsets end at %u, not %u", off[V],
                    nbytes);
  size_t ob = ((size_t)V + 1) * 4;
  holo_regex *re = wasm_alloc(sizeof *re, 16);
  uint8_t *tb = wasm_alloc(ob + nbytes + 1, 16);
  if (!re || !tb) {
    if (re) wasm_free(re);
    if (tb) wasm_free(tb);
    return wasm_set_error(err, HOLO_ERR_MEMORY, "sampler.regex: out of memory for the token table");
  }
  holo_memcpy(tb, off, ob);
  holo_memcpy(tb + ob, bytes, nbytes);
  holo_token_domain dom = {V, (const uint32_t *)(void *)tb, tb + ob};
  holo_status st = holo_regex_compile_domain(re, pattern, &dom, eos, err);
  if (st) {
    wasm_free(re);
    wasm_free(tb);
    return st;
  }
  if (x->re) wasm_free(x->re);
  if (x->re_bytes) wasm_free(x->re_bytes);
  x->re = re, x->re_bytes = tb;
  holo_sampler_set_mask(&x->smp, holo_regex_mask, re);
  return HOLO_OK;
}

/* bias: vocab floats in JS's scratch, copied (NULL: no bias). */
EXPORT(holo_wasm_gen_set_bias) int wasm_gen_set_bias(wasm_gen *x, const float *bias, holo_error *err) {
  uint32_t V = x->g.vocab;
  if (!bias) return holo_sampler_set_bias(&x->smp, 0, err);
  if (!x->bias && !(x->bias = wasm_alloc((size_t)V * 4, 16)))
    return wasm_set_error(err, HOLO_ERR_MEMORY, "logit bias: out of memory");
  holo_status st = holo_sampler_set_bias(&x->smp, bias, err); /* validates; refused: the old bias stays */
  if (st) return st;
  holo_memcpy(x->bias, bias, (size_t)V * 4);
  return holo_sampler_set_bias(&x->smp, x->bias, err);
}

static holo_status copy_mask(void *ctx, const uint32_t *generated, uint32_t n, uint8_t *allowed,
                             uint32_t vocab) {
  (void)generated, (void)n;
  holo_memcpy(allowed, ((wasm_gen *)ctx)->allowed, vocab);
  return HOLO_OK;
}

/* Turns the per-draw mask on and returns its buffer (vocab bytes, 0/1,
 * all allowed until JS writes it), or off (returns NULL). NULL on OOM. */
EXPORT(holo_wasm_gen_mask) uint8_t *wasm_gen_mask(wasm_gen *x, uint32_t on) {
  if (!on) {
    holo_sampler_set_mask(&x->smp, 0, 0);
    return 0;
  }
  if (!x->allowed) {
    if (!(x->allowed = wasm_alloc(x->g.vocab, 16))) return 0;
    holo_memset(x->allowed, 1, x->g.vocab);
  }
  holo_sampler_set_mask(&x->smp, copy_mask, x);
  return x->allowed;
}

static void record_logprobs(void *ctx, const holo_gen_step_info *i) {
  wasm_gen *x = ctx;
  wasm_gen_logprobs *r = &x->lp;
  holo_token_logprob chosen, top[HOLO_LOGPROBS_MAX_TOP];
  uint32_t n = 0;
  holo_error e;
  r->status = holo_sampler_logprobs(i->sampler, i->logits, i->token, x->lp_k, &chosen, top, &n, &e);
  if (r->status) return;
  r->token = chosen.token, r->prob = i->prob, r->logprob = chosen.logprob,
  r->raw_logprob = chosen.raw_logprob;
  r->n_top = n;
  for (uint32_t j = 0; j < n; j++)
    r->top_token[j] = top[j].token, r->top_logprob[j] = top[j].logprob, r->top_raw[j] = top[j].raw_logprob;
}

/* Records the log-probabilities of every draw from now on (k top tokens),
 * through the generator's inspector; returns the record JS reads after each
 * sample, or NULL if k is over HOLO_LOGPROBS_MAX_TOP. */
EXPORT(holo_wasm_gen_logprobs) wasm_gen_logprobs *wasm_gen_logprobs_on(wasm_gen *x, uint32_t k) {
  if (k > HOLO_LOGPROBS_MAX_TOP) return 0;
  x->lp_k = k, x->lp_on = true;
  holo_gen_inspector in = {x, 0, record_logprobs};
  holo_gen_set_inspector(&x->g, &in);
  x->lp.status = HOLO_ERR_STATE;
  return &x->lp;
}
