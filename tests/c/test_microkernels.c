/* The microkernel tester, in XNNPACK's manner: every SIMD microkernel
 * against its scalar reference in ONE binary (kernels-wasm-simd/microkernels/),
 * over sizes 1 .. 2*tile+1 in every dimension, strides, misaligned
 * starts, and NaN / +-Inf / -0 / subnormal inputs; outputs must be the same
 * bytes (the contract, docs/kernels.md: only the sign and payload of a NaN
 * that arithmetic produced may differ; data movement and max-pooling must
 * match bit for bit), and nothing outside the output may be written.
 *
 * Each pair is also checked against a naive reference written here from the
 * kernel's documented operation order, so the native build (no SIMD: the
 * __simd128 functions do not exist there) still tests the scalar kernels.
 * The relaxed-SIMD build holds the SIMD128 variants too (checked against
 * the scalar bytes as in the SIMD128 build) and the relaxed GEMM core and
 * depthwise Conv kernels, which use f32x4.relaxed_madd, fused where the
 * engine fuses: their reference multiplies-adds with the same instruction
 * (one lane). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "math/mathlib.h"
#include "math/vexpf.h"
#include "microkernels/axis.h"
#include "microkernels/dwconv2d.h"
#include "microkernels/gemm.h"
#include "microkernels/im2col.h"
#include "microkernels/layernorm.h"
#include "microkernels/pool2d.h"
#include "microkernels/reduce.h"
#include "microkernels/rnncell.h"
#include "microkernels/transpose.h"
#include "microkernels/vbroadcast.h"
#include "operators/products.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#define HAVE_SIMD 1
#else
#define HAVE_SIMD 0
#endif

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

/* ---------------------------------------------------------------- data */

static uint32_t rs = 0x9e3779b9u;
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

/* NaNs (quiet, signalling, negative, with payloads), infinities, zeros,
 * subnormals, the extremes. */
static const uint32_t SPECIAL[] = {0x7fc00000u, 0xffc00000u, 0x7fa00001u, 0x7fc12345u, 0x7f800000u,
                                   0xff800000u, 0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu,
                                   0x00800000u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0xbf800000u};
#define N_SPECIAL (sizeof SPECIAL / sizeof SPECIAL[0])

/* n values in [-s, s]; with `special`, about one in eight is special. */
static void fill(float *p, size_t n, float s, bool special) {
  for (size_t i = 0; i < n; i++) {
    uint32_t r = rnd();
    if (special && (r & 7) == 0)
      p[i] = bits_f(SPECIAL[(r >> 3) % N_SPECIAL]);
    else
      p[i] = ((float)(r >> 8) * (1.0f / 16777216.0f) * 2.0f - 1.0f) * s;
  }
}

/* Buffers with a guard band: `off` floats of misalignment in front (from a
 * 16-byte aligned base), then n floats, then GUARD sentinel floats. */
#define GUARD 8
static const uint32_t SENTINEL = 0x7fbadbadu;
typedef struct {
  float *base, *p;
  size_t n, off;
} buf;
static buf balloc(size_t n, size_t off) {
  buf b = {0, 0, n, off};
  b.base = aligned_alloc(16, ((off + n + GUARD) * 4 + 15) / 16 * 16);
  assert_non_null(b.base);
  for (size_t i = 0; i < off + n + GUARD; i++)
    b.base[i] = bits_f(SENTINEL);
  b.p = b.base + off;
  return b;
}
static void bguard(const buf *b, const char *ctx) {
  for (size_t i = 0; i < b->off; i++)
    if (f_bits(b->base[i]) != SENTINEL) fail_msg("%s: wrote %zu floats before the output", ctx, b->off - i);
  for (size_t i = 0; i < GUARD; i++)
    if (f_bits(b->p[b->n + i]) != SENTINEL) fail_msg("%s: wrote past the output (+%zu)", ctx, i);
}
static void bfree(buf *b) { free(b->base); }
/* The output back to sentinels before the next variant writes it. */
static __attribute__((unused)) void sentinel(buf *b) {
  for (size_t i = 0; i < b->n; i++)
    b->p[i] = bits_f(SENTINEL);
}

/* Same bytes; with nan_any, any NaN equals any NaN (the documented
 * exception for NaNs that arithmetic produces). */
static void expect_same(const float *got, const float *want, size_t n, bool nan_any, const char *what,
                        const char *ctx) {
  for (size_t i = 0; i < n; i++) {
    uint32_t a = f_bits(got[i]), b = f_bits(want[i]);
    if (a == b || (nan_any && got[i] != got[i] && want[i] != want[i])) continue;
    fail_msg("%s, %s: element %zu: %.9g (0x%08x) vs %.9g (0x%08x)", what, ctx, i, (double)got[i], a,
             (double)want[i], b);
  }
}

/* The multiply-adds of the GEMM / depthwise variants: separate rounding
 * steps, and relaxed_madd (one lane of the instruction) in the relaxed
 * build's relaxed variants. */
static float madd_plain(float acc, float a, float b) { return acc + a * b; }
#ifdef __wasm_relaxed_simd__
static float madd_relaxed(float acc, float a, float b) {
  return wasm_f32x4_extract_lane(
      wasm_f32x4_relaxed_madd(wasm_f32x4_splat(a), wasm_f32x4_splat(b), wasm_f32x4_splat(acc)), 0);
}
#define madd madd_relaxed
#else
#define madd madd_plain
#endif

/* The epilogue steps of gemm.h, written out independently. */
static float epi(const holo_gemm *g, size_t i, size_t j, float v) {
  if (g->scale) v = g->alpha * v;
  if (g->bias) {
    float b = g->bias[i * g->brs + j * g->bcs];
    v = v + (g->bias_scaled ? g->beta * b : b);
  }
  if (g->relu && v < 0.0f) v = 0.0f;
  if (g->lo_on && v < g->lo) v = g->lo;
  if (g->hi_on && v > g->hi) v = g->hi;
  return v;
}

/* ---------------------------------------------------------------- GEMM */

static float gemm_b(const holo_gemm *g, size_t k, size_t j) {
  if (!g->Bp) return g->B[k * g->ldb + j];
  size_t w = g->bpw ? g->bpw : HOLO_GEMM_NR;
  return g->Bp[(j / w) * g->K * w + k * w + j % w];
}

