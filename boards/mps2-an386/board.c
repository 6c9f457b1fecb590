/* The board's allocator: a first-fit free list, address-ordered and
 * coalescing, over one static RAM region. Every user pointer has a header
 * just below it naming its block, so any power-of-two alignment works. */
#include "board.h"

#include "hologram/mem.h"

extern uint8_t __heap_start[], __heap_end[];
extern uint32_t __stack_limit[], __stack_top[];

typedef struct fblk {
  size_t size; /* bytes, a multiple of 8 */
  struct fblk *next;
} fblk;

typedef struct hdr {
  uintptr_t block; /* start of the block */
  size_t size;     /* block bytes */
} hdr;

static fblk *free_list;
static int heap_ready;
static board_heap_stats st;

static uintptr_t up(uintptr_t x, uintptr_t a) { return (x + a - 1) & ~(a - 1); }

static void heap_init(void) {
  uintptr_t b = up((uintptr_t)__heap_start, 8), e = (uintptr_t)__heap_end & ~(uintptr_t)7;
  free_list = (fblk *)b;
  free_list->size = e - b;
  free_list->next = 0;
  st.capacity = e - b;
  heap_ready = 1;
}

static void *heap_alloc(void *ctx, size_t size, size_t align) {
  (void)ctx;
  if (!heap_ready) heap_init();
  if (align < 8) align = 8;
  if ((align & (align - 1)) || size > st.capacity) goto fail;
  for (fblk **pp = &free_list; *pp; pp = &(*pp)->next) {
    fblk *b = *pp;
    uintptr_t start = (uintptr_t)b, end_blk = start + b->size;
    uintptr_t user = up(start + sizeof(hdr), align);
    uintptr_t end = up(user + (size ? size : 1), 8);
    if (end > end_blk || end < user) continue;
    if (end_blk - end >= sizeof(fblk) + 8) { /* split: the tail stays free */
      fblk *t = (fblk *)end;
      t->size = end_blk - end;
      t->next = b->next;
      *pp = t;
    } else {
      end = end_blk;
      *pp = b->next;
    }
    hdr *h = (hdr *)(user - sizeof(hdr));
    h->block = start;
    h->size = end - start;
    st.in_use += h->size;
    st.allocs++;
    if (st.in_use > st.peak_in_use) st.peak_in_use = st.in_use;
    size_t top = end - (uintptr_t)__heap_start;
    if (top > st.peak_top) st.peak_top = top;
    return (void *)user;
  }
fail:
  st.failed++;
  return 0;
}

static void heap_free(void *ctx, void *p) {
  (void)ctx;
  if (!p) return;
  hdr *h = (hdr *)((uintptr_t)p - sizeof(hdr));
  fblk *b = (fblk *)h->block;
  b->size = h->size;
  st.in_use -= b->size;
  st.frees++;
  fblk *prev = 0, *cur = free_list;
  while (cur && cur < b)
    prev = cur, cur = cur->next;
  b->next = cur;
  if (cur && (uintptr_t)b + b->size == (uintptr_t)cur) { /* merge with the next */
    b->size += cur->size;
    b->next = cur->next;
  }
  if (prev && (uintptr_t)prev + prev->size == (uintptr_t)b) { /* and the previous */
    prev->size += b->size;
    prev->next = b->next;
  } else if (prev) {
    prev->next = b;
  } else {
    free_list = b;
  }
}

static const holo_allocator board_alloc = {0, heap_alloc, heap_free};

const holo_allocator *board_allocator(void) { return &board_alloc; }

board_heap_stats board_heap(void) {
  if (!heap_ready) heap_init();
  return st;
}

size_t board_stack_capacity(void) { return (size_t)((uint8_t *)__stack_top - (uint8_t *)__stack_limit); }

size_t board_stack_peak(void) {
  const uint32_t *w = __stack_limit;
  while (w < __stack_top && *w == 0xa5a5a5a5u)
    w++;
  return (size_t)((const uint8_t *)__stack_top - (const uint8_t *)w);
}

/* gcc emits calls to these for struct copies and zeroing even when
 * freestanding; they forward to the core's own byte routines. */
void *memcpy(void *d, const void *s, size_t n) {
  holo_memcpy(d, s, n);
  return d;
}
void *memmove(void *d, const void *s, size_t n) {
  holo_memmove(d, s, n);
  return d;
}
void *memset(void *d, int c, size_t n) {
  holo_memset(d, c, n);
  return d;
}
int memcmp(const void *a, const void *b, size_t n) { return holo_memcmp(a, b, n); }
