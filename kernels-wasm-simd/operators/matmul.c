/* MatMul, Gemm, holo.PackB and holo.MatMulPacked over the GEMM core
 * (gemm.h: every output element sums k in ascending order from +0 with a
 * separate multiply and add, then the epilogue; the scalar and SIMD128
 * cores produce the same bytes).
 *
 * MatMul has numpy semantics: 1-D operands are promoted (A to [1,K], B to
 * [K,1]) and the promoted dim is dropped from the result; leading batch
 * dims broadcast. When B has no batch of its own, A's batch folds into M.
 *
 * Fusion (optional attributes, docs/kernels.md): `holo_activation` = "Relu"
 * (STRING) applies Relu in the epilogue, "Clip" (with FLOAT holo_clip_min /
 * holo_clip_max, each optional) the Clip kernel's compares; on MatMul an optional third input
 * `bias` (broadcastable to [..., N] as [N] or [1,N]) is added before it,
 * exactly as MatMul then Add then Relu would.
 *
 * A constant 2-D B (a weight) is packed once per session by the kernel's
 * pack (backend.h holo_pack_call): the GEMM core's panels, 32 columns wide
 * when the first execution's A has fewer rows than the 4-row tile, else 8
 * (products.h holo_gemm_panel_width); run reads the width back from the
 * packed form's header. With it the product runs as holo.MatMulPacked did:
 * packed B, and A packed per call where the core reads it so. Packing is
 * pure data movement: the same bytes as the unpacked path. */
#include "common/check.h"
#include "common/mmshape.h"
#include "common/shape.h"
#include "microkernels/gemm.h"
#include "operators/products.h"

/* B is packed into panels (workspace) when more than one row block reads it. */
#define PACK_MIN_M 5

typedef holo_k_mm_geom mm_geom;

static holo_status mm_geometry(holo_kernel_call *c, mm_geom *g, int64_t *yshape, uint32_t *yrank) {
  return holo_k_mm_geometry(c, "MatMul", g, yshape, yrank);
}

/* The fused activation attribute (holo_k_gemm_act): checked at infer. */
static holo_status check_act(holo_kernel_call *c, const char *op) {
  holo_gemm q = {0};
  return holo_k_gemm_act(c, op, &q);
}

/* `holo_alpha` (FLOAT): MatMul then Mul by that scalar, the multiply the
 * epilogue does first (alpha * v, before any bias and activation): the
 * bytes of the pair, one pass and one node fewer (an attention block's
 * q k^T scale; compiler/rewrites/fuse-matmul-scale.js). */
static holo_status mm_alpha(holo_kernel_call *c, holo_gemm *q) {
  const holo_attr *a = holo_attr_find(c, "holo_alpha");
  if (!a) return HOLO_OK;
  if (a->type != HOLO_ATTR_FLOAT) return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMul: holo_alpha must be FLOAT");
  q->scale = true;
  q->alpha = holo_attr_float(c, "holo_alpha", 1.0f);
  return HOLO_OK;
}

/* A bias operand [N] or [1,N] (or [1]): its column stride. */
static holo_status row_bias(holo_kernel_call *c, const char *op, uint32_t idx, size_t N, size_t *bcs) {
  char s1[HOLO_K_SHAPE_STR];
  const holo_tensor *t = &c->inputs[idx];
  int64_t n = t->rank ? t->shape[t->rank - 1] : 1;
  bool ok = t->rank <= 2 && (t->rank < 2 || t->shape[0] == 1) && (n == 1 || n == (int64_t)N);
  if (!ok)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: bias%s must be [N], [1,N] or [1] with N = %zu", op,
                       holo_k_shape_str(s1, t->shape, t->rank), N);
  *bcs = n == 1 ? 0 : 1;
  return HOLO_OK;
}

/* B shared by every batch (no batch dims of its own) and A's batch is the
 * whole batch: one GEMM of (batch*M) rows. */
static bool mm_fold(const holo_kernel_call *c, const mm_geom *g) {
  const holo_tensor *a = &c->inputs[0];
  for (uint32_t d = 0; d < g->brank; d++)
    if (g->sb[d] != 0 && g->bshape[d] != 1) return false;
  uint32_t rab = a->rank >= 2 ? a->rank - 2 : 0;
  return holo_k_prod(a->shape, 0, rab) == holo_k_prod(g->bshape, 0, g->brank);
}

