#include "common/bcast.h"

#include "common/shape.h"

void holo_k_bcast_plan(holo_k_bcast *p, const holo_tensor *a, const holo_tensor *b,
                       const holo_tensor *y) {
  if (y->rank == 0) {
    p->rank = 1;
    p->shape[0] = 1;
    p->sa[0] = p->sb[0] = 0;
  } else {
    p->rank = y->rank;
    for (uint32_t i = 0; i < y->rank; i++) p->shape[i] = y->shape[i];
    holo_k_broadcast_strides(a->shape, a->rank, y->shape, y->rank, p->sa);
    holo_k_broadcast_strides(b->shape, b->rank, y->shape, y->rank, p->sb);
  }
  p->row = (size_t)p->shape[p->rank - 1];
  p->n_rows = holo_k_prod(p->shape, 0, p->rank - 1);
}
