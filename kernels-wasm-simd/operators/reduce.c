/* ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare,
 * ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp on f32 (and f64; the
 * exact ones also on integers: reduce_dtype), opset-18 form:
 * axes is the optional i64 input 1; attributes keepdims (default 1) and
 * noop_with_empty_axes (default 0).
 *
 * Every output element reduces its set in ascending row-major order of the
 * input; sums and products accumulate in double and round to f32 once.
 * Max/Min propagate NaN. Empty sets give the identity of the reduction
 * (Sum/L1/L2/SumSquare 0, Prod 1, Max -inf, Min +inf, LogSum and LogSumExp
 * -inf) and Mean NaN. With empty axes and noop_with_empty_axes=1 every
 * element reduces the singleton set {x} (so ReduceSum copies, ReduceL1 gives
 * |x|, ReduceSumSquare x^2). The reduction of one set: microkernels/reduce.h. */
#include "microkernels/reduce.h"
#include "common/attrs.h"
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/reduce.h"
#include "operators/operators.h"

static const char *const r_names[] = {"ReduceSum",  "ReduceMean",     "ReduceMax", "ReduceMin",
                                      "ReduceProd", "ReduceSumSquare", "ReduceL1", "ReduceL2",
                                      "ReduceLogSum", "ReduceLogSumExp"};

/* The dtypes of the ONNX type lists (opset 13..20) that op computes: f32 and
 * f64 for all; i32, i64, u32, u64 for the exact integer reductions (Sum,
 * Prod, SumSquare, L1, Max, Min); i8, u8 (opset 12+) and bool (opset 20)
 * for Max and Min. Mean, L2, LogSum and LogSumExp on integers are listed
 * by the spec without saying how they round, so they are refused. */
static holo_status reduce_dtype(holo_kernel_call *c, int op) {
  const uint32_t dt = c->inputs[0].dtype;
  const bool minmax = op == HOLO_REDUCE_MAX || op == HOLO_REDUCE_MIN;
  const bool exact = minmax || op == HOLO_REDUCE_SUM || op == HOLO_REDUCE_PROD || op == HOLO_REDUCE_SUMSQ ||
                     op == HOLO_REDUCE_L1;
  if (dt == HOLO_DT_F32 || dt == HOLO_DT_F64) return HOLO_OK;
  if (exact && (dt == HOLO_DT_I32 || dt == HOLO_DT_I64 || dt == HOLO_DT_U32 || dt == HOLO_DT_U64))
    return HOLO_OK;
  if (minmax && (dt == HOLO_DT_I8 || dt == HOLO_DT_U8 || dt == HOLO_DT_BOOL)) return HOLO_OK;
  return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported (f32, f64 are%s)", r_names[op],
                     holo_k_dtype_name(dt),
                     minmax  ? "; so are i8, u8, i32, i64, u32, u64, bool"
                     : exact ? "; so are i32, i64, u32, u64"
                             : "; on integers its rounding is unspecified (issue 20)");
}

