/* The integer GEMM family's microkernels (microkernels/igemm.h) in one
 * binary: packing, im2col and every tile variant against a naive exact
 * reference written here from the documented formula, over M, N = 1 .. 2 *
 * tile + 1, K = 0 .. 2 * 8 + 1 and a few long K, u8 and i8 operands with
 * extreme values and zero points, and guard values around every output.
 * In the SIMD builds the simd128 tile must give the scalar tile's bytes
 * (integer sums are exact: equality, not a tolerance). The requantization
 * (requant.h) against the formula computed in double here -- the f32
 * product is the double product of two floats rounded once, then rint --
 * with ties (multipliers 0.5, 0.25, 1.5), saturation both ways, u8 and i8,
 * per-output and shared multipliers, every length to 2 * 4 + 3; in the
 * SIMD builds the simd128 variant must give the scalar's bytes. The
 * depthwise kernels (idwconv2d.h): the padded plane then every output row,
 * scalar and (SIMD builds) simd128, against the direct window walk over X
 * with zero-point differences and padding 0, over strides 1 / 2 (and 3,
 * scalar) both ways, dilations 1 / 2, pads 0 .. 2, widths around the
 * 8-lane step, u8 and i8, extreme zero points, a guard after every row. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "microkernels/idwconv2d.h"
#include "microkernels/igemm.h"
#include "microkernels/im2col.h"
#include "microkernels/requant.h"
#include "microkernels/vquantize.h"

#define GUARD 0x5a5a5a5a

static uint32_t rng = 12345;
static uint8_t next8(void) {
  rng = rng * 1664525u + 1013904223u;
  return (uint8_t)(rng >> 24);
}
/* mostly random bytes, with the extremes (0, 255 / -128, 127) often */
static void fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    uint8_t r = next8();
    p[i] = r < 16 ? 0 : r < 32 ? 255 : r < 48 ? 128 : r < 64 ? 127 : next8();
  }
}
static int32_t at(const uint8_t *p, bool u8, size_t i) { return u8 ? (int32_t)p[i] : (int32_t)(int8_t)p[i]; }

typedef void (*tile_fn)(size_t, const int16_t *, const int16_t *, int32_t *, size_t, size_t, size_t);

/* C = (A - za) x (B - zb) through pack + the tile fn, vs the direct sums. */
static void check_gemm(size_t M, size_t N, size_t K, bool au8, bool bu8, tile_fn tile) {
  uint8_t *A = malloc(M * K + 1), *B = malloc(K * N + 1), za[64], zb[64];
  fill(A, M * K);
  fill(B, K * N);
  fill(za, M);
  fill(zb, N);
  int16_t *pa = malloc(holo_igemm_packed_a_elems(M, K) * 2 + 2),
          *pb = malloc(holo_igemm_packed_b_elems(K, N) * 2 + 2);
  holo_iop a = {A, K, 1, au8, za, 1, au8}, b = {B, 1, N, bu8, zb, 1, bu8};
  size_t rm = (M + HOLO_IGEMM_MR - 1) / HOLO_IGEMM_MR * HOLO_IGEMM_MR;
  size_t rn = (N + HOLO_IGEMM_NR - 1) / HOLO_IGEMM_NR * HOLO_IGEMM_NR;
  holo_ukernel_ipack_a_i8__scalar(pa, &a, M, K, 0, rm);
  holo_ukernel_ipack_b_i8__scalar(pb, &b, N, K, 0, rn);
  size_t ldc = N + 3, kp = holo_igemm_kp(K);
  int32_t *C = malloc((M + 1) * ldc * sizeof(int32_t));
  for (size_t i = 0; i < (M + 1) * ldc; i++)
    C[i] = GUARD;
  for (size_t j = 0; j < N; j += HOLO_IGEMM_NR)
    for (size_t i = 0; i < M; i += HOLO_IGEMM_MR)
      tile(kp, pa + i * kp, pb + j * kp, C + i * ldc + j, ldc, M - i < 4 ? M - i : 4, N - j < 8 ? N - j : 8);
  for (size_t i = 0; i <= M; i++)
    for (size_t j = 0; j < ldc; j++) {
      int32_t want = GUARD;
      if (i < M && j < N) {
        want = 0;
        for (size_t k = 0; k < K; k++)
          want += (at(A, au8, i * K + k) - at(za, au8, i)) * (at(B, bu8, k * N + j) - at(zb, bu8, j));
      }
      if (C[i * ldc + j] != want)
        fail_msg("igemm M=%zu N=%zu K=%zu (%zu,%zu): %d vs %d", M, N, K, i, j, C[i * ldc + j], want);
    }
  free(A), free(B), free(pa), free(pb), free(C);
}

