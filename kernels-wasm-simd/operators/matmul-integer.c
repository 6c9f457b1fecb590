/* MatMulInteger (opset 10): Y = (A - a_zero_point) x (B - b_zero_point) in
 * int32, A and B each u8 or i8, numpy batch broadcasting as MatMul
 * (common/mmshape.h). a_zero_point is a scalar or [M] (one per row of A);
 * b_zero_point a scalar or [N] (one per column of B); each of A's / B's
 * dtype. Every |term| <= 255*255, so a sum overflows int32 only for K >
 * 33025 (refused); the sum is exact and its bytes do not depend on the
 * order, so every variant of the integer core (microkernels/igemm.h) gives
 * the same bytes.
 *
 * A is packed per call as int16 differences from its zero points. B is
 * packed without its zero point -- once per session when it is a constant
 * without batch dims (the pack seam: a packed form may depend only on B's
 * own bytes), else per batch matrix -- and zb(j) * sum_k (a(i,k) - za(i))
 * is subtracted afterwards: exact (wrapping arithmetic; the true result
 * fits int32, so the wrapped one is it). */
#include "common/check.h"
#include "common/mmshape.h"
#include "common/shape.h"
#include "microkernels/igemm.h"
#include "operators/operators.h"
#include "operators/products.h"

static bool mmi_int8(uint32_t dt) { return dt == HOLO_DT_U8 || dt == HOLO_DT_I8; }

static holo_status mmi_zero_point(holo_kernel_call *c, uint32_t idx, uint32_t dt, size_t len) {
  if (holo_k_absent(c, idx)) return HOLO_OK;
  holo_status st;
  if ((st = holo_k_check_input(c, "MatMulInteger", idx, dt))) return st;
  const holo_tensor *z = &c->inputs[idx];
  size_t n = 1;
  for (uint32_t i = 0; i < z->rank; i++)
    n *= (size_t)z->shape[i];
  if (n == 1 && z->rank <= 1) return HOLO_OK;
  if (z->rank == 1 && n == len) return HOLO_OK;
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                     "MatMulInteger: zero point %u must be a scalar or 1-D of %zu, got rank %u of %zu", idx,
                     len, z->rank, n);
}

static holo_status mmi_geometry(holo_kernel_call *c, holo_k_mm_geom *g, int64_t *yshape, uint32_t *yrank) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "MatMulInteger", 2, 4, 1)) ||
      (st = holo_k_check_input(c, "MatMulInteger", 0, 0)) ||
      (st = holo_k_check_input(c, "MatMulInteger", 1, 0)))
    return st;
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  if (!mmi_int8(a->dtype) || !mmi_int8(b->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "MatMulInteger: A and B must be u8 or i8, got %s and %s",
                       holo_k_dtype_name(a->dtype), holo_k_dtype_name(b->dtype));
  if ((st = holo_k_mm_geometry(c, "MatMulInteger", g, yshape, yrank))) return st;
  if (g->K > HOLO_IGEMM_MAX_K)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "MatMulInteger: K = %zu could overflow int32 (max %d)", g->K,
                       HOLO_IGEMM_MAX_K);
  if ((uint64_t)g->M * holo_igemm_kp(g->K) > SIZE_MAX / 64 ||
      (uint64_t)g->N * holo_igemm_kp(g->K) > SIZE_MAX / 64)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMulInteger: operands too large to pack");
  return mmi_zero_point(c, 2, a->dtype, g->M) ? HOLO_ERR_UNSUPPORTED : mmi_zero_point(c, 3, b->dtype, g->N);
}

static size_t mmi_round64(size_t bytes) { return (bytes + 63) / 64 * 64; }
static size_t mmi_pa_bytes(const holo_k_mm_geom *g) {
  return mmi_round64(holo_igemm_packed_a_elems(g->M, g->K) * sizeof(int16_t));
}
static size_t mmi_pb_bytes(const holo_k_mm_geom *g) {
  return mmi_round64(holo_igemm_packed_b_elems(g->K, g->N) * sizeof(int16_t));
}

/* B as packed once per session, or NULL. */
static const int16_t *mmi_packed(const holo_kernel_call *c, const holo_k_mm_geom *g) {
  size_t w;
  return c->packed ? (const int16_t *)holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_IB, g->K, g->N, 1, &w)
                   : 0;
}

/* B's raw values (no zero point) as B panels. */
static void mmi_pack_b(const holo_tensor *b, const holo_k_mm_geom *g, size_t ob, int16_t *dst) {
  holo_iop op = {(const uint8_t *)b->data + ob, 1, g->N, b->dtype == HOLO_DT_U8, 0, 0, false};
  holo_ukernel_ipack_b_i8__scalar(dst, &op, g->N, g->K, 0,
                                  (g->N + HOLO_IGEMM_NR - 1) / HOLO_IGEMM_NR * HOLO_IGEMM_NR);
}

