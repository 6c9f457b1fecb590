/* MatMulInteger (opset 10): Y = (A - a_zero_point) x (B - b_zero_point) in
 * int32, A and B each u8 or i8, numpy batch broadcasting as MatMul
 * (common/mmshape.h). a_zero_point is a scalar or [M] (one per row of A);
 * b_zero_point a scalar or [N] (one per column of B); each of A's / B's
 * dtype. Every |term| <= 255*255, so a sum overflows int32 only for K >
 * 33025 (refused); the sum is exact and its bytes do not depend on the
 * order, so every variant of the integer core (microkernels/igemm.h) gives
 * the same bytes.
 *
 * QLinearMatMul (opset 10) is the same product of its inputs a (0) and b
 * (3) with zero points 2 and 5 -- a_zero_point a scalar here (as in
 * onnxruntime), b_zero_point a scalar or [N] -- requantized in the same
 * kernel, one batch matrix of int32 sums at a time: y = saturate(rne(sum *
 * a_scale * b_scale[j] / y_scale) + y_zero_point) (qlinear.h, requant.h),
 * of y_zero_point's dtype (A's when absent).
 *
 * A is packed per call as int16 differences from its zero points. B is
 * packed without its zero point -- once per session when it is a constant
 * without batch dims (the pack seam: a packed form may depend only on B's
 * own bytes), else per batch matrix -- and zb(j) * sum_k (a(i,k) - za(i))
 * is subtracted afterwards: exact (wrapping arithmetic; the true result
 * fits int32, so the wrapped one is it).
 *
 * holo.MatMulIntegerToFloat (A, B, a_scale, b_scale, a_zp, b_zp, bias) is
 * MatMulInteger with the float epilogue of the chain it replaces
 * (compiler/rewrites/fuse-qmatmul-float.js, decision 72): each sum, in the
 * output's bytes, becomes (float)sum * (a_scale * b_scale[j]) (+ bias[j]),
 * one f32 rounding per step as the Cast, Mul and Add take them.
 * holo.DynamicQuantizeMatMul (x f32, B, b_scale, b_zp, bias) first
 * quantizes x whole as DynamicQuantizeLinear does (qlinear-quant.c), then
 * is that product with x's scale and zero point. */
#include "common/check.h"
#include "common/mmshape.h"
#include "common/shape.h"
#include "microkernels/igemm.h"
#include "microkernels/requant.h"
#include "operators/operators.h"
#include "operators/products.h"
#include "operators/qlinear.h"

/* Which inputs are which: MatMulInteger's, QLinearMatMul's (q), or the
 * float-epilogue products' (f: as, bs the scales, bias; dq: A is f32,
 * quantized first, so za and as name no input). NONE: an index past every
 * node's inputs, which holo_k_absent calls absent. */
#define NONE 64
typedef struct mmi_ix {
  const char *op;
  uint32_t a, b, za, zb;
  bool q;
  bool f, dq;
  uint32_t as, bs, bias, min_in, max_in;
} mmi_ix;
static const mmi_ix MMI = {"MatMulInteger", 0, 1, 2, 3, false, false, false, NONE, NONE, NONE, 2, 4};
static const mmi_ix QLM = {"QLinearMatMul", 0, 3, 2, 5, true, false, false, NONE, NONE, NONE, 8, 8};
/* onnxruntime's contrib orders: (A, B, a_scale, b_scale, a_zp, b_zp, bias)
 * and (A, B, b_scale, b_zp, bias) */
static const mmi_ix MTF = {"holo.MatMulIntegerToFloat", 0, 1, 4, 5, false, true, false, 2, 3, 6, 4, 7};
static const mmi_ix DQM = {"holo.DynamicQuantizeMatMul", 0, 1, NONE, 3, false, true, true, NONE, 2, 4, 3, 5};

static bool mmi_int8(uint32_t dt) { return dt == HOLO_DT_U8 || dt == HOLO_DT_I8; }

static holo_status mmi_zero_point(holo_kernel_call *c, const mmi_ix *x, uint32_t idx, uint32_t dt,
                                  size_t len) {
  if (holo_k_absent(c, idx)) return HOLO_OK;
  holo_status st;
  if ((st = holo_k_check_input(c, x->op, idx, dt))) return st;
  const holo_tensor *z = &c->inputs[idx];
  size_t n = 1;
  for (uint32_t i = 0; i < z->rank; i++)
    n *= (size_t)z->shape[i];
  if (n == 1 && z->rank <= 1) return HOLO_OK;
  if (z->rank == 1 && n == len) return HOLO_OK;
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                     "%s: zero point %u must be a scalar or 1-D of %zu, got rank %u of %zu", x->op, idx, len,
                     z->rank, n);
}

