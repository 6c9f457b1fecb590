/* Kernels (kernels-wasm-simd/registry-table.h), math: Cast, the Reduce family,
 * ArgMax/ArgMin, the f32 unary ops, Max/Min/Pow/Mod/PRelu, comparisons and
 * logic, LogSoftmax, LayerNormalization. References in double. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/kernel_testutil.h"

/* f takes a float (exact for any half) because the wasm32 build's stand-in
 * for _Float16 (__fp16, tests/c/util/cmocka-wasi.h) cannot be a parameter. */
static uint16_t f16_bits(float f) {
  _Float16 h = (_Float16)f;
  uint16_t u;
  memcpy(&u, &h, 2);
  return u;
}

/* ---------------------------------------------------------------- Cast */

static void test_cast(void **st) {
  (void)st;
  int64_t s[1] = {9};
  float x[9] = {1.5f, -1.5f, 2.9f, -2.9f, NAN, INFINITY, -INFINITY, 3e9f, 65519.f};
  kt_call k;
  /* f32 -> i32: truncation toward zero, saturation, NaN -> 0 */
  int32_t want32[9] = {1, -1, 2, -2, 0, INT32_MAX, INT32_MIN, INT32_MAX, 65519};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_attr_int(&k, "to", HOLO_DT_I32);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, HOLO_DT_I32);
  assert_memory_equal(k.out[0].data, want32, sizeof want32);
  kt_free(&k);
  /* f32 -> u8 saturates; -> bool is x != 0 (NaN true) */
  uint8_t want8[9] = {1, 0, 2, 0, 0, 255, 0, 255, 255}, wantb[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_attr_int(&k, "to", HOLO_DT_U8);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, want8, 9);
  kt_free(&k);
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_attr_int(&k, "to", HOLO_DT_BOOL);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, wantb, 9);
  kt_free(&k);
  /* f32 -> f16 against the compiler's conversion (round to nearest even) on random values */
  uint64_t seed = 11;
  enum { N = 4099 };
  float *r = malloc(N * 4);
  for (int i = 0; i < N; i++) {
    uint32_t u = (uint32_t)kt_rand(&seed);
    memcpy(&r[i], &u, 4);
  }
  int64_t sn[1] = {N};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, sn, r);
  kt_attr_int(&k, "to", HOLO_DT_F16);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const uint16_t *h = k.out[0].data;
  for (int i = 0; i < N; i++) {
    if (isnan(r[i])) {
      assert_true((h[i] & 0x7c00) == 0x7c00 && (h[i] & 0x3ff));
      continue;
    }
    assert_int_equal(h[i], f16_bits((_Float16)r[i]));
  }
  kt_free(&k);
  /* f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is just above a tie */
  double d[3] = {1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11, 65520.0};
  int64_t s3[1] = {3};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F64, 1, s3, d);
  kt_attr_int(&k, "to", HOLO_DT_F16);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  h = k.out[0].data;
  assert_int_equal(h[0], 0x3c01);
  assert_int_equal(h[1], 0x3c00); /* tie -> even */
  assert_int_equal(h[2], 0x7c00);
  kt_free(&k);
  /* f16 -> f32 exact over every bit pattern */
  uint16_t *all = malloc(65536 * 2);
  for (uint32_t i = 0; i < 65536; i++)
    all[i] = (uint16_t)i;
  int64_t s64k[1] = {65536};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F16, 1, s64k, all);
  kt_attr_int(&k, "to", HOLO_DT_F32);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float *f = k.out[0].data;
  for (uint32_t i = 0; i < 65536; i++) {
    _Float16 hv;
    memcpy(&hv, &all[i], 2);
    if (isnan((float)hv))
      assert_true(isnan(f[i]));
    else
      assert_true(f[i] == (float)hv);
  }
  kt_free(&k);
  free(all);
  /* i32 -> f32 (its own vectorized loop) rounds the exact integer once to
   * nearest even, as every other integer -> float cast: the extremes, ties
   * above 2^24, random values at every alignment of the vector step */
  enum { NI = 1031 };
  int32_t *iv = malloc(NI * 4);
  for (int i = 0; i < NI; i++)
    iv[i] = (int32_t)(uint32_t)kt_rand(&seed);
  iv[0] = INT32_MAX, iv[1] = INT32_MIN, iv[2] = (1 << 24) + 1, iv[3] = (1 << 24) + 3, iv[4] = -(1 << 24) - 1;
  int64_t sni[1] = {NI};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_I32, 1, sni, iv);
  kt_attr_int(&k, "to", HOLO_DT_F32);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  f = k.out[0].data;
  assert_true(f[0] == 2147483648.0f && f[1] == -2147483648.0f && f[2] == 16777216.0f && f[3] == 16777220.0f);
  for (int i = 0; i < NI; i++)
    assert_true(f[i] == (float)(double)iv[i]);
  kt_free(&k);
  free(iv);
  free(r);
  /* i64 -> i8 wraps; i32 -> f64; bool -> i64 */
  int64_t xi[4] = {300, -129, INT64_MAX, -1};
  int8_t wi8[4] = {44, 127, -1, -1};
  int64_t s4[1] = {4};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_I64, 1, s4, xi);
  kt_attr_int(&k, "to", HOLO_DT_I8);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, wi8, 4);
  kt_free(&k);
  uint64_t xu[2] = {UINT64_MAX, 5};
  double wd[2] = {18446744073709551616.0, 5.0};
  int64_t s2[1] = {2};
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_U64, 1, s2, xu);
  kt_attr_int(&k, "to", HOLO_DT_F64);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, wd, 16);
  kt_free(&k);
  /* refusals */
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Cast"); /* 'to' missing */
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_attr_int(&k, "to", 8); /* string */
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Cast");
  kt_init(&k, "Cast");
  kt_input(&k, 0, 99, 1, s, x);
  kt_attr_int(&k, "to", 1);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Cast");
  kt_init(&k, "Cast");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  k.in[0].bytes = 8; /* buffer shorter than the shape */
  kt_attr_int(&k, "to", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Cast");
}

/* bfloat16: f32 -> bf16 rounds to nearest even (onnxruntime's BFloat16),
 * f64 -> bf16 once; bf16 -> f32 and f16 -> f32 -> f16 keep every bit
 * pattern, NaNs included (the converter's widening relies on it). */
static uint16_t bf16_ref(uint32_t u) {
  if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu))
    return (uint16_t)((u >> 16) | ((u & 0x7f0000u) ? 0 : 0x40u));
  if ((u & 0x7fffffffu) == 0x7f800000u) return (uint16_t)(u >> 16);
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

static void cast_run(kt_call *k, uint32_t sd, int64_t n, const void *x, uint32_t to) {
  int64_t s[1] = {n};
  kt_init(k, "Cast");
  kt_input(k, 0, sd, 1, s, x);
  kt_attr_int(k, "to", to);
  assert_int_equal(kt_exec(k), HOLO_OK);
  assert_int_equal(k->out[0].dtype, to);
}

