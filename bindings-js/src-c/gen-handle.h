/* The generator handle JS holds (holo_wasm_gen_new): a generator, its
 * sampler, and what JS attaches to the sampler between draws (the logit
 * bias, the allowed-token mask of the next draw, the log-probabilities
 * recorded by the inspector). The holo_gen stays the FIRST member:
 * gen-exports.c takes the handle as a holo_gen*. */
#ifndef HOLO_WASM_GEN_HANDLE_H
#define HOLO_WASM_GEN_HANDLE_H

#include "boundary.h"
#include "hologram/generate.h"

typedef struct wasm_gen {
  holo_gen g;
  holo_sampler smp;
  float *bias;          /* vocab, owned; NULL: none */
  uint8_t *allowed;     /* vocab, owned: the mask of the next draw; NULL: none */
  uint32_t lp_k;        /* top tokens recorded per draw */
  bool lp_on;           /* the observe hook records log-probabilities */
  wasm_gen_logprobs lp; /* of the last draw */
  holo_regex *re;       /* owned: the sampler.regex constraint; NULL: none */
  uint8_t *re_bytes;    /* owned: its token table (vocab bytes, or a domain's offsets then bytes) */
} wasm_gen;

/* Zeroes the fields past g and smp (their inits zero those). */
void wasm_gen_constraints_init(wasm_gen *x);
void wasm_gen_constraints_free(wasm_gen *x);

#endif