/* The order contract: acc = +0, acc + A(i,k)*B(k,j) for k ascending. */
static void gemm_ref(const holo_gemm *g, float (*ma)(float, float, float)) {
  for (size_t i = 0; i < g->M; i++)
    for (size_t j = 0; j < g->N; j++) {
      float acc = 0.0f;
      for (size_t k = 0; k < g->K; k++)
        acc = ma(acc, g->A[i * g->rsa + k * g->csa], gemm_b(g, k, j));
      g->C[i * g->ldc + j] = epi(g, i, j, acc);
    }
}

/* The epilogue of case c: none, alpha, a bias row, beta * a full bias
 * matrix + Relu, Clip, a scalar bias + Relu + upper clip. */
static void gemm_epilogue(holo_gemm *g, unsigned c, const float *bias) {
  switch (c % 6) {
  case 1: g->scale = true, g->alpha = 0.75f; break;
  case 2: g->bias = bias, g->bcs = 1; break;
  case 3:
    g->bias = bias, g->brs = g->N, g->bcs = 1, g->bias_scaled = true, g->beta = -1.5f, g->relu = true;
    break;
  case 4: g->lo_on = true, g->lo = -0.25f, g->hi_on = true, g->hi = 0.5f; break;
  case 5: g->bias = bias, g->relu = true, g->hi_on = true, g->hi = 1.0f; break;
  default: break;
  }
}

/* Runs one core into a fresh guarded C and compares it with want. */
static void gemm_check(holo_gemm g, void (*core)(const holo_gemm *), const float *want, size_t off,
                       const char *what, const char *ctx) {
  size_t n = (g.M - 1) * g.ldc + g.N;
  buf c = balloc(n, off);
  g.C = c.p;
  core(&g);
  bguard(&c, ctx);
  for (size_t i = 0; i < g.M; i++) {
    expect_same(c.p + i * g.ldc, want + i * g.ldc, g.N, true, what, ctx);
    for (size_t j = g.N; i + 1 < g.M && j < g.ldc; j++) /* the gaps between rows stay */
      if (f_bits(c.p[i * g.ldc + j]) != SENTINEL)
        fail_msg("%s, %s: wrote C(%zu, %zu) past N", what, ctx, i, j);
  }
  bfree(&c);
}

/* One shape in one layout: 0 unpacked B, 1/2 packed panels of 8/32,
 * 3/4 the same with packed A; A unit-stride or transposed. */
static void gemm_case(size_t M, size_t N, size_t K, unsigned layout, bool at, unsigned c) {
  char ctx[160];
  size_t off = c % 4, rsa = at ? 1 : K + c % 3, csa = at ? M + c % 3 : 1, ldb = N + c % 5;
  size_t w = layout == 2 || layout == 4 ? HOLO_GEMM_NR_WIDE : HOLO_GEMM_NR, ldc = N + c % 3;
  snprintf(ctx, sizeof ctx, "M=%zu N=%zu K=%zu layout=%u A%s epilogue=%u off=%zu", M, N, K, layout,
           at ? "^T" : "", c % 6, off);
  bool special = c % 3 == 0;
  buf a = balloc((M - 1) * rsa + (K - 1) * csa + 1, off), b = balloc((K - 1) * ldb + N, (off + 1) % 4);
  buf bias = balloc(M * N, off), bp = balloc(holo_gemm_packed_floats_w(K, N, w), 0);
  buf ap = balloc(holo_gemm_packed_a_floats(M, K), 0);
  fill(a.p, a.n, 2.0f, special);
  fill(b.p, b.n, 2.0f, special);
  fill(bias.p, bias.n, 1.0f, special);
  holo_gemm g = {.M = M, .N = N, .K = K, .A = a.p, .rsa = rsa, .csa = csa, .B = b.p, .ldb = ldb, .ldc = ldc};
  gemm_epilogue(&g, c, bias.p);
  if (layout) {
    holo_gemm_pack_b_w(bp.p, b.p, ldb, 1, K, N, w);
    bguard(&bp, ctx);
    g.Bp = bp.p, g.bpw = w;
  }
  if (layout >= 3) {
    holo_gemm_pack_a_par(&g, ap.p, NULL, NULL);
    bguard(&ap, ctx);
  }
  size_t n = (M - 1) * ldc + N;
  float *want = malloc(n * 4), *plain = malloc(n * 4);
  g.C = plain;
  gemm_ref(&g, madd_plain);
  gemm_check(g, holo_gemm_f32__scalar, plain, off, "gemm scalar vs reference", ctx);
#if HAVE_SIMD
  gemm_check(g, holo_gemm_f32__simd128, plain, off, "gemm simd128 vs scalar", ctx);
#endif
#ifdef __wasm_relaxed_simd__
  g.C = want;
  gemm_ref(&g, madd_relaxed);
  gemm_check(g, holo_gemm_f32__relaxedsimd, want, off, "gemm relaxedsimd vs reference", ctx);
#else
  memcpy(want, plain, n * 4);
#endif
  gemm_check(g, holo_gemm_f32, want, off, "gemm dispatch", ctx);
  free(want);
  free(plain);
  bfree(&a), bfree(&b), bfree(&bias), bfree(&bp), bfree(&ap);
}

/* Tiles are 4 x 8 (rows x columns), a lone row spans 32 columns, rows
 * block by 64: each dimension over 1 .. 2*tile+1 and around the blocks. */
static const size_t GM[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 63, 64, 65};
static const size_t GN[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                            13, 14, 15, 16, 17, 31, 32, 33, 63, 64, 65};
static const size_t GK[] = {1, 2, 3, 4, 5, 8, 9, 17};

static void test_gemm(void **st) {
  (void)st;
  unsigned c = 0;
  for (size_t mi = 0; mi < sizeof GM / sizeof *GM; mi++)
    for (size_t ni = 0; ni < sizeof GN / sizeof *GN; ni++)
      for (size_t ki = 0; ki < sizeof GK / sizeof *GK; ki++) {
        /* the 64-row blocks only with a few N, K: they multiply the cost */
        if (GM[mi] > 9 && (ni % 4 || ki % 3)) continue;
        for (unsigned layout = 0; layout < 5; layout++)
          for (int at = 0; at < 2; at++)
            gemm_case(GM[mi], GN[ni], GK[ki], layout, at, c++);
      }
}

