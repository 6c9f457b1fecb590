/* MatMulInteger (opset 10): Y = (A - a_zero_point) x (B - b_zero_point) in
 * int32, A and B each u8 or i8, numpy batch broadcasting as MatMul (1-D
 * operands promoted and the promoted dim dropped). a_zero_point is a scalar
 * or [M] (one per row of A); b_zero_point a scalar or [N] (one per column of
 * B); each of A's / B's dtype. Integer arithmetic: every |term| <= 255*255,
 * so a product overflows int32 only for K > 33025 (refused); the sum is
 * exact and its bytes do not depend on the order. */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

#define MMI_MAX_K 33025

typedef struct mmi_geom {
  size_t M, K, N;
  uint32_t brank;
  int64_t bshape[HOLO_MAX_RANK], sa[HOLO_MAX_RANK], sb[HOLO_MAX_RANK];
} mmi_geom;

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

static holo_status mmi_geometry(holo_kernel_call *c, mmi_geom *g, int64_t *yshape, uint32_t *yrank) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "MatMulInteger", 2, 4, 1)) ||
      (st = holo_k_check_input(c, "MatMulInteger", 0, 0)) ||
      (st = holo_k_check_input(c, "MatMulInteger", 1, 0)))
    return st;
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  if (!mmi_int8(a->dtype) || !mmi_int8(b->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "MatMulInteger: A and B must be u8 or i8, got %s and %s",
                       holo_k_dtype_name(a->dtype), holo_k_dtype_name(b->dtype));
  if (a->rank == 0 || b->rank == 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMulInteger: a scalar operand");
  int64_t ka = a->shape[a->rank - 1], kb = b->rank == 1 ? b->shape[0] : b->shape[b->rank - 2];
  if (ka != kb)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMulInteger: inner dimensions differ: %lld vs %lld",
                       (long long)ka, (long long)kb);
  if (ka > MMI_MAX_K)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "MatMulInteger: K = %lld could overflow int32 (max %d)",
                       (long long)ka, MMI_MAX_K);
  uint32_t rab = a->rank >= 2 ? a->rank - 2 : 0, rbb = b->rank >= 2 ? b->rank - 2 : 0;
  if (!holo_k_broadcast_shape(a->shape, rab, b->shape, rbb, g->bshape, &g->brank))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "MatMulInteger: batch dims do not broadcast");
  holo_k_broadcast_strides(a->shape, rab, g->bshape, g->brank, g->sa);
  holo_k_broadcast_strides(b->shape, rbb, g->bshape, g->brank, g->sb);
  g->M = a->rank == 1 ? 1 : (size_t)a->shape[a->rank - 2];
  g->K = (size_t)ka;
  g->N = b->rank == 1 ? 1 : (size_t)b->shape[b->rank - 1];
  if ((st = mmi_zero_point(c, 2, a->dtype, g->M)) || (st = mmi_zero_point(c, 3, b->dtype, g->N))) return st;
  uint32_t r = 0;
  for (uint32_t i = 0; i < g->brank; i++)
    yshape[r++] = g->bshape[i];
  if (a->rank >= 2) yshape[r++] = (int64_t)g->M;
  if (b->rank >= 2) yshape[r++] = (int64_t)g->N;
  *yrank = r;
  return HOLO_OK;
}

holo_status holo_k_matmulinteger_infer(holo_kernel_call *c) {
  mmi_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  holo_status st;
  if ((st = mmi_geometry(c, &g, ys, &yr))) return st;
  return holo_k_set_output(c, "MatMulInteger", 0, HOLO_DT_I32, yr, ys);
}

/* Element i of an int8 tensor of dtype dt as int32. */
static int32_t mmi_at(const void *p, uint32_t dt, size_t i) {
  return dt == HOLO_DT_U8 ? (int32_t)((const uint8_t *)p)[i] : (int32_t)((const int8_t *)p)[i];
}
/* Zero point idx for row/column j (0 when absent; a scalar serves every j). */
static int32_t mmi_zp(const holo_kernel_call *c, uint32_t idx, size_t j) {
  if (holo_k_absent(c, idx)) return 0;
  const holo_tensor *z = &c->inputs[idx];
  return mmi_at(z->data, z->dtype, z->rank == 1 && z->shape[0] > 1 ? j : 0);
}

holo_status holo_k_matmulinteger_run(holo_kernel_call *c) {
  mmi_geom g;
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (mmi_geometry(c, &g, ys, &yr)) return HOLO_ERR_KERNEL;
  const holo_tensor *a = &c->inputs[0], *b = &c->inputs[1];
  int32_t *y = (int32_t *)c->outputs[0].data;
  size_t batches = 1, idx[HOLO_MAX_RANK] = {0};
  for (uint32_t i = 0; i < g.brank; i++)
    batches *= (size_t)g.bshape[i];
  for (size_t t = 0; t < batches; t++) {
    size_t oa = 0, ob = 0;
    for (uint32_t i = 0; i < g.brank; i++) {
      oa += idx[i] * (size_t)g.sa[i];
      ob += idx[i] * (size_t)g.sb[i];
    }
    oa *= g.M * g.K;
    ob *= g.K * g.N;
    for (size_t m = 0; m < g.M; m++) {
      int32_t za = mmi_zp(c, 2, m);
      for (size_t n = 0; n < g.N; n++) {
        int32_t zb = mmi_zp(c, 3, n), acc = 0;
        for (size_t k = 0; k < g.K; k++)
          acc += (mmi_at(a->data, a->dtype, oa + m * g.K + k) - za) *
                 (mmi_at(b->data, b->dtype, ob + k * g.N + n) - zb);
        y[(t * g.M + m) * g.N + n] = acc;
      }
    }
    for (uint32_t i = g.brank; i-- > 0;)
      if (++idx[i] < (size_t)g.bshape[i])
        break;
      else
        idx[i] = 0;
  }
  return HOLO_OK;
}
