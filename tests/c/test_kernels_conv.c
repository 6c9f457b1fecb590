/* Conv, MaxPool, AveragePool, GlobalAveragePool against float64 references. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hologram/parallel.h"
#include "util/kernel_testutil.h"

typedef struct cv_case {
  int64_t N, C, H, W, M, kh, kw, group;
  int64_t sh, sw, dh, dw;
  int64_t pads[4]; /* t, l, b, r */
  const char *auto_pad; /* NULL: attribute absent */
  bool bias, kernel_attr;
} cv_case;

/* Pads the test expects for auto_pad, from the ONNX formulas. */
static void cv_auto_pads(const char *ap, int64_t in, int64_t k, int64_t s, int64_t d, int64_t *pb,
                         int64_t *pe, int64_t *out) {
  int64_t ek = (k - 1) * d + 1;
  if (!strcmp(ap, "VALID")) {
    *pb = *pe = 0;
    *out = (in - ek) / s + 1;
    return;
  }
  *out = (in + s - 1) / s;
  int64_t total = (*out - 1) * s + ek - in;
  if (total < 0) total = 0;
  *pb = !strcmp(ap, "SAME_UPPER") ? total / 2 : total - total / 2;
  *pe = total - *pb;
}

static void cv_check(const cv_case *t, uint64_t seed) {
  int64_t Cg = t->C / t->group, Mg = t->M / t->group;
  size_t nx = t->N * t->C * t->H * t->W, nw = t->M * Cg * t->kh * t->kw;
  float *X = malloc(nx * 4 + 4), *Wt = malloc(nw * 4 + 4), *B = malloc(t->M * 4 + 4);
  kt_fill(X, nx, &seed, -1, 1);
  kt_fill(Wt, nw, &seed, -1, 1);
  kt_fill(B, t->M, &seed, -1, 1);
  int64_t pt = t->pads[0], pl = t->pads[1], pb = t->pads[2], pr = t->pads[3], OH, OW;
  if (t->auto_pad && strcmp(t->auto_pad, "NOTSET")) {
    cv_auto_pads(t->auto_pad, t->H, t->kh, t->sh, t->dh, &pt, &pb, &OH);
    cv_auto_pads(t->auto_pad, t->W, t->kw, t->sw, t->dw, &pl, &pr, &OW);
  } else {
    OH = (t->H + pt + pb - ((t->kh - 1) * t->dh + 1)) / t->sh + 1;
    OW = (t->W + pl + pr - ((t->kw - 1) * t->dw + 1)) / t->sw + 1;
  }
  size_t ny = t->N * t->M * OH * OW;
  double *ref = malloc(ny * 8 + 8);
  for (int64_t n = 0; n < t->N; n++)
    for (int64_t m = 0; m < t->M; m++)
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          double s = t->bias ? B[m] : 0;
          int64_t g = m / Mg;
          for (int64_t c = 0; c < Cg; c++)
            for (int64_t i = 0; i < t->kh; i++)
              for (int64_t j = 0; j < t->kw; j++) {
                int64_t ih = oh * t->sh - pt + i * t->dh, iw = ow * t->sw - pl + j * t->dw;
                if (ih < 0 || ih >= t->H || iw < 0 || iw >= t->W) continue;
                s += (double)X[((n * t->C + g * Cg + c) * t->H + ih) * t->W + iw] *
                     (double)Wt[((m * Cg + c) * t->kh + i) * t->kw + j];
              }
          ref[((n * t->M + m) * OH + oh) * OW + ow] = s;
        }
  kt_call k;
  kt_init(&k, "Conv");
  kt_input(&k, 0, HOLO_DT_F32, 4, (int64_t[]){t->N, t->C, t->H, t->W}, X);
  kt_input(&k, 1, HOLO_DT_F32, 4, (int64_t[]){t->M, Cg, t->kh, t->kw}, Wt);
  if (t->bias) kt_input(&k, 2, HOLO_DT_F32, 1, (int64_t[]){t->M}, B);
  if (t->group != 1) kt_attr_int(&k, "group", t->group);
  if (t->sh != 1 || t->sw != 1) kt_attr_ints(&k, "strides", 2, (int64_t[]){t->sh, t->sw});
  if (t->dh != 1 || t->dw != 1) kt_attr_ints(&k, "dilations", 2, (int64_t[]){t->dh, t->dw});
  if (t->pads[0] | t->pads[1] | t->pads[2] | t->pads[3]) kt_attr_ints(&k, "pads", 4, t->pads);
  if (t->auto_pad) kt_attr_string(&k, "auto_pad", t->auto_pad);
  if (t->kernel_attr) kt_attr_ints(&k, "kernel_shape", 2, (int64_t[]){t->kh, t->kw});
  holo_status st = kt_exec(&k);
  if (st) fprintf(stderr, "%s\n", k.msg);
  assert_int_equal(st, HOLO_OK);
  assert_int_equal(k.call.alias_input, -1);
  assert_int_equal(k.out[0].rank, 4);
  assert_int_equal(k.out[0].shape[0], t->N);
  assert_int_equal(k.out[0].shape[1], t->M);
  assert_int_equal(k.out[0].shape[2], OH);
  assert_int_equal(k.out[0].shape[3], OW);
  kt_close(k.out[0].data, ref, ny, 1e-5, 1e-6 * (double)(Cg * t->kh * t->kw + 1));
  kt_free(&k);
  free(X);
  free(Wt);
  free(B);
  free(ref);
}

