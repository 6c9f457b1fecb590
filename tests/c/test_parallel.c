/* Feature `parallel` (native): the pthreads pool runs every task exactly
 * once, and the GEMM-based kernels (MatMul, Gemm, Conv, holo.MatMulPacked)
 * give the same bytes serially (no hook) and on pools of 1, 2 and 4
 * threads, with shapes that take the row split, the column split, ragged
 * last blocks and no split. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hologram/parallel.h"
#include "util/kernel_testutil.h"

static void mark(void *arg, uint32_t i) { __atomic_fetch_add(&((int *)arg)[i], 1, __ATOMIC_RELAXED); }

static void test_pool_runs_each_task_once(void **st) {
  (void)st;
  for (unsigned t = 0; t <= 4; t++) {
    holo_pool *p = holo_pool_create(t);
    assert_non_null(p);
    assert_int_equal(holo_pool_threads(p), t > 1 ? t : 1);
    for (uint32_t n = 0; n < 300; n += 37) {
      int *hits = calloc(n + 1, sizeof(int));
      for (int rep = 0; rep < 3; rep++)
        holo_pool_parallel_for(p, n, mark, hits);
      for (uint32_t i = 0; i < n; i++)
        assert_int_equal(hits[i], 3);
      free(hits);
    }
    holo_pool_destroy(p);
  }
  holo_pool_destroy(NULL);
}

/* Counts the tasks the kernels hand to the hook, then forwards to the pool. */
typedef struct {
  holo_pool *pool;
  unsigned calls, tasks;
} spy;
static void spy_for(void *pctx, uint32_t n, void (*fn)(void *, uint32_t), void *arg) {
  spy *s = pctx;
  s->calls++;
  s->tasks += n;
  holo_pool_parallel_for(s->pool, n, fn, arg);
}

typedef void (*setup_fn)(kt_call *k, const void *ctx);

/* Runs the op serially and with 1, 2, 4 threads; all outputs byte-equal.
 * Returns the task count of the 4-thread run. */
static unsigned same_bytes(const char *op, setup_fn setup, const void *ctx) {
  kt_call k;
  kt_init(&k, op);
  setup(&k, ctx);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  size_t bytes = kt_numel(k.out[0].rank, k.out[0].shape) * 4;
  uint8_t *want = malloc(bytes + 1);
  memcpy(want, k.out[0].data, bytes);
  kt_free(&k);
  unsigned tasks = 0;
  for (unsigned t = 1; t <= 4; t *= 2) {
    spy s = {holo_pool_create(t), 0, 0};
    assert_non_null(s.pool);
    kt_init(&k, op);
    setup(&k, ctx);
    k.call.parallel_for = spy_for;
    k.call.pctx = &s;
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(kt_numel(k.out[0].rank, k.out[0].shape) * 4, bytes);
    assert_memory_equal(k.out[0].data, want, bytes);
    kt_free(&k);
    holo_pool_destroy(s.pool);
    tasks = s.tasks;
  }
  free(want);
  return tasks;
}

typedef struct {
  int64_t M, K, N;
  const float *A, *B, *bias;
  int64_t w; /* packed panel width for holo.MatMulPacked */
} mm_ctx;

static void mm_setup(kt_call *k, const void *vc) {
  const mm_ctx *c = vc;
  int64_t sa[2] = {c->M, c->K}, sb[2] = {c->K, c->N}, sbias[1] = {c->N};
  kt_input(k, 0, HOLO_DT_F32, 2, sa, c->A);
  kt_input(k, 1, HOLO_DT_F32, 2, sb, c->B);
  if (c->bias) {
    kt_input(k, 2, HOLO_DT_F32, 1, sbias, c->bias);
    kt_attr_string(k, "holo_activation", "Relu");
  }
}

static void gemm_setup(kt_call *k, const void *vc) {
  const mm_ctx *c = vc;
  int64_t sa[2] = {c->M, c->K}, sb[2] = {c->N, c->K}, sbias[1] = {c->N};
  kt_input(k, 0, HOLO_DT_F32, 2, sa, c->A);
  kt_input(k, 1, HOLO_DT_F32, 2, sb, c->B);
  kt_input(k, 2, HOLO_DT_F32, 1, sbias, c->bias);
  kt_attr_int(k, "transB", 1);
  kt_attr_float(k, "alpha", 0.75f);
}

static void packed_setup(kt_call *k, const void *vc) {
  const mm_ctx *c = vc; /* B already packed: [ceil(N/w), K, w] */
  int64_t sa[2] = {c->M, c->K}, sb[3] = {(c->N + c->w - 1) / c->w, c->K, c->w}, sbias[1] = {c->N};
  kt_input(k, 0, HOLO_DT_F32, 2, sa, c->A);
  kt_input(k, 1, HOLO_DT_F32, 3, sb, c->B);
  kt_input(k, 2, HOLO_DT_F32, 1, sbias, c->bias);
  kt_attr_int(k, "n", c->N);
}

