/* Resize's walk when only the two innermost axes have more than one tap
 * (operators/resize.h): every outer axis is a copy or a nearest pick, so
 * each output plane reads one input plane, and a row kernel
 * (microkernels/resize2d.h) runs the inner two axes' taps. Same sums in
 * the same order as the generic walk of resize.c (the outer axes' weights
 * are exactly 1, and 1 * w is w), hence the same bytes, without its
 * per-element rank-deep loops (lraspp's bilinear head: 21 x 224 x 224
 * outputs). Rows split into tasks by a rule of the shape alone; every
 * output is its own sum, so the split does not enter the bytes. */
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/resize2d.h"
#include "operators/resize.h"

enum { RESIZE_TASK_OUTPUTS = 16384 };

typedef struct planes_job {
  const holo_resize_geom *g;
  const holo_resize_axis *ax;
  const float *X;
  float *Y;
  int64_t xstride[HOLO_MAX_RANK];
  size_t rows, rows_per_task;
} planes_job;

/* The input plane that output plane p reads. */
static const float *input_plane(const planes_job *J, size_t p) {
  const holo_resize_geom *g = J->g;
  int64_t off = 0;
  for (uint32_t d = g->rank - 2; d-- > 0;) {
    int64_t o = (int64_t)(p % (size_t)g->out[d]);
    p /= (size_t)g->out[d];
    off += J->ax[d].idx[o] * J->xstride[d];
  }
  return J->X + off;
}

static void planes_task(void *arg, uint32_t t) {
  const planes_job *J = arg;
  const holo_resize_geom *g = J->g;
  const uint32_t h = g->rank - 2, w = g->rank - 1;
  const holo_resize_axis *ah = &J->ax[h], *aw = &J->ax[w];
  const size_t OH = (size_t)g->out[h], OW = (size_t)g->out[w], W = (size_t)g->in[w];
  size_t r0 = (size_t)t * J->rows_per_task, r1 = r0 + J->rows_per_task;
  if (r1 > J->rows) r1 = J->rows;
  holo_resize2d_row row = {ah->taps, aw->taps, {0}, 0, aw->idx, aw->w, OW};
  for (size_t r = r0; r < r1; r++) {
    size_t oh = r % OH;
    const float *xp = input_plane(J, r / OH);
    for (uint32_t a = 0; a < ah->taps; a++)
      row.rows[a] = xp + (size_t)ah->idx[oh * ah->taps + a] * W;
    row.wh = ah->w + oh * ah->taps;
    holo_resize2d_row_f32(&row, J->Y + r * OW);
  }
}

/* Whether the plane walk applies: rank >= 2, no extrapolation, every outer
 * axis one tap of weight 1, at most HOLO_RESIZE2D_MAX_TH taps along H
 * (4 but for antialias's windows). */
static bool planes_apply(const holo_resize_geom *g, const holo_resize_axis *ax) {
  if (g->rank < 2 || ax[g->rank - 2].taps > HOLO_RESIZE2D_MAX_TH) return false;
  for (uint32_t d = 0; d < g->rank; d++)
    if (ax[d].outside) return false;
  for (uint32_t d = 0; d + 2 < g->rank; d++) {
    if (ax[d].taps != 1) return false;
    for (int64_t o = 0; o < g->out[d]; o++)
      if (ax[d].w[o] != 1.0) return false;
  }
  return true;
}

bool holo_resize_planes(const holo_kernel_call *c, const holo_resize_geom *g, const holo_resize_axis *ax) {
  if (!planes_apply(g, ax)) return false;
  planes_job J = {g, ax, c->inputs[0].data, c->outputs[0].data, {0}, 0, 0};
  int64_t s = 1;
  for (uint32_t d = g->rank; d-- > 0;) {
    J.xstride[d] = s;
    s *= g->in[d];
  }
  size_t OW = (size_t)g->out[g->rank - 1];
  J.rows = holo_k_prod(g->out, 0, g->rank - 1);
  if (!J.rows || !OW) return true;
  J.rows_per_task = OW >= RESIZE_TASK_OUTPUTS ? 1 : RESIZE_TASK_OUTPUTS / OW;
  size_t tasks = (J.rows + J.rows_per_task - 1) / J.rows_per_task;
  for (; tasks > UINT32_MAX; tasks = (J.rows + J.rows_per_task - 1) / J.rows_per_task)
    J.rows_per_task *= 2;
  if (c->parallel_for && tasks > 1)
    c->parallel_for(c->pctx, (uint32_t)tasks, planes_task, &J);
  else
    for (size_t t = 0; t < tasks; t++)
      planes_task(&J, (uint32_t)t);
  return true;
}
