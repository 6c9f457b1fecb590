/* Refinement: plan validation, contracts refused field by field,
 * validators, repair, reports, and the memo making fixed points free. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/refine.h"
#include "holo-std.h"
#include "util/holo_fixture.h"

static void plan_build_refusals(void **st) {
  (void)st;
  holo_refine_plan p;
  holo_error err = {0};
  holo_refine_plan_init(&p, 0);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "budget"));
  holo_refine_plan_init(&p, 3);
  holo_refine_plan_repair(&p, HOLO_REPAIR_RETRY_PASS, 0);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_LABELS);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "extra_passes"));
  holo_refine_plan_init(&p, 3);
  holo_refine_plan_repair(&p, HOLO_REPAIR_RETRY_PASS, 2);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "validator"));
  holo_refine_plan_init(&p, 3);
  holo_state_contract c = {2, {0, 0}, {0, 1}};
  holo_refine_plan_contract(&p, &c);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "twice"));
  holo_refine_plan_init(&p, 3);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_BYTES);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  /* An unbuilt plan is refused by the runner. */
  fx f;
  fx_open(&f, "refine-relu", NULL);
  holo_refine_runner r;
  holo_refine_plan_repair(&p, HOLO_REPAIR_NONE, 0);
  assert_int_equal(holo_refine_runner_init(&r, f.s, &p, &err), HOLO_ERR_ARG);
  fx_close(&f);
}

static void expect_contract_error(uint32_t in, uint32_t out, const char *field) {
  fx f;
  fx_open(&f, "refine-mismatch", NULL);
  holo_refine_plan p;
  holo_error err = {0};
  holo_refine_plan_init(&p, 2);
  if (in != UINT32_MAX) {
    holo_state_contract c = {1, {in}, {out}};
    holo_refine_plan_contract(&p, &c);
  }
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  holo_refine_runner r;
  assert_int_equal(holo_refine_runner_init(&r, f.s, &p, &err), HOLO_ERR_STATE);
  if (!strstr(err.message, field)) fail_msg("'%s' lacks '%s'", err.message, field);
  fx_close(&f);
}

static void contract_arity(void **st) { (void)st; expect_contract_error(UINT32_MAX, 0, "arity"); }
static void contract_dtype(void **st) { (void)st; expect_contract_error(2, 2, "dtype"); }
static void contract_element_count(void **st) { (void)st; expect_contract_error(1, 3, "element count"); }
static void contract_shape(void **st) { (void)st; expect_contract_error(0, 1, "shape"); }
static void contract_port_range(void **st) { (void)st; expect_contract_error(0, 9, "does not exist"); }

/* Output 4's shape is open in the archive: the byte length is checked at
 * the first pass instead. */
static void contract_byte_length_at_run_time(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-mismatch", NULL);
  holo_refine_plan p;
  holo_error err = {0};
  holo_refine_plan_init(&p, 2);
  holo_state_contract c = {1, {1}, {4}};
  holo_refine_plan_contract(&p, &c);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  holo_refine_runner r;
  assert_int_equal(holo_refine_runner_init(&r, f.s, &p, &err), HOLO_OK);
  float a[6] = {0}, b[6] = {1, 2, 3, 4, 5, 6};
  int32_t ci[6] = {0};
  holo_input in[3] = {{a, 24, 0, 0}, {b, 24, 0, 0}, {ci, 24, 0, 0}};
  holo_refine_report rep;
  assert_int_equal(holo_refine_run(&r, in, 3, &rep, 0, 0, &err), HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "byte length 28"));
  /* The session is still usable. */
  holo_output out[5];
  assert_int_equal(holo_execute(f.s, in, 3, out, 5, &err), HOLO_OK);
  for (int i = 0; i < 5; i++) holo_output_free(f.s, &out[i]);
  fx_close(&f);
}

static void relu_converges_and_fixed_point_is_free(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-relu", NULL);
  holo_refine_plan p;
  holo_error err = {0};
  holo_refine_plan_init(&p, 5);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_LABELS);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  holo_refine_runner r;
  assert_int_equal(holo_refine_runner_init(&r, f.s, &p, &err), HOLO_OK);
  float x[8] = {-1, 2, -3, 4, -5, 6, -7, 8};
  holo_input in = {x, sizeof x, 0, 0};
  holo_refine_report rep;
  holo_view v;
  assert_int_equal(holo_refine_run(&r, &in, 1, &rep, &v, 1, &err), HOLO_OK);
  assert_int_equal(rep.status, HOLO_REFINE_CONVERGED);
  assert_int_equal(rep.passes, 2);
  assert_int_equal(rep.dispatches, 2);
  assert_int_equal(rep.bytes_compared, 0); /* StableLabels never reads bytes */
  assert_int_equal(rep.n_state, 1);
  assert_memory_equal(rep.state_labels[0], "sha256:", 7);
  for (int i = 0; i < 8; i++) assert_true(((const float *)v.data)[i] == (x[i] > 0 ? x[i] : 0));
  /* From the fixed point: a memo hit, no dispatch, converged in one pass. */
  float fixed[8];
  memcpy(fixed, v.data, sizeof fixed);
  holo_input in2 = {fixed, sizeof fixed, 0, 0};
  holo_refine_report rep2;
  assert_int_equal(holo_refine_run(&r, &in2, 1, &rep2, 0, 0, &err), HOLO_OK);
  assert_int_equal(rep2.status, HOLO_REFINE_CONVERGED);
  assert_int_equal(rep2.passes, 1);
  assert_int_equal(rep2.dispatches, 0);
  assert_int_equal(rep2.memo_hits, 1);
  assert_string_equal(rep2.state_labels[0], rep.state_labels[0]);
  fx_close(&f);
}

