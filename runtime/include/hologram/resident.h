/* Resident values by label: the part of the session API that strategies
 * built on the executor use -- refinement (runtime/refine.c), generation
 * (generation/), or a host's own loop. Instead of handing bytes in and
 * copying bytes out, such a layer interns its inputs once, executes on
 * labels of resident values, and holds the values it carries from one
 * execution to the next (a state), so a repeated state repeats its label
 * and a repeated execution is a memo hit.
 *
 * Holding: a held value is never evicted. Every call that returns a label
 * "held" takes one reference, released by holo_session_release; hold adds
 * one more. Values not held stay resident only as cache. */
#ifndef HOLOGRAM_RESIDENT_H
#define HOLOGRAM_RESIDENT_H

#include "hologram/holo.h"
#include "hologram/label.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Validates in against input port i (dtype, shape, byte length), labels it
 * by content (docs/holo-format.md §5), makes it resident and holds it. */
holo_status holo_session_intern_input(holo_session *s, uint32_t i, const holo_input *in, holo_digest *out,
                                      holo_error *err);
/* Executes with input port i given by labels[i], the label of a resident
 * value (one label per input port, in port order); HOLO_ERR_STATE names a
 * port whose value is no longer resident or differs in dtype or rank. */
holo_status holo_execute_labels(holo_session *s, const holo_digest *labels, holo_error *err);

/* The outputs of the last successful execution (holo_execute*,
 * holo_execute_labels), until the next execution on the session. */
/* A view of output port p (its computed label, bytes, dtype and shape). */
holo_status holo_session_output_view(holo_session *s, uint32_t p, holo_view *v);
/* The content label of output port p (its bytes hashed once), bound over
 * the same bytes and held. */
holo_status holo_session_output_content(holo_session *s, uint32_t p, holo_digest *out, holo_error *err);

/* One more reference to a resident value; false if it is not resident. */
bool holo_session_hold(holo_session *s, const holo_digest *d);
/* Drops one reference taken by intern, output_content or hold. */
void holo_session_release(holo_session *s, const holo_digest *d);
/* The bytes and metadata of a resident value (valid while it is held), or
 * NULL if it is not resident. */
const void *holo_session_resident(holo_session *s, const holo_digest *d, size_t *len, uint32_t *dtype, uint32_t *rank,
                                  const int64_t **shape);

/* SHA-256 over what decides the bytes the session computes beyond the
 * archive: the backend identity and each node's kernel identity (the parts
 * of every computed label that the archive label does not name). A layer
 * keying its own cache by (archive label, code identity, inputs) gets the
 * same key exactly when the session would compute the same bytes. */
void holo_session_code_identity(const holo_session *s, uint8_t out[32]);

#ifdef __cplusplus
}
#endif
#endif
