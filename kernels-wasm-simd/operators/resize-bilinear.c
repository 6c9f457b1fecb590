/* Resize, mode linear over the two innermost axes of a rank-2 or rank-4
 * input (the outer axes kept), in onnxruntime's float arithmetic
 * (operators/resize.h; decision 52). onnxruntime's CPU kernel
 * (UpsampleBilinear) computes in f32:
 *   scale = (float)out / (float)in (sizes) or the f32 scale (scales)
 *   xin   = x when scale == 1, else the coordinate transform in f32,
 *           clamped to [0, in - 1]
 *   x1 = (int)xin, x2 = min(x1 + 1, in - 1), dx1 = |xin - x1|,
 *   dx2 = |xin - x2| (both 0.5 when x1 == x2), the same along H
 *   y = dx2*dy2*X11 + dx1*dy2*X21 + dx2*dy1*X12 + dx1*dy1*X22, left to right
 * The generic walk's double sum, rounded once, differs from that in the last
 * bit of ~10% of the outputs; a dynamically quantized model
 * (DynamicQuantizeLinear after a Resize, ISNet) rounds some of those to the
 * other uint8 and the difference grows through the network to 10% of the
 * output (issue 18). Taken only where onnxruntime's transform and the ONNX
 * reference's agree (the resized length is the output size: sizes given,
 * or in * scale whole), without tf_crop_and_resize's extrapolation and
 * without antialias's widened taps (a downsampled axis); the
 * other cases keep the generic walk. Scalar code: every lane of any target
 * does the same f32 operations, so the bytes do not depend on the target. */
#include "common/check.h"
#include "common/shape.h"
#include "operators/resize.h"

enum { BILINEAR_TASK_OUTPUTS = 16384 };

typedef struct bilinear_axis {
  int32_t *i1, *i2;
  float *d1, *d2;
} bilinear_axis;

typedef struct bilinear_job {
  const float *X;
  float *Y;
  bilinear_axis h, w;
  size_t IH, IW, OH, OW, rows, rows_per_task;
} bilinear_job;

/* onnxruntime's original coordinate of output x, in f32. */
static float ort_coordinate(int coord, float x, float scale, float out, float in) {
  switch (coord) {
  case HOLO_RESIZE_ASYMMETRIC: return x / scale;
  case HOLO_RESIZE_PYTORCH_HALF_PIXEL: return out > 1 ? (x + 0.5f) / scale - 0.5f : 0.0f;
  case HOLO_RESIZE_TF_HALF_PIXEL_FOR_NN: return (x + 0.5f) / scale;
  case HOLO_RESIZE_ALIGN_CORNERS: return out == 1 ? 0.0f : x * (in - 1) / (out - 1);
  default: return ((x + 0.5f) / scale) - 0.5f;
  }
}

static void axis_table(const holo_resize_geom *g, uint32_t d, bilinear_axis *a) {
  int32_t in = (int32_t)g->in[d];
  /* sizes: onnxruntime's f32 quotient (a keep_aspect_ratio_policy's: of the axis that gave it) */
  float scale = g->from_sizes && g->policy == HOLO_RESIZE_STRETCH ? (float)g->out[d] / (float)g->in[d]
                                                                  : (float)g->scale[d];
  for (int32_t o = 0; o < (int32_t)g->out[d]; o++) {
    float x = scale == 1 ? (float)o : ort_coordinate(g->coord, (float)o, scale, (float)g->out[d], (float)in);
    float hi = (float)(in - 1);
    x = x < 0 ? 0 : x > hi ? hi : x;
    int32_t x1 = (int32_t)x < in - 1 ? (int32_t)x : in - 1;
    int32_t x2 = x1 + 1 < in - 1 ? x1 + 1 : in - 1;
    float d1 = x - (float)x1, d2 = x - (float)x2;
    a->i1[o] = x1;
    a->i2[o] = x2;
    a->d1[o] = x1 == x2 ? 0.5f : d1 < 0 ? -d1 : d1;
    a->d2[o] = x1 == x2 ? 0.5f : d2 < 0 ? -d2 : d2;
  }
}

