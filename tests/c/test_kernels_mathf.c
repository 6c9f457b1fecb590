/* The libm-free float functions against glibc's libm. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "math/mathlib.h"

/* Distance in representable floats; huge when signs or NaN-ness differ. */
static int64_t mf_ulps(float a, float b) {
  if (isnan(a) || isnan(b)) return (isnan(a) && isnan(b)) ? 0 : INT64_MAX;
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  if (ia < 0) ia = INT32_MIN - ia;
  if (ib < 0) ib = INT32_MIN - ib;
  int64_t d = (int64_t)ia - ib;
  return d < 0 ? -d : d;
}

typedef float (*mf_fn)(float);

/* Sweeps [lo, hi] in n steps plus every float near a few points. */
static int64_t mf_sweep(mf_fn ours, double (*ref)(double), float lo, float hi, int n) {
  int64_t worst = 0;
  float worst_x = 0;
  for (int i = 0; i <= n; i++) {
    float x = lo + (hi - lo) * (float)i / (float)n;
    float want = (float)ref((double)x); /* correctly rounded in practice */
    int64_t u = mf_ulps(ours(x), want);
    if (u > worst) {
      worst = u;
      worst_x = x;
    }
  }
  if (worst > 1) fprintf(stderr, "worst %lld ulps at %.9g\n", (long long)worst, worst_x);
  return worst;
}

static double mf_sigmoid_ref(double x) { return 1.0 / (1.0 + exp(-x)); }

static void test_expf(void **st) {
  (void)st;
  assert_true(mf_sweep(holo_expf, exp, -110.0f, 90.0f, 2000003) <= 1);
  assert_true(mf_sweep(holo_expf, exp, -1e-3f, 1e-3f, 200001) <= 1);
  assert_true(isinf(holo_expf(100.0f)) && holo_expf(100.0f) > 0);
  assert_true(holo_expf(-100.0f) == (float)exp(-100.0));
  assert_true(holo_expf(-200.0f) == 0.0f);
  assert_true(holo_expf(INFINITY) == INFINITY);
  assert_true(holo_expf(-INFINITY) == 0.0f);
  assert_true(isnan(holo_expf(NAN)));
  assert_true(holo_expf(0.0f) == 1.0f);
  assert_true(holo_expf(88.72283f) == expf(88.72283f));
  /* denormal results */
  for (float x = -103.9f; x < -87.0f; x += 0.01f) assert_true(mf_ulps(holo_expf(x), (float)exp(x)) <= 1);
}

static void test_tanhf(void **st) {
  (void)st;
  assert_true(mf_sweep(holo_tanhf, tanh, -12.0f, 12.0f, 2000001) <= 1);
  assert_true(mf_sweep(holo_tanhf, tanh, -0.07f, 0.07f, 200001) <= 1);
  assert_true(mf_sweep(holo_tanhf, tanh, -1e-6f, 1e-6f, 20001) <= 1);
  assert_true(holo_tanhf(INFINITY) == 1.0f);
  assert_true(holo_tanhf(-INFINITY) == -1.0f);
  assert_true(holo_tanhf(1e30f) == 1.0f);
  assert_true(isnan(holo_tanhf(NAN)));
  assert_true(holo_tanhf(1e-40f) == 1e-40f);
  assert_true(signbit(holo_tanhf(-0.0f)));
}

static void test_sigmoidf(void **st) {
  (void)st;
  assert_true(mf_sweep(holo_sigmoidf, mf_sigmoid_ref, -120.0f, 40.0f, 2000001) <= 1);
  assert_true(holo_sigmoidf(INFINITY) == 1.0f);
  assert_true(holo_sigmoidf(-INFINITY) == 0.0f);
  assert_true(holo_sigmoidf(0.0f) == 0.5f);
  assert_true(isnan(holo_sigmoidf(NAN)));
  assert_true(holo_sigmoidf(-200.0f) == 0.0f);
}

static void test_erff(void **st) {
  (void)st;
  assert_true(mf_sweep(holo_erff, erf, -6.0f, 6.0f, 2000001) <= 1);
  assert_true(mf_sweep(holo_erff, erf, -1e-3f, 1e-3f, 20001) <= 1);
  assert_true(holo_erff(INFINITY) == 1.0f);
  assert_true(holo_erff(-INFINITY) == -1.0f);
  assert_true(isnan(holo_erff(NAN)));
  assert_true(holo_erff(0.0f) == 0.0f);
  assert_true(signbit(holo_erff(-0.0f)));
}

static void test_logf(void **st) {
  (void)st;
  assert_true(mf_sweep(holo_logf, log, 1e-6f, 10.0f, 2000001) <= 1);
  assert_true(mf_sweep(holo_logf, log, 0.9f, 1.1f, 200001) <= 1);
  assert_true(mf_sweep(holo_logf, log, 1.0f, 3e38f, 200001) <= 1);
  assert_true(mf_ulps(holo_logf(1e-40f), (float)log(1e-40)) <= 1);
  assert_true(holo_logf(0.0f) == -INFINITY);
  assert_true(isnan(holo_logf(-1.0f)));
  assert_true(isnan(holo_logf(NAN)));
  assert_true(holo_logf(INFINITY) == INFINITY);
  assert_true(holo_logf(1.0f) == 0.0f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expf),  cmocka_unit_test(test_tanhf), cmocka_unit_test(test_sigmoidf),
      cmocka_unit_test(test_erff),  cmocka_unit_test(test_logf),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
