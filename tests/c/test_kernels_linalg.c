/* MatMul, Gemm, holo.PackB and holo.MatMulPacked against float64 references. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/kernel_testutil.h"

/* numpy matmul in double, written independently of the kernel: walks the
 * output index and maps each batch coordinate back to each operand. */
static double *la_matmul_ref(const float *A, uint32_t ra, const int64_t *sa, const float *B, uint32_t rb,
                             const int64_t *sb, uint32_t *ry, int64_t *sy) {
  int64_t a2[10], b2[10];
  uint32_t ra2 = ra, rb2 = rb;
  memcpy(a2, sa, ra * 8);
  memcpy(b2, sb, rb * 8);
  if (ra == 1) {
    a2[1] = a2[0];
    a2[0] = 1;
    ra2 = 2;
  }
  if (rb == 1) {
    b2[1] = 1;
    rb2 = 2;
  }
  int64_t M = a2[ra2 - 2], K = a2[ra2 - 1], N = b2[rb2 - 1];
  uint32_t br = (ra2 > rb2 ? ra2 : rb2) - 2;
  int64_t bs[8];
  for (uint32_t i = 0; i < br; i++) {
    int64_t da = (int)i - (int)(br - (ra2 - 2)) >= 0 ? a2[i - (br - (ra2 - 2))] : 1;
    int64_t db = (int)i - (int)(br - (rb2 - 2)) >= 0 ? b2[i - (br - (rb2 - 2))] : 1;
    bs[i] = da == 1 ? db : da;
  }
  size_t nb = kt_numel(br, bs);
  double *Y = calloc(nb * M * N + 1, sizeof(double));
  for (size_t bi = 0; bi < nb; bi++) {
    size_t rem = bi, oa = 0, ob = 0, mula = 1, mulb = 1;
    for (int d = (int)br - 1; d >= 0; d--) {
      size_t ix = rem % bs[d];
      rem /= bs[d];
      int ja = d - (int)(br - (ra2 - 2)), jb = d - (int)(br - (rb2 - 2));
      if (ja >= 0) {
        oa += (a2[ja] == 1 ? 0 : ix) * mula;
        mula *= a2[ja];
      }
      if (jb >= 0) {
        ob += (b2[jb] == 1 ? 0 : ix) * mulb;
        mulb *= b2[jb];
      }
    }
    for (int64_t i = 0; i < M; i++)
      for (int64_t j = 0; j < N; j++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++)
          s += (double)A[oa * M * K + i * K + k] * (double)B[ob * K * N + k * N + j];
        Y[bi * M * N + i * N + j] = s;
      }
  }
  uint32_t r = 0;
  for (uint32_t i = 0; i < br; i++)
    sy[r++] = bs[i];
  if (ra >= 2) sy[r++] = M;
  if (rb >= 2) sy[r++] = N;
  *ry = r;
  return Y;
}

static void la_check_matmul(uint32_t ra, const int64_t *sa, uint32_t rb, const int64_t *sb, uint64_t seed) {
  size_t na = kt_numel(ra, sa), nb = kt_numel(rb, sb);
  float *A = malloc(na * 4 + 4), *B = malloc(nb * 4 + 4);
  kt_fill(A, na, &seed, -1, 1);
  kt_fill(B, nb, &seed, -1, 1);
  uint32_t ry;
  int64_t sy[10];
  double *ref = la_matmul_ref(A, ra, sa, B, rb, sb, &ry, sy);
  kt_call k;
  kt_init(&k, "MatMul");
  kt_input(&k, 0, HOLO_DT_F32, ra, sa, A);
  kt_input(&k, 1, HOLO_DT_F32, rb, sb, B);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.call.alias_input, -1);
  assert_int_equal(k.out[0].dtype, HOLO_DT_F32);
  assert_int_equal(k.out[0].rank, ry);
  for (uint32_t i = 0; i < ry; i++)
    assert_int_equal(k.out[0].shape[i], sy[i]);
  size_t K = (size_t)sa[ra - 1];
  kt_close(k.out[0].data, ref, kt_numel(ry, sy), 1e-5, 1e-6 * (double)(K + 1));
  kt_free(&k);
  free(ref);
  free(A);
  free(B);
}

static void test_matmul_2d_awkward(void **st) {
  (void)st;
  static const int64_t sizes[] = {1, 3, 7, 17, 63, 65};
  uint64_t seed = 1;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      for (int l = 0; l < 6; l += 2) {
        int64_t sa[2] = {sizes[i], sizes[j]}, sb[2] = {sizes[j], sizes[(l + i) % 6]};
        la_check_matmul(2, sa, 2, sb, seed++);
      }
}

