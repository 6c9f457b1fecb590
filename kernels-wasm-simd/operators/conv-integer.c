/* ConvInteger (opset 10), 2-D NCHW: Y = conv(X - x_zero_point,
 * W - w_zero_point) in exact int32, X and W each u8 or i8, x_zero_point a
 * scalar, w_zero_point a scalar or one per output channel; pads, auto_pad,
 * strides, dilations and group as Conv (1-D runs as 2-D over [N, C, 1, L]:
 * the converter reshapes). A padding tap contributes 0 (onnxruntime pads X
 * with its zero point).
 *
 * im2col of X - zx into the integer core's packed B (igemm.h), a chunk of
 * output positions at a time, against W packed as int16 A panels -- once
 * per session when W is constant (the pack seam), else per call. W is
 * packed without its zero point (a packed form may depend only on W's own
 * bytes), which is subtracted afterwards as zw(m) * sum_k (x - zx): exact,
 * so the bytes are the direct formula's. Chunks are split into tasks by a
 * rule of the shape; every output is one task's, so the bytes never depend
 * on the threads.
 *
 * Depthwise (group == C == M, the MobileNet block) skips im2col and the
 * GEMM core, whose 4-row tiles would hold one row: each channel is copied
 * once into a zero-padded int16 plane of x - zx and convolved a row at a
 * time with its filter as int16 w - zw (microkernels/idwconv2d.h), W left
 * unpacked. The sums are the same exact int32 (docs/decisions.md 73).
 *
 * QLinearConv (opset 10) is the same convolution of its inputs x (0) and w
 * (3), zero points 2 and 5 (x_zero_point a scalar, w_zero_point a scalar or
 * per output channel), plus the optional int32 bias B (8, [M]), each chunk
 * requantized as it leaves the core: y = saturate(rne((sum + B[m]) *
 * x_scale * w_scale[m] / y_scale) + y_zero_point) (qlinear.h, requant.h),
 * of y_zero_point's dtype (X's when absent). */
#include "common/check.h"
#include "common/shape.h"
#include "common/window2d.h"
#include "microkernels/idwconv2d.h"
#include "microkernels/igemm.h"
#include "microkernels/im2col.h"
#include "operators/products.h"
#include "operators/qlinear.h"

/* output positions per im2col chunk (a multiple of HOLO_IGEMM_NR) */
#define CI_CHUNK 128
#define CI_TASKS 4

/* Which inputs are which: ConvInteger's, or QLinearConv's (q). */
typedef struct ci_ix {
  const char *op;
  uint32_t x, w, zx, zw;
  bool q;
} ci_ix;
static const ci_ix CVI = {"ConvInteger", 0, 1, 2, 3, false};
static const ci_ix QLC = {"QLinearConv", 0, 3, 2, 5, true};

typedef struct ci_geom {
  const ci_ix *ix;
  size_t N, C, M, G, Cg, Mg, K, plane, xplane;
  holo_k_win2d w;
} ci_geom;

static bool ci_int8(uint32_t dt) { return dt == HOLO_DT_U8 || dt == HOLO_DT_I8; }

static holo_status ci_zero_point(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dt, size_t per,
                                 const char *what) {
  if (holo_k_absent(c, idx)) return HOLO_OK;
  holo_status st;
  if ((st = holo_k_check_input(c, op, idx, dt))) return st;
  const holo_tensor *z = &c->inputs[idx];
  size_t n = 1;
  for (uint32_t i = 0; i < z->rank; i++)
    n *= (size_t)z->shape[i];
  if (z->rank <= 1 && (n == 1 || n == per)) return HOLO_OK;
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %s must be a scalar%s, got rank %u of %zu", op, what,
                     per > 1 ? " or one per output channel" : "", z->rank, n);
}

