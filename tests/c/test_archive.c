/* The .holo reader against the committed vectors: every good vector loads,
 * every bad one is refused with its expected message, every truncation and
 * thousands of single-byte corruptions are refused or load cleanly (under
 * ASan/UBSan: no crash, no leak, no hang). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "archive.h"
#include "hologram/cpu_backend.h"
#include "holo-std.h"

static const holo_allocator *A;

static int each_file(const char *dir, const char *ext, void (*fn)(const char *path)) {
  DIR *d = opendir(dir);
  assert_non_null(d);
  struct dirent *e;
  int n = 0;
  char path[1024];
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name), el = strlen(ext);
    if (l <= el || strcmp(e->d_name + l - el, ext) != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    fn(path);
    n++;
  }
  closedir(d);
  return n;
}

static void good_one(const char *path) {
  uint8_t *b;
  size_t n;
  holo_error err = {0};
  holo_archive ar;
  assert_int_equal(holo_read_file(path, &b, &n, &err), HOLO_OK);
  holo_status st = holo_archive_parse(b, n, A, &ar, &err);
  if (st) fail_msg("%s: %s", path, err.message);
  holo_archive_release(&ar, A);
  free(b);
}

static void good_vectors(void **st) {
  (void)st;
  assert_true(each_file("tests/vectors", ".holo", good_one) >= 10);
  assert_true(each_file("tests/fixtures", ".holo", good_one) >= 5);
}

static void bad_one(const char *path) {
  char expect_path[1024], expect[256] = {0};
  snprintf(expect_path, sizeof expect_path, "%.*s.expect", (int)(strlen(path) - 5), path);
  FILE *f = fopen(expect_path, "r");
  assert_non_null(f);
  assert_non_null(fgets(expect, sizeof expect, f));
  fclose(f);
  expect[strcspn(expect, "\n")] = 0;
  uint8_t *b;
  size_t n;
  holo_error err = {0};
  holo_archive ar;
  assert_int_equal(holo_read_file(path, &b, &n, &err), HOLO_OK);
  holo_status s = holo_archive_parse(b, n, A, &ar, &err);
  if (s != HOLO_ERR_FORMAT) fail_msg("%s: accepted (status %d)", path, s);
  if (!strstr(err.message, expect)) fail_msg("%s: message '%s' lacks '%s'", path, err.message, expect);
  free(b);
}

static void bad_vectors(void **st) {
  (void)st;
  assert_true(each_file("tests/vectors/bad", ".holo", bad_one) >= 30);
}

/* Loads and, when it loads, executes with a fixed input: a corrupted
 * archive may be refused anywhere, but never crash. */
static void load_and_run(const uint8_t *b, size_t n) {
  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_options opt = {A, 1 << 20, 0, 0};
  holo_session *s;
  holo_error err = {0};
  if (holo_session_load(b, n, &be, &opt, &s, &err) != HOLO_OK) {
    assert_true(err.message[0] != 0);
    return;
  }
  uint32_t ni = holo_session_input_count(s), no = holo_session_output_count(s);
  holo_input in[8] = {{0}};
  static float buf[8][4096];
  int64_t shapes[8][HOLO_MAX_RANK];
  bool ok = ni <= 8 && no <= 8;
  for (uint32_t i = 0; ok && i < ni; i++) {
    holo_port_info p;
    holo_session_input_info(s, i, &p);
    size_t bytes = holo_dtype_size(p.dtype);
    for (uint32_t d = 0; d < p.rank; d++) {
      shapes[i][d] = p.shape[d] < 0 ? 2 : p.shape[d];
      bytes *= (size_t)shapes[i][d];
    }
    if (bytes > sizeof buf[i]) ok = false;
    in[i] = (holo_input){buf[i], bytes, shapes[i], p.rank};
  }
  if (ok) {
    holo_output out[8];
    if (holo_execute(s, in, ni, out, no, &err) == HOLO_OK)
      for (uint32_t o = 0; o < no; o++) holo_output_free(s, &out[o]);
  }
  holo_session_free(s);
}

static void truncate_one(const char *path) {
  uint8_t *b;
  size_t n;
  holo_error err = {0};
  assert_int_equal(holo_read_file(path, &b, &n, &err), HOLO_OK);
  /* Every prefix of the small archives; the big ones (weights) add nothing
   * past their tables but quadratic time. */
  if (n > 32768) {
    free(b);
    return;
  }
  for (size_t len = 0; len < n; len++) {
    holo_archive ar;
    uint8_t *copy = malloc(len + 1); /* exact-size copy: ASan sees any over-read */
    memcpy(copy, b, len);
    assert_int_equal(holo_archive_parse(copy, len, A, &ar, &err), HOLO_ERR_FORMAT);
    assert_true(err.message[0] != 0);
    free(copy);
  }
  free(b);
}

static void truncations(void **st) {
  (void)st;
  each_file("tests/vectors", ".holo", truncate_one);
  each_file("tests/fixtures", ".holo", truncate_one);
}

static uint32_t rng = 2463534242u;
static uint32_t xorshift(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void corrupt_one(const char *path) {
  uint8_t *b;
  size_t n;
  holo_error err = {0};
  assert_int_equal(holo_read_file(path, &b, &n, &err), HOLO_OK);
  uint8_t *copy;
  assert_int_equal(posix_memalign((void **)&copy, 64, n), 0);
  for (int k = 0; k < 800; k++) {
    memcpy(copy, b, n);
    size_t at = xorshift() % n;
    /* Favour the header, tables and small records where structure lives. */
    if (k % 2 == 0) at = xorshift() % (n < 512 ? n : 512);
    copy[at] = (uint8_t)xorshift();
    load_and_run(copy, n);
  }
  free(copy);
  free(b);
}

static void corruptions(void **st) {
  (void)st;
  each_file("tests/fixtures", ".holo", corrupt_one);
  each_file("tests/vectors", ".holo", corrupt_one);
}

static void null_arguments(void **st) {
  (void)st;
  holo_error err = {0};
  holo_archive ar;
  assert_int_equal(holo_archive_parse(NULL, 10, A, &ar, &err), HOLO_ERR_ARG);
  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_session *s;
  holo_options opt = {A, 0, 0, 0};
  uint8_t junk[64] = {0};
  assert_int_equal(holo_session_load(NULL, 0, &be, &opt, &s, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_session_load(junk, sizeof junk, NULL, &opt, &s, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_session_load(junk, sizeof junk, &be, NULL, &s, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_session_load(junk, sizeof junk, &be, &opt, NULL, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_session_load(junk, sizeof junk, &be, &opt, &s, NULL), HOLO_ERR_FORMAT);
  assert_int_equal(holo_execute(NULL, NULL, 0, NULL, 0, &err), HOLO_ERR_ARG);
  holo_session_free(NULL);
  assert_int_equal(holo_session_input_count(NULL), 0);
}

int main(void) {
  A = holo_std_allocator();
  const struct CMUnitTest tests[] = {cmocka_unit_test(good_vectors), cmocka_unit_test(bad_vectors),
                                     cmocka_unit_test(truncations), cmocka_unit_test(corruptions),
                                     cmocka_unit_test(null_arguments)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