static void test_matmul_1d_and_batch(void **st) {
  (void)st;
  int64_t v5[1] = {5}, m57[2] = {5, 7}, m35[2] = {3, 5};
  la_check_matmul(1, v5, 2, m57, 11); /* -> [7] */
  la_check_matmul(2, m35, 1, v5, 12); /* -> [3] */
  la_check_matmul(1, v5, 1, v5, 13);  /* -> [] */
  int64_t a4[4] = {2, 1, 3, 5}, b3[3] = {4, 5, 7};
  la_check_matmul(4, a4, 3, b3, 14); /* -> [2,4,3,7] */
  int64_t a3[3] = {3, 17, 9}, b2[2] = {9, 65};
  la_check_matmul(3, a3, 2, b2, 15);
  la_check_matmul(2, b2 - 0, 1, (int64_t[]){65}, 16);
  int64_t a1[1] = {9}, b4[4] = {2, 3, 9, 4};
  la_check_matmul(1, a1, 4, b4, 17); /* -> [2,3,4] */
  int64_t a5[3] = {1, 3, 4}, b5[3] = {6, 4, 2};
  la_check_matmul(3, a5, 3, b5, 18); /* -> [6,3,2] */
}

static void test_matmul_zero_sizes(void **st) {
  (void)st;
  int64_t a[2] = {3, 0}, b[2] = {0, 4};
  la_check_matmul(2, a, 2, b, 21); /* K = 0: all zeros */
  int64_t a2[2] = {0, 5}, b2[2] = {5, 4};
  la_check_matmul(2, a2, 2, b2, 22);
  int64_t a3[3] = {0, 2, 5}, b3[2] = {5, 4};
  la_check_matmul(3, a3, 2, b3, 23);
}

static void test_matmul_refusals(void **st) {
  (void)st;
  float buf[64] = {0};
  int32_t ibuf[64] = {0};
  kt_call k;
  int64_t s23[2] = {2, 3}, s43[2] = {4, 3}, s34[2] = {3, 4};

  kt_init(&k, "MatMul");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");

  kt_init(&k, "MatMul");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s43, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");
  assert_non_null(strstr(k.msg, "A[..,3] vs B[4,..]"));

  kt_init(&k, "MatMul");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_I32, 2, s34, ibuf);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "MatMul");

  int64_t a[3] = {2, 2, 3}, b[3] = {3, 3, 4};
  kt_init(&k, "MatMul");
  kt_input(&k, 0, HOLO_DT_F32, 3, a, buf);
  kt_input(&k, 1, HOLO_DT_F32, 3, b, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");

  kt_init(&k, "MatMul");
  kt_input(&k, 0, HOLO_DT_F32, 0, NULL, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");

  kt_init(&k, "MatMul"); /* buffer shorter than its shape */
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  k.in[1].bytes = 8;
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");

  kt_init(&k, "MatMul"); /* rank 9 */
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  k.in[1].rank = 9;
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");

  kt_init(&k, "MatMul"); /* absent required input */
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_absent(&k, 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MatMul");

  kt_init(&k, "MatMul"); /* an element count beyond size_t */
  int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, huge, buf);
  kt_expect_fail(&k, HOLO_ERR_LIMIT, "MatMul");
}

/* ---- Gemm ---- */

static void la_check_gemm(int64_t M, int64_t K, int64_t N, int ta, int tb, float alpha, float beta,
                          int c_rank, const int64_t *c_shape, uint64_t seed) {
  float *A = malloc(M * K * 4 + 4), *B = malloc(K * N * 4 + 4), *C = malloc(M * N * 4 + 4);
  kt_fill(A, M * K, &seed, -1, 1);
  kt_fill(B, K * N, &seed, -1, 1);
  size_t nc = c_rank >= 0 ? kt_numel(c_rank, c_shape) : 0;
  kt_fill(C, nc, &seed, -1, 1);
  double *ref = malloc(M * N * 8 + 8);
  int64_t cr = c_rank == 2 ? c_shape[0] : 1, cc = c_rank >= 1 ? c_shape[c_rank - 1] : 1;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      double s = 0;
      for (int64_t l = 0; l < K; l++) {
        double a = ta ? A[l * M + i] : A[i * K + l], b = tb ? B[j * K + l] : B[l * N + j];
        s += a * b;
      }
      s *= alpha;
      if (c_rank >= 0) s += beta * (double)C[(cr == 1 ? 0 : i) * cc + (cc == 1 ? 0 : j)];
      ref[i * N + j] = s;
    }
  kt_call k;
  kt_init(&k, "Gemm");
  int64_t sa[2] = {ta ? K : M, ta ? M : K}, sb[2] = {tb ? N : K, tb ? K : N};
  kt_input(&k, 0, HOLO_DT_F32, 2, sa, A);
  kt_input(&k, 1, HOLO_DT_F32, 2, sb, B);
  if (c_rank >= 0)
    kt_input(&k, 2, HOLO_DT_F32, (uint32_t)c_rank, c_shape, C);
  else if (seed & 1)
    kt_absent(&k, 2);
  if (ta || (seed & 2)) kt_attr_int(&k, "transA", ta);
  if (tb || (seed & 2)) kt_attr_int(&k, "transB", tb);
  if (alpha != 1.0f) kt_attr_float(&k, "alpha", alpha);
  if (beta != 1.0f) kt_attr_float(&k, "beta", beta);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 2);
  assert_int_equal(k.out[0].shape[0], M);
  assert_int_equal(k.out[0].shape[1], N);
  kt_close(k.out[0].data, ref, M * N, 1e-5, 2e-6 * (double)(K + 1));
  kt_free(&k);
  free(A);
  free(B);
  free(C);
  free(ref);
}

