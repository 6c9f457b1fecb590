/* ConvTranspose (opset 1-18 in its opset-18 form), f32, 1 to 3 spatial
 * dims: X [N, C, D...], W [C, M/group, K...], optional B [M].
 *
 * Computed as ONNX Runtime and XNNPACK do: per image and group, one GEMM
 *   cols [Mg * taps, in-plane] = W_g^T [Mg * taps, Cg] x X_g [Cg, in-plane]
 * on the GEMM core (microkernels/gemm.h: its order contract, so the bytes
 * are the GEMM class's, as Conv's), then col2im: each column value is added
 * to the output element its tap and input position reach, taps in
 * row-major order (for a given output element and tap at most one input
 * position contributes), each sum rounded to f32, the bias added last.
 * The GEMM's parallel split is its fixed rule and col2im runs one task per
 * output plane, so no byte depends on the thread count.
 * Output size: stride * (in - 1) + output_padding + (k - 1) * dilation + 1
 * - pads, or output_shape with the padding it implies (SAME_UPPER puts the
 * odd pixel at the end, as the spec says). */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"
#include "operators/products.h"

typedef struct {
  uint32_t nsp; /* spatial dims, 1..3; the rest padded with size-1 dims */
  uint64_t N, C, M, G, Cg, Mg;
  int64_t in[3], out[3], k[3], s[3], d[3], pb[3];
} ct_geom;

static holo_status ct_ints(holo_kernel_call *c, const char *name, int64_t *v, uint32_t n, int64_t dflt) {
  int64_t tmp[6];
  int32_t got = holo_attr_ints(c, name, tmp, 6);
  for (uint32_t i = 0; i < n; i++)
    v[i] = got < 0 ? dflt : tmp[i];
  if (got >= 0 && (uint32_t)got != n)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: %s has %d values, expected %u", name, got, n);
  return HOLO_OK;
}

/* pads from output_shape / auto_pad (the spec's total-padding rule) or the pads attribute. */
static holo_status ct_pads(holo_kernel_call *c, ct_geom *g, const int64_t *op) {
  int64_t pads[6], os[3];
  uint32_t n = g->nsp;
  int32_t nos = holo_attr_ints(c, "output_shape", os, 3);
  bool upper = holo_attr_string_is(c, "auto_pad", "SAME_UPPER"),
       lower = holo_attr_string_is(c, "auto_pad", "SAME_LOWER");
  if (nos >= 0 && (uint32_t)nos != n)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: output_shape has %d values", nos);
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
      return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: output dim %u would be %lld", i,
                         (long long)g->out[i]);
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
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "ConvTranspose: strides/dilations must be >= 1, output_padding below them");
  }
  int64_t ks[3];
  if (holo_attr_find(c, "kernel_shape")) {
    if ((st = ct_ints(c, "kernel_shape", ks, n, 0))) return st;
    for (uint32_t i = 0; i < n; i++)
      if (ks[i] != g->k[i])
        return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: kernel_shape differs from W");
  }
  if ((st = ct_pads(c, g, op))) return st;
  for (uint32_t i = n; i < 3; i++)
    g->in[i] = g->out[i] = g->k[i] = g->s[i] = g->d[i] = 1, g->pb[i] = 0;
  if (!holo_k_absent(c, 2) && (c->inputs[2].rank != 1 || (uint64_t)c->inputs[2].shape[0] != g->M))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConvTranspose: B must be [%llu]", (unsigned long long)g->M);
  return HOLO_OK;
}

/* Floats of the cols buffer (Mg * taps rows of in-plane columns), or
 * false when that does not fit a size_t. */
static bool ct_cols_floats(const ct_geom *g, size_t *floats) {
  uint64_t f[3] = {g->Mg, (uint64_t)(g->k[0] * g->k[1] * g->k[2]),
                   (uint64_t)(g->in[0] * g->in[1] * g->in[2])};
  uint64_t n = holo_k_work(3, f);
  if (n > SIZE_MAX / 16) return false;
  *floats = (size_t)n;
  return true;
}

holo_status holo_k_convtranspose_infer(holo_kernel_call *c) {
  holo_status st;
  ct_geom g;
  if ((st = holo_k_infer_begin(c, "ConvTranspose", 2, 3, 1))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++)
    if (!holo_k_absent(c, k) && (st = holo_k_check_input(c, "ConvTranspose", k, HOLO_DT_F32))) return st;
  if ((st = ct_geometry(c, &g))) return st;
  uint64_t f[6] = {
      g.N, g.M, (uint64_t)(g.in[0] * g.in[1]), (uint64_t)g.in[2], g.Cg, (uint64_t)(g.k[0] * g.k[1] * g.k[2])};
  c->work = holo_k_work(6, f);
  size_t cols;
  if (!ct_cols_floats(&g, &cols)) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: geometry too large");
  c->workspace_bytes = cols * sizeof(float);
  int64_t ys[5] = {(int64_t)g.N, (int64_t)g.M, g.out[0], g.out[1], g.out[2]};
  return holo_k_set_output(c, "ConvTranspose", 0, HOLO_DT_F32, g.nsp + 2, ys);
}

