/* Registry, Reshape/Flatten views, Transpose and Concat. */
#include <math.h>
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

static void test_registry(void **st) {
  (void)st;
  holo_backend b;
  memset(&b, 0x5a, sizeof b);
  holo_cpu_backend_init(&b);
  assert_string_equal(b.identity, "hologram-cpu/scalar/1");
  assert_null(b.ctx);
  assert_null(b.parallel_for);
  static const char *const ops[] = {"MatMul", "Gemm", "Add", "Sub", "Mul", "Div", "Relu",
                                    "Sigmoid", "Tanh", "Softmax", "Reshape", "Flatten",
                                    "Transpose", "Concat", "Conv", "MaxPool", "AveragePool",
                                    "GlobalAveragePool"};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    const holo_kernel *k = b.lookup(b.ctx, ops[i], (uint32_t)strlen(ops[i]));
    assert_non_null(k);
    assert_string_equal(k->op, ops[i]);
    assert_true(strncmp(k->identity, ops[i], strlen(ops[i])) == 0);
    assert_true(k->identity[strlen(ops[i])] == '/');
    assert_non_null(k->infer);
    assert_non_null(k->run);
  }
  assert_string_equal(b.lookup(NULL, "MatMul", 6)->identity, "MatMul/f32/scalar/1");
  /* op names arrive without a terminator */
  const char buf[] = "AddSub";
  assert_string_equal(b.lookup(NULL, buf, 3)->op, "Add");
  assert_string_equal(b.lookup(NULL, buf + 3, 3)->op, "Sub");
  assert_null(b.lookup(NULL, "Ad", 2));
  assert_null(b.lookup(NULL, "Addx", 4));
  assert_null(b.lookup(NULL, "", 0));
  assert_null(b.lookup(NULL, "LSTMx", 5));
  assert_null(b.lookup(NULL, "matmul", 6));
}

/* Every row of the one table: identity "op/dtypes/class/N" with the row's
 * own op and dtypes, the build's GEMM class exactly on the HOLO_KERNEL_GEMM
 * rows (the relaxed build's class follows its backend identity), one row
 * per op, and lookup finds that row. */
static void test_registry_rows(void **st) {
  (void)st;
  holo_backend b;
  holo_cpu_backend_init(&b);
  const char *gemm_class = strcmp(b.identity, "hologram-cpu/scalar/1") == 0         ? "scalar"
                           : strcmp(b.identity, "hologram-cpu/relaxed-simd/1") == 0 ? "relaxed-fma"
                                                                                    : "relaxed-unfused";
  size_t n, gemm = 0;
  const holo_kernel *t = holo_cpu_kernels(&n);
  assert_true(n >= 89);
  for (size_t i = 0; i < n; i++) {
    const holo_kernel *k = &t[i];
    char want[160];
    assert_non_null(k->op), assert_non_null(k->dtypes), assert_non_null(k->infer), assert_non_null(k->run);
    int len = snprintf(want, sizeof want, "%s/%s/", k->op, k->dtypes);
    if (strncmp(k->identity, want, (size_t)len) != 0) fail_msg("%s: identity %s is not %s...", k->op, k->identity, want);
    const char *cls = k->identity + len, *ver = strchr(cls, '/');
    assert_non_null(ver);
    assert_true(ver[1] >= '1' && ver[1] <= '9' && strspn(ver + 1, "0123456789") == strlen(ver + 1));
    size_t cl = (size_t)(ver - cls);
    if (k->flags & HOLO_KERNEL_GEMM) {
      gemm++;
      if (cl != strlen(gemm_class) || strncmp(cls, gemm_class, cl) != 0)
        fail_msg("%s: a GEMM row of class %.*s, the build's is %s", k->op, (int)cl, cls, gemm_class);
    } else if (strncmp(cls, "relaxed", 7) == 0) {
      fail_msg("%s: class %.*s on a row without HOLO_KERNEL_GEMM", k->op, (int)cl, cls);
    }
    assert_true(b.lookup(b.ctx, k->op, (uint32_t)strlen(k->op)) == k);
    for (size_t j = 0; j < i; j++)
      if (strcmp(t[j].op, k->op) == 0) fail_msg("two rows for %s", k->op);
  }
  assert_int_equal(gemm, 8); /* MatMul, Gemm, Conv, holo.MatMulPacked, LSTM, GRU, RNN, ConvTranspose */
  assert_true(holo_cpu_lookup(NULL, "Conv", 4)->flags & HOLO_KERNEL_GEMM);
  assert_false(holo_cpu_lookup(NULL, "holo.PackB", 10)->flags & HOLO_KERNEL_GEMM);
}

