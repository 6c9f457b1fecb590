/* What an execution is given: inputs validated against their ports,
 * symbolic dims bound, content-labelled and made resident, whether they
 * come as bytes (holo_execute*) or as labels of resident values
 * (refinement). */
#include "session-impl.h"

holo_status holo__s_bind_symbols(holo_session *s, const holo_ar_value *val, const int64_t *shape, const char *what,
                                 uint32_t idx, holo_error *err) {
  for (uint32_t d = 0; d < val->rank; d++) {
    int64_t want = val->dims[d];
    if (want >= 0) {
      if (shape[d] != want)
        return holo_err(err, HOLO_ERR_INPUT, "%s %u (%.*s): dim %u is %lld, expected %lld", what, idx,
                        (int)val->name.len, val->name.p, d, (long long)shape[d], (long long)want);
      continue;
    }
    uint32_t sym = (uint32_t)(-(want + 1));
    const holo_ar_str *nm = &s->ar.syms[sym];
    if (shape[d] < 0)
      return holo_err(err, HOLO_ERR_INPUT, "%s %u (%.*s): dim %u (%.*s) is negative", what, idx,
                      (int)val->name.len, val->name.p, d, (int)nm->len, nm->p);
    if (s->sym[sym] < 0) s->sym[sym] = shape[d];
    else if (s->sym[sym] != shape[d])
      return holo_err(err, HOLO_ERR_INPUT, "%s %u (%.*s): dim %u (%.*s) is %lld but was bound to %lld",
                      what, idx, (int)val->name.len, val->name.p, d, (int)nm->len, nm->p,
                      (long long)shape[d], (long long)s->sym[sym]);
  }
  return HOLO_OK;
}

/* Validates input i against its port (in->shape NULL: the port's dims,
 * which must then be static), binds its symbols and returns its shape. */
static holo_status check_input(holo_session *s, uint32_t i, const holo_input *in, const int64_t **shape_out,
                               size_t *need, holo_error *err) {
  const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
  const int64_t *shape = in->shape;
  if (shape && in->rank != val->rank)
    return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s): rank %u, expected %u", i, (int)val->name.len,
                    val->name.p, in->rank, val->rank);
  if (!shape) {
    for (uint32_t d = 0; d < val->rank; d++)
      if (val->dims[d] < 0)
        return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s) has symbolic dims: pass its shape", i,
                        (int)val->name.len, val->name.p);
    shape = val->dims;
  }
  holo_status st = holo__s_bind_symbols(s, val, shape, "input", i, err);
  if (st) return st;
  if (!holo_shape_bytes(val->dtype, shape, val->rank, need))
    return holo_err(err, HOLO_ERR_LIMIT, "input %u (%.*s): shape size overflows", i, (int)val->name.len, val->name.p);
  if (in->len != *need)
    return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s): %zu bytes, expected %zu", i, (int)val->name.len,
                    val->name.p, in->len, *need);
  if (*need && !in->bytes)
    return holo_err(err, HOLO_ERR_ARG, "input %u (%.*s): bytes is NULL", i, (int)val->name.len, val->name.p);
  *shape_out = shape;
  return HOLO_OK;
}

/* Validates the inputs, binds symbols and computes the input labels. */
static holo_status label_inputs(holo_session *s, const holo_input *in, uint32_t n, int64_t (*shapes)[HOLO_MAX_RANK],
                                holo_error *err) {
  holo_archive *ar = &s->ar;
  if (n != ar->n_in_ports)
    return holo_err(err, HOLO_ERR_INPUT, "expected %u inputs, got %u", ar->n_in_ports, n);
  if (n && !in) return holo_err(err, HOLO_ERR_ARG, "inputs is NULL");
  for (uint32_t y = 0; y < ar->n_syms; y++) s->sym[y] = -1;
  for (uint32_t i = 0; i < n; i++) {
    const holo_ar_value *val = &ar->values[ar->in_ports[i]];
    const int64_t *shape = 0;
    size_t need = 0;
    holo_status st = check_input(s, i, &in[i], &shape, &need, err);
    if (st) return st;
    for (uint32_t d = 0; d < val->rank; d++) shapes[i][d] = shape[d];
    holo__s_input_digest(s, val->dtype, shape, val->rank, in[i].bytes, need, &s->in_digests[i]);
  }
  return HOLO_OK;
}

