/* ScatterElements (opset 11, 13, 16, 18) and ScatterND (opset 11, 13, 16,
 * 18): the output is a copy of data with the updates written at the places
 * the indices (i32/i64; negative counts from the end) name, combined by
 * `reduction`: "none" (the default; a later duplicate wins, in index
 * order: the spec leaves duplicates undefined, this makes them
 * deterministic), "add", "mul" (wrapping for integers), "max", "min".
 * Reductions take f32, f64, i32 and i64; "none" takes any dtype. Every
 * index is checked in infer, so run never writes out of bounds. The
 * deprecated Scatter (opset 9) is ScatterElements without reduction (the
 * converter maps it). */
#include "common/check.h"
#include "common/elements.h"
#include "common/shape.h"
#include "operators/operators.h"

enum { RED_NONE, RED_ADD, RED_MUL, RED_MAX, RED_MIN };

static holo_status reduction(holo_kernel_call *c, const char *op, uint32_t dt, int *red) {
  static const char *const names[] = {"none", "add", "mul", "max", "min"};
  const holo_attr *a = holo_attr_find(c, "reduction");
  *red = -1;
  for (int i = 0; i < 5; i++)
    if (!a ? i == 0 : holo_attr_string_is(c, "reduction", names[i])) *red = i;
  if (*red < 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: reduction must be none, add, mul, max or min", op);
  if (*red != RED_NONE && dt != HOLO_DT_F32 && dt != HOLO_DT_F64 && dt != HOLO_DT_I32 && dt != HOLO_DT_I64)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: reduction %s of dtype %s is not supported", op,
                       names[*red], holo_k_dtype_name(dt));
  return HOLO_OK;
}

#define COMBINE(T, UT)                                                                                       \
  {                                                                                                          \
    T *d = dst;                                                                                              \
    const T *s = src;                                                                                        \
    for (size_t i = 0; i < n; i++) {                                                                         \
      T a = d[i], b = s[i];                                                                                  \
      d[i] = red == RED_ADD   ? (T)((UT)a + (UT)b)                                                           \
             : red == RED_MUL ? (T)((UT)a * (UT)b)                                                           \
             : red == RED_MAX ? (b > a || b != b ? b : a)                                                    \
                              : (b < a || b != b ? b : a);                                                   \
    }                                                                                                        \
  }

/* dst[0..n) (op)= src[0..n), elements of dtype dt. Max/min propagate NaN
 * as onnxruntime's do. Floats "wrap" through their own type (UT = T). */
static void combine(int red, uint32_t dt, size_t n, void *dst, const void *src) {
  if (red == RED_NONE) {
    uint8_t *d = dst;
    const uint8_t *s = src;
    for (size_t i = 0, e = n * holo_dtype_size(dt); i < e; i++)
      d[i] = s[i];
    return;
  }
  switch (dt) {
  case HOLO_DT_F32: COMBINE(float, float) break;
  case HOLO_DT_F64: COMBINE(double, double) break;
  case HOLO_DT_I32: COMBINE(int32_t, uint32_t) break;
  default: COMBINE(int64_t, uint64_t) break;
  }
}

static holo_status scatter_operands(holo_kernel_call *c, const char *op, int *red) {
  holo_status st;
  if ((st = holo_k_check_arity(c, op, 3, 3, 1))) return st;
  for (uint32_t k = 0; k < 3; k++)
    if ((st = holo_k_check_input(c, op, k, k == 2 ? c->inputs[0].dtype : 0))) return st;
  const holo_tensor *ind = &c->inputs[1];
  if (ind->dtype != HOLO_DT_I64 && ind->dtype != HOLO_DT_I32)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: indices must be i32 or i64, got %s", op,
                       holo_k_dtype_name(ind->dtype));
  return reduction(c, op, c->inputs[0].dtype, red);
}

static holo_status index_in(holo_kernel_call *c, const char *op, int64_t v, int64_t d, size_t pos) {
  if (v < -d || v >= d)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: index %lld at position %zu is out of range for a dim of %lld",
                       op, (long long)v, pos, (long long)d);
  return HOLO_OK;
}

/* ---- ScatterElements ---- */

