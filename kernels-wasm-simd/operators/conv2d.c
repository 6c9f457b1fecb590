/* Conv, 2-D NCHW f32, as im2col + the GEMM core (gemm.h). Per group, the
 * output Y_g [Mg, OH*OW] = W_g [Mg, Cg*kH*kW] x col [Cg*kH*kW, OH*OW]; col
 * is built straight into the core's packed panel layout, a chunk of output
 * positions at a time (bounded workspace, hot in cache). Each output thus
 * sums w[c,kh,kw] * x products in ascending (c, kh, kw) order from +0 and
 * then adds the bias; a padding position contributes w * 0 (so an infinite
 * or NaN weight next to padding gives NaN, as zero padding means).
 * Optional `holo_activation` = "Relu" applies Relu after the bias, "Clip"
 * (holo_clip_min / holo_clip_max) the Clip kernel's compares (gemm.h).
 *
 * A 1x1 convolution with stride 1 and no padding whose output plane is a
 * multiple of 4 skips im2col: X's channel planes already are the GEMM's B
 * rows (B(c, p) = X[c*plane + p], unpacked, ldb = plane), and the core's
 * order contract does not depend on B's layout — same bytes, one pass less.
 *
 * Depthwise convolutions (one input and one output channel per group) skip
 * im2col and the core (a 1-row GEMM per channel): the depthwise
 * microkernels (microkernels/dwconv2d.h) compute each output with the very
 * same operations in the same order, then the same epilogue, so the bytes
 * (and the identity) are unchanged: the rows kernel along output rows, and
 * in SIMD builds, for width strides 1 and 2, the plane kernel on a
 * zero-padded copy of each channel in the workspace. The (image, channel)
 * pairs are split into at most DW_TASKS tasks (a rule of the shape only)
 * run through the call's parallel_for hook, each with its own workspace
 * slot: every output is one task's, so the bytes never depend on the
 * threads. */
#include "common/check.h"
#include "common/shape.h"
#include "common/window2d.h"
#include "microkernels/dwconv2d.h"
#include "microkernels/gemm.h"
#include "microkernels/im2col.h"
#include "operators/products.h"

/* output positions per im2col chunk (a multiple of the panel width) */
#define CONV_CHUNK 256
/* at most this many im2col chunk tasks (each with its own col slot) */
#define CONV_TASKS 4
/* at most this many depthwise tasks (each with its own workspace slot) */
#define DW_TASKS 8

typedef struct conv_geom {
  size_t N, C, M, G, Cg, Mg;
  holo_k_win2d w;
  bool packed; /* the weights are packed once per session (conv_packed_a): no direct 1x1 path */
} conv_geom;

/* A tensor with a zero-sized dim holds no bytes whatever its other dims, so
 * the geometry alone can name planes and windows no size_t holds (wasm32:
 * 32 bits). Every size the workspace and the loops derive from it (the
 * output plane, K = Cg*kH*kW, the packed weights, the im2col slots, the
 * depthwise padded plane) must fit with room to spare, or Conv refuses. */
