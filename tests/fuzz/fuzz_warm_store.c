/* libFuzzer target: the fuzz input is a WarmStore record.
 *
 * A store whose get returns the fuzz bytes for every label (and accepts
 * and drops every put) is attached to a load of tests/fixtures/cone.holo
 * (one constant-only node, a Transpose of a weight), with and without a
 * transient budget, then the session executes once.
 *  - a record that does not name the label asked (bytes 8..78) is refused
 *    in both modes: counted in store_corrupt and recomputed, the results
 *    bit-identical to a session without a store;
 *  - verifying (default): a record naming the label asked is either
 *    self-consistent (a hit) or counted in store_corrupt and recomputed, as
 *    above;
 *  - HOLO_OPT_TRUST_STORE, or a self-consistent record naming the label
 *    asked but holding the wrong value: accepted by design
 *    (docs/warm-store.md); the oracle is only: no crash, no out-of-bounds
 *    access, no leak, errors are values.
 * The fuzz bytes are handed to the core in libFuzzer's exact-size buffer,
 * so ASan sees any read past the record. */
#include "fuzz_common.h"
#include "label.h"

static fz_file CONE;
static const uint8_t *REC;
static size_t REC_LEN;
static uint64_t n_gets, n_named, n_puts;

/* Record layout (docs/warm-store.md): "HOLOWS2\0" | 71-byte label | u32 dtype
 * | u32 rank | i64 dims[rank] | 32-byte content digest | bytes. */
#define REC_FIXED (8 + HOLO_LABEL_LEN + 8)

static holo_status fz_get(void *ctx, const char *label, const uint8_t **bytes, size_t *len) {
  (void)ctx;
  FZ_CHECK(label && strlen(label) == HOLO_LABEL_LEN && strncmp(label, "sha256:", 7) == 0, "bad label handed to get");
  n_gets++;
  if (REC_LEN >= 8 + HOLO_LABEL_LEN && memcmp(REC + 8, label, HOLO_LABEL_LEN) == 0) n_named++;
  *bytes = REC;
  *len = REC_LEN;
  return HOLO_OK;
}

static holo_status fz_put(void *ctx, const char *label, const uint8_t *bytes, size_t len) {
  (void)ctx;
  FZ_CHECK(label && strlen(label) == HOLO_LABEL_LEN, "bad label handed to put");
  FZ_CHECK(len >= REC_FIXED + 32 && memcmp(bytes, "HOLOWS2", 8) == 0, "put of a malformed record");
  FZ_CHECK(memcmp(bytes + 8, label, HOLO_LABEL_LEN) == 0, "put of a record naming another label");
  volatile uint8_t sink = bytes[len - 1];
  (void)sink;
  n_puts++;
  return HOLO_OK;
}

/* The harness's own reading of docs/warm-store.md: is the record well formed
 * with a digest that matches its own content? Such a record passes the
 * core's verification when returned for the label it names (n_named). */
static bool self_consistent(const uint8_t *p, size_t len) {
  if (len < REC_FIXED || memcmp(p, "HOLOWS2", 8) != 0) return false;
  uint32_t dtype, rank;
  memcpy(&dtype, p + 8 + HOLO_LABEL_LEN, 4);
  memcpy(&rank, p + 8 + HOLO_LABEL_LEN + 4, 4);
  if (rank > HOLO_MAX_RANK || len < REC_FIXED + 8 * (size_t)rank + 32) return false;
  int64_t shape[HOLO_MAX_RANK];
  memcpy(shape, p + REC_FIXED, 8 * (size_t)rank);
  size_t hdr = REC_FIXED + 8 * (size_t)rank + 32, n;
  if (!holo_shape_bytes(dtype, shape, rank, &n) || n != len - hdr) return false;
  holo_digest want, got;
  memcpy(want.b, p + hdr - 32, 32);
  holo_content_digest(dtype, shape, rank, p + hdr, n, &got);
  return holo_digest_eq(&want, &got);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  const char *argv0 = argc && *argc ? (*argv)[0] : 0;
  CONE = fz_fixture("cone", argv0);
  return 0;
}

/* Executes s once with a fixed input; returns the status, fills v. */
static holo_status run(holo_session *s, holo_view *v, holo_error *err) {
  holo_port_info p;
  holo_session_input_info(s, 0, &p);
  size_t n = 1;
  for (uint32_t d = 0; d < p.rank; d++) n *= (size_t)p.shape[d];
  static float x[3 * 12 * 12];
  for (size_t i = 0; i < n && i < sizeof x / sizeof x[0]; i++) x[i] = (float)((int)(i % 11) - 5) * 0.25f;
  holo_input in = {x, n * sizeof(float), NULL, 0};
  return holo_execute_addressed(s, &in, 1, v, 1, err);
}

