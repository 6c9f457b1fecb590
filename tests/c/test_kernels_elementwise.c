/* Add/Sub/Mul/Div, Relu/Sigmoid/Tanh and Softmax. */
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

static const char *const ew_ops[4] = {"Add", "Sub", "Mul", "Div"};

/* Offset into an operand for output coordinate idx, numpy rules. */
static size_t ew_off(const int64_t *idx, uint32_t ry, const int64_t *s, uint32_t r) {
  size_t off = 0;
  for (uint32_t i = 0; i < r; i++) {
    int64_t ix = idx[ry - r + i];
    off = off * (size_t)s[i] + (size_t)(s[i] == 1 ? 0 : ix);
  }
  return off;
}

static void ew_check_f32(int op, uint32_t ra, const int64_t *sa, uint32_t rb, const int64_t *sb, uint32_t ry,
                         const int64_t *sy, uint64_t seed) {
  size_t na = kt_numel(ra, sa), nb = kt_numel(rb, sb), ny = kt_numel(ry, sy);
  float *A = malloc(na * 4 + 4), *B = malloc(nb * 4 + 4);
  kt_fill(A, na, &seed, -2, 2);
  kt_fill(B, nb, &seed, 0.5f, 3);
  double *ref = malloc(ny * 8 + 8);
  int64_t idx[8] = {0};
  for (size_t i = 0; i < ny; i++) {
    size_t rem = i;
    for (int d = (int)ry - 1; d >= 0; d--) {
      idx[d] = (int64_t)(rem % (size_t)sy[d]);
      rem /= (size_t)sy[d];
    }
    double a = A[ew_off(idx, ry, sa, ra)], b = B[ew_off(idx, ry, sb, rb)];
    ref[i] = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : a / b;
  }
  kt_call k;
  kt_init(&k, ew_ops[op]);
  kt_input(&k, 0, HOLO_DT_F32, ra, sa, A);
  kt_input(&k, 1, HOLO_DT_F32, rb, sb, B);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.call.alias_input, -1);
  assert_int_equal(k.out[0].rank, ry);
  for (uint32_t i = 0; i < ry; i++)
    assert_int_equal(k.out[0].shape[i], sy[i]);
  kt_close(k.out[0].data, ref, ny, 1e-6, 0);
  kt_free(&k);
  free(A);
  free(B);
  free(ref);
}

static void test_binary_f32_shapes(void **st) {
  (void)st;
  uint64_t seed = 5;
  for (int op = 0; op < 4; op++) {
    static const int64_t sizes[] = {1, 3, 7, 17, 63, 65};
    for (int i = 0; i < 6; i++) {
      int64_t s[1] = {sizes[i]};
      ew_check_f32(op, 1, s, 1, s, 1, s, seed++);
    }
    int64_t a[3] = {2, 3, 17}, b[1] = {17}, c[3] = {2, 1, 17}, d[2] = {3, 1}, y3[3] = {2, 3, 17};
    ew_check_f32(op, 3, a, 1, b, 3, y3, seed++);
    ew_check_f32(op, 1, b, 3, a, 3, y3, seed++);
    ew_check_f32(op, 3, c, 2, d, 3, y3, seed++);
    ew_check_f32(op, 2, d, 3, c, 3, y3, seed++);
    ew_check_f32(op, 0, NULL, 3, a, 3, y3, seed++); /* scalar operand */
    ew_check_f32(op, 0, NULL, 0, NULL, 0, NULL, seed++);
    int64_t e[4] = {1, 7, 1, 65}, f[4] = {3, 1, 5, 1}, y4[4] = {3, 7, 5, 65};
    ew_check_f32(op, 4, e, 4, f, 4, y4, seed++);
    int64_t z[2] = {0, 3}, o[1] = {3}, z1[2] = {1, 3}, yz[2] = {0, 3};
    ew_check_f32(op, 2, z, 1, o, 2, yz, seed++); /* empty output */
    ew_check_f32(op, 2, z1, 2, z, 2, yz, seed++);
    /* the walk's merged dims (common/bcast.c): per-channel NCHW (squeeze-
     * excite), a channel bias, a row vector, dims of 1 anywhere, a plane
     * broadcast over the channels */
    int64_t x4[4] = {2, 5, 3, 7}, pc[4] = {2, 5, 1, 1}, cb[3] = {5, 1, 1}, rw[1] = {7}, pl[3] = {1, 3, 7};
    ew_check_f32(op, 4, x4, 4, pc, 4, x4, seed++);
    ew_check_f32(op, 4, pc, 4, x4, 4, x4, seed++);
    ew_check_f32(op, 4, x4, 3, cb, 4, x4, seed++);
    ew_check_f32(op, 4, x4, 1, rw, 4, x4, seed++);
    ew_check_f32(op, 3, pl, 4, x4, 4, x4, seed++);
    int64_t u1[5] = {3, 1, 4, 1, 9}, u2[5] = {1, 1, 4, 1, 1}, u3[3] = {1, 1, 9};
    ew_check_f32(op, 5, u1, 5, u1, 5, u1, seed++);
    ew_check_f32(op, 5, u1, 5, u2, 5, u1, seed++);
    ew_check_f32(op, 3, u3, 5, u1, 5, u1, seed++);
    ew_check_f32(op, 5, u2, 3, u3, 5, (int64_t[5]){1, 1, 4, 1, 9}, seed++);
  }
}

