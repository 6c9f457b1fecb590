/* The f32 GEMM core shared by MatMul, Gemm, Conv and holo.MatMulPacked.
 *
 *   C(i,j) = epilogue( sum_k A(i,k) * B(k,j) )
 *
 * THE ORDER CONTRACT (what makes every variant produce the same bytes):
 * each output element starts from +0.0f and adds the products A(i,k)*B(k,j)
 * in ascending k, each product rounded to f32, then each sum rounded to f32
 * (a separate multiply and add: never a fused multiply-add). The epilogue
 * then applies, in this order and each step rounded to f32:
 *   v = alpha * v                     (when scale)
 *   v = v + beta * bias(i,j)          (when bias && bias_scaled)
 *   v = v + bias(i,j)                 (when bias && !bias_scaled)
 *   v = v < 0 ? 0 : v                 (when relu; NaN and -0 pass through)
 *   v = v < lo ? lo : v               (when lo_on; the Clip kernel's min step)
 *   v = v > hi ? hi : v               (when hi_on; the Clip kernel's max step)
 * A variant may compute many elements at once (SIMD lanes across j,
 * register tiles across i and j) but never reorders one element's sum.
 *
 * The cores, one file each (tests/c/test_microkernels.c compares them in
 * one binary):
 *   gemm-f32-scalar.c          holo_gemm_f32__scalar, every build: the
 *                              reference
 *   gemm-f32-4x8-simd128.c     holo_gemm_f32__simd128, wasm SIMD builds:
 *                              4x8 tiles, the scalar bytes
 *   gemm-f32-4x8-relaxedsimd.c holo_gemm_f32__relaxedsimd, relaxed-SIMD
 *                              builds: the same tiles with f32x4.relaxed_madd,
 *                              fused where the engine fuses (its own byte
 *                              class and identities, registry.c)
 * (the two 4x8 files are generated from one template, gemm-f32-4x8.c.in in
 * kernels-wasm-simd/gen).
 * holo_gemm_f32 below is the build's core. */
#ifndef HOLOGRAM_KERNELS_GEMM_H
#define HOLOGRAM_KERNELS_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"
#include "microkernels/vunary.h"

/* Columns per packed panel: the register tile's width. */
#define HOLO_GEMM_NR 8
/* The wide panel (holo.PackB nr=32) for products of fewer rows than a
 * register tile: a row then streams ONE contiguous panel of 32 columns
 * (8 accumulators) instead of four 8-column panels K*8 floats apart — one
 * sequential stream per row, which the hardware prefetcher follows (mlp_b1's
 * three GEMVs: 200 -> 125 us in a standalone wasm probe, docs/benchmarks.md). */
#define HOLO_GEMM_NR_WIDE 32

typedef struct holo_gemm {
  size_t M, N, K;
  const float *A; /* A(i,k) = A[i*rsa + k*csa] */
  size_t rsa, csa;
  /* Unpacked B: B(k,j) = B[k*ldb + j]. Packed B (Bp != NULL) overrides it:
   * panels of w = bpw columns (HOLO_GEMM_NR when 0; HOLO_GEMM_NR or
   * HOLO_GEMM_NR_WIDE): panel p holds columns w*p..w*p+w-1,
   * B(k,j) = Bp[(j/w)*K*w + k*w + j%w], columns past N zero (see
   * holo_gemm_pack_b). */
  const float *B;
  size_t ldb;
  const float *Bp;
  size_t bpw;
  /* Packed A (Ap != NULL; holo_gemm_pack_a_par): strips of 4 rows,
   * A(i,k) = Ap[(i/4)*K*4 + k*4 + i%4], rows past M zero. Only the SIMD
   * core reads it (a tile then takes its 4 A values per k from one pointer
   * with immediate offsets); A stays set and means the same values. */
  const float *Ap;
  float *C; /* C(i,j) = C[i*ldc + j] */
  size_t ldc;
  /* epilogue */
  bool scale;
  float alpha;
  const float *bias; /* bias(i,j) = bias[i*brs + j*bcs]; NULL: none */
  size_t brs, bcs;
  bool bias_scaled;
  float beta;
  bool relu;
  /* a fused Clip (holo_activation = "Clip"): exactly the Clip kernel's two
   * compares on the epilogue's value, so NaN passes and -0 stays -0 */
  bool lo_on, hi_on;
  float lo, hi;
  /* a fused elementwise activation (holo_activation Sigmoid, holo.SiLU,
   * HardSwish, ...; operators/products.h): 0 none, else 1 + the unary
   * operator's row. The cores ignore it: holo_gemm_f32_par runs that
   * operator's own microkernel over each block after the core. */
  int act;
  holo_vunary_params act_p;
} holo_gemm;

