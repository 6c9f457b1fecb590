/* Generation: token sampling and causal decoding over a holo_session
 * (docs/generation.md). A layer on top of the executor, like refinement:
 * the model is a step graph (token [, position], state) -> (logits, state');
 * the state between steps is a set of content-labelled resident values, so
 * a repeated (state, token) step is a graph-memo hit that dispatches
 * nothing, a snapshot is a handful of labels, and rollback copies no bytes.
 *
 * Freestanding: no libc, no global mutable state. Every failure is a
 * holo_status plus a message; a failed call leaves the objects usable. */
#ifndef HOLOGRAM_GENERATE_H
#define HOLOGRAM_GENERATE_H

#include "hologram/holo.h"
#include "hologram/refine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ RNG */

/* xoshiro128** seeded through splitmix64: deterministic on every target. */
typedef struct holo_rng {
  uint32_t s[4];
} holo_rng;
void holo_rng_seed(holo_rng *r, uint64_t seed);
uint32_t holo_rng_next(holo_rng *r);
/* Uniform in [0, 1), 24 random bits. */
float holo_rng_uniform(holo_rng *r);

/* ------------------------------------------------------------- samplers */

typedef enum holo_sampler_kind {
  HOLO_SAMPLER_GREEDY = 0,     /* argmax (after penalties and the mask) */
  HOLO_SAMPLER_DEFAULT = 1,    /* temperature, then top-k, top-p, min-p */
  HOLO_SAMPLER_MIROSTAT_V2 = 2 /* tau, eta (temperature applies first) */
} holo_sampler_kind;

/* Penalties over the last `window` tokens of the history (0: all of it).
 * repetition (> 0, 1 = off): a seen token's logit l becomes l / r if l > 0,
 * else l * r. frequency: l -= count * frequency. presence: l -= presence
 * once if seen. */
typedef struct holo_penalty_config {
  float repetition;
  float frequency;
  float presence;
  uint32_t window;
} holo_penalty_config;

typedef struct holo_sampler_config {
  holo_sampler_kind kind;
  float temperature; /* >= 0; 0 means greedy */
  uint32_t top_k;    /* 0: off; else 1..vocab */
  float top_p;       /* (0, 1]; 1: off */
  float min_p;       /* [0, 1); 0: off */
  holo_penalty_config penalty;
  float mirostat_tau; /* target surprise in bits, > 0 */
  float mirostat_eta; /* learning rate, (0, 1] */
  uint64_t seed;
} holo_sampler_config;

/* Defaults: DEFAULT kind, temperature 1, top_k 0, top_p 1, min_p 0,
 * repetition 1, frequency 0, presence 0, window 64, tau 5, eta 0.1, seed 0. */
void holo_sampler_config_default(holo_sampler_config *c);
/* HOLO_ERR_ARG "SamplingConfigurationError: ..." for an invalid config.
 * vocab 0 skips the checks that need it. */
holo_status holo_sampler_config_check(const holo_sampler_config *c, uint32_t vocab, holo_error *err);

/* An allowed-token mask: fill allowed[0..vocab) with 0/1, given the tokens
 * generated so far under the constraint. Return non-OK to fail the draw. */
typedef holo_status (*holo_token_mask_fn)(void *ctx, const uint32_t *generated, uint32_t n, uint8_t *allowed,
                                          uint32_t vocab);

typedef struct holo_sampler {
  holo_sampler_config cfg;
  uint32_t vocab;
  holo_rng rng;
  float mu;                /* Mirostat state, 2 * tau at init */
  float last_surprise;     /* bits of the last draw (in the truncated, renormalised set) */
  float last_prob;         /* its probability in the final distribution */
  holo_token_mask_fn mask; /* ConstrainedSampler: optional */
  void *mask_ctx;
  const float *bias; /* logit bias[vocab], borrowed; NULL: none */
  /* The last draw's distribution, kept in work/idx for holo_sampler_logprobs
   * until the next draw or holo_sampler_probs: idx[0..last_keep) the kept
   * tokens by descending probability, work[i] / last_mass their
   * probabilities; last_keep 0: deterministic (one-hot at last_token). */
  uint32_t last_keep, last_token;
  double last_mass;
  bool last_valid;
  holo_allocator a;
  float *work;        /* vocab */
  uint32_t *idx;      /* vocab */
  uint32_t *cnt;      /* vocab */
  uint8_t *allowed;   /* vocab */
  uint32_t *sort_tmp; /* 2 * vocab: the radix sort's keys and second index buffer */
} holo_sampler;

