/* Kernels (kernels-wasm-simd/registry-table.h), data movement: Slice, Pad, Gather,
 * Expand, Where, Clip, Squeeze, Unsqueeze. References computed directly. */
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

static void iota_i32(int32_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (int32_t)i;
}

/* ---------------------------------------------------------------- Slice */

/* numpy-style reference for one axis: fills idx with the selected indices */
static int64_t ref_slice_axis(int64_t d, int64_t b, int64_t e, int64_t s, int64_t *idx) {
  if (b < 0) b += d;
  if (e < 0) e += d;
  int64_t n = 0;
  if (s > 0) {
    b = b < 0 ? 0 : b > d ? d : b;
    e = e < 0 ? 0 : e > d ? d : e;
    for (int64_t i = b; i < e; i += s)
      idx[n++] = i;
  } else {
    b = b < 0 ? 0 : b > d - 1 ? d - 1 : b;
    e = e < -1 ? -1 : e > d - 1 ? d - 1 : e;
    for (int64_t i = b; i > e; i += s)
      idx[n++] = i;
  }
  return n;
}

static void test_slice(void **st) {
  (void)st;
  int64_t s[3] = {5, 7, 9};
  int32_t x[315];
  iota_i32(x, 315);
  uint64_t seed = 5;
  for (int it = 0; it < 300; it++) {
    int64_t starts[3], ends[3], axes[3], steps[3];
    uint32_t na = 1 + (uint32_t)(kt_rand(&seed) % 3);
    uint32_t perm[3] = {0, 1, 2};
    for (int i = 2; i > 0; i--) {
      uint32_t j = (uint32_t)(kt_rand(&seed) % (uint64_t)(i + 1)), t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (uint32_t i = 0; i < na; i++) {
      int64_t d = s[perm[i]];
      axes[i] = (kt_rand(&seed) & 1) ? (int64_t)perm[i] - 3 : perm[i];
      starts[i] = (int64_t)(kt_rand(&seed) % (uint64_t)(2 * d + 5)) - d - 2;
      ends[i] = (int64_t)(kt_rand(&seed) % (uint64_t)(2 * d + 5)) - d - 2;
      steps[i] = (int64_t)(kt_rand(&seed) % 7) - 3;
      if (steps[i] == 0) steps[i] = 1;
      if (kt_rand(&seed) % 8 == 0) ends[i] = (steps[i] > 0) ? INT64_MAX : INT64_MIN;
    }
    kt_call k;
    int64_t sn[1] = {na};
    kt_init(&k, "Slice");
    kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
    kt_input(&k, 1, HOLO_DT_I64, 1, sn, starts);
    kt_input(&k, 2, HOLO_DT_I64, 1, sn, ends);
    kt_input(&k, 3, HOLO_DT_I64, 1, sn, axes);
    kt_input(&k, 4, HOLO_DT_I64, 1, sn, steps);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    int64_t sel[3][32], cnt[3];
    for (uint32_t a = 0; a < 3; a++) {
      cnt[a] = s[a];
      for (int64_t i = 0; i < s[a]; i++)
        sel[a][i] = i;
    }
    for (uint32_t i = 0; i < na; i++)
      cnt[perm[i]] = ref_slice_axis(s[perm[i]], starts[i], ends[i], steps[i], sel[perm[i]]);
    for (uint32_t a = 0; a < 3; a++)
      assert_int_equal(k.out[0].shape[a], cnt[a]);
    const int32_t *y = k.out[0].data;
    size_t o = 0;
    for (int64_t i = 0; i < cnt[0]; i++)
      for (int64_t j = 0; j < cnt[1]; j++)
        for (int64_t l = 0; l < cnt[2]; l++)
          assert_int_equal(y[o++], x[(sel[0][i] * 7 + sel[1][j]) * 9 + sel[2][l]]);
    kt_free(&k);
  }
  /* refusals: step 0, repeated axis, length mismatch, float starts */
  int64_t one[1] = {1}, two[1] = {2}, v0[1] = {0}, v1[1] = {1}, rep[2] = {0, 0}, se[2] = {0, 1};
  kt_call k;
  kt_init(&k, "Slice");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, one, v0);
  kt_input(&k, 2, HOLO_DT_I64, 1, one, v1);
  kt_input(&k, 3, HOLO_DT_I64, 1, one, v0);
  kt_input(&k, 4, HOLO_DT_I64, 1, one, v0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Slice");
  kt_init(&k, "Slice");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, se);
  kt_input(&k, 2, HOLO_DT_I64, 1, two, se);
  kt_input(&k, 3, HOLO_DT_I64, 1, two, rep);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Slice");
  kt_init(&k, "Slice");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, se);
  kt_input(&k, 2, HOLO_DT_I64, 1, one, v1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Slice");
  float fs[1] = {0};
  kt_init(&k, "Slice");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_F32, 1, one, fs);
  kt_input(&k, 2, HOLO_DT_I64, 1, one, v1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Slice");
  /* a scalar with no axes to slice (empty starts and ends) is itself: run
   * read the last axis's step of a rank-0 input before (index UINT32_MAX) */
  int32_t x0 = 42;
  int64_t zero[1] = {0}, none[1] = {0};
  kt_init(&k, "Slice");
  kt_input(&k, 0, HOLO_DT_I32, 0, NULL, &x0);
  kt_input(&k, 1, HOLO_DT_I64, 1, zero, none);
  kt_input(&k, 2, HOLO_DT_I64, 1, zero, none);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 0);
  assert_int_equal(((const int32_t *)k.out[0].data)[0], 42);
  kt_free(&k);
}