holo_status holo_k_matmulinteger_pack(holo_pack_call *p) {
  holo_kernel_call *c = p->call;
  holo_k_mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (p->input != 1 || c->n_inputs < 2 || mmi_geometry(c, &g, ys, &yr)) return HOLO_OK; /* infer says why */
  const holo_tensor *b = &c->inputs[1];
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

holo_status holo_k_matmulinteger_infer(holo_kernel_call *c) {
  holo_k_mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = mmi_geometry(c, &g, ys, &yr))) return st;
  c->workspace_bytes = mmi_pa_bytes(&g) + (mmi_packed(c, &g) ? 0 : mmi_pb_bytes(&g)) + g.M * sizeof(int32_t);
  uint64_t f[4] = {1, g.M, g.N, g.K};
  for (uint32_t i = 0; i < g.brank; i++)
    f[0] = holo_k_mul_sat(f[0], (uint64_t)g.bshape[i]);
  c->work = holo_k_work(4, f);
  return holo_k_set_output(c, "MatMulInteger", 0, HOLO_DT_I32, yr, ys);
}

static int32_t mmi_zp(const holo_kernel_call *c, uint32_t idx, size_t j) {
  if (holo_k_absent(c, idx)) return 0;
  const holo_tensor *z = &c->inputs[idx];
  size_t i = z->rank == 1 && z->shape[0] > 1 ? j : 0;
  return z->dtype == HOLO_DT_U8 ? (int32_t)((const uint8_t *)z->data)[i]
                                : (int32_t)((const int8_t *)z->data)[i];
}

/* y(i,j) -= zb(j) * sum_k (a(i,k) - za(i)), the sums read off packed A. */
static void mmi_zb_correct(const holo_kernel_call *c, const holo_k_mm_geom *g, const int16_t *pa,
                           int32_t *rowsum, int32_t *y) {
  bool any = false;
  for (size_t j = 0; j < g->N && !any; j++)
    any = mmi_zp(c, 3, j) != 0;
  if (!any) return;
  size_t kp = holo_igemm_kp(g->K);
  for (size_t i = 0; i < g->M; i++) {
    const int16_t *d = pa + (i / HOLO_IGEMM_MR) * kp * HOLO_IGEMM_MR + 2 * (i % HOLO_IGEMM_MR);
    int32_t s = 0;
    for (size_t q = 0; q < kp / 2; q++)
      s += d[q * 2 * HOLO_IGEMM_MR] + d[q * 2 * HOLO_IGEMM_MR + 1];
    rowsum[i] = s;
  }
  for (size_t i = 0; i < g->M; i++)
    for (size_t j = 0; j < g->N; j++)
      y[i * g->N + j] =
          (int32_t)((uint32_t)y[i * g->N + j] - (uint32_t)mmi_zp(c, 3, j) * (uint32_t)rowsum[i]);
}

holo_status holo_k_matmulinteger_run(holo_kernel_call *c) {
  holo_k_mm_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (mmi_geometry(c, &g, ys, &yr)) return HOLO_ERR_KERNEL;
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  int32_t *y = (int32_t *)c->outputs[0].data;
  uint8_t *ws = c->workspace;
  int16_t *pa = (int16_t *)ws, *pb = (int16_t *)(ws + mmi_pa_bytes(&g));
  const int16_t *Bp = mmi_packed(c, &g);
  int32_t *rowsum = (int32_t *)(ws + mmi_pa_bytes(&g) + (Bp ? 0 : mmi_pb_bytes(&g)));
  size_t batches = 1, idx[HOLO_MAX_RANK] = {0}, last_ob = SIZE_MAX;
  for (uint32_t i = 0; i < g.brank; i++)
    batches *= (size_t)g.bshape[i];
  if (g.M == 0 || g.N == 0) return HOLO_OK;
  size_t rows = (g.M + HOLO_IGEMM_MR - 1) / HOLO_IGEMM_MR * HOLO_IGEMM_MR;
  bool zs = !holo_k_absent(c, 2) && c->inputs[2].rank == 1 && c->inputs[2].shape[0] > 1;
  for (size_t t = 0; t < batches; t++) {
    size_t oa = 0, ob = 0;
    for (uint32_t i = 0; i < g.brank; i++) {
      oa += idx[i] * (size_t)g.sa[i];
      ob += idx[i] * (size_t)g.sb[i];
    }
    oa *= g.M * g.K;
    ob *= g.K * g.N;
    holo_iop op = {(const uint8_t *)a->data + oa,
                   g.K,
                   1,
                   a->dtype == HOLO_DT_U8,
                   holo_k_absent(c, 2) ? 0 : c->inputs[2].data,
                   zs ? 1 : 0,
                   a->dtype == HOLO_DT_U8};
    holo_ukernel_ipack_a_i8__scalar(pa, &op, g.M, g.K, 0, rows);
    if (!Bp && ob != last_ob) mmi_pack_b(b, &g, ob, pb);
    last_ob = ob;
    int32_t *yt = y + t * g.M * g.N;
    holo_igemm_i8(g.M, g.N, g.K, pa, Bp ? Bp : pb, yt, g.N);
    mmi_zb_correct(c, &g, pa, rowsum, yt);
    for (uint32_t i = g.brank; i-- > 0;)
      if (++idx[i] < (size_t)g.bshape[i])
        break;
      else
        idx[i] = 0;
  }
  return HOLO_OK;
}