static void test_gemm_variants(void **st) {
  (void)st;
  static const int64_t sizes[] = {1, 3, 7, 17, 63, 65};
  uint64_t seed = 100;
  for (int i = 0; i < 6; i++)
    for (int t = 0; t < 4; t++) {
      int64_t M = sizes[i], K = sizes[(i + t + 1) % 6], N = sizes[(i + 2 * t + 3) % 6];
      int64_t cfull[2] = {M, N}, crow[2] = {1, N}, ccol[2] = {M, 1}, cvec[1] = {N};
      la_check_gemm(M, K, N, t & 1, t >> 1, 1.0f, 1.0f, -1, NULL, seed++);
      la_check_gemm(M, K, N, t & 1, t >> 1, 0.5f, -2.0f, 2, cfull, seed++);
      la_check_gemm(M, K, N, t & 1, t >> 1, 1.0f, 0.25f, 2, crow, seed++);
      la_check_gemm(M, K, N, t & 1, t >> 1, -1.5f, 1.0f, 2, ccol, seed++);
      la_check_gemm(M, K, N, t & 1, t >> 1, 1.0f, 3.0f, 1, cvec, seed++);
      la_check_gemm(M, K, N, t & 1, t >> 1, 2.0f, 1.0f, 0, NULL, seed++);
    }
  la_check_gemm(4, 0, 5, 0, 0, 1.0f, 1.0f, 1, (int64_t[]){5}, 7); /* K = 0 */
  la_check_gemm(0, 3, 5, 1, 1, 1.0f, 1.0f, -1, NULL, 8);
}

