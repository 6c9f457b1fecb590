/* Session behaviour: execution, errors as values, content addressing
 * (memo, elision, dedup, cone), the transient pool, warm stores. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/holo.h"
#include "holo-std.h"
#include "util/holo_fixture.h"

static void fill(float *x, size_t n, float salt) {
  for (size_t i = 0; i < n; i++) x[i] = (float)((double)(i % 97) * 0.031 - 1.2) + salt;
}

static holo_counters counters(holo_session *s) {
  holo_counters c;
  holo_session_counters(s, &c);
  return c;
}

/* A reference MLP forward pass, reading the weights back through dump-free
 * means: run the same archive twice must match itself, and the result must
 * match a float64 computation from the fixture's generator formula. Here we
 * check self-consistency plus the memo and the counters. */
static void mlp_runs_and_memoizes(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "mlp", NULL);
  assert_int_equal(holo_session_input_count(f.s), 1);
  assert_int_equal(holo_session_output_count(f.s), 1);
  assert_int_equal(holo_session_kernel_count(f.s), 8);
  float x[64];
  fill(x, 64, 0);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o1, o2;
  holo_error err;
  assert_int_equal(holo_execute(f.s, &in, 1, &o1, 1, &err), HOLO_OK);
  assert_int_equal(o1.len, 40);
  assert_int_equal(o1.rank, 2);
  assert_int_equal(o1.shape[1], 10);
  holo_counters c1 = counters(f.s);
  assert_int_equal(c1.dispatches, 8);
  assert_int_equal(c1.memo_hits, 0);
  assert_int_equal(holo_execute(f.s, &in, 1, &o2, 1, &err), HOLO_OK);
  holo_counters c2 = counters(f.s);
  assert_int_equal(c2.dispatches, 8); /* nothing ran */
  assert_int_equal(c2.memo_hits, 1);
  assert_memory_equal(o1.bytes, o2.bytes, 40);
  holo_output_free(f.s, &o1);
  holo_output_free(f.s, &o2);
  /* A different input walks the graph again. */
  x[0] += 1;
  assert_int_equal(holo_execute(f.s, &in, 1, &o1, 1, &err), HOLO_OK);
  assert_int_equal(counters(f.s).dispatches, 16);
  holo_output_free(f.s, &o1);
  fx_close(&f);
}

/* Peak live transient bytes = the two largest live activations (1 KiB each
 * for the 256-wide layer), not the sum of all intermediates. */
static void mlp_peak_live_is_two_activations(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "mlp", NULL);
  float x[64];
  fill(x, 64, 0);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o;
  holo_error err;
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_OK);
  holo_output_free(f.s, &o);
  assert_int_equal(counters(f.s).peak_live_bytes, 2048);
  fx_close(&f);
}

static void budget_exact_fits_and_too_small_fails(void **st) {
  (void)st;
  holo_options o = {holo_std_allocator(), 2048, 0, 0};
  fx f;
  fx_open(&f, "mlp", &o);
  float x[64];
  fill(x, 64, 0.5f);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output out, ref;
  holo_error err = {0};
  assert_int_equal(holo_execute(f.s, &in, 1, &out, 1, &err), HOLO_OK);
  assert_true(counters(f.s).evictions > 0);
  /* Too small: an error value naming the bytes and the bound. */
  holo_session_set_memory_budget(f.s, 1500);
  x[1] += 1;
  assert_int_equal(holo_execute(f.s, &in, 1, &ref, 1, &err), HOLO_ERR_BUDGET);
  assert_non_null(strstr(err.message, "1024 bytes"));
  assert_non_null(strstr(err.message, "1500"));
  /* The session stays usable with a larger bound, and loses nothing. */
  holo_session_set_memory_budget(f.s, 0);
  assert_int_equal(holo_execute(f.s, &in, 1, &ref, 1, &err), HOLO_OK);
  x[1] -= 1;
  holo_output again;
  assert_int_equal(holo_execute(f.s, &in, 1, &again, 1, &err), HOLO_OK);
  assert_memory_equal(out.bytes, again.bytes, 40);
  holo_output_free(f.s, &out);
  holo_output_free(f.s, &ref);
  holo_output_free(f.s, &again);
  fx_close(&f);
}

