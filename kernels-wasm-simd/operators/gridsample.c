/* GridSample (opset 16): Y[n,c,h,w] samples X[n,c] (f32 or f64, 4-D) at
 * the point grid[n,h,w] = (x, y) (f32 or f64, [N, H_out, W_out, 2]), the
 * coordinates normalized to [-1, 1] over the width and height.
 * Attributes (all written out by the converter): mode bilinear, nearest
 * or bicubic; padding_mode zeros, border or reflection; align_corners 0/1.
 * The arithmetic is onnxruntime's (grid_sample.cc),
 * carried in double and rounded once to X's dtype:
 *  - denormalize: align_corners ? (g + 1) / 2 * (S - 1) : ((g + 1) * S - 1) / 2;
 *  - nearest rounds half to even (nearbyint);
 *  - each tap (pixel of the interpolation) outside the image reads 0
 *    (zeros), the clamped pixel (border) or the pixel its index reflects to
 *    in [lo, hi] (lo = 0, hi = S - 1 with align_corners, else -0.5 and
 *    S - 0.5); the point itself is not moved (onnxruntime 1.30; the ONNX
 *    reference clamps or reflects the point first, which gives the same
 *    bilinear and nearest results but other bicubic ones at the border);
 *  - bicubic uses the 4x4 taps around floor(x) with a = -0.75;
 *  - a coordinate beyond +-2^52 (Inf) counts as +-2^52; a NaN gives NaN.
 * Integer X (which the spec allows) and opset 20's N-D forms are refused. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

enum { GS_LINEAR, GS_NEAREST, GS_CUBIC };
enum { GS_ZEROS, GS_BORDER, GS_REFLECT };
#define GS_FAR 4503599627370496.0 /* 2^52 */

typedef struct {
  int mode, pad, align;
  int64_t h, w;         /* X's spatial dims */
  double lo[2], hi[2];  /* the valid range of x (index 0) and y (1) */
  const holo_tensor *x; /* the image plane is read by offset */
} gs_plan;

static holo_status gs_check(holo_kernel_call *c, gs_plan *p) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "GridSample", 2, 2, 1)) ||
      (st = holo_k_check_input(c, "GridSample", 0, 0)) || (st = holo_k_check_input(c, "GridSample", 1, 0)))
    return st;
  const holo_tensor *x = &c->inputs[0], *g = &c->inputs[1];
  if (x->dtype != HOLO_DT_F32 && x->dtype != HOLO_DT_F64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "GridSample: X dtype %s is not supported (f32, f64)",
                       holo_k_dtype_name(x->dtype));
  if (g->dtype != HOLO_DT_F32 && g->dtype != HOLO_DT_F64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "GridSample: grid dtype %s is not supported (f32, f64)",
                       holo_k_dtype_name(g->dtype));
  if (x->rank != 4) return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "GridSample: X must be 4-D [N, C, H, W]");
  if (g->rank != 4 || g->shape[0] != x->shape[0] || g->shape[3] != 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GridSample: grid must be [N, H_out, W_out, 2] with X's N");
  static const char *const modes[] = {"bilinear", "nearest", "bicubic"};
  static const char *const pads[] = {"zeros", "border", "reflection"};
  int mode = -1, pad = -1;
  for (int i = 0; i < 3; i++) {
    if (holo_attr_string_is(c, "mode", modes[i])) mode = i;
    if (holo_attr_string_is(c, "padding_mode", pads[i])) pad = i;
  }
  int64_t align = holo_attr_int(c, "align_corners", -1);
  if (mode < 0 || pad < 0 || (align != 0 && align != 1))
    return holo_k_fail(
        c, HOLO_ERR_KERNEL,
        "GridSample: mode (bilinear, nearest, bicubic), padding_mode (zeros, border, reflection) or "
        "align_corners (0, 1) is missing or unknown");
  if ((x->shape[2] == 0 || x->shape[3] == 0) && holo_k_prod(g->shape, 0, 3) && x->shape[1])
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GridSample: X has an empty image to sample");
  p->mode = mode;
  p->pad = pad;
  p->align = (int)align;
  p->h = x->shape[2];
  p->w = x->shape[3];
  p->x = x;
  const double sz[2] = {(double)p->w, (double)p->h};
  for (int i = 0; i < 2; i++) {
    p->lo[i] = align ? 0 : -0.5;
    p->hi[i] = align ? sz[i] - 1 : sz[i] - 0.5;
  }
  return HOLO_OK;
}

holo_status holo_k_gridsample_infer(holo_kernel_call *c) {
  holo_status st;
  gs_plan p;
  holo_k_infer_reset(c);
  if ((st = gs_check(c, &p))) return st;
  const holo_tensor *x = &c->inputs[0], *g = &c->inputs[1];
  int64_t ys[4] = {x->shape[0], x->shape[1], g->shape[1], g->shape[2]};
  uint64_t taps = p.mode == GS_CUBIC ? 16 : p.mode == GS_LINEAR ? 4 : 1;
  uint64_t f[2] = {(uint64_t)holo_k_prod(ys, 0, 4), taps};
  c->work = holo_k_work(2, f);
  return holo_k_set_output(c, "GridSample", 0, x->dtype, 4, ys);
}

