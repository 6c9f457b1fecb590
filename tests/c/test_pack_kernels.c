/* The CPU kernels' pack (backend.h holo_pack_call, docs/decisions.md 32),
 * called as the runtime calls it: MatMul and Gemm pack B, Conv its weights;
 * run then computes from the packed form (not from the B it is given: a
 * packed B1 with B2 as the input gives B1's product), the panel width
 * follows the rows of A, and a packed form of other operands is ignored.
 * Natively (the scalar core) and as wasm (tools/test-wasm-c.sh: simd128,
 * relaxed). End to end through sessions: tests/js/pack.test.mjs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "util/kernel_testutil.h"

/* The packed form of input `input` for k's operands; NULL when the kernel
 * keeps it as it is. *bytes: what the kernel asked for. */
static void *packed_of(kt_call *k, uint32_t input, size_t *bytes) {
  assert_non_null(k->kernel->pack);
  /* as session-pack.c builds it: no outputs, workspace or packed forms
   * (a kernel that checked its arity here packed nothing, silently) */
  holo_kernel_call call = k->call;
  call.outputs = NULL, call.n_outputs = 0, call.workspace = NULL, call.packed = NULL;
  holo_pack_call p = {&call, input, NULL, 0};
  assert_int_equal(k->kernel->pack(&p), HOLO_OK);
  *bytes = p.bytes;
  if (!p.bytes) return NULL;
  void *dst = aligned_alloc(64, (p.bytes + 63) / 64 * 64);
  assert_non_null(dst);
  p.dst = dst;
  assert_int_equal(k->kernel->pack(&p), HOLO_OK);
  assert_int_equal(p.bytes, *bytes);
  return dst;
}

/* Runs k (whose outputs are fresh) and returns a copy of output 0's bytes. */
static float *exec_copy(kt_call *k, size_t *n) {
  assert_int_equal(kt_exec(k), HOLO_OK);
  *n = k->out[0].bytes;
  float *y = malloc(*n ? *n : 1);
  memcpy(y, k->out[0].data, *n);
  kt_free(k);
  return y;
}

/* One product: pack B1, then run with B2 as the operand and B1's packed
 * form; it must give B1's unpacked product, byte for byte. */
typedef struct {
  const char *op;
  int64_t ta, tb;
  int64_t a[2], b[2];
} product;

static void setup(kt_call *k, const product *p, const float *A, const float *B, const void *const *packed) {
  kt_init(k, p->op);
  if (p->ta) kt_attr_int(k, "transA", 1);
  if (p->tb) kt_attr_int(k, "transB", 1);
  kt_input(k, 0, HOLO_DT_F32, 2, p->a, A);
  kt_input(k, 1, HOLO_DT_F32, 2, p->b, B);
  k->call.packed = packed;
}

static void check_product(const product *p, size_t M, size_t K, size_t N) {
  uint64_t seed = 77 + M * 131 + N;
  size_t na = (size_t)(p->a[0] * p->a[1]), nb = (size_t)(p->b[0] * p->b[1]);
  float *A = malloc(na * 4), *B1 = malloc(nb * 4), *B2 = malloc(nb * 4);
  kt_fill(A, na, &seed, -1, 1);
  kt_fill(B1, nb, &seed, -1, 1);
  kt_fill(B2, nb, &seed, -1, 1);
  kt_call k;
  size_t bytes, n1, n2, n3;
  setup(&k, p, A, B1, NULL);
  void *P1 = packed_of(&k, 1, &bytes);
  size_t w = M < 4 && N >= 32 ? 32 : 8, cols = (N + w - 1) / w * w;
  assert_int_equal(bytes, 64 + cols * K * sizeof(float)); /* the width follows A's rows */
  size_t zero;
  assert_null(packed_of(&k, 0, &zero)); /* A is never packed */
  float *want = exec_copy(&k, &n1);
  const void *pk[2] = {NULL, P1};
  setup(&k, p, A, B2, pk);
  float *got = exec_copy(&k, &n2);
  setup(&k, p, A, B2, NULL);
  float *other = exec_copy(&k, &n3);
  assert_int_equal(n1, n2);
  assert_memory_equal(got, want, n1);
  assert_memory_not_equal(other, want, n1); /* so run did read the packed form */
  free(want), free(got), free(other), free(P1), free(A), free(B1), free(B2);
}

