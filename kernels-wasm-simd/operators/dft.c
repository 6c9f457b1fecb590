/* DFT (opsets 17, 20) and STFT (opset 17) on the direct transform
 * (microkernels/dft.h): every output bin a double sum over the signal,
 * rounded once to the input's dtype (f32, f64, f16, bf16).
 *
 * DFT: x [..., n, ..., c] with c = 1 (real) or 2 (complex); the signal
 * axis is input 2 when present (opset 20), else the `axis` attribute (the
 * converter writes opset 20's default -2 there), normalized from [-r, -2] or
 * [0, r - 2]. dft_length (input 1, default n) is the transform length N:
 * a shorter signal is zero-padded, a longer one truncated. inverse
 * conjugates the twiddles and scales by 1/N. onesided keeps the bins
 * 0 .. floor(N/2); it is refused for a complex input, whose spectrum has no
 * symmetry to make the other half redundant (the spec: "not possible"), and
 * with inverse (onnxruntime refuses a real input there and reads a complex
 * one as a half spectrum). STFT of a complex signal follows the definition
 * (checked against a float64 sum); onnxruntime-node gives other values.
 *
 * STFT: signal [batch, L, c]; frame_step (input 1); window (input 2,
 * [W]) and/or frame_length (input 3; must equal W when both are given);
 * frames = (L - frame_length) / frame_step + 1, frame f the samples from
 * f * frame_step, multiplied by the window, transformed at N = frame_length.
 * Output [batch, frames, bins, 2]; onesided (default 1) as for DFT. */
#include "microkernels/dft.h"
#include "common/attrs.h"
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "microkernels/cast.h"
#include "operators/operators.h"

/* A transform length beyond this is refused: the twiddle table is 16 N bytes. */
#define DFT_MAX_N ((int64_t)1 << 24)

/* The geometry both ops share: signals of n_in samples, each transformed at N. */
typedef struct {
  size_t outer, n_in, inner, comps; /* x as [outer, n_in, inner, comps] */
  size_t N, K;                      /* transform length, bins kept */
  bool inverse;
} dft_geom;

static bool dft_float(uint32_t dt) {
  return dt == HOLO_DT_F32 || dt == HOLO_DT_F64 || dt == HOLO_DT_F16 || dt == HOLO_DT_BF16;
}

/* An optional scalar integer input, or dflt when absent. */
static holo_status dft_scalar(holo_kernel_call *c, const char *op, uint32_t idx, const char *what,
                              int64_t dflt, int64_t *v) {
  if (holo_k_absent(c, idx)) {
    *v = dflt;
    return HOLO_OK;
  }
  uint32_t n;
  holo_status st = holo_k_read_ints(c, op, idx, what, v, 1, &n);
  if (st) return st;
  if (n != 1 || c->inputs[idx].rank > 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s must be a scalar", op, what);
  return HOLO_OK;
}

/* Bins kept and the work estimate; the workspace (twiddles, one signal, one spectrum). */
static holo_status dft_sizes(holo_kernel_call *c, const char *op, dft_geom *g, int64_t N, bool onesided) {
  if (N < 1 || N > DFT_MAX_N)
    return holo_k_fail(c, N < 1 ? HOLO_ERR_KERNEL : HOLO_ERR_LIMIT,
                       "%s: transform length %lld is outside [1, 2^24]", op, (long long)N);
  if (onesided && g->comps == 2)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: onesided output of a complex input is not defined", op);
  g->N = (size_t)N;
  g->K = onesided ? g->N / 2 + 1 : g->N;
  size_t n = g->n_in < g->N ? g->n_in : g->N;
  uint64_t f[4] = {g->outer, g->inner, g->K, n ? n : 1};
  c->work = holo_k_work(4, f);
  c->workspace_bytes = (2 * g->N + 2 * n + 2 * g->K) * sizeof(double);
  return HOLO_OK;
}

static holo_status dft_check(holo_kernel_call *c, dft_geom *g, uint32_t *axis) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "DFT", 1, 3, 1)) || (st = holo_k_check_input(c, "DFT", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (!dft_float(x->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "DFT: dtype %s is not supported",
                       holo_k_dtype_name(x->dtype));
  if (x->rank < 2 || (x->shape[x->rank - 1] != 1 && x->shape[x->rank - 1] != 2))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "DFT: the input must be [..., 1] (real) or [..., 2] (complex)");
  int64_t a, N;
  bool inv, one;
  if ((st = dft_scalar(c, "DFT", 2, "axis", holo_attr_int(c, "axis", 1), &a))) return st;
  if (a < 0) a += x->rank;
  if (a < 0 || a > (int64_t)x->rank - 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "DFT: axis is outside [-r, -2] or [0, r - 2] for rank %u",
                       x->rank);
  *axis = (uint32_t)a;
  if ((st = holo_k_flag(c, "DFT", "inverse", 0, &inv)) || (st = holo_k_flag(c, "DFT", "onesided", 0, &one)))
    return st;
  /* a onesided inverse reads a half spectrum (complex to real), whose
   * other half the forms accepted here leave undefined */
  if (inv && one) return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "DFT: inverse with onesided is not supported");
  g->outer = holo_k_prod(x->shape, 0, *axis);
  g->n_in = (size_t)x->shape[*axis];
  g->inner = holo_k_prod(x->shape, *axis + 1, x->rank - 1);
  g->comps = (size_t)x->shape[x->rank - 1];
  g->inverse = inv;
  if ((st = dft_scalar(c, "DFT", 1, "dft_length", (int64_t)g->n_in, &N))) return st;
  return dft_sizes(c, "DFT", g, N, one);
}

