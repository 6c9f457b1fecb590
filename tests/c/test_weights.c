/* Constants under a weight budget (holo_session_load_source, docs/decisions.md
 * 60): tests/fixtures/mlp.holo (203,304 bytes of constants; the largest,
 * w1, 131,072) read by range through a memory source and through the
 * pread FileSource. Bounded runs must give the bytes and labels of the
 * pinned load, with evictions and the peak under the budget; a budget under
 * the largest constant, a corrupt constant byte and a failing read are
 * error values, and the session stays usable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* cmocka needs the headers above first */
#include <cmocka.h>

#include "holo-std.h"
#include "hologram/cpu_backend.h"
#include "hologram/holo.h"

#define PATH "tests/fixtures/mlp.holo"
#define CONST_BYTES 203304u
#define LARGEST 131072u

typedef struct {
  uint8_t *bytes;
  size_t len;
  holo_backend be;
  holo_options o;
} world;

static void open_world(world *w) {
  holo_error err = {0};
  if (holo_read_file(PATH, &w->bytes, &w->len, &err)) fail_msg("%s", err.message);
  holo_cpu_backend_init(&w->be);
  w->o = (holo_options){holo_std_allocator(), 0, 0, 0};
}

static holo_session *sourced(world *w, const holo_source *src, uint64_t budget) {
  holo_session *s;
  holo_error err = {0};
  if (holo_session_load_source(src, &w->be, &w->o, budget, &s, &err)) fail_msg("load: %s", err.message);
  return s;
}

static holo_session *pinned(world *w) {
  holo_session *s;
  holo_error err = {0};
  if (holo_session_load(w->bytes, w->len, &w->be, &w->o, &s, &err)) fail_msg("load: %s", err.message);
  return s;
}

static holo_input input_of(float *x, float salt) {
  for (int i = 0; i < 64; i++)
    x[i] = (float)(i % 7) * 0.25f - 0.8f + salt;
  return (holo_input){x, 64 * sizeof(float), 0, 0};
}

/* Runs both sessions on the same inputs and requires the same label and bytes. */
static void same_as(holo_session *ref, holo_session *s, float salt) {
  float x[64];
  holo_input in = input_of(x, salt);
  holo_view a, b;
  holo_error err = {0};
  if (holo_execute_addressed(ref, &in, 1, &a, 1, &err)) fail_msg("reference: %s", err.message);
  uint8_t keep[64];
  assert_true(a.len <= sizeof keep);
  memcpy(keep, a.data, a.len);
  if (holo_execute_addressed(s, &in, 1, &b, 1, &err)) fail_msg("bounded: %s", err.message);
  assert_string_equal(a.label, b.label);
  assert_int_equal(a.len, b.len);
  assert_memory_equal(keep, b.data, a.len);
}

static void bounded_runs_match_the_pinned_load(void **st) {
  (void)st;
  world w;
  open_world(&w);
  holo_session *ref = pinned(&w);
  /* 150k: under the constants' total and under w1 + its packed form;
   * 300k: w1 and its packed form fit, the rest is evicted and re-packed */
  const uint64_t budgets[] = {150 << 10, 300 << 10, 0};
  for (unsigned k = 0; k < 3; k++) {
    holo_source src;
    holo_source_memory(&src, w.bytes, w.len);
    holo_session *s = sourced(&w, &src, budgets[k]);
    assert_string_equal(holo_session_archive_label(s), holo_session_archive_label(ref));
    for (int r = 0; r < 4; r++)
      same_as(ref, s, 0.125f * (float)r);
    holo_counters c;
    holo_session_counters(s, &c);
    if (budgets[k]) {
      assert_true(c.weight_peak_bytes <= budgets[k]);
      assert_true(c.weight_evictions > 0);
      assert_true(c.weight_bytes_fetched > CONST_BYTES); /* read again after eviction */
    } else {
      assert_int_equal(c.weight_evictions, 0);
      assert_int_equal(c.weight_bytes_fetched, CONST_BYTES); /* once each, never evicted */
    }
    holo_session_free(s);
  }
  holo_session_free(ref);
  free(w.bytes);
}

static void file_source_matches(void **st) {
  (void)st;
  world w;
  open_world(&w);
  holo_session *ref = pinned(&w);
  holo_file_source fs;
  holo_error err = {0};
  if (holo_file_source_open(&fs, PATH, &err)) fail_msg("%s", err.message);
  holo_session *s = sourced(&w, &fs.source, 150 << 10);
  for (int r = 0; r < 3; r++)
    same_as(ref, s, 0.5f * (float)r);
  holo_counters c;
  holo_session_counters(s, &c);
  assert_true(c.weight_fetches > 6);
  assert_true(c.weight_stall_ns > 0); /* the FileSource has a clock */
  holo_session_free(s);
  holo_file_source_close(&fs);
  holo_session_free(ref);
  free(w.bytes);
}

