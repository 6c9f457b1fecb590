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
 * im2col and the core (a 1-row GEMM per channel): conv_depthwise computes
 * each output with the very same operations in the same order — acc = +0,
 * acc = acc + w[kh,kw] * x for (kh, kw) ascending, a padding tap adding
 * w * 0 — then the same epilogue, so the bytes (and the identity) are
 * unchanged. Its inner loop runs along an output row (vectorizable: lanes
 * are independent output elements). The SIMD128 build (strides 1 and 2 along
 * the width) first copies each channel into a zero-padded plane in the
 * workspace, so every tap is a plain vector load (a padding tap reads +0 and
 * adds w * 0, as the scalar loop does) and 4 outputs of a row are computed
 * per step, each lane with the scalar loop's operations in its order. The
 * channels are split into at most DW_TASKS tasks (a rule of the shape only)
 * run through the call's parallel_for hook, each with its own padded plane:
 * every output is one task's, so the bytes never depend on the threads. */
#include "../gemm.h"
#include "../shape-util.h"
#include "../ukernels.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

#ifdef __wasm_relaxed_simd__
/* The relaxed build's core multiplies-adds with f32x4.relaxed_madd (fused
 * where the engine fuses); the depthwise kernel does the same so its bytes
 * stay those of the core under the relaxed identities. A padding tap adds
 * w * 0, exact either way (the product is exact), so it is not fused. */
static inline float madd1(float acc, float w, float x) {
  return wasm_f32x4_extract_lane(
      wasm_f32x4_relaxed_madd(wasm_f32x4_splat(w), wasm_f32x4_splat(x), wasm_f32x4_splat(acc)), 0);
}
#endif

/* output positions per im2col chunk (a multiple of the panel width) */
#define CONV_CHUNK 256
/* at most this many im2col chunk tasks (each with its own col slot) */
#define CONV_TASKS 4
/* at most this many depthwise tasks (each with its own workspace slot) */
#define DW_TASKS 8

typedef struct conv_geom {
  size_t N, C, M, G, Cg, Mg;
  holo_k_win2d w;
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
  uint64_t dw = holo_k_mul_sat(8 * DW_TASKS, holo_k_mul_sat(hp, wp));
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
  return HOLO_OK;
}

static bool conv_is_depthwise(const conv_geom *g) {
  return g->Cg == 1 && g->Mg == 1 && g->w.k[0] > 0 && g->w.k[1] > 0;
}

/* Depthwise direct kernel, scalar reference (see the header comment):
 * channels [c0, c1) of the N*C (image, channel) pairs. acc: OW floats.
 * epi holds the fused activation (its bias is set per channel here). */
static void conv_depthwise(const conv_geom *g, const float *X, const float *Wt, const float *B, float *Y,
                           const holo_gemm *epi, float *acc, size_t c0, size_t c1) {
  const holo_k_win2d *w = &g->w;
  const int64_t H = w->in[0], W = w->in[1], OH = w->out[0], OW = w->out[1];
  const int64_t kH = w->k[0], kW = w->k[1], s0 = w->stride[0], s1 = w->stride[1];
  holo_gemm e = *epi;
  for (size_t nc = c0; nc < c1; nc++) {
    {
      const size_t n = nc / g->C, ch = nc % g->C;
      const float *xp = X + (n * g->C + ch) * (size_t)(H * W);
      const float *wp = Wt + ch * (size_t)(kH * kW);
      float *yp = Y + (n * g->M + ch) * (size_t)(OH * OW);
      e.bias = B ? B + ch : 0;
      for (int64_t oh = 0; oh < OH; oh++) {
        for (int64_t ow = 0; ow < OW; ow++)
          acc[ow] = 0.0f;
        for (int64_t kh = 0; kh < kH; kh++) {
          const int64_t ih = oh * s0 - w->pad_begin[0] + kh * w->dil[0];
          const bool row_in = ih >= 0 && ih < H;
          for (int64_t kw = 0; kw < kW; kw++) {
            const float wv = wp[kh * kW + kw];
            const int64_t off = kw * w->dil[1] - w->pad_begin[1]; /* iw = ow * s1 + off */
            int64_t lo = 0, hi = 0;
            if (row_in) {
              lo = off >= 0 ? 0 : (-off + s1 - 1) / s1;
              hi = W - 1 - off < 0 ? 0 : (W - 1 - off) / s1 + 1;
              if (lo > OW) lo = OW;
              if (hi > OW) hi = OW;
              if (hi < lo) hi = lo;
            }
            int64_t ow = 0;
            for (; ow < lo; ow++)
              acc[ow] = acc[ow] + wv * 0.0f;
            const float *xr = xp + (row_in ? ih * W + off : 0);
#ifdef __wasm_relaxed_simd__
            if (s1 == 1) {
              const v128_t w4 = wasm_f32x4_splat(wv);
              for (; ow + 4 <= hi; ow += 4)
                wasm_v128_store(
                    acc + ow, wasm_f32x4_relaxed_madd(w4, wasm_v128_load(xr + ow), wasm_v128_load(acc + ow)));
            }
            for (; ow < hi; ow++)
              acc[ow] = madd1(acc[ow], wv, xr[ow * s1]);
#else
            if (s1 == 1)
              for (; ow < hi; ow++)
                acc[ow] = acc[ow] + wv * xr[ow];
            else
              for (; ow < hi; ow++)
                acc[ow] = acc[ow] + wv * xr[ow * s1];
#endif
            for (; ow < OW; ow++)
              acc[ow] = acc[ow] + wv * 0.0f;
          }
        }
        float *yr = yp + oh * OW;
        /* bias (brs = bcs = 0: the channel's one value), Relu / Clip */
        for (int64_t ow = 0; ow < OW; ow++)
          yr[ow] = holo_gemm_epi(&e, 0, 0, acc[ow]);
      }
    }
  }
}

