/* The core module's session exports: load, execute, budgets, refinement
 * and the generator step API for the JS shim. module.c owns the module's
 * one heap, host-store.c the host warm-store bridge; the runtime itself
 * keeps no global state. */
#include "boundary.h"
#include "hologram/cpu_backend.h"
#include "hologram/holo.h"
#include "hologram/refine.h"
#include "host-source.h"
#include "host-store.h"
#include "module.h"

/* SHA-256 of parts[0] || ... || parts[n-1] into out[32]; 0 on success. Only
 * called when JS said at load that the host has one (holo_wasm_load). */
IMPORT(holo_host_sha256) int host_sha256(const holo_span *parts, uint32_t n, uint8_t *out);

/* threads.c, in the threaded module only (weak: NULL elsewhere). */
#pragma weak holo_wasm_threads_attach
void holo_wasm_threads_attach(holo_backend *be);

/* A session bundles what JS must keep alive with it. */
typedef struct wasm_session {
  holo_session *s;
  holo_backend be;
  wasm_host_store host;
  wasm_host_source src; /* holo_wasm_load_source: the archive, read by range */
} wasm_session;

static holo_status host_hash(void *ctx, const holo_span *parts, uint32_t n, uint8_t out[32]) {
  (void)ctx;
  return host_sha256(parts, n, out) == 0 ? HOLO_OK : HOLO_ERR_UNSUPPORTED;
}

/* The one load of both exports: archive bytes in memory, or (archive NULL)
 * source w->src with a weight budget. */
static wasm_session *load_any(const uint8_t *archive, size_t len, const uint32_t *src_args, uint64_t budget,
                              uint32_t flags, uint32_t host, holo_error *err) {
  wasm_session *w = wasm_alloc(sizeof *w, 16);
  if (!w) {
    err->status = HOLO_ERR_MEMORY;
    return 0;
  }
  holo_cpu_backend_init(&w->be);
  if (holo_wasm_threads_attach) holo_wasm_threads_attach(&w->be);
  wasm_host_store_init(&w->host);
  holo_options opt = {&wasm_allocator, budget, (host & WASM_HOST_STORE) ? &w->host.store : 0, flags};
  holo_status st;
  if (src_args) {
    wasm_host_source_init(&w->src, src_args[0], (uint64_t)src_args[2] << 32 | src_args[1]);
    uint64_t wb = (uint64_t)src_args[4] << 32 | src_args[3];
    st = holo_session_load_source(&w->src.source, &w->be, &opt, wb, &w->s, err);
  } else {
    st = holo_session_load(archive, len, &w->be, &opt, &w->s, err);
  }
  if (st != HOLO_OK) {
    wasm_host_store_release(&w->host);
    wasm_free(w);
    return 0;
  }
  if (host & WASM_HOST_SHA256) {
    holo_hasher h = {0, host_hash, HOLO_HASHER_MIN_BYTES};
    holo_session_set_hasher(w->s, &h);
  }
  wasm_host_store_release(&w->host);
  return w;
}

EXPORT(holo_wasm_load)
wasm_session *wasm_load(const uint8_t *archive, size_t len, uint32_t budget_lo, uint32_t budget_hi,
                        uint32_t flags, uint32_t host, holo_error *err) {
  return load_any(archive, len, 0, (uint64_t)budget_hi << 32 | budget_lo, flags, host, err);
}

/* A session over host source `id` of `size` bytes whose constants are held
 * under the weight budget (holo_session_load_source). */
EXPORT(holo_wasm_load_source)
wasm_session *wasm_load_source(uint32_t id, uint32_t size_lo, uint32_t size_hi, uint32_t wbudget_lo,
                               uint32_t wbudget_hi, uint32_t budget_lo, uint32_t budget_hi, uint32_t flags,
                               uint32_t host, holo_error *err) {
  const uint32_t args[5] = {id, size_lo, size_hi, wbudget_lo, wbudget_hi};
  return load_any(0, 0, args, (uint64_t)budget_hi << 32 | budget_lo, flags, host, err);
}

EXPORT(holo_wasm_free_session) void wasm_free_session(wasm_session *w) {
  if (!w) return;
  holo_session_free(w->s);
  wasm_host_store_release(&w->host);
  wasm_free(w);
}