holo_status holo_sampler_init(holo_sampler *s, const holo_sampler_config *c, uint32_t vocab,
                              const holo_allocator *a, holo_error *err);
void holo_sampler_free(holo_sampler *s);
/* ConstrainedSampler: every draw is restricted to the mask's allowed tokens. */
void holo_sampler_set_mask(holo_sampler *s, holo_token_mask_fn fn, void *ctx);
/* Logit bias: bias[0..vocab) is added to every logit after the penalties,
 * before the mask and the temperature (borrowed: it must outlive the
 * sampler's draws; NULL removes it). Each entry finite or -inf (-inf bans
 * the token); anything else is HOLO_ERR_ARG and leaves the bias unchanged. */
holo_status holo_sampler_set_bias(holo_sampler *s, const float *bias, holo_error *err);
/* Restarts the RNG from the config seed (and Mirostat's mu). */
void holo_sampler_reset(holo_sampler *s);
/* Draws one token from logits[0..vocab) (not modified). history: every token
 * so far (penalties look at its tail); generated: the tokens produced under
 * the mask (may equal history's tail; NULL/0 with no mask). */
holo_status holo_sampler_sample(holo_sampler *s, const float *logits, const uint32_t *history,
                                uint32_t n_history, const uint32_t *generated, uint32_t n_generated,
                                uint32_t *token, holo_error *err);
/* The distribution a draw from these logits would sample (penalties, mask,
 * temperature, top-k/top-p/min-p, renormalised; zero outside the kept set;
 * one-hot at the argmax when greedy) into probs[0..vocab). Draws nothing:
 * the RNG and Mirostat's state are untouched. */
holo_status holo_sampler_probs(holo_sampler *s, const float *logits, const uint32_t *history,
                               uint32_t n_history, const uint32_t *generated, uint32_t n_generated,
                               float *probs, holo_error *err);
/* Log-probabilities of the last draw (docs/generation.md, "Log-probabilities").
 * logprob: ln p under the distribution the token was drawn from (penalties,
 * bias, mask, temperature, top-k/top-p/min-p, renormalised; 0 for a
 * deterministic draw; -inf outside the kept set). raw_logprob: ln
 * softmax(logits) at the token, the model's own distribution (logits: those
 * given to the draw, before any sampler transform). */
typedef struct holo_token_logprob {
  uint32_t token;
  float logprob;
  float raw_logprob;
} holo_token_logprob;
#define HOLO_LOGPROBS_MAX_TOP 64
/* After holo_sampler_sample(s, logits, ...) = token: *chosen for token, and
 * top[0..*n_top) the k (<= HOLO_LOGPROBS_MAX_TOP, <= vocab) most likely
 * tokens: by the draw's probability, then (the tokens it excludes) by raw
 * logit, then lower id. HOLO_ERR_STATE if no draw is on record. */
holo_status holo_sampler_logprobs(const holo_sampler *s, const float *logits, uint32_t token, uint32_t k,
                                  holo_token_logprob *chosen, holo_token_logprob *top, uint32_t *n_top,
                                  holo_error *err);
/* Index of the largest logit (lowest index on ties), over allowed[] if given. */
uint32_t holo_argmax(const float *logits, uint32_t vocab, const uint8_t *allowed);

/* --------------------------------------------------- regex constraint */

#define HOLO_REGEX_MAX_ATOMS 63

/* A token domain: token t stands for the bytes bytes[off[t] .. off[t+1])
 * (off: vocab + 1 ascending u32, off[0] = 0, then the bytes, concatenated).
 * A token of no bytes (a special token) is never a
 * character. Borrowed by whoever holds it. */
typedef struct holo_token_domain {
  uint32_t vocab;
  const uint32_t *off;
  const uint8_t *bytes;
} holo_token_domain;
/* ARG unless off[0] = 0 and off is ascending (over vocab + 1 entries). */
holo_status holo_token_domain_check(const holo_token_domain *dom, holo_error *err);