static void sweep(tile_fn tile) {
  static const size_t Ks[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 64, 255, 1027};
  for (size_t M = 1; M <= 2 * HOLO_IGEMM_MR + 1; M++)
    for (size_t N = 1; N <= 2 * HOLO_IGEMM_NR + 1; N++)
      for (size_t k = 0; k < sizeof Ks / sizeof Ks[0]; k++)
        check_gemm(M, N, Ks[k], (M + k) & 1, (N + k) & 2, tile);
}

static void test_igemm_scalar(void **st) {
  (void)st;
  sweep(holo_ukernel_igemm_i8_4x8__scalar);
}

static void test_igemm_simd128(void **st) {
  (void)st;
#ifdef __wasm_simd128__
  sweep(holo_ukernel_igemm_i8_4x8__simd128);
#else
  skip();
#endif
}

/* The largest sums allowed: K = HOLO_IGEMM_MAX_K terms of 255 * 255, and
 * of -255 * 255, on the build's tile. */
static void test_igemm_extreme_k(void **st) {
  (void)st;
  size_t K = HOLO_IGEMM_MAX_K, kp = holo_igemm_kp(K);
  int16_t *pa = malloc(kp * HOLO_IGEMM_MR * 2), *pb = malloc(kp * HOLO_IGEMM_NR * 2);
  for (size_t q = 0; q < kp / 2; q++)
    for (size_t h = 0; h < 2; h++)
      for (size_t i = 0; i < HOLO_IGEMM_MR; i++)
        pa[q * 2 * HOLO_IGEMM_MR + 2 * i + h] = (int16_t)(2 * q + h < K ? (i == 1 ? -255 : 255) : 0);
  for (size_t q = 0; q < kp / 2; q++)
    for (size_t h = 0; h < 2; h++)
      for (size_t j = 0; j < HOLO_IGEMM_NR; j++)
        pb[q * 2 * HOLO_IGEMM_NR + 2 * j + h] = (int16_t)(2 * q + h < K ? 255 : 0);
  int32_t c[HOLO_IGEMM_MR * HOLO_IGEMM_NR];
  holo_igemm_i8_4x8(kp, pa, pb, c, HOLO_IGEMM_NR, HOLO_IGEMM_MR, HOLO_IGEMM_NR);
  for (size_t i = 0; i < HOLO_IGEMM_MR; i++)
    for (size_t j = 0; j < HOLO_IGEMM_NR; j++)
      assert_int_equal(c[i * HOLO_IGEMM_NR + j], (i == 1 ? -1 : 1) * 65025 * 33025);
  free(pa), free(pb);
}

typedef void (*iim2col_fn)(int16_t *, int32_t *, const void *, bool, int32_t, const holo_k_win2d *, size_t,
                           size_t, size_t);

/* One geometry: every chunk [p0, p0 + pc) of the plane through fn vs the
 * direct window walk (padding 0), and each column's sum; X is allocated to
 * its exact size so a read past the group shows under the sanitizers. */