static void test_conv_random(void **st) {
  (void)st;
  static const int64_t hw[] = {1, 3, 7, 17, 9};
  uint64_t seed = 900;
  for (int i = 0; i < 5; i++)
    for (int v = 0; v < 6; v++) {
      int64_t H = hw[i], W = hw[(i + v) % 5] + 2;
      int64_t k = v % 3 == 0 ? 1 : v % 3 == 1 ? 3 : 2;
      cv_case t = {1 + v % 2, 3, H, W, 5, k, k == 1 ? 3 : k, 1, 1 + v % 2, 1 + (v / 2) % 2, 1, 1,
                   {v % 3, (v + 1) % 3, v % 2, 2 - v % 3}, NULL, v % 2 == 0, v % 3 == 2};
      if (v == 5) { t.dh = 2; t.dw = 1 + (i % 2); }
      /* keep the dilated kernel inside the padded input */
      while ((t.kh - 1) * t.dh + 1 > H + t.pads[0] + t.pads[2]) t.kh--;
      while ((t.kw - 1) * t.dw + 1 > W + t.pads[1] + t.pads[3]) t.kw--;
      cv_check(&t, seed++);
    }
}

static void test_conv_groups(void **st) {
  (void)st;
  uint64_t seed = 1000;
  cv_case dw = {2, 8, 9, 11, 8, 3, 3, 8, 1, 1, 1, 1, {1, 1, 1, 1}, NULL, true, true};
  cv_check(&dw, seed++); /* depthwise */
  cv_case dw2 = {1, 4, 17, 17, 8, 3, 3, 4, 2, 2, 1, 1, {1, 1, 1, 1}, NULL, true, false};
  cv_check(&dw2, seed++); /* depthwise, multiplier 2 */
  cv_case g3 = {1, 6, 7, 7, 9, 3, 1, 3, 1, 1, 2, 1, {2, 0, 2, 0}, NULL, false, false};
  cv_check(&g3, seed++);
  cv_case big = {1, 17, 13, 13, 65, 3, 3, 1, 1, 1, 1, 1, {1, 1, 1, 1}, NULL, true, false};
  cv_check(&big, seed++);
  cv_case pw = {2, 63, 5, 7, 7, 1, 1, 1, 1, 1, 1, 1, {0, 0, 0, 0}, NULL, true, false};
  cv_check(&pw, seed++); /* pointwise */
}

