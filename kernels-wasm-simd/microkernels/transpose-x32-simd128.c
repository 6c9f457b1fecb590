/* Transpose's 2-D case of 4-byte elements (transpose.h) in 4x4 blocks:
 * 4 loads along the input's contiguous axis, a 4x4 lane transpose, 4
 * stores along the output's; the edges element by element. Data movement:
 * the same bytes as the scalar gather. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/transpose.h"

void holo_ukernel_transpose2d_x32__simd128(const uint32_t *x, size_t s, uint32_t *y, size_t P, size_t Q) {
  size_t p = 0;
  for (; p + 4 <= P; p += 4) {
    size_t q = 0;
    for (; q + 4 <= Q; q += 4) {
      const uint32_t *xb = x + q * s + p;
      const v128_t r0 = wasm_v128_load(xb), r1 = wasm_v128_load(xb + s);
      const v128_t r2 = wasm_v128_load(xb + 2 * s), r3 = wasm_v128_load(xb + 3 * s);
      const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
      const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
      uint32_t *yb = y + p * Q + q;
      wasm_v128_store(yb, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
      wasm_v128_store(yb + Q, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
      wasm_v128_store(yb + 2 * Q, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
      wasm_v128_store(yb + 3 * Q, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
    }
    for (size_t i = p; i < p + 4; i++)
      for (size_t j = q; j < Q; j++) y[i * Q + j] = x[j * s + i];
  }
  for (; p < P; p++)
    for (size_t j = 0; j < Q; j++) y[p * Q + j] = x[j * s + p];
}
#else
typedef int holo_transpose_x32_simd128_unused; /* no wasm SIMD in this build */
#endif