static void iim2col_check(iim2col_fn fn, const char *name, holo_k_win2d w, size_t Cg, size_t pcmax) {
  for (int i = 0; i < 2; i++)
    w.out[i] = (w.in[i] + w.pad_begin[i] + w.pad_end[i] - (w.k[i] - 1) * w.dil[i] - 1) / w.stride[i] + 1;
  size_t H = (size_t)w.in[0], W = (size_t)w.in[1], OW = (size_t)w.out[1], kk = (size_t)(w.k[0] * w.k[1]);
  size_t K = Cg * kk, kp = holo_igemm_kp(K), plane = (size_t)(w.out[0] * w.out[1]);
  uint8_t *x = malloc(Cg * H * W);
  fill(x, Cg * H * W);
  for (int u8 = 0; u8 < 2; u8++) {
    int32_t zx = u8 ? (int32_t)next8() : (int32_t)(int8_t)next8();
    for (size_t p0 = 0; p0 < plane; p0 += pcmax / 2 + 3) {
      size_t pc = plane - p0 < pcmax ? plane - p0 : pcmax, np = (pc + 7) / 8;
      int16_t *d = malloc(np * 8 * kp * 2);
      int32_t *cs = malloc((pc + 1) * sizeof(int32_t));
      cs[pc] = GUARD;
      fn(d, cs, x, u8, zx, &w, Cg, p0, pc);
      for (size_t j = 0; j < np * 8; j++) {
        int32_t sum = 0;
        for (size_t k = 0; k < kp; k++) {
          int32_t want = 0;
          if (j < pc && k < K) {
            size_t p = p0 + j, c = k / kk, kh = k % kk / (size_t)w.k[1], kw = k % (size_t)w.k[1];
            int64_t ih = (int64_t)(p / OW) * w.stride[0] - w.pad_begin[0] + (int64_t)kh * w.dil[0];
            int64_t iw = (int64_t)(p % OW) * w.stride[1] - w.pad_begin[1] + (int64_t)kw * w.dil[1];
            if (ih >= 0 && ih < (int64_t)H && iw >= 0 && iw < (int64_t)W)
              want = at(x, u8, c * H * W + (size_t)ih * W + (size_t)iw) - zx;
          }
          sum += want;
          int16_t got = d[(j / 8) * kp * 8 + (k / 2) * 16 + 2 * (j % 8) + (k & 1)];
          if (got != want) fail_msg("%s p0=%zu j=%zu k=%zu: %d vs %d", name, p0, j, k, got, want);
        }
        if (j < pc && cs[j] != sum) fail_msg("%s colsum p0=%zu j=%zu: %d vs %d", name, p0, j, cs[j], sum);
      }
      if (cs[pc] != (int32_t)GUARD) fail_msg("%s wrote past colsum[%zu]", name, pc);
      free(d);
      free(cs);
    }
  }
  free(x);
}

/* widths around the 8-lane step and the 64-position block, strides 1 / 2 /
 * 3 each way, dilations, pads wider than the kernel, odd K, chunks that
 * start mid-row and span several rows */
static void iim2col_sweep(iim2col_fn fn, const char *name) {
  static const int64_t geo[][9] = {
      /* H, W, kH, kW, s0, s1, d0, d1, pad */
      {7, 6, 3, 2, 2, 1, 1, 2, 1},   {5, 9, 3, 3, 1, 1, 1, 1, 1},  {4, 17, 3, 3, 1, 1, 1, 1, 1},
      {3, 31, 3, 3, 1, 2, 1, 1, 1},  {6, 40, 3, 3, 2, 2, 1, 1, 1}, {5, 70, 1, 1, 1, 1, 1, 1, 0},
      {4, 23, 3, 3, 1, 1, 2, 2, 2},  {9, 16, 3, 3, 1, 1, 1, 4, 4}, {5, 21, 2, 3, 1, 3, 1, 1, 0},
      {3, 8, 3, 3, 1, 1, 1, 1, 5},   {2, 64, 1, 3, 1, 2, 1, 1, 0}, {6, 13, 7, 7, 2, 2, 1, 1, 3},
      {1, 130, 1, 1, 1, 1, 1, 1, 0}, {4, 33, 1, 1, 2, 2, 1, 1, 0},
  };
  for (size_t i = 0; i < sizeof geo / sizeof geo[0]; i++) {
    const int64_t *g = geo[i];
    holo_k_win2d w = {{g[0], g[1]}, {g[2], g[3]}, {g[4], g[5]}, {g[6], g[7]},
                      {g[8], g[8]}, {g[8], g[8]}, {0, 0}};
    for (size_t Cg = 1; Cg <= 3; Cg += 2) {
      iim2col_check(fn, name, w, Cg, 13);
      iim2col_check(fn, name, w, Cg, 128);
      iim2col_check(fn, name, w, Cg, 200);
    }
  }
}

static void test_iim2col_scalar(void **st) {
  (void)st;
  iim2col_sweep(holo_ukernel_iim2col_i8__scalar, "iim2col scalar");
}

static void test_iim2col_simd128(void **st) {
  (void)st;
#ifdef __wasm_simd128__
  iim2col_sweep(holo_ukernel_iim2col_i8__simd128, "iim2col simd128");
#else
  skip();
#endif
}

