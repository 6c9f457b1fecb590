/* InstanceNormalization (opsets 1, 6, 22) on f32: X [N, C, D1, ...] (rank
 * >= 2), scale [C], B [C]; attribute epsilon (the converter writes 1e-5
 * when absent). Per (n, c) row of the spatial elements: mean and the biased
 * variance in double, ascending order, y = (x - mean) / sqrt(var + eps) *
 * scale[c] + B[c] rounded once: LayerNormalization's statistics and
 * rounding (microkernels/layernorm.h holo_ukernel_instancenorm_f32), 4 rows
 * at a time through the sums. Rows are independent: blocks of rows run as tasks of the
 * threading hook, each row computed whole by one task, so the bytes do not
 * depend on the thread count. A row of 0 elements is empty; rank 2 (no
 * spatial dims) normalizes rows of 1 element (y = B[c]). */
#include "common/check.h"
#include "common/shape.h"
#include "microkernels/layernorm.h"
#include "operators/operators.h"

#define IN_ROWS_PER_TASK 16

static holo_status in_check(holo_kernel_call *c, size_t *rows, size_t *n, size_t *C, double *eps) {
  holo_status st;
  char s1[HOLO_K_SHAPE_STR];
  const char *op = "InstanceNormalization";
  if ((st = holo_k_check_arity(c, op, 3, 3, 1))) return st;
  for (uint32_t i = 0; i < 3; i++)
    if ((st = holo_k_check_input(c, op, i, HOLO_DT_F32))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (x->rank < 2)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: X%s must have rank >= 2", op,
                       holo_k_shape_str(s1, x->shape, x->rank));
  *C = (size_t)x->shape[1];
  for (uint32_t i = 1; i < 3; i++) {
    const holo_tensor *t = &c->inputs[i];
    if (t->rank != 1 || t->shape[0] != x->shape[1])
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s%s must be [%lld] (X's channels)", op,
                         i == 1 ? "scale" : "B", holo_k_shape_str(s1, t->shape, t->rank),
                         (long long)x->shape[1]);
  }
  float e = holo_attr_float(c, "epsilon", 1e-5f);
  if (!(e >= 0) || e == __builtin_inff())
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: epsilon must be finite and >= 0", op);
  *eps = e;
  *rows = holo_k_prod(x->shape, 0, 2);
  *n = holo_k_prod(x->shape, 2, x->rank);
  return HOLO_OK;
}

holo_status holo_k_instancenorm_infer(holo_kernel_call *c) {
  size_t rows, n, C;
  double eps;
  holo_k_infer_reset(c);
  holo_status st = in_check(c, &rows, &n, &C, &eps);
  if (st) return st;
  const holo_tensor *x = &c->inputs[0];
  return holo_k_set_output(c, "InstanceNormalization", 0, HOLO_DT_F32, x->rank, x->shape);
}

typedef struct in_job {
  const float *x, *sc, *bi;
  float *y;
  size_t rows, n, C;
  double eps;
} in_job;

static void in_task(void *arg, uint32_t t) {
  const in_job *J = arg;
  size_t r0 = (size_t)t * IN_ROWS_PER_TASK,
         nr = J->rows - r0 < IN_ROWS_PER_TASK ? J->rows - r0 : IN_ROWS_PER_TASK;
  holo_ukernel_instancenorm_f32__scalar(J->x + r0 * J->n, J->y + r0 * J->n, r0, nr, J->n, J->C, J->eps, J->sc,
                                        J->bi);
}

holo_status holo_k_instancenorm_run(holo_kernel_call *c) {
  in_job J;
  if (in_check(c, &J.rows, &J.n, &J.C, &J.eps)) return HOLO_ERR_KERNEL;
  J.x = c->inputs[0].data, J.sc = c->inputs[1].data, J.bi = c->inputs[2].data, J.y = c->outputs[0].data;
  if (J.rows == 0 || J.n == 0) return HOLO_OK;
  uint32_t tasks = (uint32_t)((J.rows + IN_ROWS_PER_TASK - 1) / IN_ROWS_PER_TASK);
  if (c->parallel_for && tasks > 1 && J.rows * J.n >= 4096)
    c->parallel_for(c->pctx, tasks, in_task, &J);
  else
    for (uint32_t t = 0; t < tasks; t++)
      in_task(&J, t);
  return HOLO_OK;
}
