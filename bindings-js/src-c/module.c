/* The core module's one heap, per module instance (the unit JS
 * instantiates), and the exports that hand its memory to JS. */
#include "module.h"

#include "heap.h"

static holo_heap HEAP;

EXPORT(holo_alloc) void *wasm_alloc(size_t size, size_t align) { return holo_heap_alloc(&HEAP, size, align); }
EXPORT(holo_free) void wasm_free(void *p) { holo_heap_free(&HEAP, p); }
EXPORT(holo_heap_used) size_t wasm_heap_used(void) { return HEAP.used; }

static void *heap_alloc(void *ctx, size_t size, size_t align) { return holo_heap_alloc(ctx, size, align); }
static void heap_free(void *ctx, void *p) { holo_heap_free(ctx, p); }
const holo_allocator wasm_allocator = {&HEAP, heap_alloc, heap_free};

holo_status wasm_set_error(holo_error *err, holo_status st, const char *message) {
  err->status = st;
  uint32_t i = 0;
  for (; message[i] && i + 1 < HOLO_MSG_CAP; i++)
    err->message[i] = message[i];
  err->message[i] = 0;
  return st;
}
