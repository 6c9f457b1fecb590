/* AveragePool, one output row (pool2d.h). */
#include "microkernels/pool2d.h"

void holo_ukernel_avgpool2d_row_f32__scalar(const float *xp, const holo_k_win2d *w, int64_t oh, bool include_pad,
                                            float *y) {
  for (int64_t ow = 0; ow < w->out[1]; ow++)
    y[ow] = holo_pool2d_one_f32(xp, w, oh, ow, false, include_pad);
}