/* onnxruntime's GsReflect: x folded into [lo, hi] by whole reflections. */
static double gs_reflect(double x, double lo, double hi) {
  double range = hi - lo;
  if (range <= 0) return lo;
  if (x < lo) {
    double d = lo - x;
    int64_t n = (int64_t)(d / range);
    double r = d - (double)n * range;
    return n % 2 == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    double d = x - hi;
    int64_t n = (int64_t)(d / range);
    double r = d - (double)n * range;
    return n % 2 == 0 ? hi - r : lo + r;
  }
  return x;
}

static int64_t gs_clamp(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* The pixel at (r, col) of the plane starting at element `base`, padded. */
static double gs_pixel(const gs_plan *p, size_t base, int64_t r, int64_t col) {
  if (p->pad == GS_ZEROS) {
    if (col < 0 || col >= p->w || r < 0 || r >= p->h) return 0;
  } else if (p->pad == GS_BORDER) {
    col = gs_clamp(col, 0, p->w - 1);
    r = gs_clamp(r, 0, p->h - 1);
  } else {
    col = gs_clamp((int64_t)gs_reflect((double)col, p->lo[0], p->hi[0]), 0, p->w - 1);
    r = gs_clamp((int64_t)gs_reflect((double)r, p->lo[1], p->hi[1]), 0, p->h - 1);
  }
  return holo_k_load_f64(p->x->data, p->x->dtype, base + (size_t)(r * p->w + col));
}

static void gs_cubic_coeffs(double t, double k[4]) {
  const double a = -0.75;
  t = t < 0 ? -t : t;
  k[0] = ((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a;
  k[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  k[2] = ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1;
  k[3] = ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a;
}

static double gs_sample(const gs_plan *p, size_t base, double x, double y) {
  if (p->mode == GS_NEAREST) return gs_pixel(p, base, (int64_t)y, (int64_t)x);
  double x0 = holo_floor(x), y0 = holo_floor(y);
  int64_t xi = (int64_t)x0, yi = (int64_t)y0;
  if (p->mode == GS_LINEAR) {
    double dx1 = x - x0, dx2 = x0 + 1 - x, dy1 = y - y0, dy2 = y0 + 1 - y;
    double p11 = gs_pixel(p, base, yi, xi), p12 = gs_pixel(p, base, yi, xi + 1);
    double p21 = gs_pixel(p, base, yi + 1, xi), p22 = gs_pixel(p, base, yi + 1, xi + 1);
    return dy2 * (dx2 * p11 + dx1 * p12) + dy1 * (dx2 * p21 + dx1 * p22);
  }
  double kx[4], ky[4], v = 0;
  gs_cubic_coeffs(x - x0, kx);
  gs_cubic_coeffs(y - y0, ky);
  for (int i = 0; i < 4; i++) {
    double row = 0;
    for (int j = 0; j < 4; j++)
      row += kx[j] * gs_pixel(p, base, yi - 1 + i, xi - 1 + j);
    v += ky[i] * row;
  }
  return v;
}

/* The grid point (gx, gy) as pixel coordinates (rounded for nearest). */
static void gs_point(const gs_plan *p, double gx, double gy, double *x, double *y) {
  const double sz[2] = {(double)p->w, (double)p->h};
  double v[2] = {gx, gy};
  for (int i = 0; i < 2; i++) {
    v[i] = p->align ? (v[i] + 1) / 2 * (sz[i] - 1) : ((v[i] + 1) * sz[i] - 1) / 2;
    /* far outside, every tap is padding: a bound keeps the integer casts defined (Inf included) */
    v[i] = v[i] < -GS_FAR ? -GS_FAR : v[i] > GS_FAR ? GS_FAR : v[i];
    if (p->mode == GS_NEAREST) v[i] = holo_rint(v[i]);
  }
  *x = v[0];
  *y = v[1];
}

holo_status holo_k_gridsample_run(holo_kernel_call *c) {
  gs_plan p;
  if (gs_check(c, &p)) return HOLO_ERR_KERNEL;
  const holo_tensor *g = &c->inputs[1];
  holo_tensor *yt = &c->outputs[0];
  const int64_t N = yt->shape[0], C = yt->shape[1], HO = yt->shape[2], WO = yt->shape[3];
  const size_t plane = (size_t)(p.h * p.w), out_plane = (size_t)(HO * WO);
  for (int64_t n = 0; n < N; n++)
    for (size_t o = 0; o < out_plane; o++) {
      size_t gi = ((size_t)n * out_plane + o) * 2;
      double x, y;
      gs_point(&p, holo_k_load_f64(g->data, g->dtype, gi), holo_k_load_f64(g->data, g->dtype, gi + 1), &x,
               &y);
      bool nan = x != x || y != y;
      for (int64_t ch = 0; ch < C; ch++) {
        size_t base = (size_t)(n * C + ch) * plane, yi = (size_t)(n * C + ch) * out_plane + o;
        double v = nan ? x + y : gs_sample(&p, base, x, y);
        if (yt->dtype == HOLO_DT_F32)
          ((float *)yt->data)[yi] = (float)v;
        else
          ((double *)yt->data)[yi] = v;
      }
    }
  return HOLO_OK;
}
