/* LayerNormalization (opset 17) on f32: X, Scale, optional B; attributes
 * axis (default -1), epsilon (default 1e-5), stash_type (1 only: the
 * statistics are computed in double here, which is at least as precise).
 * Scale and B broadcast (numpy rules) onto the normalized shape
 * X.shape[axis:]. Optional outputs 1 (Mean) and 2 (InvStdDev) have X's rank
 * with 1 from axis on. Per row: mean and the biased variance in double,
 * ascending order; y = (x - mean) / sqrt(var + eps) * scale + b, rounded once. */
#include "ext-util.h"
#include "mathf.h"

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
  c->alias_input = -1;
  c->workspace_bytes = 0;
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
  holo_x_walk w0;
  holo_x_walk_init(&w0, &norm, t, 2);
  const float *x = xt->data, *sc = c->inputs[1].data, *bi = has_b ? c->inputs[2].data : 0;
  float *y = c->outputs[0].data;
  float *mean_out = c->n_outputs > 1 ? c->outputs[1].data : 0;
  float *inv_out = c->n_outputs > 2 ? c->outputs[2].data : 0;
  for (size_t r = 0; r < rows; r++) {
    const float *xr = x + r * n;
    float *yr = y + r * n;
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += xr[i];
    double mean = n ? sum / (double)n : 0.0, var = 0;
    for (size_t i = 0; i < n; i++) {
      double d = (double)xr[i] - mean;
      var += d * d;
    }
    var = n ? var / (double)n : 0.0;
    double inv = 1.0 / holo_sqrt(var + eps);
    holo_x_walk w = w0;
    for (size_t i = 0; i < n; i++, holo_x_walk_next(&w)) {
      double v = ((double)xr[i] - mean) * inv * (double)sc[w.off[0]];
      if (bi) v += (double)bi[w.off[1]];
      yr[i] = (float)v;
    }
    if (mean_out) mean_out[r] = (float)mean;
    if (inv_out) inv_out[r] = (float)inv;
  }
  return HOLO_OK;
}
