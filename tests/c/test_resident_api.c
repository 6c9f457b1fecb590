/* The public API the layers above the executor are built on (resident.h,
 * holo_session_state_contract, archive info and metadata): what it returns,
 * and that misuse is an error value, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/refine.h"
#include "hologram/resident.h"
#include "util/holo_fixture.h"

static void archive_info_and_metadata(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-step", NULL);
  holo_archive_info ai;
  assert_int_equal(holo_session_archive_info(f.s, &ai), HOLO_OK);
  assert_int_equal(ai.values, 4);
  assert_int_equal(ai.constants, 0);
  assert_int_equal(ai.nodes, 2);
  assert_int_equal(ai.metadata, 2);
  holo_span k, v;
  assert_int_equal(holo_session_metadata(f.s, 1, &k, &v), HOLO_OK);
  assert_int_equal(k.len, 7);
  assert_memory_equal(k.data, "purpose", 7);
  assert_int_equal(v.len, 18);
  assert_memory_equal(v.data, "refinement fixture", 18);
  assert_int_equal(holo_session_metadata(f.s, 2, &k, &v), HOLO_ERR_ARG);
  assert_int_equal(holo_session_metadata(0, 0, &k, &v), HOLO_ERR_ARG);
  assert_int_equal(holo_session_archive_info(f.s, 0), HOLO_ERR_ARG);
  fx_close(&f);
}

static void state_contract(void **st) {
  (void)st;
  fx f;
  holo_state_contract c;
  fx_open(&f, "gen-pos", NULL); /* STAT: input 2 <- output 1 */
  assert_int_equal(holo_session_state_contract(f.s, &c), HOLO_OK);
  assert_int_equal(c.n, 1);
  assert_int_equal(c.input[0], 2);
  assert_int_equal(c.output[0], 1);
  fx_close(&f);
  fx_open(&f, "refine-step", NULL); /* none */
  assert_int_equal(holo_session_state_contract(f.s, &c), HOLO_OK);
  assert_int_equal(c.n, 0);
  assert_int_equal(holo_session_state_contract(f.s, 0), HOLO_ERR_ARG);
  fx_close(&f);
}

/* Intern, execute on labels, read the outputs, hold and release. */
static void execute_on_labels(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-step", NULL);
  float state[8], step[8];
  for (int i = 0; i < 8; i++) state[i] = (float)i + 1, step[i] = 1;
  holo_input in[2] = {{state, sizeof state, 0, 0}, {step, sizeof step, 0, 0}};
  holo_digest l[2], out;
  holo_error err = {0};
  assert_int_equal(holo_session_intern_input(f.s, 0, &in[0], &l[0], &err), HOLO_OK);
  assert_int_equal(holo_session_intern_input(f.s, 1, &in[1], &l[1], &err), HOLO_OK);
  /* The label of an input is its content label. */
  holo_digest want;
  holo_content_digest(HOLO_DT_F32, (const int64_t[]){8}, 1, state, sizeof state, &want);
  assert_true(holo_digest_eq(&want, &l[0]));
  assert_int_equal(holo_execute_labels(f.s, l, &err), HOLO_OK);
  holo_view v;
  assert_int_equal(holo_session_output_view(f.s, 0, &v), HOLO_OK);
  assert_int_equal(v.len, sizeof state);
  for (int i = 0; i < 8; i++) assert_true(((const float *)v.data)[i] == (float)i);
  assert_int_equal(holo_session_output_content(f.s, 0, &out, &err), HOLO_OK);
  size_t len;
  uint32_t dt, rank;
  const int64_t *shape;
  const void *bytes = holo_session_resident(f.s, &out, &len, &dt, &rank, &shape);
  assert_non_null(bytes);
  assert_int_equal(len, sizeof state);
  assert_int_equal(dt, HOLO_DT_F32);
  assert_int_equal(rank, 1);
  assert_memory_equal(bytes, v.data, len);
  assert_true(holo_session_hold(f.s, &out));
  holo_session_release(f.s, &out);
  holo_session_release(f.s, &out);
  for (int i = 0; i < 2; i++) holo_session_release(f.s, &l[i]);
  /* Two sessions of one archive and backend: one code identity. */
  fx g;
  fx_open(&g, "refine-step", NULL);
  uint8_t a[32], b[32];
  holo_session_code_identity(f.s, a);
  holo_session_code_identity(g.s, b);
  assert_memory_equal(a, b, 32);
  fx_close(&g);
  fx_close(&f);
}

static void misuse_is_an_error(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-step", NULL);
  float x[8] = {0};
  holo_input in = {x, sizeof x, 0, 0};
  holo_digest d = {{0}};
  holo_error err = {0};
  assert_int_equal(holo_session_intern_input(f.s, 2, &in, &d, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "input 2 does not exist"));
  assert_int_equal(holo_session_intern_input(f.s, 0, 0, &d, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_session_intern_input(0, 0, &in, &d, &err), HOLO_ERR_ARG);
  in.len = 4;
  assert_int_equal(holo_session_intern_input(f.s, 0, &in, &d, &err), HOLO_ERR_INPUT);
  assert_int_equal(holo_execute_labels(f.s, 0, &err), HOLO_ERR_ARG);
  holo_digest absent[2] = {{{1}}, {{2}}};
  assert_int_equal(holo_execute_labels(f.s, absent, &err), HOLO_ERR_STATE);
  assert_non_null(strstr(err.message, "no longer resident"));
  holo_view v;
  assert_int_equal(holo_session_output_view(f.s, 1, &v), HOLO_ERR_ARG);
  assert_int_equal(holo_session_output_content(f.s, 1, &d, &err), HOLO_ERR_ARG);
  assert_false(holo_session_hold(f.s, &absent[0]));
  size_t len;
  uint32_t dt, rank;
  const int64_t *shape;
  assert_null(holo_session_resident(f.s, &absent[0], &len, &dt, &rank, &shape));
  holo_session_release(f.s, &absent[0]); /* not resident: nothing to drop */
  holo_session_release(0, 0);
  fx_close(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(archive_info_and_metadata), cmocka_unit_test(state_contract),
                                     cmocka_unit_test(execute_on_labels), cmocka_unit_test(misuse_is_an_error)};
  return cmocka_run_group_tests(tests, 0, 0);
}
