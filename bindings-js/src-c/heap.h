/* The core module's heap (heap.c): boundary-tagged blocks, immediate
 * coalescing, segregated free lists and a top region a freed block merges
 * back into. */
#ifndef HOLO_HEAP_H
#define HOLO_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Four free lists per power of two of block size, every size_t covered. */
#define HOLO_HEAP_BINS 256

typedef struct holo_heap {
  /* Adds `bytes` (a multiple of HOLO_HEAP_PAGE) of memory to the heap and
   * returns their address, or 0 when none is left: memory.grow in the
   * module (module.c), a test region in tests/c/test_heap.c. */
  uintptr_t (*grow)(size_t bytes);
  size_t limit; /* most bytes the heap may obtain from grow in all; 0: no limit */
  struct holo_blk *bins[HOLO_HEAP_BINS];
  uint64_t map[HOLO_HEAP_BINS / 64]; /* bit i: bins[i] is not empty */
  uintptr_t top, end;                /* the untouched region [top, end) */
  size_t total;                      /* bytes obtained from grow */
  size_t used, peak;                 /* bytes in allocated blocks, now and at most */
} holo_heap;

#define HOLO_HEAP_PAGE 65536u

/* size bytes aligned to align (a power of two up to 4096; less than 16
 * means 16), or NULL when the memory (or limit) is exhausted. */
void *holo_heap_alloc(holo_heap *h, size_t size, size_t align);
void holo_heap_free(holo_heap *h, void *p);
/* Bytes held in free lists (not counting the top region). */
size_t holo_heap_free_bytes(const holo_heap *h);

#endif
