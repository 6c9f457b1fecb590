/* Sigmoid and SiLU on 4 lanes (vunary.h; math/vsigmoidf.h): the lanes run
 * the scalar reference's operations, and the last n % 4 elements ARE the
 * scalar reference, so the bytes equal vsigmoid-f32-scalar.c's. Unaligned
 * pointers are fine (v128.load/store have no alignment requirement). */
#ifdef __wasm_simd128__
#include "math/vsigmoidf.h"
#include "microkernels/vunary.h"

void holo_ukernel_vsigmoid_f32__simd128(size_t n, const float *x, float *y) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128_t a = holo_vsigmoidf4(wasm_v128_load(x + i)), b = holo_vsigmoidf4(wasm_v128_load(x + i + 4));
    wasm_v128_store(y + i, a);
    wasm_v128_store(y + i + 4, b);
  }
  for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, holo_vsigmoidf4(wasm_v128_load(x + i)));
  for (; i < n; i++) y[i] = holo_vsigmoidf(x[i]);
}

void holo_ukernel_vsilu_f32__simd128(size_t n, const float *x, float *y) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(y + i, holo_vsiluf4(wasm_v128_load(x + i)));
  for (; i < n; i++) y[i] = holo_vsiluf(x[i]);
}
#else
typedef int holo_vsigmoid_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
