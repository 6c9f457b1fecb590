/* SIMD128 peak-throughput probe for bench/gemm-peak.mjs: the GEMM
 * microkernel's instruction mix without its memory traffic. Each iteration
 * broadcasts 4 A values from a 1 KiB L1-resident array (v128.load32_splat:
 * a load-port op on x64, no shuffle; shuffles share FP pipes on some cores)
 * and updates 8 (12) f32x4 accumulators against 2 (3) register-resident B
 * vectors, like a 4x8 (4x12) register tile:
 *   peak_muladd{8,12}: acc = acc + a*b (separate mul and add: 8 flops per
 *                      2 instructions, the contract hologram's bytes follow)
 *   peak_madd{8,12}:   acc = relaxed_madd(a, b, acc) (built with
 *                      -mrelaxed-simd only; 8 flops per instruction if fused)
 * Returns a lane sum so nothing is dead. Flops per iteration: 64 (8 accs), 96 (12). */
static float abuf[256];
#include <wasm_simd128.h>

#pragma clang fp contract(off)

#ifdef __wasm_relaxed_simd__
#define OP(c, a, b) wasm_f32x4_relaxed_madd((a), (b), (c))
#define NAME(x) peak_madd##x
#else
#define OP(c, a, b) wasm_f32x4_add((c), wasm_f32x4_mul((a), (b)))
#define NAME(x) peak_muladd##x
#endif

#define STR_(n) #n
#define EXPORT(n) __attribute__((export_name(STR_(n))))

static float hsum(v128_t v) {
  return wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1) + wasm_f32x4_extract_lane(v, 2) +
         wasm_f32x4_extract_lane(v, 3);
}

EXPORT(NAME(8)) float NAME(8)(int iters, float seed, float s0, float s1, float s2) {
  v128_t av = wasm_f32x4_make(seed, seed * 0.5f, seed * 0.25f, seed * 0.125f);
  v128_t b0 = wasm_f32x4_splat(s0), b1 = wasm_f32x4_splat(s1);
  (void)s2;
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (int q = 0; q < 256; q++) abuf[q] = seed * (float)(q + 1) * 1e-3f;
  wasm_v128_store(abuf, av);
  for (int i = 0; i < iters; i++) {
    const float *p = abuf + ((i * 4) & 255);
    v128_t a0 = wasm_v128_load32_splat(p), a1 = wasm_v128_load32_splat(p + 1);
    v128_t a2 = wasm_v128_load32_splat(p + 2), a3 = wasm_v128_load32_splat(p + 3);
    c00 = OP(c00, a0, b0); c01 = OP(c01, a0, b1);
    c10 = OP(c10, a1, b0); c11 = OP(c11, a1, b1);
    c20 = OP(c20, a2, b0); c21 = OP(c21, a2, b1);
    c30 = OP(c30, a3, b0); c31 = OP(c31, a3, b1);
  }
  return hsum(c00) + hsum(c01) + hsum(c10) + hsum(c11) + hsum(c20) + hsum(c21) + hsum(c30) + hsum(c31);
}

EXPORT(NAME(12)) float NAME(12)(int iters, float seed, float s0, float s1, float s2) {
  v128_t av = wasm_f32x4_make(seed, seed * 0.5f, seed * 0.25f, seed * 0.125f);
  v128_t b0 = wasm_f32x4_splat(s0), b1 = wasm_f32x4_splat(s1), b2 = wasm_f32x4_splat(s2);
  v128_t c00 = wasm_f32x4_splat(0.0f), c01 = c00, c02 = c00, c10 = c00, c11 = c00, c12 = c00;
  v128_t c20 = c00, c21 = c00, c22 = c00, c30 = c00, c31 = c00, c32 = c00;
  for (int q = 0; q < 256; q++) abuf[q] = seed * (float)(q + 1) * 1e-3f;
  wasm_v128_store(abuf, av);
  for (int i = 0; i < iters; i++) {
    const float *p = abuf + ((i * 4) & 255);
    v128_t a0 = wasm_v128_load32_splat(p), a1 = wasm_v128_load32_splat(p + 1);
    v128_t a2 = wasm_v128_load32_splat(p + 2), a3 = wasm_v128_load32_splat(p + 3);
    c00 = OP(c00, a0, b0); c01 = OP(c01, a0, b1); c02 = OP(c02, a0, b2);
    c10 = OP(c10, a1, b0); c11 = OP(c11, a1, b1); c12 = OP(c12, a1, b2);
    c20 = OP(c20, a2, b0); c21 = OP(c21, a2, b1); c22 = OP(c22, a2, b2);
    c30 = OP(c30, a3, b0); c31 = OP(c31, a3, b1); c32 = OP(c32, a3, b2);
  }
  return hsum(c00) + hsum(c01) + hsum(c02) + hsum(c10) + hsum(c11) + hsum(c12) + hsum(c20) + hsum(c21) +
         hsum(c22) + hsum(c30) + hsum(c31) + hsum(c32);
}
