/* The wasm module's allocator. Every block starts with a boundary tag (its
 * size, whether it and the block below it are free; a free block's size is
 * also written into the first word of the block above it), so a freed block
 * merges at once with free neighbours on both sides, and one touching the
 * top region (the untouched rest of the memory) is given back to it. After
 * every block is freed the heap is one untouched region again: the
 * high-water mark returns, and a load/execute/dispose cycle lays out as the
 * one before it instead of leaving blocks stranded in size-class bins (the
 * allocator this replaces never merged or returned a block, so the mix of
 * sizes a new archive needed grew the memory even with the heap empty).
 * Free blocks sit in segregated lists, four per power of two; a request
 * searches from the first list whose every block fits it, a bitmap finding
 * the first non-empty one, so alloc and free stay O(1) (a single first-fit
 * list was quadratic on graphs of 10,000 nodes). A user pointer is aligned
 * inside its block with the block's address in the word just below it, so
 * any alignment up to 4096 works. */
#include "heap.h"

#define W sizeof(size_t)
#define FREE ((size_t)1)
#define PREV_FREE ((size_t)2)
#define FLAGS (FREE | PREV_FREE)
#define MIN_BLOCK ((size_t)64)
/* Bytes from a block's start to a 16-aligned user pointer: the tag, the
 * word holding the block address, rounded up. */
#define USER_OFF ((3 * W + 15) & ~(size_t)15)
/* The top region always keeps room for a fence: a used block ending the
 * region if the next memory obtained is not contiguous with it. */
#define FENCE ((size_t)16)
#define CHUNK (16 * (size_t)HOLO_HEAP_PAGE)
#define NONE ((size_t)-1)

typedef struct holo_blk {
  size_t prev_size;             /* the block below's size, while that one is free */
  size_t head;                  /* this block's size | FREE | PREV_FREE */
  struct holo_blk *next, *prev; /* free-list links, while free */
} blk;

static size_t up(size_t x, size_t a) { return (x + a - 1) & ~(a - 1); }
static size_t bsize(const blk *b) { return b->head & ~FLAGS; }
static blk *above(const blk *b) { return (blk *)((uintptr_t)b + bsize(b)); }

/* The list of blocks of `size` bytes: its power of two and quarter. */
static size_t bin_of(size_t size) {
  size_t fl = (size_t)(8 * sizeof(unsigned long long) - 1) - (size_t)__builtin_clzll(size);
  return fl * 4 + ((size >> (fl - 2)) & 3);
}

/* The first list whose every block holds `size` bytes. */
static size_t fit_bin(size_t size) {
  size_t fl = (size_t)(8 * sizeof(unsigned long long) - 1) - (size_t)__builtin_clzll(size);
  return bin_of(size + ((size_t)1 << (fl - 2)) - 1);
}

static void bin_insert(holo_heap *h, blk *b) {
  size_t i = bin_of(bsize(b));
  b->prev = 0;
  b->next = h->bins[i];
  if (b->next) b->next->prev = b;
  h->bins[i] = b;
  h->map[i / 64] |= 1ull << (i % 64);
}

static void bin_remove(holo_heap *h, blk *b) {
  size_t i = bin_of(bsize(b));
  if (b->prev)
    b->prev->next = b->next;
  else
    h->bins[i] = b->next;
  if (b->next) b->next->prev = b->prev;
  if (!h->bins[i]) h->map[i / 64] &= ~(1ull << (i % 64));
}

/* The first non-empty list at or after i, or NONE. */
static size_t first_bin(const holo_heap *h, size_t i) {
  for (size_t w = i / 64; w < HOLO_HEAP_BINS / 64; w++) {
    uint64_t m = h->map[w];
    if (w == i / 64) m &= ~0ull << (i % 64);
    if (m) return w * 64 + (size_t)__builtin_ctzll(m);
  }
  return NONE;
}

/* b becomes a free block of `size` bytes (its own PREV_FREE is clear: a
 * free block below it would have been merged). */
