/* Resize, one output row of one plane (resize2d.h), 2 outputs per f64x2
 * step: lane l is output o+l, with the scalar kernel's products and sums in
 * its order (IEEE double in every lane, the inputs promoted exactly), hence
 * its bytes. The column taps are gathered (any scale, any index); what the
 * lanes save is the double multiply-adds, which bilinear upsampling
 * (lraspp's 28x28 -> 224x224 head) spends 4 of per output. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "microkernels/resize2d.h"

void holo_ukernel_resize2d_row_f32__simd128(const holo_resize2d_row *r, float *y) {
  const uint32_t th = r->th, tw = r->tw;
  size_t o = 0;
  for (; o + 2 <= r->n; o += 2) {
    const int64_t *i0 = r->iw + o * tw, *i1 = i0 + tw;
    const double *w0 = r->ww + o * tw, *w1 = w0 + tw;
    v128_t sum = wasm_f64x2_splat(0.0);
    for (uint32_t a = 0; a < th; a++) {
      const v128_t wh = wasm_f64x2_splat(r->wh[a]);
      const float *row = r->rows[a];
      for (uint32_t b = 0; b < tw; b++) {
        v128_t wt = wasm_f64x2_mul(wh, wasm_f64x2_make(w0[b], w1[b]));
        v128_t x = wasm_f64x2_make((double)row[i0[b]], (double)row[i1[b]]);
        sum = wasm_f64x2_add(sum, wasm_f64x2_mul(wt, x));
      }
    }
    v128_t f = wasm_f32x4_demote_f64x2_zero(sum);
    y[o] = wasm_f32x4_extract_lane(f, 0);
    y[o + 1] = wasm_f32x4_extract_lane(f, 1);
  }
  if (o < r->n) {
    holo_resize2d_row tail = *r;
    tail.iw += o * tw;
    tail.ww += o * tw;
    tail.n -= o;
    holo_ukernel_resize2d_row_f32__scalar(&tail, y + o);
  }
}
#else
typedef int holo_resize2d_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
