/* RoiAlign (opsets 10, 16): X f32 [N, C, H, W], rois f32 [R, 4] as
 * (x1, y1, x2, y2), batch_indices i64 [R] in [0, N); Y f32 [R, C,
 * output_height, output_width]. Attributes: mode "avg" | "max",
 * output_height, output_width (>= 1), sampling_ratio (>= 0; 0 = adaptive,
 * ceil(roi size / output size) samples per bin and axis), spatial_scale,
 * coordinate_transformation_mode "half_pixel" (opset 16's default: roi
 * corners shifted by -0.5, sizes as they are) or "output_half_pixel"
 * (opset 10: no shift, sizes at least 1).
 *
 * The arithmetic is onnxruntime's roialign.cc, float for float: each
 * sample's bilinear weights, its sum w1*v1 + w2*v2 + w3*v3 + w4*v4 added
 * in (iy, ix) order and divided by the sample count (avg). In max mode
 * onnxruntime takes the max of the four weighted corner values of every
 * sample, and then the max over the samples -- not the max of the
 * interpolated values the spec describes; this is what it computes, so
 * the kernel does too (docs/converter.md, "Where the spec leaves behaviour open"). A sample outside
 * [-1, H] x [-1, W] has weights 0 at position 0 (0 * X[0], which is NaN
 * for a non-finite X[0], as in onnxruntime). A bin with no sample (a
 * negative or zero adaptive grid) divides by max(count, 1). A non-finite
 * roi is refused, as is a batch index out of range (onnxruntime reads out
 * of bounds there). */
#include "common/check.h"
#include "common/fp-contract.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

#define RA "RoiAlign"
/* Samples per bin and axis beyond this are refused, not looped over. */
#define RA_MAX_GRID ((int64_t)1 << 16)

typedef struct {
  size_t rois, ch, h, w, oh, ow;
  int64_t sampling;
  float scale;
  bool half_pixel, max_mode;
} ra_plan;

/* One roi's sampling: start, bin size and grid per axis. */
typedef struct {
  float y0, x0, bh, bw;
  int64_t gh, gw;
} ra_roi;

static bool str_is(const holo_attr *a, const char *s) {
  uint32_t i = 0;
  for (; i < a->count; i++)
    if (s[i] == 0 || a->payload[i] != (uint8_t)s[i]) return false;
  return s[i] == 0;
}

static holo_status ra_attrs(holo_kernel_call *c, ra_plan *p) {
  const holo_attr *m = holo_attr_find(c, "mode"), *t = holo_attr_find(c, "coordinate_transformation_mode");
  if (m && (m->type != HOLO_ATTR_STRING || !(str_is(m, "avg") || str_is(m, "max"))))
    return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": mode must be 'avg' or 'max'");
  if (t && (t->type != HOLO_ATTR_STRING || !(str_is(t, "half_pixel") || str_is(t, "output_half_pixel"))))
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       RA ": coordinate_transformation_mode must be 'half_pixel' or 'output_half_pixel'");
  p->max_mode = m && str_is(m, "max");
  p->half_pixel = !t || str_is(t, "half_pixel");
  int64_t oh = holo_attr_int(c, "output_height", 1), ow = holo_attr_int(c, "output_width", 1);
  p->sampling = holo_attr_int(c, "sampling_ratio", 0);
  p->scale = holo_attr_float(c, "spatial_scale", 1.0f);
  if (oh < 1 || ow < 1 || oh > (int64_t)1 << 31 || ow > (int64_t)1 << 31)
    return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": output_height and output_width must be in [1, 2^31]");
  if (p->sampling < 0 || p->sampling > (int64_t)1 << 31)
    return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": sampling_ratio must be in [0, 2^31]");
  p->oh = (size_t)oh, p->ow = (size_t)ow;
  return HOLO_OK;
}