EXPORT(holo_wasm_execute)
int wasm_execute(wasm_session *w, const holo_input *in, uint32_t n, holo_view *views, uint32_t n_out,
                 holo_error *err) {
  return holo_execute_addressed(w->s, in, n, views, n_out, err);
}

EXPORT(holo_wasm_session) holo_session *wasm_session_of(wasm_session *w) { return w->s; }
EXPORT(holo_wasm_backend_identity) const char *wasm_backend_identity(wasm_session *w) {
  return w->be.identity;
}

EXPORT(holo_wasm_set_memory_budget)
int wasm_set_memory_budget(wasm_session *w, uint32_t lo, uint32_t hi) {
  return holo_session_set_memory_budget(w->s, (uint64_t)hi << 32 | lo);
}

/* tiered-exec: bytes of evicted values written to the warm store over the
 * session's life (0: off). */
EXPORT(holo_wasm_set_spill_budget)
int wasm_set_spill_budget(wasm_session *w, uint32_t lo, uint32_t hi) {
  return holo_session_set_spill_budget(w->s, (uint64_t)hi << 32 | lo);
}

/* Bytes of dead values kept resident as a cache (HOLO_DEFAULT_RETAIN_BYTES
 * by default; all ones: keep all the budget allows). */
EXPORT(holo_wasm_set_retain_bytes)
int wasm_set_retain_bytes(wasm_session *w, uint32_t lo, uint32_t hi) {
  return holo_session_set_retain_bytes(w->s, (uint64_t)hi << 32 | lo);
}

/* The graph memo's size in records (memo.h; the JS load option memoRecords):
 * a new, empty memo of that many; MEMORY leaves the session without one. */
EXPORT(holo_wasm_set_memo_records)
int wasm_set_memo_records(wasm_session *w, uint32_t records, holo_error *err) {
  return holo_session_set_memo_records(w->s, records, err);
}
EXPORT(holo_wasm_memo_records) uint32_t wasm_memo_records(wasm_session *w) {
  return holo_session_memo_records(w->s);
}

/* Refinement (runtime/refine.c). Declared weak so the module links while
 * refine.c is absent from a build; holo_wasm_has_refine says which. */
#pragma weak holo_refine_plan_init
#pragma weak holo_refine_plan_validator
#pragma weak holo_refine_plan_repair
#pragma weak holo_refine_plan_contract
#pragma weak holo_refine_plan_build
#pragma weak holo_refine_runner_init
#pragma weak holo_refine_run

EXPORT(holo_wasm_has_refine) uint32_t wasm_has_refine(void) {
  return holo_refine_plan_init && holo_refine_plan_validator && holo_refine_plan_repair &&
         holo_refine_plan_contract && holo_refine_plan_build && holo_refine_runner_init && holo_refine_run;
}

EXPORT(holo_wasm_refine)
int wasm_refine(wasm_session *w, const wasm_refine_args *a, const holo_input *in, uint32_t n,
                holo_refine_report *report, holo_view *final, uint32_t n_out, holo_error *err) {
  if (!wasm_has_refine())
    return wasm_set_error(err, HOLO_ERR_UNSUPPORTED, "refinement is not compiled into this module");
  holo_refine_plan plan;
  holo_refine_plan_init(&plan, a->pass_budget);
  if (a->validators & HOLO_VALIDATE_STABLE_LABELS)
    holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_LABELS);
  if (a->validators & HOLO_VALIDATE_STABLE_BYTES)
    holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_BYTES);
  holo_refine_plan_repair(&plan, (holo_repair_kind)a->repair, a->extra_passes);
  if (a->has_contract) {
    holo_state_contract c;
    c.n = a->n > HOLO_MAX_STATE ? HOLO_MAX_STATE : a->n;
    for (uint32_t i = 0; i < c.n; i++) {
      c.input[i] = a->input[i];
      c.output[i] = a->output[i];
    }
    holo_refine_plan_contract(&plan, &c);
  }
  holo_status st = holo_refine_plan_build(&plan, err);
  if (st != HOLO_OK) return st;
  holo_refine_runner r;
  st = holo_refine_runner_init(&r, w->s, &plan, err);
  if (st != HOLO_OK) return st;
  return holo_refine_run(&r, in, n, report, final, n_out, err);
}

