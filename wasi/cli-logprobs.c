/* `holo generate --logprobs [K]` (docs/cli.md): one JSON line per emitted
 * token on stdout, from the generator's inspector. The observe hook runs at
 * each draw (also for a stop token, which is not emitted), so it records and
 * the on_token callback, which sees only emitted tokens, prints. */
#include <stdio.h>

#include "cli-logprobs.h"
#include "hologram/error.h"

/* A token's byte as a JSON string body: printable ASCII as is, the rest
 * (and " \) escaped; a byte >= 0x80 as \u00XX (it is a byte, not a code
 * point of its own). */
static void put_text(uint8_t b) {
  if (b == '"' || b == '\\')
    printf("\\%c", b);
  else if (b >= 0x20 && b < 0x7f)
    putchar(b);
  else
    printf("\\u%04x", b);
}

/* %.9g round-trips a float; -inf (a token the draw excluded) is JSON null. */
static void put_num(float v) {
  if (v == -__builtin_inff())
    fputs("null", stdout);
  else
    printf("%.9g", (double)v);
}

static void put_entry(const cli_logprobs *lp, const holo_token_logprob *e) {
  printf("{\"token\": %u, \"text\": \"", e->token);
  put_text(e->token < lp->n_bytes ? lp->bytes[e->token] : '?');
  fputs("\", \"logprob\": ", stdout);
  put_num(e->logprob);
  fputs(", \"raw_logprob\": ", stdout);
  put_num(e->raw_logprob);
  putchar('}');
}

static void record(void *ctx, const holo_gen_step_info *i) {
  cli_logprobs *lp = ctx;
  lp->prob = i->prob;
  lp->status = holo_sampler_logprobs(i->sampler, i->logits, i->token, lp->k, &lp->chosen, lp->top, &lp->n_top,
                                     &lp->err);
}

void cli_logprobs_attach(cli_logprobs *lp, holo_gen *g, const uint8_t *bytes, uint32_t n_bytes, uint32_t k) {
  lp->bytes = bytes, lp->n_bytes = n_bytes, lp->k = k;
  lp->status = HOLO_ERR_STATE;
  holo_gen_inspector in = {lp, 0, record};
  holo_gen_set_inspector(g, &in);
}

bool cli_logprobs_print(void *ctx, uint32_t token, uint32_t index) {
  cli_logprobs *lp = ctx;
  if (lp->status || lp->chosen.token != token) { /* recorded at this very draw, so not expected */
    if (!lp->status)
      lp->status = holo_err(&lp->err, HOLO_ERR_STATE, "logprobs: no record of token %u", token);
    lp->failed = true;
    return false;
  }
  printf("{\"index\": %u, \"token\": %u, \"text\": \"", index, token);
  put_text(token < lp->n_bytes ? lp->bytes[token] : '?');
  fputs("\", \"prob\": ", stdout);
  put_num(lp->prob);
  fputs(", \"logprob\": ", stdout);
  put_num(lp->chosen.logprob);
  fputs(", \"raw_logprob\": ", stdout);
  put_num(lp->chosen.raw_logprob);
  fputs(", \"top\": [", stdout);
  for (uint32_t j = 0; j < lp->n_top; j++) {
    if (j) fputs(", ", stdout);
    put_entry(lp, &lp->top[j]);
  }
  fputs("]}\n", stdout);
  return true;
}
