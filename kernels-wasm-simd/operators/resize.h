/* Resize's geometry and per-axis tap tables, shared by operators/resize.c
 * (validation, shape, the output walk) and operators/resize-taps.c (modes,
 * roi, coordinate transforms, taps). */
#ifndef HOLOGRAM_KERNELS_RESIZE_H
#define HOLOGRAM_KERNELS_RESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hologram/backend.h"

enum { HOLO_RESIZE_NEAREST, HOLO_RESIZE_LINEAR, HOLO_RESIZE_CUBIC };
enum {
  HOLO_RESIZE_HALF_PIXEL,
  HOLO_RESIZE_PYTORCH_HALF_PIXEL,
  HOLO_RESIZE_ALIGN_CORNERS,
  HOLO_RESIZE_ASYMMETRIC,
  HOLO_RESIZE_TF_HALF_PIXEL_FOR_NN,
  HOLO_RESIZE_TF_CROP_AND_RESIZE
};
enum { HOLO_RESIZE_ROUND_PREFER_FLOOR, HOLO_RESIZE_ROUND_PREFER_CEIL, HOLO_RESIZE_FLOOR, HOLO_RESIZE_CEIL };
enum { HOLO_RESIZE_STRETCH, HOLO_RESIZE_NOT_LARGER, HOLO_RESIZE_NOT_SMALLER };

typedef struct holo_resize_geom {
  uint32_t rank, n_axes, axis_of[HOLO_MAX_RANK];
  int64_t in[HOLO_MAX_RANK], out[HOLO_MAX_RANK];
  /* length: the resized length the transforms use, in * scale with scales
   * (not floored, as the ONNX reference), the size with sizes */
  double scale[HOLO_MAX_RANK], length[HOLO_MAX_RANK], roi_start[HOLO_MAX_RANK], roi_end[HOLO_MAX_RANK];
  int mode, coord, nearest;
  int policy; /* keep_aspect_ratio_policy (with sizes; stretch otherwise) */
  double cubic_a, extrapolation;
  bool exclude_outside;
  bool antialias;  /* antialias = 1: linear and cubic widen their filter on a downsampled axis */
  bool from_sizes; /* the output shape came from sizes (else from scales) */
} holo_resize_geom;

/* One axis's taps: for output position o, taps input indices idx[o*taps+t]
 * with weights w[o*taps+t]; outside (tf_crop_and_resize only, else NULL)
 * marks positions that take extrapolation_value. */
typedef struct holo_resize_axis {
  uint32_t taps;
  const int64_t *idx;
  const double *w;
  const uint8_t *outside;
} holo_resize_axis;

/* The mode attributes into g (defaults when absent); a message for an unknown value. */
holo_status holo_resize_modes(holo_kernel_call *c, holo_resize_geom *g);
/* roi into g for tf_crop_and_resize ([0, 1] per axis otherwise). */
holo_status holo_resize_roi(holo_kernel_call *c, holo_resize_geom *g);
/* The workspace the tables take; false when it is not addressable. */
bool holo_resize_taps_bytes(const holo_resize_geom *g, size_t *bytes);
/* Builds every axis's table in ws (holo_resize_taps_bytes of it). */
void holo_resize_build_taps(const holo_resize_geom *g, void *ws, holo_resize_axis *ax);
/* Runs the call by planes (operators/resize-planes.c) when only the two
 * innermost axes have more than one tap; false, having written nothing,
 * when it does not apply. */
bool holo_resize_planes(const holo_kernel_call *c, const holo_resize_geom *g, const holo_resize_axis *ax);
/* Runs a linear resize of the two innermost axes in onnxruntime's f32
 * arithmetic (operators/resize-bilinear.c) when it applies, using the
 * workspace; false, having written nothing, when it does not. */
bool holo_resize_bilinear(const holo_kernel_call *c, const holo_resize_geom *g);

#endif
