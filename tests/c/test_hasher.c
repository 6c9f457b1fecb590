/* The host hashing hook (holo_session_set_hasher, docs/decisions.md, host SHA-256):
 * it changes who computes SHA-256, never a label or a counter. A hook that
 * hashes with our own SHA-256 and one that fails (fallback) must both give
 * the labels of a session without a hook, for execute, execute_addressed
 * and refinement inputs, on either side of min_bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/holo.h"
#include "hologram/refine.h"
#include "holo-std.h"
#include "hologram/sha256.h"
#include "util/holo_fixture.h"

typedef struct hook_log {
  uint32_t calls;
  size_t last_len; /* tensor bytes of the last call (parts[1]) */
  size_t header_len;
} hook_log;

static holo_status hash_ours(void *ctx, const holo_span *parts, uint32_t n, uint8_t out[32]) {
  hook_log *log = ctx;
  holo_sha256 c;
  holo_sha256_init(&c);
  for (uint32_t i = 0; i < n; i++) holo_sha256_update(&c, parts[i].data, parts[i].len);
  holo_sha256_final(&c, out);
  log->calls++;
  log->header_len = n ? parts[0].len : 0;
  log->last_len = n > 1 ? parts[1].len : 0;
  return HOLO_OK;
}

static holo_status hash_fails(void *ctx, const holo_span *parts, uint32_t n, uint8_t out[32]) {
  (void)parts;
  (void)n;
  hook_log *log = ctx;
  log->calls++;
  memset(out, 0xab, 32); /* garbage the runtime must overwrite */
  return HOLO_ERR_UNSUPPORTED;
}

static uint64_t bytes_hashed(holo_session *s) {
  holo_counters c;
  holo_session_counters(s, &c);
  return c.bytes_hashed;
}

static void fill(float *x, size_t n, float salt) {
  for (size_t i = 0; i < n; i++) x[i] = (float)((double)(i % 89) * 0.027 - 1.1) + salt;
}

/* symbolic.holo: x [batch, 4] f32 -> Relu(x @ w). Batches straddling the
 * 4 KiB default threshold (256 rows) and 0 rows. */
static const int64_t BATCHES[] = {0, 1, 255, 256, 257, 1024};

static void run_all(holo_session *s, char labels[][HOLO_LABEL_LEN + 1], uint64_t *hashed) {
  holo_error err;
  uint64_t h0 = bytes_hashed(s);
  for (size_t k = 0; k < sizeof BATCHES / sizeof BATCHES[0]; k++) {
    int64_t shape[2] = {BATCHES[k], 4};
    size_t n = (size_t)BATCHES[k] * 4;
    float *x = malloc(n ? n * sizeof *x : 1);
    fill(x, n, (float)k);
    holo_input in = {x, n * sizeof *x, shape, 2};
    holo_view v;
    assert_int_equal(holo_execute_addressed(s, &in, 1, &v, 1, &err), HOLO_OK);
    memcpy(labels[2 * k], v.label, sizeof v.label);
    if (n) x[0] += 1.0f;
    holo_output o;
    assert_int_equal(holo_execute(s, &in, 1, &o, 1, &err), HOLO_OK);
    /* the owned form labels nothing visible; run it addressed for the label */
    assert_int_equal(holo_execute_addressed(s, &in, 1, &v, 1, &err), HOLO_OK);
    memcpy(labels[2 * k + 1], v.label, sizeof v.label);
    holo_output_free(s, &o);
    free(x);
  }
  *hashed = bytes_hashed(s) - h0;
}

#define NCASE (2 * sizeof BATCHES / sizeof BATCHES[0])