static void test_conv_auto_pad(void **st) {
  (void)st;
  static const char *const modes[] = {"SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET"};
  uint64_t seed = 1100;
  for (int m = 0; m < 4; m++)
    for (int s = 1; s <= 3; s++) {
      cv_case t = {1, 2, 10, 7, 3, 4, 3, 1, s, s == 3 ? 2 : s, 1, 1, {0, 0, 0, 0}, modes[m], true,
                   false};
      cv_check(&t, seed++);
      t.dh = 2;
      cv_check(&t, seed++);
    }
}

static void test_conv_zero_batch(void **st) {
  (void)st;
  cv_case t = {0, 3, 5, 5, 4, 3, 3, 1, 1, 1, 1, 1, {0, 0, 0, 0}, NULL, true, false};
  cv_check(&t, 1);
  cv_case dw = {0, 4, 5, 5, 4, 3, 3, 4, 1, 1, 1, 1, {1, 1, 1, 1}, NULL, true, false};
  cv_check(&dw, 2); /* depthwise: no channel tasks at all */
}

static void cv_refuse(void (*setup)(kt_call *), holo_status st) {
  static float buf[4096];
  kt_call k;
  kt_init(&k, "Conv");
  kt_input(&k, 0, HOLO_DT_F32, 4, (int64_t[]){1, 4, 8, 8}, buf);
  kt_input(&k, 1, HOLO_DT_F32, 4, (int64_t[]){6, 4, 3, 3}, buf);
  setup(&k);
  kt_expect_fail(&k, st, "Conv");
}

static void cv_rank3(kt_call *k) {
  kt_input(k, 0, HOLO_DT_F32, 3, (int64_t[]){1, 4, 8}, k->in[0].data);
  kt_input(k, 1, HOLO_DT_F32, 3, (int64_t[]){6, 4, 3}, k->in[0].data);
}
static void cv_rank5(kt_call *k) {
  kt_input(k, 0, HOLO_DT_F32, 5, (int64_t[]){1, 4, 2, 2, 2}, k->in[0].data);
}
static void cv_rank2(kt_call *k) { kt_input(k, 0, HOLO_DT_F32, 2, (int64_t[]){4, 8}, k->in[0].data); }
static void cv_wrank(kt_call *k) { kt_input(k, 1, HOLO_DT_F32, 3, (int64_t[]){6, 4, 3}, k->in[1].data); }
static void cv_channels(kt_call *k) { kt_input(k, 1, HOLO_DT_F32, 4, (int64_t[]){6, 3, 3, 3}, k->in[1].data); }
static void cv_group_div(kt_call *k) { kt_attr_int(k, "group", 3); }
static void cv_group_zero(kt_call *k) { kt_attr_int(k, "group", 0); }
static void cv_group_m(kt_call *k) {
  kt_input(k, 1, HOLO_DT_F32, 4, (int64_t[]){5, 2, 3, 3}, k->in[1].data);
  kt_attr_int(k, "group", 2);
}
static void cv_bias(kt_call *k) { kt_input(k, 2, HOLO_DT_F32, 1, (int64_t[]){5}, k->in[0].data); }
static void cv_bias_dtype(kt_call *k) { kt_input(k, 2, HOLO_DT_I32, 1, (int64_t[]){6}, k->in[0].data); }
static void cv_kshape(kt_call *k) { kt_attr_ints(k, "kernel_shape", 2, (int64_t[]){3, 2}); }
static void cv_pads3(kt_call *k) { kt_attr_ints(k, "pads", 3, (int64_t[]){1, 1, 1}); }
static void cv_pads_neg(kt_call *k) { kt_attr_ints(k, "pads", 4, (int64_t[]){1, -1, 1, 1}); }
static void cv_stride0(kt_call *k) { kt_attr_ints(k, "strides", 2, (int64_t[]){1, 0}); }
static void cv_dil0(kt_call *k) { kt_attr_ints(k, "dilations", 2, (int64_t[]){0, 1}); }
static void cv_autopad(kt_call *k) { kt_attr_string(k, "auto_pad", "SAME"); }
static void cv_autopad_pads(kt_call *k) {
  kt_attr_string(k, "auto_pad", "VALID");
  kt_attr_ints(k, "pads", 4, (int64_t[]){1, 1, 1, 1});
}
static void cv_too_big(kt_call *k) { kt_attr_ints(k, "dilations", 2, (int64_t[]){4, 1}); }
static void cv_dtype(kt_call *k) { k->in[1].dtype = HOLO_DT_F64; }
static void cv_count(kt_call *k) { k->call.n_inputs = 4; }
static void cv_one_input(kt_call *k) { k->call.n_inputs = 1; }
static void cv_outputs(kt_call *k) { k->call.n_outputs = 2; }
static void cv_dtype_x(kt_call *k) { k->in[0].dtype = HOLO_DT_I64; k->in[0].bytes *= 2; }
static void cv_one_more(kt_call *k) { k->call.n_inputs = 2; }
/* Zero-sized tensors whose other dims overflow every size product (the
 * fuzzer's find: UBSan signed overflow in the workspace size at infer). */
