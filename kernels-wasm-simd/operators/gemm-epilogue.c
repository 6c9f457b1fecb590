/* The fused activation attributes of the product operators, into the GEMM
 * core's epilogue (products.h). */
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
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                     "%s: holo_activation must be the STRING \"Relu\" or \"Clip\" (the fused activations)",
                     op);
}
