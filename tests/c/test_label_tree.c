/* Tree content labels (docs/holo-format.md §5): the four-lane SHA-256
 * against its scalar twin and against four serial SHA-256s on every build
 * (native, and the wasm cores through tools/test-wasm-c.sh); the normative
 * label vectors; the spec's definition spelled out with the serial SHA-256
 * at sizes around the chunk boundaries; a flat label below one chunk. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "label.h"
#include "sha256-lanes.h"
#include "hologram/sha256.h"

#define C HOLO_CONTENT_CHUNK

static uint32_t rs = 12345;
static uint8_t rnd8(void) {
  rs ^= rs << 13;
  rs ^= rs >> 17;
  rs ^= rs << 5;
  return (uint8_t)(rs >> 24);
}

static void hexs(const uint8_t *d, char *out) {
  for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

/* Lanes vs twin vs serial: four different messages behind a shared prefix. */
static void lanes_equal_serial(void **st) {
  (void)st;
  const size_t blocks[] = {0, 1, 2, 3, 17, 1024};
  uint8_t prefix[128];
  for (size_t i = 0; i < sizeof prefix; i++) prefix[i] = rnd8();
  for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++) {
    size_t nb = blocks[k];
    uint8_t *buf = malloc(4 * 64 * nb + 4), (*a)[32] = malloc(128), (*b)[32] = malloc(128);
    for (size_t i = 0; i < 4 * 64 * nb + 4; i++) buf[i] = rnd8();
    /* unaligned lanes, one starting 1 byte in */
    const uint8_t *p[4] = {buf + 1, buf + 1 + 64 * nb, buf + 2 + 128 * nb, buf + 3 + 192 * nb};
    for (size_t pre = 0; pre <= 128; pre += 64) {
      holo_sha256 c;
      holo_sha256_init(&c);
      holo__sha256_blocks(c.h, prefix, pre / 64);
      holo__sha256_x4(c.h, pre, p, nb, a);
      holo__sha256_x4_scalar(c.h, pre, p, nb, b);
      assert_memory_equal(a, b, 128);
      for (int l = 0; l < 4; l++) {
        uint8_t want[32];
        holo_sha256 s;
        holo_sha256_init(&s);
        holo_sha256_update(&s, prefix, pre);
        holo_sha256_update(&s, p[l], 64 * nb);
        holo_sha256_final(&s, want);
        assert_memory_equal(a[l], want, 32);
      }
    }
    free(buf);
    free(a);
    free(b);
  }
  print_message("lanes: %s\n", holo__sha256_x4_is_vector() ? "vector" : "scalar twin");
}

/* §5 spelled out with the serial SHA-256 (no lanes, no groups). */
static void spec_digest(uint32_t dtype, const int64_t *shape, uint32_t rank, const uint8_t *b, size_t len,
                        uint8_t out[32]) {
  uint8_t hdr[16 + 8 + 8 * 8 + 8];
  holo_sha256 r;
  holo_sha256_init(&r);
  if (len <= C) {
    holo_sha256_update(&r, "holo/content/v1", 16);
  } else {
    holo_sha256_update(&r, "holo/content-tree/v1", 21);
  }
  holo_put_u32le(hdr, dtype);
  holo_put_u32le(hdr + 4, rank);
  for (uint32_t i = 0; i < rank; i++) holo_put_i64le(hdr + 8 + 8 * i, shape[i]);
  size_t h = 8 + 8 * (size_t)rank;
  if (len > C) {
    holo_put_i64le(hdr + h, (int64_t)len);
    h += 8;
  }
  holo_sha256_update(&r, hdr, h);
  if (len <= C) {
    holo_sha256_update(&r, b, len);
  } else {
    uint8_t block[64] = {0};
    memcpy(block, "holo/content-leaf/v1", 20);
    for (size_t at = 0; at < len; at += C) {
      uint8_t d[32];
      holo_sha256 l;
      holo_sha256_init(&l);
      holo_sha256_update(&l, block, 64);
      holo_sha256_update(&l, b + at, len - at < C ? len - at : C);
      holo_sha256_final(&l, d);
      holo_sha256_update(&r, d, 32);
    }
  }
  holo_sha256_final(&r, out);
}

static void normative_vectors(void **st) {
  (void)st;
  static const struct {
    uint32_t dtype, rank;
    int64_t shape[2];
    size_t len;
    const char *want;
  } V[] = {
      {2, 1, {65536, 0}, 65536, "eb80ed9917ba1851b2430c9ea137668a3933e2ee23685896fc37b450fab7c26d"},
      {2, 1, {65537, 0}, 65537, "ad17fe63a39f1f91bc5a2c433e10d08adb9dccb33bd888a985a0ee170fcd680c"},
      {2, 1, {229376, 0}, 229376, "503879ab2357176d950bb224b2bca662b5fd304ae1d27ceb47923eaf9fe272ce"},
      {1, 2, {512, 512}, 1048576, "8d7786d2a805666d98d7c8270af8c67e542e450bc237a052adb6e69a563e43f8"},
  };
  uint8_t *b = malloc(1 << 20);
  for (size_t i = 0; i < (1u << 20); i++) b[i] = (uint8_t)(i % 251);
  for (size_t k = 0; k < sizeof V / sizeof V[0]; k++) {
    holo_digest d;
    uint8_t s[32];
    char got[65];
    holo_content_digest(V[k].dtype, V[k].shape, V[k].rank, b, V[k].len, &d);
    hexs(d.b, got);
    assert_string_equal(got, V[k].want);
    spec_digest(V[k].dtype, V[k].shape, V[k].rank, b, V[k].len, s);
    assert_memory_equal(s, d.b, 32);
  }
  free(b);
}

/* Random sizes around 1..9 chunk boundaries: the label equals the spec's,
 * and a one-byte change anywhere changes it. */
static void around_boundaries(void **st) {
  (void)st;
  const size_t max = 9 * C + 70;
  uint8_t *b = malloc(max);
  for (size_t i = 0; i < max; i++) b[i] = rnd8();
  for (size_t k = 1; k <= 9; k++) {
    const long deltas[] = {-65, -1, 0, 1, 63, 64, 65};
    for (size_t j = 0; j < sizeof deltas / sizeof deltas[0]; j++) {
      size_t len = (size_t)((long)(k * C) + deltas[j]);
      int64_t shape[1] = {(int64_t)len};
      holo_digest d, e;
      uint8_t s[32];
      holo_content_digest(2, shape, 1, b, len, &d);
      spec_digest(2, shape, 1, b, len, s);
      assert_memory_equal(s, d.b, 32);
      size_t at = (size_t)rnd8() * 257 % len;
      b[at] ^= 1;
      holo_content_digest(2, shape, 1, b, len, &e);
      b[at] ^= 1;
      assert_false(holo_digest_eq(&d, &e));
    }
  }
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(lanes_equal_serial), cmocka_unit_test(normative_vectors),
                                     cmocka_unit_test(around_boundaries)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