/* ---- Reshape / Flatten ---- */

static holo_status lay_reshape(kt_call *k, uint32_t r, const int64_t *s, const int64_t *target,
                               int64_t n, int allowzero) {
  static float data[4096];
  int64_t sn[1] = {n};
  kt_init(k, "Reshape");
  kt_input(k, 0, HOLO_DT_F32, r, s, data);
  kt_input(k, 1, HOLO_DT_I64, 1, sn, target);
  if (allowzero >= 0) kt_attr_int(k, "allowzero", allowzero);
  holo_status st = kt_exec(k);
  if (st == HOLO_OK) {
    assert_int_equal(k->call.alias_input, 0);
    assert_int_equal(k->out[0].dtype, HOLO_DT_F32);
  }
  return st;
}

static void lay_expect_shape(const kt_call *k, uint32_t r, const int64_t *s) {
  assert_int_equal(k->out[0].rank, r);
  for (uint32_t i = 0; i < r; i++) assert_int_equal(k->out[0].shape[i], s[i]);
}

static void test_reshape(void **st) {
  (void)st;
  kt_call k;
  int64_t x[3] = {2, 3, 4};
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){4, -1}, 2, -1), HOLO_OK);
  lay_expect_shape(&k, 2, (int64_t[]){4, 6});
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){0, -1}, 2, -1), HOLO_OK);
  lay_expect_shape(&k, 2, (int64_t[]){2, 12});
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){0, 0, 2, 2}, 4, 0), HOLO_OK);
  lay_expect_shape(&k, 4, (int64_t[]){2, 3, 2, 2});
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){24}, 1, -1), HOLO_OK);
  lay_expect_shape(&k, 1, (int64_t[]){24});
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){-1}, 1, -1), HOLO_OK);
  lay_expect_shape(&k, 1, (int64_t[]){24});
  int64_t one[2] = {1, 1};
  assert_int_equal(lay_reshape(&k, 2, one, (int64_t[]){0}, 0, -1), HOLO_OK); /* to a scalar */
  lay_expect_shape(&k, 0, NULL);
  assert_int_equal(k.out[0].bytes, 4);
  /* empty tensors: allowzero keeps a literal 0 */
  int64_t z[2] = {0, 5};
  assert_int_equal(lay_reshape(&k, 2, z, (int64_t[]){5, 0}, 2, 1), HOLO_OK);
  lay_expect_shape(&k, 2, (int64_t[]){5, 0});
  assert_int_equal(lay_reshape(&k, 2, z, (int64_t[]){0, 5, 1}, 3, 0), HOLO_OK);
  lay_expect_shape(&k, 3, (int64_t[]){0, 5, 1});
  /* refusals */
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){-1, -1}, 2, -1), HOLO_ERR_KERNEL);
  assert_non_null(strstr(k.msg, "Reshape"));
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){5, -1}, 2, -1), HOLO_ERR_KERNEL);
  assert_non_null(strstr(k.msg, "Reshape"));
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){5, 5}, 2, -1), HOLO_ERR_KERNEL);
  assert_non_null(strstr(k.msg, "Reshape"));
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){-2, 12}, 2, -1), HOLO_ERR_KERNEL);
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){0, 0, 0, 0}, 4, -1), HOLO_ERR_KERNEL);
  assert_int_equal(lay_reshape(&k, 2, z, (int64_t[]){0, -1}, 2, 1), HOLO_ERR_KERNEL);
  assert_int_equal(lay_reshape(&k, 2, z, (int64_t[]){0, -1}, 2, -1), HOLO_ERR_KERNEL); /* -1 ambiguous */
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){24}, 1, 2), HOLO_ERR_KERNEL);
  assert_int_equal(lay_reshape(&k, 3, x, (int64_t[]){1, 1, 1, 1, 1, 1, 1, 1, 24}, 9, -1),
                   HOLO_ERR_UNSUPPORTED);
  assert_non_null(strstr(k.msg, "Reshape"));
  int64_t big[3] = {INT64_C(1) << 40, INT64_C(1) << 40, 0};
  assert_int_equal(lay_reshape(&k, 2, z, big, 3, 1), HOLO_ERR_LIMIT);
  assert_non_null(strstr(k.msg, "Reshape"));
  /* shape input of the wrong dtype / rank */
  float data[4] = {0};
  int32_t s32[2] = {2, 2};
  int64_t s2[1] = {2}, s11[2] = {1, 2}, t[2] = {2, 2}, x4[1] = {4};
  kt_init(&k, "Reshape");
  kt_input(&k, 0, HOLO_DT_F32, 1, x4, data);
  kt_input(&k, 1, HOLO_DT_I32, 1, s2, s32);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Reshape");
  kt_init(&k, "Reshape");
  kt_input(&k, 0, HOLO_DT_F32, 1, x4, data);
  kt_input(&k, 1, HOLO_DT_I64, 2, s11, t);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Reshape");
  kt_init(&k, "Reshape");
  kt_input(&k, 0, HOLO_DT_F32, 1, x4, data);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Reshape");
}

