/* The wasm SIMD128 GEMM core: 4x8 register tiles (8 f32x4 accumulators),
 * vectorized across j. Each lane is one output element whose sum runs over
 * k in ascending order with a separate multiply and add, so the bytes equal
 * the scalar core's (gemm.h, the order contract). Built with relaxed SIMD,
 * the multiply-add is f32x4.relaxed_madd instead: fused where the engine
 * has FMA, which changes bytes; registry.c gives that build its own
 * identities. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "../gemm.h"

#pragma clang fp contract(off)

#ifdef __wasm_relaxed_simd__
#define MADD(acc, a, b) wasm_f32x4_relaxed_madd((a), (b), (acc))
#else
#define MADD(acc, a, b) wasm_f32x4_add((acc), wasm_f32x4_mul((a), (b)))
#endif

#define MR 4
#define NR HOLO_GEMM_NR
/* rows of A per outer block: keeps the A block hot while panels stream */
#define MC 64

#define INLINE static inline __attribute__((always_inline))

/* Vector epilogue of 4 full lanes at (i, j..j+3); same steps as holo_gemm_epi. */
INLINE v128_t epi4(const holo_gemm *g, size_t i, size_t j, v128_t v) {
  if (g->scale) v = wasm_f32x4_mul(wasm_f32x4_splat(g->alpha), v);
  if (g->bias) {
    const float *bp = g->bias + i * g->brs + j * g->bcs;
    v128_t b = g->bcs ? wasm_v128_load(bp) : wasm_f32x4_splat(*bp);
    if (g->bias_scaled) b = wasm_f32x4_mul(wasm_f32x4_splat(g->beta), b);
    v = wasm_f32x4_add(v, b);
  }
  if (g->relu) v = wasm_v128_andnot(v, wasm_f32x4_lt(v, wasm_f32x4_splat(0.0f)));
  if (g->lo_on) {
    const v128_t lo = wasm_f32x4_splat(g->lo);
    v = wasm_v128_bitselect(lo, v, wasm_f32x4_lt(v, lo));
  }
  if (g->hi_on) {
    const v128_t hi = wasm_f32x4_splat(g->hi);
    v = wasm_v128_bitselect(hi, v, wasm_f32x4_gt(v, hi));
  }
  return v;
}

/* Stores nc (<= 4) lanes of acc at C(i, j..). */
INLINE void store4(const holo_gemm *g, size_t i, size_t j, size_t nc, v128_t acc) {
  float *c = g->C + i * g->ldc + j;
  if (nc == 4) {
    wasm_v128_store(c, epi4(g, i, j, acc));
    return;
  }
  float t[4];
  wasm_v128_store(t, acc);
  for (size_t q = 0; q < nc; q++)
    c[q] = holo_gemm_epi(g, i, j + q, t[q]);
}

/* Stores mr (<= 4) rows and nc (<= 8) columns of a 4x8 tile at (i0, j0). */
INLINE void store_tile(const holo_gemm *g, size_t mr, size_t i0, size_t j0, size_t nc, v128_t c00, v128_t c01,
                       v128_t c10, v128_t c11, v128_t c20, v128_t c21, v128_t c30, v128_t c31) {
  size_t n0 = nc < 4 ? nc : 4, n1 = nc > 4 ? nc - 4 : 0;
  store4(g, i0, j0, n0, c00);
  if (n1) store4(g, i0, j0 + 4, n1, c01);
  if (mr > 1) {
    store4(g, i0 + 1, j0, n0, c10);
    if (n1) store4(g, i0 + 1, j0 + 4, n1, c11);
  }
  if (mr > 2) {
    store4(g, i0 + 2, j0, n0, c20);
    if (n1) store4(g, i0 + 2, j0 + 4, n1, c21);
  }
  if (mr > 3) {
    store4(g, i0 + 3, j0, n0, c30);
    if (n1) store4(g, i0 + 3, j0 + 4, n1, c31);
  }
}

/* An mr x 8 tile at (i0, j0): b points at B(0, j0), rows ldb apart; nc
 * columns (<= 8) are stored. mr is a constant after inlining. */