static void cv_huge_plane(kt_call *k) {
  kt_input(k, 0, HOLO_DT_F32, 4, (int64_t[]){0, 4, (int64_t)1 << 40, (int64_t)1 << 40}, k->in[0].data);
}
static void cv_huge_taps(kt_call *k) {
  kt_input(k, 1, HOLO_DT_F32, 4, (int64_t[]){0, 4, (int64_t)1 << 30, (int64_t)1 << 30}, k->in[1].data);
  kt_input(k, 0, HOLO_DT_F32, 4, (int64_t[]){0, 4, (int64_t)1 << 30, (int64_t)1 << 30}, k->in[0].data);
}

static void test_conv_refusals(void **st) {
  (void)st;
  cv_refuse(cv_rank3, HOLO_ERR_UNSUPPORTED);
  cv_refuse(cv_rank5, HOLO_ERR_UNSUPPORTED);
  cv_refuse(cv_rank2, HOLO_ERR_KERNEL);
  cv_refuse(cv_wrank, HOLO_ERR_KERNEL);
  cv_refuse(cv_channels, HOLO_ERR_KERNEL);
  cv_refuse(cv_group_div, HOLO_ERR_KERNEL);
  cv_refuse(cv_group_zero, HOLO_ERR_KERNEL);
  cv_refuse(cv_group_m, HOLO_ERR_KERNEL);
  cv_refuse(cv_bias, HOLO_ERR_KERNEL);
  cv_refuse(cv_bias_dtype, HOLO_ERR_UNSUPPORTED);
  cv_refuse(cv_kshape, HOLO_ERR_KERNEL);
  cv_refuse(cv_pads3, HOLO_ERR_KERNEL);
  cv_refuse(cv_pads_neg, HOLO_ERR_KERNEL);
  cv_refuse(cv_stride0, HOLO_ERR_KERNEL);
  cv_refuse(cv_dil0, HOLO_ERR_KERNEL);
  cv_refuse(cv_autopad, HOLO_ERR_KERNEL);
  cv_refuse(cv_autopad_pads, HOLO_ERR_KERNEL);
  cv_refuse(cv_too_big, HOLO_ERR_KERNEL);
  cv_refuse(cv_dtype, HOLO_ERR_UNSUPPORTED);
  cv_refuse(cv_count, HOLO_ERR_KERNEL);
  cv_refuse(cv_one_input, HOLO_ERR_KERNEL);
  cv_refuse(cv_outputs, HOLO_ERR_KERNEL);
  cv_refuse(cv_huge_plane, HOLO_ERR_KERNEL);
  cv_refuse(cv_huge_taps, HOLO_ERR_KERNEL);
}

/* ---- pools ---- */

typedef struct pl_case {
  int64_t N, C, H, W, kh, kw, sh, sw, dh, dw;
  int64_t pads[4];
  const char *auto_pad;
  int ceil_mode, count_include_pad;
} pl_case;

