/* Bad inputs (docs/bad-inputs.md): every class of malformed archive, bad
 * execute-time input, bad warm-store record and API misuse that the other
 * suites do not already cover gets an error value with a known status and
 * message, never a crash (this suite runs under ASan+UBSan and valgrind).
 *
 * Archives are built here by a small writer (docs/holo-format.md, no
 * constants) or by patching fixture bytes. */
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
#include "hologram/refine.h"
#include "holo-std.h"

/* --------------------------------------------------------------- helpers */

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

typedef struct blob {
  uint8_t *b; /* 64-byte aligned */
  size_t n;
} blob;

static blob fixture(const char *name) {
  char path[256];
  blob f;
  holo_error err = {0};
  snprintf(path, sizeof path, "tests/fixtures/%s.holo", name);
  assert_int_equal(holo_read_file(path, &f.b, &f.n, &err), HOLO_OK);
  return f;
}

/* Offset of section `id` in an archive (asserts it exists). */
static size_t section(const blob *f, const char *id, uint64_t *len) {
  uint32_t n = get32(f->b + 12);
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *e = f->b + 32 + 24 * i;
    if (memcmp(e, id, 4) == 0) {
      if (len) *len = get64(e + 16);
      return (size_t)get64(e + 8);
    }
  }
  fail_msg("no section %s", id);
  return 0;
}
static uint8_t *sect_entry(const blob *f, const char *id) {
  uint32_t n = get32(f->b + 12);
  for (uint32_t i = 0; i < n; i++)
    if (memcmp(f->b + 32 + 24 * i, id, 4) == 0) return f->b + 32 + 24 * i;
  fail_msg("no section %s", id);
  return 0;
}
static uint8_t *value_rec(const blob *f, uint32_t v) { return f->b + section(f, "VALS", 0) + 4 + 80 * (size_t)v; }

static holo_backend BE;
static holo_options OPT;

/* Loads bytes; returns the status, the session in *s when OK. */
static holo_status try_load(const uint8_t *b, size_t n, const holo_options *o, holo_session **s, holo_error *err) {
  memset(err, 0, sizeof *err);
  return holo_session_load(b, n, &BE, o ? o : &OPT, s, err);
}

/* Expects the load to fail with st and a message containing want. */
static void expect_load_fails(const blob *f, holo_status st, const char *want) {
  holo_session *s = 0;
  holo_error err;
  holo_status got = try_load(f->b, f->n, NULL, &s, &err);
  if (got != st) fail_msg("load: status %d (%s), expected %d; message: %s", got, holo_status_name(got), st, err.message);
  if (!strstr(err.message, want)) fail_msg("load message '%s' lacks '%s'", err.message, want);
  assert_null(s);
}

static holo_session *load_ok(const blob *f) {
  holo_session *s = 0;
  holo_error err;
  if (try_load(f->b, f->n, NULL, &s, &err)) fail_msg("load: %s", err.message);
  return s;
}

/* Executes and expects st with message substring want. */
static void expect_exec_fails(holo_session *s, const holo_input *in, uint32_t n, holo_status st, const char *want) {
  holo_output o[8];
  holo_error err = {0};
  holo_status got = holo_execute(s, in, n, o, holo_session_output_count(s), &err);
  if (got == HOLO_OK)
    for (uint32_t k = 0; k < holo_session_output_count(s); k++) holo_output_free(s, &o[k]);
  if (got != st) fail_msg("execute: status %d (%s), expected %d; message: %s", got, holo_status_name(got), st, err.message);
  if (!strstr(err.message, want)) fail_msg("execute message '%s' lacks '%s'", err.message, want);
}

/* ---------------------------------------------- a minimal archive writer */

typedef struct mw_val {
  uint8_t dtype, rank, kind;
  uint32_t aux;
  int64_t dims[8];
} mw_val;

typedef struct mw_node {
  const char *op;
  uint32_t n_in, n_out;
  uint32_t io[16];
} mw_node;

typedef struct mw {
  uint32_t n_syms, n_vals, n_nodes, n_in, n_out;
  mw_val vals[80];
  mw_node nodes[8];
  uint32_t in_ports[80], out_ports[8];
} mw;

