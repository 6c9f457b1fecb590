/* libFuzzer target: fixed small archives (tests/fixtures and the loadable
 * tests/vectors, read once at startup), fuzzed options, input bytes, shapes,
 * ranks, symbolic bindings, byte lengths and call sequences.
 *
 * Input layout (every byte optional: missing bytes read as 0):
 *   [0] archive index          [1] flags (below)      [2] executions - 1 (mod 8)
 *   then per execution: an op byte, then per input port a shape spec and a
 *   pattern spec (docs/fuzzing.md has the full table).
 * flags: bits 0-2 budget class, 3 NO_WARM_CONE, 4 warm MemWarmStore filled by
 *   the reference session, 5 fail the k-th allocation (k: next 2 bytes),
 *   6 VERIFY_CONSTANTS.
 *
 * Oracle: every call returns a status with a message, never crashes, and
 * the session is freed without leaks (counting allocator). Each successful
 * execution is replayed on a fresh reference session of the same archive
 * (unbounded budget, no store, no failure injection): it must succeed with
 * bit-identical labels and bytes; when the reference succeeds, the fuzzed
 * session may only fail with BUDGET or MEMORY. So memo, elision, eviction
 * and warm-start can never change a result. */
#include "fuzz_common.h"
#include "hologram/refine.h"

/* Append only: byte 0 of an input indexes this list (mod its length), so a
 * reordering would change what committed inputs mean. */
static const char *NAMES[] = {
    "fixtures/mlp",        "fixtures/cse",          "fixtures/shared",        "fixtures/cone",
    "fixtures/symbolic",   "fixtures/cnn",          "fixtures/refine-relu",   "fixtures/refine-halve",
    "fixtures/refine-contract", "fixtures/refine-mismatch", "fixtures/refine-step", "vectors/tiny-mlp",
    "vectors/symbolic",    "vectors/dedup",         "vectors/no-consts",      "vectors/no-nodes",
    "vectors/outputs-only-const", "vectors/dtypes", "vectors/state",          "vectors/optional-input",
    "vectors/multi-out",   "vectors/attrs"};
#define N_NAMES (sizeof NAMES / sizeof NAMES[0])
static fz_file FILES[N_NAMES];
static bool loadable[N_NAMES];

typedef struct rd {
  const uint8_t *p;
  size_t n, at;
} rd;
static uint8_t u8(rd *r) { return r->at < r->n ? r->p[r->at++] : 0; }
static uint64_t u64n(rd *r, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)u8(r) << (8 * i);
  return v;
}

static uint64_t budget_class(uint32_t c, rd *r) {
  static const uint64_t B[8] = {0, 64, 256, 1024, 4096, 65536, 1u << 20, 0};
  return c == 7 ? u64n(r, 3) : B[c];
}

/* A dimension from one byte: mostly small, sometimes the edges. */
static int64_t dim_of(rd *r) {
  uint8_t b = u8(r);
  switch (b) {
  case 250: return (int64_t)1 << 31;
  case 251: return (int64_t)1 << 32;
  case 252: return -1;
  case 253: return INT64_MAX;
  case 254: return (int64_t)1 << 62;
  case 255: return (int64_t)u64n(r, 8);
  default: return b % 13;
  }
}

#define MAX_IN_BYTES (1u << 20)

/* Builds one execution's inputs from the stream. Returns the count to pass. */
static uint32_t build_inputs(holo_session *s, rd *r, uint8_t op, fz_inputs *x) {
  uint32_t ni = holo_session_input_count(s);
  memset(x, 0, sizeof *x);
  if (ni > FZ_MAX_PORTS) return 0;
  x->n = ni;
  int64_t bind = -1; /* one binding per execution for every symbolic dim */
  for (uint32_t i = 0; i < ni; i++) {
    holo_port_info p;
    holo_session_input_info(s, i, &p);
    uint8_t spec = u8(r);
    uint32_t rank = p.rank;
    bool explicit_shape = spec & 1, sym_from_stream = spec & 2;
    if (explicit_shape && (spec & 4)) rank = u8(r) % 10; /* may differ from the port, may exceed 8 */
    uint32_t use_rank = rank > HOLO_MAX_RANK ? HOLO_MAX_RANK : rank;
    uint64_t need = holo_dtype_size(p.dtype);
    bool huge = false;
    for (uint32_t d = 0; d < use_rank; d++) {
      int64_t dim;
      if (explicit_shape) dim = dim_of(r);
      else if (d < p.rank && p.shape[d] >= 0) dim = p.shape[d];
      else {
        if (bind < 0 || sym_from_stream) bind = sym_from_stream ? dim_of(r) : 2;
        dim = bind;
      }
      x->shape[i][d] = dim;
      if (dim < 0) huge = true;
      else if (dim && need > MAX_IN_BYTES / (uint64_t)dim) huge = true;
      else need *= (uint64_t)dim;
    }
    if (huge || need > MAX_IN_BYTES) need = 64; /* cannot feed it: a short buffer */
    int8_t delta = (op & 0x10) ? (int8_t)u8(r) : 0;
    uint64_t len = (int64_t)need + delta < 0 ? 0 : (uint64_t)((int64_t)need + delta);
    if (len > MAX_IN_BYTES) len = MAX_IN_BYTES;
    uint8_t plen = u8(r) % 17;
    uint8_t pat[16];
    for (uint8_t k = 0; k < plen && k < 16; k++) pat[k] = u8(r);
    x->buf[i] = malloc(len ? len : 1);
    fz_fill(x->buf[i], len, pat, plen > 16 ? 16 : plen);
    bool declared = !explicit_shape && (op & 0x08) == 0;
    bool concrete = true;
    for (uint32_t d = 0; d < p.rank && p.rank <= HOLO_MAX_RANK; d++) concrete = concrete && p.shape[d] >= 0;
    x->in[i] = (holo_input){(op & 0x40) && i == 0 ? NULL : x->buf[i], (size_t)len,
                            declared && concrete ? NULL : x->shape[i], rank};
  }
  if (op & 0x20) return (op & 0x80) && ni < FZ_MAX_PORTS ? ni + 1 : (ni ? ni - 1 : 1);
  return ni;
}

