/* The optional ops over the encoding of docs/holo-format.md §4b
 * (common/seq.h): Optional, OptionalHasElement, OptionalGetElement. An
 * optional holds zero or one item, a tensor or a sequence. Optional's ONNX
 * attribute `type` (a TypeProto) is written by the converter as the ints
 * `dtype` (the element's tensor dtype) and `sequence` (1: the element is a
 * sequence), read only when the input is absent. */
#include "common/check.h"
#include "common/seq.h"
#include "operators/operators.h"

#include "hologram/mem.h"

static void one_get(const void *ctx, uint32_t k, holo_tensor *t) {
  (void)k;
  *t = *(const holo_tensor *)ctx;
}

/* Optional(x?): x's element kind and dtype, or the attributes'. */
static holo_status opt_plan(holo_kernel_call *c, bool *elem_seq, uint32_t *edt) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "Optional", 0, 1, 1))) return st;
  if (holo_k_absent(c, 0)) {
    int64_t dt = holo_attr_int(c, "dtype", 0), sq = holo_attr_int(c, "sequence", 0);
    if (dt <= 0 || dt > 0xffff || holo_dtype_size((uint32_t)dt) == 0 || holo_dtype_is_list((uint32_t)dt) ||
        (sq != 0 && sq != 1))
      return holo_k_fail(
          c, HOLO_ERR_KERNEL,
          "Optional: an empty optional needs the int attributes dtype (a tensor dtype) and sequence (0, 1)");
    *elem_seq = sq == 1;
    *edt = (uint32_t)dt;
    return HOLO_OK;
  }
  const holo_tensor *x = &c->inputs[0];
  if (x->dtype == HOLO_DT_SEQ) {
    holo_k_seq q;
    if ((st = holo_k_seq_parse(c, "Optional", 0, HOLO_DT_SEQ, &q))) return st;
    *elem_seq = true;
    *edt = q.elem_dtype;
    return HOLO_OK;
  }
  if ((st = holo_k_check_input(c, "Optional", 0, 0))) return st;
  *elem_seq = false;
  *edt = x->dtype;
  return HOLO_OK;
}
holo_status holo_k_optional_infer(holo_kernel_call *c) {
  bool sq;
  uint32_t edt;
  holo_k_infer_reset(c);
  holo_status st = opt_plan(c, &sq, &edt);
  if (st) return st;
  return holo_k_seq_set_output(c, "Optional", HOLO_DT_OPT, holo_k_absent(c, 0) ? 0 : 1, one_get,
                               &c->inputs[0]);
}
holo_status holo_k_optional_run(holo_kernel_call *c) {
  bool sq;
  uint32_t edt;
  if (opt_plan(c, &sq, &edt)) return HOLO_ERR_KERNEL;
  holo_k_seq_write(c->outputs[0].data, HOLO_DT_OPT, sq, edt, holo_k_absent(c, 0) ? 0 : 1, one_get,
                   &c->inputs[0]);
  return HOLO_OK;
}

/* OptionalHasElement(x?): false for an absent input or an empty optional;
 * true for a full one, a tensor or a sequence (opset 18's wider input). */
static holo_status has_plan(holo_kernel_call *c, bool *has) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "OptionalHasElement", 0, 1, 1))) return st;
  *has = !holo_k_absent(c, 0);
  if (*has && c->inputs[0].dtype == HOLO_DT_OPT) {
    holo_k_seq q;
    if ((st = holo_k_seq_parse(c, "OptionalHasElement", 0, HOLO_DT_OPT, &q))) return st;
    *has = q.n == 1;
  } else if (*has && c->inputs[0].dtype == HOLO_DT_SEQ) {
    holo_k_seq q;
    if ((st = holo_k_seq_parse(c, "OptionalHasElement", 0, HOLO_DT_SEQ, &q))) return st;
  } else if (*has && (st = holo_k_check_input(c, "OptionalHasElement", 0, 0)))
    return st;
  return HOLO_OK;
}
holo_status holo_k_opthas_infer(holo_kernel_call *c) {
  bool has;
  holo_k_infer_reset(c);
  holo_status st = has_plan(c, &has);
  return st ? st : holo_k_set_output(c, "OptionalHasElement", 0, HOLO_DT_BOOL, 0, 0);
}
holo_status holo_k_opthas_run(holo_kernel_call *c) {
  bool has;
  if (has_plan(c, &has)) return HOLO_ERR_KERNEL;
  *(uint8_t *)c->outputs[0].data = has ? 1 : 0;
  return HOLO_OK;
}

/* OptionalGetElement(x): the element of a full optional (a copy); a tensor
 * or a sequence is its own element (a view: no copy). An empty optional is
 * an error the call reports. */
static holo_status get_plan(holo_kernel_call *c, holo_tensor *item) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "OptionalGetElement", 1, 1, 1))) return st;
  const holo_tensor *x = &c->inputs[0];
  if (!holo_k_absent(c, 0) && x->dtype == HOLO_DT_OPT) {
    holo_k_seq q;
    if ((st = holo_k_seq_parse(c, "OptionalGetElement", 0, HOLO_DT_OPT, &q))) return st;
    if (!q.n) return holo_k_fail(c, HOLO_ERR_KERNEL, "OptionalGetElement: the optional is empty");
    holo_k_seq_item(&q, 0, item);
    return HOLO_OK;
  }
  if (!holo_k_absent(c, 0) && x->dtype == HOLO_DT_SEQ) {
    holo_k_seq q;
    if ((st = holo_k_seq_parse(c, "OptionalGetElement", 0, HOLO_DT_SEQ, &q))) return st;
  } else if ((st = holo_k_check_input(c, "OptionalGetElement", 0, 0)))
    return st;
  *item = *x;
  return HOLO_OK;
}
holo_status holo_k_optget_infer(holo_kernel_call *c) {
  holo_tensor t;
  holo_k_infer_reset(c);
  holo_status st = get_plan(c, &t);
  if (st) return st;
  if (c->inputs[0].dtype != HOLO_DT_OPT) c->alias_input = 0;
  return holo_k_set_output(c, "OptionalGetElement", 0, t.dtype, t.rank, t.shape);
}
holo_status holo_k_optget_run(holo_kernel_call *c) {
  holo_tensor t;
  if (get_plan(c, &t)) return HOLO_ERR_KERNEL;
  if (t.bytes) holo_memcpy(c->outputs[0].data, t.data, t.bytes);
  return HOLO_OK;
}
