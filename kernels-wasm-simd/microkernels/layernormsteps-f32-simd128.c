/* The squares and the normalization of holo.LayerNormSteps (layernorm.h)
 * 4 lanes at a time: independent elements, the same f32 operations per
 * element as layernormsteps-f32-scalar.c, hence the same bytes; the tail
 * runs the scalar kernel. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/layernorm.h"

void holo_ukernel_lns_squares_f32__simd128(const float *xr, float *yr, size_t n, float mean) {
  size_t i = 0;
  const v128_t mv = wasm_f32x4_splat(mean);
  for (; i + 4 <= n; i += 4) {
    v128_t d = wasm_f32x4_sub(wasm_v128_load(xr + i), mv);
    wasm_v128_store(yr + i, wasm_f32x4_mul(d, d));
  }
  holo_ukernel_lns_squares_f32__scalar(xr + i, yr + i, n - i, mean);
}

void holo_ukernel_lns_norm_f32__simd128(const float *xr, float *yr, size_t n, float mean, float s,
                                        const float *sc, size_t ss, const float *bi, size_t bs) {
  size_t i = 0;
  const v128_t mv = wasm_f32x4_splat(mean), sv = wasm_f32x4_splat(s);
  const v128_t sc1 = wasm_f32x4_splat(sc ? sc[0] : 0.0f), bi1 = wasm_f32x4_splat(bi ? bi[0] : 0.0f);
  for (; i + 4 <= n; i += 4) {
    v128_t v = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(xr + i), mv), sv);
    if (sc) v = wasm_f32x4_mul(v, ss ? wasm_v128_load(sc + i) : sc1);
    if (bi) v = wasm_f32x4_add(v, bs ? wasm_v128_load(bi + i) : bi1);
    wasm_v128_store(yr + i, v);
  }
  holo_ukernel_lns_norm_f32__scalar(xr + i, yr + i, n - i, mean, s, sc ? sc + i * ss : sc, ss,
                                    bi ? bi + i * bs : bi, bs);
}
#else
typedef int holo_layernormsteps_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