static uint32_t mw_val_add(mw *m, uint8_t kind, uint8_t dtype, uint8_t rank, const int64_t *dims, uint32_t aux) {
  mw_val *v = &m->vals[m->n_vals];
  memset(v, 0, sizeof *v);
  v->kind = kind;
  v->dtype = dtype;
  v->rank = rank;
  v->aux = aux;
  for (uint32_t d = 0; dims && d < rank && d < 8; d++) v->dims[d] = dims[d];
  return m->n_vals++;
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* Sections STRS SYMS VALS NODE IOIX PORT; names are empty; symbol names
 * "s0", "s1"... . Returns a 64-aligned blob (free with free()). */
static blob mw_write(const mw *m) {
  uint8_t strs[1024];
  size_t sl = 0;
  /* Op names and symbol names go into STRS. */
  uint32_t op_off[8], sym_off[8];
  for (uint32_t i = 0; i < m->n_nodes; i++) {
    op_off[i] = (uint32_t)sl;
    memcpy(strs + sl, m->nodes[i].op, strlen(m->nodes[i].op));
    sl += strlen(m->nodes[i].op);
  }
  for (uint32_t i = 0; i < m->n_syms; i++) {
    sym_off[i] = (uint32_t)sl;
    strs[sl++] = 's';
    strs[sl++] = (uint8_t)('0' + i);
  }
  uint32_t n_io = 0;
  for (uint32_t i = 0; i < m->n_nodes; i++) n_io += m->nodes[i].n_in + m->nodes[i].n_out;
  size_t len[6] = {sl, 4 + 8 * (size_t)m->n_syms, 4 + 80 * (size_t)m->n_vals, 4 + 32 * (size_t)m->n_nodes,
                   4 + 4 * (size_t)n_io, 8 + 4 * (size_t)(m->n_in + m->n_out)};
  const char *ids[6] = {"STRS", "SYMS", "VALS", "NODE", "IOIX", "PORT"};
  size_t off[6], at = 32 + 24 * 6;
  for (int i = 0; i < 6; i++) {
    off[i] = align_up(at, 8);
    at = off[i] + len[i];
  }
  blob f;
  f.n = at;
  assert_int_equal(posix_memalign((void **)&f.b, 64, f.n), 0);
  memset(f.b, 0, f.n);
  static const uint8_t magic[8] = {0x89, 'H', 'O', 'L', 'O', 0x0D, 0x0A, 0x1A};
  memcpy(f.b, magic, 8);
  f.b[8] = 1;
  put32(f.b + 12, 6);
  put64(f.b + 16, f.n);
  for (int i = 0; i < 6; i++) {
    uint8_t *e = f.b + 32 + 24 * i;
    memcpy(e, ids[i], 4);
    put32(e + 4, 1);
    put64(e + 8, off[i]);
    put64(e + 16, len[i]);
  }
  memcpy(f.b + off[0], strs, sl);
  uint8_t *p = f.b + off[1];
  put32(p, m->n_syms);
  for (uint32_t i = 0; i < m->n_syms; i++) {
    put32(p + 4 + 8 * i, sym_off[i]);
    put32(p + 8 + 8 * i, 2);
  }
  p = f.b + off[2];
  put32(p, m->n_vals);
  for (uint32_t i = 0; i < m->n_vals; i++) {
    uint8_t *r = p + 4 + 80 * i;
    const mw_val *v = &m->vals[i];
    r[8] = v->dtype;
    r[9] = v->rank;
    r[10] = v->kind;
    put32(r + 12, v->aux);
    for (int d = 0; d < 8; d++) put64(r + 16 + 8 * d, (uint64_t)v->dims[d]);
  }
  p = f.b + off[3];
  put32(p, m->n_nodes);
  uint8_t *io = f.b + off[4];
  put32(io, n_io);
  uint32_t first = 0;
  for (uint32_t i = 0; i < m->n_nodes; i++) {
    uint8_t *r = p + 4 + 32 * i;
    const mw_node *nd = &m->nodes[i];
    put32(r, op_off[i]);
    put32(r + 4, (uint32_t)strlen(nd->op));
    put32(r + 16, first);
    r[20] = (uint8_t)nd->n_in;
    r[22] = (uint8_t)nd->n_out;
    for (uint32_t k = 0; k < nd->n_in + nd->n_out; k++) put32(io + 4 + 4 * (first + k), nd->io[k]);
    first += nd->n_in + nd->n_out;
  }
  p = f.b + off[5];
  put32(p, m->n_in);
  for (uint32_t i = 0; i < m->n_in; i++) put32(p + 4 + 4 * i, m->in_ports[i]);
  put32(p + 4 + 4 * m->n_in, m->n_out);
  for (uint32_t i = 0; i < m->n_out; i++) put32(p + 8 + 4 * (m->n_in + i), m->out_ports[i]);
  return f;
}

/* x:f32[dims] -> Relu -> y (unknown rank) */
static void mw_relu(mw *m, uint8_t rank, const int64_t *dims) {
  memset(m, 0, sizeof *m);
  uint32_t x = mw_val_add(m, 0, HOLO_DT_F32, rank, dims, 0);
  uint32_t y = mw_val_add(m, 2, HOLO_DT_F32, 255, NULL, 0);
  m->nodes[0] = (mw_node){"Relu", 1, 1, {x, y}};
  m->n_nodes = 1;
  m->in_ports[m->n_in++] = x;
  m->out_ports[m->n_out++] = y;
}

/* ------------------------------------------------------------ archives */

static void writer_self_check(void **st) {
  (void)st;
  mw m;
  int64_t d[2] = {2, 3};
  mw_relu(&m, 2, d);
  blob f = mw_write(&m);
  holo_session *s = load_ok(&f);
  float x[6] = {-1, 2, -3, 4, -5, 6};
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o;
  holo_error err;
  assert_int_equal(holo_execute(s, &in, 1, &o, 1, &err), HOLO_OK);
  assert_int_equal(((float *)o.bytes)[1], 2);
  assert_int_equal(((float *)o.bytes)[0], 0);
  holo_output_free(s, &o);
  holo_session_free(s);
  free(f.b);
}

/* VALS count over 2^24: refused by its limit before any allocation. */
static void oversized_counts(void **st) {
  (void)st;
  blob f = fixture("cone");
  size_t vals = section(&f, "VALS", 0);
  put32(f.b + vals, (1u << 24) + 1);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "exceeds the limit");
  put32(f.b + vals, 0xFFFFFFFFu);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "exceeds the limit");
  free(f.b);
  /* PORT n_in over 4096 */
  f = fixture("cone");
  put32(f.b + section(&f, "PORT", 0), 5000);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "exceeds the limit");
  /* section_count over 64 */
  put32(f.b + 12, 65);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "section_count");
  free(f.b);
}

/* Section offset + length that wrap a u64: out of bounds, not a wild read. */
static void section_offset_wraps(void **st) {
  (void)st;
  blob f = fixture("cone");
  uint8_t *e = sect_entry(&f, "DATA");
  put64(e + 8, 0xFFFFFFFFFFFFFFC0ull);
  put64(e + 16, 0x80);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "out of bounds");
  free(f.b);
  f = fixture("cone");
  e = sect_entry(&f, "STRS");
  put64(e + 16, 0xFFFFFFFFFFFFFFF0ull);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "out of bounds");
  free(f.b);
}

/* A constant whose dims overflow size_t (2^40 x 2^40) and one whose CONS
 * offset + length wraps. */
static void constant_size_overflow(void **st) {
  (void)st;
  blob f = fixture("cone");
  uint8_t *w1 = value_rec(&f, 1);
  put64(w1 + 16, 1ull << 40);
  put64(w1 + 24, 1ull << 40);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "constant size overflows");
  free(f.b);
  f = fixture("cone");
  uint8_t *c0 = f.b + section(&f, "CONS", 0) + 4;
  put64(c0, 0xFFFFFFFFFFFFFFC0ull);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "out of DATA bounds");
  free(f.b);
}

/* The archive lies about a constant's digest: caught by verification
 * (explicit, by option, and always when a warm store is attached). */
static void constant_digest_lies(void **st) {
  (void)st;
  blob f = fixture("cone");
  uint8_t *c0 = f.b + section(&f, "CONS", 0) + 4;
  c0[16] ^= 1;
  holo_session *s = load_ok(&f); /* not verified by default: used as labelled */
  holo_error err = {0};
  assert_int_equal(holo_session_verify_constants(s, &err), HOLO_ERR_FORMAT);
  assert_non_null(strstr(err.message, "stored label does not match its bytes"));
  holo_session_free(s);
  holo_options o = {holo_std_allocator(), 0, 0, HOLO_OPT_VERIFY_CONSTANTS};
  assert_int_equal(try_load(f.b, f.n, &o, &s, &err), HOLO_ERR_FORMAT);
  assert_non_null(strstr(err.message, "stored label does not match"));
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_options ws = {holo_std_allocator(), 0, &ms.store, 0};
  assert_int_equal(try_load(f.b, f.n, &ws, &s, &err), HOLO_ERR_FORMAT);
  assert_int_equal(ms.count, 0); /* nothing poisoned */
  holo_mem_store_release(&ms);
  free(f.b);
}

/* A node reading its own output (the smallest cycle) and a node reading a
 * later node's output: a cycle cannot be expressed, it is refused. */
