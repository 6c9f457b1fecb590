/* MaxPool and AveragePool (2-D NCHW f32) and GlobalAveragePool (any rank
 * >= 3). Window elements are visited in ascending (kh, kw) order; padding
 * never enters a max, and enters an average only through its divisor
 * (count_include_pad). A NaN in a MaxPool window makes that output NaN.
 * MaxPool's optional Indices output (i64, Y's shape) is the flat index into
 * X, batch and channel included, of the element chosen, row-major within a
 * plane (storage_order 0) or column-major (1), as onnxruntime computes it;
 * asking for it does not change Y's bytes.
 * The loops: microkernels/pool2d.h. */
#include "common/check.h"
#include "common/shape.h"
#include "common/window2d.h"
#include "microkernels/pool2d.h"
#include "operators/operators.h"

static holo_status pool_geometry(holo_kernel_call *c, const char *op, holo_k_win2d *w) {
  const holo_tensor *x = &c->inputs[0];
  char s1[HOLO_K_SHAPE_STR];
  if (x->rank == 3 || x->rank == 5)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: %u-D pooling is not supported (2-D only)", op,
                       x->rank - 2);
  if (x->rank != 4)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: X must be NCHW (rank 4), got X%s", op,
                       holo_k_shape_str(s1, x->shape, x->rank));
  return holo_k_window2d(c, op, x->shape + 2, 0, true, w);
}

static holo_status pool_infer(holo_kernel_call *c, const char *op, bool is_max) {
  holo_status st;
  holo_k_win2d w;
  if ((st = holo_k_infer_begin(c, op, 1, 1, is_max ? 2 : 1))) return st;
  if ((st = holo_k_check_input(c, op, 0, HOLO_DT_F32))) return st;
  if ((st = pool_geometry(c, op, &w))) return st;
  if (is_max) {
    int64_t so = holo_attr_int(c, "storage_order", 0);
    if (so != 0 && so != 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "MaxPool: storage_order must be 0 or 1, got %lld",
                         (long long)so);
  } else {
    int64_t cip = holo_attr_int(c, "count_include_pad", 0);
    if (cip != 0 && cip != 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "AveragePool: count_include_pad must be 0 or 1, got %lld",
                         (long long)cip);
  }
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[4] = {x->shape[0], x->shape[1], w.out[0], w.out[1]};
  /* per output: the taps inside X (at most min(k, in) along each axis) and
   * one step for the window itself */
  uint64_t th = (uint64_t)(w.k[0] < w.in[0] ? w.k[0] : w.in[0]);
  uint64_t tw = (uint64_t)(w.k[1] < w.in[1] ? w.k[1] : w.in[1]);
  uint64_t f[5] = {(uint64_t)ys[0], (uint64_t)ys[1], (uint64_t)ys[2], (uint64_t)ys[3], th * tw + 1};
  c->work = holo_k_work(5, f);
  if (is_max && c->n_outputs > 1 && (st = holo_k_set_output(c, op, 1, HOLO_DT_I64, 4, ys))) return st;
  return holo_k_set_output(c, op, 0, HOLO_DT_F32, 4, ys);
}

holo_status holo_k_maxpool_f32_infer(holo_kernel_call *c) { return pool_infer(c, "MaxPool", true); }
holo_status holo_k_avgpool_f32_infer(holo_kernel_call *c) {
  return pool_infer(c, "AveragePool", false);
}

static holo_status pool_run(holo_kernel_call *c, const char *op, bool is_max) {
  holo_k_win2d w;
  if (pool_geometry(c, op, &w)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *X = xt->data;
  float *Y = c->outputs[0].data;
  bool include_pad = !is_max && holo_attr_int(c, "count_include_pad", 0) == 1;
  int64_t H = w.in[0], W = w.in[1], OH = w.out[0], OW = w.out[1];
  size_t planes = holo_k_prod(xt->shape, 0, 2), xplane = (size_t)(H * W);
  if (is_max && c->n_outputs > 1) {
    bool col_major = holo_attr_int(c, "storage_order", 0) == 1;
    int64_t *I = c->outputs[1].data;
    for (size_t p = 0; p < planes; p++)
      holo_ukernel_maxpool2d_argmax_f32__scalar(X + p * xplane, &w, (int64_t)(p * xplane), col_major,
                                                Y + p * (size_t)(OH * OW), I + p * (size_t)(OH * OW));
    return HOLO_OK;
  }
  for (size_t p = 0; p < planes; p++) {
    const float *xp = X + p * xplane;
    float *yp = Y + p * (size_t)(OH * OW);
    for (int64_t oh = 0; oh < OH; oh++) {
      if (is_max)
        holo_maxpool2d_row_f32(xp, &w, oh, yp + oh * OW);
      else
        holo_ukernel_avgpool2d_row_f32__scalar(xp, &w, oh, include_pad, yp + oh * OW);
    }
  }
  return HOLO_OK;
}

holo_status holo_k_maxpool_f32_run(holo_kernel_call *c) { return pool_run(c, "MaxPool", true); }
holo_status holo_k_avgpool_f32_run(holo_kernel_call *c) { return pool_run(c, "AveragePool", false); }

holo_status holo_k_gap_f32_infer(holo_kernel_call *c) {
  holo_status st;
  char s1[HOLO_K_SHAPE_STR];
  if ((st = holo_k_infer_begin(c, "GlobalAveragePool", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "GlobalAveragePool", 0, HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank < 3)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GlobalAveragePool: X must be rank >= 3 (N,C,...), got X%s",
                       holo_k_shape_str(s1, x->shape, x->rank));
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++)
    ys[i] = i < 2 ? x->shape[i] : 1;
  return holo_k_set_output(c, "GlobalAveragePool", 0, HOLO_DT_F32, x->rank, ys);
}

holo_status holo_k_gap_f32_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  holo_gavgpool_f32(xt->data, c->outputs[0].data, holo_k_prod(xt->shape, 0, 2),
                                    holo_k_prod(xt->shape, 2, xt->rank));
  return HOLO_OK;
}