/* The float epilogue's a_scale (a scalar), b_scale (scalar or [N]) and
 * bias (absent, or f32 of 1 or N elements along the last dim). */
static holo_status mmi_f_params(holo_kernel_call *c, const mmi_ix *x, const holo_k_mm_geom *g) {
  holo_status st;
  if ((!x->dq && (st = holo_k_q_scale(c, x->op, x->as, 1, "a_scale"))) ||
      (st = holo_k_q_scale(c, x->op, x->bs, g->N, "b_scale")))
    return st;
  if (holo_k_absent(c, x->bias)) return HOLO_OK;
  if ((st = holo_k_check_input(c, x->op, x->bias, HOLO_DT_F32))) return st;
  const holo_tensor *t = &c->inputs[x->bias];
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    n *= (size_t)t->shape[i];
  if ((n == 1 || n == g->N) && (t->rank == 0 || (size_t)t->shape[t->rank - 1] == n)) return HOLO_OK;
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: bias must have 1 or N = %zu elements along its last dim",
                     x->op, g->N);
}

/* QLinearMatMul's scales and output zero point. */
static holo_status mmi_q_params(holo_kernel_call *c, const holo_k_mm_geom *g) {
  holo_status st;
  if ((st = holo_k_q_scale(c, "QLinearMatMul", 1, 1, "a_scale")) ||
      (st = holo_k_q_scale(c, "QLinearMatMul", 4, g->N, "b_scale")) ||
      (st = holo_k_q_scale(c, "QLinearMatMul", 6, 1, "y_scale")) ||
      (st = holo_k_q_zero(c, "QLinearMatMul", 7, 0, 1, "y_zero_point")))
    return st;
  return holo_k_q_zero(c, "QLinearMatMul", 2, c->inputs[0].dtype, 1, "a_zero_point");
}

static holo_status mmi_geometry(holo_kernel_call *c, const mmi_ix *x, holo_k_mm_geom *g, int64_t *yshape,
                                uint32_t *yrank) {
  holo_status st;
  if ((st = holo_k_check_arity(c, x->op, x->min_in, x->max_in, 1)) ||
      (st = holo_k_check_input(c, x->op, x->a, 0)) || (st = holo_k_check_input(c, x->op, x->b, 0)))
    return st;
  const holo_tensor *a = &c->inputs[x->a], *b = &c->inputs[x->b];
  if (x->dq ? a->dtype != HOLO_DT_F32 || !mmi_int8(b->dtype) : !mmi_int8(a->dtype) || !mmi_int8(b->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: A and B must be %s and u8 or i8, got %s and %s", x->op,
                       x->dq ? "f32" : "u8 or i8", holo_k_dtype_name(a->dtype), holo_k_dtype_name(b->dtype));
  if ((st = holo_k_mm_geometry_of(c, x->op, x->a, x->b, g, yshape, yrank))) return st;
  if (g->K > HOLO_IGEMM_MAX_K)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: K = %zu could overflow int32 (max %d)", x->op, g->K,
                       HOLO_IGEMM_MAX_K);
  if ((uint64_t)g->M * holo_igemm_kp(g->K) > SIZE_MAX / 64 ||
      (uint64_t)g->N * holo_igemm_kp(g->K) > SIZE_MAX / 64 || (uint64_t)g->M * g->N > SIZE_MAX / 64)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: operands too large to pack", x->op);
  if (x->q && (st = mmi_q_params(c, g))) return st;
  if (x->f && (st = mmi_f_params(c, x, g))) return st;
  if ((st = mmi_zero_point(c, x, x->za, a->dtype, g->M))) return st;
  return mmi_zero_point(c, x, x->zb, b->dtype, g->N);
}

static size_t mmi_round64(size_t bytes) { return (bytes + 63) / 64 * 64; }
static size_t mmi_pa_bytes(const holo_k_mm_geom *g) {
  return mmi_round64(holo_igemm_packed_a_elems(g->M, g->K) * sizeof(int16_t));
}
static size_t mmi_pb_bytes(const holo_k_mm_geom *g) {
  return mmi_round64(holo_igemm_packed_b_elems(g->K, g->N) * sizeof(int16_t));
}
/* QLinearMatMul's extra: one batch matrix of sums, then the multipliers */
static size_t mmi_q_bytes(const mmi_ix *x, const holo_k_mm_geom *g) {
  return x->q ? mmi_round64(g->M * g->N * sizeof(int32_t)) + mmi_round64(g->N * sizeof(float)) : 0;
}
/* the float epilogue's: the multipliers (the sums are the output's bytes);
 * dq also A quantized, whole (one scale for every batch matrix) */