static void test_cast_bf16(void **st) {
  (void)st;
  kt_call k;
  enum { N = 65536 };
  uint32_t *r = malloc(N * 4);
  uint16_t *all = malloc(N * 2);
  uint64_t seed = 5;
  for (uint32_t i = 0; i < N; i++) {
    r[i] = i < 16 ? (uint32_t[]){0,           0x80000000u, 0x7f800000u, 0xff800000u, 0x7f7fffffu, 0x7f7f8000u,
                                 0x3f808000u, 0x3f818000u, 0x00008000u, 0x00018000u, 0x7f800001u, 0xffc00000u,
                                 0x7fbf0000u, 0x00000001u, 0x3f80ffffu, 0xbf808001u}[i]
                  : (uint32_t)kt_rand(&seed);
    all[i] = (uint16_t)i;
  }
  cast_run(&k, HOLO_DT_F32, N, r, HOLO_DT_BF16);
  const uint16_t *b = k.out[0].data;
  for (uint32_t i = 0; i < N; i++)
    assert_int_equal(b[i], bf16_ref(r[i]));
  kt_free(&k);
  cast_run(&k, HOLO_DT_BF16, N, all, HOLO_DT_F32);
  const uint32_t *w = k.out[0].data;
  for (uint32_t i = 0; i < N; i++)
    assert_int_equal(w[i], i << 16);
  kt_free(&k);
  /* f16 -> f32 -> f16 and bf16 -> f32 -> bf16: the same 16 bits, every pattern */
  for (uint32_t dt = HOLO_DT_F16; dt <= HOLO_DT_BF16; dt += HOLO_DT_BF16 - HOLO_DT_F16) {
    cast_run(&k, dt, N, all, HOLO_DT_F32);
    kt_call k2;
    cast_run(&k2, HOLO_DT_F32, N, k.out[0].data, dt);
    assert_memory_equal(k2.out[0].data, all, N * 2);
    kt_free(&k2);
    kt_free(&k);
  }
  /* f64 -> bf16 rounds once: a tie goes to even, just above a tie up */
  double d[5] = {1.0 + 0x1p-8, 1.0 + 0x1p-8 + 0x1p-40, 1.0 + 3 * 0x1p-8, 0x1.fep127 + 0x1p119, -0.0};
  const uint16_t wd[5] = {0x3f80, 0x3f81, 0x3f82, 0x7f80, 0x8000};
  cast_run(&k, HOLO_DT_F64, 5, d, HOLO_DT_BF16);
  assert_memory_equal(k.out[0].data, wd, sizeof wd);
  kt_free(&k);
  /* integers: 257 -> 256 (ties to even), -3 exact; bf16 -> i32 truncates */
  int32_t xi[2] = {257, -3};
  const uint16_t wi[2] = {0x4380, 0xc040};
  cast_run(&k, HOLO_DT_I32, 2, xi, HOLO_DT_BF16);
  assert_memory_equal(k.out[0].data, wi, sizeof wi);
  kt_free(&k);
  const uint16_t bh[2] = {0x4039, 0xc039}; /* 2.890625, -2.890625 */
  const int32_t wt[2] = {2, -2};
  cast_run(&k, HOLO_DT_BF16, 2, bh, HOLO_DT_I32);
  assert_memory_equal(k.out[0].data, wt, sizeof wt);
  kt_free(&k);
  /* EyeLike of bf16 writes 1.0 = 0x3f80; Mod refuses bf16 */
  int64_t s22[2] = {2, 2};
  float z[4] = {0};
  kt_init(&k, "EyeLike");
  kt_input(&k, 0, HOLO_DT_F32, 2, s22, z);
  kt_attr_int(&k, "dtype", HOLO_DT_BF16);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const uint16_t we[4] = {0x3f80, 0, 0, 0x3f80};
  assert_memory_equal(k.out[0].data, we, sizeof we);
  kt_free(&k);
  kt_init(&k, "Mod");
  kt_input(&k, 0, HOLO_DT_BF16, 1, (int64_t[]){2}, wi);
  kt_input(&k, 1, HOLO_DT_BF16, 1, (int64_t[]){2}, wi);
  kt_attr_int(&k, "fmod", 1);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Mod");
  free(r);
  free(all);
}

/* -------------------------------------------------------------- Reduce */

static const char *const red_ops[] = {"ReduceSum",    "ReduceMean",      "ReduceMax", "ReduceMin",
                                      "ReduceProd",   "ReduceSumSquare", "ReduceL1",  "ReduceL2",
                                      "ReduceLogSum", "ReduceLogSumExp"};

static double red_ref(int op, const float *x, const size_t *offs, size_t n) {
  double acc = op == 4 ? 1 : op == 2 ? -INFINITY : op == 3 ? INFINITY : 0, m = -INFINITY;
  if (op == 9)
    for (size_t i = 0; i < n; i++)
      m = fmax(m, x[offs[i]]);
  for (size_t i = 0; i < n; i++) {
    double v = x[offs[i]];
    switch (op) {
    case 0:
    case 1:
    case 8: acc += v; break;
    case 2: acc = fmax(acc, v); break;
    case 3: acc = fmin(acc, v); break;
    case 4: acc *= v; break;
    case 5:
    case 7: acc += v * v; break;
    case 6: acc += fabs(v); break;
    default: acc += exp(v - m); break;
    }
  }
  if (op == 1) acc /= (double)n;
  if (op == 7) acc = sqrt(acc);
  if (op == 8) acc = log(acc);
  if (op == 9) acc = m + log(acc);
  return acc;
}

static void red_check(int op, uint32_t r, const int64_t *shape, uint32_t mask, bool keep, bool pass_axes,
                      uint64_t seed) {
  size_t n = kt_numel(r, shape);
  float *x = malloc(n * 4 + 4);
  kt_fill(x, n, &seed, op == 8 ? 0.1f : -2.0f, 2.0f);
  if (op == 4) kt_fill(x, n, &seed, 0.7f, 1.3f);
  int64_t axes[8];
  uint32_t na = 0;
  for (uint32_t i = 0; i < r; i++)
    if (mask & (1u << i)) {
      axes[na] = (na & 1) ? (int64_t)i - r : i; /* some negative */
      na++;
    }
  kt_call k;
  kt_init(&k, red_ops[op]);
  kt_input(&k, 0, HOLO_DT_F32, r, shape, x);
  int64_t sa[1] = {na};
  if (pass_axes) kt_input(&k, 1, HOLO_DT_I64, 1, sa, axes);
  kt_attr_int(&k, "keepdims", keep);
  kt_attr_int(&k, "noop_with_empty_axes", 0);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  /* reference: walk all output coordinates */
  int64_t xs[8], os[8];
  uint32_t orank = 0;
  for (uint32_t i = 0; i < r; i++) {
    if (!(mask & (1u << i)))
      os[orank++] = shape[i];
    else if (keep)
      os[orank++] = 1;
  }
  assert_int_equal(k.out[0].rank, orank);
  for (uint32_t i = 0; i < orank; i++)
    assert_int_equal(k.out[0].shape[i], os[i]);
  int64_t st = 1;
  for (int i = (int)r - 1; i >= 0; i--)
    xs[i] = st, st *= shape[i];
  size_t nout = kt_numel(orank, os), nred = 1;
  for (uint32_t i = 0; i < r; i++)
    if (mask & (1u << i)) nred *= (size_t)shape[i];
  double *ref = malloc(nout * 8 + 8);
  size_t *offs = malloc(nred * sizeof(size_t) + 8);
  for (size_t o = 0; o < nout; o++) {
    /* kept coordinates from o */
    int64_t kc[8] = {0};
    size_t rem = o;
    for (int i = (int)r - 1; i >= 0; i--)
      if (!(mask & (1u << i))) {
        kc[i] = (int64_t)(rem % (size_t)shape[i]);
        rem /= (size_t)shape[i];
      }
    for (size_t j = 0; j < nred; j++) {
      size_t rj = j, off = 0;
      int64_t c[8];
      for (int i = (int)r - 1; i >= 0; i--) {
        if (mask & (1u << i)) {
          c[i] = (int64_t)(rj % (size_t)shape[i]);
          rj /= (size_t)shape[i];
        } else
          c[i] = kc[i];
      }
      for (uint32_t i = 0; i < r; i++)
        off += (size_t)(c[i] * xs[i]);
      offs[j] = off;
    }
    ref[o] = red_ref(op, x, offs, nred);
  }
  kt_close(k.out[0].data, ref, nout, 2e-6, 1e-6);
  kt_free(&k);
  free(x);
  free(ref);
  free(offs);
}

