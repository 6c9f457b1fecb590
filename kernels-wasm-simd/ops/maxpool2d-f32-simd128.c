/* MaxPool 2-D f32, 4 outputs of a row per f32x4 (stride 1 or 2 along W);
 * the scalar reference is pool_run in pool2d-f32-scalar.c, which calls this
 * for the interior of each row (pool2d.h). resnet18's 3x3/2 MaxPool over
 * 64x112x112 was 4.1 ms of its ~120 (3.5%) as a scalar loop. */
#include "pool2d.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* One lane step of the scalar rule: if (v > mx || v != v) mx = mx != mx ? mx : v. */
static inline v128_t max_step(v128_t mx, v128_t v) {
  v128_t take = wasm_v128_or(wasm_f32x4_gt(v, mx), wasm_f32x4_ne(v, v));
  v128_t nv = wasm_v128_bitselect(mx, v, wasm_f32x4_ne(mx, mx));
  return wasm_v128_bitselect(nv, mx, take);
}

int64_t holo_k_maxpool2d_row_f32(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow0, float *y) {
  const int64_t H = w->in[0], W = w->in[1], s = w->stride[1], d = w->dil[1], pb = w->pad_begin[1];
  if (s != 1 && s != 2) return 0;
  /* the columns a group of 4 outputs at ow reads: [ow*s - pb, (ow+3)*s - pb + (k-1)*d + (s-1)] */
  const int64_t span = 3 * s + (w->k[1] - 1) * d + (s - 1);
  int64_t ow = ow0;
  for (; ow + 4 <= w->out[1] && ow * s - pb >= 0 && ow * s - pb + span < W; ow += 4) {
    v128_t mx = wasm_f32x4_splat(-__builtin_inff());
    int64_t kh0, kh1, ihb = oh * w->stride[0] - w->pad_begin[0];
    holo_k_pool_taps(ihb, w->dil[0], w->k[0], 0, H, &kh0, &kh1);
    for (int64_t kh = kh0; kh < kh1; kh++) {
      int64_t ih = ihb + kh * w->dil[0];
      const float *row = xp + ih * W + ow * s - pb;
      for (int64_t kw = 0; kw < w->k[1]; kw++) {
        const float *p = row + kw * d;
        v128_t v = wasm_v128_load(p);
        if (s == 2) v = wasm_i32x4_shuffle(v, wasm_v128_load(p + 4), 0, 2, 4, 6);
        mx = max_step(mx, v);
      }
    }
    wasm_v128_store(y + ow, mx);
  }
  return ow - ow0;
}
#else
int64_t holo_k_maxpool2d_row_f32(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow0, float *y) {
  (void)xp, (void)w, (void)oh, (void)ow0, (void)y;
  return 0; /* the scalar loop computes every output */
}
#endif