static void cyclic_graph(void **st) {
  (void)st;
  mw m;
  int64_t d[1] = {4};
  mw_relu(&m, 1, d);
  m.nodes[0].io[0] = 1; /* Relu(y) -> y */
  blob f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "topolog");
  free(f.b);
  /* two nodes feeding each other */
  memset(&m, 0, sizeof m);
  uint32_t x = mw_val_add(&m, 0, HOLO_DT_F32, 1, d, 0);
  uint32_t a = mw_val_add(&m, 2, HOLO_DT_F32, 255, NULL, 0);
  uint32_t b = mw_val_add(&m, 2, HOLO_DT_F32, 255, NULL, 1);
  m.nodes[0] = (mw_node){"Add", 2, 1, {x, b, a}};
  m.nodes[1] = (mw_node){"Relu", 1, 1, {a, b}};
  m.n_nodes = 2;
  m.in_ports[m.n_in++] = x;
  m.out_ports[m.n_out++] = b;
  f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "topolog");
  free(f.b);
}

static void dangling_value_ids(void **st) {
  (void)st;
  mw m;
  int64_t d[1] = {4};
  /* A node-output value no node produces. */
  mw_relu(&m, 1, d);
  mw_val_add(&m, 2, HOLO_DT_F32, 255, NULL, 0);
  blob f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "dangling");
  free(f.b);
  /* Output port past VALS. */
  mw_relu(&m, 1, d);
  m.out_ports[0] = 99;
  f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "output port 0: value id 99 out of range");
  free(f.b);
  /* Input port past VALS. */
  mw_relu(&m, 1, d);
  m.in_ports[0] = 0xFFFFFFFFu;
  f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "input port 0: value id");
  free(f.b);
  /* Node output id 0xFFFFFFFF (absent is only for inputs). */
  mw_relu(&m, 1, d);
  m.nodes[0].io[1] = 0xFFFFFFFFu;
  f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_FORMAT, "output value id");
  free(f.b);
}

static void unknown_op(void **st) {
  (void)st;
  mw m;
  int64_t d[1] = {4};
  mw_relu(&m, 1, d);
  m.nodes[0].op = "Relx";
  blob f = mw_write(&m);
  expect_load_fails(&f, HOLO_ERR_UNSUPPORTED, "unsupported op Relx");
  free(f.b);
}

/* The archive's advisory output shape/dtype disagree with the kernels. */
static void output_dtype_shape_mismatch(void **st) {
  (void)st;
  blob f = fixture("refine-relu"); /* x f32[8] -> Relu -> y f32[8] (declared) */
  uint8_t *y = value_rec(&f, 1);
  assert_int_equal(y[9], 1);
  y[8] = HOLO_DT_I32;
  holo_session *s = load_ok(&f);
  float x[8] = {0};
  holo_input in = {x, sizeof x, NULL, 0};
  expect_exec_fails(s, &in, 1, HOLO_ERR_FORMAT, "archive declares dtype 6");
  holo_session_free(s);
  y[8] = HOLO_DT_F32;
  put64(y + 16, 7);
  s = load_ok(&f);
  expect_exec_fails(s, &in, 1, HOLO_ERR_FORMAT, "output shape differs from the archive");
  holo_session_free(s);
  free(f.b);
}

/* Operand shapes a kernel refuses: a constant re-shaped in the archive
 * (same byte length) so the MatMul inner dims differ. */
static void operand_shape_mismatch(void **st) {
  (void)st;
  blob f = fixture("cone");
  /* w1 (value 1) feeds the cone's Transpose: [4,16] -> [16,4]; w2 has the
   * same stored digest, so it binds to w1's entry (constants are taken as
   * labelled unless verified). */
  uint8_t *w1 = value_rec(&f, 1);
  put64(w1 + 16, 4);
  put64(w1 + 24, 16);
  holo_session *s = load_ok(&f);
  float x[16] = {0};
  holo_input in = {x, sizeof x, NULL, 0};
  expect_exec_fails(s, &in, 1, HOLO_ERR_KERNEL, "MatMul: inner dimensions differ");
  /* and the session still runs a good archive's worth of calls afterwards */
  expect_exec_fails(s, &in, 1, HOLO_ERR_KERNEL, "inner dimensions");
  holo_session_free(s);
  free(f.b);
}

/* The archive sits at an address that is not 64-byte aligned: constants are
 * copied once instead of used in place; results are identical. */
static void misaligned_archive_in_memory(void **st) {
  (void)st;
  blob f = fixture("cone");
  uint8_t *raw = malloc(f.n + 8);
  memcpy(raw + 8, f.b, f.n);
  holo_session *a = load_ok(&f), *b;
  holo_error err;
  assert_int_equal(try_load(raw + 8, f.n, NULL, &b, &err), HOLO_OK);
  float x[16];
  for (int i = 0; i < 16; i++) x[i] = (float)i * 0.5f - 3;
  holo_input in = {x, sizeof x, NULL, 0};
  holo_view va, vb;
  assert_int_equal(holo_execute_addressed(a, &in, 1, &va, 1, &err), HOLO_OK);
  assert_int_equal(holo_execute_addressed(b, &in, 1, &vb, 1, &err), HOLO_OK);
  assert_string_equal(va.label, vb.label);
  assert_memory_equal(va.data, vb.data, va.len);
  holo_session_free(a);
  holo_session_free(b);
  free(raw);
  free(f.b);
}

/* More than 64 input ports: loads, but execute refuses with LIMIT. */
static void too_many_input_ports(void **st) {
  (void)st;
  mw m;
  memset(&m, 0, sizeof m);
  int64_t d[1] = {1};
  for (uint32_t i = 0; i < 65; i++) m.in_ports[m.n_in++] = mw_val_add(&m, 0, HOLO_DT_F32, 1, d, 0);
  m.out_ports[m.n_out++] = 0;
  blob f = mw_write(&m);
  holo_session *s = load_ok(&f);
  assert_int_equal(holo_session_input_count(s), 65);
  static float x[65];
  holo_input in[65];
  for (int i = 0; i < 65; i++) in[i] = (holo_input){&x[i], 4, NULL, 0};
  expect_exec_fails(s, in, 65, HOLO_ERR_LIMIT, "more than 64 input ports");
  holo_session_free(s);
  free(f.b);
}

/* ------------------------------------------------------ execute inputs */

static blob SYM; /* x f32[s0, 4] -> Relu */
static holo_session *sym_session(void) {
  mw m;
  int64_t d[2] = {-1, 4};
  mw_relu(&m, 2, d);
  m.n_syms = 1;
  SYM = mw_write(&m);
  return load_ok(&SYM);
}

/* Symbolic dims bound to sizes whose byte count overflows size_t, or that
 * are merely huge: LIMIT or INPUT, never an allocation or a read. */
