/* IsNaN (opset 9, 13) and IsInf (opset 10: detect_negative,
 * detect_positive, default 1) over f16, f32 and f64; output bool of the
 * input's shape. */
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/vclassify.h"
#include "operators/operators.h"

static holo_status flag(holo_kernel_call *c, const char *name, bool *out) {
  int64_t v = holo_attr_int(c, name, 1);
  if (v != 0 && v != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "IsInf: %s must be 0 or 1", name);
  *out = v == 1;
  return HOLO_OK;
}

static holo_status classify_infer(holo_kernel_call *c, const char *op) {
  holo_status st;
  bool f;
  if ((st = holo_k_infer_begin(c, op, 1, 1, 1))) return st;
  if ((st = holo_k_check_input(c, op, 0, 0))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->dtype != HOLO_DT_F32 && x->dtype != HOLO_DT_F64 && x->dtype != HOLO_DT_F16)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported (floats only)", op,
                       holo_k_dtype_name(x->dtype));
  if (op[2] == 'I' && ((st = flag(c, "detect_negative", &f)) || (st = flag(c, "detect_positive", &f))))
    return st;
  return holo_k_set_output(c, op, 0, HOLO_DT_BOOL, x->rank, x->shape);
}

static holo_status classify_run(holo_kernel_call *c, bool nan) {
  bool neg = false, pos = false;
  if (!nan && (flag(c, "detect_negative", &neg) || flag(c, "detect_positive", &pos))) return HOLO_ERR_KERNEL;
  const holo_tensor *x = &c->inputs[0];
  holo_ukernel_vclassify_float__scalar(x->dtype, nan, neg, pos, holo_k_prod(x->shape, 0, x->rank), x->data,
                                       c->outputs[0].data);
  return HOLO_OK;
}

holo_status holo_k_isnan_infer(holo_kernel_call *c) { return classify_infer(c, "IsNaN"); }
holo_status holo_k_isinf_infer(holo_kernel_call *c) { return classify_infer(c, "IsInf"); }
holo_status holo_k_isnan_run(holo_kernel_call *c) { return classify_run(c, true); }
holo_status holo_k_isinf_run(holo_kernel_call *c) { return classify_run(c, false); }