/* Every size the loops and the workspace derive must fit a size_t with room. */
static holo_status ci_fits(holo_kernel_call *c, const ci_geom *g) {
  const uint64_t lim = (uint64_t)SIZE_MAX / 64;
  uint64_t plane = holo_k_mul_sat((uint64_t)g->w.out[0], (uint64_t)g->w.out[1]);
  uint64_t K = holo_k_mul_sat((uint64_t)g->Cg, holo_k_mul_sat((uint64_t)g->w.k[0], (uint64_t)g->w.k[1]));
  uint64_t pa = holo_k_mul_sat((uint64_t)g->M + 4 * g->G, K + 1);
  uint64_t out = holo_k_mul_sat(holo_k_mul_sat((uint64_t)g->N, (uint64_t)g->M), plane);
  if ((uint64_t)g->w.out[0] > lim || (uint64_t)g->w.out[1] > lim || plane > lim || pa > lim || out > lim)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: geometry too large (output plane %lld x %lld)", g->ix->op,
                       (long long)g->w.out[0], (long long)g->w.out[1]);
  if (K > HOLO_IGEMM_MAX_K)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: %llu taps per output could overflow int32 (max %d)", g->ix->op,
                       (unsigned long long)K, HOLO_IGEMM_MAX_K);
  return HOLO_OK;
}

/* QLinearConv's scales, output zero point and bias. */
static holo_status ci_q_params(holo_kernel_call *c, const ci_geom *g) {
  holo_status st;
  if ((st = holo_k_q_scale(c, "QLinearConv", 1, 1, "x_scale")) ||
      (st = holo_k_q_scale(c, "QLinearConv", 4, g->M, "w_scale")) ||
      (st = holo_k_q_scale(c, "QLinearConv", 6, 1, "y_scale")) ||
      (st = holo_k_q_zero(c, "QLinearConv", 7, 0, 1, "y_zero_point")))
    return st;
  if (holo_k_absent(c, 8)) return HOLO_OK;
  if ((st = holo_k_check_input(c, "QLinearConv", 8, HOLO_DT_I32))) return st;
  const holo_tensor *b = &c->inputs[8];
  if (b->rank != 1 || (size_t)b->shape[0] != g->M) {
    char s1[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "QLinearConv: bias B must be 1-D of %zu (one per output channel), got %s", g->M,
                       holo_k_shape_str(s1, b->shape, b->rank));
  }
  return HOLO_OK;
}

static holo_status ci_geometry(holo_kernel_call *c, const ci_ix *ix, ci_geom *g) {
  holo_status st;
  const char *op = ix->op;
  if ((st = ix->q ? holo_k_check_arity(c, op, 8, 9, 1) : holo_k_check_arity(c, op, 2, 4, 1)) ||
      (st = holo_k_check_input(c, op, ix->x, 0)) || (st = holo_k_check_input(c, op, ix->w, 0)))
    return st;
  const holo_tensor *x = &c->inputs[ix->x], *wt = &c->inputs[ix->w];
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  if (!ci_int8(x->dtype) || !ci_int8(wt->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: X and W must be u8 or i8, got %s and %s", op,
                       holo_k_dtype_name(x->dtype), holo_k_dtype_name(wt->dtype));
  if (x->rank != 4 || wt->rank != 4)
    return holo_k_fail(c, x->rank == 5 ? HOLO_ERR_UNSUPPORTED : HOLO_ERR_KERNEL,
                       "%s: X and W must be rank 4 (NCHW; 1-D is reshaped by the converter), got X%s W%s", op,
                       holo_k_shape_str(s1, x->shape, x->rank), holo_k_shape_str(s2, wt->shape, wt->rank));
  int64_t group = holo_attr_int(c, "group", 1), C = x->shape[1], M = wt->shape[0], Cg = wt->shape[1];
  if (group < 1 || group > C || C % group || Cg * group != C || M % group)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: group %lld does not fit X%s and W%s", op, (long long)group,
                       holo_k_shape_str(s1, x->shape, 4), holo_k_shape_str(s2, wt->shape, 4));
  if ((st = holo_k_window2d(c, op, x->shape + 2, wt->shape + 2, false, &g->w))) return st;
  g->ix = ix;
  g->N = (size_t)x->shape[0];
  g->C = (size_t)C;
  g->M = (size_t)M;
  g->G = (size_t)group;
  g->Cg = (size_t)Cg;
  g->Mg = (size_t)(M / group);
  if ((st = ci_fits(c, g))) return st;
  g->K = g->Cg * (size_t)(g->w.k[0] * g->w.k[1]);
  g->plane = (size_t)(g->w.out[0] * g->w.out[1]);
  g->xplane = (size_t)(g->w.in[0] * g->w.in[1]);
  if ((st = ci_zero_point(c, op, ix->zx, x->dtype, 1, "x_zero_point")) ||
      (st = ci_zero_point(c, op, ix->zw, wt->dtype, g->M, "w_zero_point")))
    return st;
  return ix->q ? ci_q_params(c, g) : HOLO_OK;
}