static holo_status ra_operands(holo_kernel_call *c, ra_plan *p) {
  holo_status st;
  if ((st = holo_k_check_input(c, RA, 0, HOLO_DT_F32)) || (st = holo_k_check_input(c, RA, 1, HOLO_DT_F32)) ||
      (st = holo_k_check_input(c, RA, 2, HOLO_DT_I64)))
    return st;
  const holo_tensor *x = &c->inputs[0], *r = &c->inputs[1], *bi = &c->inputs[2];
  if (x->rank != 4) return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": X must be 4-D, it has rank %u", x->rank);
  if (r->rank != 2 || r->shape[1] != 4) return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": rois must be [R, 4]");
  if (bi->rank != 1 || bi->shape[0] != r->shape[0])
    return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": batch_indices must be [R], R the rois' count");
  p->rois = (size_t)r->shape[0], p->ch = (size_t)x->shape[1], p->h = (size_t)x->shape[2],
  p->w = (size_t)x->shape[3];
  const int64_t *b = bi->data;
  for (size_t i = 0; i < p->rois; i++)
    if (b[i] < 0 || b[i] >= x->shape[0])
      return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": batch index %lld (roi %zu) is outside [0, %lld)",
                         (long long)b[i], i, (long long)x->shape[0]);
  return HOLO_OK;
}

/* onnxruntime's per-roi geometry; false for a non-finite or huge grid. */
static bool ra_roi_of(const ra_plan *p, const float *q, ra_roi *o) {
  float off = p->half_pixel ? 0.5f : 0.0f;
  float x0 = q[0] * p->scale - off, y0 = q[1] * p->scale - off;
  float x1 = q[2] * p->scale - off, y1 = q[3] * p->scale - off;
  float rw = x1 - x0, rh = y1 - y0;
  if (!p->half_pixel) {
    rw = rw < 1.0f ? 1.0f : rw;
    rh = rh < 1.0f ? 1.0f : rh;
  }
  o->x0 = x0, o->y0 = y0;
  o->bh = rh / (float)p->oh, o->bw = rw / (float)p->ow;
  if (!(o->bh == o->bh && o->bw == o->bw && __builtin_fabsf(o->bh) < 1e12f && __builtin_fabsf(o->bw) < 1e12f))
    return false;
  if (!(x0 - x0 == 0.0f && y0 - y0 == 0.0f)) return false;
  o->gh = p->sampling > 0 ? p->sampling : (int64_t)holo_ceil((double)(rh / (float)p->oh));
  o->gw = p->sampling > 0 ? p->sampling : (int64_t)holo_ceil((double)(rw / (float)p->ow));
  return o->gh <= RA_MAX_GRID && o->gw <= RA_MAX_GRID;
}

static holo_status ra_plan_of(holo_kernel_call *c, ra_plan *p, uint64_t *samples) {
  holo_status st;
  if ((st = ra_attrs(c, p)) || (st = ra_operands(c, p))) return st;
  const float *r = c->inputs[1].data;
  *samples = 0;
  for (size_t i = 0; i < p->rois; i++) {
    ra_roi o;
    if (!ra_roi_of(p, r + 4 * i, &o))
      return holo_k_fail(c, HOLO_ERR_KERNEL, RA ": roi %zu is not finite (or its sampling grid is too large)",
                         i);
    uint64_t g = o.gh > 0 && o.gw > 0 ? holo_k_mul_sat((uint64_t)o.gh, (uint64_t)o.gw) : 0;
    *samples = *samples + g < *samples ? UINT64_MAX : *samples + g;
  }
  return HOLO_OK;
}

holo_status holo_k_roialign_infer(holo_kernel_call *c) {
  holo_status st;
  ra_plan p;
  uint64_t samples;
  if ((st = holo_k_infer_begin(c, RA, 3, 3, 1)) || (st = ra_plan_of(c, &p, &samples))) return st;
  int64_t ys[4] = {(int64_t)p.rois, (int64_t)p.ch, (int64_t)p.oh, (int64_t)p.ow};
  if ((st = holo_k_set_output(c, RA, 0, HOLO_DT_F32, 4, ys))) return st;
  /* every sample of every bin, four taps per channel */
  uint64_t f[4] = {samples, p.oh * p.ow, p.ch, 4};
  c->work = holo_k_work(4, f);
  return HOLO_OK;
}