static void huge_symbolic_bindings(void **st) {
  (void)st;
  holo_session *s = sym_session();
  float x[8] = {0};
  int64_t shape[2] = {(int64_t)1 << 62, 4};
  holo_input in = {x, sizeof x, shape, 2};
  expect_exec_fails(s, &in, 1, HOLO_ERR_LIMIT, "shape size overflows");
  shape[0] = INT64_MAX;
  expect_exec_fails(s, &in, 1, HOLO_ERR_LIMIT, "overflows");
  /* 2^31 x 4 x 4 bytes fits a 64-bit size_t: the byte length is wrong. */
  shape[0] = (int64_t)1 << 31;
  expect_exec_fails(s, &in, 1, sizeof(size_t) == 4 ? HOLO_ERR_LIMIT : HOLO_ERR_INPUT,
                    sizeof(size_t) == 4 ? "overflows" : "32 bytes, expected 34359738368");
  shape[0] = -5;
  expect_exec_fails(s, &in, 1, HOLO_ERR_INPUT, "is negative");
  shape[0] = 2;
  holo_output o;
  holo_error err;
  assert_int_equal(holo_execute(s, &in, 1, &o, 1, &err), HOLO_OK); /* still usable */
  holo_output_free(s, &o);
  holo_session_free(s);
  free(SYM.b);
}

/* Two inputs sharing a symbol must agree on it. */
static void symbol_bound_inconsistently(void **st) {
  (void)st;
  mw m;
  memset(&m, 0, sizeof m);
  int64_t d[1] = {-1};
  uint32_t a = mw_val_add(&m, 0, HOLO_DT_F32, 1, d, 0);
  uint32_t b = mw_val_add(&m, 0, HOLO_DT_F32, 1, d, 0);
  uint32_t y = mw_val_add(&m, 2, HOLO_DT_F32, 255, NULL, 0);
  m.nodes[0] = (mw_node){"Add", 2, 1, {a, b, y}};
  m.n_nodes = 1;
  m.n_syms = 1;
  m.in_ports[m.n_in++] = a;
  m.in_ports[m.n_in++] = b;
  m.out_ports[m.n_out++] = y;
  blob f = mw_write(&m);
  holo_session *s = load_ok(&f);
  float x[4] = {1, 2, 3, 4};
  int64_t s3[1] = {3}, s4[1] = {4};
  holo_input in[2] = {{x, 12, s3, 1}, {x, 16, s4, 1}};
  expect_exec_fails(s, in, 2, HOLO_ERR_INPUT, "(s0) is 4 but was bound to 3");
  holo_session_free(s);
  free(f.b);
}

static void wrong_rank_and_shape(void **st) {
  (void)st;
  holo_session *s = sym_session();
  float x[8] = {0};
  int64_t shape[3] = {2, 4, 1};
  holo_input in = {x, sizeof x, shape, 3};
  expect_exec_fails(s, &in, 1, HOLO_ERR_INPUT, "rank 3, expected 2");
  in.rank = 1;
  expect_exec_fails(s, &in, 1, HOLO_ERR_INPUT, "rank 1, expected 2");
  holo_session_free(s);
  free(SYM.b);
}

/* Zero-sized tensors: a symbolic dim bound to 0 executes and returns an
 * empty output of the right shape; empty inputs may pass bytes NULL. */
static void zero_sized_tensors(void **st) {
  (void)st;
  holo_session *s = sym_session();
  int64_t shape[2] = {0, 4};
  float dummy;
  holo_input in = {&dummy, 0, shape, 2};
  holo_output o;
  holo_error err = {0};
  assert_int_equal(holo_execute(s, &in, 1, &o, 1, &err), HOLO_OK);
  assert_int_equal(o.len, 0);
  assert_int_equal(o.rank, 2);
  assert_int_equal(o.shape[0], 0);
  assert_int_equal(o.shape[1], 4);
  holo_output_free(s, &o);
  in.bytes = NULL; /* zero bytes need no pointer */
  assert_int_equal(holo_execute(s, &in, 1, &o, 1, &err), HOLO_OK);
  assert_int_equal(o.len, 0);
  holo_output_free(s, &o);
  holo_session_free(s);
  free(SYM.b);
}

/* NaN and Inf are data: executed, labelled by their bytes, deterministic. */
static void nan_inf_inputs(void **st) {
  (void)st;
  blob f = fixture("cse"); /* y = Relu(x) + Relu(x), x f32[4,8] */
  holo_session *a = load_ok(&f), *b = load_ok(&f);
  float x[32];
  for (int i = 0; i < 32; i++) x[i] = (float)i;
  x[0] = __builtin_nanf("");
  x[1] = -__builtin_nanf("");
  x[2] = __builtin_inff();
  x[3] = -__builtin_inff();
  x[4] = 3.4e38f;
  holo_input in = {x, sizeof x, NULL, 0};
  holo_view va, vb;
  holo_error err;
  assert_int_equal(holo_execute_addressed(a, &in, 1, &va, 1, &err), HOLO_OK);
  assert_int_equal(holo_execute_addressed(b, &in, 1, &vb, 1, &err), HOLO_OK);
  assert_string_equal(va.label, vb.label);
  assert_memory_equal(va.data, vb.data, va.len);
  const float *y = va.data;
  assert_true(y[2] == __builtin_inff());
  assert_true(y[3] == 0);
  assert_true(y[4] == __builtin_inff()); /* 2 x 3.4e38 overflows to +Inf */
  char first[72];
  memcpy(first, va.label, sizeof first);
  /* A different NaN payload is different content: a different label. */
  uint32_t bits = 0x7fc00001u;
  memcpy(&x[0], &bits, 4);
  assert_int_equal(holo_execute_addressed(a, &in, 1, &va, 1, &err), HOLO_OK);
  assert_string_not_equal(first, va.label);
  holo_session_free(a);
  holo_session_free(b);
  free(f.b);
}

/* --------------------------------------------------------- warm stores */

#include "label.h" /* HOLO_LABEL_LEN, holo_content_digest: the record's digest */

/* Record layout (docs/warm-store.md): "HOLOWS2\0" | 71-byte label | u32 dtype
 * | u32 rank | i64 dims[rank] | 32-byte content digest | bytes. */
#define REC_DTYPE (8 + HOLO_LABEL_LEN)
#define REC_RANK (REC_DTYPE + 4)
#define REC_DIMS (REC_DTYPE + 8)

typedef struct fixed_store {
  holo_warm_store ws;
  const uint8_t *rec;
  size_t len;
} fixed_store;

/* Returns the same record whatever label is asked: the tests build it for
 * the label the core asks (CONE_LABEL) or, explicitly, for another one. */
static holo_status fixed_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  fixed_store *f = ctx;
  (void)label;
  *bytes = f->rec;
  *len = f->len;
  return HOLO_OK;
}
static holo_status fixed_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  (void)ctx, (void)label, (void)bytes, (void)len;
  return HOLO_OK;
}

/* cone.holo's one cone value: the label the core asks the store for and the
 * record it puts (captured from a load with an empty store). */
static char CONE_LABEL[HOLO_LABEL_LEN + 1];
static uint8_t CONE_REC[1024];
static size_t CONE_REC_LEN;

