/* CumSum along n of an [outer, n, inner] view (axis.h), dtype f32, f64,
 * i32 or i64: floats accumulate in double in the scan order and round each
 * output once; integers wrap. */
#include "common/elements.h"
#include "microkernels/axis.h"

void holo_ukernel_cumsum__scalar(uint32_t dt, const void *x, void *y, size_t outer, size_t n, size_t inner, bool excl,
                                 bool rev) {
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      double accd = 0;
      uint64_t acci = 0;
      for (size_t s = 0; s < n; s++) {
        size_t i = rev ? n - 1 - s : s, p = (o * n + i) * inner + in;
        double vd = 0;
        uint64_t vi = 0;
        if (holo_k_is_float(dt)) vd = holo_k_load_f64(x, dt, p);
        else vi = (uint64_t)holo_k_load_i64(x, dt, p);
        if (!excl) accd += vd, acci += vi;
        switch (dt) {
        case HOLO_DT_F32: ((float *)y)[p] = (float)accd; break;
        case HOLO_DT_F64: ((double *)y)[p] = accd; break;
        case HOLO_DT_I32: ((uint32_t *)y)[p] = (uint32_t)acci; break;
        default: ((uint64_t *)y)[p] = acci; break;
        }
        if (excl) accd += vd, acci += vi;
      }
    }
}
