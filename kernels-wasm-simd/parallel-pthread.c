/* Feature `parallel` for native (std) builds: a fixed pool of pthreads
 * behind holo_backend.parallel_for (hologram/parallel.h). Tasks are handed
 * out through an atomic counter, so any thread may run any task; kernels
 * make that irrelevant to the bytes by splitting work with rules that
 * depend only on shapes, each output element written by one task. The
 * wasm builds (freestanding core, WASI program) leave this file empty. */
#if !defined(__wasm__)
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "hologram/parallel.h"

struct holo_pool {
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  pthread_mutex_t call; /* one parallel_for at a time */
  pthread_t *workers;
  unsigned n_workers, started;
  uint64_t gen; /* bumped per job; workers wait for a new one */
  int stop;
  /* the current job */
  void (*fn)(void *, uint32_t);
  void *arg;
  uint32_t n;
  atomic_uint next;
  unsigned active; /* workers not yet finished with the job */
};

static void run_tasks(holo_pool *p, void (*fn)(void *, uint32_t), void *arg, uint32_t n) {
  for (;;) {
    unsigned i = atomic_fetch_add_explicit(&p->next, 1, memory_order_relaxed);
    if (i >= n) return;
    fn(arg, i);
  }
}

static void *worker(void *vp) {
  holo_pool *p = vp;
  uint64_t seen = 0;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    while (p->gen == seen && !p->stop) pthread_cond_wait(&p->go, &p->mu);
    if (p->stop) break;
    seen = p->gen;
    void (*fn)(void *, uint32_t) = p->fn;
    void *arg = p->arg;
    uint32_t n = p->n;
    pthread_mutex_unlock(&p->mu);
    run_tasks(p, fn, arg, n);
    pthread_mutex_lock(&p->mu);
    if (--p->active == 0) pthread_cond_signal(&p->done);
  }
  pthread_mutex_unlock(&p->mu);
  return 0;
}

holo_pool *holo_pool_create(unsigned threads) {
  holo_pool *p = calloc(1, sizeof *p);
  if (!p) return 0;
  pthread_mutex_init(&p->mu, 0);
  pthread_mutex_init(&p->call, 0);
  pthread_cond_init(&p->go, 0);
  pthread_cond_init(&p->done, 0);
  atomic_init(&p->next, 0);
  p->n_workers = threads > 1 ? threads - 1 : 0;
  if (p->n_workers) {
    p->workers = calloc(p->n_workers, sizeof *p->workers);
    if (!p->workers) {
      holo_pool_destroy(p);
      return 0;
    }
    for (; p->started < p->n_workers; p->started++)
      if (pthread_create(&p->workers[p->started], 0, worker, p)) {
        holo_pool_destroy(p);
        return 0;
      }
  }
  return p;
}

void holo_pool_destroy(holo_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  for (unsigned i = 0; i < p->started; i++) pthread_join(p->workers[i], 0);
  free(p->workers);
  pthread_cond_destroy(&p->go);
  pthread_cond_destroy(&p->done);
  pthread_mutex_destroy(&p->mu);
  pthread_mutex_destroy(&p->call);
  free(p);
}

unsigned holo_pool_threads(const holo_pool *p) { return p ? p->n_workers + 1 : 1; }

void holo_pool_parallel_for(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg) {
  holo_pool *p = pctx;
  if (!p || !p->n_workers || n <= 1) {
    for (uint32_t i = 0; i < n; i++) fn(arg, i);
    return;
  }
  pthread_mutex_lock(&p->call);
  pthread_mutex_lock(&p->mu);
  p->fn = fn;
  p->arg = arg;
  p->n = n;
  atomic_store_explicit(&p->next, 0, memory_order_relaxed);
  p->active = p->n_workers;
  p->gen++;
  pthread_cond_broadcast(&p->go);
  pthread_mutex_unlock(&p->mu);
  run_tasks(p, fn, arg, n); /* the caller works too */
  pthread_mutex_lock(&p->mu);
  while (p->active) pthread_cond_wait(&p->done, &p->mu);
  pthread_mutex_unlock(&p->mu);
  pthread_mutex_unlock(&p->call);
}

void holo_pool_attach(holo_pool *p, holo_backend *b) {
  b->parallel_for = p ? holo_pool_parallel_for : 0;
  b->pctx = p;
}
#else
typedef int holo_parallel_pthread_unused; /* wasm: no threads in this build */
#endif