INLINE void tile8(const holo_gemm *g, size_t mr, size_t i0, size_t j0, size_t nc, const float *b, size_t ldb,
                  size_t csa) {
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  const float *a0 = g->A + i0 * g->rsa, *a1 = a0 + g->rsa, *a2 = a1 + g->rsa, *a3 = a2 + g->rsa;
  size_t K = g->K;
  for (size_t k = 0; k < K; k++) {
    v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
    b += ldb;
    v128_t a = wasm_f32x4_splat(a0[k * csa]);
    c00 = MADD(c00, a, b0);
    c01 = MADD(c01, a, b1);
    if (mr > 1) {
      a = wasm_f32x4_splat(a1[k * csa]);
      c10 = MADD(c10, a, b0);
      c11 = MADD(c11, a, b1);
    }
    if (mr > 2) {
      a = wasm_f32x4_splat(a2[k * csa]);
      c20 = MADD(c20, a, b0);
      c21 = MADD(c21, a, b1);
    }
    if (mr > 3) {
      a = wasm_f32x4_splat(a3[k * csa]);
      c30 = MADD(c30, a, b0);
      c31 = MADD(c31, a, b1);
    }
  }
  store_tile(g, mr, i0, j0, nc, c00, c01, c10, c11, c20, c21, c30, c31);
}

/* An mr x 4 tile over full columns j0..j0+3 of an unpacked B. */
INLINE void tile4(const holo_gemm *g, size_t mr, size_t i0, size_t j0) {
  v128_t c0 = wasm_f32x4_splat(0.0f), c1 = c0, c2 = c0, c3 = c0;
  const float *a0 = g->A + i0 * g->rsa, *a1 = a0 + g->rsa, *a2 = a1 + g->rsa, *a3 = a2 + g->rsa;
  const float *b = g->B + j0;
  size_t csa = g->csa, K = g->K, ldb = g->ldb;
  for (size_t k = 0; k < K; k++) {
    v128_t b0 = wasm_v128_load(b);
    b += ldb;
    c0 = MADD(c0, wasm_f32x4_splat(a0[k * csa]), b0);
    if (mr > 1) c1 = MADD(c1, wasm_f32x4_splat(a1[k * csa]), b0);
    if (mr > 2) c2 = MADD(c2, wasm_f32x4_splat(a2[k * csa]), b0);
    if (mr > 3) c3 = MADD(c3, wasm_f32x4_splat(a3[k * csa]), b0);
  }
  store4(g, i0, j0, 4, c0);
  if (mr > 1) store4(g, i0 + 1, j0, 4, c1);
  if (mr > 2) store4(g, i0 + 2, j0, 4, c2);
  if (mr > 3) store4(g, i0 + 3, j0, 4, c3);
}

/* One element, for the last N % 4 columns of an unpacked B. */
static void elem1(const holo_gemm *g, size_t i, size_t j) {
  const float *a = g->A + i * g->rsa, *b = g->B + j;
  float acc = 0.0f;
  for (size_t k = 0; k < g->K; k++) {
#ifdef __wasm_relaxed_simd__
    /* lane 0 of the same instruction, so a fused engine fuses here too */
    acc = wasm_f32x4_extract_lane(wasm_f32x4_relaxed_madd(wasm_f32x4_splat(a[k * g->csa]),
                                                          wasm_f32x4_splat(b[k * g->ldb]),
                                                          wasm_f32x4_splat(acc)),
                                  0);
#else
    acc += a[k * g->csa] * b[k * g->ldb];
#endif
  }
  g->C[i * g->ldc + j] = holo_gemm_epi(g, i, j, acc);
}

/* K is not blocked: a KC = 256 blocking (partial sums stored in C and
 * reloaded) was measured slower in interleaved A/B runs — transformer_layer
 * 7.45 -> 8.09 ms, resnet18 131 -> 149 ms, matmul_512 9.2 -> 10.0 ms — the
 * extra arguments and reload branches cost more in V8's code for the tile
 * than L1 misses on a K x 8 panel do.
 *
 * One out-of-line function per (mr, unit or strided A): each inner loop is
 * compiled on its own, so the engine's register allocator sees the 8
 * accumulators and little else. Inlined into one large function (the
 * switch this replaced), V8's code for the 4-row loop was slower (matmul
 * 512^3: 11.3 -> 10.7 ms best, docs/benchmarks.md); 5x8 and 6x8 tiles
 * (10/12 accumulators + temporaries > x64's 16 xmm registers) were slower
 * still (14.7 / 13.7 ms). */