static void test_binary_f32_ieee(void **st) {
  (void)st;
  float a[4] = {1.0f, -1.0f, 0.0f, NAN}, b[4] = {0.0f, 0.0f, 0.0f, 1.0f};
  int64_t s[1] = {4};
  kt_call k;
  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, a);
  kt_input(&k, 1, HOLO_DT_F32, 1, s, b);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float *y = k.out[0].data;
  assert_true(isinf(y[0]) && y[0] > 0);
  assert_true(isinf(y[1]) && y[1] < 0);
  assert_true(isnan(y[2]) && isnan(y[3]));
  kt_free(&k);
}

static void test_binary_int(void **st) {
  (void)st;
  int32_t a32[6] = {7, -7, 7, -7, INT32_MIN, INT32_MAX}, b32[6] = {2, 2, -2, -2, -1, 1};
  int64_t a64[6] = {7, -7, 7, -7, INT64_MIN, INT64_MAX}, b64[6] = {2, 2, -2, -2, -1, 1};
  int64_t s[1] = {6};
  int32_t want_div32[6] = {3, -3, -3, 3, INT32_MIN, INT32_MAX};
  int32_t want_add32[6] = {9, -5, 5, -9, INT32_MAX, INT32_MIN};
  int64_t want_div64[6] = {3, -3, -3, 3, INT64_MIN, INT64_MAX};
  int64_t want_mul64[6] = {14, -14, -14, 14, INT64_MIN, INT64_MAX};
  kt_call k;

  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_I32, 1, s, a32);
  kt_input(&k, 1, HOLO_DT_I32, 1, s, b32);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, HOLO_DT_I32);
  assert_memory_equal(k.out[0].data, want_div32, sizeof want_div32);
  kt_free(&k);

  kt_init(&k, "Add"); /* wraps */
  kt_input(&k, 0, HOLO_DT_I32, 1, s, a32);
  kt_input(&k, 1, HOLO_DT_I32, 1, s, b32);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, want_add32, sizeof want_add32);
  kt_free(&k);

  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_I64, 1, s, a64);
  kt_input(&k, 1, HOLO_DT_I64, 1, s, b64);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, HOLO_DT_I64);
  assert_memory_equal(k.out[0].data, want_div64, sizeof want_div64);
  kt_free(&k);

  kt_init(&k, "Mul");
  kt_input(&k, 0, HOLO_DT_I64, 1, s, a64);
  kt_input(&k, 1, HOLO_DT_I64, 1, s, b64);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, want_mul64, sizeof want_mul64);
  kt_free(&k);

  /* broadcast i64: [2,3] - [3] */
  int64_t m[6] = {10, 20, 30, 40, 50, 60}, v[3] = {1, 2, 3}, s23[2] = {2, 3}, s3[1] = {3};
  int64_t want[6] = {9, 18, 27, 39, 48, 57};
  kt_init(&k, "Sub");
  kt_input(&k, 0, HOLO_DT_I64, 2, s23, m);
  kt_input(&k, 1, HOLO_DT_I64, 1, s3, v);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, want, sizeof want);
  kt_free(&k);

  /* division by zero is an error value from run */
  int32_t z[6] = {1, 2, 0, 4, 5, 6};
  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_I32, 1, s, a32);
  kt_input(&k, 1, HOLO_DT_I32, 1, s, z);
  assert_int_equal(kt_exec(&k), HOLO_ERR_KERNEL);
  assert_non_null(strstr(k.msg, "Div"));
  kt_free(&k);
  int64_t z64[1] = {0}, s1[1] = {1};
  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_I64, 1, s, a64);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, z64);
  assert_int_equal(kt_exec(&k), HOLO_ERR_KERNEL);
  assert_non_null(strstr(k.msg, "division by zero"));
  kt_free(&k);
}