holo_status holo__s_bind_input(holo_session *s, uint32_t i, const holo_input *in, const int64_t *shape,
                               holo_error *err) {
  const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
  holo_entry *e = holo_arena_find(&s->arena, &s->in_digests[i]);
  if (!e && !in) return holo_err(err, HOLO_ERR_STATE, "input %u: value is no longer resident", i);
  /* A value an execution computed came back as an input (a generator's
   * state, a pipeline): the caller chains executions, whose repeats the
   * held values answer, so holding more pays. */
  if (e && !e->fed) holo_arena_widen(&s->arena);
  if (!e) {
    holo_buf *b;
    holo_status st = holo_arena_alloc(&s->arena, in->len, false, &b, err);
    if (st) return st;
    if (in->len) holo_memcpy(b->data, in->bytes, in->len);
    st = holo_arena_insert(&s->arena, &s->in_digests[i], b, val->dtype, val->rank, shape, false, &e, err);
    holo_arena_unref(&s->arena, b);
    if (st) return st;
    e->fed = true;
  }
  holo__s_bind(s, s->ar.in_ports[i], e);
  return HOLO_OK;
}

holo_status holo__s_execute(holo_session *s, const holo_input *in, uint32_t n, holo_error *err) {
  int64_t shapes[64][HOLO_MAX_RANK];
  if (!s) return holo_err(err, HOLO_ERR_ARG, "session is NULL");
  if (s->ar.n_in_ports > 64) return holo_err(err, HOLO_ERR_LIMIT, "more than 64 input ports");
  holo_status st = label_inputs(s, in, n, shapes, err);
  if (st) return st;
  return holo__s_walk(s, in, shapes, err);
}

holo_status holo_session_memo_key(holo_session *s, const holo_input *inputs, uint32_t n,
                                  char label[HOLO_LABEL_LEN + 1], holo_error *err) {
  int64_t shapes[64][HOLO_MAX_RANK];
  if (!s || !label) return holo_err(err, HOLO_ERR_ARG, "session or label is NULL");
  if (s->ar.n_in_ports > 64) return holo_err(err, HOLO_ERR_LIMIT, "more than 64 input ports");
  holo_status st = label_inputs(s, inputs, n, shapes, err);
  if (st) return st;
  holo_digest key;
  holo__s_memo_key(s, &key);
  holo_label_render(&key, label);
  return HOLO_OK;
}

/* ------------------------------------------- internal API (refinement) */

holo_status holo__intern_input(holo_session *s, uint32_t i, const holo_input *in, holo_digest *out, holo_error *err) {
  const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
  const int64_t *shape = in->shape ? in->shape : val->dims;
  size_t need;
  if ((in->shape && in->rank != val->rank) || !holo_shape_bytes(val->dtype, shape, val->rank, &need) || need != in->len ||
      (need && !in->bytes))
    return holo_err(err, HOLO_ERR_INPUT, "input %u (%.*s): shape or byte length does not match the port", i,
                    (int)val->name.len, val->name.p);
  holo__s_input_digest(s, val->dtype, shape, val->rank, in->bytes, need, out);
  holo_entry *e = holo_arena_find(&s->arena, out);
  if (!e) {
    holo_buf *b;
    holo_status st = holo_arena_alloc(&s->arena, need, false, &b, err);
    if (st) return st;
    if (need) holo_memcpy(b->data, in->bytes, need);
    st = holo_arena_insert(&s->arena, out, b, val->dtype, val->rank, shape, false, &e, err);
    holo_arena_unref(&s->arena, b);
    if (st) return st;
    e->fed = true;
  }
  holo_arena_live_inc(&s->arena, e);
  return HOLO_OK;
}

holo_status holo__execute_digests(holo_session *s, const holo_digest *in, holo_error *err) {
  int64_t shapes[64][HOLO_MAX_RANK];
  if (s->ar.n_in_ports > 64) return holo_err(err, HOLO_ERR_LIMIT, "more than 64 input ports");
  for (uint32_t y = 0; y < s->ar.n_syms; y++) s->sym[y] = -1;
  for (uint32_t i = 0; i < s->ar.n_in_ports; i++) {
    const holo_ar_value *val = &s->ar.values[s->ar.in_ports[i]];
    holo_entry *e = holo_arena_find(&s->arena, &in[i]);
    if (!e) return holo_err(err, HOLO_ERR_STATE, "input %u: state value is no longer resident", i);
    if (!e->fed) holo_arena_widen(&s->arena); /* as in holo__s_bind_input */
    if (e->dtype != val->dtype || e->rank != val->rank)
      return holo_err(err, HOLO_ERR_STATE, "input %u (%.*s): state dtype/rank differ from the port", i,
                      (int)val->name.len, val->name.p);
    holo_status st = holo__s_bind_symbols(s, val, e->shape, "input", i, err);
    if (st) return st;
    for (uint32_t d = 0; d < e->rank; d++) shapes[i][d] = e->shape[d];
    s->in_digests[i] = in[i];
  }
  return holo__s_walk(s, 0, shapes, err);
}
