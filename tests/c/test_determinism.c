/* Determinism: the same archive and inputs give bit-identical outputs and
 * labels across sessions, across processes, across memory budgets
 * (eviction), archive alignment, warm-store or not, cone or not, and
 * across the order in which a parallel backend runs its partitions; and
 * they equal the committed golden values below.
 *
 * The goldens pin, per fixture, the archive label, the output's computed
 * label (a function of content and the backend identity only) and the
 * output's content label (a hash of its bytes). Labels are stable across
 * builds of the same backend identity (docs/fuzzing.md "Determinism"): if
 * this test fails after a kernel change, the kernel's output bytes changed
 * and its identity string (kernels-wasm-simd/registry-table.h) must be bumped and
 * the goldens regenerated with HOLO_PRINT_GOLDEN=1 build/asan/test_determinism.
 * (mlp's archive and output labels changed once, with the tree content label
 * of format §5: the archive stores its 128 KiB constant's new digest. mlp's
 * and shared's output labels changed again when Add/Sub/Mul/Div took f64
 * and every integer dtype: their identity names those dtypes now; their
 * content labels, the bytes, did not change. Every output label changed
 * with holo/node/v2, operands hashed as 32-byte digests: decision 70; again
 * with holo/node/v3, a compression chained from a per-output key: decision 80;
 * again with holo/node/v4, BLAKE3 keyed by that key: decision 85.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "hologram/cpu_backend.h"
#include "hologram/holo.h"
#include "holo-std.h"
#include "label.h"
#include "util/holo_fixture.h"

typedef struct golden {
  const char *fixture;
  const char *archive_label, *output_label, *content_label;
} golden;

/* backend "hologram-cpu/scalar/1" (native builds: scalar kernels) */
static const golden GOLDEN[] = {
    {"mlp",
     "sha256:b50263432d49c75c723cb1a9e74d38bc82acebd7ccdf053f91d60240b5e02426",
     "sha256:78a7a53013f376588c7f7f311652f062f7ffbe7346f55f54e57fae3898939607",
     "sha256:dd06c1c8e756143a6bf3b650e0066eec51aad0c4498a29567528ff1cc033a3e5"},
    {"cnn",
     "sha256:fc6f532323b40b494ac2e76801f8cd219ab3e07443b91516b4377c15e514ae79",
     "sha256:455cff4a913d688e8b13a454e2a637c8a08617794134ab0f71e969df31ab04d2",
     "sha256:ffdff13e3e7e82648742a16a41806d8ce0b171cb3862cd782912f07e462b1301"},
    {"cone",
     "sha256:71c621d2ef09e3e8686d4ea9bd06bcd90478a8b8632d1ac86e11ef340a95b68d",
     "sha256:3cfa1161e7f1a87eaf60f7b5bb2cdedabf15e2523d8b6e508de9a876d7071013",
     "sha256:cea370c0f74a23c78bde307c0e8c459cd5febd6b57e27ecd854b91e3d638dfb9"},
    {"shared",
     "sha256:8d589320b83ff5f29c4585e919f449f0d47166733808510f6ebb69daca4acb14",
     "sha256:c35c9855d62b486d18331fc147e3ab41b477e8f1aa49227b5fcc5e9d9adac998",
     "sha256:c65adc1534b18fe9dc0795e98109f56f10d71dce6ccfc8363aed6f2a9159bf45"},
    {"symbolic",
     "sha256:3148dcb769fa02956bb3d0022e99fe37845b4839e04a1fa3cd8d31f4c013feff",
     "sha256:1ef137ae1c92a43bc401c719083b56f6e5602013d8c0200d4bdaed0665682d36",
     "sha256:835394fc73f1cb4d74e12403ed6069fccdfc4d538ed8e69437e90d84f79ef353"},
};
#define N_GOLDEN (sizeof GOLDEN / sizeof GOLDEN[0])
static const char *IDENTITY = "hologram-cpu/scalar/1";

typedef struct result {
  char archive[HOLO_LABEL_LEN + 1], label[HOLO_LABEL_LEN + 1], content[HOLO_LABEL_LEN + 1];
} result;

/* Exactly representable inputs, no libm: (i*37 mod 101 - 50) / 64. */
static void fill(float *x, size_t n, int salt) {
  for (size_t i = 0; i < n; i++) x[i] = (float)((long)((i * 37 + (size_t)salt) % 101) - 50) / 64.0f;
}

