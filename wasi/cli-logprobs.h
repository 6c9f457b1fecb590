/* `holo generate --logprobs [K]`: the per-token JSON lines (cli-logprobs.c). */
#ifndef HOLO_CLI_LOGPROBS_H
#define HOLO_CLI_LOGPROBS_H

#include <stdbool.h>
#include <stdint.h>

#include "hologram/generate.h"

typedef struct cli_logprobs {
  const uint8_t *bytes; /* token -> byte, for the text fields */
  uint32_t n_bytes, k;
  /* the last draw, recorded by the inspector */
  holo_status status;
  holo_error err;
  float prob;
  holo_token_logprob chosen, top[HOLO_LOGPROBS_MAX_TOP];
  uint32_t n_top;
  bool failed; /* a line could not be printed: the run stopped; err says why */
} cli_logprobs;

/* Installs the recording inspector on g (k top tokens, <= HOLO_LOGPROBS_MAX_TOP). */
void cli_logprobs_attach(cli_logprobs *lp, holo_gen *g, const uint8_t *bytes, uint32_t n_bytes, uint32_t k);
/* holo_gen_options.on_token: prints the line of an emitted token. */
bool cli_logprobs_print(void *ctx, uint32_t token, uint32_t index);

#endif