static holo_status conv_fits(holo_kernel_call *c, const holo_tensor *x, const holo_tensor *wt,
                             const holo_k_win2d *w, uint64_t group) {
  const uint64_t lim = (uint64_t)SIZE_MAX / 64;
  uint64_t o0 = (uint64_t)w->out[0], o1 = (uint64_t)w->out[1];
  uint64_t plane = holo_k_mul_sat(o0, o1);
  uint64_t K = holo_k_mul_sat(holo_k_mul_sat((uint64_t)wt->shape[1], (uint64_t)w->k[0]), (uint64_t)w->k[1]);
  uint64_t pa = holo_k_mul_sat((uint64_t)wt->shape[0] + 3 * group, K);
  uint64_t slots = holo_k_mul_sat(CONV_TASKS * (CONV_CHUNK + 32), K);
  uint64_t hp = holo_k_mul_sat(o0 + 1, (uint64_t)w->stride[0]), hk = holo_k_mul_sat((uint64_t)w->k[0], (uint64_t)w->dil[0]);
  uint64_t wp = holo_k_mul_sat(o1 + 8, (uint64_t)w->stride[1]), wk = holo_k_mul_sat((uint64_t)w->k[1], (uint64_t)w->dil[1]);
  hp = hp > lim || hk > lim ? UINT64_MAX : hp + hk;
  wp = wp > lim || wk > lim ? UINT64_MAX : wp + wk;
  /* the padded-plane slots exist only for a depthwise conv (one input and one
   * output channel per group): a dense conv of a large plane needs none */
  bool depthwise = wt->shape[1] == 1 && (uint64_t)wt->shape[0] == group;
  uint64_t dw = depthwise ? holo_k_mul_sat(8 * DW_TASKS, holo_k_mul_sat(hp, wp)) : 0;
  uint64_t images = holo_k_mul_sat(holo_k_mul_sat((uint64_t)x->shape[0], (uint64_t)wt->shape[0]), plane);
  if (o0 > lim || o1 > lim || plane > lim || K > lim || pa > lim || slots > lim || hp > lim || wp > lim ||
      dw > lim || images > lim)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: geometry too large (output plane %llu x %llu, %llu taps per output)",
                       (unsigned long long)o0, (unsigned long long)o1, (unsigned long long)K);
  return HOLO_OK;
}

static holo_status conv_geometry(holo_kernel_call *c, conv_geom *g) {
  const holo_tensor *x = &c->inputs[0], *wt = &c->inputs[1];
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  if (x->rank == 3 || x->rank == 5)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Conv: %u-D convolution is not supported (2-D only)",
                       x->rank - 2);
  if (x->rank != 4)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: X must be NCHW (rank 4), got X%s",
                       holo_k_shape_str(s1, x->shape, x->rank));
  if (wt->rank != 4)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: W must be rank 4 like X, got W%s",
                       holo_k_shape_str(s1, wt->shape, wt->rank));
  int64_t group = holo_attr_int(c, "group", 1);
  int64_t C = x->shape[1], M = wt->shape[0], Cg = wt->shape[1];
  if (group < 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: group must be >= 1, got %lld", (long long)group);
  if (group > C || C % group)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: group %lld does not divide %lld input channels",
                       (long long)group, (long long)C);
  if (Cg * group != C)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "Conv: X%s has %lld channels but W%s expects %lld per group x %lld groups",
                       holo_k_shape_str(s1, x->shape, 4), (long long)C, holo_k_shape_str(s2, wt->shape, 4),
                       (long long)Cg, (long long)group);
  if (M % group)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: %lld output channels do not divide into %lld groups",
                       (long long)M, (long long)group);
  if (!holo_k_absent(c, 2)) {
    const holo_tensor *b = &c->inputs[2];
    if (b->rank != 1 || b->shape[0] != M)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Conv: bias B%s must be [%lld]",
                         holo_k_shape_str(s1, b->shape, b->rank), (long long)M);
  }
  holo_status st = holo_k_window2d(c, "Conv", x->shape + 2, wt->shape + 2, false, &g->w);
  if (st) return st;
  if ((st = conv_fits(c, x, wt, &g->w, (uint64_t)group))) return st;
  g->N = (size_t)x->shape[0];
  g->C = (size_t)C;
  g->M = (size_t)M;
  g->G = (size_t)group;
  g->Cg = (size_t)Cg;
  g->Mg = (size_t)(M / group);
  g->packed = false;
  return HOLO_OK;
}

static bool conv_is_depthwise(const conv_geom *g) {
  return g->Cg == 1 && g->Mg == 1 && g->w.k[0] > 0 && g->w.k[1] > 0;
}

static size_t dw_tasks(const conv_geom *g) {
  size_t nc = g->N * g->C;
  return nc < DW_TASKS ? nc : DW_TASKS;
}

/* Workspace floats per depthwise task slot: a padded plane where the
 * build has the plane kernel for this geometry, else one row of
 * accumulators. */
