/* Det (opset 11): the determinant of each square matrix of X [..., M, M]
 * (f32 or f64) as Y [...]. Gaussian elimination with partial pivoting
 * (the first row of largest magnitude), carried in double over a copy of
 * each matrix and rounded once to X's dtype; M = 0 gives 1 (the empty
 * product). A NaN anywhere in a matrix gives NaN. f16 and bf16 (which the
 * spec allows) are refused. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

static holo_status det_check(holo_kernel_call *c, size_t *batch, size_t *m) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Det", 1, 1, 1)) || (st = holo_k_check_input(c, "Det", 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->dtype != HOLO_DT_F32 && x->dtype != HOLO_DT_F64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "Det: dtype %s is not supported (f32, f64)",
                       holo_k_dtype_name(x->dtype));
  if (x->rank < 2 || x->shape[x->rank - 1] != x->shape[x->rank - 2])
    return holo_k_fail(c, HOLO_ERR_KERNEL, "Det: X must be [..., M, M]");
  *m = (size_t)x->shape[x->rank - 1];
  *batch = holo_k_prod(x->shape, 0, x->rank - 2);
  return HOLO_OK;
}

holo_status holo_k_det_infer(holo_kernel_call *c) {
  holo_status st;
  size_t batch, m;
  holo_k_infer_reset(c);
  if ((st = det_check(c, &batch, &m))) return st;
  uint64_t ws = holo_k_mul_sat(holo_k_mul_sat(m, m), sizeof(double));
  if (ws > (uint64_t)SIZE_MAX / 2)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "Det: a %zu x %zu matrix is too large", m, m);
  c->workspace_bytes = (size_t)ws;
  uint64_t f[4] = {batch, m, m, m};
  c->work = holo_k_work(4, f);
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "Det", 0, x->dtype, x->rank - 2, x->shape);
}

/* The determinant of the m x m matrix a (overwritten). */
static double det_lu(double *a, size_t m) {
  double d = 1;
  for (size_t k = 0; k < m; k++) {
    size_t p = k;
    double best = a[k * m + k] < 0 ? -a[k * m + k] : a[k * m + k];
    for (size_t i = k + 1; i < m; i++) {
      double v = a[i * m + k] < 0 ? -a[i * m + k] : a[i * m + k];
      if (v > best || (v != v && best == best)) p = i, best = v; /* a NaN (from Inf - Inf) wins */
    }
    if (best != best) return best;
    if (best == 0) return 0;
    if (p != k) {
      for (size_t j = 0; j < m; j++) {
        double t = a[k * m + j];
        a[k * m + j] = a[p * m + j];
        a[p * m + j] = t;
      }
      d = -d;
    }
    double piv = a[k * m + k];
    d *= piv;
    for (size_t i = k + 1; i < m; i++) {
      double f = a[i * m + k] / piv;
      for (size_t j = k + 1; j < m; j++)
        a[i * m + j] -= f * a[k * m + j];
    }
  }
  return d;
}

holo_status holo_k_det_run(holo_kernel_call *c) {
  size_t batch, m;
  if (det_check(c, &batch, &m)) return HOLO_ERR_KERNEL;
  const holo_tensor *x = &c->inputs[0];
  double *a = c->workspace;
  for (size_t b = 0; b < batch; b++) {
    bool nan = false;
    for (size_t i = 0; i < m * m; i++) {
      a[i] = holo_k_load_f64(x->data, x->dtype, b * m * m + i);
      nan = nan || a[i] != a[i];
    }
    double d = nan ? __builtin_nan("") : det_lu(a, m);
    if (x->dtype == HOLO_DT_F32)
      ((float *)c->outputs[0].data)[b] = (float)d;
    else
      ((double *)c->outputs[0].data)[b] = d;
  }
  return HOLO_OK;
}