#define TILE8_FN(MRV)                                                                                        \
  static __attribute__((noinline)) void tile8_##MRV##_u(const holo_gemm *g, size_t i0, size_t j0, size_t nc, \
                                                        const float *b, size_t ldb) {                        \
    tile8(g, MRV, i0, j0, nc, b, ldb, 1);                                                                    \
  }                                                                                                          \
  static __attribute__((noinline)) void tile8_##MRV##_s(const holo_gemm *g, size_t i0, size_t j0, size_t nc, \
                                                        const float *b, size_t ldb) {                        \
    tile8(g, MRV, i0, j0, nc, b, ldb, g->csa);                                                               \
  }
TILE8_FN(1)
TILE8_FN(2)
TILE8_FN(3)
TILE8_FN(4)

/* A 4 x 8 tile at (i0, j0) over packed A (its strip i0/4) and packed B;
 * mr (<= 4) rows and nc (<= 8) columns are stored. The 4 A values of a k
 * come from one pointer at immediate offsets: 3 fewer pointer updates per k
 * than tile8's 4 row pointers (512^3 in a standalone probe: 7.45 -> 7.00 ms,
 * 7.18 with the packing). */
static __attribute__((noinline)) void tile8_pa(const holo_gemm *g, size_t mr, size_t i0, size_t j0, size_t nc,
                                               const float *b, size_t ldb) {
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  const float *pa = g->Ap + i0 * g->K;
  for (size_t k = 0; k < g->K; k++) {
    v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
    b += ldb;
    v128_t a = wasm_v128_load32_splat(pa);
    c00 = MADD(c00, a, b0);
    c01 = MADD(c01, a, b1);
    a = wasm_v128_load32_splat(pa + 1);
    c10 = MADD(c10, a, b0);
    c11 = MADD(c11, a, b1);
    a = wasm_v128_load32_splat(pa + 2);
    c20 = MADD(c20, a, b0);
    c21 = MADD(c21, a, b1);
    a = wasm_v128_load32_splat(pa + 3);
    c30 = MADD(c30, a, b0);
    c31 = MADD(c31, a, b1);
    pa += 4;
  }
  store_tile(g, mr, i0, j0, nc, c00, c01, c10, c11, c20, c21, c30, c31);
}

bool holo_gemm_wants_packed_a(size_t M, size_t N, size_t K) { return M >= 8 && N >= NR && K > 0; }

static void tile8_m(const holo_gemm *g, size_t mr, size_t i0, size_t j0, size_t nc, const float *b,
                    size_t ldb) {
  typedef void (*tile_fn)(const holo_gemm *, size_t, size_t, size_t, const float *, size_t);
  static const tile_fn unit[MR] = {tile8_1_u, tile8_2_u, tile8_3_u, tile8_4_u};
  static const tile_fn strided[MR] = {tile8_1_s, tile8_2_s, tile8_3_s, tile8_4_s};
  (g->csa == 1 ? unit : strided)[mr - 1](g, i0, j0, nc, b, ldb);
}

/* B(0, j) of a packed B in panels of w columns (j % 8 == 0). */
INLINE const float *bp_at(const holo_gemm *g, size_t w, size_t j) { return g->Bp + j / w * w * g->K + j % w; }

/* One row, 32 columns (8 independent accumulators: a lone row would
 * otherwise wait on 2 accumulators' add latency), from four 8-column
 * groups at b[q] = B(0, j0 + 8q), each advancing w floats per k. With
 * w = 32 the four groups are one contiguous stream (holo.PackB nr=32).
 * Out of line with named accumulators: inlined into holo_gemm_f32, V8's
 * register allocator kept two of the eight in stack slots, so their add
 * chains went through memory (~7 instead of ~4 cycles per k). */