static void bilinear_task(void *arg, uint32_t t) {
  const bilinear_job *J = arg;
  size_t r0 = (size_t)t * J->rows_per_task, r1 = r0 + J->rows_per_task;
  if (r1 > J->rows) r1 = J->rows;
  for (size_t r = r0; r < r1; r++) {
    size_t y = r % J->OH;
    const float *plane = J->X + (r / J->OH) * J->IH * J->IW;
    const float *row1 = plane + (size_t)J->h.i1[y] * J->IW, *row2 = plane + (size_t)J->h.i2[y] * J->IW;
    float dy1 = J->h.d1[y], dy2 = J->h.d2[y];
    float *out = J->Y + r * J->OW;
    for (size_t x = 0; x < J->OW; x++) {
      int32_t x1 = J->w.i1[x], x2 = J->w.i2[x];
      float dx1 = J->w.d1[x], dx2 = J->w.d2[x];
      out[x] = dx2 * dy2 * row1[x1] + dx1 * dy2 * row1[x2] + dx2 * dy1 * row2[x1] + dx1 * dy1 * row2[x2];
    }
  }
}

/* Whether onnxruntime's bilinear kernel is the one to match: linear, rank 2
 * or 4 with the outer axes kept, lengths whole, no extrapolation, int32 indexable. */
static bool bilinear_apply(const holo_resize_geom *g) {
  if (g->mode != HOLO_RESIZE_LINEAR || (g->rank != 2 && g->rank != 4)) return false;
  if (g->coord == HOLO_RESIZE_TF_CROP_AND_RESIZE) return false;
  if (g->antialias && (g->scale[g->rank - 2] < 1.0 || g->scale[g->rank - 1] < 1.0)) return false;
  for (uint32_t d = 0; d + 2 < g->rank; d++)
    if (g->out[d] != g->in[d] || g->scale[d] != 1.0) return false;
  for (uint32_t d = g->rank - 2; d < g->rank; d++)
    if (g->length[d] != (double)g->out[d] || g->in[d] < 1 || g->in[d] > INT32_MAX || g->out[d] > INT32_MAX)
      return false;
  return true;
}

bool holo_resize_bilinear(const holo_kernel_call *c, const holo_resize_geom *g) {
  if (!bilinear_apply(g)) return false;
  const uint32_t h = g->rank - 2, w = g->rank - 1;
  bilinear_job J = {c->inputs[0].data, c->outputs[0].data, {0}, {0}, 0, 0, 0, 0, 0, 0};
  J.IH = (size_t)g->in[h], J.IW = (size_t)g->in[w], J.OH = (size_t)g->out[h], J.OW = (size_t)g->out[w];
  /* 16 bytes per output position of the two axes: within the tap tables'
   * workspace (holo_resize_taps_bytes: 2 taps x 16 bytes + 1 per position) */
  uint8_t *p = (uint8_t *)(((uintptr_t)c->workspace + 7) & ~(uintptr_t)7);
  bilinear_axis *ax[2] = {&J.h, &J.w};
  size_t len[2] = {J.OH, J.OW};
  for (int k = 0; k < 2; k++) {
    ax[k]->i1 = (int32_t *)p, ax[k]->i2 = ax[k]->i1 + len[k];
    ax[k]->d1 = (float *)(ax[k]->i2 + len[k]), ax[k]->d2 = ax[k]->d1 + len[k];
    p = (uint8_t *)(ax[k]->d2 + len[k]);
  }
  axis_table(g, h, &J.h);
  axis_table(g, w, &J.w);
  J.rows = holo_k_prod(g->out, 0, g->rank - 1);
  if (!J.rows || !J.OW) return true;
  J.rows_per_task = J.OW >= BILINEAR_TASK_OUTPUTS ? 1 : BILINEAR_TASK_OUTPUTS / J.OW;
  size_t tasks = (J.rows + J.rows_per_task - 1) / J.rows_per_task;
  for (; tasks > UINT32_MAX; tasks = (J.rows + J.rows_per_task - 1) / J.rows_per_task)
    J.rows_per_task *= 2;
  if (c->parallel_for && tasks > 1)
    c->parallel_for(c->pctx, (uint32_t)tasks, bilinear_task, &J);
  else
    for (size_t t = 0; t < tasks; t++)
      bilinear_task(&J, (uint32_t)t);
  return true;
}
