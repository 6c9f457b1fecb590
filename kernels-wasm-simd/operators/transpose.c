/* Transpose of any dtype (moved as 1/2/4/8-byte units); perm defaults to
 * reversing the axes. The output is written in order; the input is read
 * through permuted strides (microkernels/transpose.h). */
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/transpose.h"
#include "operators/operators.h"

static holo_status transpose_perm(holo_kernel_call *c, uint32_t *perm) {
  const holo_tensor *x = &c->inputs[0];
  int64_t p[HOLO_MAX_RANK];
  int32_t n = holo_attr_ints(c, "perm", p, HOLO_MAX_RANK);
  if (n < 0) {
    for (uint32_t i = 0; i < x->rank; i++) perm[i] = x->rank - 1 - i;
    return HOLO_OK;
  }
  if ((uint32_t)n != x->rank)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Transpose: perm has %d entries for rank %u", n, x->rank);
  bool seen[HOLO_MAX_RANK] = {false};
  for (uint32_t i = 0; i < x->rank; i++) {
    if (p[i] < 0 || p[i] >= (int64_t)x->rank || seen[p[i]])
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "Transpose: perm is not a permutation of 0..%u (entry %u is %lld)",
                         x->rank ? x->rank - 1 : 0, i, (long long)p[i]);
    seen[p[i]] = true;
    perm[i] = (uint32_t)p[i];
  }
  return HOLO_OK;
}

holo_status holo_k_transpose_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t perm[HOLO_MAX_RANK];
  if ((st = holo_k_infer_begin(c, "Transpose", 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, "Transpose", 0, 0))) return st;
  if ((st = transpose_perm(c, perm))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++) ys[i] = x->shape[perm[i]];
  return holo_k_set_output(c, "Transpose", 0, x->dtype, x->rank, ys);
}

/* Drops the dims of 1 and merges each output dim into the next where the
 * input walks them as one (stride[i] == stride[i+1] * shape[i+1]): the same
 * gather over fewer, longer dims. Returns the new rank (>= 1). */
static uint32_t transpose_merge(int64_t *shape, int64_t *stride, uint32_t rank) {
  uint32_t r = 0;
  for (uint32_t i = 0; i < rank; i++) {
    if (shape[i] == 1) continue;
    if (r && stride[r - 1] == stride[i] * shape[i]) {
      shape[r - 1] *= shape[i];
      stride[r - 1] = stride[i];
      continue;
    }
    shape[r] = shape[i], stride[r] = stride[i], r++;
  }
  if (r == 0) shape[0] = 1, stride[0] = 1, r = 1;
  return r;
}

/* The merged walk of 4-byte elements as 2-D transposes [.., P, Q] whose
 * input is contiguous along P (NCHW <-> NHWC, a matrix): true when done. */
static bool transpose_tiles(const holo_tensor *x, holo_tensor *y, uint32_t rank, const int64_t *shape,
                            const int64_t *stride) {
  if (holo_dtype_size(x->dtype) != 4 || rank < 2 || stride[rank - 2] != 1 || stride[rank - 1] == 1) return false;
  const size_t P = (size_t)shape[rank - 2], Q = (size_t)shape[rank - 1], outer = holo_k_prod(shape, 0, rank - 2);
  int64_t idx[HOLO_MAX_RANK] = {0};
  size_t off = 0;
  uint32_t *yp = y->data;
  for (size_t o = 0; o < outer; o++, yp += P * Q) {
    holo_transpose2d_x32((const uint32_t *)x->data + off, (size_t)stride[rank - 1], yp, P, Q);
    holo_k_next_offset(idx, shape, stride, rank - 2, &off);
  }
  return true;
}

holo_status holo_k_transpose_run(holo_kernel_call *c) {
  uint32_t perm[HOLO_MAX_RANK];
  if (transpose_perm(c, perm)) return HOLO_ERR_KERNEL;
  const holo_tensor *x = &c->inputs[0];
  holo_tensor *y = &c->outputs[0];
  if (holo_k_prod(y->shape, 0, y->rank) == 0) return HOLO_OK;
  int64_t xs[HOLO_MAX_RANK], shape[HOLO_MAX_RANK], stride[HOLO_MAX_RANK];
  uint32_t rank = x->rank;
  holo_k_strides(x->shape, x->rank, xs);
  for (uint32_t i = 0; i < rank; i++) {
    shape[i] = y->shape[i];
    stride[i] = xs[perm[i]];
  }
  rank = transpose_merge(shape, stride, rank); /* a scalar: one element, shape [1] */
  if (transpose_tiles(x, y, rank, shape, stride)) return HOLO_OK;
  holo_ukernel_transpose_any__scalar(holo_dtype_size(x->dtype), x->data, y->data, rank, shape, stride);
  return HOLO_OK;
}
