/* The core module's boundary with JS. This file (with heap.c and
 * libc-shim.c) is the only wasm-specific C: it owns the module's one heap
 * and the host warm-store bridge. The runtime itself keeps no global state;
 * the heap is per module instance, which is the unit JS instantiates. */
#include "heap.h"
#include "hologram/cpu_backend.h"
#include "hologram/holo.h"
#include "hologram/refine.h"

#define EXPORT(name) __attribute__((export_name(#name)))
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))

IMPORT(holo_host_store_get) int host_store_get(const char *label, const uint8_t **bytes, size_t *len);
IMPORT(holo_host_store_put) int host_store_put(const char *label, const uint8_t *bytes, size_t len);
/* SHA-256 of parts[0] || ... || parts[n-1] into out[32]; 0 on success. Only
 * called when JS said at load that the host has one (holo_wasm_load). */
IMPORT(holo_host_sha256) int host_sha256(const holo_span *parts, uint32_t n, uint8_t *out);

static holo_heap HEAP;

/* threads.c, in the threaded module only (weak: NULL elsewhere). */
#pragma weak holo_wasm_threads_attach
void holo_wasm_threads_attach(holo_backend *be);

static void *heap_alloc(void *ctx, size_t size, size_t align) { return holo_heap_alloc(ctx, size, align); }
static void heap_free(void *ctx, void *p) { holo_heap_free(ctx, p); }
static const holo_allocator ALLOC = {&HEAP, heap_alloc, heap_free};

EXPORT(holo_alloc) void *wasm_alloc(size_t size, size_t align) { return holo_heap_alloc(&HEAP, size, align); }
EXPORT(holo_free) void wasm_free(void *p) { holo_heap_free(&HEAP, p); }
EXPORT(holo_heap_used) size_t wasm_heap_used(void) { return HEAP.used; }

/* A session bundles what JS must keep alive with it. */
typedef struct wasm_session {
  holo_session *s;
  holo_backend be;
  holo_warm_store store;
  const uint8_t *last_get; /* host-allocated bytes of the last get */
} wasm_session;

static holo_status st_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  wasm_session *w = ctx;
  if (w->last_get) holo_heap_free(&HEAP, (void *)w->last_get);
  w->last_get = 0;
  if (host_store_get(label, bytes, len) != 0 || !*bytes) return HOLO_ERR_STORE;
  w->last_get = *bytes;
  return HOLO_OK;
}

static holo_status st_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  (void)ctx;
  return host_store_put(label, bytes, len) == 0 ? HOLO_OK : HOLO_ERR_STORE;
}

static holo_status host_hash(void *ctx, const holo_span *parts, uint32_t n, uint8_t out[32]) {
  (void)ctx;
  return host_sha256(parts, n, out) == 0 ? HOLO_OK : HOLO_ERR_UNSUPPORTED;
}

/* host: bit 0 the host has a warm store (holo_host_store_get/put), bit 1 a
 * synchronous SHA-256 (holo_host_sha256), used for large input labels. */
enum { WASM_HOST_STORE = 1u, WASM_HOST_SHA256 = 2u };

EXPORT(holo_wasm_load)
wasm_session *wasm_load(const uint8_t *archive, size_t len, uint32_t budget_lo, uint32_t budget_hi,
                        uint32_t flags, uint32_t host, holo_error *err) {
  wasm_session *w = holo_heap_alloc(&HEAP, sizeof *w, 16);
  if (!w) {
    err->status = HOLO_ERR_MEMORY;
    return 0;
  }
  holo_cpu_backend_init(&w->be);
  if (holo_wasm_threads_attach) holo_wasm_threads_attach(&w->be);
  w->store = (holo_warm_store){w, st_get, st_put};
  w->last_get = 0;
  holo_options opt = {&ALLOC, (uint64_t)budget_hi << 32 | budget_lo, (host & WASM_HOST_STORE) ? &w->store : 0, flags};
  if (holo_session_load(archive, len, &w->be, &opt, &w->s, err) != HOLO_OK) {
    holo_heap_free(&HEAP, w);
    return 0;
  }
  if (host & WASM_HOST_SHA256) {
    holo_hasher h = {0, host_hash, HOLO_HASHER_MIN_BYTES};
    holo_session_set_hasher(w->s, &h);
  }
  if (w->last_get) holo_heap_free(&HEAP, (void *)w->last_get);
  w->last_get = 0;
  return w;
}

EXPORT(holo_wasm_free_session) void wasm_free_session(wasm_session *w) {
  if (!w) return;
  holo_session_free(w->s);
  if (w->last_get) holo_heap_free(&HEAP, (void *)w->last_get);
  holo_heap_free(&HEAP, w);
}

EXPORT(holo_wasm_execute)
int wasm_execute(wasm_session *w, const holo_input *in, uint32_t n, holo_view *views, uint32_t n_out, holo_error *err) {
  return holo_execute_addressed(w->s, in, n, views, n_out, err);
}

EXPORT(holo_wasm_session) holo_session *wasm_session_of(wasm_session *w) { return w->s; }
EXPORT(holo_wasm_backend_identity) const char *wasm_backend_identity(wasm_session *w) { return w->be.identity; }