static void matmul_and_gemm_run_on_their_packed_b(void **st) {
  (void)st;
  static const size_t Ms[] = {1, 3, 4, 64}, shapes[][2] = {{7, 5}, {33, 33}, {64, 70}, {9, 32}, {20, 100}};
  for (size_t mi = 0; mi < 4; mi++)
    for (size_t si = 0; si < 5; si++) {
      size_t M = Ms[mi], K = shapes[si][0], N = shapes[si][1];
      product mm = {"MatMul", 0, 0, {(int64_t)M, (int64_t)K}, {(int64_t)K, (int64_t)N}};
      check_product(&mm, M, K, N);
      product g = {"Gemm", 0, 0, {(int64_t)M, (int64_t)K}, {(int64_t)K, (int64_t)N}};
      check_product(&g, M, K, N);
      product gt = {"Gemm", 0, 1, {(int64_t)M, (int64_t)K}, {(int64_t)N, (int64_t)K}};
      check_product(&gt, M, K, N);
      product ga = {"Gemm", 1, 1, {(int64_t)K, (int64_t)M}, {(int64_t)N, (int64_t)K}};
      check_product(&ga, M, K, N);
    }
}

/* A packed form made for other operands (another K) is not read: run
 * computes from its own B. */
static void a_packed_form_of_other_operands_is_ignored(void **st) {
  (void)st;
  uint64_t seed = 5;
  float A[4 * 9], B[9 * 40], C[8 * 40];
  kt_fill(A, 36, &seed, -1, 1);
  kt_fill(B, 360, &seed, -1, 1);
  kt_fill(C, 320, &seed, -1, 1);
  product p9 = {"MatMul", 0, 0, {4, 9}, {9, 40}}, p8 = {"MatMul", 0, 0, {4, 8}, {8, 40}};
  kt_call k;
  size_t bytes, n1, n2;
  setup(&k, &p8, A, C, NULL);
  void *P8 = packed_of(&k, 1, &bytes);
  kt_free(&k);
  setup(&k, &p9, A, B, NULL);
  float *want = exec_copy(&k, &n1);
  const void *pk[2] = {NULL, P8};
  setup(&k, &p9, A, B, pk);
  float *got = exec_copy(&k, &n2);
  assert_memory_equal(got, want, n1);
  free(want), free(got), free(P8);
}

/* Conv packs its weights where a call would (the im2col path, >= 128
 * output positions, the SIMD core: the scalar core reads no packed A, so
 * nothing is packed there) and then computes from them. */
static const int64_t xs[4] = {1, 3, 20, 20}, ws[4] = {16, 3, 3, 3}, bs[1] = {16}, pads[4] = {1, 1, 1, 1};

static void conv_setup(kt_call *k, const float *X, const float *Wt, const float *Bias, const void *const *packed) {
  kt_init(k, "Conv");
  kt_attr_ints(k, "pads", 4, pads);
  kt_input(k, 0, HOLO_DT_F32, 4, xs, X);
  kt_input(k, 1, HOLO_DT_F32, 4, ws, Wt);
  kt_input(k, 2, HOLO_DT_F32, 1, bs, Bias);
  k->call.packed = packed;
}

static void conv_runs_on_its_packed_weights(void **st) {
  (void)st;
  uint64_t seed = 9;
  float *X = malloc(1200 * 4), W1[432], W2[432], Bias[16];
  kt_fill(X, 1200, &seed, -1, 1);
  kt_fill(W1, 432, &seed, -1, 1);
  kt_fill(W2, 432, &seed, -1, 1);
  kt_fill(Bias, 16, &seed, -1, 1);
  kt_call k;
  size_t bytes, n1, n2;
  conv_setup(&k, X, W1, Bias, NULL);
  void *P1 = packed_of(&k, 1, &bytes);
  size_t zero;
  assert_null(packed_of(&k, 2, &zero));
  if (strcmp(holo_cpu_backend_variant(), "scalar") == 0) {
    assert_null(P1);
    kt_free(&k);
    free(X);
    return;
  }
  assert_int_equal(bytes, 64 + 16 * 27 * sizeof(float)); /* 4 strips of 4 rows x 27 */
  float *want = exec_copy(&k, &n1);
  const void *pk[3] = {NULL, P1, NULL};
  conv_setup(&k, X, W2, Bias, pk);
  float *got = exec_copy(&k, &n2);
  assert_int_equal(n1, n2);
  assert_memory_equal(got, want, n1);
  free(want), free(got), free(P1), free(X);
}

