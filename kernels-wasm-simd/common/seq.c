/* The sequence encoding (docs/holo-format.md §4b): validation of an
 * operand, item views, the canonical writer. Every offset, count and size
 * is checked before it is used: an encoding can come from a host. */
#include "common/seq.h"

#include "common/check.h"
#include "hologram/mem.h"

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static void wr64(uint8_t *p, int64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (uint8_t)((uint64_t)v >> (8 * i));
}
static size_t align8(size_t x) { return (x + 7u) & ~(size_t)7u; }

static const uint8_t MAGIC[4] = {'H', 'S', 'Q', '1'};

/* Record k's shape and byte length; false when it breaks a rule. */
static bool record(const uint8_t *r, uint32_t dtype, bool elem_seq, holo_tensor *t) {
  uint32_t rank = rd32(r);
  if (rd32(r + 4) != 0 || rank > HOLO_MAX_RANK || (elem_seq && rank != 1)) return false;
  t->dtype = dtype;
  t->rank = rank;
  for (uint32_t d = 0; d < HOLO_MAX_RANK; d++) {
    t->shape[d] = holo__rd_i64(r + 8 + 8 * d);
    if (d >= rank && t->shape[d] != 0) return false;
  }
  return holo_shape_bytes(dtype, t->shape, rank, &t->bytes);
}

static holo_status bad(holo_kernel_call *c, const char *op, uint32_t idx, const char *why) {
  return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is not a valid %s encoding: %s", op, idx,
                     holo_k_dtype_name(c->inputs[idx].dtype), why);
}

static holo_status parse_at(holo_kernel_call *c, const char *op, uint32_t idx, const uint8_t *b, size_t len,
                            uint32_t want, int depth, holo_k_seq *q) {
  if (len < HOLO_SEQ_HEADER || holo_memcmp(b, MAGIC, 4) != 0) return bad(c, op, idx, "no HSQ1 header");
  uint32_t kind = b[4], elem_seq = b[5];
  if (kind != (want == HOLO_DT_OPT ? 1u : 0u)) return bad(c, op, idx, "its kind does not match its dtype");
  if (elem_seq > 1 || b[6] || b[7] || (elem_seq && (kind != 1 || depth > 0)))
    return bad(c, op, idx, "bad element kind or reserved bytes");
  uint32_t edt = rd32(b + 8), n = rd32(b + 12);
  if (n > (kind ? 1u : HOLO_SEQ_MAX_ITEMS)) return bad(c, op, idx, "too many items");
  if (n && (holo_dtype_size(edt) == 0 || holo_dtype_is_list(edt)))
    return bad(c, op, idx, "unknown element dtype");
  if (!n && edt && (holo_dtype_size(edt) == 0 || holo_dtype_is_list(edt)))
    return bad(c, op, idx, "unknown element dtype");
  size_t at = HOLO_SEQ_HEADER + (size_t)n * HOLO_SEQ_RECORD;
  if (at > len) return bad(c, op, idx, "records past the end");
  for (uint32_t k = 0; k < n; k++) {
    holo_tensor t;
    if (!record(b + HOLO_SEQ_HEADER + (size_t)k * HOLO_SEQ_RECORD, elem_seq ? HOLO_DT_SEQ : edt, elem_seq,
                &t))
      return bad(c, op, idx, "a bad item record");
    size_t start = align8(at);
    if (start < at || start > len || t.bytes > len - start) return bad(c, op, idx, "an item past the end");
    for (size_t p = at; p < start; p++)
      if (b[p]) return bad(c, op, idx, "nonzero padding");
    if (elem_seq) {
      holo_k_seq inner;
      holo_status st = parse_at(c, op, idx, b + start, t.bytes, HOLO_DT_SEQ, depth + 1, &inner);
      if (st) return st;
      if (inner.elem_dtype != edt && inner.n) return bad(c, op, idx, "the inner sequence's dtype differs");
    }
    at = start + t.bytes;
  }
  if (at != len) return bad(c, op, idx, "trailing bytes");
  q->base = b;
  q->bytes = len;
  q->dtype = want;
  q->elem_seq = elem_seq;
  q->elem_dtype = edt;
  q->n = n;
  q->ck = 0;
  q->cat = 0;
  return HOLO_OK;
}

