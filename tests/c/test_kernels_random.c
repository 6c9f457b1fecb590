/* holo.Philox (kernels-wasm-simd/operators/random.c), the random words the
 * converter's random ops are made of (docs/decisions.md 99), through the
 * table: Random123's known-answer vectors for Philox4x32-10, the word
 * layout (word j is word j mod 4 of the block of counter j / 4, a prefix of
 * a longer output), the key, stream and entropy rules, an empty output, and
 * every refusal. The distributions are tests/js/random.test.mjs's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/kernel_testutil.h"

static int64_t dims[1];

static void setup(kt_call *k, int64_t n) {
  static int64_t one[1] = {1};
  dims[0] = n;
  kt_init(k, "holo.Philox");
  kt_input(k, 0, HOLO_DT_I64, 1, one, dims);
}

static const uint32_t *words(kt_call *k) { return (const uint32_t *)k->out[0].data; }

/* Random123's kat_vectors for philox4x32 10 (counter, key, output). The
 * kernel's counter is (q, q >> 32, stream ^ e2, e3) under key ^ (e0, e1), so
 * the entropy input reaches any counter and key for block q = 0. */
static void test_philox_known_answers(void **state) {
  (void)state;
  static const uint32_t kat[3][10] = {
      {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
      {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d, 0x41c83b0e,
       0xa20bc7c6, 0x6d5451fd},
      {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09, 0x94fdcceb,
       0x5001e420, 0x24126ea1},
  };
  for (int t = 0; t < 3; t++) {
    const uint32_t *v = kat[t];
    /* counter words 0, 1 are the block index: only vector 0 has them 0, so
     * the others go through key and stream with the entropy */
    if (v[0] || v[1]) continue;
    kt_call k;
    setup(&k, 4);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    for (int i = 0; i < 4; i++)
      assert_int_equal(words(&k)[i], v[6 + i]);
    kt_free(&k);
  }
  /* vector 0 again with key and stream as attributes and as entropy: the same words */
  static const uint32_t e[4] = {0, 0, 0, 0};
  static const int64_t four[1] = {4};
  kt_call k;
  setup(&k, 4);
  kt_input(&k, 1, HOLO_DT_U32, 1, four, e);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(words(&k)[0], 0x6627e8d5);
  assert_int_equal(words(&k)[3], 0x9b00dbd8);
  kt_free(&k);
}

/* A plain Philox4x32-10 for the other vectors' counters (the kernel reaches
 * block q only through j), checked against vectors 1 and 2 first. */
static void ref_philox(uint32_t x[4], uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; r++) {
    uint64_t p = (uint64_t)0xD2511F53u * x[0], q = (uint64_t)0xCD9E8D57u * x[2];
    uint32_t y[4] = {(uint32_t)(q >> 32) ^ x[1] ^ k0, (uint32_t)q, (uint32_t)(p >> 32) ^ x[3] ^ k1,
                     (uint32_t)p};
    memcpy(x, y, sizeof y);
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
}

static void test_philox_layout(void **state) {
  (void)state;
  uint32_t a[4] = {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff};
  ref_philox(a, 0xffffffff, 0xffffffff);
  assert_int_equal(a[0], 0x408f276d);
  assert_int_equal(a[3], 0x6d5451fd);
  uint32_t b[4] = {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344};
  ref_philox(b, 0xa4093822, 0x299f31d0);
  assert_int_equal(b[0], 0xd16cfe09);
  assert_int_equal(b[3], 0x24126ea1);
  /* key 9 << 32 | 7, stream 3 << 32 | 5, entropy e: word j = block (j / 4, 0, 5 ^ e2, 3 ^ e3)
   * under (7 ^ e0, 9 ^ e1) */
  static const uint32_t e[4] = {0x01020304, 0xa0b0c0d0, 0x11, 0x80000001};
  static const int64_t four[1] = {4};
  const int64_t key = (int64_t)9 << 32 | 7, stream = (int64_t)3 << 32 | 5;
  kt_call k;
  setup(&k, 1030); /* not a multiple of 4: the last block is cut */
  kt_attr_int(&k, "key", key);
  kt_attr_int(&k, "stream", stream);
  kt_input(&k, 1, HOLO_DT_U32, 1, four, e);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  for (uint32_t q = 0; q < 258; q++) {
    uint32_t x[4] = {q, 0, 5 ^ e[2], 3 ^ e[3]};
    ref_philox(x, 7 ^ e[0], 9 ^ e[1]);
    for (uint32_t i = 0; i < 4 && 4 * q + i < 1030; i++)
      assert_int_equal(words(&k)[4 * q + i], x[i]);
  }
  /* a shorter output is a prefix; another stream, key or entropy differs */
  uint32_t first[7];
  memcpy(first, words(&k), sizeof first);
  kt_free(&k);
  setup(&k, 7);
  kt_attr_int(&k, "key", key);
  kt_attr_int(&k, "stream", stream);
  kt_input(&k, 1, HOLO_DT_U32, 1, four, e);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(words(&k), first, sizeof first);
  kt_free(&k);
  setup(&k, 7);
  kt_attr_int(&k, "key", key);
  kt_attr_int(&k, "stream", stream + 1);
  kt_input(&k, 1, HOLO_DT_U32, 1, four, e);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_not_equal(words(&k), first, sizeof first);
  kt_free(&k);
  /* a rank-2 shape and an empty one */
  static const int64_t two[1] = {2}, d23[2] = {2, 3}, d0[2] = {3, 0};
  kt_init(&k, "holo.Philox");
  kt_input(&k, 0, HOLO_DT_I64, 1, two, d23);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 2);
  assert_int_equal(k.out[0].bytes, 24);
  assert_int_equal(words(&k)[0], 0x6627e8d5);
  kt_free(&k);
  kt_init(&k, "holo.Philox");
  kt_input(&k, 0, HOLO_DT_I64, 1, two, d0);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].bytes, 0);
  kt_free(&k);
}

/* Every 64-bit key and stream is one: a negative one is its two's complement words. */
static void test_philox_refusals(void **state) {
  (void)state;
  kt_call k;
  static const int64_t one[1] = {1}, neg[1] = {-2}, three[1] = {3};
  static const uint32_t e[4] = {0};
  static const float f[1] = {4};
  kt_init(&k, "holo.Philox");
  kt_input(&k, 0, HOLO_DT_I64, 1, one, neg);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.Philox");
  kt_free(&k);
  kt_init(&k, "holo.Philox");
  kt_input(&k, 0, HOLO_DT_F32, 1, one, f);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.Philox");
  kt_free(&k);
  setup(&k, 4);
  kt_input(&k, 1, HOLO_DT_U32, 1, three, e);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.Philox");
  kt_free(&k);
  setup(&k, 4);
  kt_input(&k, 1, HOLO_DT_I32, 1, (const int64_t[]){4}, e);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "holo.Philox");
  kt_free(&k);
  /* key -1 is words (2^32 - 1, 2^32 - 1): KAT vector 1's key, for block 0 */
  setup(&k, 4);
  kt_attr_int(&k, "key", -1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  uint32_t x[4] = {0, 0, 0, 0};
  ref_philox(x, 0xffffffff, 0xffffffff);
  assert_memory_equal(words(&k), x, sizeof x);
  kt_free(&k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_philox_known_answers),
      cmocka_unit_test(test_philox_layout),
      cmocka_unit_test(test_philox_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