/* A regex subset over a token domain: atoms (a literal, an escape \x, `.`,
 * a class [a-z _] or [^...]), groups ( ), alternation |, and `*`, `+`, `?`
 * on an atom or a group (nesting depth <= 16), matched in full against the
 * concatenated bytes of the tokens: the end token (eos, if any) is allowed
 * only in an accepting state. Simulated as a Glushkov position set (one
 * 64-bit state per prefix; bit n = accept); a multi-byte token steps it once
 * per byte, so a token may cross atoms. */
#define HOLO_REGEX_MAX_DEPTH 16
typedef struct holo_regex {
  uint32_t n;
  uint64_t first;                        /* positions that may come first (+ accept if nullable) */
  uint64_t follow[HOLO_REGEX_MAX_ATOMS]; /* positions that may follow position p (+ accept) */
  uint8_t set[HOLO_REGEX_MAX_ATOMS][32]; /* byte class bitmaps */
  const uint8_t *token_bytes;            /* one byte per token, or the domain's bytes; borrowed */
  const uint32_t *token_off;             /* the domain's offsets; NULL: one byte per token */
  const uint8_t *token_valid; /* one-byte form only, optional: 0 for tokens that are no character */
  uint32_t vocab;
  int64_t eos;   /* < 0: none */
  uint64_t live; /* positions from which some token sequence reaches acceptance */
  uint64_t cur;  /* position set after `done` tokens */
  uint32_t done;
} holo_regex;

/* One byte per token: token t is token_bytes[t] (token_valid[t] 0: none). */
holo_status holo_regex_compile(holo_regex *re, const char *pattern, const uint8_t *token_bytes,
                               const uint8_t *token_valid, uint32_t vocab, int64_t eos, holo_error *err);
/* Over a token domain (checked; borrowed for the life of re). */
holo_status holo_regex_compile_domain(holo_regex *re, const char *pattern, const holo_token_domain *dom,
                                      int64_t eos, holo_error *err);
/* The holo_token_mask_fn for a holo_regex (ctx = the holo_regex). */
holo_status holo_regex_mask(void *ctx, const uint32_t *generated, uint32_t n, uint8_t *allowed,
                            uint32_t vocab);
/* Does the whole byte string match? (tests, callers' checks) */
bool holo_regex_match(const holo_regex *re, const uint8_t *text, size_t len);

/* ------------------------------------------------------- causal model */

/* Most tokens one execution of a sequence model takes. */
#define HOLO_GEN_MAX_SEQ 64
#define HOLO_GEN_MAX_SEQ_STR "64"

/* Which ports are what. Every input port is the token, the position, or a
 * state input; state input contract.input[k] <- output contract.output[k]
 * after each step. Without a contract the archive's STAT section is used. */
typedef struct holo_causal_model {
  uint32_t token_input;
  int32_t position_input; /* < 0: none */
  uint32_t logits_output; /* last dim = vocab; f32 */
  bool has_contract;
  holo_state_contract contract;
  /* The state's rows past the position are masked (never read by a later
   * query before they are rewritten), as in the char-LM's KV cache: the
   * generator may then rewind the position and keep the state label
   * (holo_gen_rewind), and the speculative draft is rolled back that way.
   * Implied for a sequence model (token input of K > 1 elements), whose
   * partial passes write padding rows past the tokens they use. */
  bool masked_state;
  /* Label each new state value by its content (SHA-256 over its bytes, every
   * step: ~1.5 ms per 512 KiB of KV cache in wasm) rather than by the
   * executor's computed label (derived from the step's operand labels, no
   * hashing). Computed labels name the same values deterministically, so
   * repeats are memo hits and snapshots/rollback/prompt-cache restore work
   * alike; content labels additionally merge equal states reached by
   * different paths. The prompt cache hashes state content only when it
   * writes a prefix to the WarmStore. Default false. */
  bool content_state;
  /* The vocabulary, for an archive whose logits shape is not static (a
   * dynamic export whose shapes the converter could not infer). 0: the
   * logits' last dimension. Checked against every execution's logits. */
  uint32_t vocab;
} holo_causal_model;