static void test_reduce(void **st) {
  (void)st;
  uint64_t seed = 3;
  int64_t s3[3] = {3, 17, 5}, s1[1] = {67}, s4[4] = {2, 3, 1, 7};
  for (int op = 0; op < 10; op++) {
    for (uint32_t mask = 1; mask < 8; mask++) {
      red_check(op, 3, s3, mask, true, true, seed++);
      red_check(op, 3, s3, mask, false, true, seed++);
    }
    red_check(op, 3, s3, 7, true, false, seed++); /* axes absent: all */
    red_check(op, 1, s1, 1, false, true, seed++);
    red_check(op, 4, s4, 10, true, true, seed++);
  }
  /* noop_with_empty_axes=1: every element reduces {x} */
  float x[4] = {1, -2, 3, -4};
  int64_t s[1] = {4}, z[1] = {0};
  kt_call k;
  kt_init(&k, "ReduceSumSquare");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, z, NULL);
  kt_attr_int(&k, "noop_with_empty_axes", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float want[4] = {1, 4, 9, 16};
  assert_memory_equal(k.out[0].data, want, 16);
  kt_free(&k);
  /* empty set: Sum 0, Max -inf, Mean NaN */
  int64_t e[2] = {3, 0}, ax[1] = {1}, s1a[1] = {1};
  const char *ops[3] = {"ReduceSum", "ReduceMax", "ReduceMean"};
  for (int i = 0; i < 3; i++) {
    kt_init(&k, ops[i]);
    kt_input(&k, 0, HOLO_DT_F32, 2, e, NULL);
    kt_input(&k, 1, HOLO_DT_I64, 1, s1a, ax);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    const float *y = k.out[0].data;
    for (int j = 0; j < 3; j++) {
      if (i == 0) assert_true(y[j] == 0.0f);
      if (i == 1) assert_true(isinf(y[j]) && y[j] < 0);
      if (i == 2) assert_true(isnan(y[j]));
    }
    kt_free(&k);
  }
  /* NaN propagates through Max */
  float xn[3] = {1, NAN, 2};
  int64_t s3b[1] = {3};
  kt_init(&k, "ReduceMax");
  kt_input(&k, 0, HOLO_DT_F32, 1, s3b, xn);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_true(isnan(((float *)k.out[0].data)[0]));
  kt_free(&k);
  /* refusals */
  int64_t bad[2] = {0, 0}, big[1] = {3}, sb2[1] = {2};
  kt_init(&k, "ReduceMean");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, sb2, bad);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ReduceMean"); /* repeated axis */
  kt_init(&k, "ReduceL2");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1a, big);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ReduceL2"); /* out of range */
  kt_init(&k, "ReduceSum");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_input(&k, 1, HOLO_DT_F32, 1, s1a, x);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ReduceSum"); /* axes dtype */
  kt_init(&k, "ReduceMean"); /* integer Prod runs since 529f6da; Mean's rounding is unspecified */
  kt_input(&k, 0, HOLO_DT_I32, 1, s, x);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "ReduceMean");
  kt_init(&k, "ReduceMin");
  kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
  kt_attr_int(&k, "keepdims", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ReduceMin");
}

/* -------------------------------------------------------- ArgMax / ArgMin */