static bool dw_plane(const conv_geom *g) {
#ifdef __wasm_simd128__
  return holo_dwconv2d_plane_ok(&g->w);
#else
  (void)g;
  return false;
#endif
}
static size_t dw_slot_floats(const conv_geom *g) {
  return dw_plane(g) ? holo_dwconv2d_plane_floats(&g->w) : (size_t)g->w.out[1];
}

typedef struct dw_job {
  const conv_geom *g;
  const float *X, *Wt, *B;
  float *Y, *ws;
  const holo_gemm *epi;
  size_t per, slot; /* (image, channel) pairs per task; workspace floats per slot */
  bool shared_slot; /* serial run: every task uses slot 0 */
} dw_job;

static void dw_task(void *arg, uint32_t t) {
  const dw_job *J = arg;
  size_t nc = J->g->N * J->g->C, c0 = (size_t)t * J->per, c1 = c0 + J->per > nc ? nc : c0 + J->per;
  float *ws = J->ws + (J->shared_slot ? 0 : (size_t)t * J->slot);
  size_t plane = (size_t)(J->g->w.out[0] * J->g->w.out[1]);
#ifdef __wasm_simd128__
  if (dw_plane(J->g)) {
    holo_dwconv2d_f32_plane(&J->g->w, J->g->C, J->X, J->Wt, J->B, J->Y, J->epi, ws, c0, c1);
    holo_gemm_act_apply(J->epi, J->Y + c0 * plane, (c1 - c0) * plane);
    return;
  }
#endif
  holo_dwconv2d_f32_rows(&J->g->w, J->g->C, J->X, J->Wt, J->B, J->Y, J->epi, ws, c0, c1);
  holo_gemm_act_apply(J->epi, J->Y + c0 * plane, (c1 - c0) * plane);
}

static bool conv_direct_1x1(const conv_geom *g);

/* Workspace floats of one im2col chunk. */
static size_t conv_slot_floats(const conv_geom *g) {
  size_t plane = (size_t)(g->w.out[0] * g->w.out[1]);
  size_t K = g->Cg * (size_t)(g->w.k[0] * g->w.k[1]);
  size_t pc = plane < CONV_CHUNK ? plane : CONV_CHUNK;
  return holo_gemm_packed_floats(K, pc);
}

/* How many chunk tasks an im2col convolution runs: a rule of the shape
 * (1 when there is a single chunk per image and group: then the GEMM splits
 * itself by rows or columns instead). */
static size_t conv_tasks(const conv_geom *g) {
  if (conv_direct_1x1(g)) return 1;
  size_t plane = (size_t)(g->w.out[0] * g->w.out[1]);
  size_t total = g->N * g->G * ((plane + CONV_CHUNK - 1) / CONV_CHUNK);
  return total < 2 ? 1 : total < CONV_TASKS ? total : CONV_TASKS;
}

/* The weights as the GEMM core's packed A (gemm.h), one block per group,
 * where the SIMD core reads it so: floats of the packed form, 0 where it
 * does not. Packed once per session (holo_k_conv_f32_pack) this costs no
 * pass per call, so every dense Conv with a packed-B GEMM of >= 4 rows
 * gets it, 1x1 and small planes included (lraspp's 1x1 Convs ran the
 * unpacked 4-row tile: 44 % of its samples, docs/benchmarks.md). */
static size_t conv_session_pa_floats(const conv_geom *g) {
  size_t K = g->Cg * (size_t)(g->w.k[0] * g->w.k[1]), plane = (size_t)(g->w.out[0] * g->w.out[1]);
  if (conv_is_depthwise(g)) return 0;
  if (!holo_gemm_wants_packed_a(g->Mg, plane < CONV_CHUNK ? plane : CONV_CHUNK, K)) return 0;
  return g->G * holo_gemm_packed_a_floats(g->Mg, K);
}

