/* What an execution hands back: output copies (holo_execute), views of the
 * resident results with their labels (holo_execute_addressed), and, for
 * refinement, resident values by label. */
#include "session-impl.h"

static void fill_shape(const holo_entry *e, uint32_t *dtype, uint32_t *rank, int64_t *shape) {
  *dtype = e->dtype;
  *rank = e->rank;
  for (uint32_t d = 0; d < HOLO_MAX_RANK; d++) shape[d] = d < e->rank ? e->shape[d] : 0;
}

holo_status holo_execute(holo_session *s, const holo_input *inputs, uint32_t n, holo_output *outputs,
                         uint32_t n_out, holo_error *err) {
  if (!s || (!outputs && n_out)) return holo_err(err, HOLO_ERR_ARG, "execute: session or outputs is NULL");
  if (n_out != s->ar.n_out_ports)
    return holo_err(err, HOLO_ERR_ARG, "execute: %u output slots given, the archive has %u", n_out, s->ar.n_out_ports);
  holo_status st = holo__s_execute(s, inputs, n, err);
  if (st) return st;
  for (uint32_t p = 0; p < n_out; p++) {
    const holo_entry *e = s->out_entries[p];
    holo_output *o = &outputs[p];
    size_t len = 0;
    holo_shape_bytes(e->dtype, e->shape, e->rank, &len);
    o->bytes = s->a.alloc(s->a.ctx, len ? len : 1, 64);
    if (!o->bytes) {
      for (uint32_t q = 0; q < p; q++) holo_output_free(s, &outputs[q]);
      return holo_err(err, HOLO_ERR_MEMORY, "out of memory copying output %u (%zu bytes)", p, len);
    }
    holo_memcpy(o->bytes, e->buf->data, len);
    o->len = len;
    fill_shape(e, &o->dtype, &o->rank, o->shape);
  }
  return HOLO_OK;
}

holo_status holo_execute_addressed(holo_session *s, const holo_input *inputs, uint32_t n, holo_view *views,
                                   uint32_t n_out, holo_error *err) {
  if (!s || (!views && n_out)) return holo_err(err, HOLO_ERR_ARG, "execute_addressed: session or views is NULL");
  if (n_out != s->ar.n_out_ports)
    return holo_err(err, HOLO_ERR_ARG, "execute_addressed: %u views given, the archive has %u", n_out, s->ar.n_out_ports);
  holo_status st = holo__s_execute(s, inputs, n, err);
  if (st) return st;
  for (uint32_t p = 0; p < n_out; p++) holo__output_view(s, p, &views[p]);
  return HOLO_OK;
}

void holo_output_free(holo_session *s, holo_output *o) {
  if (!s || !o || !o->bytes) return;
  s->a.free(s->a.ctx, o->bytes);
  o->bytes = 0;
  o->len = 0;
}

/* ------------------------------------------- internal API (refinement) */

void holo__release(holo_session *s, const holo_digest *d) {
  holo_entry *e = holo_arena_find(&s->arena, d);
  if (e && e->live) holo_arena_live_dec(&s->arena, e);
}

bool holo__hold(holo_session *s, const holo_digest *d) {
  holo_entry *e = holo_arena_find(&s->arena, d);
  if (!e) return false;
  holo_arena_live_inc(&s->arena, e);
  return true;
}

/* The content label of output p of the last execution: hashed once, then
 * bound as a second entry over the same buffer and held by the caller. */
holo_status holo__output_content(holo_session *s, uint32_t p, holo_digest *out, holo_error *err) {
  holo_entry *e = s->out_entries[p];
  size_t len = 0;
  holo_shape_bytes(e->dtype, e->shape, e->rank, &len);
  holo_content_digest(e->dtype, e->shape, e->rank, e->buf->data, len, out);
  s->c.bytes_hashed += len;
  holo_entry *c = holo_arena_find(&s->arena, out);
  if (!c) {
    holo_status st = holo_arena_insert(&s->arena, out, e->buf, e->dtype, e->rank, e->shape, false, &c, err);
    if (st) return st;
  }
  holo_arena_touch(&s->arena, c);
  holo_arena_live_inc(&s->arena, c);
  return HOLO_OK;
}

const void *holo__resident(holo_session *s, const holo_digest *d, size_t *len, uint32_t *dtype, uint32_t *rank,
                           const int64_t **shape) {
  holo_entry *e = holo_arena_find(&s->arena, d);
  if (!e) return 0;
  *len = 0;
  holo_shape_bytes(e->dtype, e->shape, e->rank, len);
  *dtype = e->dtype;
  *rank = e->rank;
  *shape = e->shape;
  return e->buf->data;
}

void holo__output_view(holo_session *s, uint32_t p, holo_view *v) {
  const holo_entry *e = s->out_entries[p];
  holo_label_render(&e->d, v->label);
  v->data = e->buf->data;
  holo_shape_bytes(e->dtype, e->shape, e->rank, &v->len);
  fill_shape(e, &v->dtype, &v->rank, v->shape);
}