static void test_argminmax(void **st) {
  (void)st;
  uint64_t seed = 9;
  int64_t s[3] = {3, 13, 5};
  float x[195];
  kt_fill(x, 195, &seed, -3, 3);
  for (int i = 0; i < 195; i += 7)
    x[i] = 1.0f; /* ties */
  for (int mx = 0; mx < 2; mx++)
    for (int axis = -3; axis < 3; axis++)
      for (int last = 0; last < 2; last++) {
        kt_call k;
        kt_init(&k, mx ? "ArgMax" : "ArgMin");
        kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
        kt_attr_int(&k, "axis", axis);
        kt_attr_int(&k, "keepdims", last); /* exercise both */
        kt_attr_int(&k, "select_last_index", last);
        assert_int_equal(kt_exec(&k), HOLO_OK);
        assert_int_equal(k.out[0].dtype, HOLO_DT_I64);
        int a = axis < 0 ? axis + 3 : axis;
        assert_int_equal(k.out[0].rank, last ? 3 : 2);
        size_t outer = 1, inner = 1, n = (size_t)s[a];
        for (int i = 0; i < a; i++)
          outer *= (size_t)s[i];
        for (int i = a + 1; i < 3; i++)
          inner *= (size_t)s[i];
        const int64_t *y = k.out[0].data;
        for (size_t o = 0; o < outer; o++)
          for (size_t in = 0; in < inner; in++) {
            size_t best = 0;
            for (size_t i = 1; i < n; i++) {
              float v = x[(o * n + i) * inner + in], b = x[(o * n + best) * inner + in];
              if ((mx ? v > b : v < b) || (last && v == b)) best = i;
            }
            assert_int_equal(y[o * inner + in], (int64_t)best);
          }
        kt_free(&k);
      }
  kt_call k;
  int64_t z[2] = {2, 0};
  kt_init(&k, "ArgMax");
  kt_input(&k, 0, HOLO_DT_F32, 2, z, NULL);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ArgMax"); /* empty axis */
  kt_init(&k, "ArgMin");
  kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
  kt_attr_int(&k, "axis", 3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ArgMin");
}

/* ---------------------------------------------------------------- Unary */

static const char *const un_ops[] = {
    "Neg",       "Abs",       "Exp", "Log",  "Sqrt",        "Reciprocal", "Floor",           "Ceil",
    "Round",     "Sign",      "Erf", "Sin",  "Cos",         "Tan",        "Softplus",        "Softsign",
    "HardSwish", "LeakyRelu", "Elu", "Selu", "HardSigmoid", "Celu",       "ThresholdedRelu", "Gelu"};

static double un_ref(int op, double x) {
  const double sa = 1.67326319217681884765625, sg = 1.05070102214813232421875;
  switch (op) {
  case 0: return -x;
  case 1: return fabs(x);
  case 2: return exp(x);
  case 3: return log(x);
  case 4: return sqrt(x);
  case 5: return 1 / x;
  case 6: return floor(x);
  case 7: return ceil(x);
  case 8: return nearbyint(x);
  case 9: return x > 0 ? 1 : x < 0 ? -1 : 0;
  case 10: return erf(x);
  case 11: return sin(x);
  case 12: return cos(x);
  case 13: return tan(x);
  case 14: return log1p(exp(x));
  case 15: return x / (1 + fabs(x));
  case 16: return x * fmax(0, fmin(1, x / 6 + 0.5));
  case 17: return x < 0 ? (double)0.25f * x : x;
  case 18: return x < 0 ? (double)0.5f * expm1(x) : x;
  case 19: return x > 0 ? sg * x : sg * sa * expm1(x);
  case 20: return fmax(0, fmin(1, (double)0.3f * x + (double)0.4f));
  case 21: return x > 0 ? x : (double)0.5f * expm1(x / (double)0.5f);
  case 22: return x > (double)0.25f ? x : 0;
  default: return 0.5 * x * erfc(-x / sqrt(2.0));
  }
}

static void test_unary(void **st) {
  (void)st;
  uint64_t seed = 21;
  static const int64_t sizes[] = {1, 7, 64, 1001};
  for (int op = 0; op < 24; op++)
    for (int si = 0; si < 4; si++) {
      int64_t s[1] = {sizes[si]};
      size_t n = (size_t)sizes[si];
      float *x = malloc(n * 4);
      bool pos = op == 3 || op == 4;
      kt_fill(x, n, &seed, pos ? 0.01f : -30.0f, pos ? 100.0f : 30.0f);
      if (op == 13) kt_fill(x, n, &seed, -1.4f, 1.4f);
      double *ref = malloc(n * 8);
      for (size_t i = 0; i < n; i++)
        ref[i] = un_ref(op, x[i]);
      kt_call k;
      kt_init(&k, un_ops[op]);
      kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
      if (op == 17 || op == 22) kt_attr_float(&k, "alpha", 0.25f);
      if (op == 18 || op == 21) kt_attr_float(&k, "alpha", 0.5f);
      if (op == 20) {
        kt_attr_float(&k, "alpha", 0.3f);
        kt_attr_float(&k, "beta", 0.4f);
      }
      assert_int_equal(kt_exec(&k), HOLO_OK);
      kt_close(k.out[0].data, ref, n, 2e-6, 1e-30);
      kt_free(&k);
      free(x);
      free(ref);
    }
  /* NaN propagates; Round ties to even; Sign keeps -0 */
  float sp[5] = {NAN, 2.5f, -2.5f, 0.5f, -0.0f};
  int64_t s5[1] = {5};
  for (int op = 0; op < 24; op++) {
    kt_call k;
    kt_init(&k, un_ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s5, sp);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    const float *y = k.out[0].data;
    assert_true(isnan(y[0]));
    if (op == 8) assert_true(y[1] == 2.0f && y[2] == -2.0f && y[3] == 0.0f);
    kt_free(&k);
  }
  kt_call k;
  kt_init(&k, "Exp");
  kt_input(&k, 0, HOLO_DT_F64, 1, s5, sp);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Exp");
  kt_init(&k, "Gelu");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, sp);
  kt_attr_string(&k, "approximate", "fast");
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gelu");
  kt_init(&k, "LeakyRelu");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, sp);
  kt_attr_int(&k, "alpha", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "LeakyRelu");
  kt_init(&k, "Neg");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, sp);
  kt_input(&k, 1, HOLO_DT_F32, 1, s5, sp);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Neg");
}

/* Neg, Abs and Sign of f64 and integers: exact, wrapping at the most
 * negative value as numpy and onnxruntime do; Neg of unsigned is refused. */
static void test_unary_exact(void **st) {
  (void)st;
  int64_t s4[1] = {4};
  int64_t i64[4] = {INT64_MIN, -7, 0, 9};
  int8_t i8[4] = {INT8_MIN, -1, 0, 127};
  uint16_t u16[4] = {0, 1, 65535, 300};
  double f64[4] = {-0.0, NAN, -2.5, 3e300};
  static const char *const ops[3] = {"Neg", "Abs", "Sign"};
  const int64_t want64[3][4] = {{INT64_MIN, 7, 0, -9}, {INT64_MIN, 7, 0, 9}, {-1, -1, 0, 1}};
  const int8_t want8[3][4] = {{INT8_MIN, 1, 0, -127}, {INT8_MIN, 1, 0, 127}, {-1, -1, 0, 1}};
  const uint16_t wantu[2][4] = {{0, 1, 65535, 300}, {0, 1, 1, 1}};
  for (int op = 0; op < 3; op++) {
    kt_call k;
    kt_init(&k, ops[op]);
    kt_input(&k, 0, HOLO_DT_I64, 1, s4, i64);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].dtype, HOLO_DT_I64);
    assert_memory_equal(k.out[0].data, want64[op], sizeof want64[op]);
    kt_free(&k);
    kt_init(&k, ops[op]);
    kt_input(&k, 0, HOLO_DT_I8, 1, s4, i8);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_memory_equal(k.out[0].data, want8[op], sizeof want8[op]);
    kt_free(&k);
    kt_init(&k, ops[op]);
    kt_input(&k, 0, HOLO_DT_U16, 1, s4, u16);
    if (op == 0) {
      kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Neg");
    } else {
      assert_int_equal(kt_exec(&k), HOLO_OK);
      assert_memory_equal(k.out[0].data, wantu[op - 1], sizeof wantu[op - 1]);
      kt_free(&k);
    }
    kt_init(&k, ops[op]);
    kt_input(&k, 0, HOLO_DT_F64, 1, s4, f64);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    const double *y = k.out[0].data;
    assert_true(isnan(y[1]));
    if (op == 0) assert_true(y[0] == 0 && !signbit(y[0]) && y[2] == 2.5 && y[3] == -3e300);
    if (op == 1) assert_true(y[0] == 0 && !signbit(y[0]) && y[2] == 2.5 && y[3] == 3e300);
    if (op == 2) assert_true(y[0] == 0 && signbit(y[0]) && y[2] == -1 && y[3] == 1);
    kt_free(&k);
  }
  kt_call k;
  kt_init(&k, "Abs");
  kt_input(&k, 0, HOLO_DT_F16, 1, s4, u16);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Abs");
}

/* The inverse trigonometric and hyperbolic functions, Mish and Shrink
 * against libm in double, each over its domain and a margin outside it
 * (NaN there), plus the edges: +-1, +-inf, overflow. */
static double more_ref(int op, double x) {
  switch (op) {
  case 0: return asin(x);
  case 1: return acos(x);
  case 2: return atan(x);
  case 3: return sinh(x);
  case 4: return cosh(x);
  case 5: return asinh(x);
  case 6: return acosh(x);
  case 7: return atanh(x);
  case 8: return x * tanh(log1p(exp(x)));
  default: return x < -0.75 ? x + 0.25 : x > 0.75 ? x - 0.25 : 0;
  }
}