/* The input positions i of axis a whose output i * s - pb + t * d lies in
 * [0, out): [*lo, *hi) (empty when *lo >= *hi). */
static void ct_range(const ct_geom *g, uint32_t a, int64_t t, int64_t *lo, int64_t *hi) {
  int64_t base = t * g->d[a] - g->pb[a], s = g->s[a]; /* o = i * s + base */
  int64_t l = base >= 0 ? 0 : (-base + s - 1) / s;    /* smallest i with o >= 0 */
  int64_t h = g->out[a] - 1 - base;                   /* largest o - base */
  h = h < 0 ? 0 : h / s + 1;                          /* i < h keeps o < out */
  *lo = l;
  *hi = h < g->in[a] ? h : g->in[a];
}

typedef struct {
  const ct_geom *g;
  const float *cols, *B;
  float *Y; /* this image's output, all M planes */
  uint64_t grp;
} ct_job;

/* col2im of output plane mg of the job's group: taps in row-major order. */
static void ct_col2im(void *arg, uint32_t mg) {
  const ct_job *J = arg;
  const ct_geom *g = J->g;
  const int64_t ip = g->in[0] * g->in[1] * g->in[2], op = g->out[0] * g->out[1] * g->out[2];
  const uint64_t m = J->grp * g->Mg + mg;
  float *y = J->Y + m * (uint64_t)op;
  for (int64_t o = 0; o < op; o++)
    y[o] = 0.0f;
  const float *col = J->cols + (uint64_t)mg * (uint64_t)(g->k[0] * g->k[1] * g->k[2]) * (uint64_t)ip;
  for (int64_t t0 = 0; t0 < g->k[0]; t0++)
    for (int64_t t1 = 0; t1 < g->k[1]; t1++)
      for (int64_t t2 = 0; t2 < g->k[2]; t2++, col += ip) {
        int64_t l0, h0, l1, h1, l2, h2;
        ct_range(g, 0, t0, &l0, &h0);
        ct_range(g, 1, t1, &l1, &h1);
        ct_range(g, 2, t2, &l2, &h2);
        const int64_t b0 = t0 * g->d[0] - g->pb[0], b1 = t1 * g->d[1] - g->pb[1],
                      b2 = t2 * g->d[2] - g->pb[2];
        for (int64_t i0 = l0; i0 < h0; i0++)
          for (int64_t i1 = l1; i1 < h1; i1++) {
            const float *src = col + (i0 * g->in[1] + i1) * g->in[2];
            float *row = y + ((i0 * g->s[0] + b0) * g->out[1] + i1 * g->s[1] + b1) * g->out[2];
            for (int64_t i2 = l2; i2 < h2; i2++)
              row[i2 * g->s[2] + b2] += src[i2];
          }
      }
  if (J->B)
    for (int64_t o = 0; o < op; o++)
      y[o] += J->B[m];
}

holo_status holo_k_convtranspose_run(holo_kernel_call *c) {
  ct_geom g;
  if (ct_geometry(c, &g)) return HOLO_ERR_KERNEL;
  const size_t ip = (size_t)(g.in[0] * g.in[1] * g.in[2]), taps = (size_t)(g.k[0] * g.k[1] * g.k[2]);
  const size_t rows = (size_t)g.Mg * taps, op = (size_t)(g.out[0] * g.out[1] * g.out[2]);
  const float *X = c->inputs[0].data, *W = c->inputs[1].data;
  float *Y = c->outputs[0].data, *cols = c->workspace;
  if (g.Mg > UINT32_MAX) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: too many output channels");
  for (uint64_t n = 0; n < g.N; n++)
    for (uint64_t grp = 0; grp < g.G; grp++) {
      holo_gemm q = {0};
      q.M = rows, q.N = ip, q.K = (size_t)g.Cg;
      q.A = W + grp * g.Cg * rows, q.rsa = 1, q.csa = rows; /* A(r, cg) = W[cg][r]: W_g transposed */
      q.B = X + (n * g.C + grp * g.Cg) * ip, q.ldb = ip;
      q.C = cols, q.ldc = ip;
      if (rows && ip) holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
      ct_job J = {&g, cols, holo_k_absent(c, 2) ? 0 : c->inputs[2].data, Y + n * g.M * op, grp};
      if (c->parallel_for && g.Mg > 1)
        c->parallel_for(c->pctx, (uint32_t)g.Mg, ct_col2im, &J);
      else
        for (uint32_t mg = 0; mg < (uint32_t)g.Mg; mg++)
          ct_col2im(&J, mg);
    }
  return HOLO_OK;
}
