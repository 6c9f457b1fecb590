/* NonZero (opset 9, 13): the indices of the nonzero elements of X (any
 * numeric dtype or bool) as an i64 tensor [rank, count], in row-major
 * order (numpy's nonzero, transposed as the spec has it). The count is the
 * data's, so infer reads X: the output shape is known only at execute time
 * (docs/converter.md, data-dependent shapes). A scalar X gives [1, count]
 * (index 0), as the spec's reference does (numpy treats it as 1-D). NaN is
 * nonzero. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

static bool nonzero_at(const holo_tensor *x, size_t i) {
  if (x->dtype == HOLO_DT_BOOL || x->dtype == HOLO_DT_U8 || x->dtype == HOLO_DT_I8)
    return ((const uint8_t *)x->data)[i] != 0;
  if (holo_k_is_float(x->dtype)) {
    double v = holo_k_load_f64(x->data, x->dtype, i);
    return v != 0; /* NaN != 0 */
  }
  return holo_k_load_i64(x->data, x->dtype, i) != 0;
}

static holo_status nz_count(holo_kernel_call *c, size_t *count) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "NonZero", 1, 1, 1)) || (st = holo_k_check_input(c, "NonZero", 0, 0)))
    return st;
  const holo_tensor *x = &c->inputs[0];
  if (!holo_k_numeric(x->dtype))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "NonZero: dtype %s is not supported",
                       holo_k_dtype_name(x->dtype));
  size_t n = holo_k_prod(x->shape, 0, x->rank), m = 0;
  for (size_t i = 0; i < n; i++)
    m += nonzero_at(x, i);
  *count = m;
  return HOLO_OK;
}

holo_status holo_k_nonzero_infer(holo_kernel_call *c) {
  holo_status st;
  size_t m = 0;
  holo_k_infer_reset(c);
  if ((st = nz_count(c, &m))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[2] = {x->rank ? x->rank : 1, (int64_t)m};
  return holo_k_set_output(c, "NonZero", 0, HOLO_DT_I64, 2, ys);
}

holo_status holo_k_nonzero_run(holo_kernel_call *c) {
  const holo_tensor *x = &c->inputs[0];
  const uint32_t r = x->rank;
  const size_t n = holo_k_prod(x->shape, 0, r), m = (size_t)c->outputs[0].shape[1];
  int64_t idx[HOLO_MAX_RANK] = {0}, *y = c->outputs[0].data;
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (nonzero_at(x, i)) {
      if (j >= m) return HOLO_ERR_KERNEL; /* infer counted these very bytes */
      for (uint32_t a = 0; a < r; a++)
        y[a * m + j] = idx[a];
      if (r == 0) y[j] = 0;
      j++;
    }
    holo_k_next_index(idx, x->shape, r);
  }
  return HOLO_OK;
}