/* Fills token_input 0, position none, logits_output 0, no contract.
 *
 * A sequence model (the token input holds K > 1 elements, the position input
 * one: the first position) feeds up to K tokens per execution; its logits
 * output holds K rows of `vocab` (row i after token i). holo_gen_feed_seq
 * feeds n <= K tokens (padding the rest with token 0, whose rows are
 * discarded); prefill goes K tokens per pass; speculative decoding verifies
 * K - 1 draft proposals (plus the pending token) in one pass.
 *
 * A growing-state model (the token input's last dimension is symbolic, as in
 * a decoder exported with past/present key-value tensors: input_ids
 * [batch, seq], past [batch, heads, past, dim] -> logits [batch, seq, vocab],
 * present [batch, heads, past + seq, dim]) takes 1 to HOLO_GEN_MAX_SEQ tokens
 * per execution without padding; its state is what the last execution
 * returned, so it grows by the tokens fed. The initial state is empty: a
 * symbolic dim the token input also has (the batch) is 1, any other 0 (the
 * past). It cannot rewind: no state row is masked. */
void holo_causal_model_default(holo_causal_model *m);

typedef struct holo_gen_stats {
  uint64_t steps;      /* model executions (prefill + decode) */
  uint64_t dispatches; /* kernel runs during them */
  uint64_t memo_hits;
  uint64_t elided;
  uint64_t tokens; /* tokens fed (> steps for a sequence model) */
} holo_gen_stats;

/* Per-step inspection: observe sees the logits the sampler will see (after
 * intervention) and the chosen token; intervene may edit logits in place
 * before sampling. Either may be NULL. */
typedef struct holo_gen_step_info {
  uint32_t position; /* position of the token chosen */
  const float *logits;
  uint32_t vocab;
  uint32_t token;
  float prob; /* its probability under the sampler's final distribution */
  /* The sampler that drew it: holo_sampler_logprobs(sampler, logits, token,
   * ...) gives its log-probabilities (valid during observe). */
  const holo_sampler *sampler;
  uint32_t n_state;
  const char (*state_labels)[HOLO_LABEL_LEN + 1]; /* state the logits came from */
} holo_gen_step_info;

typedef struct holo_gen_inspector {
  void *ctx;
  holo_status (*intervene)(void *ctx, uint32_t position, float *logits, uint32_t vocab);
  void (*observe)(void *ctx, const holo_gen_step_info *info);
} holo_gen_inspector;

/* A generator borrows a session; it holds its state values (and the
 * initial state) in the session's arena by label. */
typedef struct holo_gen {
  holo_session *s;
  holo_causal_model m;
  holo_allocator a;
  uint32_t vocab;
  uint32_t n_state;
  holo_state_contract c;                  /* resolved */
  uint8_t init_state[HOLO_MAX_STATE][32]; /* digests of the initial state */
  uint8_t state[HOLO_MAX_STATE][32];      /* current state, held */
  uint32_t pos;
  float *logits;  /* logits after the last fed token */
  float *scratch; /* logits handed to the inspector / sampler */
  bool have_logits;
  uint32_t *history; /* every token fed since reset */
  uint32_t n_history, cap_history;
  uint32_t gen_start; /* history index where generation (the mask) began */
  holo_gen_inspector insp;
  holo_gen_stats stats;
  uint32_t seq;              /* tokens per execution (K; 1 for a step graph) */
  float *rows;               /* seq x vocab logits of the last execution */
  float *prev_logits;        /* logits before the last execution */
  uint32_t rows_pos, rows_n; /* position of rows[0], rows filled */
  bool prev_have;
  bool grow; /* growing-state model: the token input's length is symbolic */
} holo_gen;

/* initial: optional state values, one per contract entry (NULL: zeros of the
 * port's shape; a symbolic dim is 0, an empty cache). */
holo_status holo_gen_init(holo_gen *g, holo_session *s, const holo_causal_model *m, const holo_input *initial,
                          const holo_allocator *a, holo_error *err);
void holo_gen_free(holo_gen *g);
/* Back to the initial state (labels kept: no hashing, no copy). */
void holo_gen_reset(holo_gen *g);
void holo_gen_set_inspector(holo_gen *g, const holo_gen_inspector *in);
/* Runs one step on `token`: state advances, logits refresh. */
holo_status holo_gen_feed(holo_gen *g, uint32_t token, holo_error *err);
/* Feeds n tokens: token by token, or K per execution for a sequence model. */
holo_status holo_gen_prefill(holo_gen *g, const uint32_t *tokens, uint32_t n, holo_error *err);
/* One execution on n tokens, 1 <= n <= g->seq (a sequence model pads the
 * rest). Afterwards holo_gen_rows(g, i) (i < n) are the logits after token i
 * and the current logits are row n - 1. */
