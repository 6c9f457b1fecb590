/* ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceSumSquare,
 * ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp on f32 (and f64),
 * opset-18 form:
 * axes is the optional i64 input 1; attributes keepdims (default 1) and
 * noop_with_empty_axes (default 0).
 *
 * Every output element reduces its set in ascending row-major order of the
 * input; sums and products accumulate in double and round to f32 once.
 * Max/Min propagate NaN. Empty sets give the identity of the reduction
 * (Sum/L1/L2/SumSquare 0, Prod 1, Max -inf, Min +inf, LogSum and LogSumExp
 * -inf) and Mean NaN. With empty axes and noop_with_empty_axes=1 every
 * element reduces the singleton set {x} (so ReduceSum copies, ReduceL1 gives
 * |x|, ReduceSumSquare x^2). */
#include "ext-util.h"
#include "mathf.h"

enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_PROD, R_SUMSQ, R_L1, R_L2, R_LOGSUM, R_LOGSUMEXP };
static const char *const r_names[] = {"ReduceSum",  "ReduceMean",     "ReduceMax", "ReduceMin",
                                      "ReduceProd", "ReduceSumSquare", "ReduceL1", "ReduceL2",
                                      "ReduceLogSum", "ReduceLogSumExp"};

/* Validates operands; mask gets the reduced axes. */
static holo_status reduce_plan(holo_kernel_call *c, int op, uint32_t *mask, bool *keep) {
  const char *name = r_names[op];
  holo_status st;
  bool noop;
  if ((st = holo_k_check_arity(c, name, 1, 2, 1))) return st;
  if ((st = holo_k_check_input(c, name, 0, 0))) return st;
  if (c->inputs[0].dtype != HOLO_DT_F32 && c->inputs[0].dtype != HOLO_DT_F64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: dtype %s is not supported (f32, f64 are)",
                       name, holo_k_dtype_name(c->inputs[0].dtype));
  if ((st = holo_x_flag(c, name, "keepdims", 1, keep))) return st;
  if ((st = holo_x_flag(c, name, "noop_with_empty_axes", 0, &noop))) return st;
  const holo_tensor *x = &c->inputs[0];
  int64_t axes[HOLO_MAX_RANK];
  uint32_t na = 0;
  if (!holo_k_absent(c, 1)) {
    if ((st = holo_x_read_ints(c, name, 1, "axes", axes, HOLO_MAX_RANK, &na))) return st;
    if (c->inputs[1].rank == 0)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: axes must be 1-D, got a scalar", name);
  }
  if (na == 0) {
    *mask = noop ? 0 : (x->rank >= 32 ? 0xffffffffu : (1u << x->rank) - 1);
    return HOLO_OK;
  }
  return holo_x_axes_mask(c, name, axes, na, x->rank, mask);
}

static holo_status reduce_infer(holo_kernel_call *c, int op) {
  uint32_t mask;
  bool keep;
  holo_status st;
  c->alias_input = -1;
  c->workspace_bytes = 0;
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

static double finish(int op, double acc, double cnt) {
  switch (op) {
  case R_MEAN: return acc / cnt;
  case R_L2: return holo_sqrt(acc);
  case R_LOGSUM: return holo_x_log(acc);
  default: return acc;
  }
}

static holo_status reduce_run(holo_kernel_call *c, int op) {
  uint32_t mask;
  bool keep;
  if (reduce_plan(c, op, &mask, &keep)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0];
  const float *xf = xt->data;
  const double *xd = xt->data;
  bool f64 = xt->dtype == HOLO_DT_F64;
#define LD(o) (f64 ? xd[o] : (double)xf[o])
  float *yf = c->outputs[0].data;
  double *yd = c->outputs[0].data;
#define ST(o, v) (f64 ? (void)(yd[o] = (v)) : (void)(yf[o] = (float)(v)))
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
  size_t n_out = holo_k_prod(kd, 0, nk), n_red = holo_k_prod(rd, 0, nr);
  int64_t ko[HOLO_MAX_RANK] = {0};
  size_t base = 0;
  for (size_t o = 0; o < n_out; o++) {
    double acc;
    double m = 0.0;
    switch (op) {
    case R_PROD: acc = 1.0; break;
    case R_MAX: m = -__builtin_inf(); acc = 0; break;
    case R_MIN: m = __builtin_inf(); acc = 0; break;
    default: acc = 0.0; break;
    }
    if (op == R_LOGSUMEXP) { /* pass 1: the maximum (NaN wins) */
      m = -__builtin_inf();
      int64_t ri[HOLO_MAX_RANK] = {0};
      size_t off = base;
      for (size_t j = 0; j < n_red; j++) {
        double v = LD(off);
        if (v != v || (m == m && v > m)) m = v;
        for (int32_t d = (int32_t)nr - 1; d >= 0; d--) {
          off += (size_t)rs[d];
          if (++ri[d] < rd[d]) break;
          off -= (size_t)(rs[d] * rd[d]);
          ri[d] = 0;
        }
      }
    }
    int64_t ri[HOLO_MAX_RANK] = {0};
    size_t off = base;
    for (size_t j = 0; j < n_red; j++) {
      double v = LD(off), dv = v;
      switch (op) {
      case R_SUM: case R_MEAN: acc += dv; break;
      case R_PROD: acc *= dv; break;
      case R_SUMSQ: case R_L2: acc += dv * dv; break;
      case R_L1: acc += __builtin_fabs(dv); break;
      case R_LOGSUM: acc += dv; break;
      case R_MAX: if (v != v || (m == m && v > m)) m = v; break;
      case R_MIN: if (v != v || (m == m && v < m)) m = v; break;
      default: /* LOGSUMEXP */
        if (m == m && __builtin_fabs(m) != __builtin_inf()) acc += holo_x_exp(dv - m);
        break;
      }
      for (int32_t d = (int32_t)nr - 1; d >= 0; d--) {
        off += (size_t)rs[d];
        if (++ri[d] < rd[d]) break;
        off -= (size_t)(rs[d] * rd[d]);
        ri[d] = 0;
      }
    }
    if (op == R_MAX || op == R_MIN) ST(o, m);
    else if (op == R_LOGSUMEXP) {
      if (m != m || __builtin_fabs(m) == __builtin_inf()) ST(o, m); /* NaN, +inf, -inf (empty) */
      else ST(o, m + holo_x_log(acc));
    } else ST(o, finish(op, acc, (double)n_red));
    for (int32_t d = (int32_t)nk - 1; d >= 0; d--) {
      base += (size_t)ks[d];
      if (++ko[d] < kd[d]) break;
      base -= (size_t)(ks[d] * kd[d]);
      ko[d] = 0;
    }
  }
  return HOLO_OK;
}

#define DEF(fn, op)                                                                                \
  holo_status holo_k_##fn##_infer(holo_kernel_call *c) { return reduce_infer(c, op); }            \
  holo_status holo_k_##fn##_run(holo_kernel_call *c) { return reduce_run(c, op); }
DEF(reducesum, R_SUM)
DEF(reducemean, R_MEAN)
DEF(reducemax, R_MAX)
DEF(reducemin, R_MIN)
DEF(reduceprod, R_PROD)
DEF(reducesumsquare, R_SUMSQ)
DEF(reducel1, R_L1)
DEF(reducel2, R_L2)
DEF(reducelogsum, R_LOGSUM)
DEF(reducelogsumexp, R_LOGSUMEXP)
