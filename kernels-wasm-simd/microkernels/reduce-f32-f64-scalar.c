/* One output of a Reduce op (reduce.h): its set in ascending row-major
 * order of the input; sums and products accumulate in double. */
#include "math/mathlib.h"
#include "microkernels/reduce.h"

static double finish(int op, double acc, double cnt) {
  switch (op) {
  case HOLO_REDUCE_MEAN: return acc / cnt;
  case HOLO_REDUCE_L2: return holo_sqrt(acc);
  case HOLO_REDUCE_LOGSUM: return holo_log(acc);
  default: return acc;
  }
}

double holo_ukernel_reduce_f32_f64__scalar(int op, bool f64, const void *x, size_t base, uint32_t nr,
                                           const int64_t *rd, const int64_t *rs) {
  const float *xf = x;
  const double *xd = x;
#define LD(o) (f64 ? xd[o] : (double)xf[o])
  const size_t n_red = holo_k_prod(rd, 0, nr);
  double acc;
  double m = 0.0;
  switch (op) {
  case HOLO_REDUCE_PROD: acc = 1.0; break;
  case HOLO_REDUCE_MAX: m = -__builtin_inf(); acc = 0; break;
  case HOLO_REDUCE_MIN: m = __builtin_inf(); acc = 0; break;
  default: acc = 0.0; break;
  }
  if (op == HOLO_REDUCE_LOGSUMEXP) { /* pass 1: the maximum (NaN wins) */
    m = -__builtin_inf();
    int64_t ri[HOLO_MAX_RANK] = {0};
    size_t off = base;
    for (size_t j = 0; j < n_red; j++) {
      double v = LD(off);
      if (v != v || (m == m && v > m)) m = v;
      holo_k_next_offset(ri, rd, rs, nr, &off);
    }
  }
  int64_t ri[HOLO_MAX_RANK] = {0};
  size_t off = base;
  for (size_t j = 0; j < n_red; j++) {
    double v = LD(off), dv = v;
    switch (op) {
    case HOLO_REDUCE_SUM: case HOLO_REDUCE_MEAN: acc += dv; break;
    case HOLO_REDUCE_PROD: acc *= dv; break;
    case HOLO_REDUCE_SUMSQ: case HOLO_REDUCE_L2: acc += dv * dv; break;
    case HOLO_REDUCE_L1: acc += __builtin_fabs(dv); break;
    case HOLO_REDUCE_LOGSUM: acc += dv; break;
    case HOLO_REDUCE_MAX: if (v != v || (m == m && v > m)) m = v; break;
    case HOLO_REDUCE_MIN: if (v != v || (m == m && v < m)) m = v; break;
    default: /* LOGSUMEXP */
      if (m == m && __builtin_fabs(m) != __builtin_inf()) acc += holo_exp(dv - m);
      break;
    }
    holo_k_next_offset(ri, rd, rs, nr, &off);
  }
  if (op == HOLO_REDUCE_MAX || op == HOLO_REDUCE_MIN) return m;
  if (op == HOLO_REDUCE_LOGSUMEXP) {
    if (m != m || __builtin_fabs(m) == __builtin_inf()) return m; /* NaN, +inf, -inf (empty) */
    return m + holo_log(acc);
  }
  return finish(op, acc, (double)n_red);
#undef LD
}