static void test_binary_refusals(void **st) {
  (void)st;
  float buf[64] = {0};
  int64_t s3[1] = {3}, s4[1] = {4}, s23[2] = {2, 3}, s32[2] = {3, 2};
  kt_call k;
  for (int op = 0; op < 4; op++) {
    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s3, buf);
    kt_input(&k, 1, HOLO_DT_F32, 1, s4, buf);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, ew_ops[op]);

    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 2, s23, buf);
    kt_input(&k, 1, HOLO_DT_F32, 2, s32, buf);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, ew_ops[op]);

    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s3, buf);
    kt_input(&k, 1, HOLO_DT_I32, 1, s3, buf);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, ew_ops[op]);

    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_BOOL, 1, s3, buf);
    kt_input(&k, 1, HOLO_DT_BOOL, 1, s3, buf);
    kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, ew_ops[op]);

    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_F16, 1, s3, buf);
    kt_input(&k, 1, HOLO_DT_F16, 1, s3, buf);
    kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, ew_ops[op]);

    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s3, buf);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, ew_ops[op]);

    kt_init(&k, ew_ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s3, buf);
    kt_input(&k, 1, HOLO_DT_F32, 1, s3, buf);
    k.call.n_outputs = 0;
    kt_expect_fail(&k, HOLO_ERR_KERNEL, ew_ops[op]);
  }
}

/* ---- unary ---- */

static void ew_check_unary(const char *op, double (*ref)(double), size_t n, uint64_t seed) {
  float *x = malloc(n * 4 + 4);
  double *want = malloc(n * 8 + 8);
  kt_fill(x, n, &seed, -12, 12);
  for (size_t i = 0; i < n; i++)
    want[i] = ref(x[i]);
  int64_t s[2] = {1, (int64_t)n};
  kt_call k;
  kt_init(&k, op);
  kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 2);
  assert_int_equal(k.out[0].shape[1], (int64_t)n);
  kt_close(k.out[0].data, want, n, 2e-7, 1e-30);
  kt_free(&k);
  free(x);
  free(want);
}

static double ew_relu(double x) { return x < 0 ? 0 : x; }
static double ew_sigmoid(double x) { return 1 / (1 + exp(-x)); }

