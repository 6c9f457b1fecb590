/* The software double sqrt (kernels-wasm-simd/math/sqrt.c), which targets
 * without a double-precision FPU (Cortex-M4F: boards/mps2-an386) use in
 * place of libm's: bit for bit the hardware sqrt's result here. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "math/mathlib.h"

static uint64_t bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

static double from_bits(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* NaN results compare as NaN (their payload is the target's choice). */
static void check(double x) {
  double want = sqrt(x), got = holo_sqrt_soft(x);
  if (isnan(want)) {
    if (!isnan(got)) fail_msg("sqrt(%a): %a, want NaN", x, got);
    return;
  }
  if (bits(got) != bits(want)) fail_msg("sqrt(%a) = %a, want %a", x, got, want);
}

static void edge_values(void **st) {
  (void)st;
  const double v[] = {0.0,           -0.0,
                      1.0,           2.0,
                      3.0,           4.0,
                      0.25,          1e-300,
                      1e300,         INFINITY,
                      -INFINITY,     NAN,
                      -1.0,          -1e-310,
                      2.0 - 0x1p-51, 4.0 - 0x1p-50,
                      1.0 + 0x1p-52, 0x1p-1074,
                      0x1p-1073,     0x1.fffffffffffffp-1023,
                      0x1p-1022,     0x1.fffffffffffffp+1023};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
    check(v[i]);
  /* every exponent, both parities, mantissa all-zero and all-one */
  for (uint64_t e = 0; e < 2047; e++) {
    check(from_bits(e << 52));
    check(from_bits((e << 52) | ((1ull << 52) - 1)));
    check(from_bits((e << 52) | 1));
  }
  /* exact squares and their neighbours (the rounding boundary) */
  for (uint64_t k = 1; k < 200000; k += 7) {
    double s = (double)k * (double)k * 0x1p-40;
    check(s);
    check(nextafter(s, 0));
    check(nextafter(s, INFINITY));
  }
}

static void random_bit_patterns(void **st) {
  (void)st;
  uint64_t z = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < 2000000; i++) {
    z ^= z << 13, z ^= z >> 7, z ^= z << 17;
    check(from_bits(z));
    check(from_bits(z >> 12)); /* subnormals */
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(edge_values), cmocka_unit_test(random_bit_patterns)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