static size_t ci_pa_elems(const ci_geom *g) { return g->G * holo_igemm_packed_a_elems(g->Mg, g->K); }
static size_t ci_chunks(const ci_geom *g) { return (g->plane + CI_CHUNK - 1) / CI_CHUNK; }
static size_t ci_tasks(const ci_geom *g) {
  size_t total = g->N * g->G * ci_chunks(g);
  return total < CI_TASKS ? total : CI_TASKS;
}
/* bytes of one task's slot: a packed col chunk, its column sums, and for
 * QLinearConv the chunk's sums of one group (Mg x CI_CHUNK) */
static size_t ci_slot_bytes(const ci_geom *g) {
  return holo_igemm_packed_b_elems(g->K, CI_CHUNK) * sizeof(int16_t) + CI_CHUNK * sizeof(int32_t) +
         (g->ix->q ? g->Mg * CI_CHUNK * sizeof(int32_t) : 0);
}
/* QLinearConv's multipliers, at the workspace's start */
static size_t ci_mult_bytes(const ci_geom *g) { return g->ix->q ? (g->M * sizeof(float) + 63) / 64 * 64 : 0; }

/* The depthwise path: one input and one output channel per group, a
 * padded plane of bounded size (strides and dilations are attributes of up
 * to 2^31: a plane that would dwarf X and Y goes the im2col way). */
#define CI_DW_MAX_PLANE ((uint64_t)1 << 22)
static bool ci_dw(const ci_geom *g) {
  const holo_k_win2d *w = &g->w;
  if (g->G != g->C || g->Mg != 1 || g->Cg != 1 || g->K == 0 || w->out[0] < 1 || w->out[1] < 1) return false;
  uint64_t hp = holo_k_mul_sat((uint64_t)w->out[0], (uint64_t)w->stride[0]) +
                holo_k_mul_sat((uint64_t)w->k[0], (uint64_t)w->dil[0]);
  uint64_t wp = holo_k_mul_sat((uint64_t)w->out[1] + 8, (uint64_t)w->stride[1]) +
                holo_k_mul_sat((uint64_t)w->k[1], (uint64_t)w->dil[1]) + 8;
  return holo_k_mul_sat(hp, wp) <= CI_DW_MAX_PLANE;
}
static size_t ci_al64(size_t b) { return (b + 63) / 64 * 64; }
/* the filters as int16 w - zw, [C][kH*kW] */
static size_t ci_dw_wt_bytes(const ci_geom *g) { return ci_al64(g->C * g->K * sizeof(int16_t)); }
/* one task's padded plane and, for QLinearConv, one output row of sums */
static size_t ci_dw_slot_bytes(const ci_geom *g) {
  return ci_al64(holo_idwconv2d_plane_elems(&g->w) * sizeof(int16_t)) +
         (g->ix->q ? ci_al64((size_t)g->w.out[1] * sizeof(int32_t)) : 0);
}

static const int16_t *ci_packed(const holo_kernel_call *c, const ci_geom *g) {
  size_t w;
  return c->packed ? (const int16_t *)holo_gemm_packed(c->packed[g->ix->w], HOLO_GEMM_PACKED_IA, g->Mg, g->K,
                                                       g->G, &w)
                   : 0;
}

/* W as int16 A panels, one block per group, without its zero point. */
static void ci_pack_weights(const holo_kernel_call *c, const ci_geom *g, int16_t *dst) {
  for (size_t grp = 0; grp < g->G; grp++) {
    holo_iop a = {(const uint8_t *)c->inputs[g->ix->w].data + grp * g->Mg * g->K,
                  g->K,
                  1,
                  c->inputs[g->ix->w].dtype == HOLO_DT_U8,
                  0,
                  0,
                  false};
    size_t rows = (g->Mg + HOLO_IGEMM_MR - 1) / HOLO_IGEMM_MR * HOLO_IGEMM_MR;
    holo_ukernel_ipack_a_i8__scalar(dst + grp * holo_igemm_packed_a_elems(g->Mg, g->K), &a, g->Mg, g->K, 0,
                                    rows);
  }
}