/* ------------------------------------------------------------------ Pad */

static int64_t ref_pad_src(int mode, int64_t i, int64_t d) {
  if (i >= 0 && i < d) return i;
  if (mode == 0) return -1;
  if (mode == 2) return i < 0 ? 0 : d - 1;
  if (mode == 3) return ((i % d) + d) % d;
  while (i < 0 || i >= d)
    i = i < 0 ? -i : 2 * (d - 1) - i; /* reflect, numpy */
  return i;
}

static void test_pad(void **st) {
  (void)st;
  static const char *const modes[4] = {"constant", "reflect", "edge", "wrap"};
  int64_t s[2] = {4, 5};
  float x[20];
  for (int i = 0; i < 20; i++)
    x[i] = (float)i + 0.5f;
  float cv[1] = {-7};
  int64_t one[1] = {1};
  uint64_t seed = 7;
  for (int mode = 0; mode < 4; mode++)
    for (int it = 0; it < 40; it++) {
      int64_t pads[4];
      for (int i = 0; i < 4; i++)
        pads[i] = (int64_t)(kt_rand(&seed) % 9) - (mode == 0 ? 3 : 0);
      if (mode == 0 && (s[0] + pads[0] + pads[2] < 0 || s[1] + pads[1] + pads[3] < 0)) continue;
      int64_t sp[1] = {4};
      kt_call k;
      kt_init(&k, "Pad");
      kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
      kt_input(&k, 1, HOLO_DT_I64, 1, sp, pads);
      if (mode == 0) kt_input(&k, 2, HOLO_DT_F32, 0, one, cv);
      kt_attr_string(&k, "mode", modes[mode]);
      assert_int_equal(kt_exec(&k), HOLO_OK);
      int64_t o0 = 4 + pads[0] + pads[2], o1 = 5 + pads[1] + pads[3];
      assert_int_equal(k.out[0].shape[0], o0);
      assert_int_equal(k.out[0].shape[1], o1);
      const float *y = k.out[0].data;
      for (int64_t i = 0; i < o0; i++)
        for (int64_t j = 0; j < o1; j++) {
          int64_t a = ref_pad_src(mode, i - pads[0], 4), b = ref_pad_src(mode, j - pads[1], 5);
          float want = (a < 0 || b < 0) ? -7.0f : x[a * 5 + b];
          assert_true(y[i * o1 + j] == want);
        }
      kt_free(&k);
    }
  /* axes input (opset 18): pad only axis -1 */
  int64_t pads2[2] = {1, 2}, ax[1] = {-1}, s2[1] = {2};
  kt_call k;
  kt_init(&k, "Pad");
  kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s2, pads2);
  kt_absent(&k, 2);
  kt_input(&k, 3, HOLO_DT_I64, 1, one, ax);
  kt_attr_string(&k, "mode", "edge");
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 4);
  assert_int_equal(k.out[0].shape[1], 8);
  assert_true(((float *)k.out[0].data)[0] == x[0] && ((float *)k.out[0].data)[7] == x[4]);
  kt_free(&k);
  /* refusals */
  int64_t p3[3] = {1, 1, 1}, s3[1] = {3}, crop[4] = {-5, 0, 0, 0}, s4[1] = {4};
  kt_init(&k, "Pad");
  kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s3, p3);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Pad");
  kt_init(&k, "Pad");
  kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s4, crop);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Pad");
  kt_init(&k, "Pad");
  kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s4, pads2);
  kt_attr_string(&k, "mode", "mirror");
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Pad");
  int64_t zs[2] = {0, 5}, pz[4] = {1, 0, 0, 0};
  kt_init(&k, "Pad");
  kt_input(&k, 0, HOLO_DT_F32, 2, zs, NULL);
  kt_input(&k, 1, HOLO_DT_I64, 1, s4, pz);
  kt_attr_string(&k, "mode", "reflect");
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Pad");
  int32_t iv[1] = {3};
  kt_init(&k, "Pad");
  kt_input(&k, 0, HOLO_DT_F32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s4, pz);
  kt_input(&k, 2, HOLO_DT_I32, 0, one, iv);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Pad");
}

/* --------------------------------------------------------------- Gather */

