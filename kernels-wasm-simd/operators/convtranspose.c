/* ConvTranspose (opset 1-18 in its opset-18 form), f32, 1 to 3 spatial
 * dims: X [N, C, D...], W [C, M/group, K...], optional B [M].
 *
 * Computed as a gather, one output element at a time: the sum over the
 * group's input channels and the kernel taps t with
 * (o + pad_begin - t * dilation) a multiple of stride inside the input, of
 * x * w, in double in that order (channels outer, taps in row-major order),
 * plus the bias, rounded once. Every output element is computed alone, so
 * the parallel split (by output plane) cannot change a byte.
 * Output size: stride * (in - 1) + output_padding + (k - 1) * dilation + 1
 * - pads, or output_shape with the padding it implies (SAME_UPPER puts the
 * odd pixel at the end, as the spec says). */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

typedef struct {
  uint32_t nsp; /* spatial dims, 1..3; the rest padded with size-1 dims */
  uint64_t N, C, M, G, Cg, Mg;
  int64_t in[3], out[3], k[3], s[3], d[3], pb[3];
} ct_geom;

static holo_status ct_ints(holo_kernel_call *c, const char *name, int64_t *v, uint32_t n, int64_t dflt) {
  int64_t tmp[6];
  int32_t got = holo_attr_ints(c, name, tmp, 6);
  for (uint32_t i = 0; i < n; i++) v[i] = got < 0 ? dflt : tmp[i];
  if (got >= 0 && (uint32_t)got != n)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: %s has %d values, expected %u", name, got, n);
  return HOLO_OK;
}

/* pads from output_shape / auto_pad (the spec's total-padding rule) or the pads attribute. */
static holo_status ct_pads(holo_kernel_call *c, ct_geom *g, const int64_t *op) {
  int64_t pads[6], os[3];
  uint32_t n = g->nsp;
  int32_t nos = holo_attr_ints(c, "output_shape", os, 3);
  bool upper = holo_attr_string_is(c, "auto_pad", "SAME_UPPER"), lower = holo_attr_string_is(c, "auto_pad", "SAME_LOWER");
  if (nos >= 0 && (uint32_t)nos != n) return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: output_shape has %d values", nos);
  holo_status st = ct_ints(c, "pads", pads, 2 * n, 0);
  if (st) return st;
  for (uint32_t i = 0; i < n; i++) {
    int64_t full = g->s[i] * (g->in[i] - 1) + op[i] + (g->k[i] - 1) * g->d[i] + 1;
    if (nos >= 0 || upper || lower) {
      int64_t want = nos >= 0 ? os[i] : g->in[i] * g->s[i], total = full - want;
      /* floor(total / 2), as the spec's Python: a negative total (an
       * output_shape beyond the full size) adds its rows at the end */
      int64_t half = total >= 0 ? total / 2 : -((1 - total) / 2);
      /* SAME_UPPER: the extra pixel of an odd total at the end (begin gets half) */
      g->pb[i] = upper ? half : total - half;
      g->out[i] = want;
    } else {
      g->pb[i] = pads[i];
      g->out[i] = full - pads[i] - pads[i + n];
    }
    if (g->out[i] < 0 || g->out[i] > ((int64_t)1 << 32))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: output dim %u would be %lld", i, (long long)g->out[i]);
  }
  return HOLO_OK;
}

static holo_status ct_geometry(holo_kernel_call *c, ct_geom *g) {
  const holo_tensor *x = &c->inputs[0], *w = &c->inputs[1];
  if (x->rank < 3 || x->rank > 5 || w->rank != x->rank)
    return holo_k_fail(c, x->rank > 5 ? HOLO_ERR_UNSUPPORTED : HOLO_ERR_KERNEL,
                       "ConvTranspose: X rank %u and W rank %u must be equal, 3 to 5", x->rank, w->rank);
  uint32_t n = g->nsp = x->rank - 2;
  int64_t grp = holo_attr_int(c, "group", 1), op[3];
  g->N = (uint64_t)x->shape[0];
  g->C = (uint64_t)x->shape[1];
  if (grp < 1 || g->C % (uint64_t)grp || (uint64_t)w->shape[0] != g->C)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: W has %lld input channels, X %llu, group %lld",
                       (long long)w->shape[0], (unsigned long long)g->C, (long long)grp);
  g->G = (uint64_t)grp;
  g->Cg = g->C / g->G;
  g->Mg = (uint64_t)w->shape[1];
  g->M = g->Mg * g->G;
  holo_status st;
  if ((st = ct_ints(c, "strides", g->s, n, 1)) || (st = ct_ints(c, "dilations", g->d, n, 1)) ||
      (st = ct_ints(c, "output_padding", op, n, 0)))
    return st;
  for (uint32_t i = 0; i < n; i++) {
    g->in[i] = x->shape[2 + i];
    g->k[i] = w->shape[2 + i];
    if (g->s[i] < 1 || g->d[i] < 1 || op[i] < 0 || op[i] >= (g->s[i] > g->d[i] ? g->s[i] : g->d[i]))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: strides/dilations must be >= 1, output_padding below them");
  }
  int64_t ks[3];
  if (holo_attr_find(c, "kernel_shape")) {
    if ((st = ct_ints(c, "kernel_shape", ks, n, 0))) return st;
    for (uint32_t i = 0; i < n; i++)
      if (ks[i] != g->k[i]) return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: kernel_shape differs from W");
  }
  if ((st = ct_pads(c, g, op))) return st;
  for (uint32_t i = n; i < 3; i++) g->in[i] = g->out[i] = g->k[i] = g->s[i] = g->d[i] = 1, g->pb[i] = 0;
  if (!holo_k_absent(c, 2) && (c->inputs[2].rank != 1 || (uint64_t)c->inputs[2].shape[0] != g->M))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: B must be [%llu]", (unsigned long long)g->M);
  return HOLO_OK;
}

