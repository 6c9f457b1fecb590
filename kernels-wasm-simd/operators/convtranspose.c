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
 * output plane, so no byte depends on the thread count. X_g is packed into
 * the core's 8-column panels per call (and, where the SIMD core reads one,
 * W_g^T into its 4-row strips): the core's order contract does not depend
 * on packing, so the bytes are the unpacked product's, while the tiles read
 * both operands contiguously and the last N % 8 columns run as a padded
 * panel instead of one strided dot product per element (autoencoder's
 * [144 x 32] x [32 x 49]: docs/benchmarks.md).
 * Optional `holo_activation` (products.h: Relu, Clip, or an elementwise
 * activation, fused by the converter) runs on each output plane after its
 * bias, the activation kernel's own operation on the same value: the bytes
 * of ConvTranspose then the activation, one pass and one dispatch fewer
 * (autoencoder's Relu and Sigmoid).
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

/* The workspace after the cols: X_g in the core's panels, then W_g^T in its
 * strips where this build's core reads them (0 floats where it does not).
 * Sizes rounded to 16 floats so every part starts 64-byte aligned; cols
 * (ct_cols_floats) bounds them: the panels are at most 8 columns past the
 * plane over Cg rows, the strips 3 rows past Mg * taps. */
typedef struct {
  size_t cols, pb, pa;
} ct_ws;

static size_t ct_round16(size_t n) { return (n + 15) / 16 * 16; }

static bool ct_workspace(const ct_geom *g, ct_ws *w) {
  if (!ct_cols_floats(g, &w->cols)) return false;
  const uint64_t ip = (uint64_t)(g->in[0] * g->in[1] * g->in[2]),
                 taps = (uint64_t)(g->k[0] * g->k[1] * g->k[2]);
  const uint64_t rows = g->Mg * taps;
  uint64_t f[2] = {g->Cg, ip + HOLO_GEMM_NR}, h[2] = {g->Cg, rows + 3};
  uint64_t pb = holo_k_work(2, f), pa = holo_k_work(2, h);
  if (pb > SIZE_MAX / 64 || pa > SIZE_MAX / 64 || w->cols > SIZE_MAX / 64) return false;
  w->cols = ct_round16(w->cols);
  w->pb = ct_round16(holo_gemm_packed_floats((size_t)g->Cg, (size_t)ip));
  w->pa = holo_gemm_wants_packed_a((size_t)rows, (size_t)ip, (size_t)g->Cg)
              ? ct_round16(holo_gemm_packed_a_floats((size_t)rows, (size_t)g->Cg))
              : 0;
  return true;
}

holo_status holo_k_convtranspose_infer(holo_kernel_call *c) {
  holo_status st;
  ct_geom g;
  if ((st = holo_k_infer_begin(c, "ConvTranspose", 2, 3, 1))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++)
    if (!holo_k_absent(c, k) && (st = holo_k_check_input(c, "ConvTranspose", k, HOLO_DT_F32))) return st;
  if ((st = ct_geometry(c, &g))) return st;
  holo_gemm act = {0};
  if ((st = holo_k_gemm_act(c, "ConvTranspose", &act))) return st;
  uint64_t f[6] = {
      g.N, g.M, (uint64_t)(g.in[0] * g.in[1]), (uint64_t)g.in[2], g.Cg, (uint64_t)(g.k[0] * g.k[1] * g.k[2])};
  c->work = holo_k_work(6, f);
  ct_ws w;
  if (!ct_workspace(&g, &w)) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: geometry too large");
  c->workspace_bytes = (w.cols + w.pb + w.pa) * sizeof(float);
  int64_t ys[5] = {(int64_t)g.N, (int64_t)g.M, g.out[0], g.out[1], g.out[2]};
  return holo_k_set_output(c, "ConvTranspose", 0, HOLO_DT_F32, g.nsp + 2, ys);
}

/* One spatial axis of the geometry. */
typedef struct {
  int64_t in, out, k, s, d, pb;
} ct_axis;

/* Axis j of 3, the spatial axes right-aligned (size-1 axes first): the
 * innermost col2im loop then runs along the last real axis (with the
 * padding axis innermost, every element would be a pass of all three
 * loops). The taps' row-major order, and so each sum's order, is the same
 * whichever side the size-1 axes are on. */
static ct_axis ct_axis_at(const ct_geom *g, uint32_t j) {
  uint32_t pad = 3 - g->nsp;
  if (j < pad) return (ct_axis){1, 1, 1, 1, 1, 0};
  uint32_t a = j - pad;
  return (ct_axis){g->in[a], g->out[a], g->k[a], g->s[a], g->d[a], g->pb[a]};
}

/* The input positions i of axis x whose output i * s - pb + t * d lies in
 * [0, out): [*lo, *hi) (empty when *lo >= *hi); *base = t * d - pb. */
static void ct_range(const ct_axis *x, int64_t t, int64_t *lo, int64_t *hi, int64_t *base) {
  int64_t b = t * x->d - x->pb, s = x->s;    /* o = i * s + b */
  int64_t l = b >= 0 ? 0 : (-b + s - 1) / s; /* smallest i with o >= 0 */
  int64_t h = x->out - 1 - b;                /* largest o - b */
  h = h < 0 ? 0 : h / s + 1;                 /* i < h keeps o < out */
  *lo = l;
  *hi = h < x->in ? h : x->in;
  *base = b;
}

typedef struct {
  const ct_geom *g;
  const float *cols, *B;
  float *Y; /* this image's output, all M planes */
  uint64_t grp;
  const holo_gemm *act; /* the fused activation (no bias, no scale: holo_gemm_epi is only it) */
} ct_job;

/* Adds the column rows of one tap into plane y: the input rows [l0, h0) x
 * [l1, h1), each a run of n elements from src to every s2-th output. */
static void ct_tap(const ct_axis *A, const int64_t *l, const int64_t *h, const int64_t *b, const float *col,
                   float *y) {
  const size_t n = (size_t)(h[2] - l[2]), s2 = (size_t)A[2].s;
  for (int64_t i0 = l[0]; i0 < h[0]; i0++)
    for (int64_t i1 = l[1]; i1 < h[1]; i1++) {
      const float *src = col + (i0 * A[1].in + i1) * A[2].in + l[2];
      float *dst =
          y + ((i0 * A[0].s + b[0]) * A[1].out + i1 * A[1].s + b[1]) * A[2].out + l[2] * A[2].s + b[2];
      if (s2 == 1)
        for (size_t q = 0; q < n; q++)
          dst[q] += src[q];
      else
        for (size_t q = 0; q < n; q++)
          dst[q * s2] += src[q];
    }
}

/* col2im of output plane mg of the job's group: taps in row-major order. */
static void ct_col2im(void *arg, uint32_t mg) {
  const ct_job *J = arg;
  const ct_geom *g = J->g;
  const ct_axis A[3] = {ct_axis_at(g, 0), ct_axis_at(g, 1), ct_axis_at(g, 2)};
  const int64_t ip = A[0].in * A[1].in * A[2].in, op = A[0].out * A[1].out * A[2].out;
  const uint64_t m = J->grp * g->Mg + mg;
  float *y = J->Y + m * (uint64_t)op;
  for (int64_t o = 0; o < op; o++)
    y[o] = 0.0f;
  const float *col = J->cols + (uint64_t)mg * (uint64_t)(A[0].k * A[1].k * A[2].k) * (uint64_t)ip;
  int64_t l[3], h[3], b[3];
  for (int64_t t0 = 0; t0 < A[0].k; t0++)
    for (int64_t t1 = 0; t1 < A[1].k; t1++)
      for (int64_t t2 = 0; t2 < A[2].k; t2++, col += ip) {
        ct_range(&A[0], t0, &l[0], &h[0], &b[0]);
        ct_range(&A[1], t1, &l[1], &h[1], &b[1]);
        ct_range(&A[2], t2, &l[2], &h[2], &b[2]);
        if (l[2] < h[2]) ct_tap(A, l, h, b, col, y);
      }
  if (J->B)
    for (int64_t o = 0; o < op; o++)
      y[o] += J->B[m];
  const holo_gemm *a = J->act;
  if (a->relu || a->lo_on || a->hi_on)
    for (int64_t o = 0; o < op; o++)
      y[o] = holo_gemm_epi(a, 0, 0, y[o]);
  holo_gemm_act_apply(a, y, (size_t)op);
}

holo_status holo_k_convtranspose_run(holo_kernel_call *c) {
  ct_geom g;
  if (ct_geometry(c, &g)) return HOLO_ERR_KERNEL;
  const size_t ip = (size_t)(g.in[0] * g.in[1] * g.in[2]), taps = (size_t)(g.k[0] * g.k[1] * g.k[2]);
  const size_t rows = (size_t)g.Mg * taps, op = (size_t)(g.out[0] * g.out[1] * g.out[2]);
  const float *X = c->inputs[0].data, *W = c->inputs[1].data;
  float *Y = c->outputs[0].data, *cols = c->workspace;
  if (g.Mg > UINT32_MAX) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConvTranspose: too many output channels");
  ct_ws w;
  ct_workspace(&g, &w); /* infer checked it fits */
  holo_gemm act = {0};
  holo_k_gemm_act(c, "ConvTranspose", &act); /* infer checked it */
  float *pb = cols + w.cols, *pa = pb + w.pb;
  for (uint64_t n = 0; n < g.N; n++)
    for (uint64_t grp = 0; grp < g.G; grp++) {
      holo_gemm q = {0};
      q.M = rows, q.N = ip, q.K = (size_t)g.Cg;
      q.A = W + grp * g.Cg * rows, q.rsa = 1, q.csa = rows; /* A(r, cg) = W[cg][r]: W_g transposed */
      q.C = cols, q.ldc = ip;
      if (rows && ip && q.K) {
        holo_gemm_pack_b(pb, X + (n * g.C + grp * g.Cg) * ip, ip, 1, q.K, ip);
        q.Bp = pb;
        if (w.pa) holo_gemm_pack_a_par(&q, pa, c->parallel_for, c->pctx);
        holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
      } else if (rows && ip) {
        /* no input channels: every column value is the empty sum +0 */
        for (size_t r = 0; r < rows * ip; r++)
          cols[r] = 0.0f;
      }
      ct_job J = {&g, cols, holo_k_absent(c, 2) ? 0 : c->inputs[2].data, Y + n * g.M * op, grp, &act};
      if (c->parallel_for && g.Mg > 1)
        c->parallel_for(c->pctx, (uint32_t)g.Mg, ct_col2im, &J);
      else
        for (uint32_t mg = 0; mg < (uint32_t)g.Mg; mg++)
          ct_col2im(&J, mg);
    }
  return HOLO_OK;
}