static void make_free(holo_heap *h, blk *b, size_t size) {
  b->head = size | FREE;
  blk *a = above(b);
  a->prev_size = size;
  a->head |= PREV_FREE;
  bin_insert(h, b);
}

/* A free block of at least `size` bytes from the lists, cut to size. */
static blk *take(holo_heap *h, size_t size) {
  /* The list of the request's own size may hold blocks that fit (those
   * after it all do): a few of them are looked at first, so a block freed
   * by a request of the same size is reused rather than skipped. */
  blk *b = h->bins[bin_of(size)];
  for (int k = 0; b && k < 8 && bsize(b) < size; k++)
    b = b->next;
  if (!b || bsize(b) < size) {
    size_t i = first_bin(h, fit_bin(size));
    if (i == NONE) return 0;
    b = h->bins[i];
  }
  bin_remove(h, b);
  size_t have = bsize(b);
  if (have - size >= MIN_BLOCK) {
    b->head = size;
    make_free(h, above(b), have - size);
  } else {
    b->head = have;
    above(b)->head &= ~PREV_FREE;
  }
  return b;
}

/* Ends the current region with a used block that is never freed, so that
 * merging never walks past it into memory the heap does not own. */
static void fence(holo_heap *h) {
  blk *f = (blk *)h->top;
  f->head = h->end - h->top;
}

/* Makes the top region hold `size` bytes plus a fence. */
static bool reserve(holo_heap *h, size_t size) {
  while (h->end - h->top < size + FENCE) {
    size_t need = up(size + FENCE - (h->end - h->top), HOLO_HEAP_PAGE);
    size_t want = need < CHUNK ? CHUNK : need;
    if (h->limit && h->total + want > h->limit) want = need;
    if (h->limit && h->total + want > h->limit) return false;
    uintptr_t a = h->grow ? h->grow(want) : 0;
    if (!a) return false;
    h->total += want;
    if (a != h->end) {
      if (h->end) fence(h);
      h->top = a;
    }
    h->end = a + want;
  }
  return true;
}

static blk *from_top(holo_heap *h, size_t size) {
  if (!reserve(h, size)) return 0;
  blk *b = (blk *)h->top;
  b->head = size; /* the block below the top is never free: merged into it */
  h->top += size;
  return b;
}

void *holo_heap_alloc(holo_heap *h, size_t size, size_t align) {
  if (align < 16) align = 16;
  if (align > 4096 || (align & (align - 1)) || size > SIZE_MAX / 4) return 0;
  size_t need = up(size, 16) + USER_OFF + (align - 16);
  if (need < MIN_BLOCK) need = MIN_BLOCK;
  blk *b = take(h, need);
  if (!b) b = from_top(h, need);
  if (!b) return 0;
  h->used += bsize(b);
  if (h->used > h->peak) h->peak = h->used;
  uintptr_t user = up((uintptr_t)b + 3 * W, align);
  ((uintptr_t *)user)[-1] = (uintptr_t)b;
  return (void *)user;
}

void holo_heap_free(holo_heap *h, void *p) {
  if (!p) return;
  blk *b = (blk *)((uintptr_t *)p)[-1];
  size_t size = bsize(b);
  h->used -= size;
  if (b->head & PREV_FREE) {
    blk *below = (blk *)((uintptr_t)b - b->prev_size);
    bin_remove(h, below);
    size += bsize(below);
    b = below;
  }
  uintptr_t next = (uintptr_t)b + size;
  if (next == h->top) { /* back into the top region */
    h->top = (uintptr_t)b;
    return;
  }
  blk *a = (blk *)next;
  if (a->head & FREE) {
    bin_remove(h, a);
    size += bsize(a);
  }
  make_free(h, b, size);
}

size_t holo_heap_free_bytes(const holo_heap *h) {
  size_t n = 0;
  for (size_t i = 0; i < HOLO_HEAP_BINS; i++)
    for (const blk *b = h->bins[i]; b; b = b->next)
      n += bsize(b);
  return n;
}