static holo_status ci_pack(holo_pack_call *p, const ci_ix *ix) {
  holo_kernel_call v = holo_k_pack_view(p->call), *c = &v;
  ci_geom g;
  if (p->input != ix->w || c->n_inputs <= ix->w || ci_geometry(c, ix, &g))
    return HOLO_OK; /* infer says why */
  size_t elems = ci_pa_elems(&g);
  if (!elems || ci_dw(&g)) return HOLO_OK;
  if (!p->dst) {
    p->bytes = holo_gemm_pack_bytes((elems * sizeof(int16_t) + sizeof(float) - 1) / sizeof(float));
    return HOLO_OK;
  }
  ci_pack_weights(
      c, &g, (int16_t *)holo_gemm_pack_header(p->dst, HOLO_GEMM_PACKED_IA, HOLO_IGEMM_MR, g.Mg, g.K, g.G));
  return HOLO_OK;
}

static holo_status ci_infer(holo_kernel_call *c, const ci_ix *ix) {
  ci_geom g;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = ci_geometry(c, ix, &g))) return st;
  c->workspace_bytes =
      ci_mult_bytes(&g) + (ci_dw(&g) ? ci_dw_wt_bytes(&g) + CI_TASKS * ci_dw_slot_bytes(&g)
                                     : (ci_packed(c, &g) ? 0 : ci_pa_elems(&g) * sizeof(int16_t) + 64) +
                                           CI_TASKS * ci_slot_bytes(&g));
  uint64_t f[6] = {
      g.N, g.M, (uint64_t)g.w.out[0], (uint64_t)g.w.out[1], g.Cg, (uint64_t)(g.w.k[0] * g.w.k[1])};
  c->work = holo_k_work(6, f);
  int64_t ys[4] = {(int64_t)g.N, (int64_t)g.M, g.w.out[0], g.w.out[1]};
  uint32_t dt = ix->q ? holo_k_q_out_dtype(c, 7, c->inputs[0].dtype) : HOLO_DT_I32;
  return holo_k_set_output(c, ix->op, 0, dt, 4, ys);
}

typedef struct ci_job {
  const holo_kernel_call *c;
  const ci_geom *g;
  const int16_t *Ap;
  const float *mult; /* QLinearConv's, one per output channel or one */
  uint8_t *slots;
  size_t nchunks, per;
  bool shared_slot;
} ci_job;

static int32_t ci_zp(const holo_kernel_call *c, uint32_t idx, size_t j) {
  if (holo_k_absent(c, idx)) return 0;
  const holo_tensor *z = &c->inputs[idx];
  size_t i = z->rank == 1 && z->shape[0] > 1 ? j : 0;
  return z->dtype == HOLO_DT_U8 ? (int32_t)((const uint8_t *)z->data)[i]
                                : (int32_t)((const int8_t *)z->data)[i];
}

/* y[m][j] -= zw(m) * colsum[j] over one group's rows, colsum the chunk's
 * sums of x - zx from im2col (wrapping arithmetic: the true result fits
 * int32, so the wrapped one is it) */
static void ci_zw_correct(const ci_job *J, size_t grp, const int32_t *colsum, int32_t *y, size_t ldy,
                          size_t pc) {
  const ci_geom *g = J->g;
  for (size_t m = 0; m < g->Mg; m++) {
    uint32_t zw = (uint32_t)ci_zp(J->c, g->ix->zw, grp * g->Mg + m);
    if (!zw) continue;
    int32_t *row = y + m * ldy;
    for (size_t j = 0; j < pc; j++)
      row[j] = (int32_t)((uint32_t)row[j] - zw * (uint32_t)colsum[j]);
  }
}

