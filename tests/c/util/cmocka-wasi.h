/* A cmocka-compatible subset for the wasm32-wasi builds of the C suites
 * (tests/wasm-tests.mk puts a generated <cmocka.h> that includes this file
 * first on the include path; native builds use the real cmocka).
 *
 * Exactly what tests/c uses: struct CMUnitTest, cmocka_unit_test,
 * cmocka_run_group_tests (group setup/teardown), assert_{int,string,memory}_
 * {equal,not_equal}, assert_true/false, assert_(non_)null, fail, fail_msg,
 * print_message. Output follows cmocka's format ("[ RUN      ]",
 * "[  PASSED  ] N test(s).", "[  FAILED  ] N test(s), listed below:").
 *
 * WASI has no setjmp without exception handling, so a failed assertion
 * cannot unwind to the runner: it prints cmocka's failure lines for the
 * current test and exits the process with status 1 (docs/decisions.md).
 * tools/wasi-test-run.mjs then starts a fresh instance at the next test
 * (HOLO_CM_FIRST), so one failure neither hides the rest nor passes.
 *
 * HOLO_CM_SKIP (compile-time, "a,b"): tests that cannot run under WASI,
 * listed with their reason in tests/wasm-tests.mk; reported as skipped,
 * never as passed. The POSIX calls WASI lacks (fork, pipe, popen, system,
 * mkstemp, mkdtemp) fail the calling test loudly, so a new test that needs
 * them shows up as a failure until it is listed. */
#ifndef HOLO_CMOCKA_WASI_H
#define HOLO_CMOCKA_WASI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
  const char *name;
  CMUnitTestFunction test_func;
  CMFixtureFunction setup_func;
  CMFixtureFunction teardown_func;
  void *initial_state;
};

#define cmocka_unit_test(f)                                                                                  \
  { #f, f, NULL, NULL, NULL }

/* The run's state, shared by every TU of a test binary (weak: each TU that
 * includes this header defines it; the linker keeps one). */
__attribute__((weak)) const char *holo_cm_current;
__attribute__((weak)) size_t holo_cm_passed;
__attribute__((weak)) int holo_cm_under_runner;

__attribute__((noreturn)) static inline void holo_cm_exit_failed(void) {
  const char *name = holo_cm_current ? holo_cm_current : "(outside a test)";
  printf("[  FAILED  ] %s\n", name);
  /* standalone, the summary counts this failure; the runner sums instances */
  if (!holo_cm_under_runner)
    printf("[  PASSED  ] %zu test(s).\n[  FAILED  ] 1 test(s), listed below:\n[  FAILED  ] %s\n",
           holo_cm_passed, name);
  fflush(stdout);
  fflush(stderr);
  exit(1);
}

__attribute__((noreturn, format(printf, 3, 4))) static inline void holo_cm_fail(const char *file, int line,
                                                                                const char *fmt, ...) {
  printf("[  ERROR   ] --- ");
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n[   LINE   ] --- %s:%d: error: Failure!\n", file, line);
  holo_cm_exit_failed();
}

static inline void holo_cm_int(uintmax_t a, uintmax_t b, int want_eq, const char *file, int line) {
  if ((a == b) != want_eq)
    holo_cm_fail(file, line, "%jd (%#jx) %s %jd (%#jx)", (intmax_t)a, a, want_eq ? "!=" : "==", (intmax_t)b,
                 b);
}

static inline void holo_cm_true(int c, int want, const char *expr, const char *file, int line) {
  if (!c != !want) holo_cm_fail(file, line, "%s", expr);
}

static inline void holo_cm_str(const char *a, const char *b, int want_eq, const char *file, int line) {
  int eq = (a && b) ? strcmp(a, b) == 0 : a == b;
  if (eq != want_eq)
    holo_cm_fail(file, line, "\"%s\" %s \"%s\"", a ? a : "(null)", want_eq ? "!=" : "==", b ? b : "(null)");
}

static inline void holo_cm_mem(const void *a, const void *b, size_t n, int want_eq, const char *file,
                               int line) {
  if (!a || !b) holo_cm_fail(file, line, "memory compare with a NULL pointer");
  const unsigned char *p = a, *q = b;
  size_t i = 0;
  while (i < n && p[i] == q[i])
    i++;
  if ((i == n) != want_eq) {
    if (want_eq)
      holo_cm_fail(file, line, "%zu bytes differ: first at offset %zu: 0x%02x != 0x%02x", n, i, p[i], q[i]);
    holo_cm_fail(file, line, "%zu bytes are equal", n);
  }
}

#define assert_int_equal(a, b) holo_cm_int((uintmax_t)(a), (uintmax_t)(b), 1, __FILE__, __LINE__)
#define assert_int_not_equal(a, b) holo_cm_int((uintmax_t)(a), (uintmax_t)(b), 0, __FILE__, __LINE__)
#define assert_true(c) holo_cm_true(!!(c), 1, #c, __FILE__, __LINE__)
#define assert_false(c) holo_cm_true(!!(c), 0, #c, __FILE__, __LINE__)
#define assert_non_null(p) holo_cm_true((p) != NULL, 1, #p " is NULL", __FILE__, __LINE__)
#define assert_null(p) holo_cm_true((p) == NULL, 1, #p " is not NULL", __FILE__, __LINE__)
#define assert_ptr_equal(a, b) holo_cm_true((const void *)(a) == (const void *)(b), 1, #a " != " #b, __FILE__, __LINE__)
#define assert_ptr_not_equal(a, b) holo_cm_true((const void *)(a) != (const void *)(b), 1, #a " == " #b, __FILE__, __LINE__)
#define assert_string_equal(a, b) holo_cm_str((a), (b), 1, __FILE__, __LINE__)
#define assert_string_not_equal(a, b) holo_cm_str((a), (b), 0, __FILE__, __LINE__)
#define assert_memory_equal(a, b, n) holo_cm_mem((a), (b), (n), 1, __FILE__, __LINE__)
#define assert_memory_not_equal(a, b, n) holo_cm_mem((a), (b), (n), 0, __FILE__, __LINE__)
#define fail() holo_cm_fail(__FILE__, __LINE__, "fail()")
#define fail_msg(...) holo_cm_fail(__FILE__, __LINE__, __VA_ARGS__)
#define print_message(...) printf(__VA_ARGS__)

/* POSIX calls WASI does not have: the calling test fails (see the top). */
__attribute__((noreturn)) static inline void holo_cm_no_posix(const char *fn, const char *file, int line) {
  holo_cm_fail(file, line, "%s() does not exist under WASI: list this test in tests/wasm-tests.mk", fn);
}
#define fork() (holo_cm_no_posix("fork", __FILE__, __LINE__), (pid_t)-1)
#define pipe(fd) ((void)(fd), holo_cm_no_posix("pipe", __FILE__, __LINE__), -1)
#define popen(c, m) ((void)(c), (void)(m), holo_cm_no_posix("popen", __FILE__, __LINE__), (FILE *)NULL)
#define pclose(p) ((void)(p), holo_cm_no_posix("pclose", __FILE__, __LINE__), -1)
#define system(c) ((void)(c), holo_cm_no_posix("system", __FILE__, __LINE__), -1)
#define mkstemp(p) ((void)(p), holo_cm_no_posix("mkstemp", __FILE__, __LINE__), -1)
#define mkdtemp(p) ((void)(p), holo_cm_no_posix("mkdtemp", __FILE__, __LINE__), (char *)NULL)

/* clang-19 has no _Float16 on wasm32; __fp16 is the same IEEE binary16 as
 * a storage type, converted with round-to-nearest-even (compiler-rt's
 * __truncsfhf2 / __extendhfsf2), which is all the suites do with it. */
#if defined(__wasm__) && !defined(__FLT16_MANT_DIG__)
#define _Float16 __fp16
#endif

#ifndef HOLO_CM_SKIP
#define HOLO_CM_SKIP ""
#endif

/* Whether name is an entry of the comma-separated list. */
static inline int holo_cm_listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (l == n && memcmp(p, name, n) == 0) return 1;
    p += l + (e ? 1 : 0);
  }
  return 0;
}