/* Packing A (4-row strips) is data movement: bit for bit, NaN payloads too. */
static void test_pack_a(void **st) {
  (void)st;
  char ctx[96];
  for (size_t M = 1; M <= 13; M++)
    for (size_t K = 1; K <= 17; K++)
      for (int at = 0; at < 2; at++) {
        size_t off = (M + K) % 4, rsa = at ? 1 : K + off, csa = at ? M + 1 : 1;
        snprintf(ctx, sizeof ctx, "pack A M=%zu K=%zu A%s off=%zu", M, K, at ? "^T" : "", off);
        buf a = balloc((M - 1) * rsa + (K - 1) * csa + 1, off);
        for (size_t i = 0; i < a.n; i++)
          a.p[i] = bits_f(rnd());
        holo_gemm g = {.M = M, .K = K, .A = a.p, .rsa = rsa, .csa = csa};
        size_t n = holo_gemm_packed_a_floats(M, K);
        float *want = malloc(n * 4);
        for (size_t s = 0; s < M; s += 4)
          for (size_t k = 0; k < K; k++)
            for (size_t r = 0; r < 4; r++)
              want[s * K + k * 4 + r] = s + r < M ? a.p[(s + r) * rsa + k * csa] : 0.0f;
        buf d = balloc(n, 0);
        holo_gemm_pack_a_rows__scalar(d.p, &g, 0, M);
        bguard(&d, ctx);
        expect_same(d.p, want, n, false, "scalar", ctx);
#if HAVE_SIMD
        memset(d.p, 0xee, n * 4);
        holo_gemm_pack_a_rows__simd128(d.p, &g, 0, M);
        bguard(&d, ctx);
        expect_same(d.p, want, n, false, "simd128", ctx);
#endif
        memset(d.p, 0xee, n * 4);
        holo_gemm_pack_a_par(&g, d.p, NULL, NULL);
        bguard(&d, ctx);
        expect_same(d.p, want, n, false, "dispatch", ctx);
        free(want);
        bfree(&d), bfree(&a);
      }
}

/* ------------------------------------------------------ depthwise Conv */

static bool win(holo_k_win2d *w, const int64_t in[2], const int64_t k[2], const int64_t s[2], int64_t d,
                const int64_t pb[2], const int64_t pe[2]) {
  for (int a = 0; a < 2; a++) {
    w->in[a] = in[a], w->k[a] = k[a], w->stride[a] = s[a], w->dil[a] = d;
    w->pad_begin[a] = pb[a], w->pad_end[a] = pe[a];
    int64_t span = (k[a] - 1) * d + 1, room = in[a] + pb[a] + pe[a] - span;
    if (room < 0) return false;
    w->out[a] = room / s[a] + 1;
  }
  return true;
}

/* acc = +0, acc + w*x over (kh, kw) ascending, a padding tap adding w*0,
 * then bias and the activation. */
static void dw_ref(const holo_k_win2d *w, size_t N, size_t C, const float *X, const float *Wt, const float *B,
                   const holo_gemm *e, float *Y, float (*ma)(float, float, float)) {
  const int64_t H = w->in[0], W = w->in[1], OH = w->out[0], OW = w->out[1];
  for (size_t nc = 0; nc < N * C; nc++)
    for (int64_t oh = 0; oh < OH; oh++)
      for (int64_t ow = 0; ow < OW; ow++) {
        float acc = 0.0f;
        for (int64_t kh = 0; kh < w->k[0]; kh++)
          for (int64_t kw = 0; kw < w->k[1]; kw++) {
            int64_t ih = oh * w->stride[0] - w->pad_begin[0] + kh * w->dil[0];
            int64_t iw = ow * w->stride[1] - w->pad_begin[1] + kw * w->dil[1];
            float wv = Wt[(nc % C) * (size_t)(w->k[0] * w->k[1]) + (size_t)(kh * w->k[1] + kw)];
            if (ih >= 0 && ih < H && iw >= 0 && iw < W)
              acc = ma(acc, wv, X[nc * (size_t)(H * W) + (size_t)(ih * W + iw)]);
            else
              acc = acc + wv * 0.0f;
          }
        holo_gemm g = *e;
        g.bias = B ? B + nc % C : 0;
        Y[(nc * (size_t)OH + (size_t)oh) * (size_t)OW + (size_t)ow] = epi(&g, 0, 0, acc);
      }
}

