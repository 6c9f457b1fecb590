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

static uint32_t taps_of(int mode) {
  return mode == HOLO_RESIZE_NEAREST ? 1 : mode == HOLO_RESIZE_LINEAR ? 2 : 4;
}

bool holo_resize_taps_bytes(const holo_resize_geom *g, size_t *bytes) {
  size_t total = 0, per = taps_of(g->mode) * (sizeof(int64_t) + sizeof(double)) + 1;
  for (uint32_t d = 0; d < g->rank; d++) {
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
  uint32_t T = taps_of(g->mode);
  for (uint32_t d = 0; d < g->rank; d++) {
    int64_t O = g->out[d];
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
      } else {
        axis_taps(g, d, x, T, idx + (size_t)o * T, w + (size_t)o * T);
      }
    }
    ax[d] = (holo_resize_axis){taps, idx, w, any_out ? outside : 0};
  }
}
