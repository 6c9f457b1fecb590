/* The fused activation attributes of the product operators, into the GEMM
 * core's epilogue or, for the elementwise activations, the unary kernel run
 * over the core's results (products.h). */
#include "common/check.h"
#include "operators/products.h"

holo_status holo_k_gemm_act(holo_kernel_call *c, const char *op, holo_gemm *g) {
  const holo_attr *a = holo_attr_find(c, "holo_activation");
  if (!a) return HOLO_OK;
  if (holo_attr_string_is(c, "holo_activation", "Relu")) {
    g->relu = true;
    return HOLO_OK;
  }
  if (holo_attr_string_is(c, "holo_activation", "Clip")) {
    const holo_attr *lo = holo_attr_find(c, "holo_clip_min"), *hi = holo_attr_find(c, "holo_clip_max");
    if ((lo && lo->type != HOLO_ATTR_FLOAT) || (hi && hi->type != HOLO_ATTR_FLOAT))
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: holo_clip_min / holo_clip_max must be FLOAT", op);
    g->lo_on = lo != 0;
    g->hi_on = hi != 0;
    g->lo = holo_attr_float(c, "holo_clip_min", 0.0f);
    g->hi = holo_attr_float(c, "holo_clip_max", 0.0f);
    return HOLO_OK;
  }
  static const char *const elementwise[] = {"Sigmoid", "holo.SiLU", "HardSwish", "HardSigmoid", "Gelu", "Tanh"};
  for (size_t k = 0; k < sizeof elementwise / sizeof elementwise[0]; k++) {
    if (!holo_attr_string_is(c, "holo_activation", elementwise[k])) continue;
    const int row = holo_k_unary_row(elementwise[k]);
    holo_status st = holo_k_unary_attrs(c, row, "holo_activation_", &g->act_p);
    if (st) return st;
    g->act = row + 1;
    return HOLO_OK;
  }
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                     "%s: holo_activation must be the STRING \"Relu\", \"Clip\", \"Sigmoid\", \"holo.SiLU\", "
                     "\"HardSwish\", \"HardSigmoid\", \"Gelu\" or \"Tanh\" (the fused activations)",
                     op);
}

void holo_gemm_act_apply(const holo_gemm *g, float *y, size_t n) {
  if (g->act) holo_k_unary_apply(g->act - 1, &g->act_p, n, y, y);
}

void holo_gemm_act_block(const holo_gemm *g) {
  if (!g->act) return;
  if (g->ldc == g->N) {
    holo_gemm_act_apply(g, g->C, g->M * g->N);
    return;
  }
  for (size_t i = 0; i < g->M; i++) holo_gemm_act_apply(g, g->C + i * g->ldc, g->N);
}
