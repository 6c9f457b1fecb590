/* ArgMax / ArgMin along n of an [outer, n, inner] view (axis.h) of any
 * numeric dtype but f32 (argminmax-f32-scalar.c), into i64 indices, with
 * the f32 kernel's rules: ties give the first index (the last with last);
 * a floating NaN counts as larger and smaller than every number, so the
 * first NaN wins (the last with last). Integers compare exactly (u64 as
 * unsigned; the others load exactly as int64); f64, f16 and bf16 compare as
 * double, exact for all three. n >= 1. */
#include "common/elements.h"
#include "microkernels/axis.h"

/* v better than the best so far bv, for floating dtypes. */
static bool better_f(double v, double bv, bool is_max, bool last) {
  if (bv != bv) return last && v != v; /* a NaN holds; a later NaN with last */
  if (v != v) return true;
  if (v == bv) return last;
  return is_max ? v > bv : v < bv;
}

static bool better_i(uint32_t dt, int64_t v, int64_t bv, bool is_max, bool last) {
  if (v == bv) return last;
  const bool gt = dt == HOLO_DT_U64 ? (uint64_t)v > (uint64_t)bv : v > bv;
  return is_max ? gt : !gt;
}

void holo_ukernel_argminmax_numeric__scalar(uint32_t dt, const void *x, int64_t *y, size_t outer, size_t n,
                                            size_t inner, bool is_max, bool last) {
  const bool fl = holo_k_is_float(dt);
  for (size_t o = 0; o < outer; o++)
    for (size_t in = 0; in < inner; in++) {
      const size_t r = o * n * inner + in;
      size_t best = 0;
      double bf = fl ? holo_k_load_f64(x, dt, r) : 0;
      int64_t bi = fl ? 0 : holo_k_load_i64(x, dt, r);
      for (size_t i = 1; i < n; i++) {
        if (fl) {
          const double v = holo_k_load_f64(x, dt, r + i * inner);
          if (better_f(v, bf, is_max, last)) best = i, bf = v;
        } else {
          const int64_t v = holo_k_load_i64(x, dt, r + i * inner);
          if (better_i(dt, v, bi, is_max, last)) best = i, bi = v;
        }
      }
      y[o * inner + in] = (int64_t)best;
    }
}