/* The same, packed per call (weights that are not constant): only where
 * im2col runs and every weight is used by >= 128 output positions (below
 * that the pass over the weights costs about what the packed tile saves:
 * resnet18's 512x4608 weights at 7x7). */
static size_t conv_pa_floats(const conv_geom *g) {
  size_t plane = (size_t)(g->w.out[0] * g->w.out[1]);
  if (conv_direct_1x1(g) || g->N * plane < 128) return 0;
  return conv_session_pa_floats(g);
}

/* The weights as packed once per session by holo_k_conv_f32_pack, or NULL. */
static const float *conv_packed_a(const holo_kernel_call *c, const conv_geom *g) {
  size_t w, K = g->Cg * (size_t)(g->w.k[0] * g->w.k[1]);
  return c->packed ? holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_A, g->Mg, K, g->G, &w) : 0;
}

/* The weights packed once per session rather than per call: where a call
 * would pack them (conv_pa_floats, the shapes of the first execution), the
 * same strips, one block per group. A later call of another shape reads
 * them too: the core gives the same bytes with or without them. */
/* Every group's weights as the core's packed A, the layout a call and the
 * pack seam share (so a packed weight gives the bytes an unpacked one does). */
static void conv_pack_weights(holo_kernel_call *c, const conv_geom *g, const float *Wt, size_t K, float *dst) {
  for (size_t grp = 0; grp < g->G; grp++) {
    holo_gemm q = {0};
    q.M = g->Mg;
    q.K = K;
    q.A = Wt + grp * g->Mg * K;
    q.rsa = K;
    q.csa = 1;
    holo_gemm_pack_a_par(&q, dst + grp * holo_gemm_packed_a_floats(g->Mg, K), c->parallel_for, c->pctx);
  }
}

holo_status holo_k_conv_f32_pack(holo_pack_call *p) {
  holo_kernel_call *c = p->call;
  conv_geom g;
  if (p->input != 1 || c->n_inputs < 2 || c->inputs[0].dtype != HOLO_DT_F32 || c->inputs[1].dtype != HOLO_DT_F32 ||
      conv_geometry(c, &g)) /* infer says what is wrong */
    return HOLO_OK;
  size_t pa = conv_session_pa_floats(&g), K = g.Cg * (size_t)(g.w.k[0] * g.w.k[1]);
  if (!pa) return HOLO_OK;
  if (!p->dst) {
    p->bytes = holo_gemm_pack_bytes(pa);
    return HOLO_OK;
  }
  float *dst = holo_gemm_pack_header(p->dst, HOLO_GEMM_PACKED_A, 4, g.Mg, K, g.G);
  const float *Wt = c->inputs[1].data;
  conv_pack_weights(c, &g, Wt, K, dst);
  return HOLO_OK;
}

/* [packed weights] then col slots: with threads, one col slot per task;
 * serially the tasks share slot 0 */
static size_t conv_ws_floats(const conv_geom *g, bool threads) {
  if (conv_is_depthwise(g)) return dw_tasks(g) * dw_slot_floats(g);
  if (conv_direct_1x1(g)) return 0;
  return (g->packed ? 0 : conv_pa_floats(g)) + (threads ? conv_tasks(g) : 1) * conv_slot_floats(g);
}

/* 1x1, stride 1, no padding, plane a multiple of 4, weights not packed
 * once per session: the GEMM reads X as B directly (see the header
 * comment; a plane of 4k+1..3 would leave the core's unpacked path single
 * columns, slower than packing). With packed weights im2col's copy of X
 * into panels costs less than the packed tile saves over the unpacked one. */
static bool conv_direct_1x1(const conv_geom *g) {
  const holo_k_win2d *w = &g->w;
  return !g->packed && w->k[0] == 1 && w->k[1] == 1 && w->stride[0] == 1 && w->stride[1] == 1 &&
         w->pad_begin[0] == 0 && w->pad_begin[1] == 0 && w->pad_end[0] == 0 && w->pad_end[1] == 0 &&
         (w->out[0] * w->out[1]) % 4 == 0;
}

