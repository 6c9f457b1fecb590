/* ArgMax / ArgMin along n of an [outer, n, inner] view (axis.h), into
 * i64 indices [outer, inner]. Ties give the first index (the last with
 * last); a NaN counts as larger and smaller than every number, so the first
 * NaN wins (the last with last). n >= 1 (the operator refuses an empty
 * axis). */
#include "microkernels/axis.h"

void holo_ukernel_argminmax_f32__scalar(const float *x, int64_t *y, size_t outer, size_t n, size_t inner, bool is_max,
                                        bool last) {
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      const float *r = x + o * n * inner + in;
      size_t best = 0;
      float bv = r[0];
      for (size_t i = 1; i < n; i++) {
        float v = r[i * inner];
        bool better;
        if (bv != bv) better = last && v != v; /* a NaN holds; a later NaN with last */
        else if (v != v) better = true;
        else if (v == bv) better = last;
        else better = is_max ? v > bv : v < bv;
        if (better) {
          best = i;
          bv = v;
        }
      }
      y[o * inner + in] = (int64_t)best;
    }
}
