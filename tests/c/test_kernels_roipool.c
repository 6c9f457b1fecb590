/* holo.RoiPoolMax (kernels-wasm-simd/operators/roipool.c), MaxRoiPool's
 * window maxima, through the table: windows given by hand against the
 * maxima computed here, an empty window (0), onnxruntime's std::max order
 * with a NaN, and every refusal. The geometry is the converter's
 * (tests/js/detect.test.mjs checks it against onnxruntime). */
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

static float x[2 * 2 * 4 * 5];
static const int64_t xs[4] = {2, 2, 4, 5};

static void setup(kt_call *k, const int64_t *b, const int64_t *rows, const int64_t *cols, int64_t R, int64_t ph,
                  int64_t pw) {
  static int64_t bs[1], hs[3], ws[3];
  bs[0] = R, hs[0] = R, hs[1] = ph, hs[2] = 2, ws[0] = R, ws[1] = pw, ws[2] = 2;
  kt_init(k, "holo.RoiPoolMax");
  kt_input(k, 0, HOLO_DT_F32, 4, xs, x);
  kt_input(k, 1, HOLO_DT_I64, 1, bs, b);
  kt_input(k, 2, HOLO_DT_I64, 3, hs, rows);
  kt_input(k, 3, HOLO_DT_I64, 3, ws, cols);
}

static void test_roipoolmax_values(void **state) {
  (void)state;
  for (int i = 0; i < 80; i++) x[i] = (float)((i * 37) % 23) - 11.0f;
  /* roi 0: image 1, rows [0,2) [1,4), cols [0,5) [2,2) (empty); roi 1: image 0, one bin */
  const int64_t b[2] = {1, 0}, rows[8] = {0, 2, 1, 4, 1, 3, 1, 3}, cols[8] = {0, 5, 2, 2, 3, 4, 3, 4};
  kt_call k;
  setup(&k, b, rows, cols, 2, 2, 2);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  double want[16];
  for (int n = 0; n < 2; n++)
    for (int c = 0; c < 2; c++)
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
          const int64_t *r = rows + 4 * n + 2 * i, *q = cols + 4 * n + 2 * j;
          double m = r[1] <= r[0] || q[1] <= q[0] ? 0.0 : -INFINITY;
          for (int64_t h = r[0]; h < r[1]; h++)
            for (int64_t w = q[0]; w < q[1]; w++) m = fmax(m, x[((b[n] * 2 + c) * 4 + h) * 5 + w]);
          want[((n * 2 + c) * 2 + i) * 2 + j] = m;
        }
  kt_close(k.out[0].data, want, 16, 0.0, 0.0);
  assert_true(((const float *)k.out[0].data)[1] == 0.0f); /* the empty window */
  kt_free(&k);
  /* y = x < y ? y : x: a NaN replaces the running max, the next number replaces the NaN */
  x[0] = 5.0f, x[1] = NAN, x[2] = -7.0f;
  const int64_t b0[1] = {0}, r1[2] = {0, 1}, c2[2] = {0, 2}, c3[2] = {0, 3};
  setup(&k, b0, r1, c2, 1, 1, 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_true(isnan(((const float *)k.out[0].data)[0]));
  kt_free(&k);
  setup(&k, b0, r1, c3, 1, 1, 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_true(((const float *)k.out[0].data)[0] == -7.0f);
  kt_free(&k);
}

static void test_roipoolmax_refusals(void **state) {
  (void)state;
  const int64_t ok[1] = {0}, m1[1] = {-1}, two[1] = {2}, r[2] = {0, 4}, r5[2] = {0, 5}, c[2] = {0, 5}, c6[2] = {0, 6},
                neg[2] = {-1, 2};
  const int64_t *cases[5][3] = {{m1, r, c}, {two, r, c}, {ok, r5, c}, {ok, r, c6}, {ok, neg, c}};
  for (int i = 0; i < 5; i++) {
    kt_call k;
    setup(&k, cases[i][0], cases[i][1], cases[i][2], 1, 1, 1);
    kt_expect_fail(&k, HOLO_ERR_KERNEL, "MaxRoiPool");
    kt_free(&k);
  }
  kt_call k;
  setup(&k, ok, r, c, 1, 1, 1);
  static const int64_t bad[3] = {1, 1, 3}, three[3] = {0, 4, 4}; /* a window of three values */
  kt_input(&k, 2, HOLO_DT_I64, 3, bad, three);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "MaxRoiPool");
  kt_free(&k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_roipoolmax_values),
      cmocka_unit_test(test_roipoolmax_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