/* The packed B of run (NULL: none): B 2-D, so A's batch folds into M. */
static const float *mm_packed(const holo_kernel_call *c, const mm_geom *g, size_t *w) {
  if (!c->packed || c->inputs[1].rank != 2) return 0;
  return holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_B, g->K, g->N, 1, w);
}

static size_t mm_workspace(const holo_kernel_call *c, const mm_geom *g) {
  size_t nb = holo_k_prod(g->bshape, 0, g->brank);
  size_t rows = mm_fold(c, g) ? nb * g->M : g->M;
  if (rows < PACK_MIN_M || g->N == 0 || g->K == 0) return 0;
  return holo_gemm_packed_floats(g->K, g->N) * sizeof(float);
}

holo_status holo_k_matmul_f32_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "MatMul", 2, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "MatMul", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "MatMul", 1, HOLO_DT_F32))) return st;
  if ((st = check_act(c, "MatMul"))) return st;
  holo_gemm qa = {0};
  if ((st = mm_alpha(c, &qa))) return st;
  mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if ((st = mm_geometry(c, &g, ys, &yr))) return st;
  if (!holo_k_absent(c, 2)) {
    size_t bcs;
    if ((st = holo_k_check_input(c, "MatMul", 2, HOLO_DT_F32))) return st;
    if ((st = row_bias(c, "MatMul", 2, g.N, &bcs))) return st;
  }
  size_t w, rows = holo_k_prod(g.bshape, 0, g.brank) * g.M;
  if (mm_packed(c, &g, &w)) /* A packed per call where the core reads it so (gemm.h) */
    c->workspace_bytes =
        holo_gemm_wants_packed_a(rows, g.N, g.K) ? holo_gemm_packed_a_floats(rows, g.K) * sizeof(float) : 0;
  else
    c->workspace_bytes = mm_workspace(c, &g);
  uint64_t f[4] = {holo_k_prod(g.bshape, 0, g.brank), g.M, g.N, g.K};
  c->work = holo_k_work(4, f);
  return holo_k_set_output(c, "MatMul", 0, HOLO_DT_F32, yr, ys);
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
  holo_gemm q = {0};
  q.K = g.K;
  q.N = g.N;
  q.rsa = g.K;
  q.csa = 1;
  q.ldb = g.N;
  q.ldc = g.N;
  holo_k_gemm_act(c, "MatMul", &q);
  mm_alpha(c, &q);
  if (!holo_k_absent(c, 2)) {
    q.bias = c->inputs[2].data;
    row_bias(c, "MatMul", 2, g.N, &q.bcs);
  }
  float *ws = c->workspace_bytes ? c->workspace : 0;
  size_t w;
  const float *bp = mm_packed(c, &g, &w);
  if (bp) { /* B 2-D: mm_fold holds */
    q.M = nb * g.M;
    q.A = A;
    q.Bp = bp;
    q.bpw = w;
    q.C = Y;
    if (ws && holo_gemm_wants_packed_a(q.M, q.N, q.K)) holo_gemm_pack_a_par(&q, ws, c->parallel_for, c->pctx);
    holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
    return HOLO_OK;
  }
  if (mm_fold(c, &g)) {
    q.M = nb * g.M;
    q.A = A;
    q.B = B;
    q.C = Y;
    if (ws && g.K) {
      holo_gemm_pack_b(ws, B, g.N, 1, g.K, g.N);
      q.Bp = ws;
    }
    holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
    return HOLO_OK;
  }
  q.M = g.M;
  int64_t idx[HOLO_MAX_RANK] = {0};
  size_t oa = 0, ob = 0, sza = g.M * g.K, szb = g.K * g.N, szy = g.M * g.N;
  for (size_t bi = 0; bi < nb; bi++) {
    q.A = A + oa * sza;
    q.B = B + ob * szb;
    q.C = Y + bi * szy;
    if (ws && g.K) {
      holo_gemm_pack_b(ws, q.B, g.N, 1, g.K, g.N);
      q.Bp = ws;
    }
    holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
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

/* A constant 2-D B, for the rows of this first execution's A (whatever
 * infer would refuse is left alone: infer says what is wrong). */
holo_status holo_k_matmul_f32_pack(holo_pack_call *p) {
  const holo_tensor *a = &p->call->inputs[0], *b = &p->call->inputs[1];
  if (p->input != 1 || p->call->n_inputs < 2 || a->dtype != HOLO_DT_F32 || b->dtype != HOLO_DT_F32 ||
      a->rank < 1 || a->rank > HOLO_MAX_RANK || b->rank != 2 || a->shape[a->rank - 1] != b->shape[0])
    return HOLO_OK;
  size_t K = (size_t)b->shape[0], N = (size_t)b->shape[1];
  size_t M = holo_k_prod(a->shape, 0, a->rank - 1), w = holo_gemm_panel_width(M, N);
  if (K == 0 || N == 0) return HOLO_OK;
  if (!p->dst) {
    p->bytes = holo_gemm_pack_bytes(holo_gemm_packed_b_floats_checked(K, N, w));
    return HOLO_OK;
  }
  holo_gemm_pack_b_w(holo_gemm_pack_header(p->dst, HOLO_GEMM_PACKED_B, w, K, N, 1), b->data, N, 1, K, N, w);
  return HOLO_OK;
}

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
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gemm: transA/transB must be 0 or 1, got %lld/%lld", (long long)ta,
                       (long long)tb);
  if (a->rank != 2 || b->rank != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Gemm: A and B must be 2-D, got A%s and B%s",
                       holo_k_shape_str(s1, a->shape, a->rank), holo_k_shape_str(s2, b->shape, b->rank));
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
  if ((st = holo_k_infer_begin(c, "Gemm", 2, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "Gemm", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "Gemm", 1, HOLO_DT_F32))) return st;
  if (!holo_k_absent(c, 2) && (st = holo_k_check_input(c, "Gemm", 2, HOLO_DT_F32))) return st;
  gemm_geom g;
  if ((st = gemm_geometry(c, &g))) return st;
  if ((st = check_act(c, "Gemm"))) return st;
  size_t w;
  if (c->packed && holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_B, g.K, g.N, 1, &w)) {
    if (holo_gemm_wants_packed_a(g.M, g.N, g.K))
      c->workspace_bytes = holo_gemm_packed_a_floats(g.M, g.K) * sizeof(float);
  } else if (g.M && g.N && g.K && (g.tb || g.M >= PACK_MIN_M)) {
    c->workspace_bytes = holo_gemm_packed_floats(g.K, g.N) * sizeof(float);
  }
  uint64_t f[3] = {g.M, g.N, g.K};
  c->work = holo_k_work(3, f);
  int64_t ys[2] = {(int64_t)g.M, (int64_t)g.N};
  return holo_k_set_output(c, "Gemm", 0, HOLO_DT_F32, 2, ys);
}

