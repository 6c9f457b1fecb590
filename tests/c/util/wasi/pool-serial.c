/* hologram/parallel.h for the wasm32-wasi test builds only: WASI preview 1
 * has no threads, so parallel-pthread.c is empty there. This stand-in keeps
 * the suites that pass a pool (test_kernels_conv's depthwise tasks) running
 * their kernels' task split: with threads > 1 it runs the tasks on the
 * caller in REVERSE order, so a kernel whose bytes depend on task order
 * (shared state between tasks, a slot reused across tasks) still fails. It
 * says nothing about concurrency; test_parallel (native, pthreads) does. */
#include <stdlib.h>

#include "hologram/parallel.h"

struct holo_pool {
  unsigned threads;
};

holo_pool *holo_pool_create(unsigned threads) {
  holo_pool *p = malloc(sizeof *p);
  if (p) p->threads = threads ? threads : 1;
  return p;
}

void holo_pool_destroy(holo_pool *p) { free(p); }

unsigned holo_pool_threads(const holo_pool *p) { return p ? p->threads : 1; }

void holo_pool_parallel_for(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg) {
  const holo_pool *p = pctx;
  if (p && p->threads > 1)
    for (uint32_t i = n; i-- > 0;)
      fn(arg, i);
  else
    for (uint32_t i = 0; i < n; i++)
      fn(arg, i);
}

void holo_pool_attach(holo_pool *p, holo_backend *b) {
  b->parallel_for = p ? holo_pool_parallel_for : 0;
  b->pctx = p;
}