static void test_gemm_kernels_same_bytes(void **st) {
  (void)st;
  /* {M, K, N}: row split (ragged), column split (ragged), both too small */
  static const int64_t shapes[][3] = {{300, 37, 50}, {129, 64, 200}, {1, 784, 1024}, {7, 100, 515},
                                      {64, 64, 64},  {2, 3, 5},      {512, 96, 512}};
  uint64_t seed = 7;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    mm_ctx c = {shapes[s][0], shapes[s][1], shapes[s][2], 0, 0, 0, 8};
    size_t na = c.M * c.K, nb = c.K * c.N;
    float *A = malloc(na * 4), *B = malloc(nb * 4), *bias = malloc(c.N * 4);
    float *Bp = calloc((c.N + 31) / 32 * 32 * c.K, 4);
    kt_fill(A, na, &seed, -1, 1);
    kt_fill(B, nb, &seed, -1, 1);
    kt_fill(bias, c.N, &seed, -1, 1);
    A[0] = 1e30f; /* large and special values travel through unchanged */
    if (na > 5) A[5] = -0.0f;
    c.A = A;
    c.B = B;
    unsigned tasks = same_bytes("MatMul", mm_setup, &c);
    size_t work = (size_t)(c.M * c.N * c.K);
    if (work >= ((size_t)1 << 18) && (c.M >= 128 || c.N >= 128)) assert_true(tasks > 1);
    c.bias = bias;
    same_bytes("MatMul", mm_setup, &c);
    same_bytes("Gemm", gemm_setup, &c); /* B read as [N, K] */
    /* both panel widths (holo.PackB nr = 8 and 32): column tasks start on
     * whole panels of either */
    for (int64_t w = 8; w <= 32; w += 24) {
      memset(Bp, 0, (size_t)((c.N + 31) / 32 * 32 * c.K) * 4);
      for (int64_t k = 0; k < c.K; k++)
        for (int64_t j = 0; j < c.N; j++)
          Bp[(j / w) * c.K * w + k * w + j % w] = B[k * c.N + j];
      c.B = Bp;
      c.w = w;
      same_bytes("holo.MatMulPacked", packed_setup, &c);
    }
    free(A);
    free(B);
    free(Bp);
    free(bias);
  }
}

typedef struct {
  int64_t xs[4], ws[4];
  const float *X, *W, *bias;
} conv_ctx;

static void conv_setup(kt_call *k, const void *vc) {
  const conv_ctx *c = vc;
  int64_t sb[1] = {c->ws[0]}, pads[4] = {1, 1, 1, 1};
  kt_input(k, 0, HOLO_DT_F32, 4, c->xs, c->X);
  kt_input(k, 1, HOLO_DT_F32, 4, c->ws, c->W);
  kt_input(k, 2, HOLO_DT_F32, 1, sb, c->bias);
  kt_attr_ints(k, "pads", 4, pads);
  kt_attr_string(k, "holo_activation", "Relu");
}

static void test_conv_same_bytes(void **st) {
  (void)st;
  /* [N,C,H,W] x [M,C,3,3]: one 256-position chunk (the GEMM splits by rows or
   * columns), two chunks, and 2 images x 6 chunks (chunk tasks, 3 per task) */
  static const int64_t cfg[][5] = {
      {1, 16, 160, 15, 15}, {1, 160, 16, 20, 19}, {1, 32, 32, 20, 19}, {2, 8, 24, 40, 37}};
  uint64_t seed = 11;
  for (size_t s = 0; s < 4; s++) {
    conv_ctx c = {{cfg[s][0], cfg[s][1], cfg[s][3], cfg[s][4]}, {cfg[s][2], cfg[s][1], 3, 3}, 0, 0, 0};
    size_t nx = kt_numel(4, c.xs), nw = kt_numel(4, c.ws);
    float *X = malloc(nx * 4), *W = malloc(nw * 4), *b = malloc(c.ws[0] * 4);
    kt_fill(X, nx, &seed, -1, 1);
    kt_fill(W, nw, &seed, -1, 1);
    kt_fill(b, c.ws[0], &seed, -1, 1);
    c.X = X;
    c.W = W;
    c.bias = b;
    same_bytes("Conv", conv_setup, &c);
    free(X);
    free(W);
    free(b);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool_runs_each_task_once),
      cmocka_unit_test(test_gemm_kernels_same_bytes),
      cmocka_unit_test(test_conv_same_bytes),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
