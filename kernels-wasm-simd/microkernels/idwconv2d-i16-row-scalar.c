/* One output row of a depthwise integer convolution over the padded int16
 * plane (idwconv2d.h), any strides and dilations: the reference for every
 * variant (each output is an exact int32 sum, one value in any order). */
#include "microkernels/idwconv2d.h"

void holo_ukernel_idwconv2d_i16_row__scalar(const holo_k_win2d *w, const int16_t *xp, size_t ldx,
                                            const int16_t *wt, int32_t *y, int64_t oh) {
  const int64_t OW = w->out[1], kH = w->k[0], kW = w->k[1], s1 = w->stride[1];
  const int16_t *x0 = xp + (size_t)(oh * w->stride[0]) * ldx;
  for (int64_t ow = 0; ow < OW; ow++) {
    int32_t acc = 0;
    for (int64_t kh = 0; kh < kH; kh++) {
      const int16_t *xr = x0 + (size_t)(kh * w->dil[0]) * ldx + ow * s1;
      for (int64_t kw = 0; kw < kW; kw++)
        acc += (int32_t)wt[kh * kW + kw] * (int32_t)xr[kw * w->dil[1]];
    }
    y[ow] = acc;
  }
}