static void test_unary(void **st) {
  (void)st;
  static const size_t sizes[] = {1, 3, 7, 17, 63, 65, 1000};
  for (int i = 0; i < 7; i++) {
    ew_check_unary("Relu", ew_relu, sizes[i], 40 + i);
    ew_check_unary("Sigmoid", ew_sigmoid, sizes[i], 50 + i);
    ew_check_unary("Tanh", tanh, sizes[i], 60 + i);
  }
  float x[6] = {NAN, INFINITY, -INFINITY, -0.0f, 1e30f, -1e30f};
  int64_t s[1] = {6};
  const char *ops[3] = {"Relu", "Sigmoid", "Tanh"};
  const float want[3][6] = {{NAN, INFINITY, 0.0f, -0.0f, 1e30f, 0.0f},
                            {NAN, 1.0f, 0.0f, 0.5f, 1.0f, 0.0f},
                            {NAN, 1.0f, -1.0f, -0.0f, 1.0f, -1.0f}};
  for (int o = 0; o < 3; o++) {
    kt_call k;
    kt_init(&k, ops[o]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    float *y = k.out[0].data;
    assert_true(isnan(y[0]));
    for (int i = 1; i < 6; i++)
      assert_true(y[i] == want[o][i]);
    kt_free(&k);
    /* rank 0 and empty tensors */
    float one = -2.0f;
    kt_init(&k, ops[o]);
    kt_input(&k, 0, HOLO_DT_F32, 0, NULL, &one);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].rank, 0);
    kt_free(&k);
    int64_t z[2] = {4, 0};
    kt_init(&k, ops[o]);
    kt_input(&k, 0, HOLO_DT_F32, 2, z, NULL);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].bytes, 0);
    kt_free(&k);
    /* refusals */
    kt_init(&k, ops[o]);
    kt_input(&k, 0, HOLO_DT_I64, 1, s, x);
    kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, ops[o]);
    kt_init(&k, ops[o]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
    kt_input(&k, 1, HOLO_DT_F32, 1, s, x);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, ops[o]);
  }
}

/* ---- softmax ---- */

static void ew_check_softmax(uint32_t r, const int64_t *s, int64_t axis, bool set_axis, uint64_t seed) {
  size_t n = kt_numel(r, s);
  float *x = malloc(n * 4 + 4);
  double *want = malloc(n * 8 + 8);
  kt_fill(x, n, &seed, -30, 30);
  uint32_t ax = (uint32_t)(axis < 0 ? axis + r : axis);
  size_t outer = kt_numel(ax, s), len = (size_t)s[ax], inner = kt_numel(r - ax - 1, s + ax + 1);
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      double mx = -INFINITY, sum = 0;
      for (size_t i = 0; i < len; i++)
        mx = fmax(mx, x[(o * len + i) * inner + in]);
      for (size_t i = 0; i < len; i++)
        sum += exp(x[(o * len + i) * inner + in] - mx);
      for (size_t i = 0; i < len; i++)
        want[(o * len + i) * inner + in] = exp(x[(o * len + i) * inner + in] - mx) / sum;
    }
  kt_call k;
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_F32, r, s, x);
  if (set_axis) kt_attr_int(&k, "axis", axis);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  kt_close(k.out[0].data, want, n, 1e-5, 1e-12);
  kt_free(&k);
  free(x);
  free(want);
}

static void test_softmax(void **st) {
  (void)st;
  static const int64_t sizes[] = {1, 3, 7, 17, 63, 65};
  for (int i = 0; i < 6; i++) {
    int64_t s[3] = {sizes[i], sizes[(i + 2) % 6], 5};
    ew_check_softmax(3, s, -1, false, 70 + i);
    ew_check_softmax(3, s, 0, true, 80 + i);
    ew_check_softmax(3, s, 1, true, 90 + i);
    ew_check_softmax(3, s, -2, true, 100 + i);
    ew_check_softmax(3, s, -3, true, 110 + i);
  }
  int64_t s1[1] = {1000};
  ew_check_softmax(1, s1, 0, true, 5);
  /* NaN poisons its row only; +-inf rows behave like numpy (NaN) */
  float x[6] = {1, NAN, 2, 1000, 1000, -1000};
  int64_t s23[2] = {2, 3};
  kt_call k;
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float *y = k.out[0].data;
  assert_true(isnan(y[0]) && isnan(y[1]) && isnan(y[2]));
  assert_true(y[3] == 0.5f && y[4] == 0.5f && y[5] == 0.0f);
  kt_free(&k);
  /* refusals */
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_attr_int(&k, "axis", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Softmax");
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_attr_int(&k, "axis", -3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Softmax");
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_F32, 0, NULL, x);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Softmax");
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_I32, 2, s23, x);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Softmax");
  /* an empty tensor along another axis */
  int64_t z[2] = {0, 4};
  kt_init(&k, "Softmax");
  kt_input(&k, 0, HOLO_DT_F32, 2, z, NULL);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  kt_free(&k);
}