holo_status holo_k_gemm_f32_run(holo_kernel_call *c) {
  gemm_geom g;
  if (gemm_geometry(c, &g)) return HOLO_ERR_KERNEL;
  if (g.M == 0 || g.N == 0) return HOLO_OK;
  const float *B = c->inputs[1].data;
  holo_gemm q = {0};
  q.M = g.M;
  q.N = g.N;
  q.K = g.K;
  q.A = c->inputs[0].data;
  q.rsa = g.ta ? 1 : g.K;
  q.csa = g.ta ? g.M : 1;
  q.B = B;
  q.ldb = g.N;
  q.C = c->outputs[0].data;
  q.ldc = g.N;
  /* a scale by exactly 1 is the identity: skipped (holo.MatMulPacked's epilogue) */
  q.scale = g.alpha != 1.0f;
  q.alpha = g.alpha;
  if (g.has_c) {
    q.bias = c->inputs[2].data;
    q.brs = g.c_srow;
    q.bcs = g.c_scol;
    q.bias_scaled = g.beta != 1.0f;
    q.beta = g.beta;
  }
  holo_k_gemm_act(c, "Gemm", &q);
  size_t w;
  const float *bp = c->packed ? holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_B, g.K, g.N, 1, &w) : 0;
  if (bp) {
    q.Bp = bp;
    q.bpw = w;
    if (c->workspace_bytes && holo_gemm_wants_packed_a(g.M, g.N, g.K))
      holo_gemm_pack_a_par(&q, c->workspace, c->parallel_for, c->pctx);
  } else if (c->workspace_bytes) {
    holo_gemm_pack_b(c->workspace, B, g.tb ? 1 : g.N, g.tb ? g.K : 1, g.K, g.N);
    q.Bp = c->workspace;
  }
  holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
  return HOLO_OK;
}