static void pl_check(const char *op, const pl_case *t, uint64_t seed) {
  bool is_max = !strcmp(op, "MaxPool");
  size_t nx = t->N * t->C * t->H * t->W;
  float *X = malloc(nx * 4 + 4);
  kt_fill(X, nx, &seed, -5, 5);
  int64_t pt = t->pads[0], pl = t->pads[1], pb = t->pads[2], pr = t->pads[3], OH, OW;
  int64_t ekh = (t->kh - 1) * t->dh + 1, ekw = (t->kw - 1) * t->dw + 1;
  if (t->auto_pad && strcmp(t->auto_pad, "NOTSET")) {
    cv_auto_pads(t->auto_pad, t->H, t->kh, t->sh, t->dh, &pt, &pb, &OH);
    cv_auto_pads(t->auto_pad, t->W, t->kw, t->sw, t->dw, &pl, &pr, &OW);
  } else if (t->ceil_mode) {
    OH = (int64_t)ceil((double)(t->H + pt + pb - ekh) / t->sh) + 1;
    OW = (int64_t)ceil((double)(t->W + pl + pr - ekw) / t->sw) + 1;
    if ((OH - 1) * t->sh >= t->H + pt) OH--;
    if ((OW - 1) * t->sw >= t->W + pl) OW--;
  } else {
    OH = (t->H + pt + pb - ekh) / t->sh + 1;
    OW = (t->W + pl + pr - ekw) / t->sw + 1;
  }
  size_t ny = t->N * t->C * OH * OW;
  double *ref = malloc(ny * 8 + 8);
  for (int64_t p = 0; p < t->N * t->C; p++)
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        double mx = -INFINITY, s = 0;
        int cnt = 0, cnt_pad = 0;
        for (int64_t i = 0; i < t->kh; i++)
          for (int64_t j = 0; j < t->kw; j++) {
            int64_t ih = oh * t->sh - pt + i * t->dh, iw = ow * t->sw - pl + j * t->dw;
            if (ih >= -pt && ih < t->H + pb && iw >= -pl && iw < t->W + pr) cnt_pad++;
            if (ih < 0 || ih >= t->H || iw < 0 || iw >= t->W) continue;
            double v = X[(p * t->H + ih) * t->W + iw];
            mx = fmax(mx, v);
            s += v;
            cnt++;
          }
        ref[(p * OH + oh) * OW + ow] = is_max ? mx : s / (t->count_include_pad ? cnt_pad : cnt);
      }
  kt_call k;
  kt_init(&k, op);
  kt_input(&k, 0, HOLO_DT_F32, 4, (int64_t[]){t->N, t->C, t->H, t->W}, X);
  kt_attr_ints(&k, "kernel_shape", 2, (int64_t[]){t->kh, t->kw});
  if (t->sh != 1 || t->sw != 1) kt_attr_ints(&k, "strides", 2, (int64_t[]){t->sh, t->sw});
  if (t->dh != 1 || t->dw != 1) kt_attr_ints(&k, "dilations", 2, (int64_t[]){t->dh, t->dw});
  if (t->pads[0] | t->pads[1] | t->pads[2] | t->pads[3]) kt_attr_ints(&k, "pads", 4, t->pads);
  if (t->auto_pad) kt_attr_string(&k, "auto_pad", t->auto_pad);
  if (t->ceil_mode) kt_attr_int(&k, "ceil_mode", 1);
  if (t->count_include_pad) kt_attr_int(&k, "count_include_pad", 1);
  holo_status st = kt_exec(&k);
  if (st) fprintf(stderr, "%s\n", k.msg);
  assert_int_equal(st, HOLO_OK);
  assert_int_equal(k.out[0].shape[0], t->N);
  assert_int_equal(k.out[0].shape[1], t->C);
  assert_int_equal(k.out[0].shape[2], OH);
  assert_int_equal(k.out[0].shape[3], OW);
  kt_close(k.out[0].data, ref, ny, is_max ? 0 : 1e-5, is_max ? 0 : 1e-6);
  kt_free(&k);
  free(X);
  free(ref);
}

