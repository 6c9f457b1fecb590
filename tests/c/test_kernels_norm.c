/* InstanceNormalization (operators/instancenorm.c) against a float64
 * reference: ranks 2 to 4, a zero-size spatial dim, serial = 2 threads byte
 * for byte, and the refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hologram/parallel.h"
#include "util/kernel_testutil.h"

static void in_setup(kt_call *k, uint32_t rank, const int64_t *s, const float *x, const float *sc,
                     const float *bi) {
  kt_init(k, "InstanceNormalization");
  kt_input(k, 0, HOLO_DT_F32, rank, s, x);
  kt_input(k, 1, HOLO_DT_F32, 1, s + 1, sc);
  kt_input(k, 2, HOLO_DT_F32, 1, s + 1, bi);
  kt_attr_float(k, "epsilon", 1e-2f);
}

static void in_check(uint32_t rank, const int64_t *s, uint64_t seed) {
  size_t nx = kt_numel(rank, s), C = (size_t)s[1], rows = (size_t)(s[0] * s[1]), n = rows ? nx / rows : 0;
  float *x = malloc(sizeof(float) * (nx + 1)), sc[64], bi[64];
  kt_fill(x, nx, &seed, -3, 5);
  kt_fill(sc, C, &seed, -2, 2);
  kt_fill(bi, C, &seed, -1, 1);
  double *ref = malloc(sizeof(double) * (nx + 1));
  for (size_t r = 0; r < rows && n; r++) {
    double m = 0, v = 0;
    for (size_t i = 0; i < n; i++)
      m += x[r * n + i];
    m /= (double)n;
    for (size_t i = 0; i < n; i++)
      v += (x[r * n + i] - m) * (x[r * n + i] - m);
    v /= (double)n;
    for (size_t i = 0; i < n; i++)
      ref[r * n + i] = (x[r * n + i] - m) / sqrt(v + (double)1e-2f) * sc[r % C] + bi[r % C];
  }
  kt_call a, b;
  in_setup(&a, rank, s, x, sc, bi);
  assert_int_equal(kt_exec(&a), HOLO_OK);
  kt_close(a.out[0].data, ref, nx, 1e-5, 1e-6);
  holo_pool *pool = holo_pool_create(2);
  assert_non_null(pool);
  in_setup(&b, rank, s, x, sc, bi);
  b.call.parallel_for = holo_pool_parallel_for, b.call.pctx = pool;
  assert_int_equal(kt_exec(&b), HOLO_OK);
  assert_memory_equal(a.out[0].data, b.out[0].data, nx * sizeof(float));
  holo_pool_destroy(pool);
  kt_free(&a), kt_free(&b);
  free(x), free(ref);
}

static void test_instancenorm(void **st) {
  (void)st;
  in_check(3, (int64_t[]){2, 3, 7}, 1);
  in_check(4, (int64_t[]){3, 40, 9, 17}, 2); /* 120 rows: several tasks */
  in_check(2, (int64_t[]){4, 5}, 3);         /* rows of one element: y = B */
  in_check(4, (int64_t[]){1, 2, 0, 3}, 4);   /* empty */
  in_check(3, (int64_t[]){0, 2, 5}, 5);      /* no batch */
}

static void test_instancenorm_refusals(void **st) {
  (void)st;
  float x[24] = {0}, sc[4] = {0}, bi[4] = {0};
  int64_t s[3] = {2, 3, 4}, four[1] = {4};
  kt_call k;
  in_setup(&k, 3, s, x, sc, bi);
  kt_input(&k, 1, HOLO_DT_F32, 1, four, sc);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "InstanceNormalization: scale[4] must be [3]");
  in_setup(&k, 3, s, x, sc, bi);
  kt_input(&k, 2, HOLO_DT_F32, 1, four, bi);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "InstanceNormalization: B[4]");
  in_setup(&k, 1, s, x, sc, bi);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "rank >= 2");
  in_setup(&k, 3, s, x, sc, bi);
  k.attrs[0].payload = (const uint8_t *)"\x00\x00\x80\xbf"; /* -1.0f */
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "epsilon");
  in_setup(&k, 3, s, x, sc, bi);
  kt_absent(&k, 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "InstanceNormalization");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_instancenorm),
      cmocka_unit_test(test_instancenorm_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