/* A value that depends on every input port is never looked up (a repeat
 * of all the inputs is a memo hit first; runtime/session-anon.c): mlp's
 * intermediates stay out of the content table, only its input and output
 * enter it, and the bytes and labels are those a repeat finds. */
static void whole_input_intermediates_skip_the_table(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "mlp", NULL);
  uint32_t before = holo_session_content_store_len(f.s);
  float x[64];
  fill(x, 64, 3);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_view v1, v2;
  holo_error err;
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, &v1, 1, &err), HOLO_OK);
  holo_counters c = counters(f.s);
  assert_true(c.dispatches >= 2);                                     /* intermediates were computed ... */
  assert_int_equal(holo_session_content_store_len(f.s), before + 2); /* ... but only x and y entered */
  x[5] = 9;
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, &v2, 1, &err), HOLO_OK);
  assert_int_equal(holo_session_content_store_len(f.s), before + 4);
  assert_int_equal(counters(f.s).dispatches, 2 * c.dispatches); /* nothing elided: no look-up to find */
  fill(x, 64, 3);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, &v2, 1, &err), HOLO_OK);
  assert_int_equal(counters(f.s).memo_hits, 1); /* the first input again */
  assert_string_equal(v1.label, v2.label);
  fx_close(&f);
}

static void cse_dispatches_duplicate_once(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "cse", NULL);
  float x[32];
  fill(x, 32, 0);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o;
  holo_error err;
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_OK);
  holo_counters c = counters(f.s);
  assert_int_equal(c.dispatches, 2);
  assert_int_equal(c.elided, 1);
  for (int i = 0; i < 32; i++) assert_true(((float *)o.bytes)[i] == 2 * (x[i] > 0 ? x[i] : 0));
  holo_output_free(f.s, &o);
  fx_close(&f);
}

static void shared_branch_not_recomputed(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "shared", NULL);
  float x[16], z[16];
  fill(x, 16, 0);
  fill(z, 16, 1);
  holo_input in[2] = {{x, sizeof x, NULL, 0}, {z, sizeof z, NULL, 0}};
  holo_view v[1];
  holo_error err;
  assert_int_equal(holo_execute_addressed(f.s, in, 2, v, 1, &err), HOLO_OK);
  char first[72];
  memcpy(first, v[0].label, 72);
  assert_int_equal(counters(f.s).dispatches, 3);
  z[3] = 42;
  assert_int_equal(holo_execute_addressed(f.s, in, 2, v, 1, &err), HOLO_OK);
  holo_counters c = counters(f.s);
  assert_int_equal(c.dispatches, 4); /* only the join ran */
  assert_int_equal(c.elided, 2);
  assert_string_not_equal(first, v[0].label);
  assert_memory_equal(v[0].label, "sha256:", 7);
  assert_int_equal(v[0].len, 64);
  fx_close(&f);
}

/* Outputs evicted since the memo entry was made are recomputed, never
 * returned stale. */