static void test_gather(void **st) {
  (void)st;
  int64_t s[3] = {4, 6, 3};
  int32_t x[72];
  iota_i32(x, 72);
  uint64_t seed = 13;
  for (int axis = -3; axis < 3; axis++)
    for (int i64 = 0; i64 < 2; i64++) {
      int a = axis < 0 ? axis + 3 : axis;
      int64_t d = s[a], is[2] = {2, 5};
      int64_t ind64[10];
      int32_t ind32[10];
      for (int i = 0; i < 10; i++) {
        ind64[i] = (int64_t)(kt_rand(&seed) % (uint64_t)(2 * d)) - d;
        ind32[i] = (int32_t)ind64[i];
      }
      kt_call k;
      kt_init(&k, "Gather");
      kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
      kt_input(&k, 1, i64 ? HOLO_DT_I64 : HOLO_DT_I32, 2, is, i64 ? (void *)ind64 : (void *)ind32);
      kt_attr_int(&k, "axis", axis);
      assert_int_equal(kt_exec(&k), HOLO_OK);
      assert_int_equal(k.out[0].rank, 4);
      size_t outer = 1, inner = 1;
      for (int i = 0; i < a; i++)
        outer *= (size_t)s[i];
      for (int i = a + 1; i < 3; i++)
        inner *= (size_t)s[i];
      const int32_t *y = k.out[0].data;
      for (size_t o = 0; o < outer; o++)
        for (size_t j = 0; j < 10; j++)
          for (size_t in = 0; in < inner; in++) {
            int64_t v = ind64[j] < 0 ? ind64[j] + d : ind64[j];
            assert_int_equal(y[(o * 10 + j) * inner + in], x[(o * (size_t)d + (size_t)v) * inner + in]);
          }
      kt_free(&k);
    }
  /* scalar index drops the axis */
  int64_t sc[1] = {-1}, one[1] = {1};
  kt_call k;
  kt_init(&k, "Gather");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 0, one, sc);
  kt_attr_int(&k, "axis", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 2);
  assert_int_equal(((int32_t *)k.out[0].data)[0], 15);
  kt_free(&k);
  /* out-of-range indices are refused */
  int64_t bad[2] = {0, 4}, bneg[1] = {-5}, s2[1] = {2};
  kt_init(&k, "Gather");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s2, bad);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gather");
  kt_init(&k, "Gather");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, one, bneg);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gather");
  kt_init(&k, "Gather");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_F32, 1, one, x);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gather");
  kt_init(&k, "Gather");
  kt_input(&k, 0, HOLO_DT_I32, 3, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, one, sc);
  kt_attr_int(&k, "axis", -4);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Gather");
}

/* ----------------------------------------------- Expand, Where, Clip */

static void test_expand_where_clip(void **st) {
  (void)st;
  int64_t sx[2] = {3, 1}, shp[3] = {2, 1, 6}, s3[1] = {3};
  int16_t x[3] = {1, -2, 3};
  kt_call k;
  kt_init(&k, "Expand");
  kt_input(&k, 0, HOLO_DT_I16, 2, sx, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s3, shp);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 3);
  assert_int_equal(k.out[0].shape[1], 3);
  const int16_t *y = k.out[0].data;
  for (int i = 0; i < 36; i++)
    assert_int_equal(y[i], x[(i / 6) % 3]);
  kt_free(&k);
  int64_t badshape[3] = {2, 4, 6};
  kt_init(&k, "Expand");
  kt_input(&k, 0, HOLO_DT_I16, 2, sx, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s3, badshape);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Expand");
  int64_t negshape[1] = {-1}, one[1] = {1};
  kt_init(&k, "Expand");
  kt_input(&k, 0, HOLO_DT_I16, 2, sx, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, one, negshape);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Expand");

  /* Where: condition [2,1,4], X [3,1], Y scalar -> [2,3,4] */
  uint8_t cnd[8] = {1, 0, 1, 1, 0, 0, 1, 0};
  double X[3] = {1.5, 2.5, 3.5}, Y[1] = {-9};
  int64_t sc[3] = {2, 1, 4}, sX[2] = {3, 1};
  kt_init(&k, "Where");
  kt_input(&k, 0, HOLO_DT_BOOL, 3, sc, cnd);
  kt_input(&k, 1, HOLO_DT_F64, 2, sX, X);
  kt_input(&k, 2, HOLO_DT_F64, 0, one, Y);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, HOLO_DT_F64);
  const double *yd = k.out[0].data;
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 4; j++)
        assert_true(yd[(b * 3 + i) * 4 + j] == (cnd[b * 4 + j] ? X[i] : Y[0]));
  kt_free(&k);
  kt_init(&k, "Where");
  kt_input(&k, 0, HOLO_DT_U8, 3, sc, cnd);
  kt_input(&k, 1, HOLO_DT_F64, 2, sX, X);
  kt_input(&k, 2, HOLO_DT_F64, 0, one, Y);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Where");
  kt_init(&k, "Where");
  kt_input(&k, 0, HOLO_DT_BOOL, 3, sc, cnd);
  kt_input(&k, 1, HOLO_DT_F64, 2, sX, X);
  kt_input(&k, 2, HOLO_DT_F32, 0, one, Y);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Where");

  /* Clip: f32 with both bounds, i8 with only max, min > max gives max */
  float cx[5] = {-3, -0.5f, 0.5f, 3, NAN}, lo[1] = {-1}, hi[1] = {1};
  int64_t s5[1] = {5};
  kt_init(&k, "Clip");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, cx);
  kt_input(&k, 1, HOLO_DT_F32, 0, one, lo);
  kt_input(&k, 2, HOLO_DT_F32, 0, one, hi);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float *yc = k.out[0].data;
  assert_true(yc[0] == -1 && yc[1] == -0.5f && yc[2] == 0.5f && yc[3] == 1 && isnan(yc[4]));
  kt_free(&k);
  kt_init(&k, "Clip");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, cx);
  kt_input(&k, 1, HOLO_DT_F32, 0, one, hi);
  kt_input(&k, 2, HOLO_DT_F32, 0, one, lo);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  yc = k.out[0].data;
  for (int i = 0; i < 4; i++)
    assert_true(yc[i] == -1);
  kt_free(&k);
  int8_t ix[4] = {-128, 0, 5, 127}, imax[1] = {4}, want[4] = {-128, 0, 4, 4};
  int64_t s4[1] = {4};
  kt_init(&k, "Clip");
  kt_input(&k, 0, HOLO_DT_I8, 1, s4, ix);
  kt_absent(&k, 1);
  kt_input(&k, 2, HOLO_DT_I8, 0, one, imax);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_memory_equal(k.out[0].data, want, 4);
  kt_free(&k);
  kt_init(&k, "Clip");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, cx);
  kt_input(&k, 1, HOLO_DT_F32, 1, s5, cx);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Clip"); /* min not a scalar */
  kt_init(&k, "Clip");
  kt_input(&k, 0, HOLO_DT_F32, 1, s5, cx);
  kt_input(&k, 1, HOLO_DT_I8, 0, one, imax);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "Clip");
}

