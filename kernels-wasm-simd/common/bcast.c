#include "common/bcast.h"

#include <stdbool.h>

#include "common/shape.h"

/* Merges dim d into dim d+1 wherever every operand walks the pair as one
 * dim (stride[d] == stride[d+1] * shape[d+1], 0 and 0 included): the walk
 * visits the same elements in the same order, in longer rows (a same-shape
 * or scalar-operand call becomes one row; x[N,C,H,W] * s[N,C,1,1] rows of
 * H*W). */
static void bcast_coalesce(holo_bcast *w) {
  uint32_t r = w->rank;
  for (int32_t d = (int32_t)r - 2; d >= 0; d--) {
    const int64_t inner = w->shape[d + 1];
    bool ok = true; /* a dim of 1 merges with anything: its stride is never used */
    for (uint32_t k = 0; ok && k < w->nops; k++)
      ok = w->shape[d] == 1 || inner == 1 || w->st[k][d] == w->st[k][d + 1] * inner;
    if (!ok) continue;
    for (uint32_t k = 0; k < w->nops; k++)
      if (inner != 1) w->st[k][d] = w->st[k][d + 1];
    w->shape[d] *= inner;
    for (uint32_t i = (uint32_t)d + 1; i + 1 < r; i++) {
      w->shape[i] = w->shape[i + 1];
      for (uint32_t k = 0; k < w->nops; k++) w->st[k][i] = w->st[k][i + 1];
    }
    r--;
  }
  w->rank = r;
}

void holo_bcast_init(holo_bcast *w, const holo_tensor *y, const holo_tensor *const *t, uint32_t n) {
  w->nops = n;
  if (y->rank == 0) {
    w->rank = 1;
    w->shape[0] = 1;
    for (uint32_t k = 0; k < n; k++) w->st[k][0] = 0;
  } else {
    w->rank = y->rank;
    for (uint32_t i = 0; i < y->rank; i++) w->shape[i] = y->shape[i];
    for (uint32_t k = 0; k < n; k++)
      holo_k_broadcast_strides(t[k]->shape, t[k]->rank, y->shape, y->rank, w->st[k]);
    bcast_coalesce(w);
  }
  for (uint32_t i = 0; i < HOLO_MAX_RANK; i++) w->idx[i] = 0;
  for (uint32_t k = 0; k < HOLO_BCAST_MAX_OPS; k++) w->off[k] = w->step[k] = 0;
  for (uint32_t k = 0; k < n; k++) w->step[k] = (size_t)w->st[k][w->rank - 1];
  w->row = (size_t)w->shape[w->rank - 1];
  w->rows = holo_k_prod(w->shape, 0, w->rank - 1);
}