static void hook_gives_the_same_labels(void **st) {
  (void)st;
  fx ref, ours, fail, all;
  fx_open(&ref, "symbolic", NULL);
  fx_open(&ours, "symbolic", NULL);
  fx_open(&fail, "symbolic", NULL);
  fx_open(&all, "symbolic", NULL);
  hook_log lo = {0}, lf = {0}, la = {0};
  holo_hasher h_ours = {&lo, hash_ours, 4096};
  holo_hasher h_fail = {&lf, hash_fails, 4096};
  holo_hasher h_all = {&la, hash_ours, 0};
  assert_int_equal(holo_session_set_hasher(ours.s, &h_ours), HOLO_OK);
  assert_int_equal(holo_session_set_hasher(fail.s, &h_fail), HOLO_OK);
  assert_int_equal(holo_session_set_hasher(all.s, &h_all), HOLO_OK);

  char want[NCASE][HOLO_LABEL_LEN + 1], got[NCASE][HOLO_LABEL_LEN + 1];
  uint64_t hw, hg;
  run_all(ref.s, want, &hw);
  run_all(ours.s, got, &hg);
  assert_memory_equal(want, got, sizeof want);
  assert_int_equal(hw, hg);
  /* >= 4096 bytes: batches 256, 257, 1024, three executes each */
  assert_int_equal(lo.calls, 9);
  assert_int_equal(lo.header_len, 16 + 8 + 16);
  assert_int_equal(lo.last_len, 1024 * 16);

  run_all(fail.s, got, &hg);
  assert_memory_equal(want, got, sizeof want);
  assert_int_equal(hw, hg);
  assert_int_equal(lf.calls, 9);

  run_all(all.s, got, &hg); /* min_bytes 0: every input, the 0-byte one too */
  assert_memory_equal(want, got, sizeof want);
  assert_int_equal(hw, hg);
  assert_int_equal(la.calls, NCASE / 2 * 3);

  /* Removing the hook: the runtime hashes again. */
  assert_int_equal(holo_session_set_hasher(all.s, NULL), HOLO_OK);
  run_all(all.s, got, &hg);
  assert_memory_equal(want, got, sizeof want);
  assert_int_equal(la.calls, NCASE / 2 * 3);
  assert_int_equal(holo_session_set_hasher(NULL, &h_all), HOLO_ERR_ARG);

  fx_close(&ref);
  fx_close(&ours);
  fx_close(&fail);
  fx_close(&all);
}

/* Memo: the second identical execution is a memo hit with or without the
 * hook, and the output labels agree across the two sessions. */
static void memo_hits_with_the_hook(void **st) {
  (void)st;
  fx ref, ours;
  fx_open(&ref, "symbolic", NULL);
  fx_open(&ours, "symbolic", NULL);
  hook_log lo = {0};
  holo_hasher h = {&lo, hash_ours, 0};
  holo_session_set_hasher(ours.s, &h);
  static float x[512 * 4];
  fill(x, 512 * 4, 0.5f);
  int64_t shape[2] = {512, 4};
  holo_input in = {x, sizeof x, shape, 2};
  holo_error err;
  holo_view a, b;
  for (int r = 0; r < 2; r++) {
    assert_int_equal(holo_execute_addressed(ref.s, &in, 1, &a, 1, &err), HOLO_OK);
    assert_int_equal(holo_execute_addressed(ours.s, &in, 1, &b, 1, &err), HOLO_OK);
    assert_string_equal(a.label, b.label);
  }
  holo_counters c;
  holo_session_counters(ours.s, &c);
  assert_int_equal(c.memo_hits, 1);
  assert_int_equal(c.dispatches, 2);
  assert_int_equal(lo.calls, 2);
  fx_close(&ref);
  fx_close(&ours);
}

/* Refinement interns its inputs through the same path. */
static void refinement_inputs_use_the_hook(void **st) {
  (void)st;
  fx ref, ours, fail;
  fx_open(&ref, "refine-relu", NULL);
  fx_open(&ours, "refine-relu", NULL);
  fx_open(&fail, "refine-relu", NULL);
  hook_log lo = {0}, lf = {0};
  holo_hasher h_ours = {&lo, hash_ours, 0}, h_fail = {&lf, hash_fails, 0};
  holo_session_set_hasher(ours.s, &h_ours);
  holo_session_set_hasher(fail.s, &h_fail);
  holo_error err;
  holo_refine_plan p;
  holo_refine_plan_init(&p, 5);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_LABELS);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  float x[8] = {-1, 2, -3, 4, -5, 6, -7, 8};
  holo_input in = {x, sizeof x, 0, 0};
  holo_refine_report rep[3];
  holo_view v[3];
  fx *f[3] = {&ref, &ours, &fail};
  for (int i = 0; i < 3; i++) {
    holo_refine_runner r;
    assert_int_equal(holo_refine_runner_init(&r, f[i]->s, &p, &err), HOLO_OK);
    assert_int_equal(holo_refine_run(&r, &in, 1, &rep[i], &v[i], 1, &err), HOLO_OK);
    assert_int_equal(rep[i].status, HOLO_REFINE_CONVERGED);
  }
  for (int i = 1; i < 3; i++) {
    assert_int_equal(rep[i].passes, rep[0].passes);
    assert_int_equal(rep[i].n_state, rep[0].n_state);
    assert_memory_equal(rep[i].state_labels, rep[0].state_labels, sizeof rep[0].state_labels[0] * rep[0].n_state);
    assert_string_equal(v[i].label, v[0].label);
    assert_int_equal(bytes_hashed(f[i]->s), bytes_hashed(ref.s));
  }
  assert_true(lo.calls >= 1);
  assert_true(lf.calls >= 1);
  fx_close(&ref);
  fx_close(&ours);
  fx_close(&fail);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hook_gives_the_same_labels),
      cmocka_unit_test(memo_hits_with_the_hook),
      cmocka_unit_test(refinement_inputs_use_the_hook),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