/* --------------------------------------------------- Squeeze, Unsqueeze */

static void test_squeeze(void **st) {
  (void)st;
  int64_t s[4] = {1, 3, 1, 2}, ax[2] = {0, -2}, two[1] = {2};
  float x[6] = {0};
  kt_call k;
  kt_init(&k, "Squeeze");
  kt_input(&k, 0, HOLO_DT_F32, 4, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, ax);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.call.alias_input, 0);
  assert_int_equal(k.out[0].rank, 2);
  assert_int_equal(k.out[0].shape[0], 3);
  assert_int_equal(k.out[0].shape[1], 2);
  kt_init(&k, "Squeeze");
  kt_input(&k, 0, HOLO_DT_F32, 4, s, x);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 2);
  int64_t a1[1] = {1}, one[1] = {1};
  kt_init(&k, "Squeeze");
  kt_input(&k, 0, HOLO_DT_F32, 4, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, one, a1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Squeeze"); /* dim 3 */
  int64_t ua[2] = {-1, 0}, s2[2] = {3, 2};
  kt_init(&k, "Unsqueeze");
  kt_input(&k, 0, HOLO_DT_F32, 2, s2, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, ua);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 4);
  int64_t want[4] = {1, 3, 2, 1};
  for (int i = 0; i < 4; i++)
    assert_int_equal(k.out[0].shape[i], want[i]);
  int64_t dup[2] = {0, -4};
  kt_init(&k, "Unsqueeze");
  kt_input(&k, 0, HOLO_DT_F32, 2, s2, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, dup);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Unsqueeze");
  kt_init(&k, "Unsqueeze");
  kt_input(&k, 0, HOLO_DT_F32, 2, s2, x);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Unsqueeze");
}

/* ------------------- GatherElements, Trilu, Split, Range, CumSum, Hardmax, Tile */

