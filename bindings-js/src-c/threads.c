/* The threaded module's worker pool (hologram-simd128-threads.wasm only;
 * empty in every other build). docs/decisions.md #14 and #40.
 *
 * N extra instances of the same module share this module's memory; each
 * runs holo_worker_main, parked in memory.atomic.wait32 on `wake`. A
 * kernel's parallel_for publishes {fn, arg, n}, notifies, takes tasks
 * itself and returns when `done` reaches n. The calling thread never sleeps
 * (a browser's main thread may not atomics.wait): it works, then spins only
 * on tasks other threads already hold. So a pool whose workers never
 * started (or are slow to start) still completes every job alone.
 *
 * A worker can die inside a task (a trap, a JS exception, terminate()): its
 * own JS or the supervisor that watches it (bindings-js/src/threads-supervisor.js) then
 * sets its `dead` word. The caller's wait is bounded and re-checks those
 * words; on a death it waits for the live workers to put their tasks down
 * and re-runs the dead worker's task itself, so every job still completes
 * with every byte written (tasks are deterministic and write disjoint
 * blocks: re-running one writes the same bytes). The death is counted;
 * JS fails the call with a THREADS error (runtime.js).
 *
 * Which thread runs a task never changes bytes: kernels split by shape
 * alone (gemm.c), each task writes only its own block. */
#ifdef __wasm_atomics__
#include <stdatomic.h>
#include <stdint.h>

#include "hologram/backend.h"
#include "module.h"

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
#define SPIN 100000u    /* ~0.1 ms of polling */
#define MAX_WORKERS 64u /* init.js's thread cap; index 0 is the calling thread */
#define WAIT_NS 2000000 /* the caller's bounded sleep: a death is seen within ~2 ms */

/* Test faults (holo_pool_test_fault; tests/js/threads.test.mjs). */
enum { FAULT_NONE, FAULT_TRAP, FAULT_THROW, FAULT_TERMINATE };

/* The worker's JS: FAULT_THROW throws a JS exception through this call,
 * FAULT_TERMINATE asks the supervisor to terminate this worker. The main
 * instance's import is never called (only workers take test faults). */
IMPORT(holo_pool_signal) void pool_signal(uint32_t worker, uint32_t kind);

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
  /* dead[0] counts deaths; dead[k] != 0: worker k died (FAULT_* kind, or
   * 3 for an exit the supervisor saw). Written with Atomics by JS too
   * (threads-supervisor.js), so plain 32-bit words at a fixed address. */
  _Atomic uint32_t dead[MAX_WORKERS];
  _Atomic uint32_t busy[MAX_WORKERS]; /* the generation worker k is draining, 0: none */
  _Atomic uint64_t cur[MAX_WORKERS];  /* the claim word worker k last tried */
  _Atomic uint32_t fault_kind[MAX_WORKERS], fault_at[MAX_WORKERS], fault_seen[MAX_WORKERS];
  uint32_t deaths_seen;         /* caller only: dead[0] when it last looked */
  uint8_t handled[MAX_WORKERS]; /* caller only: this death was taken over */
  _Atomic uint32_t rerun;       /* tasks the caller re-ran for dead workers */
} pool;

/* One pool per module instance group: the memory is shared, so is this. */
static pool P;

/* A test fault armed for worker `id`, at its fault_at-th task: mid-task,
 * after the claim, before any byte of it is written. */
static void test_fault(uint32_t id) {
  uint32_t kind = atomic_load(&P.fault_kind[id]);
  if (kind == FAULT_NONE || atomic_fetch_add(&P.fault_seen[id], 1) + 1 != atomic_load(&P.fault_at[id]))
    return;
  if (kind == FAULT_TRAP) __builtin_trap();
  pool_signal(id, kind); /* FAULT_THROW does not return */
  for (;;)               /* FAULT_TERMINATE: hold the task until terminate() lands */
    if (atomic_load(&P.quit)) return;
}