/* B' = transB ? B^T : B, packed for the rows of this first execution's A. */
holo_status holo_k_gemm_f32_pack(holo_pack_call *p) {
  const holo_tensor *a = &p->call->inputs[0], *b = &p->call->inputs[1];
  if (p->input != 1 || p->call->n_inputs < 2 || a->dtype != HOLO_DT_F32 || b->dtype != HOLO_DT_F32 ||
      a->rank != 2 || b->rank != 2)
    return HOLO_OK;
  bool ta = holo_attr_int(p->call, "transA", 0) == 1, tb = holo_attr_int(p->call, "transB", 0) == 1;
  size_t M = (size_t)(ta ? a->shape[1] : a->shape[0]), Ka = (size_t)(ta ? a->shape[0] : a->shape[1]);
  size_t K = (size_t)(tb ? b->shape[1] : b->shape[0]), N = (size_t)(tb ? b->shape[0] : b->shape[1]);
  size_t w = holo_gemm_panel_width(M, N);
  if (K != Ka || K == 0 || N == 0) return HOLO_OK;
  if (!p->dst) {
    p->bytes = holo_gemm_pack_bytes(holo_gemm_packed_b_floats_checked(K, N, w));
    return HOLO_OK;
  }
  float *dst = holo_gemm_pack_header(p->dst, HOLO_GEMM_PACKED_B, w, K, N, 1);
  holo_gemm_pack_b_w(dst, b->data, tb ? 1 : N, tb ? K : 1, K, N, w);
  return HOLO_OK;
}

/* ---- holo.PackB / holo.MatMulPacked (docs/kernels.md) ---- */

/* holo.PackB(B [K,N]; transB, nr) -> [ceil(N/nr), K, nr]: B' = transB ? B^T : B
 * in the GEMM core's panel layout, zero padded; nr = 8 (default: the
 * register tile's panels) or 32 (one stream per row for products of fewer
 * than 4 rows, gemm.h HOLO_GEMM_NR_WIDE). */
static holo_status packb_nr(holo_kernel_call *c, int64_t *nr) {
  *nr = holo_attr_int(c, "nr", HOLO_GEMM_NR);
  if (*nr != HOLO_GEMM_NR && *nr != HOLO_GEMM_NR_WIDE)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "holo.PackB: nr must be %d or %d, got %lld", HOLO_GEMM_NR,
                       HOLO_GEMM_NR_WIDE, (long long)*nr);
  return HOLO_OK;
}

holo_status holo_k_packb_f32_infer(holo_kernel_call *c) {
  holo_status st;
  char s1[HOLO_K_SHAPE_STR];
  int64_t nr;
  if ((st = holo_k_infer_begin(c, "holo.PackB", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "holo.PackB", 0, HOLO_DT_F32))) return st;
  const holo_tensor *b = &c->inputs[0];
  int64_t tb = holo_attr_int(c, "transB", 0);
  if (tb != 0 && tb != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "holo.PackB: transB must be 0 or 1, got %lld", (long long)tb);
  if ((st = packb_nr(c, &nr))) return st;
  if (b->rank != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "holo.PackB: B must be 2-D, got B%s",
                       holo_k_shape_str(s1, b->shape, b->rank));
  int64_t K = tb ? b->shape[1] : b->shape[0], N = tb ? b->shape[0] : b->shape[1];
  int64_t ys[3] = {(N + nr - 1) / nr, K, nr};
  return holo_k_set_output(c, "holo.PackB", 0, HOLO_DT_F32, 3, ys);
}

holo_status holo_k_packb_f32_run(holo_kernel_call *c) {
  const holo_tensor *b = &c->inputs[0];
  bool tb = holo_attr_int(c, "transB", 0) == 1;
  int64_t nr;
  if (packb_nr(c, &nr)) return HOLO_ERR_KERNEL;
  size_t K = (size_t)(tb ? b->shape[1] : b->shape[0]), N = (size_t)(tb ? b->shape[0] : b->shape[1]);
  holo_gemm_pack_b_w(c->outputs[0].data, b->data, tb ? 1 : N, tb ? K : 1, K, N, (size_t)nr);
  return HOLO_OK;
}