/* A parallel_for that runs partitions in reverse, then interleaved: a kernel
 * whose result depends on partition order shows up as different bytes. */
static void reverse_for(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg) {
  (void)pctx;
  for (uint32_t i = n; i-- > 0;)
    if (i % 2) fn(arg, i);
  for (uint32_t i = 0; i < n; i++)
    if (i % 2 == 0) fn(arg, i);
}

typedef struct variant {
  const char *name;
  uint64_t budget;
  uint32_t flags;
  bool unaligned, store, reverse;
  int repeat; /* executions before the one compared (memo, elision, eviction) */
} variant;

static const variant VARIANTS[] = {
    {"plain", 0, 0, false, false, false, 0},
    {"repeat (memo hit)", 0, 0, false, false, false, 2},
    {"small budget (eviction)", 8192, 0, false, false, false, 1},
    {"unaligned archive", 0, 0, true, false, false, 0},
    {"warm store", 0, 0, false, true, false, 0},
    {"no warm cone", 0, HOLO_OPT_NO_WARM_CONE, false, false, false, 0},
    {"verify constants", 0, HOLO_OPT_VERIFY_CONSTANTS, false, false, false, 0},
    {"reverse partitions", 0, 0, false, false, true, 0},
};

static void run_fixture(const char *name, const variant *v, result *r, void **bytes_out, size_t *len_out) {
  char path[256];
  uint8_t *b;
  size_t n;
  holo_error err = {0};
  snprintf(path, sizeof path, "tests/fixtures/%s.holo", name);
  assert_int_equal(holo_read_file(path, &b, &n, &err), HOLO_OK);
  uint8_t *raw = 0, *arch = b;
  if (v->unaligned) {
    raw = malloc(n + 8);
    memcpy(raw + 8, b, n);
    arch = raw + 8;
  }
  holo_backend be;
  holo_cpu_backend_init(&be);
  if (v->reverse) be.parallel_for = reverse_for;
  holo_mem_store ms;
  holo_mem_store_init(&ms, holo_std_allocator());
  holo_options o = {holo_std_allocator(), v->budget, v->store ? &ms.store : 0, v->flags};
  holo_session *s;
  if (v->store) { /* fill the store, then start warm from it */
    assert_int_equal(holo_session_load(arch, n, &be, &o, &s, &err), HOLO_OK);
    holo_session_free(s);
  }
  if (holo_session_load(arch, n, &be, &o, &s, &err)) fail_msg("%s (%s): %s", name, v->name, err.message);
  holo_port_info p[2];
  uint32_t ni = holo_session_input_count(s);
  assert_true(ni <= 2);
  static float x[2][4096];
  holo_input in[2];
  int64_t shape[2][HOLO_MAX_RANK];
  for (uint32_t i = 0; i < ni; i++) {
    holo_session_input_info(s, i, &p[i]);
    size_t cnt = 1;
    for (uint32_t d = 0; d < p[i].rank; d++) {
      shape[i][d] = p[i].shape[d] < 0 ? 3 : p[i].shape[d];
      cnt *= (size_t)shape[i][d];
    }
    assert_true(cnt <= 4096);
    fill(x[i], cnt, (int)i);
    in[i] = (holo_input){x[i], cnt * 4, shape[i], p[i].rank};
  }
  holo_view view;
  if (v->repeat) { /* other inputs first, then this one: the compared run is a memo hit */
    for (int k = 0; k < v->repeat; k++) {
      x[0][0] += 1;
      if (holo_execute_addressed(s, in, ni, &view, 1, &err)) fail_msg("%s (%s): %s", name, v->name, err.message);
    }
    x[0][0] -= (float)v->repeat;
    if (holo_execute_addressed(s, in, ni, &view, 1, &err)) fail_msg("%s (%s): %s", name, v->name, err.message);
  }
  if (holo_execute_addressed(s, in, ni, &view, 1, &err)) fail_msg("%s (%s): %s", name, v->name, err.message);
  assert_string_equal(holo_session_backend_identity(s), IDENTITY);
  strcpy(r->archive, holo_session_archive_label(s));
  strcpy(r->label, view.label);
  holo_digest d;
  int64_t sh[HOLO_MAX_RANK];
  for (uint32_t k = 0; k < view.rank; k++) sh[k] = view.shape[k];
  holo_content_digest(view.dtype, sh, view.rank, view.data, view.len, &d);
  holo_label_render(&d, r->content);
  if (bytes_out) {
    *bytes_out = malloc(view.len ? view.len : 1);
    memcpy(*bytes_out, view.data, view.len);
    *len_out = view.len;
  }
  holo_session_free(s);
  holo_mem_store_release(&ms);
  free(raw);
  free(b);
}