static void dw_case(const holo_k_win2d *w, size_t N, size_t C, unsigned c) {
  char ctx[200];
  snprintf(ctx, sizeof ctx,
           "dw N=%zu C=%zu in=%lldx%lld k=%lldx%lld s=%lldx%lld d=%lld pads=%lld,%lld,%lld,%lld", N, C,
           (long long)w->in[0], (long long)w->in[1], (long long)w->k[0], (long long)w->k[1],
           (long long)w->stride[0], (long long)w->stride[1], (long long)w->dil[0], (long long)w->pad_begin[0],
           (long long)w->pad_begin[1], (long long)w->pad_end[0], (long long)w->pad_end[1]);
  size_t off = c % 4, nx = N * C * (size_t)(w->in[0] * w->in[1]),
         ny = N * C * (size_t)(w->out[0] * w->out[1]);
  buf x = balloc(nx, off), wt = balloc(C * (size_t)(w->k[0] * w->k[1]), (off + 1) % 4), b = balloc(C, 0);
  bool special = c % 3 == 0;
  fill(x.p, x.n, 2.0f, special);
  fill(wt.p, wt.n, 1.0f, special);
  fill(b.p, b.n, 1.0f, special);
  holo_gemm e = {0};
  if (c % 4 == 1) e.relu = true;
  if (c % 4 == 2) e.lo_on = true, e.lo = 0.0f, e.hi_on = true, e.hi = 0.5f;
  const float *B = c % 5 == 4 ? NULL : b.p;
  float *want = malloc(ny * 4), *want_plain = malloc(ny * 4);
  dw_ref(w, N, C, x.p, wt.p, B, &e, want_plain, madd_plain);
  dw_ref(w, N, C, x.p, wt.p, B, &e, want, madd);
  /* the rows kernels: the scalar reference, and the relaxed build's own */
  buf y = balloc(ny, off), ws = balloc((size_t)w->out[1], 0);
  float *scalar = malloc(ny * 4);
  holo_ukernel_dwconv2d_f32_rows__scalar(w, C, x.p, wt.p, B, y.p, &e, ws.p, 0, N * C);
  bguard(&y, ctx), bguard(&ws, ctx);
  expect_same(y.p, want_plain, ny, true, "dwconv rows scalar vs reference", ctx);
  memcpy(scalar, y.p, ny * 4);
#ifdef __wasm_relaxed_simd__
  sentinel(&y);
  holo_ukernel_dwconv2d_f32_rows__relaxedsimd(w, C, x.p, wt.p, B, y.p, &e, ws.p, 0, N * C);
  bguard(&y, ctx), bguard(&ws, ctx);
  expect_same(y.p, want, ny, true, "dwconv rows relaxedsimd vs reference", ctx);
#endif
  bfree(&ws);
#if HAVE_SIMD
  /* the plane kernels, width strides 1 and 2 */
  assert_int_equal(holo_dwconv2d_plane_ok(w), w->stride[1] == 1 || w->stride[1] == 2);
  if (holo_dwconv2d_plane_ok(w)) {
    ws = balloc(holo_dwconv2d_plane_floats(w), 0);
    sentinel(&y);
    holo_ukernel_dwconv2d_f32_plane__simd128(w, C, x.p, wt.p, B, y.p, &e, ws.p, 0, N * C);
    bguard(&y, ctx), bguard(&ws, ctx);
    expect_same(y.p, scalar, ny, true, "dwconv plane simd128 vs rows scalar", ctx);
#ifdef __wasm_relaxed_simd__
    sentinel(&y);
    holo_ukernel_dwconv2d_f32_plane__relaxedsimd(w, C, x.p, wt.p, B, y.p, &e, ws.p, 0, N * C);
    bguard(&y, ctx), bguard(&ws, ctx);
    expect_same(y.p, want, ny, true, "dwconv plane relaxedsimd vs reference", ctx);
#endif
    bfree(&ws);
  }
#endif
  free(scalar);
  free(want), free(want_plain);
  bfree(&x), bfree(&wt), bfree(&b), bfree(&y);
}

/* Output width and height 1 .. 9 (2 x the 4-wide step + 1), kernels incl.
 * the 3x3 fast path, width strides 1, 2 (SIMD) and 3 (scalar only),
 * dilation, asymmetric padding larger than the kernel's reach. */
static void test_dwconv(void **st) {
  (void)st;
  static const int64_t ks[][2] = {{1, 1}, {3, 3}, {1, 3}, {3, 1}, {2, 2}, {2, 5}, {4, 4}};
  static const int64_t ss[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}, {1, 3}};
  static const int64_t ps[][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {0, 2, 1, 0}, {2, 0, 0, 3}};
  unsigned c = 0;
  for (int64_t H = 1; H <= 9; H++)
    for (int64_t W = 1; W <= 12; W++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++)
        for (size_t si = 0; si < sizeof ss / sizeof *ss; si++)
          for (int64_t d = 1; d <= 2; d++) {
            holo_k_win2d w;
            const int64_t *p = ps[c % 4], in[2] = {H, W}, pb[2] = {p[0], p[1]}, pe[2] = {p[2], p[3]};
            if (!win(&w, in, ks[ki], ss[si], d, pb, pe) || w.out[1] > 9) {
              c++;
              continue;
            }
            dw_case(&w, 1 + c % 2, 1 + c % 3, c);
            c++;
          }
}

/* ------------------------------------------------------------- MaxPool */

/* The window in ascending (kh, kw); padding never enters; the first NaN
 * met is the result. */
static float maxpool_ref(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow) {
  float mx = -__builtin_inff();
  for (int64_t kh = 0; kh < w->k[0]; kh++)
    for (int64_t kw = 0; kw < w->k[1]; kw++) {
      int64_t ih = oh * w->stride[0] - w->pad_begin[0] + kh * w->dil[0];
      int64_t iw = ow * w->stride[1] - w->pad_begin[1] + kw * w->dil[1];
      if (ih < 0 || ih >= w->in[0] || iw < 0 || iw >= w->in[1]) continue;
      float v = xp[ih * w->in[1] + iw];
      if (mx != mx) continue;
      if (v != v || v > mx) mx = v;
    }
  return mx;
}

/* MaxPool with Indices: the window in ascending (kh, kw); the first element
 * larger than every earlier one, or the first NaN, is chosen; the index is
 * base + its row-major (or column-major) position in the plane. */
static int64_t maxpool_argmax_ref(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow, bool col_major) {
  float mx = -__builtin_inff();
  int64_t best = -1;
  for (int64_t kh = 0; kh < w->k[0]; kh++)
    for (int64_t kw = 0; kw < w->k[1]; kw++) {
      int64_t ih = oh * w->stride[0] - w->pad_begin[0] + kh * w->dil[0];
      int64_t iw = ow * w->stride[1] - w->pad_begin[1] + kw * w->dil[1];
      if (ih < 0 || ih >= w->in[0] || iw < 0 || iw >= w->in[1] || mx != mx) continue;
      float v = xp[ih * w->in[1] + iw];
      if (best < 0 || v != v || v > mx) mx = v, best = col_major ? ih + iw * w->in[0] : ih * w->in[1] + iw;
    }
  return best;
}

/* The whole-plane Indices kernel: Y the same bytes as the row kernel's
 * reference, every index the reference's plus the plane base. */
