/* Conv, 2-D NCHW f32, direct: each output plane accumulates
 * w[c,kh,kw] * x-plane products in ascending (c, kh, kw) order, then adds
 * the bias. Padding positions are skipped rather than multiplied by zero. */
#include "../shape-util.h"

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
  int64_t ys[4] = {(int64_t)g.N, (int64_t)g.M, g.w.out[0], g.w.out[1]};
  return holo_k_set_output(c, "Conv", 0, HOLO_DT_F32, 4, ys);
}

holo_status holo_k_conv_f32_run(holo_kernel_call *c) {
  conv_geom g;
  if (conv_geometry(c, &g)) return HOLO_ERR_KERNEL;
  const float *X = c->inputs[0].data, *Wt = c->inputs[1].data;
  const float *B = holo_k_absent(c, 2) ? 0 : c->inputs[2].data;
  float *Y = c->outputs[0].data;
  const holo_k_win2d *w = &g.w;
  int64_t H = w->in[0], W = w->in[1], OH = w->out[0], OW = w->out[1];
  int64_t kH = w->k[0], kW = w->k[1], sh = w->stride[0], sw = w->stride[1];
  int64_t dh = w->dil[0], dw = w->dil[1], pt = w->pad_begin[0], pl = w->pad_begin[1];
  size_t plane = (size_t)(OH * OW), xplane = (size_t)(H * W);
  if (plane == 0) return HOLO_OK;
  for (size_t n = 0; n < g.N; n++) {
    for (size_t oc = 0; oc < g.M; oc++) {
      size_t grp = oc / g.Mg;
      float *yp = Y + (n * g.M + oc) * plane;
      for (size_t i = 0; i < plane; i++) yp[i] = 0.0f;
      for (size_t ic = 0; ic < g.Cg; ic++) {
        const float *xp = X + (n * g.C + grp * g.Cg + ic) * xplane;
        const float *wp = Wt + (oc * g.Cg + ic) * (size_t)(kH * kW);
        for (int64_t kh = 0; kh < kH; kh++) {
          for (int64_t kw = 0; kw < kW; kw++) {
            float wv = wp[kh * kW + kw];
            /* output columns whose input column lies inside [0, W) */
            int64_t off = kw * dw - pl;
            int64_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
            int64_t hi_num = W - 1 - off;
            if (hi_num < 0) continue;
            int64_t hi = hi_num / sw;
            if (hi > OW - 1) hi = OW - 1;
            for (int64_t oh = 0; oh < OH; oh++) {
              int64_t ih = oh * sh - pt + kh * dh;
              if (ih < 0 || ih >= H) continue;
              const float *xr = xp + ih * W;
              float *yr = yp + oh * OW;
              for (int64_t ow = lo; ow <= hi; ow++) yr[ow] += wv * xr[ow * sw + off];
            }
          }
        }
      }
      if (B)
        for (size_t i = 0; i < plane; i++) yp[i] += B[oc];
    }
  }
  return HOLO_OK;
}