/* Every variant gives the plain run's labels and bytes. */
static void identical_across_variants(void **st) {
  (void)st;
  for (size_t g = 0; g < N_GOLDEN; g++) {
    result ref, r;
    void *rb, *b;
    size_t rn, n;
    run_fixture(GOLDEN[g].fixture, &VARIANTS[0], &ref, &rb, &rn);
    for (size_t v = 1; v < sizeof VARIANTS / sizeof VARIANTS[0]; v++) {
      run_fixture(GOLDEN[g].fixture, &VARIANTS[v], &r, &b, &n);
      if (strcmp(r.label, ref.label) || strcmp(r.content, ref.content) || n != rn || memcmp(b, rb, n))
        fail_msg("%s: variant '%s' differs from a plain run", GOLDEN[g].fixture, VARIANTS[v].name);
      free(b);
    }
    free(rb);
  }
}

/* A forked process (its own heap, its own addresses) computes the same. */
static void identical_across_processes(void **st) {
  (void)st;
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    void *junk = malloc(12345); /* shift the child's heap */
    for (size_t g = 0; g < N_GOLDEN; g++) {
      result r;
      run_fixture(GOLDEN[g].fixture, &VARIANTS[0], &r, NULL, NULL);
      if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(3);
    }
    free(junk);
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  for (size_t g = 0; g < N_GOLDEN; g++) {
    result mine, theirs;
    run_fixture(GOLDEN[g].fixture, &VARIANTS[0], &mine, NULL, NULL);
    assert_int_equal(read(fd[0], &theirs, sizeof theirs), sizeof theirs);
    assert_string_equal(mine.archive, theirs.archive);
    assert_string_equal(mine.label, theirs.label);
    assert_string_equal(mine.content, theirs.content);
  }
  close(fd[0]);
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* The committed goldens: the same values in every build of this identity. */
static void equal_to_goldens(void **st) {
  (void)st;
  bool print = getenv("HOLO_PRINT_GOLDEN") != NULL;
  for (size_t g = 0; g < N_GOLDEN; g++) {
    result r;
    run_fixture(GOLDEN[g].fixture, &VARIANTS[0], &r, NULL, NULL);
    if (print) {
      printf("    {\"%s\",\n     \"%s\",\n     \"%s\",\n     \"%s\"},\n", GOLDEN[g].fixture, r.archive, r.label, r.content);
      continue;
    }
    if (strcmp(r.archive, GOLDEN[g].archive_label))
      fail_msg("%s: archive label %s, golden %s (the fixture changed: regenerate)", GOLDEN[g].fixture, r.archive,
               GOLDEN[g].archive_label);
    if (strcmp(r.label, GOLDEN[g].output_label))
      fail_msg("%s: output label %s, golden %s (label preimage or a kernel identity changed)", GOLDEN[g].fixture,
               r.label, GOLDEN[g].output_label);
    if (strcmp(r.content, GOLDEN[g].content_label))
      fail_msg("%s: output bytes changed (content %s, golden %s) but the labels did not: bump the kernel identity",
               GOLDEN[g].fixture, r.content, GOLDEN[g].content_label);
  }
}

/* The computed label (docs/holo-format.md §5, holo/node/v4), derived here
 * from its definition for refine-halve's one node, y = Mul(x, half): the key
 * N_0 = SHA-256(tag, backend and kernel identity, no attributes, n_in 2,
 * n_out 1, output 0), then BLAKE3's keyed hash under N_0 of the two
 * operands' 32-byte digests: one 64-byte block, one compression with
 * CHUNK_START | CHUNK_END | ROOT | KEYED_HASH. The compression is written
 * out here from the BLAKE3 paper (permuting the message between rounds,
 * where runtime/blake3.c reads a schedule table) so the test checks the
 * definition, not the code. */
static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void g(uint32_t *v, int a, int b, int c, int d, uint32_t x, uint32_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 12);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr(v[d] ^ v[a], 8);
  v[c] = v[c] + v[d];
  v[b] = rotr(v[b] ^ v[c], 7);
}