static void ci_chunk(const ci_job *J, size_t idx, uint8_t *slot) {
  const ci_geom *g = J->g;
  const holo_tensor *x = &J->c->inputs[0];
  size_t ch = idx % J->nchunks, grp = idx / J->nchunks % g->G, n = idx / J->nchunks / g->G;
  size_t p0 = ch * CI_CHUNK, pc = g->plane - p0 < CI_CHUNK ? g->plane - p0 : CI_CHUNK;
  int16_t *col = (int16_t *)slot;
  int32_t *colsum = (int32_t *)(slot + holo_igemm_packed_b_elems(g->K, CI_CHUNK) * sizeof(int16_t));
  const uint8_t *xg = (const uint8_t *)x->data + (n * g->C + grp * g->Cg) * g->xplane;
  size_t yo = (n * g->M + grp * g->Mg) * g->plane + p0;
  int32_t *acc = (int32_t *)((uint8_t *)colsum + CI_CHUNK * sizeof(int32_t));
  int32_t *y = g->ix->q ? acc : (int32_t *)J->c->outputs[0].data + yo;
  size_t ldy = g->ix->q ? pc : g->plane;
  holo_iim2col_i8(col, colsum, xg, x->dtype == HOLO_DT_U8, ci_zp(J->c, g->ix->zx, 0), &g->w, g->Cg, p0, pc);
  holo_igemm_i8(g->Mg, pc, g->K, J->Ap + grp * holo_igemm_packed_a_elems(g->Mg, g->K), col, y, ldy);
  ci_zw_correct(J, grp, colsum, y, ldy, pc);
  if (!g->ix->q) return;
  const holo_kernel_call *c = J->c;
  bool per = c->inputs[4].rank == 1 && c->inputs[4].shape[0] > 1;
  for (size_t m = 0; m < g->Mg; m++) {
    size_t mo = grp * g->Mg + m;
    holo_requant q = {J->mult + (per ? mo : 0), 0,
                      holo_k_absent(c, 8) ? 0 : ((const int32_t *)c->inputs[8].data)[mo],
                      holo_k_q_zero_at(c, 7, 0), c->outputs[0].dtype == HOLO_DT_U8};
    holo_requant_i32(pc, acc + m * pc, &q, (uint8_t *)c->outputs[0].data + yo + m * g->plane);
  }
}

static void ci_task(void *arg, uint32_t t) {
  const ci_job *J = arg;
  size_t total = J->g->N * J->g->G * J->nchunks, i0 = (size_t)t * J->per;
  size_t i1 = i0 + J->per > total ? total : i0 + J->per;
  uint8_t *slot = J->slots + (J->shared_slot ? 0 : (size_t)t * ci_slot_bytes(J->g));
  for (size_t i = i0; i < i1; i++)
    ci_chunk(J, i, slot);
}

typedef struct ci_dwjob {
  const holo_kernel_call *c;
  const ci_geom *g;
  const int16_t *wt;
  const float *mult;
  uint8_t *slots;
  size_t per;
  bool shared_slot, per_channel;
} ci_dwjob;

/* (image, channel) pairs [i0, i1) of the depthwise path */
static void ci_dw_task(void *arg, uint32_t t) {
  const ci_dwjob *J = arg;
  const ci_geom *g = J->g;
  const holo_kernel_call *c = J->c;
  size_t total = g->N * g->C, i0 = (size_t)t * J->per, i1 = i0 + J->per > total ? total : i0 + J->per;
  uint8_t *slot = J->slots + (J->shared_slot ? 0 : (size_t)t * ci_dw_slot_bytes(g));
  int16_t *xp = (int16_t *)slot;
  int32_t *acc = (int32_t *)(slot + ci_al64(holo_idwconv2d_plane_elems(&g->w) * sizeof(int16_t)));
  size_t Hp, Wp, OW = (size_t)g->w.out[1];
  holo_idwconv2d_plane_geom(&g->w, &Hp, &Wp);
  const holo_tensor *x = &c->inputs[g->ix->x];
  int32_t zx = ci_zp(c, g->ix->zx, 0);
  for (size_t nc = i0; nc < i1; nc++) {
    size_t ch = nc % g->C;
    holo_ukernel_idwpad_i8__scalar(xp, (const uint8_t *)x->data + nc * g->xplane, x->dtype == HOLO_DT_U8, zx,
                                   &g->w);
    const int16_t *wt = J->wt + ch * g->K;
    if (!g->ix->q) {
      int32_t *y = (int32_t *)c->outputs[0].data + nc * g->plane;
      for (int64_t oh = 0; oh < g->w.out[0]; oh++)
        holo_idwconv2d_i16_row(&g->w, xp, Wp, wt, y + (size_t)oh * OW, oh);
      continue;
    }
    holo_requant q = {J->mult + (J->per_channel ? ch : 0), 0,
                      holo_k_absent(c, 8) ? 0 : ((const int32_t *)c->inputs[8].data)[ch],
                      holo_k_q_zero_at(c, 7, 0), c->outputs[0].dtype == HOLO_DT_U8};
    uint8_t *y = (uint8_t *)c->outputs[0].data + nc * g->plane;
    for (int64_t oh = 0; oh < g->w.out[0]; oh++) {
      holo_idwconv2d_i16_row(&g->w, xp, Wp, wt, acc, oh);
      holo_requant_i32(OW, acc, &q, y + (size_t)oh * OW);
    }
  }
}