static void maxpool_argmax_case(const holo_k_win2d *w, const float *xp, unsigned c, const char *ctx) {
  size_t n = (size_t)(w->out[0] * w->out[1]);
  float *y = malloc(n * 4 + 4), *want = malloc(n * 4 + 4);
  int64_t *idx = malloc(n * 8 + 8), base = (int64_t)(c % 3) * w->in[0] * w->in[1];
  bool col = c % 2;
  holo_ukernel_maxpool2d_argmax_f32__scalar(xp, w, base, col, y, idx);
  for (int64_t oh = 0; oh < w->out[0]; oh++)
    for (int64_t ow = 0; ow < w->out[1]; ow++) {
      size_t o = (size_t)(oh * w->out[1] + ow);
      want[o] = maxpool_ref(xp, w, oh, ow);
      int64_t ref = maxpool_argmax_ref(xp, w, oh, ow, col);
      if (ref >= 0 && idx[o] != base + ref) {
        fprintf(stderr, "maxpool argmax %s col_major=%d: output %zu index %lld, expected %lld\n", ctx, (int)col, o,
                (long long)idx[o], (long long)(base + ref));
        fail_msg("maxpool argmax index");
      }
    }
  expect_same(y, want, n, false, "maxpool argmax Y vs reference", ctx);
  free(y), free(want), free(idx);
}

static void maxpool_case(const holo_k_win2d *w, unsigned c) {
  char ctx[200];
  snprintf(ctx, sizeof ctx, "maxpool in=%lldx%lld k=%lldx%lld s=%lldx%lld d=%lld pads=%lld,%lld,%lld,%lld",
           (long long)w->in[0], (long long)w->in[1], (long long)w->k[0], (long long)w->k[1],
           (long long)w->stride[0], (long long)w->stride[1], (long long)w->dil[0], (long long)w->pad_begin[0],
           (long long)w->pad_begin[1], (long long)w->pad_end[0], (long long)w->pad_end[1]);
  size_t off = c % 4, OW = (size_t)w->out[1];
  buf x = balloc((size_t)(w->in[0] * w->in[1]), off), y = balloc(OW, (off + 3) % 4);
  fill(x.p, x.n, 4.0f, c % 2 == 0);
  float *want = malloc(OW * 4);
  for (int64_t oh = 0; oh < w->out[0]; oh++) {
    for (size_t ow = 0; ow < OW; ow++)
      want[ow] = maxpool_ref(x.p, w, oh, (int64_t)ow);
    holo_ukernel_maxpool2d_row_f32__scalar(x.p, w, oh, y.p);
    bguard(&y, ctx);
    expect_same(y.p, want, OW, false, "maxpool scalar vs reference", ctx);
#if HAVE_SIMD
    for (size_t i = 0; i < OW; i++)
      y.p[i] = bits_f(SENTINEL);
    holo_ukernel_maxpool2d_row_f32__simd128(x.p, w, oh, y.p);
    bguard(&y, ctx);
    expect_same(y.p, want, OW, false, "maxpool simd128 vs reference", ctx);
#endif
  }
  maxpool_argmax_case(w, x.p, c, ctx);
  free(want);
  bfree(&x), bfree(&y);
}

/* Output widths 1 .. 9 and rows wide enough for several 4-wide groups
 * (stride 2 reads one column further), strides 1..3, dilation, padding
 * beyond the input (ceil_mode's windows). */
static void test_maxpool(void **st) {
  (void)st;
  static const int64_t ps[][4] = {{0, 0, 0, 0}, {1, 1, 1, 1}, {0, 2, 1, 0}, {1, 0, 2, 3}};
  unsigned c = 0;
  for (int64_t H = 1; H <= 4; H++)
    for (int64_t W = 1; W <= 24; W++)
      for (int64_t kh = 1; kh <= 3; kh++)
        for (int64_t kw = 1; kw <= 4; kw++)
          for (int64_t s = 1; s <= 3; s++)
            for (int64_t d = 1; d <= 2; d++) {
              holo_k_win2d w;
              const int64_t *p = ps[c % 4], in[2] = {H, W}, k[2] = {kh, kw}, str[2] = {1 + c % 2, s};
              const int64_t pb[2] = {p[0], p[1]}, pe[2] = {p[2], p[3]};
              if (win(&w, in, k, str, d, pb, pe) && w.out[1] <= 9) maxpool_case(&w, c);
              c++;
            }
}

/* -------------------------------------------------------------- Softmax */

/* Per row: the max of the non-NaN values, exp(x - max) by holo_vexpf_nonpos, the
 * ascending f32 sum, one division per element. */
static void softmax_ref(const float *x, float *y, size_t n, size_t rows) {
  for (size_t r = 0; r < rows; r++) {
    const float *xr = x + r * n;
    float *yr = y + r * n, mx = -__builtin_inff(), sum = 0.0f;
    for (size_t i = 0; i < n; i++)
      if (xr[i] > mx) mx = xr[i];
    for (size_t i = 0; i < n; i++)
      sum += yr[i] = holo_vexpf_nonpos(xr[i] - mx);
    for (size_t i = 0; i < n; i++)
      yr[i] = yr[i] / sum;
  }
}

static void test_softmax(void **st) {
  (void)st;
  static const size_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100};
  char ctx[96];
  unsigned c = 0;
  for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
    for (size_t rows = 1; rows <= 9; rows++, c++) {
      size_t n = ns[ni], off = c % 4;
      snprintf(ctx, sizeof ctx, "softmax n=%zu rows=%zu off=%zu", n, rows, off);
      buf x = balloc(n * rows, off), y = balloc(n * rows, (off + 2) % 4);
      /* wide values reach exp's overflow / underflow cases (> 88.8, < -104) */
      fill(x.p, x.n, c % 2 ? 8.0f : 120.0f, c % 3 == 0);
      float *want = malloc(x.n * 4);
      softmax_ref(x.p, want, n, rows);
      holo_ukernel_softmax_f32__scalar(x.p, y.p, rows, n, 1);
      bguard(&y, ctx);
      expect_same(y.p, want, x.n, true, "softmax scalar vs reference", ctx);
#if HAVE_SIMD
      for (size_t i = 0; i < x.n; i++)
        y.p[i] = bits_f(SENTINEL);
      holo_ukernel_softmax_f32__simd128(x.p, y.p, rows, n, 1);
      bguard(&y, ctx);
      expect_same(y.p, want, x.n, true, "softmax simd128 vs reference", ctx);
#endif
      free(want);
      bfree(&x), bfree(&y);
    }
}

/* ------------------------------------------------------ LayerNormSteps */

