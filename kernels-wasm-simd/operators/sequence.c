/* The sequence ops over the encoding of docs/holo-format.md §4b
 * (common/seq.h): SequenceEmpty, SequenceConstruct, SequenceInsert,
 * SequenceErase, SequenceAt, SequenceLength. A sequence is one value, so
 * each op reads its operand's encoding and writes a new one: the cost is
 * the bytes of the sequence, as a copy (docs/decisions.md 63). */
#include "common/check.h"
#include "common/seq.h"
#include "operators/operators.h"

#include "hologram/mem.h"

/* The items of the result: `src`'s with `ins` inserted at `at`, or with
 * item `at` dropped (`erase`); or the node's inputs (`inputs`). */
typedef struct edit {
  holo_k_seq *src;
  const holo_tensor *ins, *inputs;
  uint32_t at;
  bool erase;
} edit;

static void edit_get(const void *ctx, uint32_t k, holo_tensor *t) {
  const edit *e = ctx;
  if (e->inputs) {
    *t = e->inputs[k];
    return;
  }
  if (e->ins && k == e->at) {
    *t = *e->ins;
    return;
  }
  uint32_t j = k;
  if (e->ins && k > e->at) j = k - 1;
  if (e->erase && k >= e->at) j = k + 1;
  holo_k_seq_item(e->src, j, t);
}

static holo_status elem_dtype_of(holo_kernel_call *c, const char *op, uint32_t dt) {
  if (dt == 0 || dt > 0xffff || holo_dtype_size(dt) == 0 || holo_dtype_is_list(dt))
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: element dtype %u is not a tensor dtype", op, dt);
  return HOLO_OK;
}

/* SequenceEmpty: attribute dtype (default f32). */
holo_status holo_k_seqempty_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "SequenceEmpty", 0, 0, 1))) return st;
  int64_t dt = holo_attr_int(c, "dtype", HOLO_DT_F32);
  if ((st = elem_dtype_of(c, "SequenceEmpty", dt < 0 ? 0 : (uint32_t)dt))) return st;
  return holo_k_seq_set_output(c, "SequenceEmpty", HOLO_DT_SEQ, 0, edit_get, &(edit){0});
}
holo_status holo_k_seqempty_run(holo_kernel_call *c) {
  holo_k_seq_write(c->outputs[0].data, HOLO_DT_SEQ, false, (uint32_t)holo_attr_int(c, "dtype", HOLO_DT_F32),
                   0, edit_get, &(edit){0});
  return HOLO_OK;
}

/* SequenceConstruct: 1..64 tensors of one dtype. */
holo_status holo_k_seqconstruct_infer(holo_kernel_call *c) {
  holo_status st;
  if ((st = holo_k_infer_begin(c, "SequenceConstruct", 1, 64, 1))) return st;
  for (uint32_t k = 0; k < c->n_inputs; k++) {
    if ((st = holo_k_check_input(c, "SequenceConstruct", k, 0))) return st;
    if (c->inputs[k].dtype != c->inputs[0].dtype)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "SequenceConstruct: input %u is %s, input 0 is %s", k,
                         holo_k_dtype_name(c->inputs[k].dtype), holo_k_dtype_name(c->inputs[0].dtype));
  }
  edit e = {.inputs = c->inputs};
  return holo_k_seq_set_output(c, "SequenceConstruct", HOLO_DT_SEQ, c->n_inputs, edit_get, &e);
}
holo_status holo_k_seqconstruct_run(holo_kernel_call *c) {
  edit e = {.inputs = c->inputs};
  holo_k_seq_write(c->outputs[0].data, HOLO_DT_SEQ, false, c->inputs[0].dtype, c->n_inputs, edit_get, &e);
  return HOLO_OK;
}

/* A position in [-n, hi] made non-negative (hi = n for an insert, n - 1 else). */
static holo_status seq_pos(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t n, bool insert,
                           int64_t dflt, uint32_t *out) {
  int64_t p = dflt, hi = insert ? (int64_t)n : (int64_t)n - 1;
  holo_status st;
  if (!holo_k_absent(c, idx) && (st = holo_k_seq_position(c, op, idx, &p))) return st;
  if (p < -(int64_t)n || p > hi)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: position %lld is outside [%lld, %lld] of a sequence of %u",
                       op, (long long)p, -(long long)n, (long long)hi, n);
  *out = (uint32_t)(p < 0 ? p + n : p);
  return HOLO_OK;
}

