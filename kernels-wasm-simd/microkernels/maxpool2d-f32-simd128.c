/* MaxPool, one output row (pool2d.h): 4 outputs per f32x4 in the row's
 * interior (width stride 1 or 2), the edges by the scalar rule. Same bytes
 * as maxpool2d-f32-scalar.c: each lane visits its window in ascending
 * (kh, kw) order with the same compare and NaN rule. resnet18's 3x3/2
 * MaxPool over 64x112x112 was 4.1 ms of its ~120 (3.5%) as a scalar loop. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/pool2d.h"

/* One lane step of the scalar rule: if (v > mx || v != v) mx = mx != mx ? mx : v. */
static inline v128_t max_step(v128_t mx, v128_t v) {
  v128_t take = wasm_v128_or(wasm_f32x4_gt(v, mx), wasm_f32x4_ne(v, v));
  v128_t nv = wasm_v128_bitselect(mx, v, wasm_f32x4_ne(mx, mx));
  return wasm_v128_bitselect(nv, mx, take);
}

/* Outputs y[ow0], y[ow0+1], ... of row oh in groups of 4, for as long as
 * every window column of a group lies inside the row; returns how many it
 * computed (a multiple of 4; 0 where ow0 is not such a group). At stride 2
 * a tap's lanes are every other column of two loads: from the tap's first
 * column (the even lanes) they read one column past the group's last, so
 * where that is past the row they start one column before the first (the
 * odd lanes): a row's last group of a 2x2/2 pool over an even width (W =
 * 2 OW) stays SIMD (it was scalar: 25-50 % of the outputs of issue 40's
 * speech CNN's pools). */
static int64_t interior(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow0, float *y) {
  const int64_t H = w->in[0], W = w->in[1], s = w->stride[1], d = w->dil[1], pb = w->pad_begin[1];
  if (s != 1 && s != 2) return 0;
  /* the columns a group of 4 outputs at ow needs: [ow*s - pb, ow*s - pb + span] */
  const int64_t span = 3 * s + (w->k[1] - 1) * d;
  int64_t ow = ow0;
  for (; ow + 4 <= w->out[1]; ow += 4) {
    const int64_t c0 = ow * s - pb;
    const bool back = s == 2 && c0 + span + 1 >= W; /* the odd-lane loads, from c0 - 1 */
    if (c0 < (back ? 1 : 0) || c0 + span >= W) break;
    v128_t mx = wasm_f32x4_splat(-__builtin_inff());
    int64_t kh0, kh1, ihb = oh * w->stride[0] - w->pad_begin[0];
    holo_k_pool_taps(ihb, w->dil[0], w->k[0], 0, H, &kh0, &kh1);
    for (int64_t kh = kh0; kh < kh1; kh++) {
      int64_t ih = ihb + kh * w->dil[0];
      const float *row = xp + ih * W + c0;
      for (int64_t kw = 0; kw < w->k[1]; kw++) {
        const float *p = row + kw * d;
        v128_t v;
        if (s == 1)
          v = wasm_v128_load(p);
        else if (back)
          v = wasm_i32x4_shuffle(wasm_v128_load(p - 1), wasm_v128_load(p + 3), 1, 3, 5, 7);
        else
          v = wasm_i32x4_shuffle(wasm_v128_load(p), wasm_v128_load(p + 4), 0, 2, 4, 6);
        mx = max_step(mx, v);
      }
    }
    wasm_v128_store(y + ow, mx);
  }
  return ow - ow0;
}

void holo_ukernel_maxpool2d_row_f32__simd128(const float *xp, const holo_k_win2d *w, int64_t oh, float *y) {
  for (int64_t ow = 0; ow < w->out[1]; ow++) {
    int64_t n = interior(xp, w, oh, ow, y);
    if (n) {
      ow += n - 1;
      continue;
    }
    y[ow] = holo_pool2d_one_f32(xp, w, oh, ow, true, false);
  }
}
#else
typedef int holo_maxpool2d_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
