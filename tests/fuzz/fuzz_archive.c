/* libFuzzer target: the fuzz input is a .holo archive.
 *
 * Parses it, loads it into a session (4 MiB transient budget, so the
 * fuzzer cannot make the executor OOM legitimately; 2^22 operations of work
 * per execution, so it cannot make it spin legitimately), reads every accessor,
 * re-verifies the constants, then executes with patterned inputs (1.0,
 * NaN, -Inf, denormals, FLT_MAX, -0.0) of the declared shapes, symbolic
 * dims bound to 2, then with the archive's first bytes as input and symbolic
 * dims bound to 1 (from the unaligned copy below: zeros); each successful
 * execution is repeated (memo hit or an identical walk must succeed). A malformed archive must be an error
 * value with a message, never a crash, hang, leak or out-of-bounds read. Inputs over 1 MiB are skipped.
 *
 * The archive is copied into an exact-size 64-byte-aligned buffer (so
 * constants are used in place, and ASan sees any read past its end); inputs
 * whose length is odd are additionally loaded from an unaligned copy, the
 * path where constants are copied into the arena. */
#include "fuzz_common.h"
#include "archive.h"

#define MAX_INPUT (1u << 20)
#define BUDGET (4u << 20)
/* Work per execution (holo_session_set_work_budget): the seeds need at most
 * 6e4 operations; 2^22 is about half a second here under ASan. */
#define WORK_BUDGET (1u << 22)
#define MAX_IN_BYTES (4u << 20)

static const uint8_t PATTERN[] = {0x00, 0x00, 0x80, 0x3f,  /* 1.0f */
                                  0x00, 0x00, 0xc0, 0x7f,  /* NaN */
                                  0x00, 0x00, 0x80, 0xff,  /* -Inf */
                                  0x01, 0x00, 0x00, 0x00,  /* denormal / int 1 */
                                  0xff, 0xff, 0x7f, 0x7f,  /* FLT_MAX */
                                  0x00, 0x00, 0x00, 0x80,  /* -0.0 */
                                  0xff, 0xff, 0xff, 0xff,  /* -1 / NaN */
                                  0x00, 0x00, 0x20, 0xc1}; /* -10.0f */

static void run_once(holo_session *s, int64_t sym, const uint8_t *pat, size_t pat_len) {
  uint32_t ni = holo_session_input_count(s), no = holo_session_output_count(s);
  if (ni > FZ_MAX_PORTS || no > 64) return;
  fz_inputs x;
  memset(&x, 0, sizeof x);
  x.n = ni;
  for (uint32_t i = 0; i < ni; i++) {
    holo_port_info p;
    FZ_CHECK(holo_session_input_info(s, i, &p) == HOLO_OK, "input_info %u", i);
    FZ_CHECK(p.rank <= HOLO_MAX_RANK, "input port %u rank %u", i, p.rank);
    uint64_t bytes = holo_dtype_size(p.dtype);
    FZ_CHECK(bytes != 0, "input port %u dtype %u", i, p.dtype);
    for (uint32_t d = 0; d < p.rank; d++) {
      int64_t dim = p.shape[d] < 0 ? sym : p.shape[d];
      if (p.shape[d] < 0) FZ_CHECK(p.symbol[d] != NULL, "symbolic dim without a name");
      x.shape[i][d] = dim;
      if (dim && bytes > MAX_IN_BYTES / (uint64_t)dim) bytes = MAX_IN_BYTES + 1;
      else bytes *= (uint64_t)dim;
    }
    if (bytes > MAX_IN_BYTES) {
      x.n = i;
      fz_inputs_free(&x);
      return; /* declared shapes too large to feed: the load was the test */
    }
    x.buf[i] = malloc(bytes ? bytes : 1);
    fz_fill(x.buf[i], bytes, pat, pat_len);
    x.in[i] = (holo_input){x.buf[i], (size_t)bytes, x.shape[i], p.rank};
  }
  holo_output out[64];
  holo_error err = {0};
  holo_status st = holo_execute(s, x.in, ni, out, no, &err);
  if (st == HOLO_OK) {
    for (uint32_t o = 0; o < no; o++) {
      FZ_CHECK(out[o].rank <= HOLO_MAX_RANK, "output rank %u", out[o].rank);
      size_t want = 0;
      FZ_CHECK(holo_shape_bytes(out[o].dtype, out[o].shape, out[o].rank, &want) && want == out[o].len,
               "output %u length %zu does not match its shape", o, out[o].len);
      if (out[o].len) {
        volatile uint8_t sink = ((const uint8_t *)out[o].bytes)[out[o].len - 1];
        (void)sink;
      }
      holo_output_free(s, &out[o]);
    }
    /* The same inputs again: a memo hit or an equal walk, never a failure. */
    holo_view v[64];
    st = holo_execute_addressed(s, x.in, ni, v, no, &err);
    FZ_CHECK(st == HOLO_OK, "second execution of the same inputs failed: %s", err.message);
  } else {
    fz_check_error(st, &err);
  }
  fz_inputs_free(&x);
}