/* SequenceInsert(S, t, position = n). */
static holo_status insert_plan(holo_kernel_call *c, holo_k_seq *q, edit *e) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "SequenceInsert", 2, 3, 1)) ||
      (st = holo_k_seq_parse(c, "SequenceInsert", 0, HOLO_DT_SEQ, q)) ||
      (st = holo_k_check_input(c, "SequenceInsert", 1, 0)))
    return st;
  if (q->elem_dtype && c->inputs[1].dtype != q->elem_dtype)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "SequenceInsert: the tensor is %s, the sequence holds %s",
                       holo_k_dtype_name(c->inputs[1].dtype), holo_k_dtype_name(q->elem_dtype));
  if (q->n == HOLO_SEQ_MAX_ITEMS)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "SequenceInsert: a sequence holds at most %u items", q->n);
  *e = (edit){.src = q, .ins = &c->inputs[1]};
  return seq_pos(c, "SequenceInsert", 2, q->n, true, q->n, &e->at);
}
holo_status holo_k_seqinsert_infer(holo_kernel_call *c) {
  holo_k_seq q;
  edit e;
  holo_k_infer_reset(c);
  holo_status st = insert_plan(c, &q, &e);
  return st ? st : holo_k_seq_set_output(c, "SequenceInsert", HOLO_DT_SEQ, q.n + 1, edit_get, &e);
}
holo_status holo_k_seqinsert_run(holo_kernel_call *c) {
  holo_k_seq q;
  edit e;
  if (insert_plan(c, &q, &e)) return HOLO_ERR_KERNEL;
  holo_k_seq_write(c->outputs[0].data, HOLO_DT_SEQ, false, c->inputs[1].dtype, q.n + 1, edit_get, &e);
  return HOLO_OK;
}

/* SequenceErase(S, position = -1). */
static holo_status erase_plan(holo_kernel_call *c, holo_k_seq *q, edit *e) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "SequenceErase", 1, 2, 1)) ||
      (st = holo_k_seq_parse(c, "SequenceErase", 0, HOLO_DT_SEQ, q)))
    return st;
  if (!q->n) return holo_k_fail(c, HOLO_ERR_KERNEL, "SequenceErase: the sequence is empty");
  *e = (edit){.src = q, .erase = true};
  return seq_pos(c, "SequenceErase", 1, q->n, false, -1, &e->at);
}
holo_status holo_k_seqerase_infer(holo_kernel_call *c) {
  holo_k_seq q;
  edit e;
  holo_k_infer_reset(c);
  holo_status st = erase_plan(c, &q, &e);
  return st ? st : holo_k_seq_set_output(c, "SequenceErase", HOLO_DT_SEQ, q.n - 1, edit_get, &e);
}
holo_status holo_k_seqerase_run(holo_kernel_call *c) {
  holo_k_seq q;
  edit e;
  if (erase_plan(c, &q, &e)) return HOLO_ERR_KERNEL;
  holo_k_seq_write(c->outputs[0].data, HOLO_DT_SEQ, false, q.elem_dtype, q.n - 1, edit_get, &e);
  return HOLO_OK;
}

/* SequenceAt(S, position): a copy of the item. */
static holo_status at_plan(holo_kernel_call *c, holo_tensor *item) {
  holo_k_seq q;
  uint32_t at;
  holo_status st;
  if ((st = holo_k_check_arity(c, "SequenceAt", 2, 2, 1)) ||
      (st = holo_k_seq_parse(c, "SequenceAt", 0, HOLO_DT_SEQ, &q)))
    return st;
  if (holo_k_absent(c, 1)) return holo_k_fail(c, HOLO_ERR_KERNEL, "SequenceAt: the position is required");
  if ((st = seq_pos(c, "SequenceAt", 1, q.n, false, 0, &at))) return st;
  holo_k_seq_item(&q, at, item);
  return HOLO_OK;
}
holo_status holo_k_seqat_infer(holo_kernel_call *c) {
  holo_tensor t;
  holo_k_infer_reset(c);
  holo_status st = at_plan(c, &t);
  return st ? st : holo_k_set_output(c, "SequenceAt", 0, t.dtype, t.rank, t.shape);
}
holo_status holo_k_seqat_run(holo_kernel_call *c) {
  holo_tensor t;
  if (at_plan(c, &t)) return HOLO_ERR_KERNEL;
  if (t.bytes) holo_memcpy(c->outputs[0].data, t.data, t.bytes);
  return HOLO_OK;
}

/* SequenceLength(S): an i64 scalar. */
holo_status holo_k_seqlength_infer(holo_kernel_call *c) {
  holo_k_seq q;
  holo_status st;
  if ((st = holo_k_infer_begin(c, "SequenceLength", 1, 1, 1)) ||
      (st = holo_k_seq_parse(c, "SequenceLength", 0, HOLO_DT_SEQ, &q)))
    return st;
  return holo_k_set_output(c, "SequenceLength", 0, HOLO_DT_I64, 0, 0);
}
holo_status holo_k_seqlength_run(holo_kernel_call *c) {
  holo_k_seq q;
  if (holo_k_seq_parse(c, "SequenceLength", 0, HOLO_DT_SEQ, &q)) return HOLO_ERR_KERNEL;
  int64_t n = q.n;
  holo_memcpy(c->outputs[0].data, &n, 8);
  return HOLO_OK;
}
