/* What the broadcasting elementwise operators share (binary.c, minmax.c,
 * compare.c, logical.c, where.c, prelu.c): operand checks, the broadcast
 * output shape, and the walk that hands each output row to a microkernel
 * (microkernels/vbroadcast.h). */
#ifndef HOLOGRAM_KERNELS_ELEMENTWISE_H
#define HOLOGRAM_KERNELS_ELEMENTWISE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/bcast.h"
#include "hologram/backend.h"

/* infer's start: no alias, no workspace, min_in..max_in inputs (at most
 * HOLO_BCAST_MAX_OPS), one output, every input present and valid;
 * t[k] = &inputs[k]. */
holo_status holo_k_ew_operands(holo_kernel_call *c, const char *op, uint32_t min_in, uint32_t max_in,
                               const holo_tensor **t);

/* t[1..n) have t[0]'s dtype, else "op: operand dtypes differ". */
holo_status holo_k_ew_same_dtype(holo_kernel_call *c, const char *op, const holo_tensor *const *t, uint32_t n);

/* The broadcast shape of t[0..n), else "op: shapes do not broadcast". */
holo_status holo_k_ew_shape(holo_kernel_call *c, const char *op, const holo_tensor *const *t, uint32_t n,
                            int64_t *ys, uint32_t *yr);

/* True when some element of an integer tensor is 0. */
bool holo_k_ew_has_zero(const holo_tensor *t);

/* run's start: the walk of outputs[0] over the call's inputs; false when
 * the output is empty (nothing to do). */
bool holo_k_ew_walk(const holo_kernel_call *c, holo_bcast *w);

/* Operand k's element at the current row's start, as a byte pointer. */
static inline const void *holo_k_ew_row(const holo_kernel_call *c, const holo_bcast *w, uint32_t k) {
  return (const uint8_t *)c->inputs[k].data + w->off[k] * holo_dtype_size(c->inputs[k].dtype);
}

#endif