static holo_status capture_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  (void)ctx, (void)label, (void)bytes, (void)len;
  return HOLO_ERR_STORE; /* a miss */
}
static holo_status capture_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  (void)ctx;
  assert_int_equal(strlen(label), HOLO_LABEL_LEN);
  assert_true(len <= sizeof CONE_REC);
  memcpy(CONE_LABEL, label, HOLO_LABEL_LEN + 1);
  memcpy(CONE_REC, bytes, len);
  CONE_REC_LEN = len;
  return HOLO_OK;
}

static void capture_cone(void) {
  if (CONE_REC_LEN) return;
  blob f = fixture("cone");
  holo_warm_store ws = {0, capture_get, capture_put};
  holo_options o = {holo_std_allocator(), 0, &ws, 0};
  holo_session *s;
  holo_error err;
  if (try_load(f.b, f.n, &o, &s, &err)) fail_msg("load cone: %s", err.message);
  holo_counters c;
  holo_session_counters(s, &c);
  assert_int_equal(c.store_puts, 1);
  holo_session_free(s);
  free(f.b);
}

/* Another well-formed label: CONE_LABEL with its last hex digit changed. */
static void other_label(char out[HOLO_LABEL_LEN + 1]) {
  capture_cone();
  memcpy(out, CONE_LABEL, HOLO_LABEL_LEN + 1);
  out[HOLO_LABEL_LEN - 1] = out[HOLO_LABEL_LEN - 1] == '0' ? '1' : '0';
}

/* Builds a record of the docs/warm-store.md format naming label; digest_ok:
 * a correct content digest (self-consistent), else zeros. */
static size_t make_record(uint8_t *out, const char *label, uint32_t dtype, uint32_t rank, const int64_t *dims,
                          const void *data, size_t n, bool digest_ok) {
  assert_int_equal(strlen(label), HOLO_LABEL_LEN);
  memcpy(out, "HOLOWS2", 8);
  memcpy(out + 8, label, HOLO_LABEL_LEN);
  put32(out + REC_DTYPE, dtype);
  put32(out + REC_RANK, rank);
  for (uint32_t d = 0; d < rank; d++) put64(out + REC_DIMS + 8 * d, (uint64_t)dims[d]);
  size_t hdr = REC_DIMS + 8 * (size_t)rank + 32;
  holo_digest dg;
  memset(&dg, 0, sizeof dg);
  if (digest_ok) holo_content_digest(dtype, dims, rank, data, n, &dg);
  memcpy(out + hdr - 32, dg.b, 32);
  memcpy(out + hdr, data, n);
  return hdr + n;
}

/* Loads cone.holo with a store that returns rec for every get and executes
 * once; when want is HOLO_OK the result must equal a session without a
 * store. Returns the counters after load. */
static holo_counters load_with_record(const uint8_t *rec, size_t len, uint32_t flags, holo_status want,
                                      const char *exec_msg) {
  blob f = fixture("cone");
  fixed_store fs = {{0, fixed_get, fixed_put}, rec, len};
  fs.ws.ctx = &fs;
  holo_options o = {holo_std_allocator(), 0, &fs.ws, flags};
  holo_session *s;
  holo_error err;
  holo_status st = try_load(f.b, f.n, &o, &s, &err);
  if (st) fail_msg("load with a bad record: %s", err.message);
  holo_counters c;
  holo_session_counters(s, &c);
  float x[16] = {1};
  holo_input in = {x, sizeof x, NULL, 0};
  if (want) expect_exec_fails(s, &in, 1, want, exec_msg);
  else {
    holo_view v;
    assert_int_equal(holo_execute_addressed(s, &in, 1, &v, 1, &err), HOLO_OK);
    holo_session *ref = load_ok(&f);
    holo_view rv;
    assert_int_equal(holo_execute_addressed(ref, &in, 1, &rv, 1, &err), HOLO_OK);
    assert_string_equal(v.label, rv.label);
    assert_int_equal(v.len, rv.len);
    assert_memory_equal(v.data, rv.data, v.len);
    holo_session_free(ref);
  }
  holo_session_free(s);
  free(f.b);
  return c;
}

/* Corrupt records of every kind: counted as corrupt and recomputed. */
static void corrupt_store_records(void **st) {
  (void)st;
  static uint8_t rec[1024], bad[1024];
  float w[64];
  for (int i = 0; i < 64; i++) w[i] = (float)i;
  int64_t d88[2] = {8, 8};
  capture_cone();
  size_t n = make_record(rec, CONE_LABEL, HOLO_DT_F32, 2, d88, w, sizeof w, false); /* digest zeros: inconsistent */
  holo_counters c = load_with_record(rec, n, 0, HOLO_OK, 0);
  assert_int_equal(c.store_corrupt, 1);
  assert_int_equal(c.dispatches, 1);
  struct {
    const char *what;
    size_t at, len;
    uint8_t val;
  } cases[] = {
      {"empty", 0, 0, 0},
      {"magic", 3, 0, 'x'},
      {"magic v1", 6, 0, '1'},
      {"label", 8 + 20, 0, 'g'},
      {"rank 9", REC_RANK, 0, 9},
      {"rank 255", REC_RANK, 0, 255},
      {"dtype 0", REC_DTYPE, 0, 0},
      {"dtype 8", REC_DTYPE, 0, 8},
      {"truncated", 0, REC_DIMS + 16 + 18, 0},
      {"truncated in label", 0, 50, 0},
      {"dims huge", REC_DIMS + 7, 0, 0x7f},
      {"dim negative", REC_DIMS + 15, 0, 0xff},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    n = make_record(rec, CONE_LABEL, HOLO_DT_F32, 2, d88, w, sizeof w, true);
    memcpy(bad, rec, n);
    size_t len = cases[k].len ? cases[k].len : (cases[k].at || k ? n : 0);
    if (cases[k].at) bad[cases[k].at] = cases[k].val;
    for (uint32_t trust = 0; trust < 2; trust++) {
      c = load_with_record(bad, len, trust ? HOLO_OPT_TRUST_STORE : 0, HOLO_OK, 0);
      if (c.store_corrupt != 1) fail_msg("record '%s' (trust %u): store_corrupt %llu", cases[k].what, trust, (unsigned long long)c.store_corrupt);
    }
  }
  /* Trailing garbage: the byte length no longer matches the dims. */
  n = make_record(rec, CONE_LABEL, HOLO_DT_F32, 2, d88, w, sizeof w, true);
  c = load_with_record(rec, n + 1, HOLO_OPT_TRUST_STORE, HOLO_OK, 0);
  assert_int_equal(c.store_corrupt, 1);
}

/* A self-consistent record returned for a label other than the one it names
 * (a mis-keyed, renamed or swapped record): refused in both modes, even with
 * HOLO_OPT_TRUST_STORE, counted as corrupt and recomputed; results are those
 * of a session without a store. This includes the genuine record of the right
 * value filed under another label. */