/* Generation (generation/, docs/generation.md): a generator and its sampler
 * per JS generate() call; JS drives the loop so onToken can stop it. */
#include "gen-handle.h"

EXPORT(holo_wasm_gen_new) wasm_gen *wasm_gen_new(wasm_session *w, const wasm_gen_args *a, holo_error *err) {
  wasm_gen *x = wasm_alloc(sizeof *x, 16);
  if (!x) {
    err->status = HOLO_ERR_MEMORY;
    return 0;
  }
  wasm_gen_constraints_init(x);
  holo_causal_model m;
  holo_causal_model_default(&m);
  m.token_input = a->token_input, m.position_input = a->position_input, m.logits_output = a->logits_output;
  m.vocab = a->vocab;
  if (holo_gen_init(&x->g, w->s, &m, 0, &wasm_allocator, err) != HOLO_OK) {
    wasm_free(x);
    return 0;
  }
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.kind = (holo_sampler_kind)a->kind, c.temperature = a->temperature, c.top_k = a->top_k, c.top_p = a->top_p;
  c.min_p = a->min_p, c.penalty.repetition = a->repetition, c.penalty.frequency = a->frequency;
  c.penalty.presence = a->presence, c.penalty.window = a->window, c.mirostat_tau = a->tau,
  c.mirostat_eta = a->eta;
  c.seed = (uint64_t)a->seed_hi << 32 | a->seed_lo;
  if (holo_sampler_init(&x->smp, &c, x->g.vocab, &wasm_allocator, err) != HOLO_OK) {
    holo_gen_free(&x->g);
    wasm_free(x);
    return 0;
  }
  return x;
}

EXPORT(holo_wasm_gen_feed) int wasm_gen_feed(wasm_gen *x, uint32_t token, holo_error *err) {
  return holo_gen_feed(&x->g, token, err);
}
EXPORT(holo_wasm_gen_mark) void wasm_gen_mark(wasm_gen *x) { x->g.gen_start = x->g.n_history; }
EXPORT(holo_wasm_gen_sample) int wasm_gen_sample(wasm_gen *x, uint32_t *token, holo_error *err) {
  return holo_gen_sample(&x->g, &x->smp, token, err);
}
EXPORT(holo_wasm_gen_vocab) uint32_t wasm_gen_vocab(wasm_gen *x) { return x->g.vocab; }
/* The first four fields of wasm_gen_stats (holo_wasm_gen_stats2: all). */
EXPORT(holo_wasm_gen_stats) void wasm_gen_stats_get(wasm_gen *x, wasm_gen_stats *out) {
  out->steps = x->g.stats.steps, out->dispatches = x->g.stats.dispatches;
  out->memo_hits = x->g.stats.memo_hits, out->elided = x->g.stats.elided;
}
/* Speculative decoding with draft d (a generator handle: its holo_gen is
 * the first member). A greedy target sampler (or temperature 0) takes the
 * greedy path; any other samples speculatively under the target's sampler
 * (holo_speculative_sample_run). stop < 0: none. */
EXPORT(holo_wasm_gen_speculative)
int wasm_gen_speculative(wasm_gen *t, holo_gen *d, uint32_t k, uint32_t max_tokens, int32_t stop, uint32_t *out,
                         uint32_t cap, uint32_t *n_out, wasm_spec_report *report, holo_error *err) {
  holo_gen_options o = {max_tokens, stop, 0, 0};
  holo_spec_report r = {0};
  bool greedy = t->smp.cfg.kind == HOLO_SAMPLER_GREEDY || t->smp.cfg.temperature == 0;
  holo_status st = greedy ? holo_speculative_run(&t->g, d, k, &o, out, cap, n_out, &r, err)
                          : holo_speculative_sample_run(&t->g, d, k, &t->smp, &o, out, cap, n_out, &r, err);
  report->proposed = r.proposed, report->accepted = r.accepted, report->rounds = r.rounds;
  report->target_steps = r.target_steps, report->draft_steps = r.draft_steps;
  return st;
}

EXPORT(holo_wasm_gen_free) void wasm_gen_free(wasm_gen *x) {
  if (!x) return;
  wasm_gen_constraints_free(x);
  holo_sampler_free(&x->smp);
  holo_gen_free(&x->g);
  wasm_free(x);
}
