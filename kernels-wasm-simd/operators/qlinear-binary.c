/* QLinearAdd / QLinearMul (com.microsoft's, onnxruntime's QOperator format)
 * and the converter's fusion of static-QDQ DequantizeLinear ->
 * Add|Mul [-> Relu] -> QuantizeLinear (compiler/rewrites/fuse-qdq.js,
 * decision 74): one pass over the int8 operands instead of dequantizing
 * both to f32, adding, and quantizing back (four f32 passes).
 *
 *   inputs  A, A_scale, A_zero_point?, B, B_scale, B_zero_point?,
 *           C_scale, C_zero_point?     (per-tensor parameters; u8 or i8)
 *   attr    relu (0/1, the fusion's): max(v, 0) before the quantization
 *   output  C, A's dtype, the numpy broadcast of A and B
 *
 * The bytes are the float path's (microkernels/vqbinary.h): those of the
 * unfused chain and of onnxruntime's reference kernel. Scales that could
 * make a NaN (not finite, |A_scale| or |B_scale| > 2^100, C_scale 0) are
 * refused: the wasm spec leaves a NaN's bits open. */
#include "common/bcast.h"
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/vqbinary.h"
#include "operators/operators.h"
#include "operators/qlinear.h"

enum { QA = 0, QAS, QAZ, QB, QBS, QBZ, QCS, QCZ };

static holo_status qbin_check(holo_kernel_call *c, const char *op) {
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 7, 8, 1)) || (st = holo_k_check_input(c, op, QA, 0)) ||
      (st = holo_k_check_input(c, op, QB, 0)))
    return st;
  uint32_t dt = c->inputs[QA].dtype;
  if (dt != HOLO_DT_U8 && dt != HOLO_DT_I8)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: A must be u8 or i8, got %s", op, holo_k_dtype_name(dt));
  if (c->inputs[QB].dtype != dt)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: B has dtype %s, A %s", op,
                       holo_k_dtype_name(c->inputs[QB].dtype), holo_k_dtype_name(dt));
  if ((st = holo_k_q_scale(c, op, QAS, 1, "A_scale")) ||
      (st = holo_k_q_zero(c, op, QAZ, dt, 1, "A_zero_point")) ||
      (st = holo_k_q_scale(c, op, QBS, 1, "B_scale")) ||
      (st = holo_k_q_zero(c, op, QBZ, dt, 1, "B_zero_point")) ||
      (st = holo_k_q_scale(c, op, QCS, 1, "C_scale")))
    return st;
  return holo_k_q_zero(c, op, QCZ, dt, 1, "C_zero_point");
}

static holo_status qbin_infer(holo_kernel_call *c, const char *op) {
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = qbin_check(c, op))) return st;
  int64_t r = holo_attr_int(c, "relu", 0);
  if (r != 0 && r != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: relu must be 0 or 1, got %lld", op, (long long)r);
  const holo_tensor *t[2] = {&c->inputs[QA], &c->inputs[QB]};
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr;
  if (!holo_k_broadcast_tensors(t, 2, ys, &yr)) {
    char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: shapes do not broadcast: %s vs %s", op,
                       holo_k_shape_str(s1, t[0]->shape, t[0]->rank),
                       holo_k_shape_str(s2, t[1]->shape, t[1]->rank));
  }
  uint64_t f[1] = {holo_k_prod(ys, 0, yr)};
  c->work = holo_k_work(1, f);
  return holo_k_set_output(c, op, 0, c->inputs[QA].dtype, yr, ys);
}

/* finite and |s| <= lim (no libc: NaN fails the comparisons, inf - inf is NaN) */
static bool qbin_scale_ok(float s, float lim) { return s - s == 0.0f && s <= lim && -s <= lim; }

static holo_status qbin_run(holo_kernel_call *c, const char *op, bool mul) {
  if (qbin_check(c, op)) return HOLO_ERR_KERNEL;
  holo_vqbinary p = {
      .as = holo_k_q_scale_at(c, QAS, 0),
      .bs = holo_k_q_scale_at(c, QBS, 0),
      .cs = holo_k_q_scale_at(c, QCS, 0),
      .za = holo_k_q_zero_at(c, QAZ, 0),
      .zb = holo_k_q_zero_at(c, QBZ, 0),
      .zc = holo_k_q_zero_at(c, QCZ, 0),
      .u8 = c->inputs[QA].dtype == HOLO_DT_U8,
      .mul = mul,
      .relu = holo_attr_int(c, "relu", 0) == 1,
  };
  const float lim = 1.2676506e30f; /* 2^100: |v| stays finite before the division, never inf - inf */
  if (!qbin_scale_ok(p.as, lim) || !qbin_scale_ok(p.bs, lim) || !qbin_scale_ok(p.cs, 3.4e38f) || p.cs == 0.0f)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                       "%s: scales must be finite, A/B_scale at most 2^100 and C_scale nonzero", op);
  holo_tensor *y = &c->outputs[0];
  if (holo_k_prod(y->shape, 0, y->rank) == 0) return HOLO_OK;
  const holo_tensor *t[2] = {&c->inputs[QA], &c->inputs[QB]};
  holo_bcast w;
  holo_bcast_init(&w, y, t, 2);
  const uint8_t *a = t[0]->data, *b = t[1]->data;
  uint8_t *yp = y->data;
  for (size_t r = 0; r < w.rows; r++, yp += w.row, holo_bcast_next(&w))
    holo_vqbinary_row(&p, w.row, a + w.off[0], w.step[0], b + w.off[1], w.step[1], yp);
  return HOLO_OK;
}

holo_status holo_k_qlinearadd_infer(holo_kernel_call *c) { return qbin_infer(c, "QLinearAdd"); }
holo_status holo_k_qlinearadd_run(holo_kernel_call *c) { return qbin_run(c, "QLinearAdd", false); }
holo_status holo_k_qlinearmul_infer(holo_kernel_call *c) { return qbin_infer(c, "QLinearMul"); }
holo_status holo_k_qlinearmul_run(holo_kernel_call *c) { return qbin_run(c, "QLinearMul", true); }
