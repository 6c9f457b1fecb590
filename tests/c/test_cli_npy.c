/* The `holo` program's .npy reader and writer (wasi/cli-npy.c, compiled in
 * here): header round trips for every dtype and rank, NumPy's exact header
 * bytes, refusals with a cause, and every truncation and random corruption
 * of a valid file read without a fault (ASan+UBSan). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../wasi/cli-npy.c"

static const uint32_t ALL[] = {HOLO_DT_F32, HOLO_DT_F64, HOLO_DT_F16, HOLO_DT_I8,  HOLO_DT_I16, HOLO_DT_I32,
                               HOLO_DT_I64, HOLO_DT_U8,  HOLO_DT_U16, HOLO_DT_U32, HOLO_DT_U64, HOLO_DT_BOOL};

/* A whole file: header + n bytes of data (malloc'd). */
static uint8_t *file_for(uint32_t dt, const int64_t *shape, uint32_t rank, size_t *len) {
  char head[640];
  size_t hl = cli_npy_header(dt, shape, rank, head, sizeof head);
  assert_true(hl > 0);
  size_t n;
  assert_true(holo_shape_bytes(dt, shape, rank, &n));
  uint8_t *f = malloc(hl + n + 1);
  memcpy(f, head, hl);
  for (size_t i = 0; i < n; i++) f[hl + i] = (uint8_t)(i * 7 + 1);
  *len = hl + n;
  return f;
}

static void round_trip_every_dtype_and_rank(void **st) {
  (void)st;
  for (size_t k = 0; k < sizeof ALL / sizeof ALL[0]; k++)
    for (uint32_t rank = 0; rank <= HOLO_MAX_RANK; rank++) {
      int64_t shape[HOLO_MAX_RANK];
      for (uint32_t d = 0; d < rank; d++) shape[d] = (int64_t)(d % 3) + 1;
      if (rank) shape[0] = 12345; /* a wide first axis */
      if (rank > 4) shape[0] = 2;
      size_t len;
      uint8_t *f = file_for(ALL[k], shape, rank, &len);
      cli_npy npy;
      char why[256];
      assert_true(cli_is_npy(f, len));
      assert_true(cli_npy_parse(f, len, &npy, why, sizeof why));
      assert_int_equal(npy.dtype, ALL[k]);
      assert_int_equal(npy.rank, rank);
      assert_memory_equal(npy.shape, shape, sizeof(int64_t) * rank);
      assert_int_equal((npy.data - f) % 64, 0); /* data 64-aligned like NumPy */
      assert_int_equal(npy.len, len - (size_t)(npy.data - f));
      free(f);
    }
}

static void numpy_header_bytes(void **st) {
  (void)st;
  /* np.save of np.zeros((1, 10), np.float32) with NumPy >= 1.23 */
  char want[129];
  const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 10), }";
  memcpy(want, "\x93NUMPY\x01\x00\x76\x00", 10);
  size_t n = strlen(dict);
  memcpy(want + 10, dict, n);
  memset(want + 10 + n, ' ', 128 - 10 - n - 1);
  want[127] = '\n';
  char got[640];
  int64_t shape[2] = {1, 10};
  assert_int_equal(cli_npy_header(HOLO_DT_F32, shape, 2, got, sizeof got), 128);
  assert_memory_equal(got, want, 128);
  /* 1-d shapes carry the trailing comma; 1-byte types the '|' order */
  int64_t one[1] = {3};
  size_t hl = cli_npy_header(HOLO_DT_BOOL, one, 1, got, sizeof got);
  got[hl] = 0;
  assert_non_null(strstr(got + 10, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }"));
  hl = cli_npy_header(HOLO_DT_F64, one, 0, got, sizeof got);
  got[hl] = 0;
  assert_non_null(strstr(got + 10, "'shape': (), }"));
}

