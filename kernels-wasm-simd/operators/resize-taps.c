/* Resize's attributes and per-axis taps (operators/resize.h): the formulas
 * of the ONNX specification, in double. */
#include "common/check.h"
#include "math/mathlib.h"
#include "operators/resize.h"

/* Index of the STRING attribute's value in names (dflt when absent), -1 when unknown. */
static int attr_choice(const holo_kernel_call *c, const char *attr, const char *const *names, int n,
                       int dflt) {
  if (!holo_attr_find(c, attr)) return dflt;
  for (int i = 0; i < n; i++)
    if (holo_attr_string_is(c, attr, names[i])) return i;
  return -1;
}

holo_status holo_resize_modes(holo_kernel_call *c, holo_resize_geom *g) {
  static const char *const modes[] = {"nearest", "linear", "cubic"};
  static const char *const coords[] = {"half_pixel", "pytorch_half_pixel",   "align_corners",
                                       "asymmetric", "tf_half_pixel_for_nn", "tf_crop_and_resize"};
  static const char *const nearests[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  g->mode = attr_choice(c, "mode", modes, 3, HOLO_RESIZE_NEAREST);
  g->coord = attr_choice(c, "coordinate_transformation_mode", coords, 6, HOLO_RESIZE_HALF_PIXEL);
  g->nearest = attr_choice(c, "nearest_mode", nearests, 4, HOLO_RESIZE_ROUND_PREFER_FLOOR);
  if (g->mode < 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: mode must be nearest, linear or cubic");
  if (g->coord < 0)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                       "Resize: this coordinate_transformation_mode is not supported");
  if (g->nearest < 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: unknown nearest_mode");
  g->cubic_a = holo_attr_float(c, "cubic_coeff_a", -0.75f);
  g->extrapolation = holo_attr_float(c, "extrapolation_value", 0.0f);
  int64_t ex = holo_attr_int(c, "exclude_outside", 0);
  if (ex != 0 && ex != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: exclude_outside must be 0 or 1");
  g->exclude_outside = ex == 1;
  int64_t aa = holo_attr_int(c, "antialias", 0);
  if (aa != 0 && aa != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: antialias must be 0 or 1");
  g->antialias = aa == 1 && g->mode != HOLO_RESIZE_NEAREST; /* nearest has no filter to widen */
  static const char *const policies[] = {"stretch", "not_larger", "not_smaller"};
  g->policy = attr_choice(c, "keep_aspect_ratio_policy", policies, 3, HOLO_RESIZE_STRETCH);
  if (g->policy < 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "Resize: keep_aspect_ratio_policy must be stretch, not_larger or not_smaller");
  return HOLO_OK;
}

holo_status holo_resize_roi(holo_kernel_call *c, holo_resize_geom *g) {
  for (uint32_t d = 0; d < g->rank; d++) {
    g->roi_start[d] = 0;
    g->roi_end[d] = 1;
  }
  if (g->coord != HOLO_RESIZE_TF_CROP_AND_RESIZE) return HOLO_OK;
  const holo_tensor *r = c->n_inputs > 1 ? &c->inputs[1] : 0;
  if (!r || !r->dtype || r->rank != 1 || (uint64_t)r->shape[0] != 2u * g->n_axes ||
      (r->dtype != HOLO_DT_F32 && r->dtype != HOLO_DT_F64))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Resize: tf_crop_and_resize needs roi, %u f32 values",
                       2u * g->n_axes);
  for (uint32_t i = 0; i < g->n_axes; i++) {
    uint32_t d = g->axis_of[i];
    g->roi_start[d] = r->dtype == HOLO_DT_F32 ? ((const float *)r->data)[i] : ((const double *)r->data)[i];
    g->roi_end[d] = r->dtype == HOLO_DT_F32 ? ((const float *)r->data)[g->n_axes + i]
                                            : ((const double *)r->data)[g->n_axes + i];
  }
  return HOLO_OK;
}

/* antialias on a downsampled axis: the filter's half-width, 1 (linear) or
 * 2 (cubic) input steps stretched by 1 / scale; 0 where the plain taps apply. */
static double aa_support(const holo_resize_geom *g, uint32_t d) {
  if (!g->antialias || !(g->scale[d] < 1.0)) return 0;
  return (g->mode == HOLO_RESIZE_LINEAR ? 1.0 : 2.0) / g->scale[d];
}

/* Taps per output position of axis d: 1, 2 or 4, or the widened window
 * 2 * ceil(support) + 1 (onnxruntime's window size) under antialias. */
static uint32_t taps_of(const holo_resize_geom *g, uint32_t d) {
  double s = aa_support(g, d);
  if (s > 0) return s < (double)(1u << 20) ? 2 * (uint32_t)holo_ceil(s) + 1 : UINT32_MAX;
  return g->mode == HOLO_RESIZE_NEAREST ? 1 : g->mode == HOLO_RESIZE_LINEAR ? 2 : 4;
}

bool holo_resize_taps_bytes(const holo_resize_geom *g, size_t *bytes) {
  size_t total = 0;
  for (uint32_t d = 0; d < g->rank; d++) {
    uint32_t T = taps_of(g, d);
    if (T == UINT32_MAX) return false;
    size_t per = T * (sizeof(int64_t) + sizeof(double)) + 1;
    uint64_t o = (uint64_t)g->out[d];
    if (o > (SIZE_MAX / 4) / per - 16) return false;
    total += (size_t)o * per + 16; /* + alignment slack */
    if (total > SIZE_MAX / 4) return false;
  }
  *bytes = total;
  return true;
}

/* Output coordinate x of an axis -> input coordinate (the ONNX formulas). */
static double to_input(const holo_resize_geom *g, uint32_t d, double x) {
  double in = (double)g->in[d], out = g->length[d], s = g->scale[d];
  switch (g->coord) {
  case HOLO_RESIZE_PYTORCH_HALF_PIXEL: return out > 1 ? (x + 0.5) / s - 0.5 : 0;
  case HOLO_RESIZE_ALIGN_CORNERS: return out == 1 ? 0 : x * (in - 1) / (out - 1);
  case HOLO_RESIZE_ASYMMETRIC: return x / s;
  case HOLO_RESIZE_TF_HALF_PIXEL_FOR_NN: return (x + 0.5) / s;
  case HOLO_RESIZE_TF_CROP_AND_RESIZE: {
    double a = g->roi_start[d], b = g->roi_end[d];
    return out > 1 ? a * (in - 1) + x * (b - a) * (in - 1) / (out - 1) : 0.5 * (a + b) * (in - 1);
  }
  default: return (x + 0.5) / s - 0.5;
  }
}

static int64_t nearest_index(int mode, double x) {
  double f = holo_floor(x), frac = x - f;
  if (mode == HOLO_RESIZE_FLOOR) return (int64_t)f;
  if (mode == HOLO_RESIZE_CEIL) return (int64_t)(frac > 0 ? f + 1 : f);
  if (frac == 0.5) return (int64_t)(mode == HOLO_RESIZE_ROUND_PREFER_CEIL ? f + 1 : f);
  return (int64_t)(frac < 0.5 ? f : f + 1);
}

static void cubic_weights(double a, double t, double *w) {
  double t1 = t + 1, u = 1 - t, u1 = u + 1;
  w[0] = ((a * t1 - 5 * a) * t1 + 8 * a) * t1 - 4 * a;
  w[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  w[2] = ((a + 2) * u - (a + 3)) * u * u + 1;
  w[3] = ((a * u1 - 5 * a) * u1 + 8 * a) * u1 - 4 * a;
}

/* The antialiasing filters at distance a >= 0 (in output steps): the
 * triangle, and cubic_coeff_a's cubic (the spec's and onnxruntime's). */
static double aa_filter(const holo_resize_geom *g, double a) {
  double k = g->cubic_a;
  if (g->mode == HOLO_RESIZE_LINEAR) return a < 1 ? 1 - a : 0;
  if (a < 1) return ((k + 2) * a - (k + 3)) * a * a + 1;
  return a < 2 ? ((k * a - 5 * k) * a + 8 * k) * a - 4 * k : 0;
}

/* Position x's taps under antialias (axis d downsampled at scale s): the
 * inputs i whose centres lie within the support of x's centre c = x + 0.5,
 * i in [floor(c - support + 0.5), floor(c + support + 0.5)) as onnxruntime
 * bounds them, weight filter(|i + 0.5 - c| * s), normalized to sum 1; an
 * input outside the axis is clamped to the edge (onnxruntime folds its
 * weight onto the edge: the same sum), or left out with exclude_outside.
 * The unused tail of the T taps has weight 0. */
static void aa_taps(const holo_resize_geom *g, uint32_t d, double x, uint32_t T, int64_t *idx, double *w) {
  int64_t n = g->in[d];
  double s = g->scale[d], sup = aa_support(g, d), c = x + 0.5, sum = 0;
  int64_t lo = (int64_t)holo_floor(c - sup + 0.5), hi = (int64_t)holo_floor(c + sup + 0.5);
  uint32_t k = 0;
  for (int64_t i = lo; i < hi && k < T; i++) {
    if (g->exclude_outside && (i < 0 || i >= n)) continue;
    double a = ((double)i + 0.5 - c) * s;
    w[k] = aa_filter(g, a < 0 ? -a : a);
    idx[k] = i < 0 ? 0 : i >= n ? n - 1 : i;
    sum += w[k++];
  }
  for (uint32_t j = 0; j < k; j++)
    if (sum != 0) w[j] /= sum;
  for (; k < T; k++) {
    idx[k] = k ? idx[k - 1] : 0;
    w[k] = 0;
  }
}

/* Position o's taps: unclamped first index and weights, then clamped (edge padding). */
static void axis_taps(const holo_resize_geom *g, uint32_t d, double x, uint32_t T, int64_t *idx, double *w) {
  int64_t n = g->in[d];
  if (g->mode == HOLO_RESIZE_NEAREST) {
    idx[0] = nearest_index(g->nearest, x);
    w[0] = 1;
  } else {
    double f = holo_floor(x), t = x - f;
    int64_t first = (int64_t)f - (T == 4 ? 1 : 0);
    if (T == 2) {
      w[0] = 1 - t;
      w[1] = t;
    } else {
      cubic_weights(g->cubic_a, t, w);
    }
    double sum = 0;
    for (uint32_t k = 0; k < T; k++) {
      idx[k] = first + k;
      if (g->exclude_outside && (idx[k] < 0 || idx[k] >= n)) w[k] = 0;
      sum += w[k];
    }
    if (g->exclude_outside && sum != 0)
      for (uint32_t k = 0; k < T; k++)
        w[k] /= sum;
  }
  for (uint32_t k = 0; k < T; k++)
    idx[k] = idx[k] < 0 ? 0 : idx[k] >= n ? n - 1 : idx[k];
}

void holo_resize_build_taps(const holo_resize_geom *g, void *ws, holo_resize_axis *ax) {
  uint8_t *p = ws;
  for (uint32_t d = 0; d < g->rank; d++) {
    int64_t O = g->out[d];
    uint32_t T = taps_of(g, d);
    bool aa = aa_support(g, d) > 0;
    p = (uint8_t *)(((uintptr_t)p + 7) & ~(uintptr_t)7);
    int64_t *idx = (int64_t *)p;
    double *w = (double *)(p + (size_t)O * T * sizeof(int64_t));
    uint8_t *outside = (uint8_t *)(w + (size_t)O * T);
    p = outside + O;
    /* an axis of the same size at scale 1 is a copy, one tap, whatever the
     * transform (as onnxruntime: tf_half_pixel_for_nn would otherwise move
     * a batch or channel axis by half a step); tf_crop_and_resize only when
     * its roi maps every x to x */
    bool copy = O == g->in[d] && g->scale[d] == 1.0;
    for (int64_t o = 0; copy && g->coord == HOLO_RESIZE_TF_CROP_AND_RESIZE && o < O; o++)
      copy = to_input(g, d, (double)o) == (double)o;
    uint32_t taps = copy ? 1 : T;
    bool any_out = false;
    for (int64_t o = 0; o < O; o++) {
      double x = to_input(g, d, (double)o);
      outside[o] = g->coord == HOLO_RESIZE_TF_CROP_AND_RESIZE && (x < 0 || x > (double)(g->in[d] - 1));
      any_out |= outside[o];
      if (copy) {
        idx[o] = o;
        w[o] = 1;
      } else if (aa) {
        aa_taps(g, d, x, T, idx + (size_t)o * T, w + (size_t)o * T);
      } else {
        axis_taps(g, d, x, T, idx + (size_t)o * T, w + (size_t)o * T);
      }
    }
    ax[d] = (holo_resize_axis){taps, idx, w, any_out ? outside : 0};
  }
}