static void budget_under_the_largest_constant_is_a_value(void **st) {
  (void)st;
  world w;
  open_world(&w);
  holo_session *ref = pinned(&w);
  holo_source src;
  holo_source_memory(&src, w.bytes, w.len);
  holo_session *s = sourced(&w, &src, LARGEST - 1);
  float x[64];
  holo_input in = input_of(x, 0);
  holo_output out;
  holo_error err = {0};
  for (int r = 0; r < 2; r++) { /* the same refusal each time: nothing left half-made */
    assert_int_equal(holo_execute(s, &in, 1, &out, 1, &err), HOLO_ERR_BUDGET);
    assert_non_null(strstr(err.message, "weight budget exceeded: constant w1"));
  }
  /* still usable: raised, it runs and agrees */
  assert_int_equal(holo_session_set_weight_budget(s, LARGEST + 4096), HOLO_OK);
  same_as(ref, s, 0);
  holo_counters c;
  holo_session_counters(s, &c);
  assert_true(c.weight_peak_bytes <= LARGEST + 4096);
  assert_int_equal(holo_session_set_weight_budget(ref, 1), HOLO_ERR_ARG); /* pinned: not sourced */
  holo_session_free(s);
  holo_session_free(ref);
  free(w.bytes);
}

static uint64_t rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--)
    v = v << 8 | p[k];
  return v;
}

/* The file offset of the last byte of DATA (inside the last constant),
 * from the section table (docs/holo-format.md 2). */
static size_t data_last_byte(const uint8_t *a) {
  uint32_t n = (uint32_t)a[12] | (uint32_t)a[13] << 8 | (uint32_t)a[14] << 16 | (uint32_t)a[15] << 24;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *e = a + 32 + 24 * (size_t)i;
    if (!memcmp(e, "DATA", 4)) return (size_t)(rd64(e + 8) + rd64(e + 16) - 1);
  }
  fail_msg("no DATA section");
  return 0;
}

static void corrupt_constant_is_an_error_not_an_output(void **st) {
  (void)st;
  world w;
  open_world(&w);
  uint8_t *bad = malloc(w.len);
  memcpy(bad, w.bytes, w.len);
  bad[data_last_byte(bad)] ^= 0x40;
  holo_source src;
  holo_source_memory(&src, bad, w.len);
  holo_session *s = sourced(&w, &src, 0); /* load reads no constant: it succeeds */
  float x[64];
  holo_input in = input_of(x, 0);
  holo_output out = {0};
  holo_error err = {0};
  assert_int_equal(holo_execute(s, &in, 1, &out, 1, &err), HOLO_ERR_FORMAT);
  assert_non_null(strstr(err.message, "do not match its label"));
  assert_null(out.bytes);
  assert_int_equal(holo_session_verify_constants(s, &err), HOLO_ERR_FORMAT);
  /* repaired underneath (the source re-read, not trusted from before): runs */
  memcpy(bad, w.bytes, w.len);
  holo_session *ref = pinned(&w);
  same_as(ref, s, 0);
  assert_int_equal(holo_session_verify_constants(s, &err), HOLO_OK);
  holo_session_free(ref);
  holo_session_free(s);
  free(bad);
  free(w.bytes);
}

static int reads_left;
static holo_status flaky_read(void *ctx, uint64_t off, void *dst, size_t len) {
  if (reads_left-- <= 0) return HOLO_ERR_IO;
  memcpy(dst, (const uint8_t *)ctx + off, len);
  return HOLO_OK;
}

static void failing_read_is_an_io_error(void **st) {
  (void)st;
  world w;
  open_world(&w);
  /* the head and the streamed label take the first reads; then constants */
  holo_source src = {w.bytes, w.len, flaky_read, 0};
  reads_left = 1000;
  holo_session *s = sourced(&w, &src, 150 << 10);
  reads_left = 2;
  float x[64];
  holo_input in = input_of(x, 0);
  holo_output out = {0};
  holo_error err = {0};
  assert_int_equal(holo_execute(s, &in, 1, &out, 1, &err), HOLO_ERR_IO);
  assert_non_null(strstr(err.message, "the source could not read"));
  reads_left = 1000;
  holo_session *ref = pinned(&w);
  same_as(ref, s, 0);
  holo_session_free(ref);
  holo_session_free(s);
  reads_left = 0; /* a load whose first read fails */
  holo_session *none = 0;
  assert_int_equal(holo_session_load_source(&src, &w.be, &w.o, 0, &none, &err), HOLO_ERR_IO);
  assert_null(none);
  free(w.bytes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bounded_runs_match_the_pinned_load),
      cmocka_unit_test(file_source_matches),
      cmocka_unit_test(budget_under_the_largest_constant_is_a_value),
      cmocka_unit_test(corrupt_constant_is_an_error_not_an_output),
      cmocka_unit_test(failing_read_is_an_io_error),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