holo_status holo_gen_feed_seq(holo_gen *g, const uint32_t *tokens, uint32_t n, holo_error *err);
/* Logits after the i-th token of the last execution (NULL if i >= rows). */
const float *holo_gen_rows(const holo_gen *g, uint32_t i);
/* Forgets the last n fed tokens, keeping the state label (its rows past the
 * new position are masked): needs m.masked_state or a sequence model.
 * Logits are restored when the new position is covered by the last
 * execution (or is where it started); else there are none until the next
 * feed. HOLO_ERR_STATE if the model's state is not masked or n > fed. */
holo_status holo_gen_rewind(holo_gen *g, uint32_t n, holo_error *err);
/* Samples the next token from the current logits (inspector applied) without
 * feeding it. Needs at least one fed token. */
holo_status holo_gen_sample(holo_gen *g, holo_sampler *smp, uint32_t *token, holo_error *err);
/* One decode step: sample, then feed the token. */
holo_status holo_gen_step(holo_gen *g, holo_sampler *smp, uint32_t *token, holo_error *err);

typedef struct holo_gen_options {
  uint32_t max_tokens;
  int64_t stop_token; /* < 0: none; the stop token is reported, not fed */
  /* Return false to stop after this token (it has been fed). */
  bool (*on_token)(void *ctx, uint32_t token, uint32_t index);
  void *ctx;
} holo_gen_options;

/* Decode loop from the current logits; writes up to cap tokens to out
 * (may be NULL) and the count to *n_out. */
holo_status holo_gen_run(holo_gen *g, holo_sampler *smp, const holo_gen_options *o, uint32_t *out,
                         uint32_t cap, uint32_t *n_out, holo_error *err);

/* A snapshot: the state labels (held), position and logits; restoring it is
 * O(state ports) — no bytes move. */
typedef struct holo_gen_snapshot {
  uint8_t state[HOLO_MAX_STATE][32];
  uint32_t n_state;
  uint32_t pos, n_history;
  bool have_logits;
  float *logits; /* vocab, owned */
} holo_gen_snapshot;
holo_status holo_gen_snapshot_take(holo_gen *g, holo_gen_snapshot *snap, holo_error *err);
/* history is truncated to the snapshot's length (it must be a prefix). */
void holo_gen_snapshot_restore(holo_gen *g, const holo_gen_snapshot *snap);
void holo_gen_snapshot_free(holo_gen *g, holo_gen_snapshot *snap);
/* Current state labels, rendered. */
void holo_gen_state_labels(const holo_gen *g, char (*out)[HOLO_LABEL_LEN + 1]);

/* --------------------------------------------------------- prompt cache */

/* Explicit prefix table: key = hash(archive label, backend and kernel
 * identities, the generator's ports, state contract and initial state,
 * tokens of a prefix; docs/generation.md gives the preimage) ->
 * state labels + logits after it. Entries hold their state values in the
 * session's arena; the table is bounded by the bytes of those values plus
 * the logits, least-recently-used entries evicted first. With a WarmStore,
 * entries are also written as records (the state values keyed by their
 * content labels, a manifest keyed by the prefix key) so that a new
 * process starts warm. */
typedef struct holo_prompt_entry {
  uint8_t key[32];
  uint32_t n_tokens, n_state;
  uint8_t state[HOLO_MAX_STATE][32];
  float *logits;
  uint64_t bytes;
  uint64_t tick;
  bool used;
} holo_prompt_entry;

/* store_corrupt: manifests (or the state records they name) found in the
 * store and refused — bad digest, other format version, wrong shape or
 * content; each is a miss and the prefix is recomputed. */
typedef struct holo_prompt_cache_stats {
  uint64_t lookups, hits, misses, tokens_reused, inserts, evictions, store_hits, store_puts, store_corrupt;
} holo_prompt_cache_stats;