/* Validates operands; mask gets the reduced axes. */
static holo_status reduce_plan(holo_kernel_call *c, int op, uint32_t *mask, bool *keep) {
  const char *name = r_names[op];
  holo_status st;
  bool noop;
  if ((st = holo_k_check_arity(c, name, 1, 2, 1))) return st;
  if ((st = holo_k_check_input(c, name, 0, 0))) return st;
  if ((st = reduce_dtype(c, op))) return st;
  if ((st = holo_k_flag(c, name, "keepdims", 1, keep))) return st;
  if ((st = holo_k_flag(c, name, "noop_with_empty_axes", 0, &noop))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t axes[HOLO_MAX_RANK];
  uint32_t na = 0;
  if (!holo_k_absent(c, 1)) {
    if ((st = holo_k_read_ints(c, name, 1, "axes", axes, HOLO_MAX_RANK, &na))) return st;
    if (c->inputs[1].rank == 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axes must be 1-D, got a scalar", name);
  }
  if (na == 0) {
    *mask = noop ? 0 : (x->rank >= 32 ? 0xffffffffu : (1u << x->rank) - 1);
    return HOLO_OK;
  }
  return holo_k_axes_mask(c, name, axes, na, x->rank, mask);
}

static holo_status reduce_infer(holo_kernel_call *c, int op) {
  uint32_t mask;
  bool keep;
  holo_status st;
  holo_k_infer_reset(c);
  if ((st = reduce_plan(c, op, &mask, &keep))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr = 0;
  for (uint32_t i = 0; i < x->rank; i++) {
    if (mask & (1u << i)) {
      if (keep) ys[yr++] = 1;
    } else {
      ys[yr++] = x->shape[i];
    }
  }
  return holo_k_set_output(c, r_names[op], 0, x->dtype, yr, ys);
}

/* The f32 calls whose dims, dims of 1 dropped and neighbours of the same
 * kind merged, read [kept] reduced or [kept] reduced kept: one contiguous
 * run per output, or m contiguous outputs side by side (reduce.h). */
static bool reduce_runs(const holo_kernel_call *c, int op, uint32_t mask) {
  const holo_tensor *xt = &c->inputs[0];
  if (xt->dtype != HOLO_DT_F32 || !holo_reduce_runs_op(op)) return false;
  size_t len[3] = {1, 1, 1}; /* kept, reduced, kept */
  uint32_t part = 0;         /* 0, 1, 2: the part the dims so far are in */
  for (uint32_t i = 0; i < xt->rank; i++) {
    if (xt->shape[i] == 0) return false;
    if (xt->shape[i] == 1) continue;
    const bool red = mask & (1u << i);
    if (part == 0 && red) part = 1;
    else if (part == 1 && !red) part = 2;
    else if (part == 2 && red) return false;
    len[part] *= (size_t)xt->shape[i];
  }
  if (part == 2)
    holo_ukernel_reduce_outer_f32__scalar(op, xt->data, len[0], len[1], len[2], c->outputs[0].data);
  else
    holo_ukernel_reduce_inner_f32__scalar(op, xt->data, len[0], len[1], c->outputs[0].data);
  return true;
}

static holo_status reduce_run(holo_kernel_call *c, int op) {
  uint32_t mask;
  bool keep;
  if (reduce_plan(c, op, &mask, &keep)) return HOLO_ERR_KERNEL;
  if (reduce_runs(c, op, mask)) return HOLO_OK;
  const holo_tensor *xt = &c->inputs[0];
  const bool f64 = xt->dtype == HOLO_DT_F64, isint = !f64 && xt->dtype != HOLO_DT_F32;
  float *yf = c->outputs[0].data;
  double *yd = c->outputs[0].data;
  int64_t xs[HOLO_MAX_RANK];
  holo_k_strides(xt->shape, xt->rank, xs);
  /* kept dims (output order) and reduced dims, each with input strides */
  int64_t kd[HOLO_MAX_RANK], ks[HOLO_MAX_RANK], rd[HOLO_MAX_RANK], rs[HOLO_MAX_RANK];
  uint32_t nk = 0, nr = 0;
  for (uint32_t i = 0; i < xt->rank; i++) {
    if (mask & (1u << i)) {
      rd[nr] = xt->shape[i];
      rs[nr++] = xs[i];
    } else {
      kd[nk] = xt->shape[i];
      ks[nk++] = xs[i];
    }
  }
  size_t n_out = holo_k_prod(kd, 0, nk);
  int64_t ko[HOLO_MAX_RANK] = {0};
  size_t base = 0;
  for (size_t o = 0; o < n_out; o++) {
    if (isint) {
      holo_k_store_int_bits(c->outputs[0].data, xt->dtype, o,
                            holo_ukernel_reduce_int__scalar(op, xt->dtype, xt->data, base, nr, rd, rs));
      holo_k_next_offset(ko, kd, ks, nk, &base);
      continue;
    }
    double v = holo_ukernel_reduce_f32_f64__scalar(op, f64, xt->data, base, nr, rd, rs);
    if (f64) yd[o] = v;
    else yf[o] = (float)v;
    holo_k_next_offset(ko, kd, ks, nk, &base);
  }
  return HOLO_OK;
}

#define DEF(fn, op)                                                                                          \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return reduce_infer(c, op); }                      \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return reduce_run(c, op); }
DEF(reducesum, HOLO_REDUCE_SUM) DEF(reducemean, HOLO_REDUCE_MEAN) DEF(reducemax, HOLO_REDUCE_MAX)
DEF(reducemin, HOLO_REDUCE_MIN) DEF(reduceprod, HOLO_REDUCE_PROD) DEF(reducesumsquare, HOLO_REDUCE_SUMSQ)
DEF(reducel1, HOLO_REDUCE_L1) DEF(reducel2, HOLO_REDUCE_L2) DEF(reducelogsum, HOLO_REDUCE_LOGSUM)
DEF(reducelogsumexp, HOLO_REDUCE_LOGSUMEXP)