typedef void (*requant_fn)(size_t, const int32_t *, const holo_requant *, void *);

static int32_t rq_want(int32_t acc, const holo_requant *q, size_t j) {
  float f = (float)((double)(float)(int32_t)((uint32_t)acc + (uint32_t)q->bias) * (double)q->s[j * q->ss]);
  double lo = (q->u8 ? 0 : -128) - q->zp, hi = (q->u8 ? 255 : 127) - q->zp;
  double d = f < lo ? lo : f > hi ? hi : f;
  return (int32_t)rint(d) + q->zp;
}

static void rq_check(requant_fn fn, const char *name) {
  static const float mults[] = {0.5f, 0.25f, 1.5f, 1.0f, 0.0037f, 0.0123456f, 3.0e-5f, 7.5f, 1e30f};
  static const int32_t biases[] = {0, 1, -7, 100000, INT32_MAX};
  int32_t acc[16];
  float s[16];
  for (size_t n = 0; n <= 11; n++)
    for (size_t mi = 0; mi < sizeof mults / sizeof mults[0]; mi++)
      for (size_t bi = 0; bi < sizeof biases / sizeof biases[0]; bi++)
        for (int u8 = 0; u8 < 2; u8++)
          for (size_t ss = 0; ss < 2; ss++) {
            for (size_t j = 0; j < n; j++) {
              uint32_t r =
                  (uint32_t)next8() << 24 | (uint32_t)next8() << 16 | (uint32_t)next8() << 8 | next8();
              acc[j] = j % 3 == 0   ? (int32_t)r
                       : j % 3 == 1 ? (int32_t)(r % 1001) - 500
                                    : (int32_t)(r % 200001) - 100000;
              s[j] = mults[(mi + j * ss) % (sizeof mults / sizeof mults[0])];
            }
            if (n == 0) s[0] = mults[mi];
            int32_t zp = u8 ? next8() : (int32_t)(int8_t)next8();
            holo_requant q = {s, ss, biases[bi], zp, u8 != 0};
            uint8_t y[16 + 4];
            memset(y, 0xA5, sizeof y);
            fn(n, acc, &q, y);
            for (size_t j = 0; j < n + 4; j++) {
              int32_t got = j < n ? (u8 ? (int32_t)y[j] : (int32_t)(int8_t)y[j]) : y[j];
              int32_t want = j < n ? rq_want(acc[j], &q, j) : 0xA5;
              if (got != want)
                fail_msg("%s n=%zu j=%zu acc=%d bias=%d s=%g zp=%d u8=%d: %d vs %d", name, n, j,
                         j < n ? acc[j] : 0, q.bias, (double)s[j * ss], zp, u8, got, want);
            }
          }
}

static void test_requant_scalar(void **st) {
  (void)st;
  rq_check(holo_ukernel_requant_i32__scalar, "requant scalar");
}

static void test_requant_simd128(void **st) {
  (void)st;
#ifdef __wasm_simd128__
  rq_check(holo_ukernel_requant_i32__simd128, "requant simd128");
#else
  skip();
#endif
}

typedef void (*idw_fn)(const holo_k_win2d *, const int16_t *, size_t, const int16_t *, int32_t *, int64_t);

