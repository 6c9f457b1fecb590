/* Conv's im2col straight into the GEMM core's packed panel layout
 * (im2col.h): pure data movement, a padding position +0. */
#include "microkernels/im2col.h"

/* The loops of the rare cases (a tap at a row's edge, a panel across
 * output rows) stay plain loops: vectorized and unrolled they cost the
 * relaxed core more gzip bytes than its bound had room for. */
#if defined(__clang__)
#define SMALL_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#else
#define SMALL_LOOP
#endif

/* Every channel's taps of a full panel whose 8 positions lie in one output
 * row, so position e reads input column iw0 + e*stride of the tap's row:
 * each tap's bounds are checked once for all channels, not per element
 * (the thin convolutions of issue 40 spent a third of their time in the
 * per-element checks). */
static void im2col_row(float *d, const float *xg, const holo_k_win2d *w, size_t Cg, int64_t ih0, int64_t iw0) {
  int64_t H = w->in[0], W = w->in[1], s = w->stride[1];
  size_t step = (size_t)(w->k[0] * w->k[1]) * HOLO_GEMM_NR, plane = (size_t)(H * W);
  for (int64_t kh = 0; kh < w->k[0]; kh++) {
    int64_t ih = ih0 + kh * w->dil[0];
    bool rin = ih >= 0 && ih < H;
    for (int64_t kw = 0; kw < w->k[1]; kw++, d += HOLO_GEMM_NR) {
      int64_t iw = iw0 + kw * w->dil[1];
      bool all = rin && iw >= 0 && iw + (HOLO_GEMM_NR - 1) * s < W;
      const float *r = xg + (rin ? ih * W : 0);
      for (size_t ic = 0; ic < Cg; ic++, r += plane) {
        float *o = d + ic * step;
        if (all && s == 1) {
          __builtin_memcpy(o, r + iw, HOLO_GEMM_NR * sizeof(float));
          continue;
        }
        /* a tap at the row's edge: rare */
SMALL_LOOP
        for (int64_t e = 0; e < HOLO_GEMM_NR; e++) {
          int64_t c = iw + e * s;
          o[e] = all || (rin && c >= 0 && c < W) ? r[c] : 0.0f;
        }
      }
    }
  }
}

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
    if (nc == HOLO_GEMM_NR && ihb[0] == ihb[HOLO_GEMM_NR - 1]) {
      im2col_row(d, xg, w, Cg, ihb[0], iwb[0]);
      continue;
    }
    for (size_t ic = 0; ic < Cg; ic++) {
      const float *xp = xg + ic * (size_t)(H * W);
      for (int64_t kh = 0; kh < kH; kh++) {
        for (int64_t kw = 0; kw < kW; kw++) {
          size_t e = 0;
SMALL_LOOP
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
