/* holo.RoiPoolMax: MaxRoiPool's (opset 1) window maxima, the converter
 * having computed the windows (compiler/onnx-ops-detect.js): X f32
 * [N, C, H, W], batch i64 [R] in [0, N), rows i64 [R, ph, 2] and cols i64
 * [R, pw, 2], each a [start, end) clipped to [0, H] ([0, W]); Y f32
 * [R, C, ph, pw]. Y is the max over the window taken as y = x < y ? y : x
 * from the lowest float, onnxruntime's std::max(x, y) (a NaN read replaces
 * the running value, a later number replaces the NaN), and 0 for an empty
 * window. The geometry (std::round of the corners, the bins' floor and
 * ceil) is ops in the converter so that this cold kernel stays small; a
 * roi the converter found non-finite or beyond 2^24 arrives with batch
 * index -1 and is refused here. */
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

#define RP "MaxRoiPool"

/* Every element of the i64 tensor t within [0, lim]. */
static bool rp_in(const holo_tensor *t, int64_t lim) {
  const int64_t *v = t->data;
  for (size_t i = 0, n = holo_k_prod(t->shape, 0, t->rank); i < n; i++)
    if (v[i] < 0 || v[i] > lim) return false;
  return true;
}

static holo_status rp_check(holo_kernel_call *c) {
  holo_status st;
  for (uint32_t k = 0; k < 4; k++)
    if ((st = holo_k_check_input(c, RP, k, k ? HOLO_DT_I64 : HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0], *b = &c->inputs[1], *h = &c->inputs[2], *w = &c->inputs[3];
  if (x->rank != 4 || b->rank != 1 || h->rank != 3 || w->rank != 3 || h->shape[0] != b->shape[0] ||
      w->shape[0] != b->shape[0] || h->shape[2] != 2 || w->shape[2] != 2 || !rp_in(h, x->shape[2]) ||
      !rp_in(w, x->shape[3]))
    return holo_k_fail(c, HOLO_ERR_KERNEL, RP ": the windows do not match X [N, C, H, W]");
  if (!rp_in(b, x->shape[0] - 1))
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       RP ": a roi has a batch index outside [0, N), a non-finite value or a corner beyond 2^24");
  return HOLO_OK;
}

holo_status holo_k_roipoolmax_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, RP, 4, 4, 1)) || (st = rp_check(c))) return st;
  const int64_t *xs = c->inputs[0].shape;
  int64_t ys[4] = {c->inputs[1].shape[0], xs[1], c->inputs[2].shape[1], c->inputs[3].shape[1]};
  /* a bound on the pixels read: adjacent bins share at most one row (column) */
  uint64_t f[4] = {(uint64_t)ys[0], (uint64_t)xs[1], (uint64_t)(xs[2] + ys[2]), (uint64_t)(xs[3] + ys[3])};
  c->work = holo_k_work(4, f);
  return holo_k_set_output(c, RP, 0, HOLO_DT_F32, 4, ys);
}

holo_status holo_k_roipoolmax_run(holo_kernel_call *c) {
  if (rp_check(c)) return HOLO_ERR_KERNEL; /* infer accepted these operands */
  const holo_tensor *x = &c->inputs[0];
  const int64_t *bi = c->inputs[1].data, *hb = c->inputs[2].data, *wb = c->inputs[3].data;
  const size_t C = (size_t)x->shape[1], H = (size_t)x->shape[2], W = (size_t)x->shape[3];
  const size_t R = (size_t)c->inputs[1].shape[0], PH = (size_t)c->inputs[2].shape[1];
  const size_t PW = (size_t)c->inputs[3].shape[1];
  float *y = c->outputs[0].data;
  for (size_t n = 0; n < R; n++)
    for (size_t ch = 0; ch < C; ch++) {
      const float *d = (const float *)x->data + ((size_t)bi[n] * C + ch) * H * W;
      for (size_t i = 0; i < PH; i++)
        for (size_t j = 0; j < PW; j++) {
          const int64_t *r = hb + 2 * (n * PH + i), *q = wb + 2 * (n * PW + j);
          float m = r[1] <= r[0] || q[1] <= q[0] ? 0.0f : -3.40282347e38f;
          for (size_t h = (size_t)r[0]; h < (size_t)r[1]; h++)
            for (size_t w = (size_t)q[0]; w < (size_t)q[1]; w++)
              m = d[h * W + w] < m ? m : d[h * W + w];
          *y++ = m;
        }
    }
  return HOLO_OK;
}