static void self_consistent_wrong_record(void **st) {
  (void)st;
  static uint8_t rec[1024];
  char other[HOLO_LABEL_LEN + 1];
  other_label(other);
  float w[64] = {0};
  int64_t d416[2] = {4, 16}, d88[2] = {8, 8};
  struct {
    const char *what;
    size_t n;
  } cases[3];
  static uint8_t recs[3][1024];
  cases[0].what = "wrong shape";
  cases[0].n = make_record(recs[0], other, HOLO_DT_F32, 2, d416, w, sizeof w, true);
  cases[1].what = "wrong dtype";
  cases[1].n = make_record(recs[1], other, HOLO_DT_I32, 2, d88, w, sizeof w, true);
  cases[2].what = "genuine bytes, other label";
  memcpy(recs[2], CONE_REC, CONE_REC_LEN);
  memcpy(recs[2] + 8, other, HOLO_LABEL_LEN);
  cases[2].n = CONE_REC_LEN;
  for (size_t k = 0; k < 3; k++)
    for (uint32_t trust = 0; trust < 2; trust++) {
      holo_counters c = load_with_record(recs[k], cases[k].n, trust ? HOLO_OPT_TRUST_STORE : 0, HOLO_OK, 0);
      if (c.store_corrupt != 1 || c.store_hits != 0 || c.dispatches != 1)
        fail_msg("record '%s' (trust %u): corrupt %llu hits %llu dispatches %llu", cases[k].what, trust,
                 (unsigned long long)c.store_corrupt, (unsigned long long)c.store_hits,
                 (unsigned long long)c.dispatches);
    }
  /* The genuine record under its own label: a hit, nothing dispatched. */
  holo_counters c = load_with_record(CONE_REC, CONE_REC_LEN, 0, HOLO_OK, 0);
  assert_int_equal(c.store_hits, 1);
  assert_int_equal(c.dispatches, 0);
  /* Still by design (docs/warm-store.md, what it does not protect against):
   * a self-consistent record of the wrong value that names the label asked
   * is accepted; a wrong shape then fails in the consuming kernel, as a value. */
  size_t n = make_record(rec, CONE_LABEL, HOLO_DT_F32, 2, d416, w, sizeof w, true);
  c = load_with_record(rec, n, 0, HOLO_ERR_KERNEL, "MatMul: inner dimensions differ");
  assert_int_equal(c.store_hits, 1);
  assert_int_equal(c.dispatches, 0);
  c = load_with_record(rec, n, HOLO_OPT_TRUST_STORE, HOLO_ERR_KERNEL, "MatMul");
  assert_int_equal(c.store_hits, 1);
  n = make_record(rec, CONE_LABEL, HOLO_DT_I32, 2, d88, w, sizeof w, true);
  load_with_record(rec, n, 0, HOLO_ERR_UNSUPPORTED, "MatMul");
}

/* FileWarmStore: a directory that is a file, a path too long, and label
 * tricks beyond test_session's: upper-case hex, short, long, separators. */
static void store_path_tricks(void **st) {
  (void)st;
  holo_file_store fs;
  holo_error err = {0};
  char path[] = "/tmp/holo-bad-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  assert_int_equal(holo_file_store_open(&fs, path, &err), HOLO_ERR_STORE);
  assert_non_null(strstr(err.message, "not a directory"));
  unlink(path);
  static char longdir[2048];
  memset(longdir, 'a', sizeof longdir - 1);
  assert_int_equal(holo_file_store_open(&fs, longdir, &err), HOLO_ERR_ARG);
  /* (the message starts with the 2047-byte path, so the reason is cut off) */
  assert_int_equal(holo_file_store_open(&fs, NULL, &err), HOLO_ERR_ARG);
  char dir[] = "/tmp/holo-ws-XXXXXX";
  assert_non_null(mkdtemp(dir));
  assert_int_equal(holo_file_store_open(&fs, dir, &err), HOLO_OK);
  char lbl[80];
  const char *bad[] = {"sha256:", "", "sha256:/etc/passwd", "md5:0123", 0};
  const uint8_t *p;
  size_t n;
  for (int i = 0; bad[i]; i++) {
    assert_int_equal(fs.store.put(fs.store.ctx, bad[i], (const uint8_t *)"x", 1), HOLO_ERR_STORE);
    assert_int_equal(fs.store.get(fs.store.ctx, bad[i], &p, &n), HOLO_ERR_STORE);
  }
  snprintf(lbl, sizeof lbl, "sha256:%064d", 0);
  lbl[10] = 'A'; /* upper case */
  assert_int_equal(fs.store.put(fs.store.ctx, lbl, (const uint8_t *)"x", 1), HOLO_ERR_STORE);
  lbl[10] = '/';
  assert_int_equal(fs.store.put(fs.store.ctx, lbl, (const uint8_t *)"x", 1), HOLO_ERR_STORE);
  lbl[10] = '0';
  strcat(lbl, "0"); /* 72 chars */
  assert_int_equal(fs.store.put(fs.store.ctx, lbl, (const uint8_t *)"x", 1), HOLO_ERR_STORE);
  lbl[70] = 0; /* 70 chars */
  assert_int_equal(fs.store.put(fs.store.ctx, lbl, (const uint8_t *)"x", 1), HOLO_ERR_STORE);
  assert_int_equal(fs.store.get(fs.store.ctx, NULL, &p, &n), HOLO_ERR_STORE);
  /* A valid label that is absent: a miss. */
  snprintf(lbl, sizeof lbl, "sha256:%064d", 0);
  assert_int_equal(fs.store.get(fs.store.ctx, lbl, &p, &n), HOLO_ERR_STORE);
  holo_file_store_close(&fs);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  assert_int_equal(system(cmd), 0);
  /* MemWarmStore refuses non-labels too. */
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  assert_int_equal(ms.store.put(ms.store.ctx, "sha256:../../x", (const uint8_t *)"x", 1), HOLO_ERR_STORE);
  assert_int_equal(ms.count, 0);
  holo_mem_store_release(&ms);
}

/* ---------------------------------------------------------------- memory */

/* A pinned (constant-only cone) value larger than the budget is refused at
 * load, naming the bytes and the bound. */
static void budget_too_small_at_load(void **st) {
  (void)st;
  blob f = fixture("cone"); /* the cone's Transpose output is 256 bytes */
  holo_options o = {holo_std_allocator(), 255, 0, 0};
  holo_session *s;
  holo_error err;
  assert_int_equal(try_load(f.b, f.n, &o, &s, &err), HOLO_ERR_BUDGET);
  assert_non_null(strstr(err.message, "a value needs 256 bytes, the bound is 255 bytes"));
  o.memory_budget = 256;
  assert_int_equal(try_load(f.b, f.n, &o, &s, &err), HOLO_OK);
  holo_session_free(s);
  free(f.b);
}

