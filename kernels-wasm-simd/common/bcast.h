/* Broadcasting walks: the output visited row by row (its last dim), each
 * operand through its broadcast element strides. Freestanding. */
#ifndef HOLOGRAM_KERNELS_BCAST_H
#define HOLOGRAM_KERNELS_BCAST_H

#include <stddef.h>
#include <stdint.h>

#include "hologram/backend.h"

/* Two-operand broadcast plan: the output is walked row by row (last dim),
 * with per-operand element strides. */
typedef struct holo_k_bcast {
  uint32_t rank; /* >= 1: a scalar output becomes shape [1] */
  int64_t shape[HOLO_MAX_RANK];
  int64_t sa[HOLO_MAX_RANK];
  int64_t sb[HOLO_MAX_RANK];
  size_t n_rows; /* product of all but the last dim */
  size_t row;    /* last dim */
} holo_k_bcast;

void holo_k_bcast_plan(holo_k_bcast *p, const holo_tensor *a, const holo_tensor *b,
                       const holo_tensor *y);

/* Advances the row index and both offsets; call once per row. Offsets use
 * wrapping size_t arithmetic and are always back in range after a carry. */
static inline void holo_k_bcast_next(const holo_k_bcast *p, int64_t *idx, size_t *oa, size_t *ob) {
  for (int32_t d = (int32_t)p->rank - 2; d >= 0; d--) {
    idx[d]++;
    *oa += (size_t)p->sa[d];
    *ob += (size_t)p->sb[d];
    if (idx[d] < p->shape[d]) return;
    *oa -= (size_t)(p->sa[d] * p->shape[d]);
    *ob -= (size_t)(p->sb[d] * p->shape[d]);
    idx[d] = 0;
  }
}

#endif