EXPORT(holo_wasm_set_memory_budget)
int wasm_set_memory_budget(wasm_session *w, uint32_t lo, uint32_t hi) {
  return holo_session_set_memory_budget(w->s, (uint64_t)hi << 32 | lo);
}

/* Bytes of dead values kept resident as a cache (HOLO_DEFAULT_RETAIN_BYTES
 * by default; all ones: keep all the budget allows). */
EXPORT(holo_wasm_set_retain_bytes)
int wasm_set_retain_bytes(wasm_session *w, uint32_t lo, uint32_t hi) {
  return holo_session_set_retain_bytes(w->s, (uint64_t)hi << 32 | lo);
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

/* The plan as JS passes it: flat u32 fields, then the contract's ports. */
typedef struct wasm_refine_args {
  uint32_t pass_budget, validators, repair, extra_passes, has_contract, n;
  uint32_t input[HOLO_MAX_STATE];
  uint32_t output[HOLO_MAX_STATE];
} wasm_refine_args;

EXPORT(holo_wasm_refine)
int wasm_refine(wasm_session *w, const wasm_refine_args *a, const holo_input *in, uint32_t n,
                holo_refine_report *report, holo_view *final, uint32_t n_out, holo_error *err) {
  if (!wasm_has_refine()) {
    err->status = HOLO_ERR_UNSUPPORTED;
    const char *m = "refinement is not compiled into this module";
    uint32_t i = 0;
    for (; m[i] && i + 1 < HOLO_MSG_CAP; i++) err->message[i] = m[i];
    err->message[i] = 0;
    return HOLO_ERR_UNSUPPORTED;
  }
  holo_refine_plan plan;
  holo_refine_plan_init(&plan, a->pass_budget);
  if (a->validators & HOLO_VALIDATE_STABLE_LABELS) holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_LABELS);
  if (a->validators & HOLO_VALIDATE_STABLE_BYTES) holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_BYTES);
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

/* Struct sizes, checked by the JS shim against the layouts it assumes. */
EXPORT(holo_wasm_layout) uint32_t wasm_layout(uint32_t which) {
  switch (which) {
  case 0: return sizeof(holo_input);
  case 1: return sizeof(holo_view);
  case 2: return sizeof(holo_port_info);
  case 3: return sizeof(holo_counters);
  case 4: return sizeof(holo_error);
  case 5: return sizeof(holo_refine_report);
  case 6: return __builtin_offsetof(holo_refine_report, dispatches);
  case 7: return sizeof(wasm_refine_args);
  case 8: return sizeof(holo_span);
  default: return 0;
  }
}

/* Generation (generation/, docs/generation.md): a generator and its sampler
 * per JS generate() call; JS drives the loop so onToken can stop it. */
#include "hologram/generate.h"

typedef struct wasm_gen_args {
  uint32_t token_input;
  int32_t position_input;
  uint32_t logits_output;
  uint32_t kind;
  float temperature;
  uint32_t top_k;
  float top_p, min_p, repetition, frequency, presence;
  uint32_t window;
  float tau, eta;
  uint32_t seed_lo, seed_hi;
} wasm_gen_args;

typedef struct wasm_gen {
  holo_gen g;
  holo_sampler smp;
} wasm_gen;

EXPORT(holo_wasm_gen_new) wasm_gen *wasm_gen_new(wasm_session *w, const wasm_gen_args *a, holo_error *err) {
  wasm_gen *x = holo_heap_alloc(&HEAP, sizeof *x, 16);
  if (!x) {
    err->status = HOLO_ERR_MEMORY;
    return 0;
  }
  holo_causal_model m;
  holo_causal_model_default(&m);
  m.token_input = a->token_input, m.position_input = a->position_input, m.logits_output = a->logits_output;
  if (holo_gen_init(&x->g, w->s, &m, 0, &ALLOC, err) != HOLO_OK) {
    holo_heap_free(&HEAP, x);
    return 0;
  }
  holo_sampler_config c;
  holo_sampler_config_default(&c);
  c.kind = (holo_sampler_kind)a->kind, c.temperature = a->temperature, c.top_k = a->top_k, c.top_p = a->top_p;
  c.min_p = a->min_p, c.penalty.repetition = a->repetition, c.penalty.frequency = a->frequency;
  c.penalty.presence = a->presence, c.penalty.window = a->window, c.mirostat_tau = a->tau, c.mirostat_eta = a->eta;
  c.seed = (uint64_t)a->seed_hi << 32 | a->seed_lo;
  if (holo_sampler_init(&x->smp, &c, x->g.vocab, &ALLOC, err) != HOLO_OK) {
    holo_gen_free(&x->g);
    holo_heap_free(&HEAP, x);
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
EXPORT(holo_wasm_gen_stats) void wasm_gen_stats(wasm_gen *x, uint64_t *out) {
  out[0] = x->g.stats.steps, out[1] = x->g.stats.dispatches, out[2] = x->g.stats.memo_hits, out[3] = x->g.stats.elided;
}
EXPORT(holo_wasm_gen_free) void wasm_gen_free(wasm_gen *x) {
  if (!x) return;
  holo_sampler_free(&x->smp);
  holo_gen_free(&x->g);
  holo_heap_free(&HEAP, x);
}
