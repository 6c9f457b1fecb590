/* The wasm module's allocator: first-fit over an address-ordered free list,
 * growing linear memory with memory.grow. Blocks carry a 16-byte header;
 * alignment up to 64 is honoured by carving the front of a block. */
#include "heap.h"

#include <stdint.h>

typedef struct blk {
  size_t size; /* bytes including header; multiple of 16 */
  struct blk *next;
  size_t pad0, pad1;
} blk;

#define HDR sizeof(blk)

static size_t up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

static void insert_free(holo_heap *h, blk *b) {
  blk **pp = &h->free;
  while (*pp && *pp < b) pp = &(*pp)->next;
  b->next = *pp;
  *pp = b;
  /* Coalesce with the next and the previous neighbour. */
  if (b->next && (uint8_t *)b + b->size == (uint8_t *)b->next) {
    b->size += b->next->size;
    b->next = b->next->next;
  }
  if (pp != &h->free) {
    blk *prev = (blk *)((uint8_t *)pp - offsetof(blk, next));
    if ((uint8_t *)prev + prev->size == (uint8_t *)b) {
      prev->size += b->size;
      prev->next = b->next;
    }
  }
}

static bool grow(holo_heap *h, size_t need) {
  size_t pages = (need + 65535) / 65536;
  size_t old = __builtin_wasm_memory_grow(0, pages);
  if (old == (size_t)-1) return false;
  blk *b = (blk *)(old * 65536);
  b->size = pages * 65536;
  h->total += b->size;
  insert_free(h, b);
  return true;
}

void *holo_heap_alloc(holo_heap *h, size_t size, size_t align) {
  if (align < 16) align = 16;
  if (size > SIZE_MAX / 2) return 0;
  size_t need = up(size, 16) + HDR;
  for (int attempt = 0; attempt < 2; attempt++) {
    for (blk **pp = &h->free; *pp; pp = &(*pp)->next) {
      blk *b = *pp;
      uintptr_t user = up((uintptr_t)b + HDR, align);
      size_t front = user - HDR - (uintptr_t)b;
      if (front && front < HDR) { user += align; front += align; } /* front remainder must hold a header */
      if (front + need > b->size) continue;
      *pp = b->next;
      size_t total = b->size;
      if (front) {
        b->size = front;
        insert_free(h, b);
      }
      blk *u = (blk *)(user - HDR);
      u->size = total - front;
      if (u->size - need >= 64) { /* split the tail */
        blk *t = (blk *)((uint8_t *)u + need);
        t->size = u->size - need;
        u->size = need;
        insert_free(h, t);
      }
      h->used += u->size;
      return (void *)user;
    }
    if (!grow(h, need + align + HDR)) return 0;
  }
  return 0;
}

void holo_heap_free(holo_heap *h, void *p) {
  if (!p) return;
  blk *b = (blk *)((uint8_t *)p - HDR);
  h->used -= b->size;
  insert_free(h, b);
}
