/* Conv's im2col straight into the GEMM core's packed panel layout
 * (im2col.h): pure data movement, a padding position +0. */
#include "microkernels/im2col.h"

/* col rows k = (ic, kh, kw) over output positions [p0, p0+pc) of one image
 * and group, in panel layout: dst[(p/8)*K*8 + k*8 + p%8], zero padded. */
void holo_ukernel_im2col_f32__scalar(float *dst, const float *xg, const holo_k_win2d *w, size_t Cg, size_t p0,
                                     size_t pc) {
  int64_t H = w->in[0], W = w->in[1], OW = w->out[1];
  int64_t kH = w->k[0], kW = w->k[1];
  size_t K = Cg * (size_t)(kH * kW), npan = (pc + HOLO_GEMM_NR - 1) / HOLO_GEMM_NR;
  for (size_t q = 0; q < npan; q++) {
    float *d = dst + q * K * HOLO_GEMM_NR;
    size_t nc = pc - q * HOLO_GEMM_NR < HOLO_GEMM_NR ? pc - q * HOLO_GEMM_NR : HOLO_GEMM_NR;
    int64_t ihb[HOLO_GEMM_NR], iwb[HOLO_GEMM_NR];
    for (size_t e = 0; e < nc; e++) {
      int64_t p = (int64_t)(p0 + q * HOLO_GEMM_NR + e);
      ihb[e] = (p / OW) * w->stride[0] - w->pad_begin[0];
      iwb[e] = (p % OW) * w->stride[1] - w->pad_begin[1];
    }
    /* a full panel inside one output row with unit width stride reads 8
     * consecutive input floats per tap: copied as one block when they all
     * lie inside X (pure data movement, the same floats as the loop below) */
    const bool row8 = nc == HOLO_GEMM_NR && w->stride[1] == 1 && ihb[0] == ihb[HOLO_GEMM_NR - 1];
    for (size_t ic = 0; ic < Cg; ic++) {
      const float *xp = xg + ic * (size_t)(H * W);
      for (int64_t kh = 0; kh < kH; kh++) {
        for (int64_t kw = 0; kw < kW; kw++) {
          if (row8) {
            int64_t ih = ihb[0] + kh * w->dil[0], iw = iwb[0] + kw * w->dil[1];
            if (ih >= 0 && ih < H && iw >= 0 && iw + HOLO_GEMM_NR <= W) {
              __builtin_memcpy(d, xp + ih * W + iw, HOLO_GEMM_NR * sizeof(float));
              d += HOLO_GEMM_NR;
              continue;
            }
          }
          size_t e = 0;
          for (; e < nc; e++) {
            int64_t ih = ihb[e] + kh * w->dil[0], iw = iwb[e] + kw * w->dil[1];
            d[e] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? xp[ih * W + iw] : 0.0f;
          }
          for (; e < HOLO_GEMM_NR; e++)
            d[e] = 0.0f;
          d += HOLO_GEMM_NR;
        }
      }
    }
  }
}