/* One signal through the transform: load (times the window, when given),
 * transform, scale, store. xs/ys: element strides of the signal and the
 * spectrum; x0/y0: their first elements. */
static void dft_one(const dft_geom *g, double *ws, const holo_tensor *xt, size_t x0, size_t xs,
                    const holo_tensor *wt, holo_tensor *yt, size_t y0, size_t ys) {
  size_t n = g->n_in < g->N ? g->n_in : g->N;
  double *tw = ws, *x = ws + 2 * g->N, *y = x + 2 * n;
  for (size_t j = 0; j < n; j++) {
    double w = wt ? holo_k_load_f64(wt->data, wt->dtype, j) : 1.0;
    x[2 * j] = holo_k_load_f64(xt->data, xt->dtype, x0 + j * xs) * w;
    x[2 * j + 1] = g->comps == 2 ? holo_k_load_f64(xt->data, xt->dtype, x0 + j * xs + 1) * w : 0.0;
  }
  holo_ukernel_dft_f64__scalar(n, g->K, g->N, tw, x, y, g->inverse);
  const size_t es = holo_dtype_size(yt->dtype);
  uint8_t *out = yt->data;
  for (size_t k = 0; k < g->K; k++) {
    double v[2] = {y[2 * k], y[2 * k + 1]};
    if (g->inverse) v[0] /= (double)g->N, v[1] /= (double)g->N;
    holo_ukernel_cast_numeric__scalar(HOLO_DT_F64, yt->dtype, 2, v, out + (y0 + k * ys) * es);
  }
}