static size_t mmi_f_bytes(const holo_kernel_call *c, const mmi_ix *x, const holo_k_mm_geom *g) {
  if (!x->f) return 0;
  size_t n = 0;
  if (x->dq) {
    const holo_tensor *a = &c->inputs[x->a];
    n = 1;
    for (uint32_t i = 0; i < a->rank; i++)
      n *= (size_t)a->shape[i];
  }
  return mmi_round64(g->N * sizeof(float)) + mmi_round64(n);
}

/* B as packed once per session, or NULL. */
static const int16_t *mmi_packed(const holo_kernel_call *c, const mmi_ix *x, const holo_k_mm_geom *g) {
  size_t w;
  return c->packed
             ? (const int16_t *)holo_gemm_packed(c->packed[x->b], HOLO_GEMM_PACKED_IB, g->K, g->N, 1, &w)
             : 0;
}

/* B's raw values (no zero point) as B panels. */
static void mmi_pack_b(const holo_tensor *b, const holo_k_mm_geom *g, size_t ob, int16_t *dst) {
  holo_iop op = {(const uint8_t *)b->data + ob, 1, g->N, b->dtype == HOLO_DT_U8, 0, 0, false};
  holo_ukernel_ipack_b_i8__scalar(dst, &op, g->N, g->K, 0,
                                  (g->N + HOLO_IGEMM_NR - 1) / HOLO_IGEMM_NR * HOLO_IGEMM_NR);
}

static holo_status mmi_pack(holo_pack_call *p, const mmi_ix *x) {
  holo_kernel_call v = holo_k_pack_view(p->call), *c = &v;
  holo_k_mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (p->input != x->b || c->n_inputs <= x->b || mmi_geometry(c, x, &g, ys, &yr))
    return HOLO_OK; /* infer says why */
  const holo_tensor *b = &c->inputs[x->b];
  for (uint32_t i = 0; i + 2 < b->rank; i++)
    if (b->shape[i] != 1) return HOLO_OK; /* B's own batch: packed per call */
  if (!p->dst) {
    p->bytes = holo_gemm_pack_bytes(mmi_pb_bytes(&g) / sizeof(float));
    return HOLO_OK;
  }
  mmi_pack_b(b, &g, 0,
             (int16_t *)holo_gemm_pack_header(p->dst, HOLO_GEMM_PACKED_IB, HOLO_IGEMM_NR, g.K, g.N, 1));
  return HOLO_OK;
}

static holo_status mmi_infer(holo_kernel_call *c, const mmi_ix *x) {
  holo_k_mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = mmi_geometry(c, x, &g, ys, &yr))) return st;
  c->workspace_bytes = mmi_pa_bytes(&g) + (mmi_packed(c, x, &g) ? 0 : mmi_pb_bytes(&g)) +
                       mmi_round64(g.M * sizeof(int32_t)) + mmi_q_bytes(x, &g) + mmi_f_bytes(c, x, &g);
  uint64_t f[4] = {1, g.M, g.N, g.K};
  for (uint32_t i = 0; i < g.brank; i++)
    f[0] = holo_k_mul_sat(f[0], (uint64_t)g.bshape[i]);
  c->work = holo_k_work(4, f);
  uint32_t dt = x->q ? holo_k_q_out_dtype(c, 7, c->inputs[0].dtype) : x->f ? HOLO_DT_F32 : HOLO_DT_I32;
  return holo_k_set_output(c, x->op, 0, dt, yr, ys);
}

static int32_t mmi_zp(const holo_kernel_call *c, uint32_t idx, size_t j) {
  if (holo_k_absent(c, idx)) return 0;
  const holo_tensor *z = &c->inputs[idx];
  size_t i = z->rank == 1 && z->shape[0] > 1 ? j : 0;
  return z->dtype == HOLO_DT_U8 ? (int32_t)((const uint8_t *)z->data)[i]
                                : (int32_t)((const int8_t *)z->data)[i];
}