static void test_pools(void **st) {
  (void)st;
  static const char *const ops[] = {"MaxPool", "AveragePool"};
  uint64_t seed = 2000;
  for (int o = 0; o < 2; o++) {
    pl_case c1 = {2, 3, 17, 13, 3, 3, 2, 2, 1, 1, {0, 0, 0, 0}, NULL, 0, 0};
    pl_check(ops[o], &c1, seed++);
    pl_case c2 = {1, 5, 7, 9, 2, 3, 1, 2, 1, 1, {1, 1, 0, 2}, NULL, 0, 0};
    pl_check(ops[o], &c2, seed++);
    c2.count_include_pad = 1;
    pl_check(ops[o], &c2, seed++);
    pl_case c3 = {1, 2, 8, 10, 3, 3, 2, 3, 1, 1, {1, 1, 1, 1}, NULL, 1, 0};
    pl_check(ops[o], &c3, seed++); /* ceil_mode */
    c3.count_include_pad = 1;
    pl_check(ops[o], &c3, seed++);
    pl_case c3b = {1, 1, 5, 5, 2, 2, 2, 2, 1, 1, {0, 0, 0, 0}, NULL, 1, 0};
    pl_check(ops[o], &c3b, seed++); /* ceil window clipped by the input edge */
    pl_case c3c = {1, 1, 6, 6, 3, 3, 3, 3, 1, 1, {1, 1, 1, 1}, NULL, 1, 1};
    pl_check(ops[o], &c3c, seed++);
    pl_case c3d = {1, 1, 2, 2, 2, 2, 2, 2, 1, 1, {0, 0, 1, 1}, NULL, 1, 1};
    pl_check(ops[o], &c3d, seed++); /* the last window would start in end padding */
    pl_case c4 = {1, 3, 11, 6, 3, 2, 2, 1, 2, 2, {2, 0, 1, 1}, NULL, 0, 0};
    pl_check(ops[o], &c4, seed++); /* dilation */
    static const char *const modes[] = {"SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET"};
    for (int m = 0; m < 4; m++)
      for (int s = 1; s <= 3; s++) {
        pl_case c5 = {1, 2, 10, 7, 4, 3, s, s, 1, 1, {0, 0, 0, 0}, modes[m], 0, 0};
        pl_check(ops[o], &c5, seed++);
      }
    pl_case c6 = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, {0, 0, 0, 0}, NULL, 0, 0};
    pl_check(ops[o], &c6, seed++);
    pl_case c7 = {0, 3, 4, 4, 2, 2, 1, 1, 1, 1, {0, 0, 0, 0}, NULL, 0, 0};
    pl_check(ops[o], &c7, seed++);
  }
  /* MaxPool lets NaN through and ignores -inf padding */
  float x[4] = {NAN, 1, 2, 3};
  kt_call k;
  kt_init(&k, "MaxPool");
  kt_input(&k, 0, HOLO_DT_F32, 4, (int64_t[]){1, 1, 2, 2}, x);
  kt_attr_ints(&k, "kernel_shape", 2, (int64_t[]){2, 1});
  assert_int_equal(kt_exec(&k), HOLO_OK);
  float *y = k.out[0].data;
  assert_true(isnan(y[0]) && y[1] == 3.0f);
  kt_free(&k);
}

static void pl_refuse(const char *op, void (*setup)(kt_call *), holo_status st) {
  static float buf[4096];
  kt_call k;
  kt_init(&k, op);
  kt_input(&k, 0, HOLO_DT_F32, 4, (int64_t[]){1, 4, 8, 8}, buf);
  kt_attr_ints(&k, "kernel_shape", 2, (int64_t[]){3, 3});
  setup(&k);
  kt_expect_fail(&k, st, op);
}

static void pl_none(kt_call *k) { (void)k; }
static void pl_rank3(kt_call *k) { kt_input(k, 0, HOLO_DT_F32, 3, (int64_t[]){1, 4, 8}, k->in[0].data); }
static void pl_no_kernel(kt_call *k) { k->call.n_attrs = 0; }
static void pl_ceil2(kt_call *k) { kt_attr_int(k, "ceil_mode", 2); }
static void pl_cip2(kt_call *k) { kt_attr_int(k, "count_include_pad", 2); }
static void pl_indices(kt_call *k) { k->call.n_outputs = 2; }
static void pl_kbig(kt_call *k) {
  k->call.n_attrs = 0;
  kt_attr_ints(k, "kernel_shape", 2, (int64_t[]){9, 3});
}
static void pl_k1(kt_call *k) {
  k->call.n_attrs = 0;
  kt_attr_ints(k, "kernel_shape", 1, (int64_t[]){3});
}