static void test_unary_more(void **st) {
  (void)st;
  static const char *const ops[] = {"Asin",  "Acos",  "Atan",  "Sinh", "Cosh",
                                    "Asinh", "Acosh", "Atanh", "Mish", "Shrink"};
  static const float lo[] = {-1.2f, -1.2f, -1e6f, -95, -95, -1e30f, 0.5f, -1.1f, -60, -3};
  static const float hi[] = {1.2f, 1.2f, 1e6f, 95, 95, 1e30f, 1e30f, 1.1f, 60, 3};
  uint64_t seed = 77;
  enum { N = 4003 };
  float *x = malloc(N * 4);
  double *ref = malloc(N * 8);
  for (int op = 0; op < 10; op++) {
    kt_fill(x, N, &seed, lo[op], hi[op]);
    /* dense near 0 and near the domain's edges, where the naive forms cancel */
    for (int i = 0; i < 400; i++)
      x[i] = ldexpf(1.0f, -(i % 60)) * (i & 1 ? -1.0f : 1.0f);
    for (int i = 400; i < 500; i++)
      x[i] = 1.0f - ldexpf(1.0f, -(i % 24) - 1);
    for (int i = 500; i < 600; i++)
      x[i] = 1.0f + ldexpf(1.0f, -(i % 23) - 1);
    x[600] = INFINITY, x[601] = -INFINITY, x[602] = 1, x[603] = -1, x[604] = 0, x[605] = NAN;
    for (size_t i = 0; i < N; i++)
      ref[i] = more_ref(op, x[i]);
    int64_t s[1] = {N};
    kt_call k;
    kt_init(&k, ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 1, s, x);
    if (op == 9) {
      kt_attr_float(&k, "lambd", 0.75f);
      kt_attr_float(&k, "bias", 0.25f);
    }
    assert_int_equal(kt_exec(&k), HOLO_OK);
    const float *y = k.out[0].data;
    for (size_t i = 0; i < N; i++) {
      double r = ref[i];
      if (isnan(r)) {
        if (!isnan(y[i])) fail_msg("%s(%a) = %a, want NaN", ops[op], (double)x[i], (double)y[i]);
      } else if (isinf((float)r) || isinf(y[i])) {
        if ((double)y[i] != (double)(float)r)
          fail_msg("%s(%a) = %a, want %a", ops[op], (double)x[i], (double)y[i], r);
      } else if (fabs(y[i] - r) > 1.2e-7 * fabs(r) + 1e-38) {
        fail_msg("%s(%a) = %a, want %a (rel %g)", ops[op], (double)x[i], (double)y[i], r,
                 fabs(y[i] - r) / fabs(r));
      }
    }
    kt_free(&k);
  }
  free(x);
  free(ref);
}

/* BitShift: broadcast, shifts of the width or more give 0, unsigned only,
 * direction required; IsNaN / IsInf by bits over f16, f32, f64 with the
 * sign flags. */
static void test_bitshift_classify(void **st) {
  (void)st;
  int64_t s4[1] = {4}, s1[1] = {1};
  uint64_t x64[4] = {1, 0xffffffffffffffffull, 3, 0x8000000000000000ull}, k64[4] = {63, 1, 64, 200};
  uint8_t x8[4] = {0x81, 1, 255, 16}, k8[1] = {3};
  const uint64_t l64[4] = {0x8000000000000000ull, 0xfffffffffffffffeull, 0, 0};
  const uint64_t r64[4] = {0, 0x7fffffffffffffffull, 0, 0};
  const uint8_t l8[4] = {0x08, 8, 0xf8, 0x80}, r8[4] = {0x10, 0, 31, 2};
  for (int left = 0; left < 2; left++) {
    kt_call k;
    kt_init(&k, "BitShift");
    kt_input(&k, 0, HOLO_DT_U64, 1, s4, x64);
    kt_input(&k, 1, HOLO_DT_U64, 1, s4, k64);
    kt_attr_string(&k, "direction", left ? "LEFT" : "RIGHT");
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_memory_equal(k.out[0].data, left ? l64 : r64, sizeof l64);
    kt_free(&k);
    kt_init(&k, "BitShift");
    kt_input(&k, 0, HOLO_DT_U8, 1, s4, x8);
    kt_input(&k, 1, HOLO_DT_U8, 1, s1, k8);
    kt_attr_string(&k, "direction", left ? "LEFT" : "RIGHT");
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_memory_equal(k.out[0].data, left ? l8 : r8, sizeof l8);
    kt_free(&k);
  }
  kt_call k;
  kt_init(&k, "BitShift");
  kt_input(&k, 0, HOLO_DT_U8, 1, s4, x8);
  kt_input(&k, 1, HOLO_DT_U8, 1, s1, k8);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "BitShift");
  int32_t i32[4] = {0};
  kt_init(&k, "BitShift");
  kt_input(&k, 0, HOLO_DT_I32, 1, s4, i32);
  kt_input(&k, 1, HOLO_DT_I32, 1, s4, i32);
  kt_attr_string(&k, "direction", "LEFT");
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "BitShift");

  float f[4] = {INFINITY, -INFINITY, NAN, 1e38f};
  double d[4] = {-INFINITY, INFINITY, -NAN, -0.0};
  uint16_t h[4] = {0x7c00, 0xfc00, 0x7e01, 0x7bff}; /* +inf, -inf, NaN, 65504 */
  const uint8_t want[3][4][4] = {
      /* IsNaN, IsInf(both), IsInf(neg only) */
      {{0, 0, 1, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}},
      {{0, 0, 1, 0}, {1, 1, 0, 0}, {1, 0, 0, 0}},
      {{0, 0, 1, 0}, {1, 1, 0, 0}, {0, 1, 0, 0}},
  };
  const void *xs[3] = {f, d, h};
  const uint32_t dts[3] = {HOLO_DT_F32, HOLO_DT_F64, HOLO_DT_F16};
  for (int t = 0; t < 3; t++)
    for (int v = 0; v < 3; v++) {
      kt_init(&k, v ? "IsInf" : "IsNaN");
      kt_input(&k, 0, dts[t], 1, s4, xs[t]);
      if (v == 2) kt_attr_int(&k, "detect_positive", 0);
      assert_int_equal(kt_exec(&k), HOLO_OK);
      assert_int_equal(k.out[0].dtype, HOLO_DT_BOOL);
      assert_memory_equal(k.out[0].data, want[t][v], 4);
      kt_free(&k);
    }
  kt_init(&k, "IsInf");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, f);
  kt_attr_int(&k, "detect_negative", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "IsInf");
  kt_init(&k, "IsNaN");
  kt_input(&k, 0, HOLO_DT_I32, 1, s4, i32);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "IsNaN");
}

/* The window functions against libm, both periodic forms, size 0 and 1,
 * an f64 output; a negative size and a bool output refused. */