/* y(i,j) -= zb(j) * sum_k (a(i,k) - za(i)), the sums read off packed A. */
static void mmi_zb_correct(const holo_kernel_call *c, const mmi_ix *x, const holo_k_mm_geom *g,
                           const int16_t *pa, int32_t *rowsum, int32_t *y) {
  bool any = false;
  for (size_t j = 0; j < g->N && !any; j++)
    any = mmi_zp(c, x->zb, j) != 0;
  if (!any) return;
  holo_igemm_a_rowsums(pa, g->M, g->K, rowsum);
  for (size_t i = 0; i < g->M; i++)
    for (size_t j = 0; j < g->N; j++)
      y[i * g->N + j] =
          (int32_t)((uint32_t)y[i * g->N + j] - (uint32_t)mmi_zp(c, x->zb, j) * (uint32_t)rowsum[i]);
}

/* b_scale has one element per column (else one for all) */
static bool mmi_percol(const holo_kernel_call *c) {
  return c->inputs[4].rank == 1 && c->inputs[4].shape[0] > 1;
}

/* The batch matrix's sums acc (M x N) requantized into y. */
static void mmi_requant(const holo_kernel_call *c, const holo_k_mm_geom *g, const float *mult,
                        const int32_t *acc, void *y) {
  holo_requant q = {mult, mmi_percol(c) ? 1 : 0, 0, holo_k_q_zero_at(c, 7, 0),
                    c->outputs[0].dtype == HOLO_DT_U8};
  for (size_t i = 0; i < g->M; i++)
    holo_requant_i32(g->N, acc + i * g->N, &q, (uint8_t *)y + i * g->N);
}

/* The float epilogue over one batch matrix, in place: y(i,j) =
 * (float)sum(i,j) * mult[j] (+ bias[j]) -- the Cast, Mul and Add of the
 * chain it replaces, each one f32 rounding (no contraction: fp-contract.h). */
static void mmi_f_epilogue(const holo_kernel_call *c, const mmi_ix *x, const holo_k_mm_geom *g,
                           const float *mult, void *y) {
  const float *bias = holo_k_absent(c, x->bias) ? 0 : c->inputs[x->bias].data;
  size_t mj = c->inputs[x->bs].rank == 1 && c->inputs[x->bs].shape[0] > 1 ? 1 : 0;
  size_t bj = bias && c->inputs[x->bias].rank && c->inputs[x->bias].shape[c->inputs[x->bias].rank - 1] > 1;
  uint8_t *p = y;
  for (size_t i = 0; i < g->M; i++)
    for (size_t j = 0; j < g->N; j++, p += 4) {
      int32_t acc;
      __builtin_memcpy(&acc, p, 4); /* the int32 sum, replaced by its float */
      float v = (float)acc * mult[j * mj];
      if (bias) v = v + bias[j * bj];
      __builtin_memcpy(p, &v, 4);
    }
}

/* What the batch loop reads of A: A itself, or (dq) A quantized into q. */
typedef struct mmi_a {
  const void *p;
  bool u8;
  const void *z;
  size_t zs;
  bool z_u8;
} mmi_a;

/* dq: A quantized whole into q (DynamicQuantizeLinear's bytes), its zero
 * point into *z8; mult[j] = a_scale * b_scale[j] (the chain's Mul of the
 * two scales). */
static void mmi_f_prepare(const holo_kernel_call *c, const mmi_ix *x, const holo_k_mm_geom *g, uint8_t *q,
                          uint8_t *z8, float *mult, mmi_a *A) {
  float as;
  if (x->dq) {
    const holo_tensor *a = &c->inputs[x->a];
    size_t n = 1;
    for (uint32_t i = 0; i < a->rank; i++)
      n *= (size_t)a->shape[i];
    holo_k_dql(a->data, n, q, &as, z8);
    *A = (mmi_a){q, true, z8, 0, true};
  } else {
    as = holo_k_q_scale_at(c, x->as, 0);
  }
  size_t nb = c->inputs[x->bs].rank == 1 && c->inputs[x->bs].shape[0] > 1 ? g->N : 1;
  for (size_t j = 0; j < nb; j++)
    mult[j] = as * holo_k_q_scale_at(c, x->bs, j);
}

