#include "common/bcast.h"

#include "common/shape.h"

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
  }
  for (uint32_t i = 0; i < HOLO_MAX_RANK; i++) w->idx[i] = 0;
  for (uint32_t k = 0; k < HOLO_BCAST_MAX_OPS; k++) w->off[k] = w->step[k] = 0;
  for (uint32_t k = 0; k < n; k++) w->step[k] = (size_t)w->st[k][w->rank - 1];
  w->row = (size_t)w->shape[w->rank - 1];
  w->rows = holo_k_prod(w->shape, 0, w->rank - 1);
}