static void one(const fz_file *f, uint32_t flags, uint64_t budget) {
  holo_backend be;
  holo_cpu_backend_init(&be);
  holo_warm_store ws = {0, fz_get, fz_put};
  fz_alloc fa;
  fz_alloc_init(&fa, 0);
  holo_options o = {&fa.a, budget, &ws, flags};
  holo_session *s = 0;
  holo_error err = {0};
  n_gets = n_named = n_puts = 0;
  holo_status st = holo_session_load(f->bytes, f->len, &be, &o, &s, &err);
  bool trust = flags & HOLO_OPT_TRUST_STORE;
  /* A record naming the label asked and self-consistent is taken even when
   * verifying: the oracle is then the trusted one (no crash, errors are
   * values). A record naming another label is never taken. */
  bool consistent = self_consistent(REC, REC_LEN);
  bool accepted_anyway = n_named && (trust || consistent);
  if (st) {
    fz_check_error(st, &err);
    /* Only a trusted record can make the load fail (its value over the budget). */
    FZ_CHECK(accepted_anyway && st == HOLO_ERR_BUDGET, "load failed with %s: %s", holo_status_name(st), err.message);
    FZ_CHECK(fa.live == 0, "failed load leaked %llu blocks", (unsigned long long)fa.live);
    return;
  }
  holo_counters c;
  holo_session_counters(s, &c);
  FZ_CHECK(n_gets >= 1, "the cone did not consult the store");
  FZ_CHECK(c.store_hits + c.store_corrupt + c.store_misses == n_gets, "every get is a hit, a miss or corrupt");
  if (c.store_corrupt) FZ_CHECK(c.dispatches >= 1, "a corrupt record was not recomputed");
  FZ_CHECK(c.store_hits <= n_named, "a record naming another label was accepted");
  if (!n_named) FZ_CHECK(c.store_corrupt == n_gets, "a record naming another label was not counted corrupt");
  if (!trust && !consistent) FZ_CHECK(c.store_hits == 0 && c.store_corrupt == n_gets, "an inconsistent record was not counted corrupt");
  if (!trust && consistent) FZ_CHECK(c.store_hits == n_named, "a self-consistent record naming its label was refused");

  holo_view v[1];
  st = run(s, v, &err);
  if (!accepted_anyway) {
    /* Results equal those of a session without a store. */
    holo_options ro = {holo_std_allocator(), 0, 0, 0};
    holo_session *ref;
    holo_error rerr;
    FZ_CHECK(holo_session_load(f->bytes, f->len, &be, &ro, &ref, &rerr) == HOLO_OK, "reference load");
    holo_view rv[1];
    holo_status rst = run(ref, rv, &rerr);
    FZ_CHECK(rst == HOLO_OK, "reference: %s", rerr.message);
    FZ_CHECK(st == HOLO_OK || st == HOLO_ERR_BUDGET, "verified store changed the outcome: %s", err.message);
    if (st == HOLO_OK) {
      FZ_CHECK(strcmp(v[0].label, rv[0].label) == 0, "label differs with a verified store");
      FZ_CHECK(v[0].len == rv[0].len && memcmp(v[0].data, rv[0].data, v[0].len) == 0,
               "bytes differ with a verified store");
    }
    holo_session_free(ref);
  } else if (st == HOLO_OK) {
    if (v[0].len) {
      volatile uint8_t sink = ((const uint8_t *)v[0].data)[v[0].len - 1];
      (void)sink;
    }
  } else {
    fz_check_error(st, &err);
  }
  holo_session_free(s);
  FZ_CHECK(fa.live == 0, "session free leaked %llu blocks", (unsigned long long)fa.live);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 20)) return 0;
  REC = data;
  REC_LEN = size;
  one(&CONE, 0, 0);
  one(&CONE, HOLO_OPT_TRUST_STORE, 1u << 20);
  one(&CONE, HOLO_OPT_TRUST_STORE, 0);
  one(&CONE, HOLO_OPT_TRUST_STORE | HOLO_OPT_VERIFY_CONSTANTS, 256);
  one(&CONE, 0, 256);
  return 0;
}
