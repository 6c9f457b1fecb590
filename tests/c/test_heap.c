/* The core module's heap (bindings-js/src-c/heap.c) under churn: random
 * alloc/free patterns never overlap, keep every alignment, merge free
 * neighbours, and give everything back (the top returns to the start of
 * the memory, the free lists empty) when every block is freed, so repeated
 * load/dispose cycles never grow the memory. The heap's memory here is a
 * static region standing in for memory.grow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../bindings-js/src-c/heap.h"

#define REGION_BYTES (48u << 20)
static _Alignas(65536) uint8_t region[REGION_BYTES];
static size_t grown;    /* bytes of the region handed out */
static size_t gap_next; /* bytes to skip before the next growth (a non-contiguous memory) */
static unsigned grow_calls;

static uintptr_t test_grow(size_t bytes) {
  grow_calls++;
  if (grown + gap_next + bytes > REGION_BYTES) return 0;
  grown += gap_next;
  gap_next = 0;
  uintptr_t a = (uintptr_t)region + grown;
  grown += bytes;
  return a;
}

static holo_heap fresh(void) {
  grown = 0, gap_next = 0, grow_calls = 0;
  return (holo_heap){.grow = test_grow};
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng >> 16);
}

typedef struct live {
  uint8_t *p;
  size_t size;
  uint8_t fill;
} live;

#define MAX_LIVE 4096
static live lv[MAX_LIVE];

/* Sizes spread over 1 B .. 128 KiB, log-uniform, as a session's mix of
 * tables, small values and large buffers. */
static size_t rand_size(void) {
  uint32_t shift = rnd() % 18;
  return 1 + (rnd() & ((1u << shift) - 1));
}

static size_t rand_align(void) {
  static const size_t aligns[] = {1, 8, 16, 16, 16, 64, 64, 256, 4096};
  return aligns[rnd() % (sizeof aligns / sizeof aligns[0])];
}

static void check_block(const live *l) {
  for (size_t i = 0; i < l->size; i++)
    if (l->p[i] != l->fill)
      fail_msg("block %p (%zu bytes) overwritten at byte %zu", (void *)l->p, l->size, i);
}

static void alloc_one(holo_heap *h, live *l) {
  size_t align = rand_align();
  l->size = rand_size();
  l->p = holo_heap_alloc(h, l->size, align);
  assert_non_null(l->p);
  assert_int_equal((uintptr_t)l->p % (align < 16 ? 16 : align), 0);
  assert_true(l->p >= region && l->p + l->size <= region + grown);
  l->fill = (uint8_t)(rnd() | 1);
  memset(l->p, l->fill, l->size);
}

static int by_address(const void *a, const void *b) {
  const live *x = a, *y = b;
  return x->p < y->p ? -1 : x->p > y->p;
}

/* No two live blocks share a byte (sorted by address, each ends before the
 * next starts). */
static void check_disjoint(size_t n_live) {
  static live sorted[MAX_LIVE];
  memcpy(sorted, lv, n_live * sizeof *lv);
  qsort(sorted, n_live, sizeof *sorted, by_address);
  for (size_t i = 1; i < n_live; i++)
    if (sorted[i - 1].p + sorted[i - 1].size > sorted[i].p)
      fail_msg("blocks %p (+%zu) and %p overlap", (void *)sorted[i - 1].p, sorted[i - 1].size,
               (void *)sorted[i].p);
}

/* n operations, about half allocs and half frees; each freed block is
 * checked unchanged (an overlap would have overwritten it), and every 500
 * operations the live blocks are checked disjoint. */
static void churn(holo_heap *h, size_t *n_live, int n) {
  for (int k = 0; k < n; k++) {
    if (k % 500 == 0) check_disjoint(*n_live);
    if (*n_live < MAX_LIVE && (*n_live == 0 || rnd() % 100 < 52)) {
      alloc_one(h, &lv[(*n_live)++]);
    } else {
      size_t i = rnd() % *n_live;
      check_block(&lv[i]);
      holo_heap_free(h, lv[i].p);
      lv[i] = lv[--*n_live];
    }
  }
}

static void free_all(holo_heap *h, size_t *n_live) {
  while (*n_live) {
    size_t i = rnd() % *n_live;
    check_block(&lv[i]);
    holo_heap_free(h, lv[i].p);
    lv[i] = lv[--*n_live];
  }
}

static void random_churn_never_overlaps_and_returns_everything(void **st) {
  (void)st;
  holo_heap h = fresh();
  size_t n = 0;
  churn(&h, &n, 30000);
  assert_true(h.used > 0);
  free_all(&h, &n);
  assert_int_equal(h.used, 0);
  assert_int_equal(holo_heap_free_bytes(&h), 0); /* all merged ... */
  assert_true(h.top == (uintptr_t)region);       /* ... and back in the top region */
  assert_true(h.peak > 0 && h.peak <= h.total);
}