static inline float f_max(float a, float b) { return a < b ? b : a; } /* std::max */

/* Sample (iy, ix) of bin (ph, pw) into every channel's output element. */
static void ra_sample(const ra_plan *p, const ra_roi *o, const float *x, float *y, size_t ph, size_t pw,
                      int64_t iy, int64_t ix) {
  float yy, xx;
  yy = o->y0 + (float)ph * o->bh + ((float)iy + 0.5f) * o->bh / (float)o->gh;
  xx = o->x0 + (float)pw * o->bw + ((float)ix + 0.5f) * o->bw / (float)o->gw;
  size_t p1 = 0, p2 = 0, p3 = 0, p4 = 0;
  float w1 = 0, w2 = 0, w3 = 0, w4 = 0;
  const int64_t H = (int64_t)p->h, W = (int64_t)p->w;
  if (!(yy < -1.0f || yy > (float)H || xx < -1.0f || xx > (float)W)) {
    yy = yy <= 0 ? 0 : yy, xx = xx <= 0 ? 0 : xx;
    int64_t yl = (int64_t)yy, xl = (int64_t)xx, yh, xh;
    if (yl >= H - 1)
      yh = yl = H - 1, yy = (float)yl;
    else
      yh = yl + 1;
    if (xl >= W - 1)
      xh = xl = W - 1, xx = (float)xl;
    else
      xh = xl + 1;
    float ly = yy - (float)yl, lx = xx - (float)xl, hy = 1.0f - ly, hx = 1.0f - lx;
    w1 = hy * hx, w2 = hy * lx, w3 = ly * hx, w4 = ly * lx;
    p1 = (size_t)(yl * W + xl), p2 = (size_t)(yl * W + xh), p3 = (size_t)(yh * W + xl),
    p4 = (size_t)(yh * W + xh);
  }
  const size_t plane = p->h * p->w, bins = p->oh * p->ow;
  const bool first = iy == 0 && ix == 0;
  for (size_t ch = 0; ch < p->ch; ch++) {
    const float *d = x + ch * plane;
    float *out = y + ch * bins + ph * p->ow + pw;
    if (p->max_mode) {
      float v = f_max(f_max(f_max(w1 * d[p1], w2 * d[p2]), w3 * d[p3]), w4 * d[p4]);
      *out = first ? v : f_max(*out, v);
    } else
      *out += w1 * d[p1] + w2 * d[p2] + w3 * d[p3] + w4 * d[p4];
  }
}

holo_status holo_k_roialign_run(holo_kernel_call *c) {
  ra_plan p;
  uint64_t samples;
  if (ra_plan_of(c, &p, &samples)) return HOLO_ERR_KERNEL; /* infer accepted these operands */
  const float *x = c->inputs[0].data, *r = c->inputs[1].data;
  const int64_t *bi = c->inputs[2].data;
  float *y = c->outputs[0].data;
  const size_t per_roi = p.ch * p.oh * p.ow, plane = p.h * p.w;
  for (size_t i = 0; i < p.rois * per_roi; i++)
    y[i] = 0.0f;
  for (size_t n = 0; n < p.rois; n++) {
    ra_roi o;
    ra_roi_of(&p, r + 4 * n, &o);
    const float *xb = x + (size_t)bi[n] * p.ch * plane;
    float *yn = y + n * per_roi;
    for (size_t ph = 0; ph < p.oh; ph++)
      for (size_t pw = 0; pw < p.ow; pw++)
        for (int64_t iy = 0; iy < o.gh; iy++)
          for (int64_t ix = 0; ix < o.gw; ix++)
            ra_sample(&p, &o, xb, yn, ph, pw, iy, ix);
    if (p.max_mode) continue;
    int64_t cnt = o.gh * o.gw;
    float div = (float)(cnt < 1 ? 1 : cnt);
    for (size_t i = 0; i < per_roi; i++)
      yn[i] /= div;
  }
  return HOLO_OK;
}