static void test_flatten(void **st) {
  (void)st;
  float data[1] = {0};
  int64_t x[4] = {2, 3, 4, 5};
  struct { int64_t axis; bool set; int64_t a, b; } cases[] = {
      {1, false, 2, 60}, {0, true, 1, 120}, {4, true, 120, 1}, {-1, true, 24, 5},
      {-4, true, 1, 120}, {2, true, 6, 20}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    kt_call k;
    kt_init(&k, "Flatten");
    kt_input(&k, 0, HOLO_DT_I64, 4, x, data);
    k.in[0].bytes = 120 * 8;
    if (cases[i].set) kt_attr_int(&k, "axis", cases[i].axis);
    assert_int_equal(kt_infer(&k), HOLO_OK);
    assert_int_equal(k.call.alias_input, 0);
    assert_int_equal(k.out[0].dtype, HOLO_DT_I64);
    lay_expect_shape(&k, 2, (int64_t[]){cases[i].a, cases[i].b});
  }
  kt_call k;
  kt_init(&k, "Flatten");
  kt_input(&k, 0, HOLO_DT_F32, 0, NULL, data);
  kt_attr_int(&k, "axis", 0);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  lay_expect_shape(&k, 2, (int64_t[]){1, 1});
  kt_init(&k, "Flatten");
  kt_input(&k, 0, HOLO_DT_F32, 0, NULL, data);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Flatten");
  int64_t s2[2] = {0, 0};
  kt_init(&k, "Flatten");
  kt_input(&k, 0, HOLO_DT_F32, 2, s2, NULL);
  kt_attr_int(&k, "axis", -3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Flatten");
}

/* ---- Transpose ---- */

static void lay_check_transpose(uint32_t dt, uint32_t r, const int64_t *s, const int64_t *perm,
                                uint64_t seed) {
  size_t n = kt_numel(r, s), es = holo_dtype_size(dt);
  uint8_t *x = malloc(n * es + 1);
  for (size_t i = 0; i < n * es; i++) x[i] = (uint8_t)kt_rand(&seed);
  kt_call k;
  kt_init(&k, "Transpose");
  kt_input(&k, 0, dt, r, s, x);
  int64_t p[8];
  for (uint32_t i = 0; i < r; i++) p[i] = perm ? perm[i] : (int64_t)(r - 1 - i);
  if (perm) kt_attr_ints(&k, "perm", r, perm);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, dt);
  assert_int_equal(k.out[0].rank, r);
  int64_t ys[8], xstr[8];
  for (uint32_t i = 0; i < r; i++) ys[i] = s[p[i]];
  lay_expect_shape(&k, r, ys);
  xstr[r ? r - 1 : 0] = 1;
  for (int i = (int)r - 2; i >= 0; i--) xstr[i] = xstr[i + 1] * s[i + 1];
  const uint8_t *y = k.out[0].data;
  for (size_t o = 0; o < n; o++) {
    size_t rem = o, src = 0;
    for (int d = (int)r - 1; d >= 0; d--) {
      size_t ix = rem % (size_t)ys[d];
      rem /= (size_t)ys[d];
      src += ix * (size_t)xstr[p[d]];
    }
    assert_memory_equal(y + o * es, x + src * es, es);
  }
  kt_free(&k);
  free(x);
}

