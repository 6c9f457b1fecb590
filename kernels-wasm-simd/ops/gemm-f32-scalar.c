/* Gemm: Y = alpha * A' B' + beta * C, with A' = transA ? A^T : A (M,K),
 * B' = transB ? B^T : B (K,N), optional C unidirectionally broadcast to (M,N).
 * beta * C is applied literally (0 * inf is NaN), as the ONNX spec writes it. */
#include "../shape-util.h"

typedef struct gemm_geom {
  size_t M, K, N;
  bool ta, tb, has_c;
  size_t c_srow, c_scol; /* element strides of C over (M,N), 0 when broadcast */
  float alpha, beta;
} gemm_geom;

static holo_status gemm_geometry(holo_kernel_call *c, gemm_geom *g) {
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  int64_t ta = holo_attr_int(c, "transA", 0), tb = holo_attr_int(c, "transB", 0);
  if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gemm: transA/transB must be 0 or 1, got %lld/%lld",
                       (long long)ta, (long long)tb);
  if (a->rank != 2 || b->rank != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gemm: A and B must be 2-D, got A%s and B%s",
                       holo_k_shape_str(s1, a->shape, a->rank),
                       holo_k_shape_str(s2, b->shape, b->rank));
  g->ta = ta;
  g->tb = tb;
  int64_t M = ta ? a->shape[1] : a->shape[0], Ka = ta ? a->shape[0] : a->shape[1];
  int64_t Kb = tb ? b->shape[1] : b->shape[0], N = tb ? b->shape[0] : b->shape[1];
  if (Ka != Kb)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "Gemm: inner dimensions differ: A'[..,%lld] vs B'[%lld,..] (transA=%d transB=%d)",
                       (long long)Ka, (long long)Kb, (int)ta, (int)tb);
  g->M = (size_t)M;
  g->K = (size_t)Ka;
  g->N = (size_t)N;
  g->alpha = holo_attr_float(c, "alpha", 1.0f);
  g->beta = holo_attr_float(c, "beta", 1.0f);
  g->has_c = !holo_k_absent(c, 2);
  g->c_srow = g->c_scol = 0;
  if (g->has_c) {
    const holo_tensor *t = &c->inputs[2];
    if (t->rank > 2)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Gemm: C must have rank <= 2, got C%s",
                         holo_k_shape_str(s1, t->shape, t->rank));
    int64_t cr = t->rank == 2 ? t->shape[0] : 1, cc = t->rank >= 1 ? t->shape[t->rank - 1] : 1;
    if ((cr != 1 && cr != M) || (cc != 1 && cc != N))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Gemm: C%s does not broadcast to [%lld,%lld]",
                         holo_k_shape_str(s1, t->shape, t->rank), (long long)M, (long long)N);
    g->c_scol = cc == 1 ? 0 : 1;
    g->c_srow = cr == 1 ? 0 : (size_t)cc;
  }
  return HOLO_OK;
}

holo_status holo_k_gemm_f32_infer(holo_kernel_call *c) {
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "Gemm", 2, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "Gemm", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "Gemm", 1, HOLO_DT_F32))) return st;
  if (!holo_k_absent(c, 2) && (st = holo_k_check_input(c, "Gemm", 2, HOLO_DT_F32))) return st;
  gemm_geom g;
  if ((st = gemm_geometry(c, &g))) return st;
  int64_t ys[2] = {(int64_t)g.M, (int64_t)g.N};
  return holo_k_set_output(c, "Gemm", 0, HOLO_DT_F32, 2, ys);
}

holo_status holo_k_gemm_f32_run(holo_kernel_call *c) {
  gemm_geom g;
  if (gemm_geometry(c, &g)) return HOLO_ERR_KERNEL;
  const float *A = c->inputs[0].data, *B = c->inputs[1].data;
  const float *C = g.has_c ? c->inputs[2].data : 0;
  float *Y = c->outputs[0].data;
  size_t M = g.M, K = g.K, N = g.N;
  for (size_t i = 0; i < M; i++) {
    float *yr = Y + i * N;
    for (size_t j = 0; j < N; j++) yr[j] = 0.0f;
    for (size_t k = 0; k < K; k++) {
      float av = g.ta ? A[k * M + i] : A[i * K + k];
      if (g.tb) {
        for (size_t j = 0; j < N; j++) yr[j] += av * B[j * K + k];
      } else {
        const float *br = B + k * N;
        for (size_t j = 0; j < N; j++) yr[j] += av * br[j];
      }
    }
    for (size_t j = 0; j < N; j++) {
      float v = g.alpha * yr[j];
      if (C) v += g.beta * C[i * g.c_srow + j * g.c_scol];
      yr[j] = v;
    }
  }
  return HOLO_OK;
}
