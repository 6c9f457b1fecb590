/* The core module's one heap, per module instance (the unit JS
 * instantiates), and the exports that hand its memory to JS. */
#include "module.h"

#include "heap.h"

/* The heap's memory: pages added by memory.grow (the only caller of it in
 * the module, so successive growths are contiguous). */
static uintptr_t grow_memory(size_t bytes) {
  size_t old = __builtin_wasm_memory_grow(0, bytes / HOLO_HEAP_PAGE);
  return old == (size_t)-1 ? 0 : (uintptr_t)(old * HOLO_HEAP_PAGE);
}

static holo_heap HEAP = {.grow = grow_memory};

EXPORT(holo_alloc) void *wasm_alloc(size_t size, size_t align) { return holo_heap_alloc(&HEAP, size, align); }
EXPORT(holo_free) void wasm_free(void *p) { holo_heap_free(&HEAP, p); }
EXPORT(holo_heap_used) size_t wasm_heap_used(void) { return HEAP.used; }
/* The heap's figures for JS (rt.heapStats): 0 bytes in allocated blocks,
 * 1 their peak, 2 bytes obtained from memory.grow, 3 bytes in free lists,
 * 4 the limit (0: none). */
EXPORT(holo_heap_stat) size_t wasm_heap_stat(uint32_t k) {
  switch (k) {
  case 0: return HEAP.used;
  case 1: return HEAP.peak;
  case 2: return HEAP.total;
  case 3: return holo_heap_free_bytes(&HEAP);
  case 4: return HEAP.limit;
  default: return 0;
  }
}
/* The most bytes the heap may obtain from memory.grow in all (0: no limit);
 * an allocation that would need more fails (MEMORY) instead of growing. */
EXPORT(holo_heap_set_limit) void wasm_heap_set_limit(size_t bytes) { HEAP.limit = bytes; }

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
