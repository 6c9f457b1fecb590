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
  if (rank == 0) { /* a scalar: one element, same walk as shape [1] */
    rank = 1;
    shape[0] = 1;
    stride[0] = 1;
  }
  holo_ukernel_transpose_any__scalar(holo_dtype_size(x->dtype), x->data, y->data, rank, shape, stride);
  return HOLO_OK;
}
