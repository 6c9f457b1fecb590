/* A into the SIMD GEMM core's 4-row strips (gemm.h), a full strip of
 * unit-stride rows by 4x4 transposes; the rest element by element as
 * packa-f32-scalar.c does. Bit for bit the scalar packing. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/packa.h"

void holo_gemm_pack_a_rows__simd128(float *dst, const holo_gemm *g, size_t i0, size_t i1) {
  size_t K = g->K;
  for (size_t s = i0; s < i1; s += 4) {
    const float *a[4];
    float *d = holo_packa_strip(dst, g, s, i1, a);
    size_t k = 0;
    if (g->csa == 1 && a[3]) /* a full strip of unit-stride rows: 4x4 transposes */
      for (; k + 4 <= K; k += 4, d += 16) {
        v128_t r0 = wasm_v128_load(a[0] + k), r1 = wasm_v128_load(a[1] + k);
        v128_t r2 = wasm_v128_load(a[2] + k), r3 = wasm_v128_load(a[3] + k);
        v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
        v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
        wasm_v128_store(d, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
        wasm_v128_store(d + 4, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
        wasm_v128_store(d + 8, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
        wasm_v128_store(d + 12, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
      }
    holo_packa_cols(d, a, k, K, g->csa);
  }
}
#else
typedef int holo_packa_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