/* Four neighbours; freeing the outer two leaves two free blocks, freeing
 * the middle one merges all three into one that a request of their joint
 * size reuses in place. */
static void free_neighbours_merge(void **st) {
  (void)st;
  holo_heap h = fresh();
  uint8_t *a = holo_heap_alloc(&h, 1000, 16), *b = holo_heap_alloc(&h, 1000, 16);
  uint8_t *c = holo_heap_alloc(&h, 1000, 16), *d = holo_heap_alloc(&h, 1000, 16);
  assert_true(a && b && c && d && a < b && b < c && c < d);
  size_t block = (size_t)(b - a);
  assert_int_equal((size_t)(c - b), block);
  holo_heap_free(&h, a);
  holo_heap_free(&h, c);
  assert_int_equal(holo_heap_free_bytes(&h), 2 * block);
  holo_heap_free(&h, b);
  assert_int_equal(holo_heap_free_bytes(&h), 3 * block);
  size_t off = block - 1008; /* the block's bytes ahead of its 1008 user bytes */
  uint8_t *e = holo_heap_alloc(&h, 3 * block - off, 16);
  assert_true(e == a);
  assert_int_equal(holo_heap_free_bytes(&h), 0);
  holo_heap_free(&h, e);
  holo_heap_free(&h, d); /* d touches the top: everything goes back */
  assert_int_equal(holo_heap_free_bytes(&h), 0);
  assert_true(h.top == (uintptr_t)region);
  assert_int_equal(h.used, 0);
}

/* The same "load, execute, dispose" pattern 100 times: the memory taken
 * from grow after the first cycle never increases, and the top returns. */
static void cycles_keep_the_high_water_mark(void **st) {
  (void)st;
  holo_heap h = fresh();
  size_t after_first = 0;
  for (int cycle = 0; cycle < 100; cycle++) {
    rng = 0x1234567ull + (uint64_t)(cycle % 5); /* five different "models" */
    size_t n = 0;
    churn(&h, &n, 3000);
    free_all(&h, &n);
    assert_true(h.top == (uintptr_t)region);
    assert_int_equal(holo_heap_free_bytes(&h), 0);
    if (cycle == 4) after_first = h.total; /* after the first round of all five */
    if (cycle > 4) assert_int_equal(h.total, after_first);
  }
}

static void bad_alignment_and_sizes_are_refused(void **st) {
  (void)st;
  holo_heap h = fresh();
  assert_null(holo_heap_alloc(&h, 16, 48));
  assert_null(holo_heap_alloc(&h, 16, 8192));
  assert_null(holo_heap_alloc(&h, SIZE_MAX / 2, 16));
  void *p = holo_heap_alloc(&h, 0, 4096);
  assert_non_null(p);
  assert_int_equal((uintptr_t)p % 4096, 0);
  holo_heap_free(&h, p);
  holo_heap_free(&h, 0);
  assert_int_equal(h.used, 0);
}

/* With a limit the heap refuses rather than grows, and still serves
 * requests that fit afterwards. */
static void limit_refuses_growth(void **st) {
  (void)st;
  holo_heap h = fresh();
  h.limit = 4u << 20;
  void *big = holo_heap_alloc(&h, 3u << 20, 16);
  assert_non_null(big);
  assert_null(holo_heap_alloc(&h, 2u << 20, 16));
  assert_true(h.total <= h.limit);
  holo_heap_free(&h, big);
  void *again = holo_heap_alloc(&h, 3u << 20, 16);
  assert_true(again == big);
  holo_heap_free(&h, again);
  assert_int_equal(h.used, 0);
}

/* Memory that arrives in pieces (another grower between two growths):
 * the old piece is fenced off, merging never crosses into the gap. */
static void non_contiguous_growth_is_fenced(void **st) {
  (void)st;
  holo_heap h = fresh();
  size_t n = 0;
  rng = 42;
  for (int round = 0; round < 6; round++) {
    gap_next = 65536;
    churn(&h, &n, 8000);
  }
  assert_true(grow_calls >= 2);
  free_all(&h, &n);
  assert_int_equal(h.used, 0);
  /* fresh allocations still never overlap and reuse the merged pieces */
  churn(&h, &n, 8000);
  free_all(&h, &n);
  assert_int_equal(h.used, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_churn_never_overlaps_and_returns_everything),
      cmocka_unit_test(free_neighbours_merge),
      cmocka_unit_test(cycles_keep_the_high_water_mark),
      cmocka_unit_test(bad_alignment_and_sizes_are_refused),
      cmocka_unit_test(limit_refuses_growth),
      cmocka_unit_test(non_contiguous_growth_is_fenced),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