static bool parse_text(const char *descr_and_rest, size_t data, char *why) {
  /* builds a v1 file around a dict literal and `data` bytes */
  static uint8_t buf[4096];
  size_t n = strlen(descr_and_rest);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (uint8_t)n;
  buf[9] = 0;
  memcpy(buf + 10, descr_and_rest, n);
  memset(buf + 10 + n, 0, data);
  cli_npy npy;
  return cli_npy_parse(buf, 10 + n + data, &npy, why, 256);
}

static void refusals_name_the_cause(void **st) {
  (void)st;
  char why[256];
  assert_true(parse_text("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 8, why));
  assert_true(parse_text("{\"shape\": (2, 1), \"fortran_order\": True, \"descr\": \"<f4\"}", 8, why)); /* same layout */
  assert_true(parse_text("{'descr': '|u1', 'fortran_order': False, 'shape': (2L,), }", 2, why));
  assert_false(parse_text("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8, why));
  assert_non_null(strstr(why, "big-endian"));
  assert_false(parse_text("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 16, why));
  assert_non_null(strstr(why, "Fortran"));
  assert_false(parse_text("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16, why));
  assert_non_null(strstr(why, "not supported"));
  assert_false(parse_text("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 8, why));
  assert_non_null(strstr(why, "structured"));
  assert_false(parse_text("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 7, why));
  assert_non_null(strstr(why, "data is 7 bytes"));
  assert_false(parse_text("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", 4, why));
  assert_non_null(strstr(why, "rank"));
  assert_false(parse_text("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", 4, why));
  assert_false(parse_text("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999,99999999999), }", 4, why));
  assert_false(parse_text("{'descr': '<f4', 'shape': (2,), }", 8, why));
  assert_false(parse_text("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", 8, why));
  uint8_t v9[16] = "\x93NUMPY\x09\x00";
  cli_npy npy;
  assert_false(cli_npy_parse(v9, sizeof v9, &npy, why, sizeof why));
  assert_non_null(strstr(why, "version"));
  assert_int_equal(cli_dtype_parse("float32"), HOLO_DT_F32);
  assert_int_equal(cli_dtype_parse("<f4"), HOLO_DT_F32);
  assert_int_equal(cli_dtype_parse("i8"), HOLO_DT_I64);
  assert_int_equal(cli_dtype_parse("int8"), HOLO_DT_I8);
  assert_int_equal(cli_dtype_parse("|b1"), HOLO_DT_BOOL);
  assert_int_equal(cli_dtype_parse("<float32"), 0);
  assert_int_equal(cli_dtype_parse("f3"), 0);
}

static void truncations_and_corruptions_never_fault(void **st) {
  (void)st;
  int64_t shape[3] = {2, 3, 4};
  size_t len;
  uint8_t *f = file_for(HOLO_DT_F32, shape, 3, &len);
  cli_npy npy;
  char why[256];
  for (size_t n = 0; n < len; n++) {
    uint8_t *t = malloc(n ? n : 1); /* exact size: ASan sees any overread */
    memcpy(t, f, n);
    assert_false(cli_npy_parse(t, n, &npy, why, sizeof why));
    free(t);
  }
  uint32_t seed = 12345;
  for (int round = 0; round < 20000; round++) {
    uint8_t *t = malloc(len);
    memcpy(t, f, len);
    for (int k = 0; k < 1 + round % 4; k++) {
      seed = seed * 1664525u + 1013904223u;
      size_t at = (seed >> 8) % 128; /* the header */
      seed = seed * 1664525u + 1013904223u;
      t[at] = (uint8_t)(seed >> 24);
    }
    if (cli_npy_parse(t, len, &npy, why, sizeof why)) {
      assert_true(npy.data >= t && npy.data + npy.len == t + len);
    }
    free(t);
  }
  free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip_every_dtype_and_rank),
      cmocka_unit_test(numpy_header_bytes),
      cmocka_unit_test(refusals_name_the_cause),
      cmocka_unit_test(truncations_and_corruptions_never_fault),
  };
  return cmocka_run_group_tests(tests, 0, 0);
}
