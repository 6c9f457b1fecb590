/* LayerNormalization and holo.LayerNormSteps: validation, shapes and the
 * row loop here, the arithmetic in microkernels/layernorm.h.
 *
 * LayerNormalization (opset 17) on f32: X, Scale, optional B; attributes
 * axis (default -1), epsilon (default 1e-5), stash_type (1 only: the
 * statistics are computed in double here, which is at least as precise).
 * Scale and B broadcast (numpy rules) onto the normalized shape
 * X.shape[axis:]. Optional outputs 1 (Mean) and 2 (InvStdDev) have X's rank
 * with 1 from axis on. Per row: mean and the biased variance in double,
 * ascending order; y = (x - mean) / sqrt(var + eps) * scale + b, rounded once
 * (microkernels/layernorm.h).
 *
 * holo.LayerNormSteps(X, Scale?, B?; epsilon: FLOAT) -> Y, X's shape: the
 * LayerNorm that ONNX exporters write op by op, as ONE kernel with THE SAME
 * STEPS AND ROUNDINGS as those ops (compiler/rewrites/fuse-layernorm.js), per
 * row of the last axis (n elements):
 *   mean = (f32)(sum_i (double)x_i, ascending, / (double)n)     ReduceMean
 *   d_i  = x_i - mean                                            Sub   (f32)
 *   var  = (f32)(sum_i (double)(d_i * d_i), ascending, / n)      Pow(d,2) = d*d, ReduceMean
 *   s    = sqrtf(var + eps)                                      Add, Sqrt (f32)
 *   y_i  = ((d_i / s) * scale) + b                               Div, Mul, Add (f32)
 * Scale and B (each optional; B may be given with Scale absent) have 1 or n
 * elements. So its bytes are the unfused graph's (tested against it), and
 * its identity is its own (holo.LayerNormSteps/f32/scalar/1).
 *
 * The steps are microkernels/layernorm.h's: the two sums sequential double
 * adds per row, the squares (computed into the output row first) and the
 * final d / s * scale + b elementwise (4 lanes at a time in SIMD builds,
 * the same bytes). */
#include "common/bcast.h"
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/layernorm.h"
#include "operators/operators.h"

static holo_status ln_check(holo_kernel_call *c, uint32_t *axis, double *eps) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "LayerNormalization", 2, 3, 3))) return st;
  if ((st = holo_k_check_input(c, "LayerNormalization", 0, HOLO_DT_F32))) return st;
  if ((st = holo_k_check_input(c, "LayerNormalization", 1, HOLO_DT_F32))) return st;
  if (c->n_inputs > 2 && !holo_k_absent(c, 2) &&
      (st = holo_k_check_input(c, "LayerNormalization", 2, HOLO_DT_F32)))
    return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t a = holo_attr_int(c, "axis", -1);
  if (x->rank == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "LayerNormalization: X must have rank >= 1");
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "LayerNormalization: axis %lld is out of range for rank %u", (long long)a,
                       x->rank);
  int64_t stash = holo_attr_int(c, "stash_type", 1);
  if (stash != 1)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "LayerNormalization: stash_type %lld is not supported",
                       (long long)stash);
  float e = holo_attr_float(c, "epsilon", 1e-5f);
  if (!(e >= 0) || e == __builtin_inff())
    return holo_k_fail(c, HOLO_ERR_KERNEL, "LayerNormalization: epsilon must be finite and >= 0");
  *eps = e;
  /* Scale and B must broadcast onto the normalized shape without growing it */
  uint32_t nr = x->rank - *axis;
  const int64_t *ns = x->shape + *axis;
  for (uint32_t k = 1; k < c->n_inputs; k++) {
    if (holo_k_absent(c, k)) continue;
    const holo_tensor *t = &c->inputs[k];
    bool ok = t->rank <= nr;
    for (uint32_t i = 0; ok && i < t->rank; i++) {
      int64_t d = t->shape[i], want = ns[nr - t->rank + i];
      ok = d == want || d == 1;
    }
    if (!ok) {
      char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "LayerNormalization: %s %s does not broadcast to the normalized shape %s",
                         k == 1 ? "Scale" : "B", holo_k_shape_str(s1, t->shape, t->rank),
                         holo_k_shape_str(s2, ns, nr));
    }
  }
  return HOLO_OK;
}

holo_status holo_k_layernorm_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  double eps;
  holo_k_infer_reset(c);
  if ((st = ln_check(c, &axis, &eps))) return st;
  const holo_tensor *x = &c->inputs[0];
  if ((st = holo_k_set_output(c, "LayerNormalization", 0, HOLO_DT_F32, x->rank, x->shape))) return st;
  int64_t ss[HOLO_MAX_RANK];
  for (uint32_t i = 0; i < x->rank; i++) ss[i] = i < axis ? x->shape[i] : 1;
  for (uint32_t k = 1; k < c->n_outputs; k++)
    if ((st = holo_k_set_output(c, "LayerNormalization", k, HOLO_DT_F32, x->rank, ss))) return st;
  return HOLO_OK;
}

