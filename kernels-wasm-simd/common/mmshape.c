/* MatMul's numpy shape rule (mmshape.h). */
#include "common/mmshape.h"

#include "common/check.h"
#include "common/shape.h"

holo_status holo_k_mm_geometry(holo_kernel_call *c, const char *op, holo_k_mm_geom *g, int64_t *yshape,
                               uint32_t *yrank) {
  return holo_k_mm_geometry_of(c, op, 0, 1, g, yshape, yrank);
}

holo_status holo_k_mm_geometry_of(holo_kernel_call *c, const char *op, uint32_t ia, uint32_t ib,
                                  holo_k_mm_geom *g, int64_t *yshape, uint32_t *yrank) {
  const holo_tensor *a = &c->inputs[ia], *b = &c->inputs[ib];
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  if (a->rank == 0 || b->rank == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is a scalar, %s needs rank >= 1", op,
                       a->rank == 0 ? ia : ib, op);
  int64_t ka = a->shape[a->rank - 1];
  int64_t kb = b->rank == 1 ? b->shape[0] : b->shape[b->rank - 2];
  if (ka != kb)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: inner dimensions differ: A[..,%lld] vs B[%lld,..]", op,
                       (long long)ka, (long long)kb);
  uint32_t rab = a->rank >= 2 ? a->rank - 2 : 0, rbb = b->rank >= 2 ? b->rank - 2 : 0;
  if (!holo_k_broadcast_shape(a->shape, rab, b->shape, rbb, g->bshape, &g->brank))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: batch dims do not broadcast: A%s vs B%s", op,
                       holo_k_shape_str(s1, a->shape, a->rank), holo_k_shape_str(s2, b->shape, b->rank));
  holo_k_broadcast_strides(a->shape, rab, g->bshape, g->brank, g->sa);
  holo_k_broadcast_strides(b->shape, rbb, g->bshape, g->brank, g->sb);
  g->M = a->rank == 1 ? 1 : (size_t)a->shape[a->rank - 2];
  g->K = (size_t)ka;
  g->N = b->rank == 1 ? 1 : (size_t)b->shape[b->rank - 1];
  uint32_t r = 0;
  for (uint32_t i = 0; i < g->brank; i++)
    yshape[r++] = g->bshape[i];
  if (a->rank >= 2) yshape[r++] = (int64_t)g->M;
  if (b->rank >= 2) yshape[r++] = (int64_t)g->N;
  *yrank = r;
  return HOLO_OK;
}