/* One depthwise geometry: the plane + idw row kernel vs the direct sums. */
static void idw_check(idw_fn fn, const char *name, const holo_k_win2d *w0, bool u8, int32_t zx, int32_t zw) {
  holo_k_win2d w = *w0;
  int64_t H = w.in[0], W = w.in[1];
  for (int a = 0; a < 2; a++)
    w.out[a] = (w.in[a] + w.pad_begin[a] + w.pad_end[a] - (w.k[a] - 1) * w.dil[a] - 1) / w.stride[a] + 1;
  if (w.out[0] < 1 || w.out[1] < 1) return;
  size_t OW = (size_t)w.out[1], K = (size_t)(w.k[0] * w.k[1]), Hp, Wp;
  holo_idwconv2d_plane_geom(&w, &Hp, &Wp);
  uint8_t *x = malloc((size_t)(H * W)), wr[64];
  int16_t *xp = malloc(Hp * Wp * sizeof(int16_t)), wt[64];
  int32_t *y = malloc((OW + 4) * sizeof(int32_t));
  fill(x, (size_t)(H * W));
  fill(wr, K);
  for (size_t t = 0; t < K; t++)
    wt[t] = (int16_t)(at(wr, u8, t) - zw);
  holo_ukernel_idwpad_i8__scalar(xp, x, u8, zx, &w);
  for (int64_t oh = 0; oh < w.out[0]; oh++) {
    for (size_t j = 0; j < OW + 4; j++)
      y[j] = GUARD;
    fn(&w, xp, Wp, wt, y, oh);
    for (size_t ow = 0; ow < OW + 4; ow++) {
      int32_t want = GUARD;
      if (ow < OW) {
        want = 0;
        for (int64_t kh = 0; kh < w.k[0]; kh++)
          for (int64_t kw = 0; kw < w.k[1]; kw++) {
            int64_t ih = oh * w.stride[0] - w.pad_begin[0] + kh * w.dil[0];
            int64_t iw = (int64_t)ow * w.stride[1] - w.pad_begin[1] + kw * w.dil[1];
            if (ih >= 0 && ih < H && iw >= 0 && iw < W)
              want += (at(x, u8, (size_t)(ih * W + iw)) - zx) * wt[kh * w.k[1] + kw];
          }
      }
      if (y[ow] != want)
        fail_msg("%s in %lldx%lld k %lldx%lld s %lld,%lld d %lld,%lld pads %lld,%lld,%lld,%lld (%lld,%zu): "
                 "%d vs %d",
                 name, (long long)H, (long long)W, (long long)w.k[0], (long long)w.k[1],
                 (long long)w.stride[0], (long long)w.stride[1], (long long)w.dil[0], (long long)w.dil[1],
                 (long long)w.pad_begin[0], (long long)w.pad_begin[1], (long long)w.pad_end[0],
                 (long long)w.pad_end[1], (long long)oh, ow, y[ow], want);
    }
  }
  free(x), free(xp), free(y);
}

static void idw_sweep(idw_fn fn, const char *name, int64_t smax) {
  static const int64_t Hs[] = {1, 4, 7}, Ws[] = {1, 3, 7, 8, 9, 16, 17, 23};
  static const int64_t ks[][2] = {{1, 1}, {3, 3}, {2, 3}, {5, 5}, {3, 1}};
  static const int32_t zs[][2] = {{0, 0}, {255, 0}, {128, 127}, {-128, 127}, {3, -5}};
  size_t n = 0;
  for (size_t h = 0; h < sizeof Hs / sizeof Hs[0]; h++)
    for (size_t wi = 0; wi < sizeof Ws / sizeof Ws[0]; wi++)
      for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++)
        for (int64_t s0 = 1; s0 <= 2; s0++)
          for (int64_t s1 = 1; s1 <= smax; s1++)
            for (int64_t d = 1; d <= 2; d++)
              for (int64_t pad = 0; pad < 4; pad++, n++) {
                bool u8 = n & 1;
                const int32_t *z = zs[n % 5];
                /* pads: none, 1 all round, 2 before, asymmetric */
                int64_t pt = pad == 1   ? 1
                             : pad == 2 ? 2
                             : pad == 3 ? 0
                                        : 0,
                        pl = pad == 1   ? 1
                             : pad == 2 ? 2
                             : pad == 3 ? 1
                                        : 0,
                        pb = pad == 1   ? 1
                             : pad == 3 ? 2
                                        : 0,
                        pr = pad == 1   ? 1
                             : pad == 3 ? 0
                                        : 0;
                holo_k_win2d w = {{Hs[h], Ws[wi]}, {ks[k][0], ks[k][1]},
                                  {s0, s1},        {d, (d == 2 && (n & 2)) ? 1 : d},
                                  {pt, pl},        {pb, pr},
                                  {0, 0}};
                int32_t zx = u8 ? (z[0] < 0 ? 0 : z[0]) : (z[0] > 127 ? 127 : z[0]);
                int32_t zw = u8 ? (z[1] < 0 ? 0 : z[1]) : z[1];
                idw_check(fn, name, &w, u8, zx, zw);
              }
}

static void test_idwconv2d_scalar(void **st) {
  (void)st;
  idw_sweep(holo_ukernel_idwconv2d_i16_row__scalar, "idwconv2d scalar", 3);
}

static void test_idwconv2d_simd128(void **st) {
  (void)st;
#ifdef __wasm_simd128__
  idw_sweep(holo_ukernel_idwconv2d_i16_row__simd128, "idwconv2d simd128", 2);
#else
  skip();
#endif
}