holo_status holo_k_conv_f32_infer(holo_kernel_call *c) {
  holo_status st;
  conv_geom g;
  if ((st = holo_k_infer_begin(c, "Conv", 2, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "Conv", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "Conv", 1, HOLO_DT_F32))) return st;
  if (!holo_k_absent(c, 2) && (st = holo_k_check_input(c, "Conv", 2, HOLO_DT_F32))) return st;
  if ((st = conv_geometry(c, &g))) return st;
  holo_gemm act = {0};
  if ((st = holo_k_gemm_act(c, "Conv", &act))) return st;
  g.packed = conv_packed_a(c, &g) != 0; /* packed at the first run */
  c->workspace_bytes = conv_ws_floats(&g, c->parallel_for != 0) * sizeof(float);
  /* one multiply-add per output and tap (im2col visits padding taps too) */
  uint64_t f[6] = {
      g.N, g.M, (uint64_t)g.w.out[0], (uint64_t)g.w.out[1], g.Cg, (uint64_t)(g.w.k[0] * g.w.k[1])};
  c->work = holo_k_work(6, f);
  int64_t ys[4] = {(int64_t)g.N, (int64_t)g.M, g.w.out[0], g.w.out[1]};
  return holo_k_set_output(c, "Conv", 0, HOLO_DT_F32, 4, ys);
}

/* One GEMM of the im2col path: image n, group grp, output positions
 * [p0, p0 + pc) (chunk index idx over (n, grp, chunk)), col its workspace. */
typedef struct conv_job {
  const conv_geom *g;
  const float *X, *Wt, *B;
  float *Y, *ws;
  const holo_gemm *act;
  size_t plane, xplane, K;
  bool direct;
  size_t nchunks, per, slot; /* chunks per (image, group); chunks per task; floats per slot */
  bool shared_slot;          /* serial run: every task uses slot 0 */
  const float *Ap;           /* the weights packed per group (conv_pa_floats), or NULL */
} conv_job;

static void conv_chunk(const conv_job *J, size_t idx, float *col, holo_gemm_parallel_for pf, void *pctx) {
  const conv_geom *g = J->g;
  size_t ch = idx % J->nchunks, grp = idx / J->nchunks % g->G, n = idx / J->nchunks / g->G;
  size_t chunk = J->direct ? J->plane : CONV_CHUNK, p0 = ch * chunk;
  size_t pc = J->plane - p0 < chunk ? J->plane - p0 : chunk, K = J->K;
  const float *xg = J->X + (n * g->C + grp * g->Cg) * J->xplane;
  holo_gemm q = {0};
  q.M = g->Mg;
  q.N = pc;
  q.K = K;
  q.A = J->Wt + grp * g->Mg * K;
  q.rsa = K;
  q.csa = 1;
  if (J->Ap) q.Ap = J->Ap + grp * holo_gemm_packed_a_floats(g->Mg, K);
  q.C = J->Y + (n * g->M + grp * g->Mg) * J->plane + p0;
  q.ldc = J->plane;
  if (J->B) {
    q.bias = J->B + grp * g->Mg;
    q.brs = 1;
    q.bcs = 0;
  }
  q.relu = J->act->relu;
  q.lo_on = J->act->lo_on;
  q.hi_on = J->act->hi_on;
  q.lo = J->act->lo;
  q.hi = J->act->hi;
  q.act = J->act->act;
  q.act_p = J->act->act_p;
  if (K == 0) {
    /* no taps: every output is the empty sum +0, then the epilogue */
    for (size_t i = 0; i < q.M; i++)
      for (size_t j = 0; j < pc; j++)
        q.C[i * q.ldc + j] = holo_gemm_epi(&q, i, j, 0.0f);
    holo_gemm_act_block(&q);
    return;
  }
  if (J->direct) {
    q.B = xg + p0; /* B(c, p) = X[c*plane + p]: the planes are B's rows */
    q.ldb = J->plane;
  } else {
    holo_ukernel_im2col_f32__scalar(col, xg, &g->w, g->Cg, p0, pc);
    q.Bp = col;
  }
  holo_gemm_f32_par(&q, pf, pctx);
}