void holo_gemm_f32__scalar(const holo_gemm *g);
#ifdef __wasm_simd128__
void holo_gemm_f32__simd128(const holo_gemm *g);
#endif
#ifdef __wasm_relaxed_simd__
void holo_gemm_f32__relaxedsimd(const holo_gemm *g);
#endif

/* Computes g->C with this build's core: relaxed SIMD where built with it,
 * else SIMD128, else scalar. The scalar core reads A in place (it ignores
 * g->Ap); the SIMD cores read g->Ap when set. */
static inline void holo_gemm_f32(const holo_gemm *g) {
#if defined(__wasm_relaxed_simd__)
  holo_gemm_f32__relaxedsimd(g);
#elif defined(__wasm_simd128__)
  holo_gemm_f32__simd128(g);
#else
  holo_gemm_f32__scalar(g);
#endif
}

/* Floats a packed B of K x N in panels of w columns occupies. */
static inline size_t holo_gemm_packed_floats_w(size_t K, size_t N, size_t w) {
  return (N + w - 1) / w * w * K;
}
static inline size_t holo_gemm_packed_floats(size_t K, size_t N) {
  return holo_gemm_packed_floats_w(K, N, HOLO_GEMM_NR);
}

/* Packs B(k,j) = B[k*rsb + j*csb] (K x N) into panels of w columns (dst
 * holds holo_gemm_packed_floats_w(K, N, w) floats; packb-f32-scalar.c). Pure
 * data movement: no bytes of a result depend on whether or how B was packed. */
void holo_gemm_pack_b_w(float *dst, const float *B, size_t rsb, size_t csb, size_t K, size_t N, size_t w);
static inline void holo_gemm_pack_b(float *dst, const float *B, size_t rsb, size_t csb, size_t K, size_t N) {
  holo_gemm_pack_b_w(dst, B, rsb, csb, K, N, HOLO_GEMM_NR);
}

/* Whether this build's core reads a packed A for an M x N x K product with
 * a packed B: the SIMD cores for M = 4 and M >= 8 (the 4x8 tiles; M = 4
 * is one whole strip: a [4 x 128] x [128 x 384] MatMul as gpt_decoder_kv
 * runs it, ~32k of ~250k instructions fewer per call; 5..7 would compute a mostly empty second
 * strip where the unpacked 1..3-row tiles compute only the rows), the
 * scalar core never. A kernel asks at infer (workspace) and at run. */
static inline bool holo_gemm_wants_packed_a(size_t M, size_t N, size_t K) {
#ifdef __wasm_simd128__
  return (M == 4 || M >= 8) && N >= HOLO_GEMM_NR && K > 0;
#else
  (void)M, (void)N, (void)K;
  return false;
#endif
}

static inline size_t holo_gemm_packed_a_floats(size_t M, size_t K) { return (M + 3) / 4 * 4 * K; }
/* Rows [i0, i1) of g's A (i0 a multiple of 4) into the strips at dst (the
 * whole packed A, as holo_gemm_pack_a_par fills it; packa-f32-*.c): the
 * SIMD128 variant transposes 4x4 blocks of full unit-stride strips. Pure
 * data movement: no result byte depends on it. */
void holo_gemm_pack_a_rows__scalar(float *dst, const holo_gemm *g, size_t i0, size_t i1);
#ifdef __wasm_simd128__
void holo_gemm_pack_a_rows__simd128(float *dst, const holo_gemm *g, size_t i0, size_t i1);
#endif
static inline void holo_gemm_pack_a_rows(float *dst, const holo_gemm *g, size_t i0, size_t i1) {
#ifdef __wasm_simd128__
  holo_gemm_pack_a_rows__simd128(dst, g, i0, i1);
#else
  holo_gemm_pack_a_rows__scalar(dst, g, i0, i1);
#endif
}

/* The scalar epilogue of one element, exactly as the contract orders it. */
static inline float holo_gemm_epi(const holo_gemm *g, size_t i, size_t j, float v) {
  if (g->scale) v = g->alpha * v;
  if (g->bias) {
    float b = g->bias[i * g->brs + j * g->bcs];
    if (g->bias_scaled) b = g->beta * b;
    v = v + b;
  }
  if (g->relu) v = v < 0.0f ? 0.0f : v;
  if (g->lo_on) v = v < g->lo ? g->lo : v;
  if (g->hi_on) v = v > g->hi ? g->hi : v;
  return v;
}

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
/* The activation steps of holo_gemm_epi on 4 lanes (Relu, then the Clip
 * compares), for the SIMD cores' and the depthwise kernels' epilogues. */
static inline __attribute__((always_inline)) v128_t holo_gemm_act4(const holo_gemm *g, v128_t v) {
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
#endif

#endif