/* The extreme sums of a tap: 255 * 255 and -255 * 255 summed over a 5x5
 * window on every variant (u8 x, zx 0 / 255 with i8-range weights). */
static void test_idwconv2d_extreme(void **st) {
  (void)st;
  holo_k_win2d w = {{5, 13}, {5, 5}, {1, 1}, {1, 1}, {0, 0}, {0, 0}, {1, 9}};
  size_t Hp, Wp;
  holo_idwconv2d_plane_geom(&w, &Hp, &Wp);
  uint8_t x[5 * 13];
  int16_t *xp = malloc(Hp * Wp * sizeof(int16_t)), wt[25];
  int32_t y[9];
  for (int v = 0; v < 2; v++) {
    memset(x, v ? 0 : 255, sizeof x);
    holo_ukernel_idwpad_i8__scalar(xp, x, true, v ? 255 : 0, &w);
    for (size_t t = 0; t < 25; t++)
      wt[t] = (int16_t)(t & 1 ? -255 : 255);
    holo_idwconv2d_i16_row(&w, xp, Wp, wt, y, 0);
    for (size_t j = 0; j < 9; j++)
      assert_int_equal(y[j], (v ? -1 : 1) * 65025);
  }
  free(xp);
}

/* QuantizeLinear's pass (vquantize.h): the scalar reference against a few
 * worked values, and in the SIMD builds the simd128 variant against the
 * scalar over NaN, infinities, ties, saturation both ways, signed zeros,
 * subnormals, every length to 40 (the 16-step and its tail), u8 and i8. */
static void test_vquantize(void **st) {
  (void)st;
  const float x0[8] = {2.5f, 3.5f, -2.5f, 1e9f, -1e9f, NAN, 0.49999997f, -0.0f};
  uint8_t y0[8];
  holo_ukernel_vquantize_f32_q8__scalar(x0, 8, 1.0f, 10, true, y0);
  const uint8_t want[8] = {12, 14, 8, 255, 0, 0, 10, 10};
  for (size_t i = 0; i < 8; i++)
    assert_int_equal(y0[i], want[i]);
#ifdef __wasm_simd128__
  float x[40];
  uint8_t a[40], b[40];
  static const float scales[] = {1.0f, 0.5f, 0.1f, 3e-3f, 7.0f, 0.0f, 1e-40f};
  static const int32_t zps[] = {0, 128, 255, -128, 127, 3};
  for (size_t t = 0; t < 200; t++) {
    for (size_t i = 0; i < 40; i++) {
      uint8_t r = next8();
      x[i] = r < 20   ? NAN
             : r < 30 ? INFINITY
             : r < 40 ? -INFINITY
             : r < 60 ? (float)((int)next8() - 128) + 0.5f
             : r < 70 ? -0.0f
             : r < 80 ? 1e-42f
                      : ((float)next8() - 128.0f) * 1.37f + (float)next8() / 256.0f;
    }
    float s = scales[t % 7];
    bool u8 = t & 1;
    int32_t zp = zps[t % 6];
    if (u8 && zp < 0) zp = 0;
    if (!u8 && zp > 127) zp = 127;
    for (size_t n = 0; n <= 40; n += 1 + (t & 3)) {
      memset(a, 0xa5, sizeof a);
      memset(b, 0xa5, sizeof b);
      holo_ukernel_vquantize_f32_q8__scalar(x, n, s, zp, u8, a);
      holo_ukernel_vquantize_f32_q8__simd128(x, n, s, zp, u8, b);
      if (memcmp(a, b, sizeof a)) fail_msg("vquantize simd128 n=%zu s=%g zp=%d u8=%d", n, (double)s, zp, u8);
    }
  }
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_igemm_scalar),      cmocka_unit_test(test_igemm_simd128),
      cmocka_unit_test(test_igemm_extreme_k),   cmocka_unit_test(test_iim2col_scalar),
      cmocka_unit_test(test_iim2col_simd128),   cmocka_unit_test(test_requant_scalar),
      cmocka_unit_test(test_requant_simd128),   cmocka_unit_test(test_idwconv2d_scalar),
      cmocka_unit_test(test_idwconv2d_simd128), cmocka_unit_test(test_idwconv2d_extreme),
      cmocka_unit_test(test_vquantize),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