static void test_transpose(void **st) {
  (void)st;
  static const uint32_t dts[] = {HOLO_DT_F32, HOLO_DT_U8, HOLO_DT_F16, HOLO_DT_I64, HOLO_DT_BOOL};
  for (int d = 0; d < 5; d++) {
    uint64_t seed = 300 + d;
    lay_check_transpose(dts[d], 2, (int64_t[]){17, 63}, NULL, seed++);
    lay_check_transpose(dts[d], 3, (int64_t[]){3, 7, 65}, (int64_t[]){1, 2, 0}, seed++);
    lay_check_transpose(dts[d], 3, (int64_t[]){3, 7, 65}, (int64_t[]){0, 1, 2}, seed++);
    lay_check_transpose(dts[d], 4, (int64_t[]){2, 3, 5, 7}, (int64_t[]){0, 2, 3, 1}, seed++);
    lay_check_transpose(dts[d], 4, (int64_t[]){2, 3, 5, 7}, NULL, seed++);
    lay_check_transpose(dts[d], 8, (int64_t[]){2, 1, 3, 2, 1, 2, 3, 2},
                        (int64_t[]){7, 0, 6, 1, 5, 2, 4, 3}, seed++);
    lay_check_transpose(dts[d], 1, (int64_t[]){17}, NULL, seed++);
    lay_check_transpose(dts[d], 0, NULL, NULL, seed++);
    lay_check_transpose(dts[d], 3, (int64_t[]){4, 0, 3}, (int64_t[]){2, 0, 1}, seed++);
    /* the merged 2-D tiles: NCHW <-> NHWC, dims of 1, a matrix with edges */
    lay_check_transpose(dts[d], 4, (int64_t[]){2, 9, 5, 7}, (int64_t[]){0, 3, 1, 2}, seed++);
    lay_check_transpose(dts[d], 4, (int64_t[]){1, 6, 1, 13}, (int64_t[]){0, 2, 3, 1}, seed++);
    lay_check_transpose(dts[d], 5, (int64_t[]){2, 1, 9, 1, 5}, (int64_t[]){3, 4, 0, 1, 2}, seed++);
    lay_check_transpose(dts[d], 2, (int64_t[]){4, 8}, NULL, seed++);
  }
  float buf[64] = {0};
  int64_t s[3] = {2, 3, 4};
  const int64_t bad[][3] = {{0, 1, 1}, {0, 1, 3}, {-1, 0, 1}};
  for (int i = 0; i < 3; i++) {
    kt_call k;
    kt_init(&k, "Transpose");
    kt_input(&k, 0, HOLO_DT_F32, 3, s, buf);
    kt_attr_ints(&k, "perm", 3, bad[i]);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, "Transpose");
  }
  kt_call k;
  kt_init(&k, "Transpose");
  kt_input(&k, 0, HOLO_DT_F32, 3, s, buf);
  kt_attr_ints(&k, "perm", 2, (int64_t[]){1, 0});
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Transpose");
  kt_init(&k, "Transpose");
  kt_input(&k, 0, 99, 3, s, buf);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Transpose");
}

/* ---- Concat ---- */

