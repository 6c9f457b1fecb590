/* HannWindow, HammingWindow, BlackmanWindow (opset 17): a 1-D window of
 * `size` (a scalar i32/i64 input, 0 <= size <= 2^31) points of dtype
 * `output_datatype` (default f32; any numeric); `periodic` (default 1)
 * divides by size, else by size - 1. The values are the ONNX reference's
 * (with N the divisor and x = 2 pi n / N):
 *   Hann      sin^2(pi n / N)
 *   Hamming   25/46 - (21/46) cos x
 *   Blackman  0.42 - 0.5 cos x + 0.08 cos 2x
 * computed in double (math/) and cast once to the output dtype. */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "math/mathlib.h"
#include "microkernels/cast.h"
#include "operators/operators.h"

enum { W_HANN, W_HAMMING, W_BLACKMAN };
static const char *const w_names[] = {"HannWindow", "HammingWindow", "BlackmanWindow"};

static holo_status w_check(holo_kernel_call *c, int w, int64_t *size, uint32_t *dt) {
  const char *op = w_names[w];
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 1, 1, 1)) || (st = holo_k_check_input(c, op, 0, 0))) return st;
  const holo_tensor *s = &c->inputs[0];
  if ((s->dtype != HOLO_DT_I32 && s->dtype != HOLO_DT_I64) || holo_k_prod(s->shape, 0, s->rank) != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: size must be an i32 or i64 scalar", op);
  *size = holo_k_load_i64(s->data, s->dtype, 0);
  if (*size < 0 || *size > ((int64_t)1 << 31))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: size %lld is outside [0, 2^31]", op, (long long)*size);
  int64_t d = holo_attr_int(c, "output_datatype", HOLO_DT_F32), p = holo_attr_int(c, "periodic", 1);
  if (d <= 0 || d > 0xffff || d == HOLO_DT_BOOL || holo_dtype_size((uint32_t)d) == 0 || holo_dtype_is_list((uint32_t)d))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: output_datatype %lld is not supported", op,
                       (long long)d);
  if (p != 0 && p != 1) return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: periodic must be 0 or 1", op);
  *dt = (uint32_t)d;
  return HOLO_OK;
}

static holo_status w_infer(holo_kernel_call *c, int w) {
  holo_status st;
  int64_t size;
  uint32_t dt;
  holo_k_infer_reset(c);
  if ((st = w_check(c, w, &size, &dt))) return st;
  return holo_k_set_output(c, w_names[w], 0, dt, 1, &size);
}

static holo_status w_run(holo_kernel_call *c, int w) {
  int64_t size;
  uint32_t dt;
  if (w_check(c, w, &size, &dt)) return HOLO_ERR_KERNEL;
  const double PI = 3.14159265358979323846;
  const double N = (double)(holo_attr_int(c, "periodic", 1) ? size : size - 1);
  const size_t es = holo_dtype_size(dt);
  uint8_t *y = c->outputs[0].data;
  for (int64_t n = 0; n < size; n++) {
    /* size 1 (periodic 0): N = 0; the reference's 0/0 is NaN, numpy's windows give 1 */
    double x = N > 0 ? 2 * PI * (double)n / N : 0, v;
    if (w == W_HANN) {
      double s = holo_sin(x / 2);
      v = s * s;
    } else if (w == W_HAMMING) {
      v = 25.0 / 46.0 - (21.0 / 46.0) * holo_cos(x);
    } else {
      v = 0.42 - 0.5 * holo_cos(x) + 0.08 * holo_cos(2 * x);
    }
    holo_ukernel_cast_numeric__scalar(HOLO_DT_F64, dt, 1, &v, y + (size_t)n * es);
  }
  return HOLO_OK;
}

holo_status holo_k_hannwindow_infer(holo_kernel_call *c) { return w_infer(c, W_HANN); }
holo_status holo_k_hammingwindow_infer(holo_kernel_call *c) { return w_infer(c, W_HAMMING); }
holo_status holo_k_blackmanwindow_infer(holo_kernel_call *c) { return w_infer(c, W_BLACKMAN); }
holo_status holo_k_hannwindow_run(holo_kernel_call *c) { return w_run(c, W_HANN); }
holo_status holo_k_hammingwindow_run(holo_kernel_call *c) { return w_run(c, W_HAMMING); }
holo_status holo_k_blackmanwindow_run(holo_kernel_call *c) { return w_run(c, W_BLACKMAN); }
