/* Tile (opset 13): input of any dtype, repeats (input 1, 1-D i64 of the
 * input's rank, each >= 0); output dim i is d_i * repeats_i. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status tile_shape(holo_kernel_call *c, int64_t *ys) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Tile", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Tile", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t rep[HOLO_MAX_RANK];
  uint32_t n;
  if ((st = holo_k_read_ints(c, "Tile", 1, "repeats", rep, HOLO_MAX_RANK, &n))) return st;
  if (n != x->rank || c->inputs[1].rank != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Tile: repeats must be 1-D with %u values, got %u",
                       x->rank, n);
  for (uint32_t i = 0; i < n; i++) {
    if (rep[i] < 0 || rep[i] > ((int64_t)1 << 40))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "Tile: repeats[%u] = %lld is out of range", i,
                         (long long)rep[i]);
    if (x->shape[i] > 0 && rep[i] > INT64_MAX / x->shape[i])
      return holo_k_fail(c, HOLO_ERR_LIMIT, "Tile: output dim %u overflows", i);
    ys[i] = x->shape[i] * rep[i];
  }
  return HOLO_OK;
}

holo_status holo_k_tile_infer(holo_kernel_call *c) {
  holo_status st;
  int64_t ys[HOLO_MAX_RANK];
  holo_k_infer_reset(c);
  if ((st = tile_shape(c, ys))) return st;
  return holo_k_set_output(c, "Tile", 0, c->inputs[0].dtype, c->inputs[0].rank, ys);
}

holo_status holo_k_tile_run(holo_kernel_call *c) {
  const holo_tensor *xt = &c->inputs[0];
  const holo_tensor *yt = &c->outputs[0];
  uint32_t r = xt->rank;
  size_t es = holo_dtype_size(xt->dtype), n = holo_k_prod(yt->shape, 0, r);
  if (n == 0) return HOLO_OK;
  int64_t xs[HOLO_MAX_RANK], idx[HOLO_MAX_RANK] = {0};
  holo_k_strides(xt->shape, r, xs);
  const uint8_t *x = xt->data;
  uint8_t *y = yt->data;
  for (size_t i = 0; i < n; i++) {
    int64_t off = 0;
    for (uint32_t a = 0; a < r; a++) off += (idx[a] % xt->shape[a]) * xs[a];
    for (size_t b = 0; b < es; b++) y[i * es + b] = x[(size_t)off * es + b];
    holo_k_next_index(idx, yt->shape, r);
  }
  return HOLO_OK;
}