static void test_more_layout(void **st) {
  (void)st;
  kt_call k;
  /* GatherElements along each axis of [3,4] with a smaller index tensor */
  int64_t s[2] = {3, 4}, is[2] = {2, 3};
  int32_t x[12];
  iota_i32(x, 12);
  int64_t ind[6] = {0, -1, 2, 1, 0, -3};
  for (int axis = 0; axis < 2; axis++) {
    kt_init(&k, "GatherElements");
    kt_input(&k, 0, HOLO_DT_I32, 2, s, x);
    kt_input(&k, 1, HOLO_DT_I64, 2, is, ind);
    kt_attr_int(&k, "axis", axis);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    const int32_t *y = k.out[0].data;
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++) {
        int64_t v = ind[i * 3 + j];
        if (v < 0) v += s[axis];
        assert_int_equal(y[i * 3 + j], axis == 0 ? x[v * 4 + j] : x[i * 4 + v]);
      }
    kt_free(&k);
  }
  int64_t bad[6] = {0, 0, 0, 0, 4, 0};
  kt_init(&k, "GatherElements");
  kt_input(&k, 0, HOLO_DT_I32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, is, bad);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "GatherElements");
  int64_t big[2] = {4, 3};
  kt_init(&k, "GatherElements");
  kt_input(&k, 0, HOLO_DT_I32, 2, s, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, big, bad);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "GatherElements");

  /* Trilu over a batch of [3,4] with k in -4..4 */
  int64_t ts[3] = {2, 3, 4}, one[1] = {1};
  float tx[24];
  for (int i = 0; i < 24; i++)
    tx[i] = (float)i + 1;
  for (int up = 0; up < 2; up++)
    for (int64_t kk = -4; kk <= 4; kk++) {
      kt_init(&k, "Trilu");
      kt_input(&k, 0, HOLO_DT_F32, 3, ts, tx);
      kt_input(&k, 1, HOLO_DT_I64, 0, one, &kk);
      kt_attr_int(&k, "upper", up);
      assert_int_equal(kt_exec(&k), HOLO_OK);
      const float *y = k.out[0].data;
      for (int b = 0; b < 2; b++)
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 4; j++) {
            int p = (b * 3 + i) * 4 + j;
            bool keep = up ? j - i >= kk : j - i <= kk;
            assert_true(y[p] == (keep ? tx[p] : 0.0f));
          }
      kt_free(&k);
    }
  kt_init(&k, "Trilu");
  kt_input(&k, 0, HOLO_DT_F32, 1, one, tx);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Trilu");

  /* Split [5,7] along axis 1: sizes {3,4}, then num_outputs 2 -> {4,3} */
  int64_t ss[2] = {5, 7}, sizes[2] = {3, 4}, two[1] = {2};
  int32_t sx[35];
  iota_i32(sx, 35);
  for (int mode = 0; mode < 2; mode++) {
    kt_init(&k, "Split");
    k.call.n_outputs = 2;
    kt_input(&k, 0, HOLO_DT_I32, 2, ss, sx);
    if (mode == 0)
      kt_input(&k, 1, HOLO_DT_I64, 1, two, sizes);
    else
      kt_attr_int(&k, "num_outputs", 2);
    kt_attr_int(&k, "axis", -1);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    int64_t w0 = mode == 0 ? 3 : 4;
    assert_int_equal(k.out[0].shape[1], w0);
    assert_int_equal(k.out[1].shape[1], 7 - w0);
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 7; j++) {
        const int32_t *y = j < w0 ? k.out[0].data : k.out[1].data;
        int64_t wd = j < w0 ? w0 : 7 - w0, jj = j < w0 ? j : j - w0;
        assert_int_equal(y[i * wd + jj], sx[i * 7 + j]);
      }
    kt_free(&k);
  }
  int64_t badsizes[2] = {3, 3};
  kt_init(&k, "Split");
  k.call.n_outputs = 2;
  kt_input(&k, 0, HOLO_DT_I32, 2, ss, sx);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, badsizes);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Split");

  /* Range: f32 and i32 with a negative delta; delta 0 refused */
  float fr[3] = {1, 5.5f, 1.5f};
  kt_init(&k, "Range");
  kt_input(&k, 0, HOLO_DT_F32, 0, one, &fr[0]);
  kt_input(&k, 1, HOLO_DT_F32, 0, one, &fr[1]);
  kt_input(&k, 2, HOLO_DT_F32, 0, one, &fr[2]);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float wf[3] = {1, 2.5f, 4};
  assert_int_equal(k.out[0].shape[0], 3);
  assert_memory_equal(k.out[0].data, wf, 12);
  kt_free(&k);
  int32_t ir[3] = {10, 4, -3}, wi[2] = {10, 7};
  kt_init(&k, "Range");
  kt_input(&k, 0, HOLO_DT_I32, 0, one, &ir[0]);
  kt_input(&k, 1, HOLO_DT_I32, 0, one, &ir[1]);
  kt_input(&k, 2, HOLO_DT_I32, 0, one, &ir[2]);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 2);
  assert_memory_equal(k.out[0].data, wi, 8);
  kt_free(&k);
  int32_t z = 0;
  kt_init(&k, "Range");
  kt_input(&k, 0, HOLO_DT_I32, 0, one, &ir[0]);
  kt_input(&k, 1, HOLO_DT_I32, 0, one, &ir[1]);
  kt_input(&k, 2, HOLO_DT_I32, 0, one, &z);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Range");
  float tiny = 1e-30f;
  kt_init(&k, "Range");
  kt_input(&k, 0, HOLO_DT_F32, 0, one, &fr[0]);
  kt_input(&k, 1, HOLO_DT_F32, 0, one, &fr[1]);
  kt_input(&k, 2, HOLO_DT_F32, 0, one, &tiny);
  kt_expect_fail(&k, HOLO_ERR_LIMIT, "Range");

  /* CumSum on [3,5] along both axes, all four flag combinations */
  int64_t cs[2] = {3, 5};
  float cx[15];
  for (int i = 0; i < 15; i++)
    cx[i] = (float)(i * 7 % 11) - 5;
  for (int axis = 0; axis < 2; axis++)
    for (int fl = 0; fl < 4; fl++) {
      bool excl = fl & 1, rev = fl & 2;
      int64_t av = axis - 2;
      kt_init(&k, "CumSum");
      kt_input(&k, 0, HOLO_DT_F32, 2, cs, cx);
      kt_input(&k, 1, HOLO_DT_I64, 0, one, &av);
      kt_attr_int(&k, "exclusive", excl);
      kt_attr_int(&k, "reverse", rev);
      assert_int_equal(kt_exec(&k), HOLO_OK);
      const float *y = k.out[0].data;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
          double acc = 0;
          int pos = axis == 0 ? i : j, n = axis == 0 ? 3 : 5;
          for (int t = 0; t < n; t++) {
            bool in = rev ? (excl ? t > pos : t >= pos) : (excl ? t < pos : t <= pos);
            if (in) acc += axis == 0 ? cx[t * 5 + j] : cx[i * 5 + t];
          }
          assert_true(y[i * 5 + j] == (float)acc);
        }
      kt_free(&k);
    }
  int64_t a9 = 9;
  kt_init(&k, "CumSum");
  kt_input(&k, 0, HOLO_DT_F32, 2, cs, cx);
  kt_input(&k, 1, HOLO_DT_I64, 0, one, &a9);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "CumSum");

  /* Hardmax: first maximum wins */
  float hx[6] = {1, 3, 3, -1, -2, -1};
  int64_t hs[2] = {2, 3};
  kt_init(&k, "Hardmax");
  kt_input(&k, 0, HOLO_DT_F32, 2, hs, hx);
  kt_attr_int(&k, "axis", -1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float wh[6] = {0, 1, 0, 1, 0, 0};
  assert_memory_equal(k.out[0].data, wh, 24);
  kt_free(&k);
  kt_init(&k, "Hardmax");
  kt_input(&k, 0, HOLO_DT_F32, 2, hs, hx);
  kt_attr_int(&k, "axis", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Hardmax");

  /* Tile [2,3] by [2,1] and by [0,2] */
  int64_t rep[2] = {2, 1}, rep0[2] = {0, 2};
  kt_init(&k, "Tile");
  kt_input(&k, 0, HOLO_DT_F32, 2, hs, hx);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, rep);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 4);
  for (int i = 0; i < 12; i++)
    assert_true(((float *)k.out[0].data)[i] == hx[i % 6]);
  kt_free(&k);
  kt_init(&k, "Tile");
  kt_input(&k, 0, HOLO_DT_F32, 2, hs, hx);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, rep0);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 0);
  assert_int_equal(k.out[0].shape[1], 6);
  kt_free(&k);
  int64_t negrep[2] = {1, -1};
  kt_init(&k, "Tile");
  kt_input(&k, 0, HOLO_DT_F32, 2, hs, hx);
  kt_input(&k, 1, HOLO_DT_I64, 1, two, negrep);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Tile");
  kt_init(&k, "Tile");
  kt_input(&k, 0, HOLO_DT_F32, 2, hs, hx);
  kt_input(&k, 1, HOLO_DT_I64, 1, one, rep);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "Tile");
}

