/* SplitToSequence and ConcatFromSequence over the encoding of
 * docs/holo-format.md §4b (common/seq.h): the tensor <-> sequence ops that
 * move elements, by contiguous slabs along the axis. */
#include "common/check.h"
#include "common/elements.h"
#include "common/seq.h"
#include "common/shape.h"
#include "operators/operators.h"

#include "hologram/mem.h"

/* The pieces SplitToSequence cuts axis `axis` of x into. */
typedef struct split_plan {
  const holo_tensor *x;
  uint32_t axis, n;
  bool squeeze;
  int64_t chunk;           /* > 0: equal chunks (the last shorter); 0: lens */
  const holo_tensor *lens; /* 1-D split lengths, or NULL */
} split_plan;

static int64_t piece_len(const split_plan *p, uint32_t k) {
  if (p->lens) return holo_k_load_i64(p->lens->data, p->lens->dtype, k);
  int64_t d = p->x->shape[p->axis], c = p->chunk ? p->chunk : 1;
  return d - (int64_t)k * c < c ? d - (int64_t)k * c : c;
}

static void piece_get(const void *ctx, uint32_t k, holo_tensor *t) {
  const split_plan *p = ctx;
  const holo_tensor *x = p->x;
  t->data = 0;
  t->dtype = x->dtype;
  t->rank = 0;
  for (uint32_t d = 0; d < x->rank; d++) {
    if (d == p->axis && p->squeeze) continue;
    t->shape[t->rank++] = d == p->axis ? piece_len(p, k) : x->shape[d];
  }
  for (uint32_t d = t->rank; d < HOLO_MAX_RANK; d++)
    t->shape[d] = 0;
  holo_shape_bytes(t->dtype, t->shape, t->rank, &t->bytes);
}

static holo_status split_plan_of(holo_kernel_call *c, split_plan *p) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "SplitToSequence", 1, 2, 1)) ||
      (st = holo_k_check_input(c, "SplitToSequence", 0, 0)))
    return st;
  *p = (split_plan){.x = &c->inputs[0]};
  if (!holo_k_axis(holo_attr_int(c, "axis", 0), p->x->rank, false, &p->axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "SplitToSequence: axis %lld is outside the rank %u",
                       (long long)holo_attr_int(c, "axis", 0), p->x->rank);
  int64_t d = p->x->shape[p->axis];
  if (holo_k_absent(c, 1)) {
    p->squeeze = holo_attr_int(c, "keepdims", 1) == 0;
    p->n = (uint32_t)(d > HOLO_SEQ_MAX_ITEMS ? HOLO_SEQ_MAX_ITEMS + 1u : d);
  } else {
    const holo_tensor *s = &c->inputs[1];
    if ((s->dtype != HOLO_DT_I32 && s->dtype != HOLO_DT_I64) || s->rank > 1)
      return holo_k_fail(c, HOLO_ERR_KERNEL,
                         "SplitToSequence: split must be an int32/int64 scalar or 1-D tensor");
    if (s->rank == 0) {
      p->chunk = holo_k_load_i64(s->data, s->dtype, 0);
      if (p->chunk <= 0)
        return holo_k_fail(c, HOLO_ERR_KERNEL, "SplitToSequence: split %lld must be positive",
                           (long long)p->chunk);
      int64_t n = d / p->chunk + (d % p->chunk ? 1 : 0);
      p->n = (uint32_t)(n > HOLO_SEQ_MAX_ITEMS ? HOLO_SEQ_MAX_ITEMS + 1u : n);
    } else {
      p->lens = s;
      p->n = (uint32_t)(s->shape[0] > HOLO_SEQ_MAX_ITEMS ? HOLO_SEQ_MAX_ITEMS + 1u : s->shape[0]);
      int64_t sum = 0;
      for (uint32_t k = 0; k < p->n && k <= HOLO_SEQ_MAX_ITEMS; k++) {
        int64_t v = holo_k_load_i64(s->data, s->dtype, k);
        if (v < 0 || v > d - sum)
          return holo_k_fail(c, HOLO_ERR_KERNEL,
                             "SplitToSequence: the split lengths do not sum to the axis length %lld",
                             (long long)d);
        sum += v;
      }
      if (sum != d)
        return holo_k_fail(c, HOLO_ERR_KERNEL,
                           "SplitToSequence: the split lengths sum to %lld, the axis length is %lld",
                           (long long)sum, (long long)d);
    }
  }
  if (p->n > HOLO_SEQ_MAX_ITEMS)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "SplitToSequence: more than %u pieces", HOLO_SEQ_MAX_ITEMS);
  return HOLO_OK;
}

holo_status holo_k_splittoseq_infer(holo_kernel_call *c) {
  split_plan p;
  holo_k_infer_reset(c);
  holo_status st = split_plan_of(c, &p);
  return st ? st : holo_k_seq_set_output(c, "SplitToSequence", HOLO_DT_SEQ, p.n, piece_get, &p);
}