/* Work budget (fuzz_archive slow units, docs/fuzzing.md): a 3 KB archive
 * whose Conv -> AveragePool 195x2 over a declared 1x3x10508x12 input is
 * 3.5e8 operations (minutes under the fuzzer's sanitizers). Bounded, it is
 * refused at the Conv (1.4e7), before any kernel runs. */
#define SLOW_UNIT "../fuzz/regressions/fuzz_archive/slow-unit-1dd1290a-conv-avgpool-195x2-10508x12"

static void work_budget_refuses_a_big_graph(void **st) {
  (void)st;
  blob f = fixture(SLOW_UNIT);
  holo_session *s = load_ok(&f);
  const size_t n = 3 * 10508 * 12;
  float *x = calloc(n, sizeof *x);
  assert_non_null(x);
  holo_input in = {x, n * sizeof *x, NULL, 0};
  assert_int_equal(holo_session_set_work_budget(s, 1u << 22), HOLO_OK);
  expect_exec_fails(
      s, &in, 1, HOLO_ERR_BUDGET,
      "node 0 (Conv conv): work budget exceeded: this node needs 13618368 operations, 13618368 in all "
      "so far, the bound is 4194304");
  assert_int_equal(holo_session_set_work_budget(NULL, 1), HOLO_ERR_ARG);
  holo_counters c;
  holo_session_counters(s, &c);
  assert_int_equal(c.dispatches, 0); /* refused before the kernel ran */
  holo_session_free(s);
  free(x);
  free(f.b);
}

/* The budget is per execution and exact: the digit CNN's walk charges
 * 17909 operations; that bound passes, one less fails at its last node. */
static void work_budget_is_per_execution(void **st) {
  (void)st;
  blob f = fixture("cnn");
  holo_session *s = load_ok(&f);
  float x[3 * 12 * 12] = {0};
  holo_input in = {x, sizeof x, NULL, 0};
  holo_output o[1];
  holo_error err = {0};
  assert_int_equal(holo_execute(s, &in, 1, o, 1, &err), HOLO_OK); /* unbounded by default */
  holo_output_free(s, o);
  uint64_t need = holo_session_last_work(s);
  assert_int_equal(need, 17909);
  assert_int_equal(holo_execute(s, &in, 1, o, 1, &err), HOLO_OK); /* memo hit */
  holo_output_free(s, o);
  assert_int_equal(holo_session_last_work(s), 0);
  holo_session_set_work_budget(s, need);
  for (int k = 0; k < 3; k++) { /* three distinct walks, each within the bound */
    x[k] = 1.0f + (float)k;
    assert_int_equal(holo_execute(s, &in, 1, o, 1, &err), HOLO_OK);
    holo_output_free(s, o);
    assert_int_equal(holo_session_last_work(s), need);
  }
  holo_session_set_work_budget(s, need - 1);
  x[0] = -1.0f;
  expect_exec_fails(s, &in, 1, HOLO_ERR_BUDGET, "node 6 (Softmax softmax): work budget exceeded");
  holo_session_free(s);
  free(f.b);
}

/* kernel_shape, pads and strides of 2^31 (the attribute limit) over a 1x1
 * input: 2x2 windows of 2^62 taps each, all but one padding. The pooling
 * loops visited every tap (a hang, with or without a budget); they visit
 * only the taps inside X, and count_include_pad's divisor is a product. */
static void pooling_windows_of_padding(void **st) {
  (void)st;
#ifndef __wasi__
  alarm(60); /* before the fix this never returned: fail rather than hang */
#endif
  static const char *const names[2] = {"../fuzz/regressions/fuzz_archive/avgpool-2^62-padding-taps",
                                       "../fuzz/regressions/fuzz_archive/maxpool-2^62-padding-taps"};
  const float ninf = -__builtin_inff();
  const float want[2][4] = {{0, 0, 0, 1.0f}, {ninf, ninf, ninf, 0x1p62f}};
  for (int k = 0; k < 2; k++) {
    blob f = fixture(names[k]);
    holo_session *s = load_ok(&f);
    float x = 0x1p62f; /* the one real tap; 2^62 / 2^62 taps = 1 */
    holo_input in = {&x, sizeof x, NULL, 0};
    holo_output o[1];
    holo_error err = {0};
    assert_int_equal(holo_execute(s, &in, 1, o, 1, &err), HOLO_OK);
    assert_int_equal(o[0].len, sizeof want[k]);
    assert_memory_equal(o[0].bytes, want[k], sizeof want[k]);
    holo_output_free(s, o);
    assert_true(holo_session_last_work(s) < 64); /* what a budget sees: 4 windows of 1 tap */
    holo_session_free(s);
    free(f.b);
  }
#ifndef __wasi__
  alarm(0);
#endif
}

/* An allocator that fails its k-th call. */
typedef struct fail_alloc {
  holo_allocator a;
  long calls, fail_at, live;
} fail_alloc;
static void *fa_alloc(void *ctx, size_t size, size_t align) {
  fail_alloc *f = ctx;
  if (++f->calls == f->fail_at) return NULL;
  void *p = 0;
  if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1)) return NULL;
  f->live++;
  return p;
}
static void fa_free(void *ctx, void *p) {
  fail_alloc *f = ctx;
  if (p) f->live--;
  free(p);
}

/* Every allocation of a load + two executions + a refinement fails in
 * turn: MEMORY (or a later success), never a crash or a leak. */
static void allocator_failures(void **st) {
  (void)st;
  const char *names[] = {"cone", "cnn", "refine-relu"};
  for (int k = 0; k < 3; k++) {
    blob f = fixture(names[k]);
    int failures = 0;
    for (long at = 1;; at++) {
      fail_alloc fa = {{0, fa_alloc, fa_free}, 0, at, 0};
      fa.a.ctx = &fa;
      holo_mem_store ms;
      holo_mem_store_init(&ms, &fa.a);
      holo_options o = {&fa.a, 0, &ms.store, 0};
      holo_session *s = 0;
      holo_error err = {0};
      holo_status st2 = try_load(f.b, f.n, &o, &s, &err);
      bool hit = st2 != HOLO_OK;
      if (st2) assert_int_equal(st2, HOLO_ERR_MEMORY);
      if (!st2) {
        holo_port_info p;
        holo_session_input_info(s, 0, &p);
        size_t bytes = 4;
        for (uint32_t d = 0; d < p.rank; d++) bytes *= (size_t)p.shape[d];
        float *x = calloc(1, bytes);
        holo_input in = {x, bytes, NULL, 0};
        holo_view v[4];
        for (int rep = 0; rep < 2; rep++) {
          x[0] = (float)rep;
          st2 = holo_execute_addressed(s, &in, 1, v, holo_session_output_count(s), &err);
          if (st2) {
            hit = true;
            if (st2 != HOLO_ERR_MEMORY) fail_msg("%s: allocation %ld failed -> %s: %s", names[k], at, holo_status_name(st2), err.message);
          }
        }
        if (strcmp(names[k], "refine-relu") == 0) {
          holo_refine_plan plan;
          holo_refine_plan_init(&plan, 3);
          holo_refine_plan_validator(&plan, HOLO_VALIDATE_STABLE_LABELS);
          assert_int_equal(holo_refine_plan_build(&plan, &err), HOLO_OK);
          holo_refine_runner r;
          holo_refine_report rep;
          assert_int_equal(holo_refine_runner_init(&r, s, &plan, &err), HOLO_OK);
          st2 = holo_refine_run(&r, &in, 1, &rep, NULL, 0, &err);
          if (st2) {
            hit = true;
            if (st2 != HOLO_ERR_MEMORY) fail_msg("%s: refine, allocation %ld failed -> %s: %s", names[k], at, holo_status_name(st2), err.message);
          }
        }
        free(x);
        holo_session_free(s);
      }
      holo_mem_store_release(&ms);
      if (fa.live != 0) fail_msg("%s: allocation %ld failed: %ld blocks leaked", names[k], at, fa.live);
      if (!hit && fa.calls < at) break; /* every allocation has failed once */
      failures += hit;
    }
    assert_true(failures > 10);
    free(f.b);
  }
}

