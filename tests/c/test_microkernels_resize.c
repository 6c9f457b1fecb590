/* The Resize row kernel (kernels-wasm-simd/microkernels/resize2d.h): the
 * scalar kernel and, in the wasm builds, its f64x2 variant against a naive
 * reference written from operators/resize.c's generic walk (the weight
 * product starts at 1 and multiplies every axis's weight, the sum starts
 * at 0 and adds the taps in (H tap, W tap) order, one rounding to f32),
 * bit for bit, over 1, 2 and 4 taps per axis, widths 1 .. 9 (the odd tail
 * of the 2-wide steps), repeated and clamped indices, NaN / +-Inf / -0 /
 * subnormal inputs, with guard floats around the output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "microkernels/resize2d.h"

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

static uint32_t rs = 0x2545f491u;
static uint32_t rnd(void) {
  rs ^= rs << 13;
  rs ^= rs >> 17;
  rs ^= rs << 5;
  return rs;
}
static float bits_f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t f_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static const uint32_t SPECIAL[] = {0x7fc00000u, 0xffc00000u, 0x7f800000u, 0xff800000u, 0x00000000u,
                                   0x80000000u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0xff7fffffu};
#define N_SPECIAL (sizeof SPECIAL / sizeof SPECIAL[0])
#define GUARD 4
static const uint32_t SENTINEL = 0x7fbadbadu;

/* The generic walk's sum for output o: outer weights 1 (exactly), then H, then W. */
static float ref_one(const holo_resize2d_row *r, size_t o) {
  double sum = 0;
  for (uint32_t a = 0; a < r->th; a++)
    for (uint32_t b = 0; b < r->tw; b++) {
      double wt = 1;
      wt *= 1.0; /* the outer axes' weights */
      wt *= r->wh[a];
      wt *= r->ww[o * r->tw + b];
      sum += wt * (double)r->rows[a][r->iw[o * r->tw + b]];
    }
  return (float)sum;
}

static void check(const holo_resize2d_row *r, void (*k)(const holo_resize2d_row *, float *),
                  const char *what) {
  float *y = malloc((r->n + 2 * GUARD) * 4);
  assert_non_null(y);
  for (size_t i = 0; i < r->n + 2 * GUARD; i++)
    y[i] = bits_f(SENTINEL);
  k(r, y + GUARD);
  for (size_t i = 0; i < GUARD; i++)
    if (f_bits(y[i]) != SENTINEL || f_bits(y[GUARD + r->n + i]) != SENTINEL)
      fail_msg("%s th=%u tw=%u n=%zu: wrote outside the row", what, r->th, r->tw, r->n);
  for (size_t o = 0; o < r->n; o++) {
    float want = ref_one(r, o), got = y[GUARD + o];
    if (f_bits(got) != f_bits(want) && !(got != got && want != want))
      fail_msg("%s th=%u tw=%u n=%zu: output %zu: %.9g (0x%08x) vs %.9g (0x%08x)", what, r->th, r->tw, r->n,
               o, (double)got, f_bits(got), (double)want, f_bits(want));
  }
  free(y);
}

static void row_case(uint32_t th, uint32_t tw, size_t n, size_t W, bool special) {
  float *x = malloc(4 * W * 4);
  int64_t *iw = malloc(n * tw * sizeof *iw);
  double *ww = malloc(n * tw * sizeof *ww), wh[4];
  assert_true(x && iw && ww);
  for (size_t i = 0; i < 4 * W; i++) {
    uint32_t u = rnd();
    x[i] = special && (u & 7) == 0 ? bits_f(SPECIAL[(u >> 3) % N_SPECIAL])
                                   : ((float)(u >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f) * 8.0f;
  }
  /* weights as the tap tables hold them: 1 - t, t for linear, anything (cubic may be negative) */
  for (uint32_t a = 0; a < th; a++)
    wh[a] = th == 1 ? 1.0 : (double)(int32_t)rnd() / 2147483648.0;
  for (size_t i = 0; i < n * tw; i++) {
    iw[i] = (int64_t)(rnd() % W); /* any index, repeats included (edge clamping repeats them) */
    ww[i] = tw == 1 ? 1.0 : (double)(int32_t)rnd() / 1073741824.0;
  }
  holo_resize2d_row r = {th, tw, {x, x + W, x + 2 * W, x + 3 * W}, wh, iw, ww, n};
  check(&r, holo_ukernel_resize2d_row_f32__scalar, "scalar");
#ifdef __wasm_simd128__
  check(&r, holo_ukernel_resize2d_row_f32__simd128, "simd128");
#endif
  free(x), free(iw), free(ww);
}

static void test_resize2d_rows(void **st) {
  (void)st;
  static const uint32_t T[] = {1, 2, 4};
  for (unsigned a = 0; a < 3; a++)
    for (unsigned b = 0; b < 3; b++)
      for (size_t n = 0; n <= 9; n++)
        for (size_t W = 1; W <= 5; W += 2) {
          row_case(T[a], T[b], n, W, false);
          row_case(T[a], T[b], n, W, true);
        }
}

/* A 2x bilinear row (half_pixel, the tables resize-taps.c builds): the
 * case lraspp and the U-Net spend their Resize time in. */
static void test_resize2d_bilinear_2x(void **st) {
  (void)st;
  for (size_t W = 1; W <= 17; W++) {
    size_t n = 2 * W;
    float *x = malloc(2 * W * 4);
    int64_t *iw = malloc(n * 2 * sizeof *iw);
    double *ww = malloc(n * 2 * sizeof *ww), wh[2] = {0.75, 0.25};
    assert_true(x && iw && ww);
    for (size_t i = 0; i < 2 * W; i++)
      x[i] = (float)(int32_t)rnd() / 65536.0f;
    for (size_t o = 0; o < n; o++) {
      double c = ((double)o + 0.5) / 2.0 - 0.5, f = c < 0 ? -1 : (double)(int64_t)c, t = c - f;
      int64_t i0 = (int64_t)f, i1 = i0 + 1;
      iw[2 * o] = i0 < 0 ? 0 : i0 >= (int64_t)W ? (int64_t)W - 1 : i0;
      iw[2 * o + 1] = i1 < 0 ? 0 : i1 >= (int64_t)W ? (int64_t)W - 1 : i1;
      ww[2 * o] = 1 - t, ww[2 * o + 1] = t;
    }
    holo_resize2d_row r = {2, 2, {x, x + W}, wh, iw, ww, n};
    check(&r, holo_ukernel_resize2d_row_f32__scalar, "scalar 2x");
#ifdef __wasm_simd128__
    check(&r, holo_ukernel_resize2d_row_f32__simd128, "simd128 2x");
#endif
    free(x), free(iw), free(ww);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_resize2d_rows),
      cmocka_unit_test(test_resize2d_bilinear_2x),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