static void test_windows(void **st) {
  (void)st;
  static const char *const ops[3] = {"HannWindow", "HammingWindow", "BlackmanWindow"};
  int64_t s0[1] = {1};
  for (int w = 0; w < 3; w++)
    for (int periodic = 0; periodic < 2; periodic++)
      for (int64_t size = 0; size <= 9; size++) {
        kt_call k;
        kt_init(&k, ops[w]);
        kt_input(&k, 0, HOLO_DT_I64, 0, s0, &size);
        kt_attr_int(&k, "periodic", periodic);
        kt_attr_int(&k, "output_datatype", HOLO_DT_F64);
        assert_int_equal(kt_exec(&k), HOLO_OK);
        assert_int_equal(k.out[0].shape[0], size);
        const double *y = k.out[0].data, N = (double)(periodic ? size : size - 1);
        for (int64_t n = 0; n < size; n++) {
          double x = N > 0 ? 2 * 3.14159265358979323846 * (double)n / N : 0;
          double want = w == 0   ? pow(sin(x / 2), 2)
                        : w == 1 ? 25.0 / 46 - 21.0 / 46 * cos(x)
                                 : 0.42 - 0.5 * cos(x) + 0.08 * cos(2 * x);
          assert_true(fabs(y[n] - want) < 1e-15);
        }
        kt_free(&k);
      }
  kt_call k;
  int64_t neg = -1, three = 3;
  kt_init(&k, "HannWindow");
  kt_input(&k, 0, HOLO_DT_I64, 0, s0, &neg);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "HannWindow");
  kt_init(&k, "HannWindow");
  kt_input(&k, 0, HOLO_DT_I64, 0, s0, &three);
  kt_attr_int(&k, "output_datatype", HOLO_DT_BOOL);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "HannWindow");
}

/* ------------------------------------------------ broadcasting elementwise */

static size_t bc_off(const int64_t *idx, uint32_t ry, const int64_t *s, uint32_t r) {
  size_t off = 0;
  for (uint32_t i = 0; i < r; i++)
    off = off * (size_t)s[i] + (size_t)(s[i] == 1 ? 0 : idx[ry - r + i]);
  return off;
}

static void bc_coords(size_t i, uint32_t ry, const int64_t *sy, int64_t *idx) {
  for (int d = (int)ry - 1; d >= 0; d--) {
    idx[d] = (int64_t)(i % (size_t)sy[d]);
    i /= (size_t)sy[d];
  }
}

static void test_max_min_f32(void **st) {
  (void)st;
  uint64_t seed = 31;
  int64_t a[3] = {2, 1, 17}, b[2] = {5, 1}, c[1] = {17}, y[3] = {2, 5, 17};
  float A[34], B[5], C[17];
  kt_fill(A, 34, &seed, -1, 1);
  kt_fill(B, 5, &seed, -1, 1);
  kt_fill(C, 17, &seed, -1, 1);
  for (int mx = 0; mx < 2; mx++) {
    kt_call k;
    kt_init(&k, mx ? "Max" : "Min");
    kt_input(&k, 0, HOLO_DT_F32, 3, a, A);
    kt_input(&k, 1, HOLO_DT_F32, 2, b, B);
    kt_input(&k, 2, HOLO_DT_F32, 1, c, C);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].rank, 3);
    double ref[170];
    for (size_t i = 0; i < 170; i++) {
      int64_t idx[3];
      bc_coords(i, 3, y, idx);
      double va = A[bc_off(idx, 3, a, 3)], vb = B[bc_off(idx, 3, b, 2)], vc = C[bc_off(idx, 3, c, 1)];
      ref[i] = mx ? fmax(va, fmax(vb, vc)) : fmin(va, fmin(vb, vc));
    }
    kt_close(k.out[0].data, ref, 170, 0, 0);
    kt_free(&k);
  }
  /* integers exact, one input copies, NaN propagates */
  int64_t i1[3] = {INT64_MIN, 5, INT64_MAX}, i2[3] = {0, 6, -1}, s3[1] = {3};
  kt_call k;
  kt_init(&k, "Max");
  kt_input(&k, 0, HOLO_DT_I64, 1, s3, i1);
  kt_input(&k, 1, HOLO_DT_I64, 1, s3, i2);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  int64_t wmax[3] = {0, 6, INT64_MAX};
  assert_memory_equal(k.out[0].data, wmax, 24);
  kt_free(&k);
  uint8_t u1[3] = {200, 1, 3};
  kt_init(&k, "Min");
  kt_input(&k, 0, HOLO_DT_U8, 1, s3, u1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, u1, 3);
  kt_free(&k);
  float fn[3] = {NAN, 1, 2}, fm[3] = {0, NAN, 1};
  kt_init(&k, "Min");
  kt_input(&k, 0, HOLO_DT_F32, 1, s3, fn);
  kt_input(&k, 1, HOLO_DT_F32, 1, s3, fm);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float *yf = k.out[0].data;
  assert_true(isnan(yf[0]) && isnan(yf[1]) && yf[2] == 1.0f);
  kt_free(&k);
  /* refusals */
  kt_init(&k, "Max");
  kt_input(&k, 0, HOLO_DT_F32, 1, s3, fn);
  kt_input(&k, 1, HOLO_DT_I64, 1, s3, i1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Max");
  int64_t s4[1] = {4};
  kt_init(&k, "Min");
  kt_input(&k, 0, HOLO_DT_F32, 1, s3, fn);
  kt_input(&k, 1, HOLO_DT_F32, 1, s4, A);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Min");
  kt_init(&k, "Max");
  kt_input(&k, 0, HOLO_DT_BOOL, 1, s3, u1);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Max");
}