holo_status holo_k_dft_infer(holo_kernel_call *c) {
  holo_status st;
  dft_geom g;
  uint32_t axis;
  holo_k_infer_reset(c);
  if ((st = dft_check(c, &g, &axis))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t shape[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++)
    shape[i] = x->shape[i];
  shape[axis] = (int64_t)g.K;
  shape[x->rank - 1] = 2;
  return holo_k_set_output(c, "DFT", 0, x->dtype, x->rank, shape);
}

holo_status holo_k_dft_run(holo_kernel_call *c) {
  dft_geom g;
  uint32_t axis;
  if (dft_check(c, &g, &axis)) return HOLO_ERR_KERNEL;
  double *ws = c->workspace;
  holo_ukernel_dft_twiddles_f64__scalar(g.N, ws);
  for (size_t o = 0; o < g.outer; o++)
    for (size_t r = 0; r < g.inner; r++)
      dft_one(&g, ws, &c->inputs[0], (o * g.n_in * g.inner + r) * g.comps, g.inner * g.comps, 0,
              &c->outputs[0], (o * g.K * g.inner + r) * 2, g.inner * 2);
  return HOLO_OK;
}

/* STFT's operands: g describes one frame (n_in = N = frame_length). */
static holo_status stft_check(holo_kernel_call *c, dft_geom *g, size_t *frames, size_t *step) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "STFT", 2, 4, 1)) || (st = holo_k_check_input(c, "STFT", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0], *w = holo_k_absent(c, 2) ? 0 : &c->inputs[2];
  if (!dft_float(x->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "STFT: dtype %s is not supported",
                       holo_k_dtype_name(x->dtype));
  if (x->rank != 3 || (x->shape[2] != 1 && x->shape[2] != 2))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "STFT: the signal must be [batch, length, 1 or 2]");
  if (w && ((st = holo_k_check_input(c, "STFT", 2, 0)) || !dft_float(w->dtype) || w->rank != 1))
    return st ? st : holo_k_fail(c, HOLO_ERR_KERNEL, "STFT: the window must be a 1-D float tensor");
  int64_t s, fl;
  bool one;
  if ((st = dft_scalar(c, "STFT", 1, "frame_step", 0, &s))) return st;
  if ((st = dft_scalar(c, "STFT", 3, "frame_length", w ? w->shape[0] : -1, &fl))) return st;
  if (fl < 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "STFT: needs a window or a frame_length");
  if (w && fl != w->shape[0])
    return holo_k_fail(c, HOLO_ERR_KERNEL, "STFT: frame_length %lld differs from the window's %lld",
                       (long long)fl, (long long)w->shape[0]);
  if (s < 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "STFT: frame_step must be positive");
  if (fl < 1 || fl > x->shape[1])
    return holo_k_fail(c, HOLO_ERR_KERNEL, "STFT: frame_length %lld is outside [1, signal length %lld]",
                       (long long)fl, (long long)x->shape[1]);
  if ((st = holo_k_flag(c, "STFT", "onesided", 1, &one))) return st;
  *frames = (size_t)((x->shape[1] - fl) / s + 1);
  *step = (size_t)s;
  g->n_in = (size_t)fl;
  g->comps = (size_t)x->shape[2];
  g->inverse = false;
  g->outer = (size_t)x->shape[0] * *frames; /* for the work estimate */
  g->inner = 1;
  return dft_sizes(c, "STFT", g, fl, one);
}

holo_status holo_k_stft_infer(holo_kernel_call *c) {
  holo_status st;
  dft_geom g;
  size_t frames, step;
  holo_k_infer_reset(c);
  if ((st = stft_check(c, &g, &frames, &step))) return st;
  int64_t shape[4] = {c->inputs[0].shape[0], (int64_t)frames, (int64_t)g.K, 2};
  return holo_k_set_output(c, "STFT", 0, c->inputs[0].dtype, 4, shape);
}

holo_status holo_k_stft_run(holo_kernel_call *c) {
  dft_geom g;
  size_t frames, step;
  if (stft_check(c, &g, &frames, &step)) return HOLO_ERR_KERNEL;
  const holo_tensor *x = &c->inputs[0], *w = holo_k_absent(c, 2) ? 0 : &c->inputs[2];
  double *ws = c->workspace;
  holo_ukernel_dft_twiddles_f64__scalar(g.N, ws);
  const size_t L = (size_t)x->shape[1];
  for (size_t b = 0; b < (size_t)x->shape[0]; b++)
    for (size_t f = 0; f < frames; f++)
      dft_one(&g, ws, x, (b * L + f * step) * g.comps, g.comps, w, &c->outputs[0], (b * frames + f) * g.K * 2,
              2);
  return HOLO_OK;
}