/* The narrow, unsigned and f64 forms of Add..Div: wrapping in the dtype
 * (u16 * u16 must not overflow an int), signed INT8_MIN / -1, an unsigned
 * divisor of all ones (not a "-1"), and an integer zero divisor refused. */
static void test_binary_dtypes(void **st) {
  (void)st;
  int64_t s3[1] = {3};
  uint16_t a16[3] = {65535, 300, 7}, b16[3] = {65535, 300, 2};
  const uint16_t mul16[3] = {1, (uint16_t)(300 * 300), 14};
  int8_t a8[3] = {INT8_MIN, 100, -7}, b8[3] = {-1, 100, 2};
  const int8_t div8[3] = {INT8_MIN, 1, -3}, add8[3] = {127, -56, -5};
  uint32_t a32[3] = {UINT32_MAX, 5, 9}, b32[3] = {UINT32_MAX, UINT32_MAX, 4};
  const uint32_t div32[3] = {1, 0, 2};
  double af[3] = {0.1, -2, 1e308}, bf[3] = {0.2, 0, 10};
  struct {
    const char *op;
    uint32_t dt;
    const void *a, *b, *want;
    size_t bytes;
  } cases[] = {
      {"Mul", HOLO_DT_U16, a16, b16, mul16, 6},
      {"Div", HOLO_DT_I8, a8, b8, div8, 3},
      {"Add", HOLO_DT_I8, a8, b8, add8, 3},
      {"Div", HOLO_DT_U32, a32, b32, div32, 12},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    kt_call k;
    kt_init(&k, cases[i].op);
    kt_input(&k, 0, cases[i].dt, 1, s3, cases[i].a);
    kt_input(&k, 1, cases[i].dt, 1, s3, cases[i].b);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].dtype, cases[i].dt);
    assert_memory_equal(k.out[0].data, cases[i].want, cases[i].bytes);
    kt_free(&k);
  }
  kt_call k;
  kt_init(&k, "Add");
  kt_input(&k, 0, HOLO_DT_F64, 1, s3, af);
  kt_input(&k, 1, HOLO_DT_F64, 1, s3, bf);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const double *y = k.out[0].data;
  assert_true(y[0] == 0.1 + 0.2 && y[1] == -2 && y[2] == 1e308 + 10);
  kt_free(&k);
  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_F64, 1, s3, af);
  kt_input(&k, 1, HOLO_DT_F64, 1, s3, bf);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_true(isinf(((double *)k.out[0].data)[1]));
  kt_free(&k);
  uint8_t u[3] = {1, 0, 2};
  kt_init(&k, "Div");
  kt_input(&k, 0, HOLO_DT_U8, 1, s3, u);
  kt_input(&k, 1, HOLO_DT_U8, 1, s3, u);
  assert_int_equal(kt_exec(&k), HOLO_ERR_KERNEL);
  assert_non_null(strstr(k.msg, "division by zero"));
  kt_free(&k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_binary_f32_shapes), cmocka_unit_test(test_binary_f32_ieee),
      cmocka_unit_test(test_binary_int),        cmocka_unit_test(test_binary_refusals),
      cmocka_unit_test(test_binary_dtypes),     cmocka_unit_test(test_unary),
      cmocka_unit_test(test_softmax),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
