/* The core module's boundary with JS. This file (with heap.c and
 * libc-shim.c) is the only wasm-specific C: it owns the module's one heap
 * and the host warm-store bridge. The runtime itself keeps no global state;
 * the heap is per module instance, which is the unit JS instantiates. */
#include "heap.h"
#include "hologram/cpu_backend.h"
#include "hologram/holo.h"

#define EXPORT(name) __attribute__((export_name(#name)))
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))

IMPORT(holo_host_store_get) int host_store_get(const char *label, const uint8_t **bytes, size_t *len);
IMPORT(holo_host_store_put) int host_store_put(const char *label, const uint8_t *bytes, size_t len);

static holo_heap HEAP;

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

EXPORT(holo_wasm_load)
wasm_session *wasm_load(const uint8_t *archive, size_t len, uint32_t budget_lo, uint32_t budget_hi,
                        uint32_t flags, uint32_t use_store, holo_error *err) {
  wasm_session *w = holo_heap_alloc(&HEAP, sizeof *w, 16);
  if (!w) {
    err->status = HOLO_ERR_MEMORY;
    return 0;
  }
  holo_cpu_backend_init(&w->be);
  w->store = (holo_warm_store){w, st_get, st_put};
  w->last_get = 0;
  holo_options opt = {&ALLOC, (uint64_t)budget_hi << 32 | budget_lo, use_store ? &w->store : 0, flags};
  if (holo_session_load(archive, len, &w->be, &opt, &w->s, err) != HOLO_OK) {
    holo_heap_free(&HEAP, w);
    return 0;
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

/* Struct sizes, checked by the JS shim against the layouts it assumes. */
EXPORT(holo_wasm_layout) uint32_t wasm_layout(uint32_t which) {
  switch (which) {
  case 0: return sizeof(holo_input);
  case 1: return sizeof(holo_view);
  case 2: return sizeof(holo_port_info);
  case 3: return sizeof(holo_counters);
  case 4: return sizeof(holo_error);
  default: return 0;
  }
}
