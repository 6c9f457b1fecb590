/* The pack seam (backend.h holo_pack_call, docs/decisions.md 32) through a
 * backend of this test's own: t.Dot packs its constant B transposed behind
 * a header, t.Neg packs nothing. The runtime asks at the first execution
 * that runs a node, for its constant inputs only, keeps the packed form
 * pinned and counted, hands it to infer and run, reports a failure as a
 * value (the session staying usable), and makes no packed form the memory
 * budget cannot hold. (The CPU kernels' packing: tests/js/
 * pack.test.mjs.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hologram/backend.h"
#include "hologram/holo.h"
#include "holo-std.h"

/* What the test kernels saw; reset by open_pack(). */
static struct {
  int queries, fills, runs_packed, runs_plain, fail_fill; /* fail_fill: fail the n-th fill (1-based), 0 never */
  int64_t rows_seen; /* rows of A at the last query */
  uint32_t inputs_asked; /* bitmask of the inputs queried */
} g;

#define MAGIC 0x544f4454u /* "TDOT" */
#define HDR 64

typedef struct {
  uint32_t magic;
  uint32_t pad;
  int64_t K, N;
} dot_hdr;

static holo_status refuse(char *msg, size_t cap, const char *m) {
  snprintf(msg, cap, "%s", m);
  return HOLO_ERR_KERNEL;
}

static holo_status dot_infer(holo_kernel_call *c) {
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  c->alias_input = -1;
  if (c->n_inputs != 2 || a->rank != 2 || b->rank != 2 || a->shape[1] != b->shape[0])
    return refuse(c->msg, c->msg_cap, "t.Dot: A [M,K] and B [K,N]");
  if (c->packed) {
    const dot_hdr *h = c->packed[1];
    if (c->packed[0] || !h || h->magic != MAGIC || h->K != b->shape[0] || h->N != b->shape[1])
      return refuse(c->msg, c->msg_cap, "t.Dot: not my packed form");
  }
  c->outputs[0].dtype = HOLO_DT_F32;
  c->outputs[0].rank = 2;
  c->outputs[0].shape[0] = a->shape[0];
  c->outputs[0].shape[1] = b->shape[1];
  return HOLO_OK;
}

/* Y(i,j) = sum over ascending k of A(i,k)*B(k,j): from B, or from its
 * transpose behind the header -- the same operations, the same bytes. */
static holo_status dot_run(holo_kernel_call *c) {
  const float *A = c->inputs[0].data, *B = c->inputs[1].data;
  const float *Bt = c->packed ? (const float *)((const uint8_t *)c->packed[1] + HDR) : 0;
  int64_t M = c->inputs[0].shape[0], K = c->inputs[0].shape[1], N = c->inputs[1].shape[1];
  float *Y = c->outputs[0].data;
  if (Bt) g.runs_packed++;
  else g.runs_plain++;
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int64_t k = 0; k < K; k++) acc += A[i * K + k] * (Bt ? Bt[j * K + k] : B[k * N + j]);
      Y[i * N + j] = acc;
    }
  return HOLO_OK;
}

static holo_status dot_pack(holo_pack_call *p) {
  const holo_tensor *a = &p->call->inputs[0], *b = &p->call->inputs[1];
  if (!p->dst) {
    g.queries++;
    g.inputs_asked |= 1u << p->input;
    g.rows_seen = a->rank == 2 ? a->shape[0] : -1;
    /* B only; whatever infer will refuse is not packed */
    p->bytes = p->input == 1 && b->rank == 2 ? HDR + (size_t)(b->shape[0] * b->shape[1]) * sizeof(float) : 0;
    return HOLO_OK;
  }
  if (++g.fills == g.fail_fill) return refuse(p->call->msg, p->call->msg_cap, "planted pack failure");
  int64_t K = b->shape[0], N = b->shape[1];
  memset(p->dst, 0, HDR);
  dot_hdr h = {MAGIC, 0, K, N};
  memcpy(p->dst, &h, sizeof h);
  float *Bt = (float *)((uint8_t *)p->dst + HDR);
  const float *B = b->data;
  for (int64_t k = 0; k < K; k++)
    for (int64_t j = 0; j < N; j++) Bt[j * K + k] = B[k * N + j];
  return HOLO_OK;
}

static holo_status neg_infer(holo_kernel_call *c) {
  c->alias_input = -1;
  c->outputs[0] = c->inputs[0];
  c->outputs[0].data = 0;
  return HOLO_OK;
}

static holo_status neg_run(holo_kernel_call *c) {
  const float *x = c->inputs[0].data;
  float *y = c->outputs[0].data;
  for (size_t i = 0; i < c->inputs[0].bytes / sizeof(float); i++) y[i] = -x[i];
  return HOLO_OK;
}