static holo_status mmi_run(holo_kernel_call *c, const mmi_ix *x) {
  holo_k_mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (mmi_geometry(c, x, &g, ys, &yr)) return HOLO_ERR_KERNEL;
  const holo_tensor *a = &c->inputs[x->a], *b = &c->inputs[x->b];
  uint8_t *ws = c->workspace;
  int16_t *pa = (int16_t *)ws, *pb = (int16_t *)(ws + mmi_pa_bytes(&g));
  const int16_t *Bp = mmi_packed(c, x, &g);
  uint8_t *rest = ws + mmi_pa_bytes(&g) + (Bp ? 0 : mmi_pb_bytes(&g));
  int32_t *rowsum = (int32_t *)rest, *acc = (int32_t *)(rest + mmi_round64(g.M * sizeof(int32_t)));
  float *mult = (float *)((uint8_t *)acc + mmi_round64(g.M * g.N * sizeof(int32_t)));
  size_t batches = 1, idx[HOLO_MAX_RANK] = {0}, last_ob = SIZE_MAX;
  for (uint32_t i = 0; i < g.brank; i++)
    batches *= (size_t)g.bshape[i];
  if (g.M == 0 || g.N == 0) return HOLO_OK;
  holo_status st;
  if (x->q && (st = holo_k_q_multipliers(c, x->op, 1, 4, 6, mult, mmi_percol(c) ? g.N : 1))) return st;
  bool zs = !holo_k_absent(c, x->za) && c->inputs[x->za].rank == 1 && c->inputs[x->za].shape[0] > 1;
  mmi_a A = {a->data, a->dtype == HOLO_DT_U8, holo_k_absent(c, x->za) ? 0 : c->inputs[x->za].data, zs ? 1 : 0,
             a->dtype == HOLO_DT_U8};
  uint8_t z8 = 0;
  if (x->f) {
    mult = (float *)(rest + mmi_round64(g.M * sizeof(int32_t))); /* no acc: the sums are the output's */
    mmi_f_prepare(c, x, &g, (uint8_t *)mult + mmi_round64(g.N * sizeof(float)), &z8, mult, &A);
  }
  size_t rows = (g.M + HOLO_IGEMM_MR - 1) / HOLO_IGEMM_MR * HOLO_IGEMM_MR;
  size_t ysz = x->q ? 1 : sizeof(int32_t);
  for (size_t t = 0; t < batches; t++) {
    size_t oa = 0, ob = 0;
    for (uint32_t i = 0; i < g.brank; i++) {
      oa += idx[i] * (size_t)g.sa[i];
      ob += idx[i] * (size_t)g.sb[i];
    }
    oa *= g.M * g.K;
    ob *= g.K * g.N;
    holo_iop op = {(const uint8_t *)A.p + oa, g.K, 1, A.u8, A.z, A.zs, A.z_u8};
    holo_ukernel_ipack_a_i8__scalar(pa, &op, g.M, g.K, 0, rows);
    if (!Bp && ob != last_ob) mmi_pack_b(b, &g, ob, pb);
    last_ob = ob;
    uint8_t *yt = (uint8_t *)c->outputs[0].data + t * g.M * g.N * ysz;
    int32_t *sums = x->q ? acc : (int32_t *)yt;
    holo_igemm_i8(g.M, g.N, g.K, pa, Bp ? Bp : pb, sums, g.N);
    mmi_zb_correct(c, x, &g, pa, rowsum, sums);
    if (x->q) mmi_requant(c, &g, mult, acc, yt);
    if (x->f) mmi_f_epilogue(c, x, &g, mult, yt);
    for (uint32_t i = g.brank; i-- > 0;)
      if (++idx[i] < (size_t)g.bshape[i])
        break;
      else
        idx[i] = 0;
  }
  return HOLO_OK;
}

holo_status holo_k_matmulinteger_pack(holo_pack_call *p) { return mmi_pack(p, &MMI); }
holo_status holo_k_matmulinteger_infer(holo_kernel_call *c) { return mmi_infer(c, &MMI); }
holo_status holo_k_matmulinteger_run(holo_kernel_call *c) { return mmi_run(c, &MMI); }
holo_status holo_k_qlinearmatmul_pack(holo_pack_call *p) { return mmi_pack(p, &QLM); }
holo_status holo_k_qlinearmatmul_infer(holo_kernel_call *c) { return mmi_infer(c, &QLM); }
holo_status holo_k_qlinearmatmul_run(holo_kernel_call *c) { return mmi_run(c, &QLM); }
holo_status holo_k_mmitofloat_pack(holo_pack_call *p) { return mmi_pack(p, &MTF); }
holo_status holo_k_mmitofloat_infer(holo_kernel_call *c) { return mmi_infer(c, &MTF); }
holo_status holo_k_mmitofloat_run(holo_kernel_call *c) { return mmi_run(c, &MTF); }
holo_status holo_k_dqmatmul_pack(holo_pack_call *p) { return mmi_pack(p, &DQM); }
holo_status holo_k_dqmatmul_infer(holo_kernel_call *c) { return mmi_infer(c, &DQM); }
holo_status holo_k_dqmatmul_run(holo_kernel_call *c) { return mmi_run(c, &DQM); }