static void test_pow_mod(void **st) {
  (void)st;
  uint64_t seed = 41;
  int64_t a[2] = {3, 33}, b[1] = {33};
  float A[99], B[33];
  kt_fill(A, 99, &seed, 0.1f, 3);
  kt_fill(B, 33, &seed, -3, 3);
  for (int i = 0; i < 33; i += 3)
    B[i] = (float)(i % 7) - 3; /* integral exponents */
  kt_call k;
  kt_init(&k, "Pow");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, A);
  kt_input(&k, 1, HOLO_DT_F32, 1, b, B);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  double ref[99];
  for (int i = 0; i < 99; i++)
    ref[i] = pow(A[i], B[i % 33]);
  kt_close(k.out[0].data, ref, 99, 1e-6, 0);
  kt_free(&k);
  /* negative base with integral exponent; i32 ^ i32 exact; i64 ^ f32 */
  float nb[3] = {-2, -2, -8};
  int32_t ne[3] = {3, -2, 0};
  int64_t s3[1] = {3};
  kt_init(&k, "Pow");
  kt_input(&k, 0, HOLO_DT_F32, 1, s3, nb);
  kt_input(&k, 1, HOLO_DT_I32, 1, s3, ne);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float wp[3] = {-8, 0.25f, 1};
  assert_memory_equal(k.out[0].data, wp, 12);
  kt_free(&k);
  int32_t ib[3] = {3, -3, 2}, ie[3] = {13, 3, 31};
  int32_t wi[3] = {1594323, -27, INT32_MIN};
  kt_init(&k, "Pow");
  kt_input(&k, 0, HOLO_DT_I32, 1, s3, ib);
  kt_input(&k, 1, HOLO_DT_I32, 1, s3, ie);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, wi, 12);
  kt_free(&k);
  /* Mod: Python sign for ints, fmod sign with fmod=1 */
  int32_t ma[4] = {7, -7, 7, -7}, mb[4] = {3, 3, -3, -3};
  int32_t w0[4] = {1, 2, -2, -1}, w1[4] = {1, -1, 1, -1};
  int64_t s4[1] = {4};
  for (int fm = 0; fm < 2; fm++) {
    kt_init(&k, "Mod");
    kt_input(&k, 0, HOLO_DT_I32, 1, s4, ma);
    kt_input(&k, 1, HOLO_DT_I32, 1, s4, mb);
    kt_attr_int(&k, "fmod", fm);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_memory_equal(k.out[0].data, fm ? w1 : w0, 16);
    kt_free(&k);
  }
  float fa[4] = {5.5f, -5.5f, 1e30f, 3}, fb[4] = {2, 2, 3, INFINITY};
  kt_init(&k, "Mod");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, fa);
  kt_input(&k, 1, HOLO_DT_F32, 1, s4, fb);
  kt_attr_int(&k, "fmod", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float *y = k.out[0].data;
  for (int i = 0; i < 4; i++)
    assert_true(y[i] == fmodf(fa[i], fb[i]));
  kt_free(&k);
  int32_t zb[4] = {3, 0, 1, 1};
  kt_init(&k, "Mod");
  kt_input(&k, 0, HOLO_DT_I32, 1, s4, ma);
  kt_input(&k, 1, HOLO_DT_I32, 1, s4, zb);
  kt_attr_int(&k, "fmod", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Mod"); /* division by zero */
  kt_init(&k, "Mod");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, fa);
  kt_input(&k, 1, HOLO_DT_F32, 1, s4, fb);
  kt_attr_int(&k, "fmod", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Mod"); /* float needs fmod=1 */
  kt_init(&k, "Pow");
  kt_input(&k, 0, HOLO_DT_U8, 1, s4, ma);
  kt_input(&k, 1, HOLO_DT_F32, 1, s4, fb);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Pow");
}

static void test_compare_logic(void **st) {
  (void)st;
  uint64_t seed = 51;
  int64_t a[2] = {4, 9}, b[1] = {9}, y[2] = {4, 9};
  float A[36], B[9];
  kt_fill(A, 36, &seed, -1, 1);
  kt_fill(B, 9, &seed, -1, 1);
  for (int i = 0; i < 9; i++)
    A[i] = B[i]; /* equal row */
  A[10] = NAN;
  const char *ops[5] = {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"};
  for (int op = 0; op < 5; op++) {
    kt_call k;
    kt_init(&k, ops[op]);
    kt_input(&k, 0, HOLO_DT_F32, 2, a, A);
    kt_input(&k, 1, HOLO_DT_F32, 1, b, B);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].dtype, HOLO_DT_BOOL);
    const uint8_t *o = k.out[0].data;
    for (int i = 0; i < 36; i++) {
      float p = A[i], q = B[i % 9];
      int w = op == 0 ? p == q : op == 1 ? p < q : op == 2 ? p > q : op == 3 ? p <= q : p >= q;
      assert_int_equal(o[i], w);
    }
    (void)y;
    kt_free(&k);
  }
  int64_t i1[2] = {INT64_MAX, INT64_MAX - 1}, i2[2] = {INT64_MAX - 1, INT64_MAX - 1}, s2[1] = {2};
  kt_call k;
  kt_init(&k, "Greater"); /* exact beyond 2^53 */
  kt_input(&k, 0, HOLO_DT_I64, 1, s2, i1);
  kt_input(&k, 1, HOLO_DT_I64, 1, s2, i2);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  uint8_t wg[2] = {1, 0};
  assert_memory_equal(k.out[0].data, wg, 2);
  kt_free(&k);
  uint8_t p[4] = {0, 0, 1, 1}, q[4] = {0, 1, 0, 1};
  int64_t s4[1] = {4};
  const char *lops[3] = {"And", "Or", "Xor"};
  uint8_t want[3][4] = {{0, 0, 0, 1}, {0, 1, 1, 1}, {0, 1, 1, 0}};
  for (int op = 0; op < 3; op++) {
    kt_init(&k, lops[op]);
    kt_input(&k, 0, HOLO_DT_BOOL, 1, s4, p);
    kt_input(&k, 1, HOLO_DT_BOOL, 1, s4, q);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_memory_equal(k.out[0].data, want[op], 4);
    kt_free(&k);
  }
  kt_init(&k, "Not");
  kt_input(&k, 0, HOLO_DT_BOOL, 1, s4, q);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  uint8_t wn[4] = {1, 0, 1, 0};
  assert_memory_equal(k.out[0].data, wn, 4);
  kt_free(&k);
  /* PRelu: slope broadcast onto X */
  float X[6] = {-1, 2, -3, 4, -5, 6}, S[3] = {0.5f, 0.25f, 2};
  int64_t sx[2] = {2, 3}, ss[1] = {3};
  kt_init(&k, "PRelu");
  kt_input(&k, 0, HOLO_DT_F32, 2, sx, X);
  kt_input(&k, 1, HOLO_DT_F32, 1, ss, S);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float wpr[6] = {-0.5f, 2, -6, 4, -1.25f, 6};
  assert_memory_equal(k.out[0].data, wpr, 24);
  kt_free(&k);
  /* refusals */
  kt_init(&k, "And");
  kt_input(&k, 0, HOLO_DT_U8, 1, s4, p);
  kt_input(&k, 1, HOLO_DT_BOOL, 1, s4, q);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "And");
  int64_t sbig[2] = {4, 3};
  float big[12] = {0};
  kt_init(&k, "PRelu");
  kt_input(&k, 0, HOLO_DT_F32, 1, ss, S);
  kt_input(&k, 1, HOLO_DT_F32, 2, sbig, big);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "PRelu"); /* would grow X */
  kt_init(&k, "Less");
  kt_input(&k, 0, HOLO_DT_BOOL, 1, s4, p);
  kt_input(&k, 1, HOLO_DT_BOOL, 1, s4, q);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Less");
  kt_init(&k, "Equal");
  kt_input(&k, 0, HOLO_DT_F32, 2, a, A);
  kt_input(&k, 1, HOLO_DT_F32, 1, s4, B);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Equal");
}

/* ---------------------------------------------- LogSoftmax, LayerNorm */

