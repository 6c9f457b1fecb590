/* The structs only the JS shim and the export files share: argument and
 * report records JS writes or reads in wasm memory. Their layout, with the
 * public structs JS reads (holo_port_info, holo_view, ...), is in layout.c's
 * table, from which the shim's field offsets are generated. */
#ifndef HOLO_WASM_BOUNDARY_H
#define HOLO_WASM_BOUNDARY_H

#include <stdint.h>

#include "hologram/generate.h"
#include "hologram/refine.h"

/* holo_wasm_load's host bits: the host has a warm store (the env imports
 * holo_host_store_get/put), a synchronous SHA-256 (holo_host_sha256). */
enum { WASM_HOST_STORE = 1u, WASM_HOST_SHA256 = 2u };

/* A refinement plan as JS passes it: flat fields, then the contract's ports. */
typedef struct wasm_refine_args {
  uint32_t pass_budget, validators, repair, extra_passes, has_contract, n;
  uint32_t input[HOLO_MAX_STATE];
  uint32_t output[HOLO_MAX_STATE];
} wasm_refine_args;

/* A generator's model ports and sampler (holo_wasm_gen_new). */
typedef struct wasm_gen_args {
  uint32_t token_input;
  int32_t position_input; /* -1: none */
  uint32_t logits_output;
  uint32_t kind;
  float temperature;
  uint32_t top_k;
  float top_p, min_p, repetition, frequency, presence;
  uint32_t window;
  float tau, eta;
  uint32_t seed_lo, seed_hi;
  uint32_t vocab; /* 0: the logits' static last dim */
} wasm_gen_args;

/* holo_wasm_gen_stats writes the first four fields, holo_wasm_gen_stats2 all. */
typedef struct wasm_gen_stats {
  uint64_t steps, dispatches, memo_hits, elided, tokens;
} wasm_gen_stats;

typedef struct wasm_spec_report {
  uint64_t proposed, accepted, rounds, target_steps, draft_steps;
} wasm_spec_report;

/* The log-probabilities of a generator's last draw (gen-constraints.c):
 * the chosen token's, then n_top of the most likely tokens. */
typedef struct wasm_gen_logprobs {
  uint32_t status; /* HOLO_OK once recorded */
  uint32_t token, n_top;
  float prob, logprob, raw_logprob;
  uint32_t top_token[HOLO_LOGPROBS_MAX_TOP];
  float top_logprob[HOLO_LOGPROBS_MAX_TOP];
  float top_raw[HOLO_LOGPROBS_MAX_TOP];
} wasm_gen_logprobs;

/* store_corrupt came last so that the earlier fields kept their places. */
typedef struct wasm_pcache_stats {
  uint64_t lookups, hits, misses, tokens_reused, inserts, evictions, store_hits, store_puts;
  uint64_t bytes, entries, max_bytes, store_corrupt;
} wasm_pcache_stats;

#endif
