/* holo.LayerNormSteps(X, Scale?, B?; epsilon: FLOAT) -> Y, X's shape: the
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
 * SIMD128: the two sums stay sequential double adds per row (their order is
 * the ReduceMean kernel's; 4 rows' chains are interleaved); the squares (computed into the output row first),
 * and the final d / s * scale + b run 4 lanes at a time — independent
 * elements, the same f32 operations per element, hence the same bytes. */
#include "ext-util.h"
#include "ukernels.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

#if defined(__clang__)
#pragma clang fp contract(off)
#endif

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
  c->alias_input = -1;
  c->workspace_bytes = 0;
  if ((st = lns_check(c, &n))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "holo.LayerNormSteps", 0, HOLO_DT_F32, x->rank, x->shape);
}

/* acc[q] = sum over i of (double)p[q*n + i], ascending i, for q < nr (<= 4) */
static void row_sums(const float *p, size_t n, size_t nr, double *acc) {
  if (nr == 4) {
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
    const float *p1 = p + n, *p2 = p1 + n, *p3 = p2 + n;
    for (size_t i = 0; i < n; i++) {
      a0 += (double)p[i];
      a1 += (double)p1[i];
      a2 += (double)p2[i];
      a3 += (double)p3[i];
    }
    acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    return;
  }
  for (size_t q = 0; q < nr; q++) {
    double a = 0.0;
    for (size_t i = 0; i < n; i++) a += (double)p[q * n + i];
    acc[q] = a;
  }
}

/* yr[i] = d*d with d = xr[i] - mean (the squares wait in the output row) */
void holo_ukernel_lns_squares_f32__scalar(const float *xr, float *yr, size_t n, float mean) {
  for (size_t i = 0; i < n; i++) {
    float d = xr[i] - mean;
    yr[i] = d * d;
  }
}

/* yr[i] = ((xr[i] - mean) / s) * scale + b, scale / b absent when NULL */
void holo_ukernel_lns_norm_f32__scalar(const float *xr, float *yr, size_t n, float mean, float s,
                                       const float *sc, size_t ss, const float *bi, size_t bs) {
  for (size_t i = 0; i < n; i++) {
    float v = (xr[i] - mean) / s;
    if (sc) v = v * sc[i * ss];
    if (bi) v = v + bi[i * bs];
    yr[i] = v;
  }
}

#ifdef __wasm_simd128__
void holo_ukernel_lns_squares_f32__simd128(const float *xr, float *yr, size_t n, float mean) {
  size_t i = 0;
  const v128_t mv = wasm_f32x4_splat(mean);
  for (; i + 4 <= n; i += 4) {
    v128_t d = wasm_f32x4_sub(wasm_v128_load(xr + i), mv);
    wasm_v128_store(yr + i, wasm_f32x4_mul(d, d));
  }
  holo_ukernel_lns_squares_f32__scalar(xr + i, yr + i, n - i, mean);
}

void holo_ukernel_lns_norm_f32__simd128(const float *xr, float *yr, size_t n, float mean, float s,
                                        const float *sc, size_t ss, const float *bi, size_t bs) {
  size_t i = 0;
  const v128_t mv = wasm_f32x4_splat(mean), sv = wasm_f32x4_splat(s);
  const v128_t sc1 = wasm_f32x4_splat(sc ? sc[0] : 0.0f), bi1 = wasm_f32x4_splat(bi ? bi[0] : 0.0f);
  for (; i + 4 <= n; i += 4) {
    v128_t v = wasm_f32x4_div(wasm_f32x4_sub(wasm_v128_load(xr + i), mv), sv);
    if (sc) v = wasm_f32x4_mul(v, ss ? wasm_v128_load(sc + i) : sc1);
    if (bi) v = wasm_f32x4_add(v, bs ? wasm_v128_load(bi + i) : bi1);
    wasm_v128_store(yr + i, v);
  }
  holo_ukernel_lns_norm_f32__scalar(xr + i, yr + i, n - i, mean, s, sc ? sc + i * ss : sc, ss,
                                    bi ? bi + i * bs : bi, bs);
}
#define lns_squares holo_ukernel_lns_squares_f32__simd128
#define lns_norm holo_ukernel_lns_norm_f32__simd128
#else
#define lns_squares holo_ukernel_lns_squares_f32__scalar
#define lns_norm holo_ukernel_lns_norm_f32__scalar
#endif

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
    row_sums(x + r0 * n, n, nr, acc);
    for (size_t q = 0; q < nr; q++) mean[q] = (float)(acc[q] / (double)n);
    for (size_t q = 0; q < nr; q++) lns_squares(x + (r0 + q) * n, y + (r0 + q) * n, n, mean[q]);
    row_sums(y + r0 * n, n, nr, acc);
    for (size_t q = 0; q < nr; q++) s[q] = __builtin_sqrtf((float)(acc[q] / (double)n) + eps);
    for (size_t q = 0; q < nr; q++)
      lns_norm(x + (r0 + q) * n, y + (r0 + q) * n, n, mean[q], s[q], has_s ? sc : 0, ss, has_b ? bi : 0, bs);
  }
  return HOLO_OK;
}