static void test_logsoftmax(void **st) {
  (void)st;
  uint64_t seed = 61;
  int64_t s[3] = {3, 19, 4};
  float x[228];
  kt_fill(x, 228, &seed, -50, 50);
  for (int axis = -3; axis < 3; axis++) {
    int a = axis < 0 ? axis + 3 : axis;
    kt_call k;
    kt_init(&k, "LogSoftmax");
    kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
    kt_attr_int(&k, "axis", axis);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    size_t outer = 1, inner = 1, n = (size_t)s[a];
    for (int i = 0; i < a; i++)
      outer *= (size_t)s[i];
    for (int i = a + 1; i < 3; i++)
      inner *= (size_t)s[i];
    double ref[228];
    for (size_t o = 0; o < outer; o++)
      for (size_t in = 0; in < inner; in++) {
        double m = -INFINITY, sum = 0;
        for (size_t i = 0; i < n; i++)
          m = fmax(m, x[(o * n + i) * inner + in]);
        for (size_t i = 0; i < n; i++)
          sum += exp(x[(o * n + i) * inner + in] - m);
        for (size_t i = 0; i < n; i++)
          ref[(o * n + i) * inner + in] = x[(o * n + i) * inner + in] - m - log(sum);
      }
    kt_close(k.out[0].data, ref, 228, 1e-6, 1e-6);
    kt_free(&k);
  }
  kt_call k;
  kt_init(&k, "LogSoftmax");
  kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
  kt_attr_int(&k, "axis", 3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "LogSoftmax");
}

static void test_layernorm(void **st) {
  (void)st;
  uint64_t seed = 71;
  int64_t s[3] = {5, 3, 11};
  float x[165], sc[33], bi[33];
  kt_fill(x, 165, &seed, -4, 7);
  kt_fill(sc, 33, &seed, 0.5f, 2);
  kt_fill(bi, 33, &seed, -1, 1);
  for (int axis = 1; axis < 3; axis++) {
    for (int with_b = 0; with_b < 2; with_b++) {
      kt_call k;
      kt_init(&k, "LayerNormalization");
      kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
      kt_input(&k, 1, HOLO_DT_F32, (uint32_t)(3 - axis), s + axis, sc);
      if (with_b) kt_input(&k, 2, HOLO_DT_F32, (uint32_t)(3 - axis), s + axis, bi);
      kt_attr_int(&k, "axis", axis - 3);
      kt_attr_float(&k, "epsilon", 1e-3f);
      k.call.n_outputs = 2;
      assert_int_equal(kt_exec(&k), HOLO_OK);
      size_t n = axis == 1 ? 33 : 11, rows = 165 / n;
      double ref[165], mref[15];
      for (size_t r = 0; r < rows; r++) {
        double m = 0, v = 0;
        for (size_t i = 0; i < n; i++)
          m += x[r * n + i];
        m /= (double)n;
        for (size_t i = 0; i < n; i++)
          v += (x[r * n + i] - m) * (x[r * n + i] - m);
        v /= (double)n;
        mref[r] = m;
        for (size_t i = 0; i < n; i++)
          ref[r * n + i] = (x[r * n + i] - m) / sqrt(v + (double)1e-3f) * sc[i] + (with_b ? bi[i] : 0);
      }
      kt_close(k.out[0].data, ref, 165, 1e-6, 1e-6);
      kt_close(k.out[1].data, mref, rows, 1e-6, 1e-6);
      assert_int_equal(k.out[1].rank, 3);
      assert_int_equal(k.out[1].shape[axis], 1);
      kt_free(&k);
    }
  }
  kt_call k;
  int64_t bad[1] = {4};
  kt_init(&k, "LayerNormalization");
  kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_F32, 1, bad, sc);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "LayerNormalization");
  kt_init(&k, "LayerNormalization");
  kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_F32, 1, s + 2, sc);
  kt_attr_int(&k, "axis", 3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "LayerNormalization");
  kt_init(&k, "LayerNormalization");
  kt_input(&k, 0, HOLO_DT_F32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_F32, 1, s + 2, sc);
  kt_attr_int(&k, "stash_type", 0);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "LayerNormalization");
}

/* BitwiseAnd/Or/Xor/Not: every integer dtype, [2,3] against a broadcast [3]
 * and [2,1], checked byte by byte against a reference (the bits of a
 * bitwise op do not depend on the lane width); refusals of mixed dtypes,
 * bool and float operands. */
static void test_bitwise(void **st) {
  (void)st;
  static const uint32_t dts[] = {HOLO_DT_I8,  HOLO_DT_U8,  HOLO_DT_I16, HOLO_DT_U16,
                                 HOLO_DT_I32, HOLO_DT_U32, HOLO_DT_I64, HOLO_DT_U64};
  static const char *const ops[] = {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"};
  const int64_t sa[2] = {2, 3}, sb[2][2] = {{3, 0}, {2, 1}};
  const uint32_t rb[2] = {1, 2};
  uint8_t a[6 * 8], b[6 * 8], want[6 * 8];
  uint32_t seed = 12345;
  for (size_t i = 0; i < sizeof a; i++) {
    a[i] = (uint8_t)((seed = seed * 1664525u + 1013904223u) >> 24);
    b[i] = (uint8_t)((seed = seed * 1664525u + 1013904223u) >> 24);
  }
  for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
    const size_t es = d < 2 ? 1 : d < 4 ? 2 : d < 6 ? 4 : 8;
    for (int op = 0; op < 4; op++)
      for (int form = 0; form < 2; form++) {
        for (size_t e = 0; e < 6; e++) {
          /* element e = (r, c) of [2,3]; b's element: c for [3], r for [2,1] */
          const size_t be = form == 0 ? e % 3 : e / 3;
          for (size_t j = 0; j < es; j++) {
            const uint8_t x = a[e * es + j], y = b[be * es + j];
            want[e * es + j] = (uint8_t)(op == 0 ? x & y : op == 1 ? x | y : op == 2 ? x ^ y : ~x);
          }
        }
        kt_call k;
        kt_init(&k, ops[op]);
        kt_input(&k, 0, dts[d], 2, sa, a);
        if (op < 3) kt_input(&k, 1, dts[d], rb[form], sb[form], b);
        assert_int_equal(kt_exec(&k), HOLO_OK);
        assert_int_equal(k.out[0].dtype, dts[d]);
        assert_int_equal(k.out[0].rank, 2);
        assert_memory_equal(k.out[0].data, want, 6 * es);
        kt_free(&k);
      }
  }
  const int64_t s3[1] = {3};
  kt_call k;
  kt_init(&k, "BitwiseAnd");
  kt_input(&k, 0, HOLO_DT_I32, 1, s3, a);
  kt_input(&k, 1, HOLO_DT_U32, 1, s3, b);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "BitwiseAnd");
  kt_init(&k, "BitwiseOr");
  kt_input(&k, 0, HOLO_DT_BOOL, 1, s3, a);
  kt_input(&k, 1, HOLO_DT_BOOL, 1, s3, b);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "BitwiseOr");
  kt_init(&k, "BitwiseNot");
  kt_input(&k, 0, HOLO_DT_F32, 1, s3, a);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "BitwiseNot");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cast),          cmocka_unit_test(test_cast_bf16),
      cmocka_unit_test(test_reduce),        cmocka_unit_test(test_argminmax),
      cmocka_unit_test(test_unary),         cmocka_unit_test(test_unary_exact),
      cmocka_unit_test(test_unary_more),    cmocka_unit_test(test_bitshift_classify),
      cmocka_unit_test(test_bitwise),       cmocka_unit_test(test_windows),
      cmocka_unit_test(test_max_min_f32),   cmocka_unit_test(test_pow_mod),
      cmocka_unit_test(test_compare_logic), cmocka_unit_test(test_logsoftmax),
      cmocka_unit_test(test_layernorm),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