static int run_one(uint32_t id, uint64_t w) {
  uint32_t i = W_NEXT(w);
  if (i >= W_N(w)) return 0;
  void (*fn)(void *, uint32_t) = atomic_load(&P.fn);
  void *arg = atomic_load(&P.arg);
  /* Published before the claim: if this worker dies from here on, the
   * caller re-runs task i (harmless when the exchange below fails: the
   * caller re-runs only once every live thread has put its task down). */
  if (id) atomic_store(&P.cur[id], w);
  if (!atomic_compare_exchange_strong(&P.claim, &w, w + 1)) return 1; /* lost the race: re-read */
  if (id) test_fault(id);
  fn(arg, i);
  /* The last task wakes a caller that gave up spinning (a notify with no
   * waiter is cheap; an earlier increment already changed the word). */
  if (atomic_fetch_add(&P.done, 1) + 1 == W_N(w)) __builtin_wasm_memory_atomic_notify((int *)&P.done, 1);
  return 2;
}

/* Tasks of job `gen` until none is left; returns how many this thread ran.
 * busy[id] says "may hold a task of gen" from before the first claim to
 * after the last task (seq_cst: the caller's scan cannot miss it). */
static uint32_t drain(uint32_t id, uint32_t gen) {
  uint32_t ran = 0;
  if (id) atomic_store(&P.busy[id], gen);
  for (;;) {
    uint64_t w = atomic_load(&P.claim);
    if (W_GEN(w) != gen) break;
    int r = run_one(id, w);
    if (r == 0) break;
    if (r == 2) ran++;
  }
  if (id) atomic_store(&P.busy[id], 0);
  return ran;
}

/* The caller's bounded sleep on `done` (or one poll, where it must spin). */
static void caller_wait(uint32_t d) {
  if (P.caller_waits) __builtin_wasm_memory_atomic_wait32((int *)&P.done, (int)d, WAIT_NS);
}

/* Waits until no live worker may hold a task of `gen` (a dead worker's
 * busy word stays set forever: it is skipped). */
static void quiesce(uint32_t gen) {
  for (uint32_t k = 1; k < MAX_WORKERS; k++)
    while (atomic_load(&P.busy[k]) == gen && !atomic_load(&P.dead[k]))
      caller_wait(atomic_load(&P.done));
}

/* A worker died during job `gen`: once every live thread has put its task
 * down, run each dead worker's last task again here. Every other task of
 * the job is done (the caller's drain took all unclaimed ones), so the
 * job is then complete. */
static void take_over(uint32_t gen, uint32_t n) {
  quiesce(gen);
  P.deaths_seen = atomic_load(&P.dead[0]);
  void (*fn)(void *, uint32_t) = atomic_load(&P.fn);
  void *arg = atomic_load(&P.arg);
  for (uint32_t k = 1; k < MAX_WORKERS; k++) {
    if (!atomic_load(&P.dead[k]) || atomic_load(&P.busy[k]) != gen || P.handled[k] == 1) continue;
    P.handled[k] = 1; /* its busy word never clears: once is enough */
    uint64_t w = atomic_load(&P.cur[k]);
    if (W_GEN(w) != gen || W_NEXT(w) >= n) continue;
    fn(arg, W_NEXT(w));
    atomic_fetch_add(&P.rerun, 1);
  }
}

/* Only tasks other threads hold are left. Spin briefly; then, where the
 * caller may block, sleep on `done` in bounded slices so that a death is
 * seen even when no notify comes (a supervisor's notify can race the
 * sleep), and a descheduled worker gets the core back meanwhile. */
static void await_job(uint32_t gen, uint32_t n) {
  for (uint32_t spin = 0; spin < SPIN && atomic_load(&P.done) != n; spin++) {
  }
  for (;;) {
    uint32_t d = atomic_load(&P.done);
    if (d == n) return;
    if (atomic_load(&P.dead[0]) != P.deaths_seen) {
      /* done never reaches n now (the dead task's increment is missing):
       * the job is complete once a take-over saw every death there is. */
      do
        take_over(gen, n);
      while (atomic_load(&P.dead[0]) != P.deaths_seen);
      return;
    }
    caller_wait(d);
  }
}