static void memo_hit_requires_resident_outputs(void **st) {
  (void)st;
  holo_options o = {holo_std_allocator(), 300, 0, 0};
  fx f;
  fx_open(&f, "shared", &o); /* 64-byte values: x, z, s, t, y */
  float x[16], z[16], x2[16];
  fill(x, 16, 0);
  fill(z, 16, 1);
  fill(x2, 16, 2);
  holo_input a[2] = {{x, sizeof x, NULL, 0}, {z, sizeof z, NULL, 0}};
  holo_input b[2] = {{x2, sizeof x2, NULL, 0}, {z, sizeof z, NULL, 0}};
  holo_output r1, r2, r3;
  holo_error err;
  assert_int_equal(holo_execute(f.s, a, 2, &r1, 1, &err), HOLO_OK);
  /* Intermediates go first, outputs last: a few other executions push a's
   * output out of the 300-byte pool too. */
  for (int k = 0; k < 4; k++) {
    fill(x2, 16, 2.0f + (float)k);
    assert_int_equal(holo_execute(f.s, b, 2, &r2, 1, &err), HOLO_OK);
    holo_output_free(f.s, &r2);
  }
  assert_int_equal(holo_execute(f.s, b, 2, &r2, 1, &err), HOLO_OK); /* a memo hit: outputs last to go */
  assert_int_equal(counters(f.s).memo_hits, 1);
  uint64_t d = counters(f.s).dispatches;
  assert_int_equal(holo_execute(f.s, a, 2, &r3, 1, &err), HOLO_OK);
  holo_counters c = counters(f.s);
  assert_int_equal(c.memo_hits, 1); /* a's output was evicted: no stale hit */
  assert_true(c.dispatches > d);
  assert_memory_equal(r1.bytes, r3.bytes, 64);
  holo_output_free(f.s, &r1);
  holo_output_free(f.s, &r2);
  holo_output_free(f.s, &r3);
  fx_close(&f);
}

static void identical_constants_share_a_buffer(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "cone", NULL);
  /* w1 and w2 are equal: one entry. Plus the cone's transpose. */
  assert_int_equal(holo_session_content_store_len(f.s), 2);
  assert_int_equal(holo_session_resident_count(f.s), 2);
  assert_int_equal(counters(f.s).dispatches, 1); /* the cone ran once, at load */
  float x[16];
  fill(x, 16, 0);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o;
  holo_error err;
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_OK);
  assert_int_equal(counters(f.s).dispatches, 3);
  holo_output_free(f.s, &o);
  fx_close(&f);
}

static void mem_store_warm_start(void **st) {
  (void)st;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_options o = {holo_std_allocator(), 0, &ms.store, 0};
  fx a, b;
  fx_open(&a, "cone", &o);
  holo_counters ca = counters(a.s);
  assert_int_equal(ca.dispatches, 1);
  assert_int_equal(ca.store_misses, 1);
  assert_int_equal(ca.store_puts, 1);
  fx_open(&b, "cone", &o);
  holo_counters cb = counters(b.s);
  assert_int_equal(cb.dispatches, 0); /* the cone came from the store */
  assert_int_equal(cb.store_hits, 1);
  /* Same results either way. */
  float x[16];
  fill(x, 16, 0);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_view va, vb;
  holo_error err;
  assert_int_equal(holo_execute_addressed(a.s, &in, 1, &va, 1, &err), HOLO_OK);
  assert_int_equal(holo_execute_addressed(b.s, &in, 1, &vb, 1, &err), HOLO_OK);
  assert_string_equal(va.label, vb.label);
  assert_memory_equal(va.data, vb.data, va.len);
  fx_close(&a);
  fx_close(&b);
  holo_mem_store_release(&ms);
}

