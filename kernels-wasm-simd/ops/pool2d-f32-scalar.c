/* MaxPool and AveragePool (2-D NCHW f32) and GlobalAveragePool (any rank
 * >= 3). Window elements are visited in ascending (kh, kw) order; padding
 * never enters a max, and enters an average only through its divisor
 * (count_include_pad). A NaN in a MaxPool window makes that output NaN. */
#include "pool2d.h"
#include "ukernels.h"
#include "common/shape.h"

static holo_status pool_geometry(holo_kernel_call *c, const char *op, holo_k_win2d *w) {
  const holo_tensor *x = &c->inputs[0];
  char s1[HOLO_K_SHAPE_STR];
  if (x->rank == 3 || x->rank == 5)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %u-D pooling is not supported (2-D only)", op,
                       x->rank - 2);
  if (x->rank != 4)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: X must be NCHW (rank 4), got X%s", op,
                       holo_k_shape_str(s1, x->shape, x->rank));
  return holo_k_window2d(c, op, x->shape + 2, 0, true, w);
}

static holo_status pool_infer(holo_kernel_call *c, const char *op, bool is_max) {
  holo_status st;
  holo_k_win2d w;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, op, 1, 1, is_max ? 2 : 1))) return st;
  if (is_max && c->n_outputs > 1)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "MaxPool: the Indices output is not supported");
  if ((st = holo_k_check_input(c, op, 0, HOLO_DT_F32))) return st;
  if ((st = pool_geometry(c, op, &w))) return st;
  if (is_max) {
    int64_t so = holo_attr_int(c, "storage_order", 0);
    if (so != 0 && so != 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "MaxPool: storage_order must be 0 or 1, got %lld",
                         (long long)so);
  } else {
    int64_t cip = holo_attr_int(c, "count_include_pad", 0);
    if (cip != 0 && cip != 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "AveragePool: count_include_pad must be 0 or 1, got %lld",
                         (long long)cip);
  }
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[4] = {x->shape[0], x->shape[1], w.out[0], w.out[1]};
  /* per output: the taps inside X (at most min(k, in) along each axis) and
   * one step for the window itself */
  uint64_t th = (uint64_t)(w.k[0] < w.in[0] ? w.k[0] : w.in[0]);
  uint64_t tw = (uint64_t)(w.k[1] < w.in[1] ? w.k[1] : w.in[1]);
  uint64_t f[5] = {(uint64_t)ys[0], (uint64_t)ys[1], (uint64_t)ys[2], (uint64_t)ys[3], th * tw + 1};
  c->work = holo_k_work(5, f);
  return holo_k_set_output(c, op, 0, HOLO_DT_F32, 4, ys);
}

holo_status holo_k_maxpool_f32_infer(holo_kernel_call *c) { return pool_infer(c, "MaxPool", true); }
holo_status holo_k_avgpool_f32_infer(holo_kernel_call *c) {
  return pool_infer(c, "AveragePool", false);
}

/* One output (oh, ow) of plane xp: the window's taps inside X in ascending
 * (kh, kw). Only those are visited (pool2d.h): the padding taps add nothing
 * to a max or a sum, and their number, for count_include_pad, is a product
 * of two tap ranges. */
static inline float pool_one(const float *xp, const holo_k_win2d *w, int64_t oh, int64_t ow, bool is_max,
                             bool include_pad) {
  const int64_t H = w->in[0], W = w->in[1];
  const int64_t ihb = oh * w->stride[0] - w->pad_begin[0], iwb = ow * w->stride[1] - w->pad_begin[1];
  int64_t kh0, kh1, kw0, kw1;
  holo_k_pool_taps(ihb, w->dil[0], w->k[0], 0, H, &kh0, &kh1);
  holo_k_pool_taps(iwb, w->dil[1], w->k[1], 0, W, &kw0, &kw1);
  float mx = -__builtin_inff(), sum = 0.0f;
  for (int64_t kh = kh0; kh < kh1; kh++) {
    const int64_t r = (ihb + kh * w->dil[0]) * W + iwb;
    for (int64_t kw = kw0; kw < kw1; kw++) {
      float v = xp[r + kw * w->dil[1]];
      if (is_max) {
        if (v > mx || v != v) mx = mx != mx ? mx : v;
      } else {
        sum += v;
      }
    }
  }
  if (is_max) return mx;
  int64_t count = (kh1 - kh0) * (kw1 - kw0);
  if (include_pad) {
    int64_t ph0, ph1, pw0, pw1;
    holo_k_pool_taps(ihb, w->dil[0], w->k[0], -w->pad_begin[0], H + w->pad_end[0], &ph0, &ph1);
    holo_k_pool_taps(iwb, w->dil[1], w->k[1], -w->pad_begin[1], W + w->pad_end[1], &pw0, &pw1);
    count = (ph1 - ph0) * (pw1 - pw0);
  }
  /* an average over no element is 0, not 0/0 */
  return count ? sum / (float)count : 0.0f;
}

