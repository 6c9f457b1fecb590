/* ConvInteger's im2col straight into the integer GEMM core's packed B
 * panels (igemm.h c2 layout, im2col.h): each tap as the int16 difference
 * x - zx, a padding position 0 (onnxruntime pads X with its zero point),
 * and each position's sum of them, read back from the panels. */
#include "microkernels/igemm.h"
#include "microkernels/im2col.h"

static inline int16_t ic_at(const void *x, bool u8, size_t i, int32_t zx) {
  return (int16_t)((u8 ? (int32_t)((const uint8_t *)x)[i] : (int32_t)((const int8_t *)x)[i]) - zx);
}

void holo_ukernel_iim2col_i8__scalar(int16_t *dst, int32_t *colsum, const void *xg, bool u8, int32_t zx,
                                     const holo_k_win2d *w, size_t Cg, size_t p0, size_t pc) {
  int64_t H = w->in[0], W = w->in[1], OW = w->out[1], kH = w->k[0], kW = w->k[1];
  size_t K = Cg * (size_t)(kH * kW), kp = holo_igemm_kp(K), npan = (pc + HOLO_IGEMM_NR - 1) / HOLO_IGEMM_NR;
  for (size_t q = 0; q < npan; q++) {
    int16_t *d = dst + q * kp * HOLO_IGEMM_NR;
    size_t nc = pc - q * HOLO_IGEMM_NR < HOLO_IGEMM_NR ? pc - q * HOLO_IGEMM_NR : HOLO_IGEMM_NR;
    int64_t ihb[HOLO_IGEMM_NR], iwb[HOLO_IGEMM_NR];
    for (size_t e = 0; e < nc; e++) {
      int64_t p = (int64_t)(p0 + q * HOLO_IGEMM_NR + e);
      ihb[e] = (p / OW) * w->stride[0] - w->pad_begin[0];
      iwb[e] = (p % OW) * w->stride[1] - w->pad_begin[1];
    }
    size_t k = 0;
    for (size_t c = 0; c < Cg; c++) {
      size_t xo = c * (size_t)(H * W);
      for (int64_t kh = 0; kh < kH; kh++)
        for (int64_t kw = 0; kw < kW; kw++, k++) {
          int16_t *dk = d + (k / 2) * 2 * HOLO_IGEMM_NR + (k & 1);
          size_t e = 0;
          for (; e < nc; e++) {
            int64_t ih = ihb[e] + kh * w->dil[0], iw = iwb[e] + kw * w->dil[1];
            dk[2 * e] =
                (ih >= 0 && ih < H && iw >= 0 && iw < W) ? ic_at(xg, u8, xo + (size_t)(ih * W + iw), zx) : 0;
          }
          for (; e < HOLO_IGEMM_NR; e++)
            dk[2 * e] = 0;
        }
    }
    if (K & 1)
      for (size_t e = 0; e < HOLO_IGEMM_NR; e++)
        d[(K / 2) * 2 * HOLO_IGEMM_NR + 2 * e + 1] = 0;
  }
  for (size_t j = 0; j < pc; j++) {
    const int16_t *d = dst + (j / HOLO_IGEMM_NR) * kp * HOLO_IGEMM_NR + 2 * (j % HOLO_IGEMM_NR);
    int32_t t = 0;
    for (size_t q = 0; q < kp / 2; q++)
      t += d[q * 2 * HOLO_IGEMM_NR] + d[q * 2 * HOLO_IGEMM_NR + 1];
    colsum[j] = t;
  }
}