INLINE void row32(const holo_gemm *g, size_t i, size_t j0, size_t w) {
  v128_t c0 = wasm_f32x4_splat(0.0f), c1 = c0, c2 = c0, c3 = c0, c4 = c0, c5 = c0, c6 = c0, c7 = c0;
  const float *a = g->A + i * g->rsa;
  size_t K = g->K, csa = g->csa;
  const float *b0 = bp_at(g, w, j0), *b1 = bp_at(g, w, j0 + 8), *b2 = bp_at(g, w, j0 + 16),
              *b3 = bp_at(g, w, j0 + 24);
  for (size_t k = 0; k < K; k++) {
    v128_t av = wasm_f32x4_splat(a[k * csa]);
    c0 = MADD(c0, av, wasm_v128_load(b0));
    c1 = MADD(c1, av, wasm_v128_load(b0 + 4));
    c2 = MADD(c2, av, wasm_v128_load(b1));
    c3 = MADD(c3, av, wasm_v128_load(b1 + 4));
    c4 = MADD(c4, av, wasm_v128_load(b2));
    c5 = MADD(c5, av, wasm_v128_load(b2 + 4));
    c6 = MADD(c6, av, wasm_v128_load(b3));
    c7 = MADD(c7, av, wasm_v128_load(b3 + 4));
    b0 += w;
    b1 += w;
    b2 += w;
    b3 += w;
  }
  store4(g, i, j0, 4, c0);
  store4(g, i, j0 + 4, 4, c1);
  store4(g, i, j0 + 8, 4, c2);
  store4(g, i, j0 + 12, 4, c3);
  store4(g, i, j0 + 16, 4, c4);
  store4(g, i, j0 + 20, 4, c5);
  store4(g, i, j0 + 24, 4, c6);
  store4(g, i, j0 + 28, 4, c7);
}
static __attribute__((noinline)) void row32_w8(const holo_gemm *g, size_t i, size_t j0) {
  row32(g, i, j0, NR);
}
static __attribute__((noinline)) void row32_w32(const holo_gemm *g, size_t i, size_t j0) {
  row32(g, i, j0, HOLO_GEMM_NR_WIDE);
}

static void tile4_m(const holo_gemm *g, size_t mr, size_t i0, size_t j0) {
  switch (mr) {
  case 4: tile4(g, 4, i0, j0); break;
  case 3: tile4(g, 3, i0, j0); break;
  case 2: tile4(g, 2, i0, j0); break;
  default: tile4(g, 1, i0, j0); break;
  }
}

void holo_gemm_f32__simd128(const holo_gemm *g) {
  size_t M = g->M, N = g->N, w = g->bpw ? g->bpw : NR;
  if (M == 0 || N == 0) return;
  for (size_t ib = 0; ib < M; ib += MC) {
    size_t ie = M - ib < MC ? M : ib + MC;
    if (g->Bp && ie - ib < MR) {
      /* fewer rows than a tile: rows across 32 columns at a time */
      size_t j0 = 0;
      for (; j0 + 4 * NR <= N; j0 += 4 * NR)
        for (size_t i = ib; i < ie; i++)
          (w == NR ? row32_w8 : row32_w32)(g, i, j0);
      for (; j0 < N; j0 += NR)
        tile8_m(g, ie - ib, ib, j0, N - j0 < NR ? N - j0 : NR, bp_at(g, w, j0), w);
    } else if (g->Bp) {
      for (size_t j0 = 0; j0 < N; j0 += NR) {
        size_t nc = N - j0 < NR ? N - j0 : NR;
        const float *bp = bp_at(g, w, j0);
        for (size_t i0 = ib; i0 < ie; i0 += MR) {
          size_t mr = ie - i0 < MR ? ie - i0 : MR;
          if (g->Ap)
            tile8_pa(g, mr, i0, j0, nc, bp, w);
          else
            tile8_m(g, mr, i0, j0, nc, bp, w);
        }
      }
    } else {
      size_t j0 = 0;
      for (; j0 + NR <= N; j0 += NR)
        for (size_t i0 = ib; i0 < ie; i0 += MR)
          tile8_m(g, ie - i0 < MR ? ie - i0 : MR, i0, j0, NR, g->B + j0, g->ldb);
      for (; j0 + 4 <= N; j0 += 4)
        for (size_t i0 = ib; i0 < ie; i0 += MR)
          tile4_m(g, ie - i0 < MR ? ie - i0 : MR, i0, j0);
      for (; j0 < N; j0++)
        for (size_t i = ib; i < ie; i++)
          elem1(g, i, j0);
    }
  }
}

void holo_gemm_f32(const holo_gemm *g) { holo_gemm_f32__simd128(g); }
#else
typedef int holo_gemm_f32_simd128_unused; /* the scalar variant is compiled instead */
#endif
