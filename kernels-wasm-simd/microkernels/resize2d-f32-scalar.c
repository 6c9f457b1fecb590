/* Resize, one output row of one plane (resize2d.h). */
#include "microkernels/resize2d.h"

void holo_ukernel_resize2d_row_f32__scalar(const holo_resize2d_row *r, float *y) {
  const uint32_t th = r->th, tw = r->tw;
  for (size_t o = 0; o < r->n; o++) {
    const int64_t *iw = r->iw + o * tw;
    const double *ww = r->ww + o * tw;
    double sum = 0;
    for (uint32_t a = 0; a < th; a++)
      for (uint32_t b = 0; b < tw; b++)
        sum += (r->wh[a] * ww[b]) * (double)r->rows[a][iw[b]];
    y[o] = (float)sum;
  }
}