typedef struct holo_prompt_cache {
  holo_session *s; /* of the entries (set by the first insert) */
  holo_allocator a;
  holo_prompt_entry *e;
  uint32_t cap;
  uint64_t budget, bytes, tick;
  holo_warm_store *store; /* optional */
  holo_prompt_cache_stats stats;
  uint8_t code[32]; /* holo__code_identity of the session, once it is known */
  bool have_code;
} holo_prompt_cache;

holo_status holo_prompt_cache_init(holo_prompt_cache *pc, uint32_t max_entries, uint64_t budget_bytes,
                                   holo_warm_store *store, const holo_allocator *a, holo_error *err);
/* Releases the held values of every entry (g: a generator of its session,
 * or NULL: the session the entries were made in, which must still exist). */
void holo_prompt_cache_free(holo_prompt_cache *pc, holo_gen *g);
/* Resets g, then restores the longest cached prefix of tokens (table, then
 * store) and feeds the rest; records the whole prompt. *reused: tokens not
 * recomputed. */
holo_status holo_gen_prefill_cached(holo_gen *g, holo_prompt_cache *pc, const uint32_t *tokens, uint32_t n,
                                    uint32_t *reused, holo_error *err);
/* holo_gen_prefill_cached that also records the prefixes tokens[0..c) for
 * each checkpoint c (ascending, 1 <= c <= n; else HOLO_ERR_ARG) that it
 * computes, so a later prompt sharing only that prefix (a system prompt,
 * then another question) restores it. A sequence model's executions end at
 * each checkpoint. Checkpoints inside the restored prefix are not recorded
 * (their states were not computed). */
holo_status holo_gen_prefill_checkpointed(holo_gen *g, holo_prompt_cache *pc, const uint32_t *tokens,
                                          uint32_t n, const uint32_t *checkpoints, uint32_t n_cp,
                                          uint32_t *reused, holo_error *err);

/* -------------------------------------------------- speculative decoding */

typedef struct holo_spec_report {
  uint64_t proposed, accepted, rounds;
  uint64_t target_steps, draft_steps; /* executions of each model */
  float acceptance;                   /* accepted / proposed */
} holo_spec_report;

/* Greedy speculative decoding. Both generators must have been prefilled
 * with the same prompt. Output equals target-only greedy decoding.
 *  - step-graph target (seq 1): the draft proposes k tokens greedily, the
 *    target verifies them one step at a time;
 *  - sequence target (seq K > 1): each round the target runs ONE execution
 *    on [pending, d1 .. dm] (m = min(k, K - 1) draft proposals): row i checks
 *    proposal i + 1; the accepted prefix is committed, the correction (or
 *    bonus) token becomes the next pending one, and the rejected rows are
 *    rolled back by holo_gen_rewind (the output state label is kept, no
 *    copy). The last pending token is fed at the end, so the target leaves
 *    as holo_gen_run would (every emitted token fed).
 * The draft rolls back by holo_gen_rewind if m.masked_state, else by
 * restoring a snapshot (labels) and re-feeding the accepted tokens. */
holo_status holo_speculative_run(holo_gen *target, holo_gen *draft, uint32_t k, const holo_gen_options *o,
                                 uint32_t *out, uint32_t cap, uint32_t *n_out, holo_spec_report *rep,
                                 holo_error *err);

/* Speculative decoding with sampling: the draft samples each proposal from
 * smp's distribution over its logits (q), the target accepts it with
 * probability min(1, p/q) under smp's distribution over its own (p), and a
 * rejected proposal is replaced by a draw from max(0, p - q) renormalised;
 * after k accepted proposals of a sequence target the bonus token is drawn
 * from p. Each emitted token is distributed exactly as holo_gen_run with smp
 * would draw it (not the same bytes: the draws differ). smp's RNG drives
 * every draw; Mirostat is refused. Greedy samplers work (p, q one-hot) and
 * then equal holo_speculative_run's output. The generators' inspectors do
 * not run. Target and draft are left as after holo_speculative_run. */
holo_status holo_speculative_sample_run(holo_gen *target, holo_gen *draft, uint32_t k, holo_sampler *smp,
                                        const holo_gen_options *o, uint32_t *out, uint32_t cap,
                                        uint32_t *n_out, holo_spec_report *rep, holo_error *err);

#ifdef __cplusplus
}
#endif
#endif
