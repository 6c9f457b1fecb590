/* Feature `parallel`, native (std) builds: a pthreads pool behind the
 * backend's parallel_for hook (backend.h). Kernels split their work by
 * fixed rules that depend only on shapes (the GEMM: gemm.h,
 * holo_gemm_f32_par), so results are bit-identical for any thread count;
 * the pool only decides which thread runs which task. Not compiled into
 * the wasm modules (the single-thread module never needs
 * SharedArrayBuffer; docs/decisions.md has the threaded-wasm plan). */
#ifndef HOLOGRAM_PARALLEL_H
#define HOLOGRAM_PARALLEL_H

#include <stdint.h>

#include "hologram/backend.h"

typedef struct holo_pool holo_pool;

/* A pool running tasks on `threads` threads in all: the caller of
 * parallel_for plus threads - 1 workers (threads <= 1: no workers, tasks
 * run serially on the caller). NULL when threads cannot be started. */
holo_pool *holo_pool_create(unsigned threads);
/* Stops and joins the workers. NULL is allowed. */
void holo_pool_destroy(holo_pool *p);
/* Threads in all (>= 1). */
unsigned holo_pool_threads(const holo_pool *p);
/* The backend hook: runs fn(arg, i) for every i < n, each exactly once,
 * and returns when all have returned. Calls from several threads on one
 * pool are serialized. pctx is the holo_pool (NULL: serial). */
void holo_pool_parallel_for(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);
/* Sets b->parallel_for / b->pctx to this pool (p NULL: back to serial). */
void holo_pool_attach(holo_pool *p, holo_backend *b);

#endif
