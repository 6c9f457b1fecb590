/* κ-labels: the preimages of docs/holo-format.md §5. Internally a label is
 * its 32-byte digest; it is rendered as `sha256:<64 hex>` at the edges and
 * inside preimages. The digest type, rendering and content labels are
 * public (hologram/label.h); the preimage parts are the runtime's own. */
#ifndef HOLO_LABEL_H
#define HOLO_LABEL_H

#include "hologram/label.h"
#include "hologram/sha256.h"

void holo_label_hash_into(holo_sha256 *c, const holo_digest *d);

/* The content preimage before the tensor bytes: "holo/content/v1\0", dtype,
 * rank, dims. Returns its length; content label = SHA-256(header || bytes). */
#define HOLO_CONTENT_HEADER_MAX (16 + 8 + 8 * HOLO_MAX_RANK)
size_t holo_content_header(uint32_t dtype, const int64_t *shape, uint32_t rank, uint8_t out[HOLO_CONTENT_HEADER_MAX]);

void holo_put_u32le(uint8_t *p, uint32_t v);
void holo_put_i64le(uint8_t *p, int64_t v);

#endif
