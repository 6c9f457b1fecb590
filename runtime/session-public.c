/* The public face of what the layers above the executor need of a session
 * (hologram/resident.h, the state contract, archive info): argument checks,
 * then the session's internal calls (session-internal.h), which trust their
 * callers. */
#include "hologram/refine.h"
#include "hologram/resident.h"

#include "archive.h"
#include "hologram/mem.h"
#include "session-internal.h"

holo_status holo_session_intern_input(holo_session *s, uint32_t i, const holo_input *in, holo_digest *out,
                                      holo_error *err) {
  if (!s || !in || !out) return holo_err(err, HOLO_ERR_ARG, "intern: session, input or label is NULL");
  const holo_archive *ar = holo__archive(s);
  if (i >= ar->n_in_ports) return holo_err(err, HOLO_ERR_ARG, "intern: input %u does not exist (%u inputs)", i, ar->n_in_ports);
  return holo__intern_input(s, i, in, out, err);
}

holo_status holo_execute_labels(holo_session *s, const holo_digest *labels, holo_error *err) {
  if (!s || (!labels && holo__archive(s)->n_in_ports))
    return holo_err(err, HOLO_ERR_ARG, "execute_labels: session or labels is NULL");
  return holo__execute_digests(s, labels, err);
}

holo_status holo_session_output_view(holo_session *s, uint32_t p, holo_view *v) {
  if (!s || !v || p >= holo__archive(s)->n_out_ports) return HOLO_ERR_ARG;
  holo__output_view(s, p, v);
  return HOLO_OK;
}

holo_status holo_session_output_content(holo_session *s, uint32_t p, holo_digest *out, holo_error *err) {
  if (!s || !out) return holo_err(err, HOLO_ERR_ARG, "output_content: session or label is NULL");
  const holo_archive *ar = holo__archive(s);
  if (p >= ar->n_out_ports)
    return holo_err(err, HOLO_ERR_ARG, "output_content: output %u does not exist (%u outputs)", p, ar->n_out_ports);
  return holo__output_content(s, p, out, err);
}

bool holo_session_hold(holo_session *s, const holo_digest *d) { return s && d && holo__hold(s, d); }

void holo_session_release(holo_session *s, const holo_digest *d) {
  if (s && d) holo__release(s, d);
}

const void *holo_session_resident(holo_session *s, const holo_digest *d, size_t *len, uint32_t *dtype, uint32_t *rank,
                                  const int64_t **shape) {
  if (!s || !d || !len || !dtype || !rank || !shape) return 0;
  return holo__resident(s, d, len, dtype, rank, shape);
}

void holo_session_code_identity(const holo_session *s, uint8_t out[32]) {
  if (s && out) holo__code_identity(s, out);
}

holo_status holo_session_state_contract(const holo_session *s, holo_state_contract *c) {
  if (!s || !c) return HOLO_ERR_ARG;
  const holo_archive *ar = holo__archive(s);
  holo_memset(c, 0, sizeof *c);
  /* The reader bounds n_state by the port counts; HOLO_MAX_STATE bounds
   * what a contract can say. */
  if (ar->n_state > HOLO_MAX_STATE) return HOLO_ERR_LIMIT;
  c->n = ar->n_state;
  for (uint32_t k = 0; k < ar->n_state; k++) c->input[k] = ar->state[2 * k], c->output[k] = ar->state[2 * k + 1];
  return HOLO_OK;
}

holo_status holo_session_archive_info(const holo_session *s, holo_archive_info *info) {
  if (!s || !info) return HOLO_ERR_ARG;
  const holo_archive *ar = holo__archive(s);
  info->values = ar->n_values, info->constants = ar->n_consts, info->nodes = ar->n_nodes, info->metadata = ar->n_meta;
  return HOLO_OK;
}

holo_status holo_session_metadata(const holo_session *s, uint32_t i, holo_span *key, holo_span *value) {
  if (!s || !key || !value || i >= holo__archive(s)->n_meta) return HOLO_ERR_ARG;
  const holo_ar_str *m = &holo__archive(s)->meta[2 * i];
  key->data = m[0].p, key->len = m[0].len;
  value->data = m[1].p, value->len = m[1].len;
  return HOLO_OK;
}

holo_status holo_session_node_op(const holo_session *s, uint32_t i, holo_span *op) {
  if (!s || !op || i >= holo__archive(s)->n_nodes) return HOLO_ERR_ARG;
  const holo_ar_str *o = &holo__archive(s)->nodes[i].op;
  op->data = o->p, op->len = o->len;
  return HOLO_OK;
}
