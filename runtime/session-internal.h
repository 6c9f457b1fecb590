/* What refinement (runtime/refine.c) needs of a session beyond the public
 * API: executing on resident values by label, and holding state values
 * between passes. Not installed. */
#ifndef HOLO_SESSION_INTERNAL_H
#define HOLO_SESSION_INTERNAL_H

#include "archive.h"
#include "label.h"

/* Validates input i, content-labels it, makes it resident and holds it. */
holo_status holo__intern_input(holo_session *s, uint32_t i, const holo_input *in, holo_digest *out, holo_error *err);
/* Executes with every input given by the label of a resident value. */
holo_status holo__execute_digests(holo_session *s, const holo_digest *in, holo_error *err);
/* Content label of output p of the last execution, made resident and held. */
holo_status holo__output_content(holo_session *s, uint32_t p, holo_digest *out, holo_error *err);
void holo__release(holo_session *s, const holo_digest *d);
/* Holds a resident value once more (released with holo__release); false if
 * it is not resident. */
bool holo__hold(holo_session *s, const holo_digest *d);
/* Bytes and metadata of a resident value, NULL if not resident. */
const void *holo__resident(holo_session *s, const holo_digest *d, size_t *len, uint32_t *dtype, uint32_t *rank,
                           const int64_t **shape);
void holo__output_view(holo_session *s, uint32_t p, holo_view *v);
const holo_archive *holo__archive(const holo_session *s);
/* SHA-256 over what decides the bytes the session computes beyond the
 * archive: the backend identity and each node's kernel identity (the parts
 * of every computed label that the archive label does not name). */
void holo__code_identity(const holo_session *s, uint8_t out[32]);
/* Derives the label of output k of a node from the operands bound by the
 * last execution (benchmarks: label cost is independent of tensor size). */
bool holo__probe_node_label(holo_session *s, uint32_t node, uint32_t k, holo_digest *out);

#endif