static void test_gemm_refusals(void **st) {
  (void)st;
  float buf[64] = {0};
  kt_call k;
  int64_t s23[2] = {2, 3}, s34[2] = {3, 4}, s43[2] = {4, 3}, s3[1] = {3}, s234[3] = {2, 3, 4};

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s43, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gemm"); /* inner 3 vs 4 */

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s43, buf);
  kt_attr_int(&k, "transB", 1);
  assert_int_equal(kt_infer(&k), HOLO_OK);

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  kt_attr_int(&k, "transA", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gemm");

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  kt_input(&k, 2, HOLO_DT_F32, 1, s3, buf); /* C [3] vs N = 4 */
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gemm");

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 3, s234, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gemm");

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gemm");

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  kt_input(&k, 2, HOLO_DT_F32, 3, s234, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gemm");

  kt_init(&k, "Gemm");
  kt_input(&k, 0, HOLO_DT_F64, 2, s23, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, s34, buf);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Gemm");
}

/* holo.PackB's layout for nr = 8 (default) and 32, both transB; then
 * holo.MatMulPacked over either layout gives MatMul's bytes. */
static void test_packb_layouts_and_matmulpacked(void **st) {
  (void)st;
  static const int64_t shapes[][3] = {{1, 7, 33}, {3, 17, 65}, {5, 9, 100}, {2, 5, 3}, {4, 40, 32}};
  uint64_t seed = 11;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    int64_t M = shapes[s][0], K = shapes[s][1], N = shapes[s][2];
    float *A = malloc((size_t)(M * K) * 4), *B = malloc((size_t)(K * N) * 4),
          *Bt = malloc((size_t)(K * N) * 4);
    kt_fill(A, (size_t)(M * K), &seed, -1, 1);
    kt_fill(B, (size_t)(K * N), &seed, -1, 1);
    for (int64_t k = 0; k < K; k++)
      for (int64_t j = 0; j < N; j++)
        Bt[j * K + k] = B[k * N + j];
    /* the reference: plain MatMul's bytes */
    kt_call m;
    int64_t sa[2] = {M, K}, sb[2] = {K, N}, sbt[2] = {N, K};
    kt_init(&m, "MatMul");
    kt_input(&m, 0, HOLO_DT_F32, 2, sa, A);
    kt_input(&m, 1, HOLO_DT_F32, 2, sb, B);
    assert_int_equal(kt_exec(&m), HOLO_OK);
    for (int64_t nr = 0; nr <= 32; nr += nr ? 24 : 8) /* 0 (attribute absent), 8, 32 */
      for (int tb = 0; tb < 2; tb++) {
        int64_t w = nr ? nr : 8;
        kt_call p, q;
        kt_init(&p, "holo.PackB");
        kt_input(&p, 0, HOLO_DT_F32, 2, tb ? sbt : sb, tb ? Bt : B);
        if (tb) kt_attr_int(&p, "transB", 1);
        if (nr) kt_attr_int(&p, "nr", nr);
        assert_int_equal(kt_exec(&p), HOLO_OK);
        assert_int_equal(p.out[0].rank, 3);
        assert_int_equal(p.out[0].shape[0], (N + w - 1) / w);
        assert_int_equal(p.out[0].shape[1], K);
        assert_int_equal(p.out[0].shape[2], w);
        const float *bp = p.out[0].data;
        for (int64_t q0 = 0; q0 < p.out[0].shape[0]; q0++)
          for (int64_t k = 0; k < K; k++)
            for (int64_t c = 0; c < w; c++) {
              int64_t j = q0 * w + c;
              float want = j < N ? B[k * N + j] : 0.0f;
              assert_memory_equal(&bp[(q0 * K + k) * w + c], &want, 4);
            }
        kt_init(&q, "holo.MatMulPacked");
        kt_input(&q, 0, HOLO_DT_F32, 2, sa, A);
        kt_input(&q, 1, HOLO_DT_F32, 3, p.out[0].shape, bp);
        kt_attr_int(&q, "n", N);
        assert_int_equal(kt_exec(&q), HOLO_OK);
        assert_memory_equal(q.out[0].data, m.out[0].data, (size_t)(M * N) * 4);
        kt_free(&q);
        kt_free(&p);
      }
    kt_free(&m);
    free(A);
    free(B);
    free(Bt);
  }
}

/* holo.MatMulPacked of A [1,3] and a Bp of shape bp, attribute n. */
static void mmp_call(kt_call *k, const float *buf, const int64_t *bp, int64_t n) {
  static const int64_t sa[2] = {1, 3};
  kt_init(k, "holo.MatMulPacked");
  kt_input(k, 0, HOLO_DT_F32, 2, sa, buf);
  kt_input(k, 1, HOLO_DT_F32, 3, bp, buf);
  kt_attr_int(k, "n", n);
}

static void test_packb_refusals(void **st) {
  (void)st;
  float buf[4096] = {0};
  kt_call k;
  int64_t s34[2] = {3, 4}, p16[3] = {1, 3, 16}, p8[3] = {1, 3, 8}, p32[3] = {1, 3, 32};
  for (int64_t nr = -8; nr <= 64; nr += 8) {
    if (nr == 8 || nr == 32) continue;
    kt_init(&k, "holo.PackB");
    kt_input(&k, 0, HOLO_DT_F32, 2, s34, buf);
    kt_attr_int(&k, "nr", nr);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.PackB");
    assert_non_null(strstr(k.msg, "nr must be 8 or 32"));
  }
  /* a Bp of a width no PackB makes, or whose panel count does not match n */
  mmp_call(&k, buf, p16, 16);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.MatMulPacked");
  mmp_call(&k, buf, p8, 9); /* needs 2 panels of 8 */
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.MatMulPacked");
  mmp_call(&k, buf, p32, 32);
  assert_int_equal(kt_infer(&k), HOLO_OK);
  mmp_call(&k, buf, p32, 33);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.MatMulPacked");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matmul_2d_awkward),
      cmocka_unit_test(test_matmul_1d_and_batch),
      cmocka_unit_test(test_matmul_zero_sizes),
      cmocka_unit_test(test_matmul_refusals),
      cmocka_unit_test(test_gemm_variants),
      cmocka_unit_test(test_gemm_refusals),
      cmocka_unit_test(test_packb_layouts_and_matmulpacked),
      cmocka_unit_test(test_packb_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