/* Every entry of the skip list must name a test of this suite: a stale
 * entry (a renamed test) would otherwise silently stop excluding anything. */
static inline void holo_cm_check_skips(const struct CMUnitTest *t, size_t n) {
  for (const char *p = HOLO_CM_SKIP; *p;) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p), i = 0;
    while (i < n && !(strlen(t[i].name) == l && memcmp(t[i].name, p, l) == 0))
      i++;
    if (i == n) {
      printf("[  ERROR   ] --- HOLO_CM_SKIP names %.*s, which is not a test of this suite\n", (int)l, p);
      holo_cm_exit_failed();
    }
    p += l + (e ? 1 : 0);
  }
}

static inline int holo_cm_run(const char *group, const struct CMUnitTest *t, size_t n, CMFixtureFunction gs,
                              CMFixtureFunction gt) {
  /* under tools/wasi-test-run.mjs: start at test HOLO_CM_FIRST and leave the
   * summary (over all instances) to the runner */
  const char *first_s = getenv("HOLO_CM_FIRST");
  size_t first = first_s ? (size_t)strtoul(first_s, NULL, 10) : 0, skipped = 0;
  holo_cm_under_runner = first_s != NULL;
  holo_cm_check_skips(t, n);
  void *gstate = NULL;
  printf("[==========] %s: Running %zu test(s).\n", group, n - (first < n ? first : n));
  if (gs && gs(&gstate)) {
    printf("[  ERROR   ] --- group setup failed\n");
    holo_cm_exit_failed();
  }
  for (size_t i = first; i < n; i++) {
    holo_cm_current = t[i].name;
    if (holo_cm_listed(HOLO_CM_SKIP, t[i].name)) {
      printf("[  SKIPPED ] %s\n", t[i].name);
      skipped++;
      continue;
    }
    printf("[ RUN      ] %s\n", t[i].name);
    fflush(stdout);
    void *state = t[i].initial_state ? t[i].initial_state : gstate;
    if (t[i].setup_func && t[i].setup_func(&state)) holo_cm_fail(__FILE__, __LINE__, "setup failed");
    t[i].test_func(&state);
    if (t[i].teardown_func && t[i].teardown_func(&state)) holo_cm_fail(__FILE__, __LINE__, "teardown failed");
    printf("[       OK ] %s\n", t[i].name);
    holo_cm_passed++;
  }
  holo_cm_current = NULL;
  if (gt && gt(&gstate)) {
    printf("[  ERROR   ] --- group teardown failed\n");
    holo_cm_exit_failed();
  }
  if (!first_s) {
    printf("[==========] %s: %zu test(s) run.\n[  PASSED  ] %zu test(s).\n", group, holo_cm_passed,
           holo_cm_passed);
    if (skipped) printf("[  SKIPPED ] %zu test(s)\n", skipped);
  }
  fflush(stdout);
  return 0;
}

#define cmocka_run_group_tests(tests, gs, gt)                                                                \
  holo_cm_run(#tests, (tests), sizeof(tests) / sizeof((tests)[0]), (gs), (gt))

#endif
