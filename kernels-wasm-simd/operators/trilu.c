/* Trilu (opset 14): input of any dtype and rank >= 2, optional k (input 1,
 * an i64 scalar or one-element tensor, default 0), attribute upper (default
 * 1). Over the last two dims [N, M]: upper keeps j - i >= k, lower keeps
 * j - i <= k; everything else becomes 0. */
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status trilu_check(holo_kernel_call *c, int64_t *k, bool *upper) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Trilu", 1, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "Trilu", 0, 0))) return st;
  if ((st = holo_k_flag(c, "Trilu", "upper", 1, upper))) return st;
  if (c->inputs[0].rank < 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Trilu: input must have rank >= 2, got %u",
                       c->inputs[0].rank);
  *k = 0;
  if (!holo_k_absent(c, 1)) {
    uint32_t n;
    if ((st = holo_k_read_ints(c, "Trilu", 1, "k", k, 1, &n))) return st;
    if (n != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "Trilu: k must hold one value");
  }
  return HOLO_OK;
}

holo_status holo_k_trilu_infer(holo_kernel_call *c) {
  holo_status st;
  int64_t k;
  bool upper;
  holo_k_infer_reset(c);
  if ((st = trilu_check(c, &k, &upper))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Trilu", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_trilu_run(holo_kernel_call *c) {
  int64_t k;
  bool upper;
  if (trilu_check(c, &k, &upper)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  uint32_t r = xt->rank;
  int64_t N = xt->shape[r - 2], M = xt->shape[r - 1];
  size_t es = holo_dtype_size(xt->dtype), batch = holo_k_prod(xt->shape, 0, r - 2);
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  size_t p = 0;
  for (size_t b = 0; b < batch; b++)
    for (int64_t i = 0; i < N; i++)
      for (int64_t j = 0; j < M; j++, p++) {
        /* j - i cannot overflow: both are below 2^62 */
        bool keep = upper ? (j - i >= k) : (j - i <= k);
        for (size_t e = 0; e < es; e++) y[p * es + e] = keep ? x[p * es + e] : 0;
      }
  return HOLO_OK;
}