static void lns_case(size_t n, unsigned c) {
  char ctx[96];
  size_t off = c % 4, ss = c % 3 == 2 ? 0 : 1, bs = c % 5 == 3 ? 0 : 1;
  bool has_s = c % 4 != 1, has_b = c % 6 != 2;
  snprintf(ctx, sizeof ctx, "layernormsteps n=%zu scale=%s bias=%s off=%zu", n, has_s ? ss ? "n" : "1" : "-",
           has_b ? bs ? "n" : "1" : "-", off);
  buf x = balloc(n, off), y = balloc(n, (off + 1) % 4), sc = balloc(n, 0), bi = balloc(n, 3);
  fill(x.p, n, 3.0f, c % 3 == 0);
  fill(sc.p, n, 2.0f, c % 3 == 0);
  fill(bi.p, n, 1.0f, c % 3 == 0);
  float mean, s, want[64];
  fill(&mean, 1, 1.0f, c % 7 == 0);
  fill(&s, 1, 2.0f, c % 7 == 0);
  const float *S = has_s ? sc.p : NULL, *Bi = has_b ? bi.p : NULL;
  for (size_t i = 0; i < n; i++) {
    float d = x.p[i] - mean;
    want[i] = d * d;
  }
  holo_ukernel_lns_squares_f32__scalar(x.p, y.p, n, mean);
  bguard(&y, ctx);
  expect_same(y.p, want, n, true, "squares scalar vs reference", ctx);
#if HAVE_SIMD
  holo_ukernel_lns_squares_f32__simd128(x.p, y.p, n, mean);
  bguard(&y, ctx);
  expect_same(y.p, want, n, true, "squares simd128 vs reference", ctx);
#endif
  for (size_t i = 0; i < n; i++) {
    float v = (x.p[i] - mean) / s;
    if (S) v = v * S[i * ss];
    if (Bi) v = v + Bi[i * bs];
    want[i] = v;
  }
  holo_ukernel_lns_norm_f32__scalar(x.p, y.p, n, mean, s, S, ss, Bi, bs);
  bguard(&y, ctx);
  expect_same(y.p, want, n, true, "norm scalar vs reference", ctx);
#if HAVE_SIMD
  holo_ukernel_lns_norm_f32__simd128(x.p, y.p, n, mean, s, S, ss, Bi, bs);
  bguard(&y, ctx);
  expect_same(y.p, want, n, true, "norm simd128 vs reference", ctx);
#endif
  bfree(&x), bfree(&y), bfree(&sc), bfree(&bi);
}

static void test_layernormsteps(void **st) {
  (void)st;
  static const size_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 33, 64};
  unsigned c = 0;
  for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
    for (unsigned r = 0; r < 30; r++)
      lns_case(ns[ni], c++);
}

/* ------------------------------------------------ broadcast arithmetic */

typedef void (*vbin_fn)(size_t, const float *, size_t, const float *, size_t, float *);
static float vb_ref(int op, float a, float b) { return op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : a / b; }

/* One row of n with steps sa, sb (0, 1 or 2) at misaligned starts: scalar
 * and SIMD kernels against one C operation per element; NaNs from
 * arithmetic may differ in sign and payload only. */
static void vbinary_case(int op, size_t n, size_t sa, size_t sb, unsigned c) {
  static const vbin_fn scalar[4] = {holo_ukernel_vadd_f32__scalar, holo_ukernel_vsub_f32__scalar,
                                    holo_ukernel_vmul_f32__scalar, holo_ukernel_vdiv_f32__scalar};
  char ctx[96];
  snprintf(ctx, sizeof ctx, "vbinary op=%d n=%zu sa=%zu sb=%zu", op, n, sa, sb);
  size_t na = sa ? n * sa : 1, nb = sb ? n * sb : 1;
  buf a = balloc(na, c % 4), b = balloc(nb, (c + 1) % 4), y = balloc(n, (c + 2) % 4);
  fill(a.p, na, 4.0f, c % 3 == 0);
  fill(b.p, nb, 4.0f, c % 2 == 0);
  float *want = malloc(n * 4 + 4);
  for (size_t j = 0; j < n; j++) want[j] = vb_ref(op, a.p[j * sa], b.p[j * sb]);
  scalar[op](n, a.p, sa, b.p, sb, y.p);
  bguard(&y, ctx);
  expect_same(y.p, want, n, true, "vbinary scalar vs reference", ctx);
#if HAVE_SIMD
  static const vbin_fn simd[4] = {holo_ukernel_vadd_f32__simd128, holo_ukernel_vsub_f32__simd128,
                                  holo_ukernel_vmul_f32__simd128, holo_ukernel_vdiv_f32__simd128};
  sentinel(&y);
  simd[op](n, a.p, sa, b.p, sb, y.p);
  bguard(&y, ctx);
  expect_same(y.p, want, n, true, "vbinary simd128 vs reference", ctx);
#endif
  free(want);
  bfree(&a), bfree(&b), bfree(&y);
}

static void test_vbinary(void **st) {
  (void)st;
  static const size_t steps[][2] = {{1, 1}, {1, 0}, {0, 1}, {0, 0}, {2, 1}, {1, 2}};
  unsigned c = 0;
  for (int op = 0; op < 4; op++)
    for (size_t n = 1; n <= 41; n++)
      for (size_t s = 0; s < sizeof steps / sizeof *steps; s++)
        for (unsigned r = 0; r < 3; r++)
          vbinary_case(op, n, steps[s][0], steps[s][1], c++);
}

/* ------------------------------------------------ global average pool */

static void gap_case(size_t planes, size_t n, unsigned c) {
  char ctx[64];
  snprintf(ctx, sizeof ctx, "gavgpool planes=%zu n=%zu", planes, n);
  buf x = balloc(planes * n, c % 4), y = balloc(planes, (c + 1) % 4);
  fill(x.p, planes * n, 8.0f, c % 4 == 0);
  float *want = malloc(planes * 4 + 4);
  for (size_t p = 0; p < planes; p++) {
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++) sum += x.p[p * n + i];
    want[p] = sum / (float)n;
  }
  holo_ukernel_gavgpool_f32__scalar(x.p, y.p, planes, n);
  bguard(&y, ctx);
  expect_same(y.p, want, planes, true, "gavgpool scalar vs reference", ctx);