static size_t dw_tasks(const conv_geom *g) {
  size_t nc = g->N * g->C;
  return nc < DW_TASKS ? nc : DW_TASKS;
}

#ifdef __wasm_simd128__
#define DW_SIMD 1
#ifdef __wasm_relaxed_simd__
#define DW_MADD(acc, w, x) wasm_f32x4_relaxed_madd((w), (x), (acc))
#else
#define DW_MADD(acc, w, x) wasm_f32x4_add((acc), wasm_f32x4_mul((w), (x)))
#endif

/* Padded-plane geometry of the SIMD depthwise path: Hp rows of Wp floats
 * cover every tap of every output (rounded up to 4 per row, plus the
 * second load of a stride-2 step). */
static bool dw_simd_ok(const holo_k_win2d *w) { return w->stride[1] == 1 || w->stride[1] == 2; }
static void dw_pad_geom(const holo_k_win2d *w, int64_t *Hp, int64_t *Wp) {
  const int64_t OWr = (w->out[1] + 3) & ~(int64_t)3;
  *Hp = (w->out[0] - 1) * w->stride[0] + (w->k[0] - 1) * w->dil[0] + 1;
  *Wp = (OWr - 1) * w->stride[1] + (w->k[1] - 1) * w->dil[1] + 1 + 4;
}

/* The vector epilogue of 4 outputs of one channel: holo_gemm_epi's steps. */
static inline __attribute__((always_inline)) v128_t dw_epi4(const holo_gemm *e, v128_t v, v128_t b) {
  if (e->bias) v = wasm_f32x4_add(v, b);
  if (e->relu) v = wasm_v128_andnot(v, wasm_f32x4_lt(v, wasm_f32x4_splat(0.0f)));
  if (e->lo_on) {
    const v128_t lo = wasm_f32x4_splat(e->lo);
    v = wasm_v128_bitselect(lo, v, wasm_f32x4_lt(v, lo));
  }
  if (e->hi_on) {
    const v128_t hi = wasm_f32x4_splat(e->hi);
    v = wasm_v128_bitselect(hi, v, wasm_f32x4_gt(v, hi));
  }
  return v;
}

/* 4 outputs (ow0..ow0+3) of padded row pointer r (tap (0,0) of ow0):
 * acc = +0, then acc + w*x for (kh, kw) ascending. S1 and the kernel dims
 * are constants after inlining for the common 3x3 cases. */
static inline __attribute__((always_inline)) v128_t dw_vec(const float *r, const float *wp, int64_t kH,
                                                           int64_t kW, int64_t rstep, int64_t d1, int S1) {
  v128_t acc = wasm_f32x4_splat(0.0f);
  for (int64_t kh = 0; kh < kH; kh++, r += rstep) {
    for (int64_t kw = 0; kw < kW; kw++) {
      const float *q = r + kw * d1;
      v128_t x;
      if (S1 == 1)
        x = wasm_v128_load(q);
      else
        x = wasm_i32x4_shuffle(wasm_v128_load(q), wasm_v128_load(q + 4), 0, 2, 4, 6);
      acc = DW_MADD(acc, wasm_f32x4_splat(wp[kh * kW + kw]), x);
    }
  }
  return acc;
}

