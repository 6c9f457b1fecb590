/* The Reduce family's microkernel (operators/reduce.c). */
#ifndef HOLOGRAM_KERNELS_REDUCE_H
#define HOLOGRAM_KERNELS_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"
#include "common/shape.h"

enum {
  HOLO_REDUCE_SUM,
  HOLO_REDUCE_MEAN,
  HOLO_REDUCE_MAX,
  HOLO_REDUCE_MIN,
  HOLO_REDUCE_PROD,
  HOLO_REDUCE_SUMSQ,
  HOLO_REDUCE_L1,
  HOLO_REDUCE_L2,
  HOLO_REDUCE_LOGSUM,
  HOLO_REDUCE_LOGSUMEXP
};

/* The reduction op of the set of elements x[base + sum_d i_d * rs[d]],
 * i_d < rd[d] for the nr reduced dims, visited in ascending row-major
 * order, of f32 (or f64) x, as a double for the caller to round once.
 * Empty sets give the identity of the reduction (Sum/L1/L2/SumSquare 0,
 * Prod 1, Max -inf, Min +inf, LogSum and LogSumExp -inf) and Mean NaN;
 * Max/Min propagate NaN (reduce-f32-f64-scalar.c). */
double holo_ukernel_reduce_f32_f64__scalar(int op, bool f64, const void *x, size_t base, uint32_t nr,
                                           const int64_t *rd, const int64_t *rs);

/* The integer form (reduce-int-scalar.c): op Sum, Prod, SumSquare, L1 on
 * i32, i64, u32, u64 and Max, Min on those and i8, u8, bool, as the bits
 * of the result: the exact value saturated to the dtype's range (as
 * onnxruntime's), for the caller to store with holo_k_store_int_bits.
 * Empty sets: Sum/SumSquare/L1 0, Prod 1, Max the dtype's minimum, Min its
 * maximum (ONNX, opset 18). */
uint64_t holo_ukernel_reduce_int__scalar(int op, uint32_t dt, const void *x, size_t base, uint32_t nr,
                                         const int64_t *rd, const int64_t *rs);
void holo_k_store_int_bits(void *y, uint32_t dt, size_t i, uint64_t v);

/* The contiguous cases on f32 (reduce-f32-runs-scalar.c), for the ops
 * holo_reduce_runs_op accepts (Sum, Mean, SumSquare, L1, L2, Max, Min):
 * the same bytes as the kernel above, several outputs at a time. n > 0.
 * inner: y[q] reduces x[q*n .. q*n+n), q < rows (the last axes reduced);
 * outer: y[o*m + j] reduces x[o*n*m + r*m + j], r < n (axes reduced in
 * front of m kept elements). */
bool holo_reduce_runs_op(int op);
void holo_ukernel_reduce_inner_f32__scalar(int op, const float *x, size_t rows, size_t n, float *y);
void holo_ukernel_reduce_outer_f32__scalar(int op, const float *x, size_t outer, size_t n, size_t m,
                                           float *y);

#endif
