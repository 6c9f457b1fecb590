/* Resize (opset 11-18 in its opset-18 form: X, roi, scales, sizes; the
 * converter maps Resize-10 and Upsample onto it), f32, any rank.
 *
 * Each output coordinate of a resized axis maps to an input coordinate by
 * coordinate_transformation_mode, then to taps on that axis: 1 (nearest, by
 * nearest_mode), 2 (linear) or 4 (cubic, cubic_coeff_a, exclude_outside),
 * indices clamped to the axis (edge padding, as the ONNX reference pads);
 * an output element is the sum over the product of its axes' taps, in
 * double, rounded once to f32 (except a linear resize of the two
 * innermost axes of a rank-2/4 input, which runs in onnxruntime's f32
 * arithmetic: operators/resize-bilinear.c, decision 52).
 * tf_crop_and_resize reads roi and writes extrapolation_value where the
 * coordinate leaves the input. An axis whose
 * size and scale are unchanged is copied (one tap), as onnxruntime does:
 * its neighbours never enter a sum with weight 0 (0 * inf would be NaN).
 * The transforms use the resized length in * scale, not floored, as the
 * ONNX reference does (onnxruntime uses the floored size: the two differ
 * for align_corners / pytorch_half_pixel at a fractional in * scale,
 * docs/converter.md, "Conformance").
 *
 * The taps are tables built in the workspace (operators/resize-taps.c);
 * this file validates, infers the output shape and walks the output
 * (by planes when only the two innermost axes have several taps,
 * operators/resize-planes.c, the same bytes).
 * antialias = 1 (linear, cubic) widens an axis's filter where it is
 * downsampled: its taps are that axis's window (operators/resize-taps.c),
 * the same walks sum them (upsampling is the plain interpolation, as the
 * spec's stretch factor max(1, 1 / scale) says); nearest has no filter and
 * ignores it. keep_aspect_ratio_policy not_larger / not_smaller with sizes:
 * aspect_policy. Refused: dtypes other than f32 (the converter runs a uint8
 * antialiased Resize in f32, compiler/onnx-ops-resize.js). */
#include "operators/resize.h"
#include "common/check.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "operators/operators.h"

/* keep_aspect_ratio_policy not_larger / not_smaller: one scale for every
 * axis in axes, the least / greatest of sizes[i] / in, and the output size
 * round(scale * in), in onnxruntime's f32 arithmetic (the f32 quotient,
 * the f32 product, rounded half away from zero; the spec's reference rounds
 * in double the same way up to the f32 steps). The transforms then take
 * that scale, as the double sizes[i] / in of the axis that gave it (as
 * stretch's sizes do: the reference's quotient, whose ties a nearest
 * rounding meets as onnxruntime's f32 does, where the f32 scale carried
 * in double would move them), and the output size as the resized length. */
static holo_status aspect_policy(holo_kernel_call *c, holo_resize_geom *g, const int64_t *sizes) {
  float p = 0;
  double scale = 1;
  for (uint32_t i = 0; i < g->n_axes; i++) {
    uint32_t d = g->axis_of[i];
    if (sizes[i] < 0 || sizes[i] > ((int64_t)1 << 40))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: size %lld out of range", (long long)sizes[i]);
    float s = g->in[d] ? (float)sizes[i] / (float)g->in[d] : 1.0f;
    if (i == 0 || (g->policy == HOLO_RESIZE_NOT_LARGER ? s < p : s > p)) {
      p = s;
      scale = g->in[d] ? (double)sizes[i] / (double)g->in[d] : 1.0;
    }
  }
  for (uint32_t i = 0; i < g->n_axes; i++) {
    uint32_t d = g->axis_of[i];
    float o = p * (float)g->in[d];
    if (!(o < (float)((int64_t)1 << 40)))
      return holo_k_fail(c, HOLO_ERR_LIMIT, "Resize: output dim too large");
    g->out[d] = (int64_t)holo_floor((double)o + 0.5);
    g->scale[d] = scale;
    g->length[d] = (double)g->out[d];
  }
  return HOLO_OK;
}

/* The rank-long scales/sizes (an "axes" attribute lists the axes they
 * cover; the others keep scale 1 and their size). */