/* ScatterElements / ScatterND / GatherND: reductions (NaN wins max), a
 * duplicate index under "none" (the later one), integer add wrapping,
 * batch_dims, and every index or shape mistake refused before a write. */
static void test_scatter_gathernd(void **st) {
  (void)st;
  int64_t s23[2] = {2, 3}, s22[2] = {2, 2}, s21[2] = {2, 1}, s2[1] = {2}, s1[1] = {1};
  float x[6] = {0, 1, 2, 3, 4, 5}, u[4] = {10, 20, 30, NAN};
  int64_t ind[4] = {2, 2, -1, 0};
  kt_call k;
  /* none, axis 1: row 0 gets 10 then 20 at column 2; row 1 gets 30 at 2, NaN at 0 */
  kt_init(&k, "ScatterElements");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s22, ind);
  kt_input(&k, 2, HOLO_DT_F32, 2, s22, u);
  kt_attr_int(&k, "axis", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float *y = k.out[0].data;
  assert_true(y[0] == 0 && y[1] == 1 && y[2] == 20 && isnan(y[3]) && y[4] == 4 && y[5] == 30);
  kt_free(&k);
  const char *reds[4] = {"add", "mul", "max", "min"};
  const float want2[4] = {32, 400, 20, 2};
  for (int r = 0; r < 4; r++) {
    kt_init(&k, "ScatterElements");
    kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
    kt_input(&k, 1, HOLO_DT_I64, 2, s22, ind);
    kt_input(&k, 2, HOLO_DT_F32, 2, s22, u);
    kt_attr_int(&k, "axis", 1);
    kt_attr_string(&k, "reduction", reds[r]);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    y = k.out[0].data;
    assert_true(y[2] == want2[r] && isnan(y[3]));
    kt_free(&k);
  }
  /* i32 add wraps */
  int32_t xi[2] = {INT32_MAX, 5}, ui[1] = {1};
  int64_t i0[1] = {0};
  kt_init(&k, "ScatterElements");
  kt_input(&k, 0, HOLO_DT_I32, 1, s2, xi);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, i0);
  kt_input(&k, 2, HOLO_DT_I32, 1, s1, ui);
  kt_attr_string(&k, "reduction", "add");
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(((int32_t *)k.out[0].data)[0], INT32_MIN);
  kt_free(&k);
  /* refusals: index out of range, shape mismatch, unknown reduction, reduction of u8 */
  int64_t bad[4] = {2, 3, 0, 0};
  kt_init(&k, "ScatterElements");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s22, bad);
  kt_input(&k, 2, HOLO_DT_F32, 2, s22, u);
  kt_attr_int(&k, "axis", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ScatterElements");
  kt_init(&k, "ScatterElements");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s22, ind);
  kt_input(&k, 2, HOLO_DT_F32, 2, s21, u);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ScatterElements");
  kt_init(&k, "ScatterND");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s21, i0);
  kt_input(&k, 2, HOLO_DT_F32, 2, s23, x);
  kt_attr_string(&k, "reduction", "avg");
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ScatterND");
  uint8_t xb[2] = {1, 2};
  kt_init(&k, "ScatterElements");
  kt_input(&k, 0, HOLO_DT_U8, 1, s2, xb);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, i0);
  kt_input(&k, 2, HOLO_DT_U8, 1, s1, xb);
  kt_attr_string(&k, "reduction", "mul");
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "ScatterElements");
  /* ScatterND: rows by a [2,1] index tuple list ([1], [-2] = row 0), updates [2,3] */
  int64_t rows[2] = {1, -2};
  float ur[6] = {6, 7, 8, 9, 10, 11};
  kt_init(&k, "ScatterND");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s21, rows);
  kt_input(&k, 2, HOLO_DT_F32, 2, s23, ur);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float wnd[6] = {9, 10, 11, 6, 7, 8};
  assert_memory_equal(k.out[0].data, wnd, sizeof wnd);
  kt_free(&k);
  int64_t rows_bad[2] = {1, 2};
  kt_init(&k, "ScatterND");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s21, rows_bad);
  kt_input(&k, 2, HOLO_DT_F32, 2, s23, ur);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "ScatterND");
  /* GatherND batch_dims 1: batch b takes element [b, ind[b]] */
  int64_t gi[2] = {2, -3};
  kt_init(&k, "GatherND");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s21, gi);
  kt_attr_int(&k, "batch_dims", 1);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].rank, 1);
  assert_true(((float *)k.out[0].data)[0] == 2 && ((float *)k.out[0].data)[1] == 3);
  kt_free(&k);
  int64_t gbad[2] = {3, 0};
  kt_init(&k, "GatherND");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s21, gbad);
  kt_attr_int(&k, "batch_dims", 1);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "GatherND");
  kt_init(&k, "GatherND");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_input(&k, 1, HOLO_DT_I64, 2, s21, gi);
  kt_attr_int(&k, "batch_dims", 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "GatherND");
}

