/* Softmax, opset-13 semantics: normalizes along one axis (default -1).
 * The row maximum is subtracted first so exp never overflows; the sum is
 * taken in ascending index order. A NaN anywhere in a row makes the whole
 * row NaN (the max skips NaN, but exp(NaN - max) is NaN and enters the sum).
 *
 * SIMD128 (contiguous rows, axis last): the max runs 4 lanes then across
 * them — the maximum of the non-NaN values is one value whatever the order
 * (only a zero's sign could depend on it, and x - (+0) equals x - (-0) for
 * every x but a zero, whose exp is 1 either way); exp is holo_x_expf4
 * (lane-exact holo_expf); the sum stays the scalar ascending f32 loop over
 * the stored exps; the division is per element. Same bytes as the scalar. */
#include "ext-util.h"
#include "mathf.h"
#include "ext-util.h"
#include "ukernels.h"

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#ifdef __wasm_simd128__
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
    for (i = 0; i + 4 <= n; i += 4) wasm_v128_store(yr + i, holo_x_expf4(wasm_f32x4_sub(wasm_v128_load(xr + i), mv)));
    for (; i < n; i++) yr[i] = holo_expf(xr[i] - mx);
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
#endif

holo_status holo_k_softmax_f32_infer(holo_kernel_call *c) { return holo_k_axis_op_infer(c, "Softmax"); }

/* The scalar kernel: outer x n x inner, normalized along n. */
static void softmax_scalar(const float *x, float *y, size_t outer, size_t n, size_t inner) {
  for (size_t o = 0; o < outer; o++) {
    for (size_t in = 0; in < inner; in++) {
      const float *xr = x + o * n * inner + in;
      float *yr = y + o * n * inner + in;
      float mx = -__builtin_inff();
      for (size_t i = 0; i < n; i++)
        if (xr[i * inner] > mx) mx = xr[i * inner];
      float sum = 0.0f;
      for (size_t i = 0; i < n; i++) {
        float e = holo_expf(xr[i * inner] - mx);
        yr[i * inner] = e;
        sum += e;
      }
      for (size_t i = 0; i < n; i++) yr[i * inner] = yr[i * inner] / sum;
    }
  }
}

void holo_ukernel_softmax_rows_f32__scalar(const float *x, float *y, size_t n, size_t rows) {
  softmax_scalar(x, y, rows, n, 1);
}

#ifdef __wasm_simd128__
void holo_ukernel_softmax_rows_f32__simd128(const float *x, float *y, size_t n, size_t rows) {
  for (size_t o = 0; o < rows; o += 4)
    softmax_rows_simd(x + o * n, y + o * n, n, rows - o < 4 ? rows - o : 4);
}
#endif

holo_status holo_k_softmax_f32_run(holo_kernel_call *c) {
  uint32_t axis;
  if (holo_k_axis_attr(c, "Softmax", &axis)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  size_t outer, n, inner;
  holo_k_axis_split(xt, axis, &outer, &n, &inner);
#ifdef __wasm_simd128__
  if (inner == 1) {
    holo_ukernel_softmax_rows_f32__simd128(x, y, n, outer);
    return HOLO_OK;
  }
#endif
  softmax_scalar(x, y, outer, n, inner);
  return HOLO_OK;
}