static void pool_parallel_for(void *pctx, uint32_t n, void (*fn)(void *, uint32_t), void *arg) {
  (void)pctx;
  if (n == 0) return;
  if (n == 1 || n > MAX_TASKS || atomic_load(&P.started) <= atomic_load(&P.dead[0])) {
    for (uint32_t i = 0; i < n; i++)
      fn(arg, i);
    return;
  }
  uint32_t gen = (P.gen + 1) & 0xFFFFFFu;
  if (gen == 0) gen = 1; /* busy[k] == 0 means idle */
  P.gen = gen;
  atomic_store(&P.fn, fn);
  atomic_store(&P.arg, arg);
  atomic_store(&P.done, 0);
  atomic_store(&P.claim, (uint64_t)gen << (2 * N_BITS) | (uint64_t)n << N_BITS);
  atomic_fetch_add(&P.wake, 1);
  atomic_fetch_add(&P.jobs, 1);
  __builtin_wasm_memory_atomic_notify((int *)&P.wake, 0xFFFFFFFFu);
  drain(0, gen);
  await_job(gen, n);
}

/* JS says whether the thread that calls into this instance may block in
 * memory.atomic.wait32 (Node, a Web Worker) or must spin (a window). */
EXPORT(holo_pool_config) void pool_config(uint32_t caller_waits) { P.caller_waits = caller_waits; }

/* A worker instance's whole life: JS calls this once after pointing the
 * instance's stack at its own region; it returns at holo_pool_quit. */
EXPORT(holo_worker_main) void worker_main(uint32_t id) {
  if (id == 0 || id >= MAX_WORKERS) return;
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
    atomic_fetch_add(&P.worker_tasks, drain(id, gen));
  }
  atomic_fetch_sub(&P.started, 1);
}

EXPORT(holo_pool_quit) void pool_quit(void) {
  atomic_store(&P.quit, 1);
  atomic_fetch_add(&P.wake, 1);
  __builtin_wasm_memory_atomic_notify((int *)&P.wake, 0xFFFFFFFFu);
}

/* 0 started workers, 1 tasks run by workers, 2 parallel jobs published,
 * 3 workers dead, 4 tasks the caller re-ran for dead workers. */
EXPORT(holo_pool_stat) uint32_t pool_stat(uint32_t which) {
  switch (which) {
  case 0: return atomic_load(&P.started);
  case 1: return atomic_load(&P.worker_tasks);
  case 2: return atomic_load(&P.jobs);
  case 3: return atomic_load(&P.dead[0]);
  case 4: return atomic_load(&P.rerun);
  default: return 0;
  }
}

/* Where JS marks a death (markDead in threads-worker.js and threads-supervisor.js): 0 the dead words, 1
 * `done` (notified so that a sleeping caller looks at once). */
EXPORT(holo_pool_addr) uint32_t pool_addr(uint32_t which) {
  return which == 0 ? (uint32_t)(uintptr_t)P.dead : (uint32_t)(uintptr_t)&P.done;
}

/* For tests only (Runtime#testFault): worker `id` faults at its n-th task
 * from now. kind: FAULT_TRAP, FAULT_THROW, FAULT_TERMINATE. */
EXPORT(holo_pool_test_fault) uint32_t pool_test_fault(uint32_t id, uint32_t kind, uint32_t n) {
  if (id == 0 || id >= MAX_WORKERS || kind > FAULT_TERMINATE || n == 0) return 1;
  atomic_store(&P.fault_kind[id], FAULT_NONE);
  atomic_store(&P.fault_seen[id], 0);
  atomic_store(&P.fault_at[id], n);
  atomic_store(&P.fault_kind[id], kind);
  return 0;
}

/* exports.c hooks every session's backend here (weak there: absent in the
 * single-thread builds, which must not need SharedArrayBuffer). */
void holo_wasm_threads_attach(holo_backend *be) {
  be->parallel_for = pool_parallel_for;
  be->pctx = &P;
}
#endif