/* ----------------------------------------------------------- API misuse */

static void null_pointers(void **st) {
  (void)st;
  blob f = fixture("cone");
  holo_session *s = load_ok(&f);
  holo_error err = {0};
  holo_port_info p;
  assert_int_equal(holo_session_input_info(s, 0, NULL), HOLO_ERR_ARG);
  assert_int_equal(holo_session_input_info(NULL, 0, &p), HOLO_ERR_ARG);
  assert_int_equal(holo_session_output_info(s, 1, &p), HOLO_ERR_ARG);
  assert_int_equal(holo_session_output_info(s, UINT32_MAX, &p), HOLO_ERR_ARG);
  holo_session_counters(s, NULL);
  holo_counters c;
  memset(&c, 0xAB, sizeof c);
  holo_session_counters(NULL, &c); /* untouched, no crash */
  assert_int_equal(holo_session_verify_constants(NULL, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_session_set_memory_budget(NULL, 1), HOLO_ERR_ARG);
  assert_string_equal(holo_session_archive_label(NULL), "");
  assert_string_equal(holo_session_backend_identity(NULL), "");
  assert_int_equal(holo_session_resident_bytes(NULL), 0);
  assert_int_equal(holo_execute_addressed(NULL, NULL, 0, NULL, 0, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_execute_addressed(s, NULL, 1, NULL, 1, &err), HOLO_ERR_ARG);
  float x[16] = {0};
  holo_input in = {x, sizeof x, NULL, 0};
  assert_int_equal(holo_execute(s, &in, 1, NULL, 1, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_execute(s, &in, 1, NULL, 0, &err), HOLO_ERR_ARG); /* 0 slots: the archive has 1 */
  /* err may be NULL anywhere */
  assert_int_equal(holo_execute(s, NULL, 1, NULL, 0, NULL), HOLO_ERR_ARG);
  holo_output_free(s, NULL);
  holo_output_free(NULL, NULL);
  holo_output none = {0};
  holo_output_free(s, &none);
  /* options without an allocator, a backend without lookup */
  holo_options noalloc = {NULL, 0, 0, 0};
  holo_session *t;
  assert_int_equal(holo_session_load(f.b, f.n, &BE, &noalloc, &t, &err), HOLO_ERR_ARG);
  assert_non_null(strstr(err.message, "allocator"));
  holo_backend nb = BE;
  nb.lookup = NULL;
  assert_int_equal(holo_session_load(f.b, f.n, &nb, &OPT, &t, &err), HOLO_ERR_ARG);
  /* refinement entry points */
  holo_refine_plan plan;
  assert_int_equal(holo_refine_plan_build(NULL, &err), HOLO_ERR_ARG);
  holo_refine_plan_init(NULL, 1);
  holo_refine_plan_validator(NULL, HOLO_VALIDATE_STABLE_LABELS);
  holo_refine_plan_init(&plan, 1);
  holo_refine_runner r;
  assert_int_equal(holo_refine_runner_init(&r, s, &plan, &err), HOLO_ERR_ARG); /* not built */
  assert_non_null(strstr(err.message, "not built"));
  assert_int_equal(holo_refine_runner_init(NULL, s, &plan, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_refine_run(NULL, NULL, 0, NULL, NULL, 0, &err), HOLO_ERR_ARG);
  holo_compiled_refinement *cr;
  assert_int_equal(holo_compiled_refinement_new(f.b, f.n, &BE, NULL, &plan, &cr, &err), HOLO_ERR_ARG);
  assert_int_equal(holo_compiled_refinement_run(NULL, NULL, 0, NULL, &err), HOLO_ERR_ARG);
  holo_compiled_refinement_free(NULL);
  assert_null(holo_compiled_refinement_session(NULL));
  /* status names cover every code and out-of-range ones */
  for (int k = 0; k <= HOLO_ERR_LIMIT; k++) assert_string_not_equal(holo_status_name((holo_status)k), "unknown");
  assert_string_equal(holo_status_name((holo_status)99), "unknown");
  assert_string_equal(holo_status_name((holo_status)-1), "unknown");
  holo_session_free(s);
  free(f.b);
}

int main(void) {
  holo_cpu_backend_init(&BE);
  OPT = (holo_options){holo_std_allocator(), 0, 0, 0};
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(writer_self_check),
      cmocka_unit_test(oversized_counts),
      cmocka_unit_test(section_offset_wraps),
      cmocka_unit_test(constant_size_overflow),
      cmocka_unit_test(constant_digest_lies),
      cmocka_unit_test(cyclic_graph),
      cmocka_unit_test(dangling_value_ids),
      cmocka_unit_test(unknown_op),
      cmocka_unit_test(output_dtype_shape_mismatch),
      cmocka_unit_test(operand_shape_mismatch),
      cmocka_unit_test(misaligned_archive_in_memory),
      cmocka_unit_test(too_many_input_ports),
      cmocka_unit_test(huge_symbolic_bindings),
      cmocka_unit_test(symbol_bound_inconsistently),
      cmocka_unit_test(wrong_rank_and_shape),
      cmocka_unit_test(zero_sized_tensors),
      cmocka_unit_test(nan_inf_inputs),
      cmocka_unit_test(corrupt_store_records),
      cmocka_unit_test(self_consistent_wrong_record),
      cmocka_unit_test(store_path_tricks),
      cmocka_unit_test(budget_too_small_at_load),
      cmocka_unit_test(work_budget_refuses_a_big_graph),
      cmocka_unit_test(work_budget_is_per_execution),
      cmocka_unit_test(pooling_windows_of_padding),
      cmocka_unit_test(allocator_failures),
      cmocka_unit_test(null_pointers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
