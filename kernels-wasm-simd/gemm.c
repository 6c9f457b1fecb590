/* Variant-independent parts of the GEMM core: B packing, task splitting. */
#include "gemm.h"

void holo_gemm_pack_b_w(float *dst, const float *B, size_t rsb, size_t csb, size_t K, size_t N, size_t w) {
  for (size_t j0 = 0; j0 < N; j0 += w) {
    size_t nc = N - j0 < w ? N - j0 : w;
    for (size_t k = 0; k < K; k++) {
      const float *src = B + k * rsb + j0 * csb;
      size_t c = 0;
      for (; c < nc; c++)
        dst[c] = src[c * csb];
      for (; c < w; c++)
        dst[c] = 0.0f;
      dst += w;
    }
  }
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
    return;
  }
  size_t n = ((T.by_rows ? M : N) + T.step - 1) / T.step;
  pf(pctx, (uint32_t)n, gemm_task, &T);
}