static holo_status se_check(holo_kernel_call *c, uint32_t *axis, int *red) {
  holo_status st;
  if ((st = scatter_operands(c, "ScatterElements", red))) return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1], *u = &c->inputs[2];
  if (x->rank == 0 || ind->rank != x->rank || u->rank != x->rank)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "ScatterElements: data, indices and updates must share a rank >= 1");
  for (uint32_t i = 0; i < x->rank; i++)
    if (ind->shape[i] != u->shape[i])
      return holo_k_fail(c, HOLO_ERR_KERNEL, "ScatterElements: indices and updates shapes differ");
  int64_t a = holo_attr_int(c, "axis", 0);
  if (!holo_k_axis(a, x->rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ScatterElements: axis %lld is out of range for rank %u",
                       (long long)a, x->rank);
  for (uint32_t i = 0; i < x->rank; i++)
    if (i != *axis && ind->shape[i] > x->shape[i])
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "ScatterElements: indices dim %u (%lld) exceeds the data's (%lld)", i,
                         (long long)ind->shape[i], (long long)x->shape[i]);
  size_t n = holo_k_prod(ind->shape, 0, ind->rank);
  for (size_t i = 0; i < n; i++)
    if ((st = index_in(c, "ScatterElements", holo_k_load_i64(ind->data, ind->dtype, i), x->shape[*axis], i)))
      return st;
  return HOLO_OK;
}

holo_status holo_k_scatterelements_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t axis;
  int red;
  holo_k_infer_reset(c);
  if ((st = se_check(c, &axis, &red))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "ScatterElements", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_scatterelements_run(holo_kernel_call *c) {
  uint32_t axis;
  int red;
  if (se_check(c, &axis, &red)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0], *ind = &c->inputs[1], *ut = &c->inputs[2];
  const uint32_t r = xt->rank, dt = xt->dtype;
  const size_t es = holo_dtype_size(dt), n = holo_k_prod(ind->shape, 0, r);
  int64_t xs[HOLO_MAX_RANK], idx[HOLO_MAX_RANK] = {0}, d = xt->shape[axis];
  holo_k_strides(xt->shape, r, xs);
  uint8_t *y = c->outputs[0].data;
  combine(RED_NONE, dt, holo_k_prod(xt->shape, 0, r), y, xt->data);
  for (size_t i = 0; i < n; i++) {
    int64_t v = holo_k_load_i64(ind->data, ind->dtype, i), off = 0;
    if (v < 0) v += d;
    for (uint32_t a = 0; a < r; a++)
      off += (a == axis ? v : idx[a]) * xs[a];
    combine(red, dt, 1, y + (size_t)off * es, (const uint8_t *)ut->data + i * es);
    holo_k_next_index(idx, ind->shape, r);
  }
  return HOLO_OK;
}

/* ---- ScatterND ---- */

/* The element offset in data of index tuple t (k entries, checked). */
static size_t nd_offset(const holo_tensor *ind, size_t t, uint32_t k, const int64_t *shape,
                        const int64_t *xs) {
  size_t off = 0;
  for (uint32_t j = 0; j < k; j++) {
    int64_t v = holo_k_load_i64(ind->data, ind->dtype, t * k + j);
    if (v < 0) v += shape[j];
    off += (size_t)v * (size_t)xs[j];
  }
  return off;
}

static holo_status snd_check(holo_kernel_call *c, int *red) {
  holo_status st;
  if ((st = scatter_operands(c, "ScatterND", red))) return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1], *u = &c->inputs[2];
  if (x->rank == 0 || ind->rank == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ScatterND: data and indices must have rank >= 1");
  const int64_t k = ind->shape[ind->rank - 1];
  if (k < 1 || k > (int64_t)x->rank)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ScatterND: the indices' last dim (%lld) must be in [1, %u]",
                       (long long)k, x->rank);
  /* updates = indices.shape[:-1] + data.shape[k:] */
  uint32_t ur = ind->rank - 1 + x->rank - (uint32_t)k;
  bool ok = u->rank == ur;
  for (uint32_t i = 0; ok && i < ind->rank - 1; i++)
    ok = u->shape[i] == ind->shape[i];
  for (uint32_t i = (uint32_t)k; ok && i < x->rank; i++)
    ok = u->shape[ind->rank - 1 + i - (uint32_t)k] == x->shape[i];
  if (!ok)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ScatterND: updates must have shape indices[:-1] + data[k:]");
  size_t n = holo_k_prod(ind->shape, 0, ind->rank);
  for (size_t i = 0; i < n; i++)
    if ((st =
             index_in(c, "ScatterND", holo_k_load_i64(ind->data, ind->dtype, i), x->shape[i % (size_t)k], i)))
      return st;
  return HOLO_OK;
}

holo_status holo_k_scatternd_infer(holo_kernel_call *c) {
  holo_status st;
  int red;
  holo_k_infer_reset(c);
  if ((st = snd_check(c, &red))) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "ScatterND", 0, x->dtype, x->rank, x->shape);
}