static const holo_kernel packing[] = {
    {.op = "t.Dot", .identity = "t.Dot/1", .infer = dot_infer, .run = dot_run, .pack = dot_pack},
    {.op = "t.Neg", .identity = "t.Neg/1", .infer = neg_infer, .run = neg_run},
};
/* The same kernels, the same identities, no pack: the unpacked reference. */
static const holo_kernel plain[] = {
    {.op = "t.Dot", .identity = "t.Dot/1", .infer = dot_infer, .run = dot_run},
    {.op = "t.Neg", .identity = "t.Neg/1", .infer = neg_infer, .run = neg_run},
};

static const holo_kernel *lookup(void *ctx, const char *op, uint32_t len) {
  const holo_kernel *t = ctx;
  for (int i = 0; i < 2; i++)
    if (holo__name_eq(op, len, t[i].op)) return &t[i];
  return 0;
}

typedef struct {
  uint8_t *bytes;
  size_t len;
  holo_backend be;
  holo_session *s;
} pk;

static void open_pack(pk *f, const holo_kernel *table, uint64_t budget, uint32_t flags) {
  holo_error err = {0};
  memset(&g, 0, sizeof g);
  if (holo_read_file("tests/fixtures/pack-seam.holo", &f->bytes, &f->len, &err)) fail_msg("%s", err.message);
  f->be = (holo_backend){"test-pack/1", (void *)table, lookup, 0, 0};
  holo_options o = {holo_std_allocator(), budget, 0, flags};
  if (holo_session_load(f->bytes, f->len, &f->be, &o, &f->s, &err)) fail_msg("load: %s", err.message);
}

static void close_pack(pk *f) {
  holo_session_free(f->s);
  free(f->bytes);
}

/* x [m,4], m rows of a fixed pattern shifted by salt. */
static holo_input input_of(float *x, int64_t *shape, int64_t m, float salt) {
  for (int64_t i = 0; i < m * 4; i++) x[i] = (float)(i % 9) * 0.375f - 1.0f + salt;
  shape[0] = m;
  shape[1] = 4;
  return (holo_input){x, (size_t)(m * 4) * sizeof(float), shape, 2};
}

static void packs_once_at_first_run_for_constant_inputs_only(void **st) {
  (void)st;
  pk f;
  open_pack(&f, packing, 0, 0);
  assert_int_equal(g.queries, 0); /* nothing at load: the cone node z is never asked */
  float x[40];
  int64_t shape[2];
  holo_input in = input_of(x, shape, 2, 0);
  holo_view v[3];
  holo_error err;
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  /* input 1 of dot_w (a constant) and of dot_nw (a cone value); never x */
  assert_int_equal(g.queries, 2);
  assert_int_equal(g.fills, 2);
  assert_int_equal(g.inputs_asked, 2u);
  assert_int_equal(g.rows_seen, 2); /* the other operand's shape is known */
  assert_int_equal(g.runs_packed, 2);
  in = input_of(x, shape, 5, 0.5f);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(g.queries, 2); /* pinned for the session, whatever the rows now */
  assert_int_equal(g.runs_packed, 4);
  assert_int_equal(g.runs_plain, 1); /* z, once, at load */
  close_pack(&f);
}

/* Packing is the kernel's business: the bytes and the labels are those of
 * the same kernels without pack. */
static void same_bytes_and_labels_as_unpacked(void **st) {
  (void)st;
  pk a, b;
  float x[40];
  int64_t shape[2];
  holo_error err;
  open_pack(&a, packing, 0, 0);
  holo_view va[3], vb[3];
  holo_input in = input_of(x, shape, 3, 0.25f);
  assert_int_equal(holo_execute_addressed(a.s, &in, 1, va, 3, &err), HOLO_OK);
  assert_int_equal(g.runs_packed, 2);
  open_pack(&b, plain, 0, 0);
  assert_int_equal(holo_execute_addressed(b.s, &in, 1, vb, 3, &err), HOLO_OK);
  assert_int_equal(g.runs_packed, 0);
  assert_int_equal(g.queries, 0);
  for (int p = 0; p < 3; p++) {
    assert_int_equal(va[p].len, vb[p].len);
    assert_memory_equal(va[p].data, vb[p].data, va[p].len);
    assert_string_equal(va[p].label, vb[p].label);
  }
  close_pack(&a);
  close_pack(&b);
}