static void conv_task(void *arg, uint32_t t) {
  const conv_job *J = arg;
  size_t total = J->g->N * J->g->G * J->nchunks, i0 = (size_t)t * J->per;
  size_t i1 = i0 + J->per > total ? total : i0 + J->per;
  float *col = J->ws + (J->shared_slot ? 0 : (size_t)t * J->slot);
  for (size_t i = i0; i < i1; i++)
    conv_chunk(J, i, col, 0, 0);
}

holo_status holo_k_conv_f32_run(holo_kernel_call *c) {
  conv_geom g;
  if (conv_geometry(c, &g)) return HOLO_ERR_KERNEL;
  const float *X = c->inputs[0].data, *Wt = c->inputs[1].data;
  const float *B = holo_k_absent(c, 2) ? 0 : c->inputs[2].data;
  float *Y = c->outputs[0].data;
  const holo_k_win2d *w = &g.w;
  size_t plane = (size_t)(w->out[0] * w->out[1]), xplane = (size_t)(w->in[0] * w->in[1]);
  size_t K = g.Cg * (size_t)(w->k[0] * w->k[1]);
  if (plane == 0 || g.M == 0) return HOLO_OK;
  holo_gemm act = {0};
  holo_k_gemm_act(c, "Conv", &act);
  float *col = c->workspace;
  if (conv_is_depthwise(&g)) {
    size_t nc = g.N * g.C, nt = dw_tasks(&g);
    if (nc == 0) return HOLO_OK; /* empty batch: no tasks (and no division by 0 tasks) */
    dw_job J = {&g, X, Wt, B, Y, col, &act, (nc + nt - 1) / nt, dw_slot_floats(&g), !c->parallel_for};
    nt = (nc + J.per - 1) / J.per;
    if (c->parallel_for)
      c->parallel_for(c->pctx, (uint32_t)nt, dw_task, &J);
    else
      for (uint32_t t = 0; t < nt; t++)
        dw_task(&J, t);
    return HOLO_OK;
  }
  const float *Ap = conv_packed_a(c, &g);
  g.packed = Ap != 0;
  size_t pa = Ap ? 0 : conv_pa_floats(&g);
  if (c->workspace_bytes < pa * sizeof(float)) pa = 0; /* infer sized it otherwise: no packing */
  conv_job J = {&g, X, Wt, B, Y, col + pa, &act, plane, xplane, K, conv_direct_1x1(&g), 0, 0, 0, !c->parallel_for, Ap};
  if (pa) {
    conv_pack_weights(c, &g, Wt, K, col);
    J.Ap = col;
  }
  J.nchunks = J.direct ? 1 : (plane + CONV_CHUNK - 1) / CONV_CHUNK;
  size_t total = g.N * g.G * J.nchunks, nt = conv_tasks(&g);
  if (total == 0) return HOLO_OK;
  if (nt > 1) {
    /* several im2col chunks: whole chunks are the tasks (im2col included),
     * each task its own col slot and a serial GEMM */
    J.per = (total + nt - 1) / nt;
    J.slot = conv_slot_floats(&g);
    nt = (total + J.per - 1) / J.per;
    /* one slot per task only if infer sized the workspace for it */
    J.shared_slot = !c->parallel_for || c->workspace_bytes < (pa + nt * J.slot) * sizeof(float);
    if (J.shared_slot) {
      for (uint32_t t = 0; t < nt; t++)
        conv_task(&J, t);
      return HOLO_OK;
    }
    c->parallel_for(c->pctx, (uint32_t)nt, conv_task, &J);
    return HOLO_OK;
  }
  /* one chunk per image and group (or a direct 1x1): the GEMM splits itself */
  for (size_t i = 0; i < total; i++)
    conv_chunk(&J, i, J.ws, c->parallel_for, c->pctx);
  return HOLO_OK;
}
