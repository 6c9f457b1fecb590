/* SHA-256 against the FIPS 180-4 examples, incremental feeding, and
 * differentially against node:crypto on random lengths. Labels: rendering
 * and strict parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "label.h"
#include "hologram/sha256.h"

static void hexs(const uint8_t *d, char *out) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

static void check(const void *msg, size_t len, const char *want) {
  uint8_t d[32];
  char got[65];
  holo_sha256_digest(msg, len, d);
  hexs(d, got);
  assert_string_equal(got, want);
}

static void fips_vectors(void **st) {
  (void)st;
  check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *m2 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  check(m2, strlen(m2), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  const char *m3 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
  check(m3, strlen(m3), "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  size_t n = 1000000;
  char *a = malloc(n);
  memset(a, 'a', n);
  check(a, n, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(a);
}

/* Feeding in odd pieces must equal one update. */
static void incremental(void **st) {
  (void)st;
  uint8_t buf[1000], d1[32], d2[32];
  for (int i = 0; i < 1000; i++) buf[i] = (uint8_t)(i * 7 + 3);
  holo_sha256_digest(buf, sizeof buf, d1);
  for (size_t step = 1; step < 130; step += 7) {
    holo_sha256 c;
    holo_sha256_init(&c);
    for (size_t off = 0; off < sizeof buf; off += step)
      holo_sha256_update(&c, buf + off, off + step > sizeof buf ? sizeof buf - off : step);
    holo_sha256_final(&c, d2);
    assert_memory_equal(d1, d2, 32);
  }
}

static void versus_node(void **st) {
  (void)st;
  enum { N = 300 };
  size_t lens[N];
  char path[] = "/tmp/holo-sha-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  uint32_t seed = 12345;
  char mine[N][65];
  for (int i = 0; i < N; i++) {
    seed = seed * 1664525u + 1013904223u;
    lens[i] = i < 130 ? (size_t)i : seed % 20000;
    uint8_t *b = malloc(lens[i] + 1);
    for (size_t k = 0; k < lens[i]; k++) {
      seed = seed * 1664525u + 1013904223u;
      b[k] = (uint8_t)(seed >> 24);
    }
    fwrite(b, 1, lens[i], f);
    uint8_t d[32];
    holo_sha256_digest(b, lens[i], d);
    hexs(d, mine[i]);
    free(b);
  }
  fclose(f);
  char cmd[4096];
  int o = snprintf(cmd, sizeof cmd,
                   "node -e \"const c=require('crypto'),b=require('fs').readFileSync('%s');let o=0;for(const n of [",
                   path);
  for (int i = 0; i < N; i++) o += snprintf(cmd + o, sizeof cmd - (size_t)o, "%zu,", lens[i]);
  snprintf(cmd + o, sizeof cmd - (size_t)o,
           "]){console.log(c.createHash('sha256').update(b.subarray(o,o+n)).digest('hex'));o+=n}\"");
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char line[128];
  int i = 0;
  while (fgets(line, sizeof line, p) && i < N) {
    line[64] = 0;
    assert_string_equal(line, mine[i]);
    i++;
  }
  pclose(p);
  remove(path);
  assert_int_equal(i, N);
}

static void labels(void **st) {
  (void)st;
  holo_digest d, e;
  for (int i = 0; i < 32; i++) d.b[i] = (uint8_t)(i * 9);
  char txt[72];
  holo_label_render(&d, txt);
  assert_int_equal(strlen(txt), 71);
  assert_memory_equal(txt, "sha256:", 7);
  assert_true(holo_label_parse(txt, 71, &e));
  assert_memory_equal(d.b, e.b, 32);
  char bad[72];
  memcpy(bad, txt, 72);
  bad[10] = 'A'; /* uppercase hex is not the canonical form */
  assert_false(holo_label_parse(bad, 71, &e));
  assert_false(holo_label_parse(txt, 70, &e));
  assert_false(holo_label_parse("sha256:../../x", 14, &e));
  memcpy(bad, txt, 72);
  bad[3] = '1';
  assert_false(holo_label_parse(bad, 71, &e));
  assert_false(holo_label_parse(NULL, 71, &e));
}

/* The content preimage of docs/holo-format.md §5, spelled out. */
static void content_preimage(void **st) {
  (void)st;
  float v[3] = {1.0f, -2.0f, 0.5f};
  int64_t shape[2] = {1, 3};
  uint8_t pre[16 + 8 + 16 + 12];
  memcpy(pre, "holo/content/v1", 16);
  holo_put_u32le(pre + 16, 1);
  holo_put_u32le(pre + 20, 2);
  holo_put_i64le(pre + 24, 1);
  holo_put_i64le(pre + 32, 3);
  memcpy(pre + 40, v, 12);
  uint8_t want[32];
  holo_sha256_digest(pre, sizeof pre, want);
  holo_digest got;
  holo_content_digest(1, shape, 2, v, 12, &got);
  assert_memory_equal(want, got.b, 32);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fips_vectors), cmocka_unit_test(incremental), cmocka_unit_test(versus_node),
      cmocka_unit_test(labels), cmocka_unit_test(content_preimage)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