static void file_store_corrupt_and_path_attack(void **st) {
  (void)st;
  char dir[] = "/tmp/holo-ws-XXXXXX";
  assert_non_null(mkdtemp(dir));
  holo_file_store fs;
  holo_error err;
  assert_int_equal(holo_file_store_open(&fs, dir, &err), HOLO_OK);
  holo_options o = {holo_std_allocator(), 0, &fs.store, 0};
  fx a, b, c;
  fx_open(&a, "cone", &o);
  fx_close(&a);
  fx_open(&b, "cone", &o);
  assert_int_equal(counters(b.s).store_hits, 1);
  assert_int_equal(counters(b.s).dispatches, 0);
  fx_close(&b);
  /* Flip a byte of the one record: detected, counted, recomputed. */
  char cmd[512];
  snprintf(cmd, sizeof cmd, "f=$(ls %s/sha256-*.hws | head -1); printf '\\x7f' | dd of=$f bs=1 seek=200 conv=notrunc status=none", dir);
  assert_int_equal(system(cmd), 0);
  fx_open(&c, "cone", &o);
  assert_int_equal(counters(c.s).store_corrupt, 1);
  assert_int_equal(counters(c.s).dispatches, 1);
  fx_close(&c);
  /* Labels are validated before they become paths. */
  const uint8_t *p;
  size_t n;
  assert_int_equal(fs.store.put(fs.store.ctx, "sha256:../../x", (const uint8_t *)"x", 1), HOLO_ERR_STORE);
  assert_int_equal(fs.store.get(fs.store.ctx, "sha256:../../etc/passwd", &p, &n), HOLO_ERR_STORE);
  holo_file_store_close(&fs);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
}

static void symbolic_dims_bind_per_execution(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "symbolic", NULL);
  float x[20];
  fill(x, 20, 0);
  holo_output o;
  holo_error err = {0};
  for (int64_t batch = 1; batch <= 5; batch += 2) {
    int64_t shape[2] = {batch, 4};
    holo_input in = {x, (size_t)batch * 16, shape, 2};
    assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_OK);
    assert_int_equal(o.shape[0], batch);
    assert_int_equal(o.shape[1], 3);
    holo_output_free(f.s, &o);
  }
  holo_input none = {x, 16, NULL, 0};
  assert_int_equal(holo_execute(f.s, &none, 1, &o, 1, &err), HOLO_ERR_INPUT);
  assert_non_null(strstr(err.message, "symbolic"));
  int64_t bad[2] = {2, 5};
  holo_input wrong = {x, 40, bad, 2};
  assert_int_equal(holo_execute(f.s, &wrong, 1, &o, 1, &err), HOLO_ERR_INPUT);
  assert_non_null(strstr(err.message, "dim 1"));
  fx_close(&f);
}

static void bad_inputs_are_values(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "mlp", NULL);
  float x[64];
  fill(x, 64, 0);
  holo_output o;
  holo_error err = {0};
  holo_input in = {x, sizeof x - 4, NULL, 0};
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_ERR_INPUT);
  assert_non_null(strstr(err.message, "252 bytes, expected 256"));
  in.len = sizeof x;
  assert_int_equal(holo_execute(f.s, &in, 2, &o, 1, &err), HOLO_ERR_INPUT);
  assert_non_null(strstr(err.message, "expected 1 inputs, got 2"));
  assert_int_equal(holo_execute(f.s, NULL, 1, &o, 1, &err), HOLO_ERR_ARG);
  in.bytes = NULL;
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 2, &err), HOLO_ERR_ARG);
  /* Still usable. */
  in.bytes = x;
  assert_int_equal(holo_execute(f.s, &in, 1, &o, 1, &err), HOLO_OK);
  holo_output_free(f.s, &o);
  fx_close(&f);
}

/* Labels do not depend on the process, only on content and backend. */
static void labels_stable_across_sessions(void **st) {
  (void)st;
  fx a, b;
  fx_open(&a, "cnn", NULL);
  fx_open(&b, "cnn", NULL);
  static float x[3 * 12 * 12];
  fill(x, 3 * 12 * 12, 0.25f);
  holo_input in = {x, sizeof x, NULL, 0};
  holo_view va, vb;
  holo_error err;
  assert_int_equal(holo_execute_addressed(a.s, &in, 1, &va, 1, &err), HOLO_OK);
  assert_int_equal(holo_execute_addressed(b.s, &in, 1, &vb, 1, &err), HOLO_OK);
  assert_string_equal(va.label, vb.label);
  assert_memory_equal(va.data, vb.data, va.len);
  float sum = 0;
  for (int i = 0; i < 5; i++) sum += ((const float *)va.data)[i];
  assert_true(sum > 0.999f && sum < 1.001f); /* softmax */
  assert_string_equal(holo_session_archive_label(a.s), holo_session_archive_label(b.s));
  fx_close(&a);
  fx_close(&b);
}

