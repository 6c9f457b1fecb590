/* Variant-independent parts of the GEMM core: B and A packing, task splitting. */
#include "gemm.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

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

/* Strip rows a[0..3] (NULL past M), columns [k, K), into d (strip layout). */
static void pack_a_cols(float *d, const float *const a[4], size_t k, size_t K, size_t csa) {
  for (; k < K; k++, d += 4)
    for (size_t r = 0; r < 4; r++)
      d[r] = a[r] ? a[r][k * csa] : 0.0f;
}

/* The strip's row pointers; returns the strip's start in dst. */
static float *strip_rows(float *dst, const holo_gemm *g, size_t s, size_t i1, const float *a[4]) {
  for (size_t r = 0; r < 4; r++)
    a[r] = s + r < i1 ? g->A + (s + r) * g->rsa : 0;
  return dst + s * g->K;
}

void holo_gemm_pack_a_rows__scalar(float *dst, const holo_gemm *g, size_t i0, size_t i1) {
  for (size_t s = i0; s < i1; s += 4) {
    const float *a[4];
    float *d = strip_rows(dst, g, s, i1, a);
    pack_a_cols(d, a, 0, g->K, g->csa);
  }
}

#ifdef __wasm_simd128__
void holo_gemm_pack_a_rows__simd128(float *dst, const holo_gemm *g, size_t i0, size_t i1) {
  size_t K = g->K;
  for (size_t s = i0; s < i1; s += 4) {
    const float *a[4];
    float *d = strip_rows(dst, g, s, i1, a);
    size_t k = 0;
    if (g->csa == 1 && a[3]) /* a full strip of unit-stride rows: 4x4 transposes */
      for (; k + 4 <= K; k += 4, d += 16) {
        v128_t r0 = wasm_v128_load(a[0] + k), r1 = wasm_v128_load(a[1] + k);
        v128_t r2 = wasm_v128_load(a[2] + k), r3 = wasm_v128_load(a[3] + k);
        v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
        v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
        wasm_v128_store(d, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
        wasm_v128_store(d + 4, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
        wasm_v128_store(d + 8, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
        wasm_v128_store(d + 12, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
      }
    pack_a_cols(d, a, k, K, g->csa);
  }
}
#define pack_a_rows holo_gemm_pack_a_rows__simd128
#else
#define pack_a_rows holo_gemm_pack_a_rows__scalar
#endif

typedef struct {
  const holo_gemm *g;
  float *dst;
} pack_a_task;

static void pack_a_block(void *arg, uint32_t t) {
  const pack_a_task *T = arg;
  size_t i0 = (size_t)t * HOLO_GEMM_PAR_ROWS, i1 = i0 + HOLO_GEMM_PAR_ROWS;
  pack_a_rows(T->dst, T->g, i0, i1 < T->g->M ? i1 : T->g->M);
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