static void blake3_one_block(const uint8_t key[32], const uint8_t blk[64], uint8_t out[32]) {
  static const uint32_t IV[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                                 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
  static const int PERM[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
  uint32_t v[16], m[16], t[16], cv[8];
  for (int j = 0; j < 8; j++)
    cv[j] = (uint32_t)key[4 * j] | (uint32_t)key[4 * j + 1] << 8 | (uint32_t)key[4 * j + 2] << 16 |
            (uint32_t)key[4 * j + 3] << 24;
  for (int j = 0; j < 16; j++)
    m[j] = (uint32_t)blk[4 * j] | (uint32_t)blk[4 * j + 1] << 8 | (uint32_t)blk[4 * j + 2] << 16 |
           (uint32_t)blk[4 * j + 3] << 24;
  memcpy(v, cv, 32);
  memcpy(v + 8, IV, 16);
  v[12] = 0;               /* counter, low */
  v[13] = 0;               /* counter, high */
  v[14] = 64;              /* block length */
  v[15] = 1 | 2 | 8 | 16;  /* CHUNK_START | CHUNK_END | ROOT | KEYED_HASH */
  for (int r = 0; r < 7; r++) {
    g(v, 0, 4, 8, 12, m[0], m[1]);
    g(v, 1, 5, 9, 13, m[2], m[3]);
    g(v, 2, 6, 10, 14, m[4], m[5]);
    g(v, 3, 7, 11, 15, m[6], m[7]);
    g(v, 0, 5, 10, 15, m[8], m[9]);
    g(v, 1, 6, 11, 12, m[10], m[11]);
    g(v, 2, 7, 8, 13, m[12], m[13]);
    g(v, 3, 4, 9, 14, m[14], m[15]);
    for (int j = 0; j < 16; j++)
      t[j] = m[PERM[j]];
    memcpy(m, t, sizeof m);
  }
  for (int j = 0; j < 8; j++)
    put32(out + 4 * j, v[j] ^ v[j + 8]);
}

static void node_label_from_definition(void **st) {
  (void)st;
  fx f;
  fx_open(&f, "refine-halve", NULL);
  holo_span op;
  assert_int_equal(holo_session_node_op(f.s, 0, &op), HOLO_OK);
  assert_true(op.len == 3 && !memcmp(op.data, "Mul", 3));
  float x[4] = {1, -2, 3.5f, 0}, half = 0.5f;
  int64_t shape[1] = {4}, one[1] = {1};
  holo_input in = {x, sizeof x, shape, 1};
  holo_view v;
  holo_error err = {0};
  if (holo_execute_addressed(f.s, &in, 1, &v, 1, &err)) fail_msg("%s", err.message);
  holo_digest dx, dh, want;
  holo_content_digest(HOLO_DT_F32, shape, 1, x, sizeof x, &dx);
  holo_content_digest(HOLO_DT_F32, one, 1, &half, sizeof half, &dh);
  const char *bid = holo_session_backend_identity(f.s);
  const holo_kernel *k = holo_cpu_lookup(NULL, "Mul", 3);
  assert_non_null(k);
  uint8_t w[4];
  holo_sha256 c;
  holo_sha256_init(&c);
  holo_sha256_update(&c, "holo/node/v4", 13);
  holo_sha256_update(&c, bid, strlen(bid) + 1);
  holo_sha256_update(&c, k->identity, strlen(k->identity) + 1);
  put32(w, 0); /* n_attrs */
  holo_sha256_update(&c, w, 4);
  put32(w, 2); /* n_in */
  holo_sha256_update(&c, w, 4);
  put32(w, 1); /* n_out */
  holo_sha256_update(&c, w, 4);
  put32(w, 0); /* k */
  holo_sha256_update(&c, w, 4);
  uint8_t key[32], blk[64];
  holo_sha256_final(&c, key);
  memcpy(blk, dx.b, 32);
  memcpy(blk + 32, dh.b, 32);
  blake3_one_block(key, blk, want.b);
  char txt[HOLO_LABEL_LEN + 1];
  holo_label_render(&want, txt);
  assert_string_equal(v.label, txt);
  fx_close(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(identical_across_variants),
      cmocka_unit_test(identical_across_processes),
      cmocka_unit_test(equal_to_goldens),
      cmocka_unit_test(node_label_from_definition),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
