/* MatMul with numpy semantics: 1-D operands are promoted (A to [1,K], B to
 * [K,1]) and the promoted dim is dropped from the result; leading batch
 * dims broadcast. Each output element sums k in ascending order. */
#include "../shape-util.h"

typedef struct mm_geom {
  size_t M, K, N;
  uint32_t brank; /* batch rank of the output */
  int64_t bshape[HOLO_MAX_RANK];
  int64_t sa[HOLO_MAX_RANK], sb[HOLO_MAX_RANK]; /* batch strides, in matrices */
} mm_geom;

static holo_status mm_geometry(holo_kernel_call *c, mm_geom *g, int64_t *yshape, uint32_t *yrank) {
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  if (a->rank == 0 || b->rank == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMul: input %u is a scalar, MatMul needs rank >= 1",
                       a->rank == 0 ? 0u : 1u);
  int64_t ka = a->shape[a->rank - 1];
  int64_t kb = b->rank == 1 ? b->shape[0] : b->shape[b->rank - 2];
  if (ka != kb)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMul: inner dimensions differ: A[..,%lld] vs B[%lld,..]",
                       (long long)ka, (long long)kb);
  uint32_t rab = a->rank >= 2 ? a->rank - 2 : 0, rbb = b->rank >= 2 ? b->rank - 2 : 0;
  if (!holo_k_broadcast_shape(a->shape, rab, b->shape, rbb, g->bshape, &g->brank))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMul: batch dims do not broadcast: A%s vs B%s",
                       holo_k_shape_str(s1, a->shape, a->rank),
                       holo_k_shape_str(s2, b->shape, b->rank));
  holo_k_broadcast_strides(a->shape, rab, g->bshape, g->brank, g->sa);
  holo_k_broadcast_strides(b->shape, rbb, g->bshape, g->brank, g->sb);
  g->M = a->rank == 1 ? 1 : (size_t)a->shape[a->rank - 2];
  g->K = (size_t)ka;
  g->N = b->rank == 1 ? 1 : (size_t)b->shape[b->rank - 1];
  uint32_t r = 0;
  for (uint32_t i = 0; i < g->brank; i++) yshape[r++] = g->bshape[i];
  if (a->rank >= 2) yshape[r++] = (int64_t)g->M;
  if (b->rank >= 2) yshape[r++] = (int64_t)g->N;
  *yrank = r;
  return HOLO_OK;
}

holo_status holo_k_matmul_f32_infer(holo_kernel_call *c) {
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "MatMul", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "MatMul", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "MatMul", 1, HOLO_DT_F32))) return st;
  mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = mm_geometry(c, &g, ys, &yr))) return st;
  return holo_k_set_output(c, "MatMul", 0, HOLO_DT_F32, yr, ys);
}

/* i-k-j order: the inner loop streams rows of B and C; every C[i,j] still
 * accumulates its products in ascending k from +0. */
static void mm_f32(const float *A, const float *B, float *C, size_t M, size_t K, size_t N) {
  for (size_t i = 0; i < M; i++) {
    float *cr = C + i * N;
    for (size_t j = 0; j < N; j++) cr[j] = 0.0f;
    for (size_t k = 0; k < K; k++) {
      float av = A[i * K + k];
      const float *br = B + k * N;
      for (size_t j = 0; j < N; j++) cr[j] += av * br[j];
    }
  }
}

holo_status holo_k_matmul_f32_run(holo_kernel_call *c) {
  mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (mm_geometry(c, &g, ys, &yr)) return HOLO_ERR_KERNEL;
  const float *A = c->inputs[0].data, *B = c->inputs[1].data;
  float *Y = c->outputs[0].data;
  size_t nb = holo_k_prod(g.bshape, 0, g.brank);
  if (nb == 0 || g.M == 0 || g.N == 0) return HOLO_OK;
  int64_t idx[HOLO_MAX_RANK] = {0};
  size_t oa = 0, ob = 0, sza = g.M * g.K, szb = g.K * g.N, szy = g.M * g.N;
  for (size_t bi = 0; bi < nb; bi++) {
    mm_f32(A + oa * sza, B + ob * szb, Y + bi * szy, g.M, g.K, g.N);
    for (int32_t d = (int32_t)g.brank - 1; d >= 0; d--) {
      idx[d]++;
      oa += (size_t)g.sa[d];
      ob += (size_t)g.sb[d];
      if (idx[d] < g.bshape[d]) break;
      oa -= (size_t)(g.sa[d] * g.bshape[d]);
      ob -= (size_t)(g.sb[d] * g.bshape[d]);
      idx[d] = 0;
    }
  }
  return HOLO_OK;
}