/* Packed once per session there is no per-call pass to amortize, so the
 * SIMD builds pack every dense Conv's weights (conv2d.c
 * conv_session_pa_floats): a 1x1 Conv (which then runs im2col and the
 * packed tile instead of the direct unpacked path) and planes of fewer
 * than 128 positions (7x7: lraspp-like) too, with the bytes of the
 * unpacked run. The 4-output-channel case is gemm.h's M = 4 strip. */
typedef struct {
  int64_t x[4], w[4], pads[4];
} conv_case;

static void conv_case_setup(kt_call *k, const conv_case *cc, const float *X, const float *Wt, const float *Bias,
                            const void *const *packed) {
  int64_t bs[1] = {cc->w[0]};
  kt_init(k, "Conv");
  kt_attr_ints(k, "pads", 4, cc->pads);
  kt_input(k, 0, HOLO_DT_F32, 4, cc->x, X);
  kt_input(k, 1, HOLO_DT_F32, 4, cc->w, Wt);
  kt_input(k, 2, HOLO_DT_F32, 1, bs, Bias);
  k->call.packed = packed;
}

static void conv_1x1_and_small_planes_pack_too(void **st) {
  (void)st;
  static const conv_case cases[] = {
      {{1, 16, 7, 8}, {8, 16, 1, 1}, {0, 0, 0, 0}},  /* 1x1, plane 56 (direct when unpacked) */
      {{1, 24, 14, 14}, {4, 24, 1, 1}, {0, 0, 0, 0}}, /* 1x1, 4 output channels: one strip */
      {{1, 3, 7, 7}, {12, 3, 3, 3}, {1, 1, 1, 1}},   /* 3x3 on a 7x7 plane: 49 < 128 positions */
  };
  for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
    const conv_case *cc = &cases[t];
    size_t nx = (size_t)(cc->x[1] * cc->x[2] * cc->x[3]), nw = (size_t)(cc->w[0] * cc->w[1] * cc->w[2] * cc->w[3]);
    uint64_t seed = 11 + t;
    float *X = malloc(nx * 4), *W1 = malloc(nw * 4), *W2 = malloc(nw * 4), *Bias = malloc((size_t)cc->w[0] * 4);
    kt_fill(X, nx, &seed, -1, 1);
    kt_fill(W1, nw, &seed, -1, 1);
    kt_fill(W2, nw, &seed, -1, 1);
    kt_fill(Bias, (size_t)cc->w[0], &seed, -1, 1);
    kt_call k;
    size_t bytes, n1, n2;
    conv_case_setup(&k, cc, X, W1, Bias, NULL);
    void *P1 = packed_of(&k, 1, &bytes);
    if (strcmp(holo_cpu_backend_variant(), "scalar") == 0) {
      assert_null(P1);
      kt_free(&k);
    } else {
      size_t K = (size_t)(cc->w[1] * cc->w[2] * cc->w[3]), strips = (size_t)(cc->w[0] + 3) / 4;
      assert_int_equal(bytes, 64 + strips * 4 * K * sizeof(float));
      float *want = exec_copy(&k, &n1); /* unpacked: the direct path for the 1x1 cases */
      const void *pk[3] = {NULL, P1, NULL};
      conv_case_setup(&k, cc, X, W2, Bias, pk); /* W2 given, W1 packed: W1's bytes */
      float *got = exec_copy(&k, &n2);
      assert_int_equal(n1, n2);
      assert_memory_equal(got, want, n1);
      free(want), free(got);
    }
    free(P1), free(X), free(W1), free(W2), free(Bias);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(matmul_and_gemm_run_on_their_packed_b),
      cmocka_unit_test(a_packed_form_of_other_operands_is_ignored),
      cmocka_unit_test(conv_runs_on_its_packed_weights),
      cmocka_unit_test(conv_1x1_and_small_planes_pack_too),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