/* TopK: the insertion path (k <= 32) and the merge-sort path (k > 32)
 * give one order (value, NaN beyond +inf, ties by index), largest and
 * smallest, along an inner axis; NonZero over NaN, -0, bool and a scalar. */
static void test_topk_nonzero(void **st) {
  (void)st;
  enum { N = 301 };
  float x[2 * N];
  for (int i = 0; i < 2 * N; i++)
    x[i] = (float)((i * 37) % 23) - 11; /* many ties */
  x[5] = NAN, x[2 * 100 + 1] = NAN, x[17] = INFINITY;
  int64_t sx[2] = {N, 2}, s1[1] = {1};
  for (int largest = 0; largest < 2; largest++) {
    float v32[32 * 2], v40[40 * 2];
    int64_t i32[32 * 2], i40[40 * 2];
    for (int pass = 0; pass < 2; pass++) {
      int64_t kk[1] = {pass ? 40 : 32};
      kt_call k;
      kt_init(&k, "TopK");
      kt_input(&k, 0, HOLO_DT_F32, 2, sx, x);
      kt_input(&k, 1, HOLO_DT_I64, 1, s1, kk);
      kt_attr_int(&k, "axis", 0);
      kt_attr_int(&k, "largest", largest);
      k.call.n_outputs = 2;
      assert_int_equal(kt_exec(&k), HOLO_OK);
      memcpy(pass ? (void *)v40 : (void *)v32, k.out[0].data, (size_t)kk[0] * 2 * 4);
      memcpy(pass ? (void *)i40 : (void *)i32, k.out[1].data, (size_t)kk[0] * 2 * 8);
      kt_free(&k);
    }
    /* the first 32 rows of k=40 are k=32's, bit for bit */
    assert_memory_equal(v32, v40, sizeof v32);
    assert_memory_equal(i32, i40, sizeof i32);
    for (int t = 0; t < 40; t++)
      for (int col = 0; col < 2; col++) {
        int64_t id = i40[t * 2 + col];
        float v = v40[t * 2 + col];
        assert_true(id >= 0 && id < N);
        assert_memory_equal(&v, &x[id * 2 + col], 4);
        if (t) { /* the order: value, then index */
          float p = v40[(t - 1) * 2 + col];
          int64_t pid = i40[(t - 1) * 2 + col];
          /* NaN beyond every number: compare (is NaN, value) */
          int c = isnan(p) || isnan(v) ? isnan(p) - isnan(v) : (p > v) - (p < v);
          assert_true(largest ? (c > 0 || (c == 0 && pid < id)) : (c < 0 || (c == 0 && pid < id)));
        }
      }
    if (largest)
      assert_true(isnan(v40[1]) && isnan(v40[3]) && v40[5] == INFINITY && i40[1] == 2 && i40[3] == 100);
  }
  kt_call k;
  int64_t kbig[1] = {N + 1};
  kt_init(&k, "TopK");
  kt_input(&k, 0, HOLO_DT_F32, 2, sx, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, kbig);
  kt_attr_int(&k, "axis", 0);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "TopK");
  int64_t s2[1] = {2}, k2[2] = {1, 1};
  kt_init(&k, "TopK");
  kt_input(&k, 0, HOLO_DT_F32, 2, sx, x);
  kt_input(&k, 1, HOLO_DT_I64, 1, s2, k2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "TopK");

  float z[6] = {0, -0.0f, NAN, 1, 0, 2};
  int64_t s23[2] = {2, 3};
  kt_init(&k, "NonZero");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, z);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 2);
  assert_int_equal(k.out[0].shape[1], 3);
  const int64_t wz[6] = {0, 1, 1, 2, 0, 2}; /* (0,2) (1,0) (1,2) */
  assert_memory_equal(k.out[0].data, wz, sizeof wz);
  kt_free(&k);
  uint8_t b[1] = {1};
  kt_init(&k, "NonZero");
  kt_input(&k, 0, HOLO_DT_BOOL, 0, s1, b);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].shape[0], 1);
  assert_int_equal(k.out[0].shape[1], 1);
  assert_int_equal(((int64_t *)k.out[0].data)[0], 0);
  kt_free(&k);
}

/* SpaceToDepth then DepthToSpace (DCR) is the identity, on a 2-byte dtype;
 * CRD differs from DCR; every malformed geometry is refused. */