holo_status holo_k_scatternd_run(holo_kernel_call *c) {
  int red;
  if (snd_check(c, &red)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0], *ind = &c->inputs[1], *ut = &c->inputs[2];
  const uint32_t dt = xt->dtype, k = (uint32_t)ind->shape[ind->rank - 1];
  const size_t es = holo_dtype_size(dt), tuples = holo_k_prod(ind->shape, 0, ind->rank - 1);
  const size_t slice = holo_k_prod(xt->shape, k, xt->rank);
  int64_t xs[HOLO_MAX_RANK];
  holo_k_strides(xt->shape, xt->rank, xs);
  uint8_t *y = c->outputs[0].data;
  combine(RED_NONE, dt, holo_k_prod(xt->shape, 0, xt->rank), y, xt->data);
  for (size_t t = 0; t < tuples; t++)
    combine(red, dt, slice, y + nd_offset(ind, t, k, xt->shape, xs) * es,
            (const uint8_t *)ut->data + t * slice * es);
  return HOLO_OK;
}

/* ---- GatherND (opset 11, 12, 13: batch_dims) ---- */

static holo_status gnd_check(holo_kernel_call *c, uint32_t *b) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "GatherND", 2, 2, 1))) return st;
  if ((st = holo_k_check_input(c, "GatherND", 0, 0)) || (st = holo_k_check_input(c, "GatherND", 1, 0)))
    return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1];
  if (ind->dtype != HOLO_DT_I64 && ind->dtype != HOLO_DT_I32)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GatherND: indices must be i32 or i64, got %s",
                       holo_k_dtype_name(ind->dtype));
  int64_t bd = holo_attr_int(c, "batch_dims", 0);
  if (x->rank == 0 || ind->rank == 0 || bd < 0 || bd >= (int64_t)x->rank || bd >= (int64_t)ind->rank)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GatherND: batch_dims %lld must be below both ranks (%u, %u)",
                       (long long)bd, x->rank, ind->rank);
  *b = (uint32_t)bd;
  for (uint32_t i = 0; i < *b; i++)
    if (x->shape[i] != ind->shape[i])
      return holo_k_fail(c, HOLO_ERR_KERNEL, "GatherND: batch dim %u differs between data and indices", i);
  const int64_t k = ind->shape[ind->rank - 1];
  if (k < 1 || k > (int64_t)(x->rank - *b))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "GatherND: the indices' last dim (%lld) must be in [1, %u]",
                       (long long)k, x->rank - *b);
  if (ind->rank - 1 + x->rank - *b - (uint32_t)k > HOLO_MAX_RANK)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "GatherND: output rank exceeds %u", (unsigned)HOLO_MAX_RANK);
  size_t n = holo_k_prod(ind->shape, 0, ind->rank);
  for (size_t i = 0; i < n; i++)
    if ((st = index_in(c, "GatherND", holo_k_load_i64(ind->data, ind->dtype, i), x->shape[*b + i % (size_t)k],
                       i)))
      return st;
  return HOLO_OK;
}

holo_status holo_k_gathernd_infer(holo_kernel_call *c) {
  holo_status st;
  uint32_t b;
  holo_k_infer_reset(c);
  if ((st = gnd_check(c, &b))) return st;
  const holo_tensor *x = &c->inputs[0], *ind = &c->inputs[1];
  const uint32_t k = (uint32_t)ind->shape[ind->rank - 1];
  int64_t ys[HOLO_MAX_RANK];
  uint32_t yr = 0;
  for (uint32_t i = 0; i + 1 < ind->rank; i++)
    ys[yr++] = ind->shape[i];
  for (uint32_t i = b + k; i < x->rank; i++)
    ys[yr++] = x->shape[i];
  return holo_k_set_output(c, "GatherND", 0, x->dtype, yr, ys);
}

holo_status holo_k_gathernd_run(holo_kernel_call *c) {
  uint32_t b;
  if (gnd_check(c, &b)) return HOLO_ERR_KERNEL;
  const holo_tensor *xt = &c->inputs[0], *ind = &c->inputs[1];
  const uint32_t k = (uint32_t)ind->shape[ind->rank - 1];
  const size_t es = holo_dtype_size(xt->dtype);
  const size_t batches = holo_k_prod(xt->shape, 0, b), per = holo_k_prod(ind->shape, b, ind->rank - 1);
  const size_t slice = holo_k_prod(xt->shape, b + k, xt->rank), bstride = holo_k_prod(xt->shape, b, xt->rank);
  int64_t xs[HOLO_MAX_RANK];
  holo_k_strides(xt->shape + b, xt->rank - b, xs);
  const uint8_t *x = xt->data;
  uint8_t *y = c->outputs[0].data;
  for (size_t bi = 0; bi < batches; bi++)
    for (size_t t = 0; t < per; t++, y += slice * es)
      combine(RED_NONE, xt->dtype, slice, y,
              x + (bi * bstride + nd_offset(ind, bi * per + t, k, xt->shape + b, xs)) * es);
  return HOLO_OK;
}