static void stable_bytes_scans_state(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-relu", NULL);
  holo_refine_plan p;
  holo_error err = {0};
  holo_refine_plan_init(&p, 5);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_BYTES);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  holo_refine_runner r;
  assert_int_equal(holo_refine_runner_init(&r, f.s, &p, &err), HOLO_OK);
  float x[8] = {-1, 2, -3, 4, -5, 6, -7, 8};
  holo_input in = {x, sizeof x, 0, 0};
  holo_refine_report rep;
  assert_int_equal(holo_refine_run(&r, &in, 1, &rep, 0, 0, &err), HOLO_OK);
  assert_int_equal(rep.status, HOLO_REFINE_CONVERGED);
  assert_int_equal(rep.passes, 2);
  assert_true(rep.bytes_compared >= 32); /* pass 1 compares and differs early or late; pass 2 all 32 */
  fx_close(&f);
}

static void budget_exhausted_then_retry_repair(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-halve", NULL);
  float x[4] = {1, 2, 4, 8};
  holo_input in = {x, sizeof x, 0, 0};
  holo_error err = {0};
  holo_refine_report rep;
  holo_refine_runner r;
  holo_refine_plan p;
  holo_refine_plan_init(&p, 3);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_LABELS);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  assert_int_equal(holo_refine_runner_init(&r, f.s, &p, &err), HOLO_OK);
  holo_view v;
  assert_int_equal(holo_refine_run(&r, &in, 1, &rep, &v, 1, &err), HOLO_OK);
  assert_int_equal(rep.status, HOLO_REFINE_BUDGET_EXHAUSTED);
  assert_int_equal(rep.passes, 3);
  assert_true(((const float *)v.data)[3] == 1.0f); /* 8 / 2^3 */
  /* Retry with 2 extra passes: still moving, so it fails after 5. */
  holo_refine_plan_repair(&p, HOLO_REPAIR_RETRY_PASS, 2);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  assert_int_equal(holo_refine_run(&r, &in, 1, &rep, 0, 0, &err), HOLO_OK);
  assert_int_equal(rep.status, HOLO_REFINE_FAILED);
  assert_int_equal(rep.passes, 5);
  assert_int_equal(rep.extra_passes_used, 2);
  assert_int_equal(rep.dispatches, 2); /* passes 1-3 were memo hits from the first run */
  /* Halving reaches 0 (a fixed point) after ~150 passes: repaired. */
  holo_refine_plan_repair(&p, HOLO_REPAIR_RETRY_PASS, 400);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  assert_int_equal(holo_refine_run(&r, &in, 1, &rep, &v, 1, &err), HOLO_OK);
  assert_int_equal(rep.status, HOLO_REFINE_REPAIRED);
  assert_true(rep.extra_passes_used > 100);
  for (int i = 0; i < 4; i++) assert_true(((const float *)v.data)[i] == 0.0f);
  fx_close(&f);
}

static void contract_keeps_fixed_inputs(void **st) {
  (void)st;
  uint8_t *bytes;
  size_t len;
  holo_error err = {0};
  assert_int_equal(holo_read_file("tests/fixtures/refine-contract.holo", &bytes, &len, &err), HOLO_OK);
  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_options o = {holo_std_allocator(), 0, 0, 0};
  holo_refine_plan p;
  holo_refine_plan_init(&p, 10);
  holo_refine_plan_validator(&p, HOLO_VALIDATE_STABLE_LABELS);
  holo_state_contract c = {1, {0}, {0}};
  holo_refine_plan_contract(&p, &c);
  assert_int_equal(holo_refine_plan_build(&p, &err), HOLO_OK);
  holo_compiled_refinement *cr;
  assert_int_equal(holo_compiled_refinement_new(bytes, len, &be, &o, &p, &cr, &err), HOLO_OK);
  float s[4] = {10, 3, 0, 7}, k[4] = {2, 2, 2, 2};
  holo_input in[2] = {{s, 16, 0, 0}, {k, 16, 0, 0}};
  holo_refine_report rep;
  assert_int_equal(holo_compiled_refinement_run(cr, in, 2, &rep, &err), HOLO_OK);
  /* s decreases by 2 each pass until all are 0: 10 -> 0 takes 5 passes, +1 to see it stable. */
  assert_int_equal(rep.status, HOLO_REFINE_CONVERGED);
  assert_int_equal(rep.passes, 6);
  assert_true(holo_session_resident_count(holo_compiled_refinement_session(cr)) > 0);
  holo_compiled_refinement_free(cr);
  free(bytes);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(plan_build_refusals),
      cmocka_unit_test(contract_arity),
      cmocka_unit_test(contract_dtype),
      cmocka_unit_test(contract_element_count),
      cmocka_unit_test(contract_shape),
      cmocka_unit_test(contract_port_range),
      cmocka_unit_test(contract_byte_length_at_run_time),
      cmocka_unit_test(relu_converges_and_fixed_point_is_free),
      cmocka_unit_test(stable_bytes_scans_state),
      cmocka_unit_test(budget_exhausted_then_retry_repair),
      cmocka_unit_test(contract_keeps_fixed_inputs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
