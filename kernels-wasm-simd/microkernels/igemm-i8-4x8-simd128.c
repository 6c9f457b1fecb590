/* The integer GEMM tile in wasm SIMD128 (igemm.h): per k pair, row i's two
 * int16 values splatted (one 32-bit load) against B's columns 0-3 and 4-7,
 * i32x4.dot_i16x8_s adding both products of each column at once. Integer
 * sums are exact, so this gives the scalar reference's bytes. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/igemm.h"

void holo_ukernel_igemm_i8_4x8__simd128(size_t kp, const int16_t *pa, const int16_t *pb, int32_t *c,
                                        size_t ldc, size_t mr, size_t nr) {
  v128_t c00 = wasm_i32x4_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00,
         c31 = c00;
  for (size_t q = 0; q < kp / 2; q++, pa += 2 * HOLO_IGEMM_MR, pb += 2 * HOLO_IGEMM_NR) {
    v128_t b0 = wasm_v128_load(pb), b1 = wasm_v128_load(pb + 8);
    v128_t a0 = wasm_v128_load32_splat(pa), a1 = wasm_v128_load32_splat(pa + 2);
    v128_t a2 = wasm_v128_load32_splat(pa + 4), a3 = wasm_v128_load32_splat(pa + 6);
    c00 = wasm_i32x4_add(c00, wasm_i32x4_dot_i16x8(a0, b0));
    c01 = wasm_i32x4_add(c01, wasm_i32x4_dot_i16x8(a0, b1));
    c10 = wasm_i32x4_add(c10, wasm_i32x4_dot_i16x8(a1, b0));
    c11 = wasm_i32x4_add(c11, wasm_i32x4_dot_i16x8(a1, b1));
    c20 = wasm_i32x4_add(c20, wasm_i32x4_dot_i16x8(a2, b0));
    c21 = wasm_i32x4_add(c21, wasm_i32x4_dot_i16x8(a2, b1));
    c30 = wasm_i32x4_add(c30, wasm_i32x4_dot_i16x8(a3, b0));
    c31 = wasm_i32x4_add(c31, wasm_i32x4_dot_i16x8(a3, b1));
  }
  v128_t t[HOLO_IGEMM_MR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}};
  if (nr == HOLO_IGEMM_NR) {
    for (size_t i = 0; i < mr; i++) {
      wasm_v128_store(c + i * ldc, t[i][0]);
      wasm_v128_store(c + i * ldc + 4, t[i][1]);
    }
    return;
  }
  for (size_t i = 0; i < mr; i++) {
    int32_t row[HOLO_IGEMM_NR];
    wasm_v128_store(row, t[i][0]);
    wasm_v128_store(row + 4, t[i][1]);
    for (size_t j = 0; j < nr; j++)
      c[i * ldc + j] = row[j];
  }
}
#endif
