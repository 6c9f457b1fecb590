/* The threaded module's worker pool (hologram-simd128-threads.wasm only;
 * empty in every other build). docs/decisions.md #14.
 *
 * N extra instances of the same module share this module's memory; each
 * runs holo_worker_main, parked in memory.atomic.wait32 on `wake`. A
 * kernel's parallel_for publishes {fn, arg, n}, notifies, takes tasks
 * itself and returns when `done` reaches n. The calling thread never sleeps
 * (a browser's main thread may not atomics.wait): it works, then spins only
 * on tasks other threads already hold. So a pool whose workers never
 * started (or are slow to start) still completes every job alone.
 *
 * Which thread runs a task never changes bytes: kernels split by shape
 * alone (gemm.c), each task writes only its own block. */
#ifdef __wasm_atomics__
#include <stdatomic.h>
#include <stdint.h>

#include "hologram/backend.h"

#define EXPORT(name) __attribute__((export_name(#name)))

/* The claim word packs {generation:24, n:20, next:20} so one
 * compare-exchange claims a task of exactly the job it read: a worker that
 * wakes late, after its job ended and the next was published, fails the
 * exchange instead of running a stale task index against the new job. */
#define N_BITS 20u
#define MAX_TASKS ((1u << N_BITS) - 1u)
#define W_GEN(w) ((uint32_t)((w) >> (2 * N_BITS)))
#define W_N(w) ((uint32_t)((w) >> N_BITS) & MAX_TASKS)
#define W_NEXT(w) ((uint32_t)(w)&MAX_TASKS)
#define SPIN 100000u /* ~0.1 ms of polling */

typedef struct pool {
  _Atomic uint64_t claim;
  _Atomic uint32_t wake; /* bumped per job and at quit: workers wait on it */
  _Atomic uint32_t done;
  _Atomic uint32_t quit;
  _Atomic uint32_t started;      /* workers that reached holo_worker_main */
  _Atomic uint32_t worker_tasks; /* tasks run by workers (observability) */
  _Atomic uint32_t jobs;
  uint32_t caller_waits; /* the calling thread may block (not a browser window) */
  void (*_Atomic fn)(void *, uint32_t);
  void *_Atomic arg;
  uint32_t gen;
} pool;

/* One pool per module instance group: the memory is shared, so is this. */
static pool P;

static int run_one(uint64_t w) {
  uint32_t i = W_NEXT(w);
  if (i >= W_N(w)) return 0;
  void (*fn)(void *, uint32_t) = atomic_load(&P.fn);
  void *arg = atomic_load(&P.arg);
  if (!atomic_compare_exchange_strong(&P.claim, &w, w + 1)) return 1; /* lost the race: re-read */
  fn(arg, i);
  /* The last task wakes a caller that gave up spinning (a notify with no
   * waiter is cheap; an earlier increment already changed the word). */
  if (atomic_fetch_add(&P.done, 1) + 1 == W_N(w)) __builtin_wasm_memory_atomic_notify((int *)&P.done, 1);
  return 2;
}

/* Tasks of job `gen` until none is left; returns how many this thread ran. */
static uint32_t drain(uint32_t gen) {
  uint32_t ran = 0;
  for (;;) {
    uint64_t w = atomic_load(&P.claim);
    if (W_GEN(w) != gen) return ran;
    int r = run_one(w);
    if (r == 0) return ran;
    if (r == 2) ran++;
  }
}

static void pool_parallel_for(void *pctx, uint32_t n, void (*fn)(void *, uint32_t), void *arg) {
  (void)pctx;
  if (n == 0) return;
  if (n == 1 || n > MAX_TASKS || atomic_load(&P.started) == 0) {
    for (uint32_t i = 0; i < n; i++)
      fn(arg, i);
    return;
  }
  uint32_t gen = (P.gen + 1) & 0xFFFFFFu;
  P.gen = gen;
  atomic_store(&P.fn, fn);
  atomic_store(&P.arg, arg);
  atomic_store(&P.done, 0);
  atomic_store(&P.claim, (uint64_t)gen << (2 * N_BITS) | (uint64_t)n << N_BITS);
  atomic_fetch_add(&P.wake, 1);
  atomic_fetch_add(&P.jobs, 1);
  __builtin_wasm_memory_atomic_notify((int *)&P.wake, 0xFFFFFFFFu);
  drain(gen);
  /* Only tasks other threads hold are left. Spin briefly; then, where the
   * caller may block, sleep on `done` so that on a busy machine a descheduled
   * worker gets the core back instead of competing with our spin. */
  for (uint32_t spin = 0; spin < SPIN && atomic_load(&P.done) != n; spin++) {
  }
  for (;;) {
    uint32_t d = atomic_load(&P.done);
    if (d == n) break;
    if (P.caller_waits) __builtin_wasm_memory_atomic_wait32((int *)&P.done, (int)d, 1000000);
  }
}

/* JS says whether the thread that calls into this instance may block in
 * memory.atomic.wait32 (Node, a Web Worker) or must spin (a window). */
EXPORT(holo_pool_config) void pool_config(uint32_t caller_waits) { P.caller_waits = caller_waits; }

/* A worker instance's whole life: JS calls this once after pointing the
 * instance's stack at its own region; it returns at holo_pool_quit. */
EXPORT(holo_worker_main) void worker_main(void) {
  uint32_t seen = atomic_load(&P.wake);
  atomic_fetch_add(&P.started, 1);
  for (;;) {
    /* A model is a burst of kernels: spin briefly before parking, so the
     * next job of the same execution does not pay a futex wake-up. */
    for (uint32_t spin = 0; spin < SPIN && atomic_load(&P.wake) == seen; spin++) {
    }
    while (atomic_load(&P.wake) == seen)
      __builtin_wasm_memory_atomic_wait32((int *)&P.wake, (int)seen, -1);
    seen = atomic_load(&P.wake);
    if (atomic_load(&P.quit)) break;
    uint32_t gen = W_GEN(atomic_load(&P.claim));
    atomic_fetch_add(&P.worker_tasks, drain(gen));
  }
  atomic_fetch_sub(&P.started, 1);
}

EXPORT(holo_pool_quit) void pool_quit(void) {
  atomic_store(&P.quit, 1);
  atomic_fetch_add(&P.wake, 1);
  __builtin_wasm_memory_atomic_notify((int *)&P.wake, 0xFFFFFFFFu);
}

/* 0 started workers, 1 tasks run by workers, 2 parallel jobs published. */
EXPORT(holo_pool_stat) uint32_t pool_stat(uint32_t which) {
  switch (which) {
  case 0: return atomic_load(&P.started);
  case 1: return atomic_load(&P.worker_tasks);
  case 2: return atomic_load(&P.jobs);
  default: return 0;
  }
}

/* exports.c hooks every session's backend here (weak there: absent in the
 * single-thread builds, which must not need SharedArrayBuffer). */
void holo_wasm_threads_attach(holo_backend *be) {
  be->parallel_for = pool_parallel_for;
  be->pctx = &P;
}
#endif
