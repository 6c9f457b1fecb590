/* The `holo` program's one parser of numeric flag values (wasi/cli-num.c,
 * compiled in here): every string a bare strtoul/strtof would have turned
 * into a number the user never wrote is refused, the edges of each range
 * are taken (ASan+UBSan). tests/js/wasi.test.mjs drives it through the
 * programs, flag by flag. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../wasi/cli-io.c"
#include "../../wasi/cli-num.c"

static void integers(void **st) {
  (void)st;
  static const char *bad[] = {"",
                              "abc",
                              "-1",
                              "+1",
                              " 1",
                              "1 ",
                              "12x",
                              "0x10",
                              "1e3",
                              "1.5",
                              "1,",
                              "-0",
                              "\t7",
                              "١",
                              "18446744073709551616",
                              "99999999999999999999999"};
  uint64_t u;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (cli_parse_u64(bad[i], &u, false)) fail_msg("accepted '%s' as %llu", bad[i], (unsigned long long)u);
  assert_false(cli_parse_u64(0, &u, false));
  assert_true(cli_parse_u64("0", &u, false) && u == 0);
  assert_true(cli_parse_u64("007", &u, false) && u == 7);
  assert_true(cli_parse_u64("18446744073709551615", &u, false) && u == UINT64_MAX);
  /* byte suffixes only where asked for, and no overflow through them */
  assert_false(cli_parse_u64("64m", &u, false));
  assert_true(cli_parse_u64("64m", &u, true) && u == 64u << 20);
  assert_true(cli_parse_u64("2GiB", &u, true) && u == 2ull << 30);
  assert_true(cli_parse_u64("3kB", &u, true) && u == 3u << 10);
  assert_false(cli_parse_u64("1q", &u, true));
  assert_false(cli_parse_u64("1mm", &u, true));
  assert_false(cli_parse_u64("17179869184g", &u, true)); /* 2^34 GiB = 2^64 */
}

static void reals(void **st) {
  (void)st;
  static const char *bad[] = {"",      "abc",  "nan",   "NaN",    "inf",    "-inf", "+Infinity",
                              "0x1p3", "1.0x", " 1",    "1 ",     ".",      "-",    "-.",
                              "1e",    "e5",   "1e999", "-1e999", "1e-400", "1,5"};
  double d;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (cli_parse_f64(bad[i], &d)) fail_msg("accepted '%s' as %g", bad[i], d);
  assert_true(cli_parse_f64(".5", &d) && d == 0.5);
  assert_true(cli_parse_f64("-0", &d) && d == 0 && signbit(d));
  assert_true(cli_parse_f64("+2.5e-1", &d) && d == 0.25);
  assert_true(cli_parse_f64("1e300", &d) && d == 1e300);
}

static void flag_ranges(void **st) {
  (void)st;
  float f = -7;
  uint32_t u = 9;
  /* bounds: open and closed, and a double that does not fit a float */
  assert_int_equal(cli_flag_f32("--top-p", "0", 0, 1, true, false, &f), CLI_USAGE);
  assert_int_equal(cli_flag_f32("--top-p", "1", 0, 1, true, false, &f), 0);
  assert_true(f == 1.0f);
  assert_int_equal(cli_flag_f32("--min-p", "1", 0, 1, false, true, &f), CLI_USAGE);
  assert_int_equal(cli_flag_f32("--min-p", "0", 0, 1, false, true, &f), 0);
  assert_int_equal(cli_flag_f32("--temperature", "1e39", 0, HUGE_VAL, false, false, &f), CLI_USAGE);
  assert_int_equal(cli_flag_f32("--temperature", "3.4e38", 0, HUGE_VAL, false, false, &f), 0);
  assert_int_equal(cli_flag_f32("--frequency-penalty", "-2", -HUGE_VAL, HUGE_VAL, false, false, &f), 0);
  assert_true(f == -2.0f);
  assert_int_equal(cli_flag_u32("--k", "0", 1, 64, &u), CLI_USAGE);
  assert_int_equal(cli_flag_u32("--k", "65", 1, 64, &u), CLI_USAGE);
  assert_int_equal(u, 9); /* untouched on refusal */
  assert_int_equal(cli_flag_u32("--k", "64", 1, 64, &u), 0);
  assert_int_equal(u, 64);
  assert_int_equal(cli_flag_u32("--top-k", "4294967295", 0, UINT32_MAX, &u), 0);
  assert_int_equal(u, UINT32_MAX);
  assert_int_equal(cli_flag_u32("--top-k", "4294967296", 0, UINT32_MAX, &u), CLI_USAGE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(integers),
      cmocka_unit_test(reals),
      cmocka_unit_test(flag_ranges),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