static void lay_check_concat(uint32_t dt, uint32_t r, uint32_t n_in, const int64_t *shapes,
                             int64_t axis, uint64_t seed) {
  size_t es = holo_dtype_size(dt);
  uint8_t *x[8];
  uint32_t ax = (uint32_t)(axis < 0 ? axis + r : axis);
  kt_call k;
  kt_init(&k, "Concat");
  int64_t ys[8];
  memcpy(ys, shapes, r * 8);
  ys[ax] = 0;
  for (uint32_t i = 0; i < n_in; i++) {
    size_t n = kt_numel(r, shapes + i * r);
    x[i] = malloc(n * es + 1);
    for (size_t j = 0; j < n * es; j++) x[i][j] = (uint8_t)kt_rand(&seed);
    kt_input(&k, i, dt, r, shapes + i * r, x[i]);
    ys[ax] += shapes[i * r + ax];
  }
  kt_attr_int(&k, "axis", axis);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  lay_expect_shape(&k, r, ys);
  assert_int_equal(k.out[0].dtype, dt);
  /* the reference walks output coordinates */
  size_t ny = kt_numel(r, ys);
  const uint8_t *y = k.out[0].data;
  for (size_t o = 0; o < ny; o++) {
    int64_t idx[8];
    size_t rem = o;
    for (int d = (int)r - 1; d >= 0; d--) {
      idx[d] = (int64_t)(rem % (size_t)ys[d]);
      rem /= (size_t)ys[d];
    }
    uint32_t src = 0;
    while (idx[ax] >= shapes[src * r + ax]) idx[ax] -= shapes[src++ * r + ax];
    size_t off = 0;
    for (uint32_t d = 0; d < r; d++) off = off * (size_t)shapes[src * r + d] + (size_t)idx[d];
    assert_memory_equal(y + o * es, x[src] + off * es, es);
  }
  kt_free(&k);
  for (uint32_t i = 0; i < n_in; i++) free(x[i]);
}

static void test_concat(void **st) {
  (void)st;
  const int64_t s3[] = {2, 3, 7, 2, 17, 7, 2, 1, 7};
  lay_check_concat(HOLO_DT_F32, 3, 3, s3, 1, 1);
  lay_check_concat(HOLO_DT_U8, 3, 3, s3, -2, 2);
  const int64_t s0[] = {3, 5, 7, 5, 1, 5};
  lay_check_concat(HOLO_DT_I64, 2, 3, s0, 0, 3);
  const int64_t sl[] = {4, 3, 4, 63, 4, 65};
  lay_check_concat(HOLO_DT_F16, 2, 3, sl, -1, 4);
  const int64_t s1[] = {17};
  lay_check_concat(HOLO_DT_F32, 1, 1, s1, 0, 5);
  const int64_t se[] = {2, 0, 2, 3, 2, 0};
  lay_check_concat(HOLO_DT_F32, 2, 3, se, 1, 6);
  const int64_t sz[] = {0, 3, 0, 3};
  lay_check_concat(HOLO_DT_F32, 2, 2, sz, 1, 7);

  float buf[64] = {0};
  int32_t ib[64] = {0};
  int64_t a[2] = {2, 3}, b[2] = {3, 3};
  kt_call k;
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, b, buf);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat"); /* off-axis mismatch */
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, b, buf);
  kt_attr_int(&k, "axis", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat");
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, b, buf);
  kt_attr_int(&k, "axis", -3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat");
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_input(&k, 1, HOLO_DT_F32, 2, b, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat"); /* axis missing */
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_input(&k, 1, HOLO_DT_I32, 2, b, ib);
  kt_attr_int(&k, "axis", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat");
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_input(&k, 1, HOLO_DT_F32, 1, b, buf);
  kt_attr_int(&k, "axis", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat");
  kt_init(&k, "Concat");
  kt_attr_int(&k, "axis", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat"); /* no inputs */
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, buf);
  kt_absent(&k, 1);
  kt_attr_int(&k, "axis", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat");
  kt_init(&k, "Concat");
  kt_input(&k, 0, HOLO_DT_F32, 0, NULL, buf);
  kt_attr_int(&k, "axis", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Concat");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_registry),  cmocka_unit_test(test_registry_rows), cmocka_unit_test(test_reshape),
      cmocka_unit_test(test_flatten),   cmocka_unit_test(test_transpose),
      cmocka_unit_test(test_concat),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