/* holo.MatMulPacked(A [..., K], Bp [ceil(N/w), K, w], bias? ; n, holo_activation?)
 * -> [..., N]: MatMul(A, B) (+ bias) (then Relu), same bytes for either
 * panel width w (8 or 32, read from Bp's shape). */
static holo_status mmp_geometry(holo_kernel_call *c, size_t *M, size_t *K, size_t *N, size_t *w) {
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  const holo_tensor *a = &c->inputs[0], *bp = &c->inputs[1];
  int64_t n = holo_attr_int(c, "n", -1);
  if (a->rank < 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "holo.MatMulPacked: A must have rank >= 1");
  int64_t k = a->shape[a->rank - 1], pw = bp->rank == 3 ? bp->shape[2] : 0;
  if (n < 0 || bp->rank != 3 || (pw != HOLO_GEMM_NR && pw != HOLO_GEMM_NR_WIDE) || bp->shape[1] != k ||
      bp->shape[0] != (n + pw - 1) / pw)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "holo.MatMulPacked: Bp%s is not holo.PackB of a [%lld,%lld] B for A%s (attribute n)",
                       holo_k_shape_str(s1, bp->shape, bp->rank), (long long)k, (long long)n,
                       holo_k_shape_str(s2, a->shape, a->rank));
  *M = holo_k_prod(a->shape, 0, a->rank - 1);
  *K = (size_t)k;
  *N = (size_t)n;
  *w = (size_t)pw;
  return HOLO_OK;
}

holo_status holo_k_mmpacked_f32_infer(holo_kernel_call *c) {
  holo_status st;
  size_t M, K, N, w, bcs;
  if ((st = holo_k_infer_begin(c, "holo.MatMulPacked", 2, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "holo.MatMulPacked", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "holo.MatMulPacked", 1, HOLO_DT_F32))) return st;
  if ((st = check_act(c, "holo.MatMulPacked"))) return st;
  if ((st = mmp_geometry(c, &M, &K, &N, &w))) return st;
  if (!holo_k_absent(c, 2)) {
    if ((st = holo_k_check_input(c, "holo.MatMulPacked", 2, HOLO_DT_F32))) return st;
    if ((st = row_bias(c, "holo.MatMulPacked", 2, N, &bcs))) return st;
  }
  const holo_tensor *a = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0; i + 1 < a->rank; i++)
    ys[i] = a->shape[i];
  ys[a->rank - 1] = (int64_t)N;
  /* A packed per call where the core reads it so (gemm.h) */
  if (holo_gemm_wants_packed_a(M, N, K)) c->workspace_bytes = holo_gemm_packed_a_floats(M, K) * sizeof(float);
  uint64_t f[3] = {M, N, K};
  c->work = holo_k_work(3, f);
  return holo_k_set_output(c, "holo.MatMulPacked", 0, HOLO_DT_F32, a->rank, ys);
}

holo_status holo_k_mmpacked_f32_run(holo_kernel_call *c) {
  size_t M, K, N, w;
  if (mmp_geometry(c, &M, &K, &N, &w)) return HOLO_ERR_KERNEL;
  if (M == 0 || N == 0) return HOLO_OK;
  holo_gemm q = {0};
  q.M = M;
  q.N = N;
  q.K = K;
  q.A = c->inputs[0].data;
  q.rsa = K;
  q.csa = 1;
  q.Bp = c->inputs[1].data;
  q.bpw = w;
  q.C = c->outputs[0].data;
  q.ldc = N;
  if (!holo_k_absent(c, 2)) {
    q.bias = c->inputs[2].data;
    row_bias(c, "holo.MatMulPacked", 2, N, &q.bcs);
  }
  holo_k_gemm_act(c, "holo.MatMulPacked", &q);
  if (c->workspace_bytes && holo_gemm_wants_packed_a(M, N, K))
    holo_gemm_pack_a_par(&q, c->workspace, c->parallel_for, c->pctx);
  holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
  return HOLO_OK;
}