static holo_status resize_targets(holo_kernel_call *c, holo_resize_geom *g) {
  const holo_tensor *x = &c->inputs[0];
  int64_t axes[HOLO_MAX_RANK];
  int32_t na = holo_attr_ints(c, "axes", axes, HOLO_MAX_RANK);
  uint32_t r = x->rank, n = na < 0 ? r : (uint32_t)na;
  if (na > (int32_t)r) return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: %d axes for rank %u", na, r);
  for (uint32_t i = 0; i < n; i++) {
    int64_t a = na < 0 ? (int64_t)i : axes[i] < 0 ? axes[i] + r : axes[i];
    if (a < 0 || a >= (int64_t)r)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: axis %lld out of range", (long long)axes[i]);
    g->axis_of[i] = (uint32_t)a;
  }
  g->n_axes = n;
  for (uint32_t d = 0; d < r; d++) {
    g->in[d] = x->shape[d];
    g->out[d] = x->shape[d];
    g->scale[d] = 1.0;
    g->length[d] = (double)x->shape[d];
  }
  bool has_sizes = !holo_k_absent(c, 3) && holo_k_prod(c->inputs[3].shape, 0, c->inputs[3].rank) > 0;
  bool has_scales = !holo_k_absent(c, 2) && holo_k_prod(c->inputs[2].shape, 0, c->inputs[2].rank) > 0;
  if (has_sizes == has_scales)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: exactly one of scales and sizes must be given");
  g->from_sizes = has_sizes;
  const holo_tensor *t = &c->inputs[has_sizes ? 3 : 2];
  if (t->rank != 1 || (uint64_t)t->shape[0] != n || t->dtype != (has_sizes ? HOLO_DT_I64 : HOLO_DT_F32))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: %s must be a 1-D %s of %u values",
                       has_sizes ? "sizes" : "scales", has_sizes ? "i64" : "f32", n);
  if (has_sizes && g->policy != HOLO_RESIZE_STRETCH) return aspect_policy(c, g, t->data);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t d = g->axis_of[i];
    if (has_sizes) {
      int64_t s = ((const int64_t *)t->data)[i];
      if (s < 0 || s > ((int64_t)1 << 40))
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: size %lld out of range", (long long)s);
      g->out[d] = s;
      g->scale[d] = g->in[d] ? (double)s / (double)g->in[d] : 1.0;
      g->length[d] = (double)s;
    } else {
      double s = ((const float *)t->data)[i];
      if (!(s > 0) || !(s < 1e9))
        return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: scale %g must be positive and finite", s);
      double o = holo_floor((double)g->in[d] * s);
      if (o > (double)((int64_t)1 << 40))
        return holo_k_fail(c, HOLO_ERR_LIMIT, "Resize: output dim too large");
      g->out[d] = (int64_t)o;
      g->scale[d] = s;
      g->length[d] = (double)g->in[d] * s;
    }
  }
  return HOLO_OK;
}

static holo_status resize_geometry(holo_kernel_call *c, holo_resize_geom *g) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Resize", 1, 4, 1))) return st;
  if ((st = holo_k_check_input(c, "Resize", 0, HOLO_DT_F32)))
    return c->inputs[0].dtype && c->inputs[0].dtype != HOLO_DT_F32
               ? holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Resize: dtype %s is not supported (f32 only)",
                             holo_k_dtype_name(c->inputs[0].dtype))
               : st;
  for (uint32_t k = 1; k < c->n_inputs; k++)
    if (!holo_k_absent(c, k) && (st = holo_k_check_input(c, "Resize", k, 0))) return st;
  if ((st = holo_resize_modes(c, g))) return st;
  g->rank = c->inputs[0].rank;
  if ((st = resize_targets(c, g))) return st;
  return holo_resize_roi(c, g);
}

holo_status holo_k_resize_infer(holo_kernel_call *c) {
  holo_status st;
  holo_resize_geom g;
  holo_k_infer_reset(c);
  if ((st = resize_geometry(c, &g))) return st;
  if ((st = holo_k_set_output(c, "Resize", 0, HOLO_DT_F32, g.rank, g.out))) return st;
  size_t ws;
  if (!holo_resize_taps_bytes(&g, &ws)) return holo_k_fail(c, HOLO_ERR_LIMIT, "Resize: geometry too large");
  c->workspace_bytes = ws;
  return HOLO_OK;
}

/* One output element: the sum over every combination of its axes' taps. */
static float resize_one(const holo_resize_geom *g, const holo_resize_axis *ax, const int64_t *pos,
                        const float *X, const int64_t *xstride) {
  uint32_t t[HOLO_MAX_RANK] = {0};
  const int64_t *idx[HOLO_MAX_RANK];
  const double *w[HOLO_MAX_RANK];
  for (uint32_t d = 0; d < g->rank; d++) {
    if (ax[d].outside && ax[d].outside[pos[d]]) return (float)g->extrapolation;
    idx[d] = ax[d].idx + (size_t)pos[d] * ax[d].taps;
    w[d] = ax[d].w + (size_t)pos[d] * ax[d].taps;
  }
  double sum = 0;
  for (;;) {
    double wt = 1;
    int64_t off = 0;
    for (uint32_t d = 0; d < g->rank; d++) {
      wt *= w[d][t[d]];
      off += idx[d][t[d]] * xstride[d];
    }
    sum += wt * (double)X[off];
    uint32_t d = g->rank;
    while (d > 0 && ++t[d - 1] == ax[d - 1].taps)
      t[--d] = 0;
    if (d == 0) break;
  }
  return (float)sum;
}

holo_status holo_k_resize_run(holo_kernel_call *c) {
  holo_resize_geom g;
  if (resize_geometry(c, &g)) return HOLO_ERR_KERNEL;
  size_t n = holo_k_prod(g.out, 0, g.rank);
  if (n && !holo_k_prod(g.in, 0, g.rank))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: an empty input cannot be resized to a non-empty output");
  if (holo_resize_bilinear(c, &g)) return HOLO_OK;
  holo_resize_axis ax[HOLO_MAX_RANK];
  holo_resize_build_taps(&g, c->workspace, ax);
  int64_t xstride[HOLO_MAX_RANK], pos[HOLO_MAX_RANK] = {0};
  int64_t s = 1;
  for (uint32_t d = g.rank; d-- > 0;) {
    xstride[d] = s;
    s *= g.in[d];
  }
  if (holo_resize_planes(c, &g, ax)) return HOLO_OK;
  const float *X = c->inputs[0].data;
  float *Y = c->outputs[0].data;
  for (size_t i = 0; i < n; i++) {
    Y[i] = resize_one(&g, ax, pos, X, xstride);
    for (uint32_t d = g.rank; d-- > 0;) {
      if (++pos[d] < g.out[d]) break;
      pos[d] = 0;
    }
  }
  return HOLO_OK;
}