static inline __attribute__((always_inline)) void dw_rows(const holo_k_win2d *w, const float *P, int64_t Wp,
                                                          const float *wp, const holo_gemm *e, v128_t b,
                                                          float *yp, int64_t kH, int64_t kW, int S1) {
  const int64_t OH = w->out[0], OW = w->out[1], s0 = w->stride[0], d0 = w->dil[0], d1 = w->dil[1];
  for (int64_t oh = 0; oh < OH; oh++) {
    const float *pr = P + oh * s0 * Wp;
    float *yr = yp + oh * OW;
    int64_t ow0 = 0;
    for (; ow0 + 4 <= OW; ow0 += 4)
      wasm_v128_store(yr + ow0, dw_epi4(e, dw_vec(pr + ow0 * S1, wp, kH, kW, d0 * Wp, d1, S1), b));
    if (ow0 < OW) {
      float t[4];
      wasm_v128_store(t, dw_epi4(e, dw_vec(pr + ow0 * S1, wp, kH, kW, d0 * Wp, d1, S1), b));
      for (int64_t q = 0; ow0 + q < OW; q++)
        yr[ow0 + q] = t[q];
    }
  }
}

/* 3x3, width stride S1: the 9 weight splats live in locals for the whole
 * plane (through dw_vec's pointer they would be reloaded per step, since the
 * output stores may alias them), the taps are unrolled; per lane the same
 * acc = +0, acc + w*x sequence in (kh, kw) order as dw_vec. */
static inline __attribute__((always_inline)) v128_t dw_x(const float *q, int S1) {
  if (S1 == 1) return wasm_v128_load(q);
  return wasm_i32x4_shuffle(wasm_v128_load(q), wasm_v128_load(q + 4), 0, 2, 4, 6);
}
static inline __attribute__((always_inline)) void dw_rows_3x3(const holo_k_win2d *w, const float *P,
                                                              int64_t Wp, const float *wp, const holo_gemm *e,
                                                              v128_t b, float *yp, int S1) {
  const int64_t OH = w->out[0], OW = w->out[1], s0 = w->stride[0];
  const int64_t r1 = w->dil[0] * Wp, r2 = 2 * r1, c1 = w->dil[1], c2 = 2 * c1;
  const v128_t w0 = wasm_f32x4_splat(wp[0]), w1 = wasm_f32x4_splat(wp[1]), w2 = wasm_f32x4_splat(wp[2]);
  const v128_t w3 = wasm_f32x4_splat(wp[3]), w4 = wasm_f32x4_splat(wp[4]), w5 = wasm_f32x4_splat(wp[5]);
  const v128_t w6 = wasm_f32x4_splat(wp[6]), w7 = wasm_f32x4_splat(wp[7]), w8 = wasm_f32x4_splat(wp[8]);
  for (int64_t oh = 0; oh < OH; oh++) {
    const float *pr = P + oh * s0 * Wp;
    float *yr = yp + oh * OW;
    for (int64_t ow0 = 0; ow0 < OW; ow0 += 4) {
      const float *q = pr + ow0 * S1;
      v128_t acc = wasm_f32x4_splat(0.0f);
      acc = DW_MADD(acc, w0, dw_x(q, S1));
      acc = DW_MADD(acc, w1, dw_x(q + c1, S1));
      acc = DW_MADD(acc, w2, dw_x(q + c2, S1));
      acc = DW_MADD(acc, w3, dw_x(q + r1, S1));
      acc = DW_MADD(acc, w4, dw_x(q + r1 + c1, S1));
      acc = DW_MADD(acc, w5, dw_x(q + r1 + c2, S1));
      acc = DW_MADD(acc, w6, dw_x(q + r2, S1));
      acc = DW_MADD(acc, w7, dw_x(q + r2 + c1, S1));
      acc = DW_MADD(acc, w8, dw_x(q + r2 + c2, S1));
      acc = dw_epi4(e, acc, b);
      if (ow0 + 4 <= OW) {
        wasm_v128_store(yr + ow0, acc);
      } else {
        float t[4];
        wasm_v128_store(t, acc);
        for (int64_t l = 0; ow0 + l < OW; l++)
          yr[ow0 + l] = t[l];
      }
    }
  }
}
static __attribute__((noinline)) void dw_rows_3x3_s1(const holo_k_win2d *w, const float *P, int64_t Wp,
                                                     const float *wp, const holo_gemm *e, v128_t b,
                                                     float *yp) {
  dw_rows_3x3(w, P, Wp, wp, e, b, yp, 1);
}
static __attribute__((noinline)) void dw_rows_3x3_s2(const holo_k_win2d *w, const float *P, int64_t Wp,
                                                     const float *wp, const holo_gemm *e, v128_t b,
                                                     float *yp) {
  dw_rows_3x3(w, P, Wp, wp, e, b, yp, 2);
}
static __attribute__((noinline)) void dw_rows_any(const holo_k_win2d *w, const float *P, int64_t Wp,
                                                  const float *wp, const holo_gemm *e, v128_t b, float *yp) {
  if (w->stride[1] == 1)
    dw_rows(w, P, Wp, wp, e, b, yp, w->k[0], w->k[1], 1);
  else
    dw_rows(w, P, Wp, wp, e, b, yp, w->k[0], w->k[1], 2);
}

