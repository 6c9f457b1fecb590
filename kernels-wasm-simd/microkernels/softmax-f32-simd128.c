/* Softmax (axis.h) on contiguous rows (inner == 1; otherwise the scalar
 * kernel): the max runs 4 lanes then across them — the maximum of the
 * non-NaN values is one value whatever the order (only a zero's sign could
 * depend on it, and x - (+0) equals x - (-0) for every x but a zero, whose
 * exp is 1 either way); exp is holo_vexpf4_nonpos (lane-exact holo_vexpf_nonpos, math/vexpf.h); the sum
 * stays the scalar ascending f32 loop over the stored exps (4 rows' sum
 * chains interleaved, each in its own order); the division is per element.
 * Same bytes as softmax-f32-scalar.c. */
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

#include "math/vexpf.h"
#include "microkernels/axis.h"

/* Rows [o, o+nr) (nr <= 4) of length n, contiguous: each row's max, exps,
 * ascending f32 sum and divisions as the header says; the 4 rows' sum chains
 * are interleaved (independent rows, each in its own order). */
static void softmax_rows_simd(const float *x, float *y, size_t n, size_t nr) {
  float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (size_t q = 0; q < nr; q++) {
    const float *xr = x + q * n;
    float *yr = y + q * n;
    v128_t m4 = wasm_f32x4_splat(-__builtin_inff());
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      v128_t v = wasm_v128_load(xr + i);
      m4 = wasm_v128_bitselect(v, m4, wasm_f32x4_gt(v, m4));
    }
    float mx = -__builtin_inff(), ml[4];
    wasm_v128_store(ml, m4);
    for (int l = 0; l < 4; l++)
      if (ml[l] > mx) mx = ml[l];
    for (; i < n; i++)
      if (xr[i] > mx) mx = xr[i];
    const v128_t mv = wasm_f32x4_splat(mx);
    for (i = 0; i + 4 <= n; i += 4) wasm_v128_store(yr + i, holo_vexpf4_nonpos(wasm_f32x4_sub(wasm_v128_load(xr + i), mv)));
    for (; i < n; i++) yr[i] = holo_vexpf_nonpos(xr[i] - mx);
  }
  if (nr == 4) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    const float *y1 = y + n, *y2 = y1 + n, *y3 = y2 + n;
    for (size_t i = 0; i < n; i++) {
      s0 += y[i];
      s1 += y1[i];
      s2 += y2[i];
      s3 += y3[i];
    }
    sum[0] = s0, sum[1] = s1, sum[2] = s2, sum[3] = s3;
  } else {
    for (size_t q = 0; q < nr; q++)
      for (size_t i = 0; i < n; i++) sum[q] += y[q * n + i];
  }
  for (size_t q = 0; q < nr; q++) {
    float *yr = y + q * n;
    const v128_t sv = wasm_f32x4_splat(sum[q]);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) wasm_v128_store(yr + i, wasm_f32x4_div(wasm_v128_load(yr + i), sv));
    for (; i < n; i++) yr[i] = yr[i] / sum[q];
  }
}

void holo_ukernel_softmax_f32__simd128(const float *x, float *y, size_t outer, size_t n, size_t inner) {
  if (inner != 1) {
    holo_ukernel_softmax_f32__scalar(x, y, outer, n, inner);
    return;
  }
  for (size_t o = 0; o < outer; o += 4)
    softmax_rows_simd(x + o * n, y + o * n, n, outer - o < 4 ? outer - o : 4);
}
#else
typedef int holo_softmax_f32_simd128_unused; /* no wasm SIMD in this build */
#endif
