/* The GEMM core and A packing split into tasks by fixed rules of the shape
 * (products.h), run through the backend's threading hook. */
#include "operators/products.h"

typedef struct {
  const holo_gemm *g;
  float *dst;
} pack_a_task;

static void pack_a_block(void *arg, uint32_t t) {
  const pack_a_task *T = arg;
  size_t i0 = (size_t)t * HOLO_GEMM_PAR_ROWS, i1 = i0 + HOLO_GEMM_PAR_ROWS;
  holo_gemm_pack_a_rows(T->dst, T->g, i0, i1 < T->g->M ? i1 : T->g->M);
}

void holo_gemm_pack_a_par(holo_gemm *g, float *dst, holo_gemm_parallel_for pf, void *pctx) {
  pack_a_task T = {g, dst};
  uint32_t n = (uint32_t)((g->M + HOLO_GEMM_PAR_ROWS - 1) / HOLO_GEMM_PAR_ROWS);
  if (pf && n > 1)
    pf(pctx, n, pack_a_block, &T);
  else
    for (uint32_t t = 0; t < n; t++)
      pack_a_block(&T, t);
  g->Ap = dst;
}

/* ---- task splitting (feature `parallel`) ---- */

typedef struct {
  const holo_gemm *g;
  int by_rows;
  size_t step;
} gemm_tasks;

/* Task t: rows (or columns) [t*step, min((t+1)*step, M or N)). */
static void gemm_task(void *arg, uint32_t t) {
  const gemm_tasks *T = arg;
  holo_gemm q = *T->g;
  size_t a = (size_t)t * T->step;
  if (T->by_rows) {
    q.M = q.M - a < T->step ? q.M - a : T->step;
    q.A += a * q.rsa;
    if (q.Ap) q.Ap += a * q.K; /* a is a whole number of 4-row strips */
    q.C += a * q.ldc;
    if (q.bias) q.bias += a * q.brs;
  } else {
    q.N = q.N - a < T->step ? q.N - a : T->step;
    if (q.Bp)
      q.Bp += a * q.K; /* a is a whole number of panels of any width */
    else
      q.B += a;
    q.C += a;
    if (q.bias) q.bias += a * q.bcs;
  }
  holo_gemm_f32(&q);
  holo_gemm_act_block(&q); /* the block just written, while it is in cache */
}

void holo_gemm_f32_par(const holo_gemm *g, holo_gemm_parallel_for pf, void *pctx) {
  size_t M = g->M, N = g->N;
  gemm_tasks T = {g, 0, 0};
  size_t K = g->K ? g->K : 1;
  if (pf && M * N * K >= HOLO_GEMM_PAR_MIN_WORK) {
    if (M >= 2 * HOLO_GEMM_PAR_ROWS)
      T = (gemm_tasks){g, 1, HOLO_GEMM_PAR_ROWS};
    else if (N >= 2 * HOLO_GEMM_PAR_COLS)
      T = (gemm_tasks){g, 0, HOLO_GEMM_PAR_COLS};
    /* Blocks grow (doubling: still whole panels) until a task is worth a
     * thread hand-off: a batch-1 layer of 1x1024x1024 becomes 4 tasks, not
     * 16 of ~20 us each. Still a rule of (M, N, K) alone. */
    while (T.step && 2 * T.step < (T.by_rows ? M : N) &&
           T.step * (T.by_rows ? N : M) * K < HOLO_GEMM_PAR_MIN_TASK)
      T.step *= 2;
  }
  if (!T.step) {
    holo_gemm_f32(g);
    holo_gemm_act_block(g);
    return;
  }
  size_t n = ((T.by_rows ? M : N) + T.step - 1) / T.step;
  pf(pctx, (uint32_t)n, gemm_task, &T);
}