/* SIMD depthwise over (image, channel) pairs [c0, c1); P: Hp*Wp floats. */
static void conv_depthwise_simd(const conv_geom *g, const float *X, const float *Wt, const float *B, float *Y,
                                const holo_gemm *epi, float *P, size_t c0, size_t c1) {
  const holo_k_win2d *w = &g->w;
  const int64_t H = w->in[0], W = w->in[1], OH = w->out[0], OW = w->out[1];
  const int64_t kH = w->k[0], kW = w->k[1], pt = w->pad_begin[0], pl = w->pad_begin[1];
  int64_t Hp, Wp;
  dw_pad_geom(w, &Hp, &Wp);
  /* the columns of P that hold X (the rest stay +0 for every channel) */
  const int64_t cb = pl < 0 ? 0 : pl > Wp ? Wp : pl;
  int64_t ce = pl + W > Wp ? Wp : pl + W;
  if (ce < cb) ce = cb;
  const int64_t iw0 = cb - pl;
  __builtin_memset(P, 0, (size_t)(Hp * Wp) * sizeof(float));
  holo_gemm e = *epi;
  for (size_t nc = c0; nc < c1; nc++) {
    const size_t n = nc / g->C, ch = nc % g->C;
    const float *xp = X + (n * g->C + ch) * (size_t)(H * W);
    for (int64_t r = 0; r < Hp; r++) {
      const int64_t ih = r - pt;
      float *pr = P + r * Wp;
      if (ih < 0 || ih >= H) continue; /* a padding row: stays +0 */
      __builtin_memcpy(pr + cb, xp + ih * W + iw0, (size_t)(ce - cb) * sizeof(float));
    }
    e.bias = B ? B + ch : 0;
    const v128_t b = wasm_f32x4_splat(B ? B[ch] : 0.0f);
    const float *wp = Wt + ch * (size_t)(kH * kW);
    float *yp = Y + (n * g->M + ch) * (size_t)(OH * OW);
    if (kH == 3 && kW == 3 && w->stride[1] == 1)
      dw_rows_3x3_s1(w, P, Wp, wp, &e, b, yp);
    else if (kH == 3 && kW == 3)
      dw_rows_3x3_s2(w, P, Wp, wp, &e, b, yp);
    else
      dw_rows_any(w, P, Wp, wp, &e, b, yp);
  }
}
#else
#define DW_SIMD 0
#endif

/* Workspace floats per depthwise task slot. */
static size_t dw_slot_floats(const conv_geom *g) {
#if DW_SIMD
  if (dw_simd_ok(&g->w)) {
    int64_t Hp, Wp;
    dw_pad_geom(&g->w, &Hp, &Wp);
    return (size_t)(Hp * Wp);
  }
#endif
  return (size_t)g->w.out[1]; /* one row of accumulators */
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
#if DW_SIMD
  if (dw_simd_ok(&J->g->w)) {
    conv_depthwise_simd(J->g, J->X, J->Wt, J->B, J->Y, J->epi, ws, c0, c1);
    return;
  }
#endif
  conv_depthwise(J->g, J->X, J->Wt, J->B, J->Y, J->epi, ws, c0, c1);
}