holo_status holo_k_splittoseq_run(holo_kernel_call *c) {
  split_plan p;
  if (split_plan_of(c, &p)) return HOLO_ERR_KERNEL;
  uint8_t *dst = c->outputs[0].data;
  holo_k_seq_write(dst, HOLO_DT_SEQ, false, p.x->dtype, p.n, piece_get, &p);
  holo_k_seq q = holo_k_seq_written(dst, c->outputs[0].bytes, HOLO_DT_SEQ, false, p.x->dtype, p.n);
  size_t outer, len, inner, es = holo_dtype_size(p.x->dtype);
  holo_k_axis_split(p.x, p.axis, &outer, &len, &inner);
  size_t at = 0; /* the piece's first index along the axis */
  for (uint32_t k = 0; k < p.n; k++) {
    holo_tensor t;
    holo_k_seq_item(&q, k, &t);
    size_t m = (size_t)piece_len(&p, k), slab = m * inner * es;
    for (size_t o = 0; o < outer && slab; o++)
      holo_memcpy((uint8_t *)t.data + o * slab, (const uint8_t *)p.x->data + (o * len + at) * inner * es,
                  slab);
    at += m;
  }
  return HOLO_OK;
}

/* ConcatFromSequence(S; axis, new_axis): the items joined along axis (a new
 * one of length 1 each when new_axis = 1); shapes must agree elsewhere. */
static holo_status concat_plan(holo_kernel_call *c, holo_k_seq *q, uint32_t *axis, bool *newax,
                               int64_t *shape, uint32_t *rank) {
  holo_status st;
  if ((st = holo_k_check_arity(c, "ConcatFromSequence", 1, 1, 1)) ||
      (st = holo_k_seq_parse(c, "ConcatFromSequence", 0, HOLO_DT_SEQ, q)))
    return st;
  const holo_attr *a = holo_attr_find(c, "axis");
  if (!a || a->type != HOLO_ATTR_INT)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConcatFromSequence: the int attribute axis is required");
  if (!q->n) return holo_k_fail(c, HOLO_ERR_KERNEL, "ConcatFromSequence: the sequence is empty");
  *newax = holo_attr_int(c, "new_axis", 0) == 1;
  holo_tensor t0;
  holo_k_seq_item(q, 0, &t0);
  *rank = t0.rank + (*newax ? 1 : 0);
  if (*rank > HOLO_MAX_RANK || *rank == 0 || !holo_k_axis(holo_attr_int(c, "axis", 0), *rank, false, axis))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "ConcatFromSequence: axis %lld is outside the items' rank %u",
                       (long long)holo_attr_int(c, "axis", 0), t0.rank);
  for (uint32_t d = 0, s = 0; d < *rank; d++)
    shape[d] = *newax && d == *axis ? 0 : t0.shape[s++];
  if (!*newax) shape[*axis] = 0;
  for (uint32_t k = 0; k < q->n; k++) {
    holo_tensor t;
    holo_k_seq_item(q, k, &t);
    bool ok = t.rank == t0.rank;
    for (uint32_t d = 0; ok && d < t.rank; d++)
      ok = t.shape[d] == t0.shape[d] || (!*newax && d == *axis);
    if (!ok)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "ConcatFromSequence: item %u's shape does not match item 0's",
                         k);
    int64_t m = *newax ? 1 : t.shape[*axis];
    if (shape[*axis] > INT64_MAX - m) return holo_k_fail(c, HOLO_ERR_LIMIT, "ConcatFromSequence: too large");
    shape[*axis] += m;
  }
  return HOLO_OK;
}

holo_status holo_k_concatfromseq_infer(holo_kernel_call *c) {
  holo_k_seq q;
  uint32_t axis, rank;
  bool newax;
  int64_t shape[HOLO_MAX_RANK];
  holo_k_infer_reset(c);
  holo_status st = concat_plan(c, &q, &axis, &newax, shape, &rank);
  return st ? st : holo_k_set_output(c, "ConcatFromSequence", 0, q.elem_dtype, rank, shape);
}

holo_status holo_k_concatfromseq_run(holo_kernel_call *c) {
  holo_k_seq q;
  uint32_t axis, rank;
  bool newax;
  int64_t shape[HOLO_MAX_RANK];
  if (concat_plan(c, &q, &axis, &newax, shape, &rank)) return HOLO_ERR_KERNEL;
  size_t es = holo_dtype_size(q.elem_dtype), outer = holo_k_prod(shape, 0, axis);
  size_t inner = holo_k_prod(shape, axis + 1, rank), row = (size_t)shape[axis] * inner * es;
  size_t at = 0;
  for (uint32_t k = 0; k < q.n; k++) {
    holo_tensor t;
    holo_k_seq_item(&q, k, &t);
    size_t slab = (size_t)(newax ? 1 : t.shape[axis]) * inner * es;
    for (size_t o = 0; o < outer && slab; o++)
      holo_memcpy((uint8_t *)c->outputs[0].data + o * row + at, (const uint8_t *)t.data + o * slab, slab);
    at += slab;
  }
  return HOLO_OK;
}