holo_status holo_k_convtranspose_infer(holo_kernel_call *c) {
  holo_status st;
  ct_geom g;
  if ((st = holo_k_infer_begin(c, "ConvTranspose", 2, 3, 1))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++)
    if (!holo_k_absent(c, k) && (st = holo_k_check_input(c, "ConvTranspose", k, HOLO_DT_F32))) return st;
  if ((st = ct_geometry(c, &g))) return st;
  uint64_t f[6] = {g.N, g.M, (uint64_t)(g.out[0] * g.out[1]), (uint64_t)g.out[2], g.Cg,
                   (uint64_t)(g.k[0] * g.k[1] * g.k[2])};
  c->work = holo_k_work(6, f);
  int64_t ys[5] = {(int64_t)g.N, (int64_t)g.M, g.out[0], g.out[1], g.out[2]};
  return holo_k_set_output(c, "ConvTranspose", 0, HOLO_DT_F32, g.nsp + 2, ys);
}

typedef struct {
  const ct_geom *g;
  const float *X, *W, *B;
  float *Y;
} ct_job;

/* The input index along one axis that output o reaches through tap t, or -1. */
static inline int64_t ct_src(const ct_geom *g, uint32_t a, int64_t o, int64_t t) {
  int64_t v = o + g->pb[a] - t * g->d[a];
  if (v < 0 || v % g->s[a]) return -1;
  v /= g->s[a];
  return v < g->in[a] ? v : -1;
}

/* Output plane (n, m): every element by the gather of the header comment. */
static void ct_plane(void *arg, uint32_t task) {
  const ct_job *J = arg;
  const ct_geom *g = J->g;
  uint64_t n = task / g->M, m = task % g->M, grp = m / g->Mg, mg = m % g->Mg;
  int64_t xplane = g->in[0] * g->in[1] * g->in[2], kplane = g->k[0] * g->k[1] * g->k[2];
  float *y = J->Y + task * (uint64_t)(g->out[0] * g->out[1] * g->out[2]);
  for (int64_t o0 = 0; o0 < g->out[0]; o0++)
    for (int64_t o1 = 0; o1 < g->out[1]; o1++)
      for (int64_t o2 = 0; o2 < g->out[2]; o2++) {
        double acc = 0;
        for (uint64_t cg = 0; cg < g->Cg; cg++) {
          uint64_t ch = grp * g->Cg + cg;
          const float *x = J->X + (n * g->C + ch) * (uint64_t)xplane;
          const float *w = J->W + (ch * g->Mg + mg) * (uint64_t)kplane;
          for (int64_t t0 = 0; t0 < g->k[0]; t0++) {
            int64_t i0 = ct_src(g, 0, o0, t0);
            if (i0 < 0) continue;
            for (int64_t t1 = 0; t1 < g->k[1]; t1++) {
              int64_t i1 = ct_src(g, 1, o1, t1);
              if (i1 < 0) continue;
              for (int64_t t2 = 0; t2 < g->k[2]; t2++) {
                int64_t i2 = ct_src(g, 2, o2, t2);
                if (i2 < 0) continue;
                acc += (double)x[(i0 * g->in[1] + i1) * g->in[2] + i2] * (double)w[(t0 * g->k[1] + t1) * g->k[2] + t2];
              }
            }
          }
        }
        *y++ = (float)(acc + (J->B ? (double)J->B[m] : 0.0));
      }
}

holo_status holo_k_convtranspose_run(holo_kernel_call *c) {
  ct_geom g;
  if (ct_geometry(c, &g)) return HOLO_ERR_KERNEL;
  ct_job J = {&g, c->inputs[0].data, c->inputs[1].data, holo_k_absent(c, 2) ? 0 : c->inputs[2].data,
              c->outputs[0].data};
  uint64_t planes = g.N * g.M;
  if (planes > UINT32_MAX) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: too many output planes");
  if (c->parallel_for && planes > 1)
    c->parallel_for(c->pctx, (uint32_t)planes, ct_plane, &J);
  else
    for (uint32_t t = 0; t < (uint32_t)planes; t++) ct_plane(&J, t);
  return HOLO_OK;
}
