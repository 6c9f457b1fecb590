/* The Reduce family's contiguous cases on f32 (reduce.h): each output's
 * set in ascending order, accumulated in double exactly as
 * reduce-f32-f64-scalar.c does (the same operations in the same order per
 * output, hence the same bytes), but several outputs at once, so that the
 * independent chains hide the add latency, and without an odometer per
 * element. */
#include "math/mathlib.h"
#include "microkernels/reduce.h"

#define RB 4 /* inner: rows at once */
#define OB 8 /* outer: columns at once */

static double r_init(int op) {
  return op == HOLO_REDUCE_MAX ? -__builtin_inf() : op == HOLO_REDUCE_MIN ? __builtin_inf() : 0.0;
}

/* One step of the chain: acc op= v (Max/Min: NaN wins, the first met). */
static inline double r_step(int op, double acc, double v) {
  switch (op) {
  case HOLO_REDUCE_SUMSQ: case HOLO_REDUCE_L2: return acc + v * v;
  case HOLO_REDUCE_L1: return acc + __builtin_fabs(v);
  case HOLO_REDUCE_MAX: return v != v || (acc == acc && v > acc) ? v : acc;
  case HOLO_REDUCE_MIN: return v != v || (acc == acc && v < acc) ? v : acc;
  default: return acc + v; /* SUM, MEAN */
  }
}

static inline float r_finish(int op, double acc, size_t n) {
  switch (op) {
  case HOLO_REDUCE_MEAN: return (float)(acc / (double)n);
  case HOLO_REDUCE_L2: return (float)holo_sqrt(acc);
  default: return (float)acc;
  }
}

bool holo_reduce_runs_op(int op) {
  return op == HOLO_REDUCE_SUM || op == HOLO_REDUCE_MEAN || op == HOLO_REDUCE_SUMSQ || op == HOLO_REDUCE_L1 ||
         op == HOLO_REDUCE_L2 || op == HOLO_REDUCE_MAX || op == HOLO_REDUCE_MIN;
}

/* The op's chains inlined per op (BODY(chain op, finish op)): a switch per
 * element would cost more than the add. */
#define R_OPS(BODY)                                                                                           \
  switch (op) {                                                                                               \
  case HOLO_REDUCE_MAX: BODY(HOLO_REDUCE_MAX, HOLO_REDUCE_MAX) break;                                         \
  case HOLO_REDUCE_MIN: BODY(HOLO_REDUCE_MIN, HOLO_REDUCE_MIN) break;                                         \
  case HOLO_REDUCE_SUMSQ: BODY(HOLO_REDUCE_SUMSQ, HOLO_REDUCE_SUMSQ) break;                                   \
  case HOLO_REDUCE_L2: BODY(HOLO_REDUCE_L2, HOLO_REDUCE_L2) break;                                            \
  case HOLO_REDUCE_L1: BODY(HOLO_REDUCE_L1, HOLO_REDUCE_L1) break;                                            \
  case HOLO_REDUCE_MEAN: BODY(HOLO_REDUCE_SUM, HOLO_REDUCE_MEAN) break;                                       \
  default: BODY(HOLO_REDUCE_SUM, HOLO_REDUCE_SUM) break;                                                      \
  }

#define R_INNER(OP, FIN)                                                                                      \
  for (; q + RB <= rows; q += RB) {                                                                           \
    const float *x0 = x + q * n;                                                                              \
    double a[RB];                                                                                             \
    for (size_t l = 0; l < RB; l++) a[l] = r_init(OP);                                                        \
    for (size_t i = 0; i < n; i++)                                                                            \
      for (size_t l = 0; l < RB; l++) a[l] = r_step(OP, a[l], (double)x0[l * n + i]);                         \
    for (size_t l = 0; l < RB; l++) y[q + l] = r_finish(FIN, a[l], n);                                        \
  }                                                                                                           \
  for (; q < rows; q++) {                                                                                     \
    double a = r_init(OP);                                                                                    \
    for (size_t i = 0; i < n; i++) a = r_step(OP, a, (double)x[q * n + i]);                                   \
    y[q] = r_finish(FIN, a, n);                                                                               \
  }

void holo_ukernel_reduce_inner_f32__scalar(int op, const float *x, size_t rows, size_t n, float *y) {
  size_t q = 0;
  R_OPS(R_INNER)
}

/* Columns j0 .. j0+nb of one outer block: column j's set is
 * x[r * m + j], r ascending. */
static inline void r_cols(int op, int fin, const float *x, size_t n, size_t m, size_t j0, size_t nb, float *y) {
  double a[OB];
  for (size_t l = 0; l < nb; l++) a[l] = r_init(op);
  for (size_t r = 0; r < n; r++)
    for (size_t l = 0; l < nb; l++) a[l] = r_step(op, a[l], (double)x[r * m + j0 + l]);
  for (size_t l = 0; l < nb; l++) y[j0 + l] = r_finish(fin, a[l], n);
}

#define R_OUTER(OP, FIN)                                                                                      \
  for (size_t o = 0; o < outer; o++, x += n * m, y += m) {                                                    \
    size_t j = 0;                                                                                             \
    for (; j + OB <= m; j += OB) r_cols(OP, FIN, x, n, m, j, OB, y);                                          \
    if (j < m) r_cols(OP, FIN, x, n, m, j, m - j, y);                                                         \
  }

void holo_ukernel_reduce_outer_f32__scalar(int op, const float *x, size_t outer, size_t n, size_t m, float *y) {
  R_OPS(R_OUTER)
}
