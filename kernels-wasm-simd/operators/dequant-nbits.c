/* holo.DequantizeQ4(B u8 [N, kb, bs/2], scales f32 [N*kb] or [N, kb],
 * zero_points u8 [N * ceil(kb/2)] optional; K, N, block_size) -> f32 [K, N]:
 * com.microsoft MatMulNBits' 4-bit weight as MatMul's B (the converter
 * puts it in front of a MatMul). Its operands are constants, so it runs
 * once, in the constant cone at load (or at conversion when small), never
 * per call (microkernels/dequant-nbits.h). */
#include "microkernels/dequant-nbits.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"

static size_t dq_numel(const holo_tensor *t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t->rank; i++)
    n *= (size_t)t->shape[i];
  return n;
}

static holo_status dq_geometry(holo_kernel_call *c, size_t *K, size_t *N, size_t *bs) {
  const char *op = "holo.DequantizeQ4";
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 2, 3, 1)) || (st = holo_k_check_input(c, op, 0, HOLO_DT_U8)) ||
      (st = holo_k_check_input(c, op, 1, HOLO_DT_F32)))
    return st;
  int64_t k = holo_attr_int(c, "K", 0), n = holo_attr_int(c, "N", 0), b = holo_attr_int(c, "block_size", 0);
  if (k < 1 || n < 1 || k > ((int64_t)1 << 30) || n > ((int64_t)1 << 30))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: K = %lld and N = %lld must be in 1 .. 2^30", op, (long long)k,
                       (long long)n);
  if (b < 16 || (b & (b - 1)))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: block_size must be a power of 2 of at least 16, got %lld", op,
                       (long long)b);
  size_t kb = (size_t)((k + b - 1) / b);
  const holo_tensor *q = &c->inputs[0];
  char s1[HOLO_K_SHAPE_STR];
  if (q->rank != 3 || (size_t)q->shape[0] != (size_t)n || (size_t)q->shape[1] != kb ||
      (size_t)q->shape[2] != (size_t)b / 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "%s: B must be [%lld, %zu, %lld] (N, blocks, block_size / 2), got %s", op,
                       (long long)n, kb, (long long)(b / 2), holo_k_shape_str(s1, q->shape, q->rank));
  if (dq_numel(&c->inputs[1]) != (size_t)n * kb)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: scales must hold N * blocks = %zu values, got %zu", op,
                       (size_t)n * kb, dq_numel(&c->inputs[1]));
  if (!holo_k_absent(c, 2)) {
    if ((st = holo_k_check_input(c, op, 2, HOLO_DT_U8))) return st;
    if (dq_numel(&c->inputs[2]) != (size_t)n * ((kb + 1) / 2))
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "%s: zero_points must hold N * ceil(blocks / 2) = %zu bytes, got %zu", op,
                         (size_t)n * ((kb + 1) / 2), dq_numel(&c->inputs[2]));
  }
  *K = (size_t)k, *N = (size_t)n, *bs = (size_t)b;
  return HOLO_OK;
}

holo_status holo_k_dequantq4_infer(holo_kernel_call *c) {
  size_t K, N, bs;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = dq_geometry(c, &K, &N, &bs))) return st;
  uint64_t f[2] = {K, N};
  c->work = holo_k_work(2, f);
  int64_t ys[2] = {(int64_t)K, (int64_t)N};
  return holo_k_set_output(c, "holo.DequantizeQ4", 0, HOLO_DT_F32, 2, ys);
}

holo_status holo_k_dequantq4_run(holo_kernel_call *c) {
  size_t K, N, bs;
  if (dq_geometry(c, &K, &N, &bs)) return HOLO_ERR_KERNEL;
  holo_ukernel_dequant_q4__scalar(c->inputs[0].data, c->inputs[1].data,
                                  holo_k_absent(c, 2) ? 0 : c->inputs[2].data, K, N, bs, 0, N,
                                  c->outputs[0].data);
  return HOLO_OK;
}