static void load_and_run(const uint8_t *bytes, size_t len, bool full) {
  fz_alloc fa;
  fz_alloc_init(&fa, 0);
  holo_backend be;
  holo_cpu_backend_init(&be);
  /* As a host of untrusted archives: the constant cone is deferred to the
   * first execution (HOLO_OPT_NO_WARM_CONE), where the work budget bounds it
   * (a load-time cone is unbounded; fuzz_execute covers that path). */
  holo_options opt = {&fa.a, BUDGET, 0, HOLO_OPT_NO_WARM_CONE};
  holo_session *s = 0;
  holo_error err = {0};
  holo_status st = holo_session_load(bytes, len, &be, &opt, &s, &err);
  if (st != HOLO_OK) {
    fz_check_error(st, &err);
    FZ_CHECK(s == NULL, "failed load returned a session");
    FZ_CHECK(fa.live == 0, "failed load leaked %llu blocks", (unsigned long long)fa.live);
    return;
  }
  FZ_CHECK(holo_session_set_work_budget(s, WORK_BUDGET) == HOLO_OK, "set_work_budget");
  /* Accessors over whatever loaded. */
  holo_port_info p;
  for (uint32_t i = 0; i < holo_session_input_count(s); i++) holo_session_input_info(s, i, &p);
  for (uint32_t i = 0; i < holo_session_output_count(s); i++) holo_session_output_info(s, i, &p);
  FZ_CHECK(holo_session_input_info(s, holo_session_input_count(s), &p) == HOLO_ERR_ARG, "index past the ports");
  holo_counters c;
  holo_session_counters(s, &c);
  FZ_CHECK(strlen(holo_session_archive_label(s)) == HOLO_LABEL_LEN, "archive label length");
  st = holo_session_verify_constants(s, &err);
  if (st) fz_check_error(st, &err);

  /* Compute is bounded by the work budget (a Conv with huge pads is a
   * legitimate, slow model: refused with HOLO_ERR_BUDGET before it runs). */
  if (full) {
    run_once(s, 2, PATTERN, sizeof PATTERN);
    run_once(s, 1, bytes, len < 64 ? len : 64);
  } else {
    run_once(s, 2, 0, 0); /* zeros */
  }
  holo_session_free(s);
  FZ_CHECK(fa.live == 0, "session free leaked %llu blocks", (unsigned long long)fa.live);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT) return 0;
  /* The reader alone, on the fuzzer's own buffer (exact size). */
  {
    holo_archive ar;
    holo_error err = {0};
    holo_status st = holo_archive_parse(data, size, holo_std_allocator(), &ar, &err);
    if (st == HOLO_OK) holo_archive_release(&ar, holo_std_allocator());
    else fz_check_error(st, &err);
  }
  uint8_t *aligned = 0;
  if (posix_memalign((void **)&aligned, 64, size ? size : 1) != 0) return 0;
  if (size) memcpy(aligned, data, size);
  load_and_run(aligned, size, true);
  free(aligned);
  if (size & 1) {
    /* Unaligned: offset by 8 from a 64-byte boundary. */
    uint8_t *raw = 0;
    if (posix_memalign((void **)&raw, 64, size + 8) != 0) return 0;
    memcpy(raw + 8, data, size);
    load_and_run(raw + 8, size, false);
    free(raw);
  }
  return 0;
}
