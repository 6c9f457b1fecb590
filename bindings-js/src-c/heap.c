/* The wasm module's allocator. Segregated size classes (LIFO bins, O(1)
 * alloc and free) for blocks up to 1 MiB, carved from a bump region that
 * grows with memory.grow; larger blocks come from a first-fit list of freed
 * large blocks or fresh pages. Every user pointer has a 16-byte header just
 * below it naming its block and class, so any alignment up to 4096 works.
 * A first-fit list for everything was quadratic on graphs of 10,000 nodes. */
#include "heap.h"

#include <stdint.h>

#define PAGE 65536u
#define SMALL_MAX (1u << 20)

typedef struct hdr {
  uintptr_t block; /* start of the block */
  uint32_t cls;    /* size class, or HOLO_HEAP_LARGE */
  uint32_t size;   /* block size in bytes */
} hdr;

typedef struct freeblk {
  struct freeblk *next;
  size_t size;
} freeblk;

static size_t up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }

/* Classes: 32, 48, 64, 96, 128, 192, ... (two per power of two) to 1 MiB. */
static uint32_t class_of(size_t n, size_t *csize) {
  size_t s = 32;
  uint32_t c = 0;
  while (s < n) {
    size_t half = s + s / 2;
    c++;
    if (half >= n) {
      *csize = half;
      return c;
    }
    s *= 2;
    c++;
  }
  *csize = s;
  return c;
}

static bool grow_bump(holo_heap *h, size_t need) {
  size_t bytes = up(need > PAGE * 16 ? need : PAGE * 16, PAGE);
  size_t old = __builtin_wasm_memory_grow(0, bytes / PAGE);
  if (old == (size_t)-1) return false;
  uintptr_t base = (uintptr_t)(old * PAGE);
  /* Contiguous with the current region: extend it; else start anew. */
  if (h->bump_end != base) h->bump = base;
  h->bump_end = base + bytes;
  h->total += bytes;
  return true;
}

static uintptr_t bump(holo_heap *h, size_t size) {
  if (h->bump_end - h->bump < size && !grow_bump(h, size)) return 0;
  uintptr_t b = h->bump;
  h->bump += size;
  return b;
}

void *holo_heap_alloc(holo_heap *h, size_t size, size_t align) {
  if (align < 16) align = 16;
  if (align > 4096 || (align & (align - 1)) || size > SIZE_MAX / 4) return 0;
  size_t need = up(size, 16) + sizeof(hdr) + (align - 16);
  uintptr_t block = 0;
  uint32_t cls;
  size_t bsize;
  if (need <= SMALL_MAX) {
    cls = class_of(need, &bsize);
    if (h->bins[cls]) {
      block = (uintptr_t)h->bins[cls];
      h->bins[cls] = h->bins[cls]->next;
    } else {
      block = bump(h, bsize);
    }
  } else {
    cls = HOLO_HEAP_LARGE;
    bsize = up(need, PAGE);
    for (freeblk **pp = &h->large; *pp; pp = &(*pp)->next)
      if ((*pp)->size >= bsize && (*pp)->size <= bsize * 2) { /* bounded waste */
        block = (uintptr_t)*pp;
        bsize = (*pp)->size;
        *pp = (*pp)->next;
        break;
      }
    if (!block) block = bump(h, bsize);
  }
  if (!block) return 0;
  uintptr_t user = up(block + sizeof(hdr), align);
  hdr *hd = (hdr *)(user - sizeof(hdr));
  hd->block = block;
  hd->cls = cls;
  hd->size = (uint32_t)(bsize > 0xFFFFFFFFu ? 0xFFFFFFFFu : bsize);
  h->used += bsize;
  return (void *)user;
}

void holo_heap_free(holo_heap *h, void *p) {
  if (!p) return;
  hdr *hd = (hdr *)((uintptr_t)p - sizeof(hdr));
  freeblk *b = (freeblk *)hd->block;
  h->used -= hd->size;
  if (hd->cls == HOLO_HEAP_LARGE) {
    b->size = hd->size;
    b->next = h->large;
    h->large = b;
  } else {
    uint32_t cls = hd->cls;
    b->next = h->bins[cls];
    h->bins[cls] = b;
  }
}
