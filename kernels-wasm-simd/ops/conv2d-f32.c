/* Conv, 2-D NCHW f32, as im2col + the GEMM core (gemm.h). Per group, the
 * output Y_g [Mg, OH*OW] = W_g [Mg, Cg*kH*kW] x col [Cg*kH*kW, OH*OW]; col
 * is built straight into the core's packed panel layout, a chunk of output
 * positions at a time (bounded workspace, hot in cache). Each output thus
 * sums w[c,kh,kw] * x products in ascending (c, kh, kw) order from +0 and
 * then adds the bias; a padding position contributes w * 0 (so an infinite
 * or NaN weight next to padding gives NaN, as zero padding means).
 * Optional `holo_activation` = "Relu" applies Relu after the bias.
 *
 * Depthwise convolutions (one input and one output channel per group) skip
 * im2col and the core (a 1-row GEMM per channel): conv_depthwise computes
 * each output with the very same operations in the same order — acc = +0,
 * acc = acc + w[kh,kw] * x for (kh, kw) ascending, a padding tap adding
 * w * 0 — then the same epilogue, so the bytes (and the identity) are
 * unchanged. Its inner loop runs along an output row (vectorizable: lanes
 * are independent output elements). */
#include "../gemm.h"
#include "../shape-util.h"

#ifdef __wasm_relaxed_simd__
#include <wasm_simd128.h>
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

typedef struct conv_geom {
  size_t N, C, M, G, Cg, Mg;
  holo_k_win2d w;
} conv_geom;

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
                       holo_k_shape_str(s1, x->shape, 4), (long long)C,
                       holo_k_shape_str(s2, wt->shape, 4), (long long)Cg, (long long)group);
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

static size_t conv_ws_floats(const conv_geom *g) {
  if (conv_is_depthwise(g)) return (size_t)g->w.out[1]; /* one row of accumulators */
  size_t plane = (size_t)(g->w.out[0] * g->w.out[1]);
  size_t K = g->Cg * (size_t)(g->w.k[0] * g->w.k[1]);
  size_t pc = plane < CONV_CHUNK ? plane : CONV_CHUNK;
  return holo_gemm_packed_floats(K, pc);
}

/* Depthwise direct kernel (see the header comment). acc: OW floats. */
static void conv_depthwise(const conv_geom *g, const float *X, const float *Wt, const float *B, float *Y,
                           bool relu, float *acc) {
  const holo_k_win2d *w = &g->w;
  const int64_t H = w->in[0], W = w->in[1], OH = w->out[0], OW = w->out[1];
  const int64_t kH = w->k[0], kW = w->k[1], s0 = w->stride[0], s1 = w->stride[1];
  for (size_t n = 0; n < g->N; n++) {
    for (size_t ch = 0; ch < g->C; ch++) {
      const float *xp = X + (n * g->C + ch) * (size_t)(H * W);
      const float *wp = Wt + ch * (size_t)(kH * kW);
      float *yp = Y + (n * g->M + ch) * (size_t)(OH * OW);
      for (int64_t oh = 0; oh < OH; oh++) {
        for (int64_t ow = 0; ow < OW; ow++) acc[ow] = 0.0f;
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
            for (; ow < lo; ow++) acc[ow] = acc[ow] + wv * 0.0f;
            const float *xr = xp + (row_in ? ih * W + off : 0);
#ifdef __wasm_relaxed_simd__
            if (s1 == 1) {
              const v128_t w4 = wasm_f32x4_splat(wv);
              for (; ow + 4 <= hi; ow += 4)
                wasm_v128_store(acc + ow, wasm_f32x4_relaxed_madd(w4, wasm_v128_load(xr + ow),
                                                                  wasm_v128_load(acc + ow)));
            }
            for (; ow < hi; ow++) acc[ow] = madd1(acc[ow], wv, xr[ow * s1]);
#else
            if (s1 == 1)
              for (; ow < hi; ow++) acc[ow] = acc[ow] + wv * xr[ow];
            else
              for (; ow < hi; ow++) acc[ow] = acc[ow] + wv * xr[ow * s1];
#endif
            for (; ow < OW; ow++) acc[ow] = acc[ow] + wv * 0.0f;
          }
        }
        float *yr = yp + oh * OW;
        if (B) {
          const float b = B[ch];
          for (int64_t ow = 0; ow < OW; ow++) acc[ow] = acc[ow] + b;
        }
        if (relu)
          for (int64_t ow = 0; ow < OW; ow++) yr[ow] = acc[ow] < 0.0f ? 0.0f : acc[ow];
        else
          for (int64_t ow = 0; ow < OW; ow++) yr[ow] = acc[ow];
      }
    }
  }
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
  const holo_attr *act = holo_attr_find(c, "holo_activation");
  if (act && !holo_attr_string_is(c, "holo_activation", "Relu"))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                       "Conv: holo_activation must be the STRING \"Relu\" (the only fused activation)");
  c->workspace_bytes = conv_ws_floats(&g) * sizeof(float);
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
    for (size_t ic = 0; ic < Cg; ic++) {
      const float *xp = xg + ic * (size_t)(H * W);
      for (int64_t kh = 0; kh < kH; kh++) {
        for (int64_t kw = 0; kw < kW; kw++) {
          size_t e = 0;
          for (; e < nc; e++) {
            int64_t ih = ihb[e] + kh * w->dil[0], iw = iwb[e] + kw * w->dil[1];
            d[e] = (ih >= 0 && ih < H && iw >= 0 && iw < W) ? xp[ih * W + iw] : 0.0f;
          }
          for (; e < HOLO_GEMM_NR; e++) d[e] = 0.0f;
          d += HOLO_GEMM_NR;
        }
      }
    }
  }
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
  bool relu = holo_attr_string_is(c, "holo_activation", "Relu");
  float *col = c->workspace;
  if (conv_is_depthwise(&g)) {
    conv_depthwise(&g, X, Wt, B, Y, relu, col);
    return HOLO_OK;
  }
  for (size_t n = 0; n < g.N; n++) {
    for (size_t grp = 0; grp < g.G; grp++) {
      const float *xg = X + (n * g.C + grp * g.Cg) * xplane;
      for (size_t p0 = 0; p0 < plane; p0 += CONV_CHUNK) {
        size_t pc = plane - p0 < CONV_CHUNK ? plane - p0 : CONV_CHUNK;
        holo_gemm q = {0};
        q.M = g.Mg;
        q.N = pc;
        q.K = K;
        q.A = Wt + grp * g.Mg * K;
        q.rsa = K;
        q.csa = 1;
        q.C = Y + (n * g.M + grp * g.Mg) * plane + p0;
        q.ldc = plane;
        if (B) {
          q.bias = B + grp * g.Mg;
          q.brs = 1;
          q.bcs = 0;
        }
        q.relu = relu;
        if (K == 0) {
          /* no taps: every output is the empty sum +0, then the epilogue */
          for (size_t i = 0; i < q.M; i++)
            for (size_t j = 0; j < pc; j++) q.C[i * q.ldc + j] = holo_gemm_epi(&q, i, j, 0.0f);
          continue;
        }
        im2col_packed(col, xg, w, g.Cg, p0, pc);
        q.Bp = col;
        holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
      }
    }
  }
  return HOLO_OK;
}