/* The memo holds many executions: repeating 300 distinct inputs is
 * answered almost entirely from it (two-way sets of 4096 records). */
static void memo_holds_many_executions(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "cse", NULL);
  float x[32];
  holo_input in = {x, sizeof x, NULL, 0};
  holo_view v;
  holo_error err;
  for (int round = 0; round < 2; round++)
    for (int k = 0; k < 300; k++) {
      fill(x, 32, (float)k);
      assert_int_equal(holo_execute_addressed(f.s, &in, 1, &v, 1, &err), HOLO_OK);
    }
  holo_counters c = counters(f.s);
  assert_true(c.memo_hits >= 295);
  assert_int_equal(c.dispatches, 600); /* 2 per distinct input, none on the repeat */
  fx_close(&f);
}

/* An output whose computed shape contradicts the archive's declaration: the
 * message must carry the bind detail whole. The error struct is deliberately
 * not initialised (0xAA, no NUL), as a caller's stack would leave it: the
 * wrapper once formatted err->message into itself, losing the detail and
 * reading past the array. */
static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

static void output_shape_mismatch_keeps_detail(void **st) {
  (void)st;
  uint8_t *b;
  size_t n;
  holo_error err;
  memset(&err, 0, sizeof err);
  assert_int_equal(holo_read_file("tests/fixtures/refine-relu.holo", &b, &n, &err), HOLO_OK);
  /* x f32[8] -> Relu -> y f32[8]; value 1 is y: declare its dim 0 as 7. */
  uint8_t *vals = 0;
  for (uint32_t i = 0; i < rd32(b + 12); i++)
    if (memcmp(b + 32 + 24 * i, "VALS", 4) == 0) vals = b + rd32(b + 32 + 24 * i + 8);
  assert_non_null(vals);
  uint8_t *y = vals + 4 + 80;
  assert_int_equal(y[9], 1);
  assert_int_equal(rd32(y + 16), 8);
  y[16] = 7;
  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_options def = {holo_std_allocator(), 0, 0, 0};
  holo_session *s;
  assert_int_equal(holo_session_load(b, n, &be, &def, &s, &err), HOLO_OK);
  float x[8] = {0};
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o;
  memset(err.message, 0xAA, sizeof err.message);
  assert_int_equal(holo_execute(s, &in, 1, &o, 1, &err), HOLO_ERR_FORMAT);
  assert_non_null(memchr(err.message, 0, sizeof err.message));
  assert_string_equal(err.message,
                      "output shape differs from the archive: output 0 (y): dim 0 is 8, expected 7");
  /* err == NULL takes the same path without touching memory. */
  assert_int_equal(holo_execute(s, &in, 1, &o, 1, NULL), HOLO_ERR_FORMAT);
  holo_session_free(s);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(mlp_runs_and_memoizes),
      cmocka_unit_test(mlp_peak_live_is_two_activations),
      cmocka_unit_test(budget_exact_fits_and_too_small_fails),
      cmocka_unit_test(whole_input_intermediates_skip_the_table),
      cmocka_unit_test(cse_dispatches_duplicate_once),
      cmocka_unit_test(shared_branch_not_recomputed),
      cmocka_unit_test(memo_hit_requires_resident_outputs),
      cmocka_unit_test(identical_constants_share_a_buffer),
      cmocka_unit_test(mem_store_warm_start),
      cmocka_unit_test(file_store_corrupt_and_path_attack),
      cmocka_unit_test(symbolic_dims_bind_per_execution),
      cmocka_unit_test(bad_inputs_are_values),
      cmocka_unit_test(labels_stable_across_sessions),
      cmocka_unit_test(memo_holds_many_executions),
      cmocka_unit_test(output_shape_mismatch_keeps_detail),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
