/* GlobalAveragePool (pool2d.h), 4 planes at a time: lane l holds plane
 * p+l's running sum, and the 4x4 blocks of the 4 planes are transposed so
 * that each lane adds its plane's elements one by one in ascending order,
 * the scalar kernel's order, hence the same bytes; fewer than 4 planes left
 * run the scalar kernel. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/pool2d.h"

/* Adds the 4x4 block r0..r3 (row l: plane l's next 4 elements) to acc
 * column by column. */
static inline v128_t gap_block(v128_t acc, v128_t r0, v128_t r1, v128_t r2, v128_t r3) {
  const v128_t t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5);
  const v128_t t2 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  acc = wasm_f32x4_add(acc, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
  acc = wasm_f32x4_add(acc, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
  acc = wasm_f32x4_add(acc, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
  return wasm_f32x4_add(acc, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
}

void holo_ukernel_gavgpool_f32__simd128(const float *X, float *Y, size_t planes, size_t n) {
  size_t p = 0;
  for (; p + 4 <= planes; p += 4) {
    const float *x0 = X + p * n, *x1 = x0 + n, *x2 = x1 + n, *x3 = x2 + n;
    v128_t acc = wasm_f32x4_splat(0.0f);
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
      acc = gap_block(acc, wasm_v128_load(x0 + i), wasm_v128_load(x1 + i), wasm_v128_load(x2 + i),
                      wasm_v128_load(x3 + i));
    for (; i < n; i++) acc = wasm_f32x4_add(acc, wasm_f32x4_make(x0[i], x1[i], x2[i], x3[i]));
    wasm_v128_store(Y + p, wasm_f32x4_div(acc, wasm_f32x4_splat((float)n)));
  }
  holo_ukernel_gavgpool_f32__scalar(X + p * n, Y + p, planes - p, n);
}
#else
typedef int holo_gavgpool_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