/* The depthwise pair by name, for tests/c/test_microkernels.c (ukernels.h). */
static conv_geom dw_geom(const holo_k_win2d *w, size_t N, size_t C) {
  return (conv_geom){N, C, C, C, 1, 1, *w};
}
size_t holo_ukernel_dwconv2d_f32_ws_floats(const holo_k_win2d *w, bool simd) {
  conv_geom g = dw_geom(w, 1, 1);
#if DW_SIMD
  if (simd && dw_simd_ok(w)) return dw_slot_floats(&g);
#else
  (void)simd;
#endif
  return (size_t)g.w.out[1];
}
void holo_ukernel_dwconv2d_f32__scalar(const holo_k_win2d *w, size_t N, size_t C, const float *X,
                                       const float *Wt, const float *B, float *Y, const holo_gemm *epi,
                                       float *ws) {
  conv_geom g = dw_geom(w, N, C);
  conv_depthwise(&g, X, Wt, B, Y, epi, ws, 0, N * C);
}
#if DW_SIMD
bool holo_ukernel_dwconv2d_f32__simd128(const holo_k_win2d *w, size_t N, size_t C, const float *X,
                                        const float *Wt, const float *B, float *Y, const holo_gemm *epi,
                                        float *ws) {
  if (!dw_simd_ok(w)) return false;
  conv_geom g = dw_geom(w, N, C);
  conv_depthwise_simd(&g, X, Wt, B, Y, epi, ws, 0, N * C);
  return true;
}
#endif

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
 * packed once per call where the core reads it so (im2col: a packed B) and
 * every weight is used by >= 128 output positions (below that the pass over the weights costs
 * about what the packed tile saves: resnet18's 512x4608 weights at 7x7). */
static size_t conv_pa_floats(const conv_geom *g) {
  size_t K = g->Cg * (size_t)(g->w.k[0] * g->w.k[1]), plane = (size_t)(g->w.out[0] * g->w.out[1]);
  if (conv_is_depthwise(g) || conv_direct_1x1(g) || g->N * plane < 128) return 0;
  if (!holo_gemm_wants_packed_a(g->Mg, plane < CONV_CHUNK ? plane : CONV_CHUNK, K)) return 0;
  return g->G * holo_gemm_packed_a_floats(g->Mg, K);
}

/* [packed weights] then col slots: with threads, one col slot per task;
 * serially the tasks share slot 0 */
static size_t conv_ws_floats(const conv_geom *g, bool threads) {
  if (conv_is_depthwise(g)) return dw_tasks(g) * dw_slot_floats(g);
  if (conv_direct_1x1(g)) return 0;
  return conv_pa_floats(g) + (threads ? conv_tasks(g) : 1) * conv_slot_floats(g);
}

/* 1x1, stride 1, no padding, plane a multiple of 4: the GEMM reads X as B
 * directly (see the header comment; a plane of 4k+1..3 would leave the
 * core's unpacked path single columns, slower than packing). */
static bool conv_direct_1x1(const conv_geom *g) {
  const holo_k_win2d *w = &g->w;
  return w->k[0] == 1 && w->k[1] == 1 && w->stride[0] == 1 && w->stride[1] == 1 && w->pad_begin[0] == 0 &&
         w->pad_begin[1] == 0 && w->pad_end[0] == 0 && w->pad_end[1] == 0 && (w->out[0] * w->out[1]) % 4 == 0;
}

holo_status holo_k_conv_f32_infer(holo_kernel_call *c) {
  holo_status st;
  conv_geom g;
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = holo_k_check_arity(c, "Conv", 2, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "Conv", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "Conv", 1, HOLO_DT_F32))) return st;
  if (!holo_k_absent(c, 2) && (st = holo_k_check_input(c, "Conv", 2, HOLO_DT_F32))) return st;
  if ((st = conv_geometry(c, &g))) return st;
  holo_gemm act = {0};
  if ((st = holo_k_gemm_act(c, "Conv", &act))) return st;
  c->workspace_bytes = conv_ws_floats(&g, c->parallel_for != 0) * sizeof(float);
  /* one multiply-add per output and tap (im2col visits padding taps too) */
  uint64_t f[6] = {
      g.N, g.M, (uint64_t)g.w.out[0], (uint64_t)g.w.out[1], g.Cg, (uint64_t)(g.w.k[0] * g.w.k[1])};
  c->work = holo_k_work(6, f);
  int64_t ys[4] = {(int64_t)g.N, (int64_t)g.M, g.w.out[0], g.w.out[1]};
  return holo_k_set_output(c, "Conv", 0, HOLO_DT_F32, 4, ys);
}