holo_status holo_k_seq_parse(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t want,
                             holo_k_seq *q) {
  if (idx >= c->n_inputs || c->inputs[idx].dtype == 0)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is required but absent", op, idx);
  const holo_tensor *t = &c->inputs[idx];
  if (t->dtype != want)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: input %u is a %s, a%s %s is expected", op, idx,
                       holo_dtype_is_list(t->dtype) ? holo_k_dtype_name(t->dtype) : "tensor",
                       want == HOLO_DT_OPT ? "n" : "", holo_k_dtype_name(want));
  if (t->rank != 1 || t->shape[0] < 0 || (uint64_t)t->shape[0] != (uint64_t)t->bytes)
    return bad(c, op, idx, "not a rank-1 byte string");
  return parse_at(c, op, idx, t->data, t->bytes, want, 0, q);
}

void holo_k_seq_item(holo_k_seq *q, uint32_t k, holo_tensor *t) {
  uint32_t j = 0;
  size_t at = HOLO_SEQ_HEADER + (size_t)q->n * HOLO_SEQ_RECORD;
  if (q->cat && k >= q->ck) {
    j = q->ck;
    at = q->cat;
  }
  for (;; j++) {
    record(q->base + HOLO_SEQ_HEADER + (size_t)j * HOLO_SEQ_RECORD, q->elem_seq ? HOLO_DT_SEQ : q->elem_dtype,
           q->elem_seq, t);
    at = align8(at);
    t->data = (void *)(q->base + at);
    if (j == k) break;
    at += t->bytes;
  }
  q->ck = k;
  q->cat = at;
}

size_t holo_k_seq_size(uint32_t n, holo_k_seq_get get, const void *ctx) {
  if (n > HOLO_SEQ_MAX_ITEMS) return 0;
  size_t at = HOLO_SEQ_HEADER + (size_t)n * HOLO_SEQ_RECORD;
  for (uint32_t k = 0; k < n; k++) {
    holo_tensor t;
    get(ctx, k, &t);
    size_t start = align8(at);
    if (start < at || t.bytes > SIZE_MAX - start) return 0;
    at = start + t.bytes;
  }
  return at;
}

void holo_k_seq_write(uint8_t *dst, uint32_t dtype, bool elem_seq, uint32_t elem_dtype, uint32_t n,
                      holo_k_seq_get get, const void *ctx) {
  holo_memcpy(dst, MAGIC, 4);
  dst[4] = dtype == HOLO_DT_OPT ? 1 : 0;
  dst[5] = elem_seq ? 1 : 0;
  dst[6] = dst[7] = 0;
  wr32(dst + 8, elem_dtype);
  wr32(dst + 12, n);
  size_t at = HOLO_SEQ_HEADER + (size_t)n * HOLO_SEQ_RECORD;
  for (uint32_t k = 0; k < n; k++) {
    holo_tensor t;
    get(ctx, k, &t);
    uint8_t *r = dst + HOLO_SEQ_HEADER + (size_t)k * HOLO_SEQ_RECORD;
    wr32(r, t.rank);
    wr32(r + 4, 0);
    for (uint32_t d = 0; d < HOLO_MAX_RANK; d++)
      wr64(r + 8 + 8 * d, d < t.rank ? t.shape[d] : 0);
    size_t start = align8(at);
    for (size_t p = at; p < start; p++)
      dst[p] = 0;
    /* the items come from the operands, never from the output's buffer */
    if (t.bytes && t.data)
      holo_memcpy(dst + start, t.data, t.bytes);
    else if (t.bytes)
      holo_memset(dst + start, 0, t.bytes);
    at = start + t.bytes;
  }
}

holo_status holo_k_seq_set_output(holo_kernel_call *c, const char *op, uint32_t dtype, uint32_t n,
                                  holo_k_seq_get get, const void *ctx) {
  size_t bytes = holo_k_seq_size(n, get, ctx);
  if (!bytes || bytes > (size_t)INT64_MAX)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: a %s of %u items is too large to address", op,
                       holo_k_dtype_name(dtype), n);
  int64_t shape[1] = {(int64_t)bytes};
  return holo_k_set_output(c, op, 0, dtype, 1, shape);
}

holo_status holo_k_seq_position(holo_kernel_call *c, const char *op, uint32_t idx, int64_t *pos) {
  const holo_tensor *t = &c->inputs[idx];
  if ((t->dtype != HOLO_DT_I32 && t->dtype != HOLO_DT_I64) || t->bytes != holo_dtype_size(t->dtype) ||
      !t->data)
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "%s: the position must be one int32 or int64 element (got %s, %zu bytes)", op,
                       holo_k_dtype_name(t->dtype), t->bytes);
  const uint8_t *p = t->data;
  *pos = t->dtype == HOLO_DT_I64 ? holo__rd_i64(p) : (int64_t)(int32_t)rd32(p);
  return HOLO_OK;
}