static void test_pool_refusals(void **st) {
  (void)st;
  static const char *const ops[] = {"MaxPool", "AveragePool"};
  for (int o = 0; o < 2; o++) {
    pl_refuse(ops[o], pl_rank3, HOLO_ERR_UNSUPPORTED);
    pl_refuse(ops[o], cv_rank5, HOLO_ERR_UNSUPPORTED);
    pl_refuse(ops[o], cv_rank2, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], pl_no_kernel, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], pl_ceil2, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], pl_kbig, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], pl_k1, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], cv_pads_neg, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], cv_stride0, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], cv_autopad, HOLO_ERR_KERNEL);
    pl_refuse(ops[o], cv_dtype_x, HOLO_ERR_UNSUPPORTED);
    pl_refuse(ops[o], cv_one_more, HOLO_ERR_KERNEL);
  }
  /* MaxPool with Indices runs since 65a7de0 (tests/js/training-ops.test.mjs, test_microkernels) */
  pl_refuse("AveragePool", pl_indices, HOLO_ERR_KERNEL);
  pl_refuse("AveragePool", pl_cip2, HOLO_ERR_KERNEL);
  (void)pl_none;
}

static void test_global_average_pool(void **st) {
  (void)st;
  uint64_t seed = 3000;
  const int64_t shapes[][5] = {{2, 3, 7, 9, 0}, {1, 17, 1, 1, 0}, {1, 2, 65, 0, 0}, {2, 2, 3, 4, 5}};
  const uint32_t ranks[] = {4, 4, 3, 5};
  for (int i = 0; i < 4; i++) {
    uint32_t r = ranks[i];
    size_t n = kt_numel(r, shapes[i]), planes = shapes[i][0] * shapes[i][1], per = n / planes;
    float *X = malloc(n * 4);
    kt_fill(X, n, &seed, -3, 3);
    double *ref = malloc(planes * 8);
    for (size_t p = 0; p < planes; p++) {
      double s = 0;
      for (size_t j = 0; j < per; j++) s += X[p * per + j];
      ref[p] = s / per;
    }
    kt_call k;
    kt_init(&k, "GlobalAveragePool");
    kt_input(&k, 0, HOLO_DT_F32, r, shapes[i], X);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    assert_int_equal(k.out[0].rank, r);
    for (uint32_t d = 0; d < r; d++) assert_int_equal(k.out[0].shape[d], d < 2 ? shapes[i][d] : 1);
    kt_close(k.out[0].data, ref, planes, 1e-5, 1e-6);
    kt_free(&k);
    free(X);
    free(ref);
  }
  float buf[8] = {0};
  kt_call k;
  kt_init(&k, "GlobalAveragePool");
  kt_input(&k, 0, HOLO_DT_F32, 2, (int64_t[]){2, 3}, buf);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "GlobalAveragePool");
  kt_init(&k, "GlobalAveragePool");
  kt_input(&k, 0, HOLO_DT_I32, 3, (int64_t[]){1, 2, 3}, buf);
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "GlobalAveragePool");
}

/* Depthwise Conv with a fused Clip (ReLU6) over channel tasks: serial, and
 * through pools of 1, 2 and 4 threads, the same bytes (the task split is a
 * rule of the shape; each task has its own workspace slot); plus the f64
 * reference clipped. Shapes: more channels than tasks, fewer, batch 2. */