/* col rows k = (ic, kh, kw) over output positions [p0, p0+pc) of one image
 * and group, in panel layout: dst[(p/8)*K*8 + k*8 + p%8], zero padded. */
static void im2col_packed(float *dst, const float *xg, const holo_k_win2d *w, size_t Cg, size_t p0,
                          size_t pc) {
  int64_t H = w->in[0], W = w->in[1], OW = w->out[1];
  int64_t kH = w->k[0], kW = w->k[1];
  size_t K = Cg * (size_t)(kH * kW), npan = (pc + HOLO_GEMM_NR - 1) / HOLO_GEMM_NR;
  for (size_t q = 0; q < npan; q++) {
    float *d = dst + q * K * HOLO_GEMM_NR;
    size_t nc = pc - q * HOLO_GEMM_NR < HOLO_GEMM_NR ? pc - q * HOLO_GEMM_NR : HOLO_GEMM_NR;
    int64_t ihb[HOLO_GEMM_NR], iwb[HOLO_GEMM_NR];
    for (size_t e = 0; e < nc; e++) {
      int64_t p = (int64_t)(p0 + q * HOLO_GEMM_NR + e);
      ihb[e] = (p / OW) * w->stride[0] - w->pad_begin[0];
      iwb[e] = (p % OW) * w->stride[1] - w->pad_begin[1];
    }
    /* a full panel inside one output row with unit width stride reads 8
     * consecutive input floats per tap: copied as one block when they all
     * lie inside X (pure data movement, the same floats as the loop below) */
    const bool row8 = nc == HOLO_GEMM_NR && w->stride[1] == 1 && ihb[0] == ihb[HOLO_GEMM_NR - 1];
    for (size_t ic = 0; ic < Cg; ic++) {
      const float *xp = xg + ic * (size_t)(H * W);
      for (int64_t kh = 0; kh < kH; kh++) {
        for (int64_t kw = 0; kw < kW; kw++) {
          if (row8) {
            int64_t ih = ihb[0] + kh * w->dil[0], iw = iwb[0] + kw * w->dil[1];
            if (ih >= 0 && ih < H && iw >= 0 && iw + HOLO_GEMM_NR <= W) {
              __builtin_memcpy(d, xp + ih * W + iw, HOLO_GEMM_NR * sizeof(float));
              d += HOLO_GEMM_NR;
              continue;
            }
          }
          size_t e = 0;
          for (; e < nc; e++) {
            int64_t ih = ihb[e] + kh * w->dil[0], iw = iwb[e] + kw * w->dil[1];
            d[e] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? xp[ih * W + iw] : 0.0f;
          }
          for (; e < HOLO_GEMM_NR; e++)
            d[e] = 0.0f;
          d += HOLO_GEMM_NR;
        }
      }
    }
  }
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
  if (K == 0) {
    /* no taps: every output is the empty sum +0, then the epilogue */
    for (size_t i = 0; i < q.M; i++)
      for (size_t j = 0; j < pc; j++)
        q.C[i * q.ldc + j] = holo_gemm_epi(&q, i, j, 0.0f);
    return;
  }
  if (J->direct) {
    q.B = xg + p0; /* B(c, p) = X[c*plane + p]: the planes are B's rows */
    q.ldb = J->plane;
  } else {
    im2col_packed(col, xg, &g->w, g->Cg, p0, pc);
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
  size_t pa = conv_pa_floats(&g);
  if (c->workspace_bytes < pa * sizeof(float)) pa = 0; /* infer sized it otherwise: no packing */
  conv_job J = {&g, X, Wt, B, Y, col + pa, &act, plane, xplane, K, conv_direct_1x1(&g), 0, 0, 0, !c->parallel_for, 0};
  if (pa) {
    for (size_t grp = 0; grp < g.G; grp++) {
      holo_gemm q = {0};
      q.M = g.Mg;
      q.K = K;
      q.A = Wt + grp * g.Mg * K;
      q.rsa = K;
      q.csa = 1;
      holo_gemm_pack_a_par(&q, col + grp * holo_gemm_packed_a_floats(g.Mg, K), c->parallel_for, c->pctx);
    }
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