/* The packed forms are resident buffers of the session: 2 x (64 + 48). */
static void packed_bytes_are_resident(void **st) {
  (void)st;
  pk f, r;
  float x[40];
  int64_t shape[2];
  holo_error err;
  holo_view v[3];
  open_pack(&f, packing, 0, 0);
  open_pack(&r, plain, 0, 0);
  uint64_t f0 = holo_session_resident_bytes(f.s), r0 = holo_session_resident_bytes(r.s);
  uint32_t fc0 = holo_session_resident_count(f.s), rc0 = holo_session_resident_count(r.s);
  assert_int_equal(f0, r0);
  holo_input in = input_of(x, shape, 2, 0);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(holo_execute_addressed(r.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(holo_session_resident_bytes(f.s) - f0, holo_session_resident_bytes(r.s) - r0 + 2 * (64 + 48));
  assert_int_equal(holo_session_resident_count(f.s) - fc0, holo_session_resident_count(r.s) - rc0 + 2);
  close_pack(&f);
  close_pack(&r);
}

/* A pack that fails is an error value naming the node and the input; the
 * next execution asks again and succeeds, with the reference bytes. */
static void pack_failure_is_a_value_and_the_session_survives(void **st) {
  (void)st;
  pk f, r;
  float x[40];
  int64_t shape[2];
  holo_error err;
  holo_view v[3], w[3];
  open_pack(&r, plain, 0, 0);
  holo_input in = input_of(x, shape, 4, 0);
  assert_int_equal(holo_execute_addressed(r.s, &in, 1, w, 3, &err), HOLO_OK);
  open_pack(&f, packing, 0, 0);
  g.fail_fill = 2; /* dot_w packs, dot_nw fails */
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_ERR_KERNEL);
  assert_non_null(strstr(err.message, "dot_nw"));
  assert_non_null(strstr(err.message, "packing input 1: planted pack failure"));
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(g.fills, 3); /* only dot_nw asked again */
  for (int p = 0; p < 3; p++) assert_memory_equal(v[p].data, w[p].data, w[p].len);
  close_pack(&f);
  close_pack(&r);
}

/* A packed form larger than the memory budget is not made: the node runs
 * on the constant as it is (the reference bytes) and the next execution
 * asks again; once the budget allows, it is made and used. */
static void pack_over_the_budget_is_not_made(void **st) {
  (void)st;
  pk f, r;
  float x[40];
  int64_t shape[2];
  holo_error err;
  holo_view v[3], w[3];
  open_pack(&r, plain, 0, 0);
  holo_input in = input_of(x, shape, 1, 0);
  assert_int_equal(holo_execute_addressed(r.s, &in, 1, w, 3, &err), HOLO_OK);
  open_pack(&f, packing, 100, 0); /* constants, cone values, x and y fit; 112-byte packs do not */
  uint64_t r0 = holo_session_resident_count(f.s);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(g.queries, 2);
  assert_int_equal(g.fills, 0);
  assert_int_equal(g.runs_plain, 3); /* z at load, dot_w, dot_nw */
  for (int p = 0; p < 3; p++) assert_memory_equal(v[p].data, w[p].data, w[p].len);
  assert_int_equal(holo_session_resident_count(f.s), r0 + 3); /* x, y1, y2: no packed form */
  in = input_of(x, shape, 1, 0.5f);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(g.queries, 4); /* asked again */
  assert_int_equal(holo_session_set_memory_budget(f.s, 4096), HOLO_OK);
  in = input_of(x, shape, 1, 0.25f);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(g.fills, 2);
  assert_int_equal(g.runs_packed, 2);
  close_pack(&f);
  close_pack(&r);
}

/* Without the warm cone, only archive constants are constant: dot_nw's
 * input 1 is recomputed each execution and not asked about; z's node runs
 * per execution and both its (constant) inputs are asked about. */
static void no_warm_cone_asks_about_archive_constants(void **st) {
  (void)st;
  pk f;
  float x[40];
  int64_t shape[2];
  holo_error err;
  holo_view v[3];
  open_pack(&f, packing, 0, HOLO_OPT_NO_WARM_CONE);
  holo_input in = input_of(x, shape, 2, 0);
  assert_int_equal(holo_execute_addressed(f.s, &in, 1, v, 3, &err), HOLO_OK);
  assert_int_equal(g.queries, 3);
  assert_int_equal(g.inputs_asked, 3u);
  assert_int_equal(g.fills, 2);
  assert_int_equal(g.runs_packed, 2);
  assert_int_equal(g.runs_plain, 1);
  close_pack(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(packs_once_at_first_run_for_constant_inputs_only),
      cmocka_unit_test(same_bytes_and_labels_as_unpacked),
      cmocka_unit_test(packed_bytes_are_resident),
      cmocka_unit_test(pack_failure_is_a_value_and_the_session_survives),
      cmocka_unit_test(pack_over_the_budget_is_not_made),
      cmocka_unit_test(no_warm_cone_asks_about_archive_constants),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