static void check_outputs_equal(const holo_view *a, const holo_view *b, uint32_t n) {
  for (uint32_t o = 0; o < n; o++) {
    FZ_CHECK(strcmp(a[o].label, b[o].label) == 0, "output %u label %s != reference %s", o, a[o].label, b[o].label);
    FZ_CHECK(a[o].dtype == b[o].dtype && a[o].rank == b[o].rank && a[o].len == b[o].len, "output %u metadata", o);
    FZ_CHECK(memcmp(a[o].shape, b[o].shape, sizeof a[o].shape) == 0, "output %u shape", o);
    FZ_CHECK(a[o].len == 0 || memcmp(a[o].data, b[o].data, a[o].len) == 0, "output %u bytes differ from the reference", o);
  }
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  const char *argv0 = argc && *argc ? (*argv)[0] : 0;
  holo_backend be;
  holo_cpu_backend_init(&be);
  for (uint32_t i = 0; i < N_NAMES; i++) {
    char name[128];
    /* fz_fixture reads tests/fixtures/NAME: reach vectors/ through ../ */
    snprintf(name, sizeof name, "%s%s", strncmp(NAMES[i], "vectors/", 8) == 0 ? "../vectors/" : "",
             NAMES[i] + (strncmp(NAMES[i], "vectors/", 8) == 0 ? 8 : 9));
    FILES[i] = fz_fixture(name, argv0);
    holo_options o = {holo_std_allocator(), 0, 0, 0};
    holo_session *s;
    holo_error err;
    if (holo_session_load(FILES[i].bytes, FILES[i].len, &be, &o, &s, &err) == HOLO_OK) {
      loadable[i] = true;
      holo_session_free(s);
    }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rd r = {data, size, 0};
  uint32_t which = u8(&r) % N_NAMES;
  if (!loadable[which]) return 0; /* an archive this backend cannot run (yet) */
  const fz_file *f = &FILES[which];
  uint8_t flags = u8(&r);
  uint32_t n_exec = 1 + u8(&r) % 8;
  uint64_t budget = budget_class(flags & 7, &r);
  uint64_t fail_at = (flags & 0x20) ? 1 + u64n(&r, 2) : 0;

  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_error err = {0};
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());

  /* The reference: fresh, unbounded, honest. It fills the store. */
  holo_options ro = {holo_std_allocator(), 0, (flags & 0x10) ? &ms.store : 0, 0};
  holo_session *ref;
  FZ_CHECK(holo_session_load(f->bytes, f->len, &be, &ro, &ref, &err) == HOLO_OK, "reference load: %s", err.message);

  fz_alloc fa;
  fz_alloc_init(&fa, fail_at);
  uint32_t fl = ((flags & 0x08) ? HOLO_OPT_NO_WARM_CONE : 0) | ((flags & 0x40) ? HOLO_OPT_VERIFY_CONSTANTS : 0);
  holo_options opt = {&fa.a, budget, (flags & 0x10) ? &ms.store : 0, fl};
  holo_session *s = 0;
  holo_status st = holo_session_load(f->bytes, f->len, &be, &opt, &s, &err);
  if (st) {
    fz_check_error(st, &err);
    FZ_CHECK(st == HOLO_ERR_MEMORY || st == HOLO_ERR_BUDGET, "fixture refused: %s", err.message);
    FZ_CHECK(fa.live == 0, "failed load leaked %llu blocks", (unsigned long long)fa.live);
    holo_session_free(ref);
    holo_mem_store_release(&ms);
    return 0;
  }
  uint32_t no = holo_session_output_count(s);
  FZ_CHECK(no <= 64, "outputs");

  fz_inputs x, prev;
  memset(&prev, 0, sizeof prev);
  bool have_prev = false;
  for (uint32_t e = 0; e < n_exec; e++) {
    uint8_t op = u8(&r);
    uint32_t kind = op & 3;
    if (kind == 2 && have_prev) {
      x = prev; /* the same inputs again: memo */
      memset(&prev, 0, sizeof prev);
    } else {
      if (kind == 3) holo_session_set_memory_budget(s, budget_class(u8(&r) & 7, &r));
      uint32_t n = build_inputs(s, &r, op, &x);
      if (op & 0x20) { /* an input count that differs from the ports */
        uint32_t pass = n;
        holo_output outs[64];
        st = holo_execute(s, x.in, pass, outs, no, &err);
        FZ_CHECK(st != HOLO_OK || pass == holo_session_input_count(s), "wrong input count accepted");
        if (st == HOLO_OK) for (uint32_t o = 0; o < no; o++) holo_output_free(s, &outs[o]);
        else fz_check_error(st, &err);
        fz_inputs_free(&x);
        continue;
      }
    }
    if (kind == 1 && (op & 0x04)) {
      /* A refinement over the session: plan from the op byte, contract the
       * archive's or derived; errors are values. */
      holo_refine_plan plan;
      holo_refine_plan_init(&plan, 1 + (op >> 6));
      holo_refine_plan_validator(&plan, (op & 0x08) ? HOLO_VALIDATE_STABLE_BYTES : HOLO_VALIDATE_STABLE_LABELS);
      if (op & 0x10) holo_refine_plan_repair(&plan, HOLO_REPAIR_RETRY_PASS, 1 + (op >> 7));
      FZ_CHECK(holo_refine_plan_build(&plan, &err) == HOLO_OK, "plan: %s", err.message);
      holo_refine_runner rr;
      st = holo_refine_runner_init(&rr, s, &plan, &err);
      if (st == HOLO_OK) {
        holo_refine_report rep;
        holo_view fin[64];
        st = holo_refine_run(&rr, x.in, x.n, &rep, fin, no, &err);
        if (st == HOLO_OK) {
          FZ_CHECK(rep.passes >= 1, "refine ran no pass");
          for (uint32_t o = 0; o < no; o++)
            if (fin[o].len) {
              volatile uint8_t sink = ((const uint8_t *)fin[o].data)[fin[o].len - 1];
              (void)sink;
            }
        }
      }
      if (st) fz_check_error(st, &err);
    } else {
      holo_view v[64], rv[64];
      if (kind == 1) {
        st = holo_execute_addressed(s, x.in, x.n, v, no, &err);
      } else {
        holo_output outs[64];
        st = holo_execute(s, x.in, x.n, outs, no, &err);
        if (st == HOLO_OK) {
          /* Copy the owned outputs into view form for the comparison. */
          for (uint32_t o = 0; o < no; o++) {
            memset(&v[o], 0, sizeof v[o]);
            v[o].data = outs[o].bytes;
            v[o].len = outs[o].len;
            v[o].dtype = outs[o].dtype;
            v[o].rank = outs[o].rank;
            memcpy(v[o].shape, outs[o].shape, sizeof v[o].shape);
          }
          holo_error rerr = {0};
          holo_status rst = holo_execute_addressed(ref, x.in, x.n, rv, no, &rerr);
          FZ_CHECK(rst == HOLO_OK, "fuzzed session succeeded, reference failed: %s", rerr.message);
          for (uint32_t o = 0; o < no; o++) memcpy(v[o].label, rv[o].label, sizeof v[o].label);
          check_outputs_equal(v, rv, no);
          for (uint32_t o = 0; o < no; o++) holo_output_free(s, &outs[o]);
          st = HOLO_OK;
          goto next;
        }
      }
      {
        holo_error rerr = {0};
        holo_status rst = holo_execute_addressed(ref, x.in, x.n, rv, no, &rerr);
        if (st == HOLO_OK) {
          FZ_CHECK(rst == HOLO_OK, "fuzzed session succeeded, reference failed: %s", rerr.message);
          check_outputs_equal(v, rv, no);
        } else {
          fz_check_error(st, &err);
          if (rst == HOLO_OK)
            FZ_CHECK(st == HOLO_ERR_BUDGET || st == HOLO_ERR_MEMORY,
                     "reference succeeded, fuzzed session failed with %s: %s", holo_status_name(st), err.message);
        }
      }
    }
  next:
    fz_inputs_free(&prev);
    prev = x;
    have_prev = true;
  }
  fz_inputs_free(&prev);
  holo_session_free(s);
  FZ_CHECK(fa.live == 0, "session free leaked %llu blocks", (unsigned long long)fa.live);
  holo_session_free(ref);
  holo_mem_store_release(&ms);
  return 0;
}