typedef struct {
  int64_t xs[4];
  const float *X, *W, *B;
} dw_ctx;
static void dw_setup(kt_call *k, const dw_ctx *c, holo_pool *p) {
  kt_init(k, "Conv");
  kt_input(k, 0, HOLO_DT_F32, 4, c->xs, c->X);
  kt_input(k, 1, HOLO_DT_F32, 4, (int64_t[]){c->xs[1], 1, 3, 3}, c->W);
  kt_input(k, 2, HOLO_DT_F32, 1, (int64_t[]){c->xs[1]}, c->B);
  kt_attr_int(k, "group", c->xs[1]);
  kt_attr_ints(k, "pads", 4, (int64_t[]){1, 1, 1, 1});
  kt_attr_ints(k, "strides", 2, (int64_t[]){1, 2});
  kt_attr_string(k, "holo_activation", "Clip");
  kt_attr_float(k, "holo_clip_min", 0.0f);
  kt_attr_float(k, "holo_clip_max", 0.5f);
  if (p) {
    k->call.parallel_for = holo_pool_parallel_for;
    k->call.pctx = p;
  }
}
static void test_conv_depthwise_tasks_clip(void **st) {
  (void)st;
  static const int64_t shapes[][4] = {{1, 19, 9, 10}, {2, 3, 7, 5}, {1, 8, 12, 12}};
  uint64_t seed = 4242;
  for (size_t s = 0; s < 3; s++) {
    dw_ctx c = {{shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3]}, 0, 0, 0};
    size_t nx = kt_numel(4, c.xs), nw = (size_t)c.xs[1] * 9;
    float *X = malloc(nx * 4), *W = malloc(nw * 4), *B = malloc((size_t)c.xs[1] * 4);
    kt_fill(X, nx, &seed, -2, 2);
    kt_fill(W, nw, &seed, -1, 1);
    kt_fill(B, (size_t)c.xs[1], &seed, -1, 1);
    c.X = X;
    c.W = W;
    c.B = B;
    kt_call k;
    dw_setup(&k, &c, NULL);
    assert_int_equal(kt_exec(&k), HOLO_OK);
    const int64_t N = c.xs[0], C = c.xs[1], H = c.xs[2], Wd = c.xs[3], OH = H, OW = (Wd + 2 - 3) / 2 + 1;
    size_t ny = (size_t)(N * C * OH * OW);
    double *ref = malloc(ny * 8);
    for (int64_t n = 0; n < N; n++)
      for (int64_t ch = 0; ch < C; ch++)
        for (int64_t oh = 0; oh < OH; oh++)
          for (int64_t ow = 0; ow < OW; ow++) {
            double v = B[ch];
            for (int64_t i = 0; i < 3; i++)
              for (int64_t j = 0; j < 3; j++) {
                int64_t ih = oh - 1 + i, iw = ow * 2 - 1 + j;
                if (ih >= 0 && ih < H && iw >= 0 && iw < Wd)
                  v += (double)X[((n * C + ch) * H + ih) * Wd + iw] * W[ch * 9 + i * 3 + j];
              }
            ref[((n * C + ch) * OH + oh) * OW + ow] = v < 0 ? 0 : v > 0.5 ? 0.5 : v;
          }
    kt_close(k.out[0].data, ref, ny, 1e-5, 1e-5);
    float *want = malloc(ny * 4);
    memcpy(want, k.out[0].data, ny * 4);
    kt_free(&k);
    for (unsigned t = 1; t <= 4; t *= 2) {
      holo_pool *p = holo_pool_create(t);
      dw_setup(&k, &c, p);
      assert_int_equal(kt_exec(&k), HOLO_OK);
      assert_memory_equal(k.out[0].data, want, ny * 4);
      kt_free(&k);
      holo_pool_destroy(p);
    }
    free(want);
    free(ref);
    free(X);
    free(W);
    free(B);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conv_random),   cmocka_unit_test(test_conv_groups),
      cmocka_unit_test(test_conv_auto_pad), cmocka_unit_test(test_conv_zero_batch),
      cmocka_unit_test(test_conv_refusals), cmocka_unit_test(test_pools),
      cmocka_unit_test(test_pool_refusals), cmocka_unit_test(test_global_average_pool),
      cmocka_unit_test(test_conv_depthwise_tasks_clip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
