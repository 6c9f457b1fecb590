/* The sequence and optional kernels over the encoding of docs/holo-format.md
 * §4b (operators/sequence.c, sequence-split.c, optional.c): the canonical
 * bytes SequenceConstruct writes, SequenceAt/Insert/Erase/Length on them,
 * SplitToSequence then ConcatFromSequence giving the input back, positions
 * out of range refused, and every one-byte change and every truncation of a
 * valid encoding either read as a valid encoding or refused with a message
 * (never a read out of bounds: the suite runs under ASan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/kernel_testutil.h"

#define SEQ 128u
#define OPT 129u

/* SequenceConstruct(a f32[2], b f32[1,3]) into *out (malloc'd), its length. */
static size_t construct(uint8_t **out) {
  static const float a[2] = {1, 2}, b[3] = {3, 4, 5};
  kt_call k;
  kt_init(&k, "SequenceConstruct");
  kt_input(&k, 0, HOLO_DT_F32, 1, (int64_t[]){2}, a);
  kt_input(&k, 1, HOLO_DT_F32, 2, (int64_t[]){1, 3}, b);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, SEQ);
  size_t n = k.out[0].bytes;
  *out = malloc(n);
  memcpy(*out, k.out[0].data, n);
  kt_free(&k);
  return n;
}

static void test_construct_layout(void **st) {
  (void)st;
  uint8_t *s;
  size_t n = construct(&s);
  /* header 16 + 2 records of 72 = 160; item 0 at 160 (8 bytes), item 1 at 168 (12) */
  assert_int_equal(n, 180);
  assert_memory_equal(s, "HSQ1", 4);
  assert_int_equal(s[4], 0);
  assert_int_equal(s[8], HOLO_DT_F32);
  assert_int_equal(s[12], 2);
  assert_int_equal(s[16], 1);     /* rank of item 0 */
  assert_int_equal(s[16 + 8], 2); /* dims[0] */
  assert_int_equal(s[88], 2);     /* rank of item 1 */
  float f[3];
  memcpy(f, s + 168, 12);
  assert_true(f[0] == 3 && f[2] == 5);
  free(s);
}

static void test_at_insert_erase_length(void **st) {
  (void)st;
  uint8_t *s;
  size_t n = construct(&s);
  int64_t pos = -1, len = (int64_t)n;
  kt_call k;
  kt_init(&k, "SequenceAt");
  kt_input(&k, 0, SEQ, 1, &len, s);
  kt_input(&k, 1, HOLO_DT_I64, 0, NULL, &pos);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 2);
  assert_int_equal(k.out[0].shape[1], 3);
  assert_true(((float *)k.out[0].data)[1] == 4);
  kt_free(&k);

  pos = 2;
  kt_init(&k, "SequenceAt");
  kt_input(&k, 0, SEQ, 1, &len, s);
  kt_input(&k, 1, HOLO_DT_I64, 0, NULL, &pos);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "SequenceAt");
  assert_non_null(strstr(k.msg, "outside [-2, 1]"));
  kt_free(&k);

  static const float c[1] = {9};
  pos = 0;
  kt_init(&k, "SequenceInsert");
  kt_input(&k, 0, SEQ, 1, &len, s);
  kt_input(&k, 1, HOLO_DT_F32, 0, NULL, c);
  kt_input(&k, 2, HOLO_DT_I64, 0, NULL, &pos);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  uint8_t *s3 = malloc(k.out[0].bytes);
  int64_t len3 = (int64_t)k.out[0].bytes;
  memcpy(s3, k.out[0].data, k.out[0].bytes);
  kt_free(&k);

  kt_init(&k, "SequenceLength");
  kt_input(&k, 0, SEQ, 1, &len3, s3);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(*(int64_t *)k.out[0].data, 3);
  kt_free(&k);

  /* erasing the inserted item gives the original bytes back: one list, one encoding */
  kt_init(&k, "SequenceErase");
  kt_input(&k, 0, SEQ, 1, &len3, s3);
  kt_input(&k, 1, HOLO_DT_I64, 0, NULL, &pos);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].bytes, n);
  assert_memory_equal(k.out[0].data, s, n);
  kt_free(&k);
  free(s3);
  free(s);
}

static void test_split_concat_roundtrip(void **st) {
  (void)st;
  float x[10];
  for (int i = 0; i < 10; i++)
    x[i] = (float)i;
  static const int64_t lens[3] = {2, 1, 2};
  kt_call k;
  kt_init(&k, "SplitToSequence");
  kt_input(&k, 0, HOLO_DT_F32, 2, (int64_t[]){2, 5}, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, (int64_t[]){3}, lens);
  kt_attr_int(&k, "axis", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  int64_t len = (int64_t)k.out[0].bytes;
  uint8_t *s = malloc(k.out[0].bytes);
  memcpy(s, k.out[0].data, k.out[0].bytes);
  kt_free(&k);
  kt_init(&k, "ConcatFromSequence");
  kt_input(&k, 0, SEQ, 1, &len, s);
  kt_attr_int(&k, "axis", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 2);
  assert_int_equal(k.out[0].shape[1], 5);
  assert_memory_equal(k.out[0].data, x, sizeof x);
  kt_free(&k);
  free(s);
}

/* SequenceLength of `b` (n bytes): OK with the encoding's count, or a KERNEL refusal. */
static void length_of(const uint8_t *b, size_t n) {
  uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes: ASan sees any read past them */
  memcpy(copy, b, n);
  int64_t len = (int64_t)n;
  kt_call k;
  kt_init(&k, "SequenceLength");
  kt_input(&k, 0, SEQ, 1, &len, copy);
  holo_status st = kt_exec(&k);
  assert_true(st == HOLO_OK || (st == HOLO_ERR_KERNEL && strstr(k.msg, "SequenceLength")));
  kt_free(&k);
  free(copy);
}

static void test_mutations_refused_or_valid(void **st) {
  (void)st;
  uint8_t *s;
  size_t n = construct(&s);
  for (size_t cut = 0; cut < n; cut++)
    length_of(s, cut);
  for (size_t i = 0; i < n; i++)
    for (int bit = 0; bit < 8; bit++) {
      s[i] ^= (uint8_t)(1u << bit);
      length_of(s, n);
      s[i] ^= (uint8_t)(1u << bit);
    }
  free(s);
}

static void test_optional(void **st) {
  (void)st;
  kt_call k;
  kt_init(&k, "Optional");
  kt_absent(&k, 0);
  kt_attr_int(&k, "dtype", HOLO_DT_F32);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, OPT);
  assert_int_equal(k.out[0].bytes, 16);
  uint8_t none[16];
  memcpy(none, k.out[0].data, 16);
  kt_free(&k);
  int64_t len = 16;
  kt_init(&k, "OptionalGetElement");
  kt_input(&k, 0, OPT, 1, &len, none);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "OptionalGetElement");
  assert_non_null(strstr(k.msg, "empty"));
  kt_free(&k);
  /* an optional is not a sequence */
  kt_init(&k, "SequenceLength");
  kt_input(&k, 0, OPT, 1, &len, none);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "SequenceLength");
  kt_free(&k);
  /* and an "any dtype" kernel refuses both */
  kt_init(&k, "Transpose");
  kt_input(&k, 0, OPT, 1, &len, none);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Transpose");
  assert_non_null(strstr(k.msg, "a tensor is expected"));
  kt_free(&k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_construct_layout),
      cmocka_unit_test(test_at_insert_erase_length),
      cmocka_unit_test(test_split_concat_roundtrip),
      cmocka_unit_test(test_mutations_refused_or_valid),
      cmocka_unit_test(test_optional),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