static void test_depth_space(void **st) {
  (void)st;
  int64_t sx[4] = {2, 3, 4, 6};
  uint16_t x[144];
  for (int i = 0; i < 144; i++)
    x[i] = (uint16_t)(i * 7 + 1);
  kt_call a, b;
  kt_init(&a, "SpaceToDepth");
  kt_input(&a, 0, HOLO_DT_U16, 4, sx, x);
  kt_attr_int(&a, "blocksize", 2);
  assert_int_equal(kt_exec(&a), HOLO_OK);
  const int64_t want[4] = {2, 12, 2, 3};
  assert_memory_equal(a.out[0].shape, want, sizeof want);
  for (int crd = 0; crd < 2; crd++) {
    kt_init(&b, "DepthToSpace");
    kt_input(&b, 0, HOLO_DT_U16, 4, a.out[0].shape, a.out[0].data);
    kt_attr_int(&b, "blocksize", 2);
    kt_attr_string(&b, "mode", crd ? "CRD" : "DCR");
    assert_int_equal(kt_exec(&b), HOLO_OK);
    assert_memory_equal(b.out[0].shape, sx, sizeof sx);
    if (!crd)
      assert_memory_equal(b.out[0].data, x, sizeof x);
    else
      assert_true(memcmp(b.out[0].data, x, sizeof x) != 0);
    kt_free(&b);
  }
  kt_free(&a);
  int64_t s3[3] = {3, 4, 6}, sodd[4] = {1, 3, 4, 6};
  kt_init(&a, "DepthToSpace");
  kt_input(&a, 0, HOLO_DT_U16, 3, s3, x);
  kt_attr_int(&a, "blocksize", 2);
  kt_expect_fail(&a, HOLO_ERR_KERNEL, "DepthToSpace");
  kt_init(&a, "DepthToSpace");
  kt_input(&a, 0, HOLO_DT_U16, 4, sodd, x);
  kt_attr_int(&a, "blocksize", 2);
  kt_expect_fail(&a, HOLO_ERR_KERNEL, "DepthToSpace");
  kt_init(&a, "DepthToSpace");
  kt_input(&a, 0, HOLO_DT_U16, 4, sx, x);
  kt_attr_int(&a, "blocksize", 1);
  kt_attr_string(&a, "mode", "XYZ");
  kt_expect_fail(&a, HOLO_ERR_KERNEL, "DepthToSpace");
  kt_init(&a, "SpaceToDepth");
  kt_input(&a, 0, HOLO_DT_U16, 4, sx, x);
  kt_attr_int(&a, "blocksize", 4);
  kt_expect_fail(&a, HOLO_ERR_KERNEL, "SpaceToDepth");
  kt_init(&a, "SpaceToDepth");
  kt_input(&a, 0, HOLO_DT_U16, 4, sx, x);
  kt_attr_int(&a, "blocksize", 0);
  kt_expect_fail(&a, HOLO_ERR_KERNEL, "SpaceToDepth");
}

/* OneHot: float indices truncate, negatives count from the end, an index
 * out of range is a row of off, axis 0; EyeLike: k shifts the diagonal,
 * dtype f16, a 1-D input refused. */
static void test_onehot_eyelike(void **st) {
  (void)st;
  float ind[4] = {1.9f, -1, 3, -4};
  int64_t s4[1] = {4}, s1[1] = {1}, s2[1] = {2}, d[1] = {3};
  int32_t vals[2] = {-5, 7};
  kt_call k;
  kt_init(&k, "OneHot");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, ind);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, d);
  kt_input(&k, 2, HOLO_DT_I32, 1, s2, vals);
  kt_attr_int(&k, "axis", 0);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const int64_t ws[2] = {3, 4};
  assert_memory_equal(k.out[0].shape, ws, sizeof ws);
  /* columns: index 1, 2 (= -1 + 3), none (3), none (-4) */
  const int32_t want[12] = {-5, -5, -5, -5, 7, -5, -5, -5, -5, 7, -5, -5};
  assert_memory_equal(k.out[0].data, want, sizeof want);
  kt_free(&k);
  int64_t d0[1] = {0};
  kt_init(&k, "OneHot");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, ind);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, d0);
  kt_input(&k, 2, HOLO_DT_I32, 1, s2, vals);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "OneHot");
  kt_init(&k, "OneHot");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, ind);
  kt_input(&k, 1, HOLO_DT_I64, 1, s1, d);
  kt_input(&k, 2, HOLO_DT_I32, 1, s1, vals);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "OneHot");

  int64_t s23[2] = {2, 3};
  float x[6] = {0};
  kt_init(&k, "EyeLike");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_attr_int(&k, "k", 1);
  kt_attr_int(&k, "dtype", HOLO_DT_F16);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  assert_int_equal(k.out[0].dtype, HOLO_DT_F16);
  const uint16_t we[6] = {0, 0x3c00, 0, 0, 0, 0x3c00};
  assert_memory_equal(k.out[0].data, we, sizeof we);
  kt_free(&k);
  kt_init(&k, "EyeLike");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_attr_int(&k, "k", -5);
  assert_int_equal(kt_exec(&k), HOLO_OK);
  const float wz[6] = {0};
  assert_memory_equal(k.out[0].data, wz, sizeof wz);
  kt_free(&k);
  kt_init(&k, "EyeLike");
  kt_input(&k, 0, HOLO_DT_F32, 1, s4, x);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "EyeLike");
  kt_init(&k, "EyeLike");
  kt_input(&k, 0, HOLO_DT_F32, 2, s23, x);
  kt_attr_int(&k, "dtype", 8); /* string */
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "EyeLike");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_slice),
      cmocka_unit_test(test_pad),
      cmocka_unit_test(test_gather),
      cmocka_unit_test(test_expand_where_clip),
      cmocka_unit_test(test_squeeze),
      cmocka_unit_test(test_more_layout),
      cmocka_unit_test(test_scatter_gathernd),
      cmocka_unit_test(test_topk_nonzero),
      cmocka_unit_test(test_depth_space),
      cmocka_unit_test(test_onehot_eyelike),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