#if HAVE_SIMD
  sentinel(&y);
  holo_ukernel_gavgpool_f32__simd128(x.p, y.p, planes, n);
  bguard(&y, ctx);
  expect_same(y.p, want, planes, true, "gavgpool simd128 vs reference", ctx);
#endif
  free(want);
  bfree(&x), bfree(&y);
}

static void test_gavgpool(void **st) {
  (void)st;
  unsigned c = 0;
  for (size_t planes = 1; planes <= 13; planes++)
    for (size_t n = 0; n <= 19; n++) gap_case(planes, n, c++);
  gap_case(9, 49, c++);
  gap_case(5, 196, c++);
}

/* ------------------------------------------------ contiguous reductions */

/* The inner and outer kernels against the odometer kernel, bit for bit
 * (the same chains in the same order): shape [o, n, m] reduced over n. */
static void reduce_case(int op, size_t o, size_t n, size_t m, unsigned c) {
  char ctx[80];
  snprintf(ctx, sizeof ctx, "reduce op=%d o=%zu n=%zu m=%zu", op, o, n, m);
  buf x = balloc(o * n * m, c % 4), y = balloc(o * m, (c + 1) % 4);
  fill(x.p, o * n * m, 8.0f, c % 3 == 0);
  float *want = malloc(o * m * 4 + 4);
  int64_t rd[1] = {(int64_t)n}, rs[1] = {(int64_t)m};
  for (size_t i = 0; i < o; i++)
    for (size_t j = 0; j < m; j++)
      want[i * m + j] = (float)holo_ukernel_reduce_f32_f64__scalar(op, false, x.p, i * n * m + j, 1, rd, rs);
  if (m == 1)
    holo_ukernel_reduce_inner_f32__scalar(op, x.p, o, n, y.p);
  else
    holo_ukernel_reduce_outer_f32__scalar(op, x.p, o, n, m, y.p);
  bguard(&y, ctx);
  /* max and min select (bit for bit); sums may give another NaN */
  expect_same(y.p, want, o * m, op != HOLO_REDUCE_MAX && op != HOLO_REDUCE_MIN, "reduce runs vs odometer", ctx);
  free(want);
  bfree(&x), bfree(&y);
}

static void test_reduce_runs(void **st) {
  (void)st;
  static const int ops[] = {HOLO_REDUCE_SUM, HOLO_REDUCE_MEAN, HOLO_REDUCE_SUMSQ, HOLO_REDUCE_L1,
                            HOLO_REDUCE_L2, HOLO_REDUCE_MAX, HOLO_REDUCE_MIN};
  static const size_t os[] = {1, 3, 4, 5, 9}, ns[] = {1, 2, 7, 33}, ms[] = {1, 2, 7, 8, 9, 17};
  unsigned c = 0;
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    assert_true(holo_reduce_runs_op(ops[k]));
    for (size_t a = 0; a < sizeof os / sizeof *os; a++)
      for (size_t b = 0; b < sizeof ns / sizeof *ns; b++)
        for (size_t d = 0; d < sizeof ms / sizeof *ms; d++) reduce_case(ops[k], os[a], ns[b], ms[d], c++);
  }
  assert_false(holo_reduce_runs_op(HOLO_REDUCE_PROD));
  assert_false(holo_reduce_runs_op(HOLO_REDUCE_LOGSUMEXP));
}

/* ------------------------------------------------------ 2-D transpose */

static void transpose_case(size_t P, size_t Q, size_t s, unsigned c) {
  char ctx[64];
  snprintf(ctx, sizeof ctx, "transpose2d P=%zu Q=%zu s=%zu", P, Q, s);
  size_t nx = Q ? (Q - 1) * s + P : 0;
  buf x = balloc(nx, c % 4), y = balloc(P * Q, (c + 1) % 4);
  fill(x.p, nx, 8.0f, true);
  float *want = malloc(P * Q * 4 + 4);
  for (size_t p = 0; p < P; p++)
    for (size_t q = 0; q < Q; q++) want[p * Q + q] = x.p[q * s + p];
  holo_ukernel_transpose2d_x32__scalar((const uint32_t *)x.p, s, (uint32_t *)y.p, P, Q);
  bguard(&y, ctx);
  expect_same(y.p, want, P * Q, false, "transpose2d scalar vs reference", ctx);
#if HAVE_SIMD
  sentinel(&y);
  holo_ukernel_transpose2d_x32__simd128((const uint32_t *)x.p, s, (uint32_t *)y.p, P, Q);
  bguard(&y, ctx);
  expect_same(y.p, want, P * Q, false, "transpose2d simd128 vs reference", ctx);
#endif
  free(want);
  bfree(&x), bfree(&y);
}

static void test_transpose2d(void **st) {
  (void)st;
  unsigned c = 0;
  for (size_t P = 1; P <= 13; P++)
    for (size_t Q = 1; Q <= 13; Q++) {
      transpose_case(P, Q, P, c++);
      transpose_case(P, Q, P + 3, c++);
    }
  transpose_case(49, 96, 49, c++);
}

/* (exp on 4 lanes, and the activations built on it: tests/c/test_vact.c) */


/* ---------------------------------------------------------------- rnncell */

/* The recurrent cells' elementwise steps (rnncell.h) against their documented
 * operations, each rounded to f32 in order; sizes 1..33, misaligned starts,
 * special values, nothing written outside the output. No SIMD variant:
 * the compiler's vector form of the scalar loops is what the SIMD builds
 * run, and it must give these bytes too. */