void holo_ukernel_maxpool2d_row_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t oh, float *y) {
  for (int64_t ow = 0; ow < w->out[1]; ow++)
    y[ow] = pool_one(xp, w, oh, ow, true, false);
}

#ifdef __wasm_simd128__
void holo_ukernel_maxpool2d_row_f32__simd128(const float *xp, const holo_k_win2d *w, int64_t oh, float *y) {
  for (int64_t ow = 0; ow < w->out[1]; ow++) {
    /* the row's interior in SIMD groups */
    int64_t n = holo_k_maxpool2d_row_f32(xp, w, oh, ow, y);
    if (n) {
      ow += n - 1;
      continue;
    }
    y[ow] = pool_one(xp, w, oh, ow, true, false);
  }
}
#define maxpool_row holo_ukernel_maxpool2d_row_f32__simd128
#else
#define maxpool_row holo_ukernel_maxpool2d_row_f32__scalar
#endif

static holo_status pool_run(holo_kernel_call *c, const char *op, bool is_max) {
  holo_k_win2d w;
  if (pool_geometry(c, op, &w)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *X = xt->data;
  float *Y = c->outputs[0].data;
  bool include_pad = !is_max && holo_attr_int(c, "count_include_pad", 0) == 1;
  int64_t H = w.in[0], W = w.in[1], OH = w.out[0], OW = w.out[1];
  size_t planes = holo_k_prod(xt->shape, 0, 2), xplane = (size_t)(H * W);
  for (size_t p = 0; p < planes; p++) {
    const float *xp = X + p * xplane;
    float *yp = Y + p * (size_t)(OH * OW);
    for (int64_t oh = 0; oh < OH; oh++) {
      if (is_max) {
        maxpool_row(xp, &w, oh, yp + oh * OW);
        continue;
      }
      for (int64_t ow = 0; ow < OW; ow++)
        yp[oh * OW + ow] = pool_one(xp, &w, oh, ow, false, include_pad);
    }
  }
  return HOLO_OK;
}

holo_status holo_k_maxpool_f32_run(holo_kernel_call *c) { return pool_run(c, "MaxPool", true); }
holo_status holo_k_avgpool_f32_run(holo_kernel_call *c) { return pool_run(c, "AveragePool", false); }

holo_status holo_k_gap_f32_infer(holo_kernel_call *c) {
  holo_status st;
  char s1[HOLO_K_SHAPE_STR];
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "GlobalAveragePool", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "GlobalAveragePool", 0, HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank < 3)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GlobalAveragePool: X must be rank >= 3 (N,C,...), got X%s",
                       holo_k_shape_str(s1, x->shape, x->rank));
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++)
    ys[i] = i < 2 ? x->shape[i] : 1;
  return holo_k_set_output(c, "GlobalAveragePool", 0, HOLO_DT_F32, x->rank, ys);
}

holo_status holo_k_gap_f32_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  const float *X = xt->data;
  float *Y = c->outputs[0].data;
  size_t planes = holo_k_prod(xt->shape, 0, 2), n = holo_k_prod(xt->shape, 2, xt->rank);
  for (size_t p = 0; p < planes; p++) {
    float sum = 0.0f;
    for (size_t i = 0; i < n; i++)
      sum += X[p * n + i];
    /* the mean of an empty plane is NaN, as numpy's */
    Y[p] = sum / (float)n;
  }
  return HOLO_OK;
}