static void ci_dw_run(holo_kernel_call *c, const ci_geom *g, const float *mult, bool per_channel,
                      uint8_t *ws) {
  int16_t *wt = (int16_t *)ws;
  const holo_tensor *W = &c->inputs[g->ix->w];
  for (size_t ch = 0; ch < g->C; ch++) {
    int32_t zw = ci_zp(c, g->ix->zw, ch);
    for (size_t t = 0; t < g->K; t++) {
      size_t i = ch * g->K + t;
      int32_t v = W->dtype == HOLO_DT_U8 ? (int32_t)((const uint8_t *)W->data)[i]
                                         : (int32_t)((const int8_t *)W->data)[i];
      wt[i] = (int16_t)(v - zw);
    }
  }
  size_t total = g->N * g->C, nt = total < CI_TASKS ? total : CI_TASKS;
  ci_dwjob J = {c, g, wt, mult, ws + ci_dw_wt_bytes(g), (total + nt - 1) / nt, !c->parallel_for, per_channel};
  nt = (total + J.per - 1) / J.per;
  if (J.shared_slot)
    for (uint32_t t = 0; t < nt; t++)
      ci_dw_task(&J, t);
  else
    c->parallel_for(c->pctx, (uint32_t)nt, ci_dw_task, &J);
}

static holo_status ci_run(holo_kernel_call *c, const ci_ix *ix) {
  ci_geom g;
  if (ci_geometry(c, ix, &g)) return HOLO_ERR_KERNEL;
  int32_t *Y = c->outputs[0].data;
  size_t total = g.N * g.G * ci_chunks(&g);
  if (total == 0 || g.M == 0) return HOLO_OK;
  uint8_t *ws = c->workspace;
  float *mult = (float *)ws;
  holo_status st;
  bool per = ix->q && c->inputs[4].rank == 1 && c->inputs[4].shape[0] > 1;
  if (ix->q && (st = holo_k_q_multipliers(c, ix->op, 1, 4, 6, mult, per ? g.M : 1))) return st;
  ws += ci_mult_bytes(&g);
  if (ci_dw(&g)) {
    ci_dw_run(c, &g, mult, per, ws);
    return HOLO_OK;
  }
  if (g.K == 0 && !ix->q) {
    for (size_t i = 0; i < g.N * g.M * g.plane; i++)
      Y[i] = 0;
    return HOLO_OK;
  }
  const int16_t *Ap = ci_packed(c, &g);
  if (!Ap) {
    int16_t *pa = (int16_t *)ws;
    ci_pack_weights(c, &g, pa);
    Ap = pa;
    ws += (ci_pa_elems(&g) * sizeof(int16_t) + 63) / 64 * 64;
  }
  size_t nt = ci_tasks(&g);
  ci_job J = {c, &g, Ap, mult, ws, ci_chunks(&g), (total + nt - 1) / nt, !c->parallel_for};
  nt = (total + J.per - 1) / J.per;
  if (J.shared_slot)
    for (uint32_t t = 0; t < nt; t++)
      ci_task(&J, t);
  else
    c->parallel_for(c->pctx, (uint32_t)nt, ci_task, &J);
  return HOLO_OK;
}

holo_status holo_k_convinteger_pack(holo_pack_call *p) { return ci_pack(p, &CVI); }
holo_status holo_k_convinteger_infer(holo_kernel_call *c) { return ci_infer(c, &CVI); }
holo_status holo_k_convinteger_run(holo_kernel_call *c) { return ci_run(c, &CVI); }
holo_status holo_k_qlinearconv_pack(holo_pack_call *p) { return ci_pack(p, &QLC); }
holo_status holo_k_qlinearconv_infer(holo_kernel_call *c) { return ci_infer(c, &QLC); }
holo_status holo_k_qlinearconv_run(holo_kernel_call *c) { return ci_run(c, &QLC); }