static void test_rnncell(void **st) {
  (void)st;
  char ctx[96];
  for (size_t n = 1; n <= 33; n++)
    for (size_t off = 0; off < 4; off++) {
      snprintf(ctx, sizeof ctx, "n=%zu off=%zu", n, off);
      float a[40], b[40], c[40], d[40], want[40];
      fill(a, n, 3, true), fill(b, n, 3, true), fill(c, n, 3, true), fill(d, n, 3, true);
      buf y = balloc(n, off);
      const float t = 1.5f, al = 0.75f, be = -0.25f;
      for (int f = 0; f < 10; f++) {
        for (size_t i = 0; i < n; i++) y.p[i] = d[i];
        for (size_t i = 0; i < n; i++) {
          volatile float m, u, v;
          switch (f) {
          case 0: want[i] = a[i] + b[i]; break;
          case 1: m = a[i] * b[i], want[i] = d[i] + m; break;
          case 2: v = d[i] < -t ? -t : d[i], want[i] = v > t ? t : v; break;
          case 3: m = al * d[i], want[i] = m + be; break;
          case 4: want[i] = al * d[i]; break;
          case 5: want[i] = 1.0f - a[i]; break;
          case 6: m = a[i] * d[i], u = b[i] * c[i], want[i] = m + u; break;
          case 7: want[i] = a[i] * b[i]; break;
          case 8: m = b[i] * c[i], want[i] = a[i] + m; break;
          default: u = 1.0f - a[i], m = u * b[i], v = a[i] * d[i], want[i] = m + v; break;
          }
        }
        switch (f) {
        case 0: holo_ukernel_rnn_add_f32__scalar(n, a, b, y.p); break;
        case 1: holo_ukernel_rnn_addmul_f32__scalar(n, a, b, y.p); break;
        case 2: holo_ukernel_rnn_clip_f32__scalar(n, t, y.p); break;
        case 3: holo_ukernel_rnn_affine_f32__scalar(n, al, be, y.p); break;
        case 4: holo_ukernel_rnn_scale_f32__scalar(n, al, y.p); break;
        case 5: holo_ukernel_rnn_oneminus_f32__scalar(n, a, y.p); break;
        case 6: holo_ukernel_rnn_lstmcell_f32__scalar(n, a, b, c, y.p); break;
        case 7: holo_ukernel_rnn_mul_f32__scalar(n, a, b, y.p); break;
        case 8: holo_ukernel_rnn_gatedadd_f32__scalar(n, a, b, c, y.p); break;
        default: holo_ukernel_rnn_grumerge_f32__scalar(n, a, b, y.p); break;
        }
        char what[32];
        snprintf(what, sizeof what, "rnncell step %d", f);
        expect_same(y.p, want, n, true, what, ctx);
        bguard(&y, ctx);
      }
      bfree(&y);
    }
}

/* -------------------------------------------------------------- im2col */

/* im2col into B panels vs the direct window walk, bit for bit (pure data
 * movement, padding +0): strides 1-3, dilation, asymmetric padding, 1x1 and
 * 1xk kernels, output widths below, at and off the panel width, chunks
 * that start mid-row. */
static void test_im2col(void **st) {
  (void)st;
  static const int64_t G[][9] = {
      /* H  W  kH kW sh sw dh dw pad */
      {7, 19, 3, 3, 1, 1, 1, 1, 1}, {9, 33, 3, 3, 2, 2, 1, 1, 1}, {6, 40, 3, 3, 3, 3, 1, 1, 0},
      {8, 24, 3, 3, 1, 1, 2, 2, 2}, {5, 16, 1, 1, 1, 1, 1, 1, 0}, {4, 37, 1, 5, 1, 2, 1, 1, 2},
      {3, 8, 3, 3, 1, 1, 1, 1, 1},  {1, 70, 1, 9, 1, 4, 1, 1, 0}, {12, 48, 3, 3, 2, 1, 1, 3, 1}};
  size_t Cg = 3;
  for (size_t gi = 0; gi < sizeof G / sizeof G[0]; gi++) {
    const int64_t *a = G[gi];
    holo_k_win2d w = {{a[0], a[1]}, {a[2], a[3]}, {a[4], a[5]}, {a[6], a[7]}, {a[8], 0}, {0, a[8]}, {0, 0}};
    for (int i = 0; i < 2; i++)
      w.out[i] = (w.in[i] + w.pad_begin[i] + w.pad_end[i] - (w.k[i] - 1) * w.dil[i] - 1) / w.stride[i] + 1;
    size_t xn = Cg * (size_t)(a[0] * a[1]), taps = (size_t)(a[2] * a[3]), K = Cg * taps;
    size_t plane = (size_t)(w.out[0] * w.out[1]);
    float *x = malloc(xn * sizeof(float));
    fill(x, xn, 2.0f, true);
    for (size_t p0 = 0; p0 < plane; p0 += 11) {
      size_t pc = plane - p0 < 29 ? plane - p0 : 29, np = (pc + 7) / 8;
      float *d = malloc(np * 8 * K * sizeof(float));
      memset(d, 0x55, np * 8 * K * sizeof(float));
      holo_ukernel_im2col_f32__scalar(d, x, &w, Cg, p0, pc);
      for (size_t j = 0; j < np * 8; j++)
        for (size_t k = 0; k < K; k++) {
          uint32_t want = 0;
          if (j < pc) {
            size_t p = p0 + j, c = k / taps, kh = k % taps / (size_t)a[3], kw = k % (size_t)a[3];
            int64_t ih = (int64_t)(p / (size_t)w.out[1]) * a[4] - w.pad_begin[0] + (int64_t)kh * a[6];
            int64_t iw = (int64_t)(p % (size_t)w.out[1]) * a[5] - w.pad_begin[1] + (int64_t)kw * a[7];
            if (ih >= 0 && ih < a[0] && iw >= 0 && iw < a[1]) want = f_bits(x[c * (size_t)(a[0] * a[1]) + (size_t)(ih * a[1] + iw)]);
          }
          uint32_t got = f_bits(d[(j / 8) * K * 8 + k * 8 + j % 8]);
          if (got != want) fail_msg("im2col geometry %zu p0=%zu j=%zu k=%zu: %08x vs %08x", gi, p0, j, k, got, want);
        }
      free(d);
    }
    free(x);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gemm),
    cmocka_unit_test(test_pack_a),
    cmocka_unit_test(test_dwconv),
    cmocka_unit_test(test_maxpool),
    cmocka_unit_test(test_softmax),
    cmocka_unit_test(test_layernormsteps),
    cmocka_unit_test(test_rnncell),
    cmocka_unit_test(test_vbinary),
    cmocka_unit_test(test_gavgpool),
    cmocka_unit_test(test_reduce_runs),
    cmocka_unit_test(test_transpose2d),
    cmocka_unit_test(test_im2col),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
