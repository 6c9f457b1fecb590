/* MaxPool with its Indices output, one plane, by the scalar rule (pool2d.h).
 * The index is the flat position of the chosen element in X, batch and
 * channel included: the first element of the window (ascending kh, kw) that
 * is larger than every earlier one, or the first NaN, which is the value
 * then (the rule of holo_pool2d_one_f32, so Y has the same bytes as
 * without Indices). A window with no tap inside X gives -inf and the index
 * of its first position clamped into X: a kernel larger than the padded
 * input cannot reach here (window2d refuses it), so that case is only a
 * guard against reading nothing. */
#include "microkernels/pool2d.h"

void holo_ukernel_maxpool2d_argmax_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t base,
                                               bool col_major, float *y, int64_t *idx) {
  const int64_t H = w->in[0], W = w->in[1];
  for (int64_t oh = 0; oh < w->out[0]; oh++) {
    for (int64_t ow = 0; ow < w->out[1]; ow++) {
      const int64_t ihb = oh * w->stride[0] - w->pad_begin[0], iwb = ow * w->stride[1] - w->pad_begin[1];
      int64_t kh0, kh1, kw0, kw1;
      holo_k_pool_taps(ihb, w->dil[0], w->k[0], 0, H, &kh0, &kh1);
      holo_k_pool_taps(iwb, w->dil[1], w->k[1], 0, W, &kw0, &kw1);
      float mx = -__builtin_inff();
      int64_t bh = -1, bw = -1;
      for (int64_t kh = kh0; kh < kh1 && mx == mx; kh++) {
        const int64_t ih = ihb + kh * w->dil[0];
        for (int64_t kw = kw0; kw < kw1; kw++) {
          const int64_t iw = iwb + kw * w->dil[1];
          float v = xp[ih * W + iw];
          if (v > mx || v != v || bh < 0) {
            mx = v, bh = ih, bw = iw;
            if (v != v) break;
          }
        }
      }
      if (bh < 0) bh = ihb < 0 ? 0 : ihb >= H ? H - 1 : ihb, bw = iwb < 0 ? 0 : iwb >= W ? W - 1 : iwb;
      const size_t o = (size_t)(oh * w->out[1] + ow);
      y[o] = mx;
      idx[o] = base + (col_major ? bh + bw * H : bh * W + bw);
    }
  }
}
