/* THE broadcasting walk (numpy multidirectional broadcasting): an output y
 * visited row by row (its last dim; a scalar output is one row of 1), each
 * of up to HOLO_BCAST_MAX_OPS operands through its broadcast element
 * strides. Element j of the current row of operand k is at
 * off[k] + j * step[k] (step 0 where the operand is broadcast along the
 * row, else 1), so a row is one microkernel call. Freestanding. */
#ifndef HOLOGRAM_KERNELS_BCAST_H
#define HOLOGRAM_KERNELS_BCAST_H

#include <stddef.h>
#include <stdint.h>

#include "hologram/backend.h"

#define HOLO_BCAST_MAX_OPS 8

typedef struct holo_bcast {
  uint32_t rank, nops; /* rank >= 1 */
  int64_t shape[HOLO_MAX_RANK];
  int64_t st[HOLO_BCAST_MAX_OPS][HOLO_MAX_RANK]; /* element strides, 0 where broadcast */
  int64_t idx[HOLO_MAX_RANK];                    /* the current row, over dims [0, rank-1) */
  size_t off[HOLO_BCAST_MAX_OPS];                /* each operand's first element of the row */
  size_t step[HOLO_BCAST_MAX_OPS];               /* each operand's stride along the row */
  size_t rows, row;                              /* rows of row elements: the output */
} holo_bcast;

/* Plans the walk of y (already shaped) over operands t[0..n), n <=
 * HOLO_BCAST_MAX_OPS, each broadcastable to y; starts at row 0. */
void holo_bcast_init(holo_bcast *w, const holo_tensor *y, const holo_tensor *const *t, uint32_t n);

/* Advances to the next row (row-major). Offsets use wrapping size_t
 * arithmetic and are always back in range after a carry. */
static inline void holo_bcast_next(holo_bcast *w) {
  for (int32_t d = (int32_t)w->rank - 2; d >= 0; d--) {
    w->idx[d]++;
    for (uint32_t k = 0; k < w->nops; k++) w->off[k] += (size_t)w->st[k][d];
    if (w->idx[d] < w->shape[d]) return;
    for (uint32_t k = 0; k < w->nops; k++) w->off[k] -= (size_t)(w->st[k][d] * w->shape[d]);
    w->idx[d] = 0;
  }
}

#endif
