/* ConvTranspose (opset 1-18 in its opset-18 form), f32, 1 to 3 spatial
 * dims: X [N, C, D...], W [C, M/group, K...], optional B [M].
 *
 * Computed as a gather, one output element at a time: the sum over the
 * group's input channels and the kernel taps t with
 * (o + pad_begin - t * dilation) a multiple of stride inside the input, of
 * x * w, in double in that order (channels outer, taps in row-major order;
 * the taps of each axis come from a table built per run: no division in
 * the inner loops),
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

static bool ct_table_bytes(const ct_geom *g, size_t *bytes);

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
  size_t ws;
  if (!ct_table_bytes(&g, &ws)) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: geometry too large");
  c->workspace_bytes = ws;
  int64_t ys[5] = {(int64_t)g.N, (int64_t)g.M, g.out[0], g.out[1], g.out[2]};
  return holo_k_set_output(c, "ConvTranspose", 0, HOLO_DT_F32, g.nsp + 2, ys);
}

/* Per axis a, per output o: the taps that reach an input position, in
 * ascending tap order, as (tap, input index) pairs; n[o] of them. Built
 * once per run, so the inner loops do no division. */
typedef struct {
  const int32_t *n;
  const int64_t *tap, *src;
  int64_t k;
} ct_axis;

static bool ct_table_bytes(const ct_geom *g, size_t *bytes) {
  size_t total = 0;
  for (uint32_t a = 0; a < 3; a++) {
    uint64_t o = (uint64_t)g->out[a], k = (uint64_t)g->k[a];
    if (k && o > (SIZE_MAX / 8) / (k * 16 + 4 + 16)) return false;
    total += (size_t)(o * (k * 16 + 4) + 16);
    if (total > SIZE_MAX / 8) return false;
  }
  *bytes = total;
  return true;
}

static void ct_tables(const ct_geom *g, void *ws, ct_axis *ax) {
  uint8_t *p = ws;
  for (uint32_t a = 0; a < 3; a++) {
    int64_t O = g->out[a], K = g->k[a];
    p = (uint8_t *)(((uintptr_t)p + 7) & ~(uintptr_t)7);
    int64_t *tap = (int64_t *)p, *src = tap + O * K;
    int32_t *n = (int32_t *)(src + O * K);
    p = (uint8_t *)(n + O);
    for (int64_t o = 0; o < O; o++) {
      int32_t c = 0;
      for (int64_t t = 0; t < K; t++) {
        int64_t v = o + g->pb[a] - t * g->d[a];
        if (v < 0 || v % g->s[a] || v / g->s[a] >= g->in[a]) continue;
        tap[o * K + c] = t;
        src[o * K + c] = v / g->s[a];
        c++;
      }
      n[o] = c;
    }
    ax[a] = (ct_axis){n, tap, src, K};
  }
}

typedef struct {
  const ct_geom *g;
  const ct_axis *ax;
  const float *X, *W, *B;
  float *Y;
} ct_job;

/* One output element (o0, o1, o2) of plane (n, m): channels outer, then the
 * taps in ascending order on each axis (the header comment's order). */
static float ct_one(const ct_job *J, uint64_t n, uint64_t m, int64_t o0, int64_t o1, int64_t o2) {
  const ct_geom *g = J->g;
  const ct_axis *A = J->ax;
  uint64_t grp = m / g->Mg, mg = m % g->Mg;
  int64_t xplane = g->in[0] * g->in[1] * g->in[2], kplane = g->k[0] * g->k[1] * g->k[2];
  int32_t n0 = A[0].n[o0], n1 = A[1].n[o1], n2 = A[2].n[o2];
  const int64_t *t0s = A[0].tap + o0 * A[0].k, *i0s = A[0].src + o0 * A[0].k;
  const int64_t *t1s = A[1].tap + o1 * A[1].k, *i1s = A[1].src + o1 * A[1].k;
  const int64_t *t2s = A[2].tap + o2 * A[2].k, *i2s = A[2].src + o2 * A[2].k;
  double acc = 0;
  for (uint64_t cg = 0; cg < g->Cg; cg++) {
    uint64_t ch = grp * g->Cg + cg;
    const float *x = J->X + (n * g->C + ch) * (uint64_t)xplane;
    const float *w = J->W + (ch * g->Mg + mg) * (uint64_t)kplane;
    for (int32_t a = 0; a < n0; a++)
      for (int32_t b = 0; b < n1; b++) {
        const float *xr = x + (i0s[a] * g->in[1] + i1s[b]) * g->in[2];
        const float *wr = w + (t0s[a] * g->k[1] + t1s[b]) * g->k[2];
        for (int32_t c = 0; c < n2; c++) acc += (double)xr[i2s[c]] * (double)wr[t2s[c]];
      }
  }
  return (float)(acc + (J->B ? (double)J->B[m] : 0.0));
}

/* Output plane task = (n, m). */
static void ct_plane(void *arg, uint32_t task) {
  const ct_job *J = arg;
  const ct_geom *g = J->g;
  float *y = J->Y + task * (uint64_t)(g->out[0] * g->out[1] * g->out[2]);
  for (int64_t o0 = 0; o0 < g->out[0]; o0++)
    for (int64_t o1 = 0; o1 < g->out[1]; o1++)
      for (int64_t o2 = 0; o2 < g->out[2]; o2++) *y++ = ct_one(J, task / g->M, task % g->M, o0, o1, o2);
}

holo_status holo_k_convtranspose_run(holo_kernel_call *c) {
  ct_geom g;
  if (ct_geometry(c, &g)) return HOLO_ERR_KERNEL;
  ct_axis ax[3];
  ct_tables(&g, c->workspace, ax);
  ct_job J = {&g, ax, c->inputs[0].data, c->inputs[1].data, holo_k_absent(c, 2) ? 0 : c->inputs[2].data,
              c->outputs[0].data};
  uint64_t planes = g.N * g.M;
  if (planes > UINT32_MAX) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: too many output planes");
  if (c->parallel_for && planes > 1)
    c->parallel_for(c->pctx, (uint32_t)planes, ct_plane, &J);
  else
    for (uint32_t t = 0; t < (uint32_t)planes; t++) ct_plane(&J, t);
  return HOLO_OK;
}