holo_status holo_k_layernorm_run(holo_kernel_call *c) {
  uint32_t axis;
  double eps;
  if (ln_check(c, &axis, &eps)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  bool has_b = c->n_inputs > 2 && !holo_k_absent(c, 2);
  size_t rows = holo_k_prod(xt->shape, 0, axis), n = holo_k_prod(xt->shape, axis, xt->rank);
  /* the walk over the normalized shape gives the Scale / B offsets */
  holo_tensor norm = {0};
  norm.rank = xt->rank - axis;
  for (uint32_t i = 0; i < norm.rank; i++) norm.shape[i] = xt->shape[axis + i];
  const holo_tensor *t[2] = {&c->inputs[1], has_b ? &c->inputs[2] : &c->inputs[1]};
  holo_bcast w0;
  holo_bcast_init(&w0, &norm, t, 2);
  const float *x = xt->data, *sc = c->inputs[1].data, *bi = has_b ? c->inputs[2].data : 0;
  float *y = c->outputs[0].data;
  float *mean_out = c->n_outputs > 1 ? c->outputs[1].data : 0;
  float *inv_out = c->n_outputs > 2 ? c->outputs[2].data : 0;
  holo_ukernel_layernorm_f32__scalar(x, y, rows, n, eps, sc, bi, &w0, mean_out, inv_out);
  return HOLO_OK;
}

/* ---- holo.LayerNormSteps ---- */

static holo_status lns_check(holo_kernel_call *c, size_t *n) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "holo.LayerNormSteps", 1, 3, 1))) return st;
  if ((st = holo_k_check_input(c, "holo.LayerNormSteps", 0, HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank == 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "holo.LayerNormSteps: X must have rank >= 1");
  const holo_attr *e = holo_attr_find(c, "epsilon");
  if (!e || e->type != HOLO_ATTR_FLOAT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "holo.LayerNormSteps: attribute epsilon (FLOAT) is required");
  *n = (size_t)x->shape[x->rank - 1];
  for (uint32_t k = 1; k < c->n_inputs; k++) {
    if (holo_k_absent(c, k)) continue;
    if ((st = holo_k_check_input(c, "holo.LayerNormSteps", k, HOLO_DT_F32))) return st;
    const holo_tensor *t = &c->inputs[k];
    size_t m = holo_k_prod(t->shape, 0, t->rank);
    bool lead1 = t->rank <= x->rank;
    for (uint32_t i = 0; lead1 && i + 1 < t->rank; i++) lead1 = t->shape[i] == 1;
    if (!lead1 || (m != 1 && m != *n)) {
      char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "holo.LayerNormSteps: %s %s must be [.., 1] or [.., %zu] with leading dims 1 for X%s",
                         k == 1 ? "Scale" : "B", holo_k_shape_str(s1, t->shape, t->rank), *n,
                         holo_k_shape_str(s2, x->shape, x->rank));
    }
  }
  return HOLO_OK;
}

holo_status holo_k_layernormsteps_infer(holo_kernel_call *c) {
  holo_status st;
  size_t n;
  holo_k_infer_reset(c);
  if ((st = lns_check(c, &n))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "holo.LayerNormSteps", 0, HOLO_DT_F32, x->rank, x->shape);
}

holo_status holo_k_layernormsteps_run(holo_kernel_call *c) {
  size_t n;
  if (lns_check(c, &n)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float eps = holo_attr_float(c, "epsilon", 0.0f);
  const bool has_s = c->n_inputs > 1 && !holo_k_absent(c, 1);
  const bool has_b = c->n_inputs > 2 && !holo_k_absent(c, 2);
  const float *sc = has_s ? c->inputs[1].data : 0, *bi = has_b ? c->inputs[2].data : 0;
  /* element strides of Scale / B along the row: 0 when broadcast from one */
  const size_t ss = has_s && holo_k_prod(c->inputs[1].shape, 0, c->inputs[1].rank) == n ? 1 : 0;
  const size_t bs = has_b && holo_k_prod(c->inputs[2].shape, 0, c->inputs[2].rank) == n ? 1 : 0;
  const size_t rows = n ? holo_k_prod(xt->shape, 0, xt->rank) / n : 0;
  const float *x = xt->data;
  float *y = c->outputs[0].data;
  /* rows in groups of 4: each row's double sums run in its own ascending
   * order, but 4 independent chains hide the add latency */
  for (size_t r0 = 0; r0 < rows; r0 += 4) {
    const size_t nr = rows - r0 < 4 ? rows - r0 : 4;
    float mean[4], s[4];
    double acc[4];
    holo_ukernel_lns_rowsums_f32__scalar(x + r0 * n, n, nr, acc);
    for (size_t q = 0; q < nr; q++) mean[q] = (float)(acc[q] / (double)n);
    for (size_t q = 0; q < nr; q++) holo_lns_squares_f32(x + (r0 + q) * n, y + (r0 + q) * n, n, mean[q]);
    holo_ukernel_lns_rowsums_f32__scalar(y + r0 * n, n, nr, acc);
    for (size_t q = 0; q < nr; q++) s[q] = __builtin_sqrtf((float)(acc[q] / (double)n) + eps);
    for (size_t q = 0; q < nr; q++)
      holo_lns_norm_f32(x + (r0 + q) * n, y + (r0 + q) * n, n, mean[q], s[q], has_s ? sc : 0, ss, has_b ? bi : 0, bs);
  }
  return HOLO_OK;
}
