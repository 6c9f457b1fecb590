/* κ-labels as values (docs/holo-format.md §5): a label is the SHA-256
 * digest of a value's preimage, rendered `sha256:<64 hex>` at the edges.
 * The layers built on the executor (refinement, generation; resident.h)
 * hold and compare values by these. */
#ifndef HOLOGRAM_LABEL_H
#define HOLOGRAM_LABEL_H

#include "hologram/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct holo_digest {
  uint8_t b[HOLO_DIGEST_LEN];
} holo_digest;

/* out receives 71 chars and a NUL. */
void holo_label_render(const holo_digest *d, char out[HOLO_LABEL_LEN + 1]);
/* Strict: exactly `sha256:` + 64 lowercase hex digits. */
bool holo_label_parse(const char *s, size_t len, holo_digest *d);

/* The content label of a tensor (the label an input of these bytes goes
 * by): up to HOLO_CONTENT_CHUNK bytes, SHA-256 over "holo/content/v1\0",
 * dtype, rank, dims and the bytes; more, the tree label of format §5 (a root
 * over the digests of 64 KiB chunks). */
#define HOLO_CONTENT_CHUNK ((size_t)64 << 10)
void holo_content_digest(uint32_t dtype, const int64_t *shape, uint32_t rank, const void *bytes, size_t len,
                         holo_digest *out);

static inline bool holo_digest_eq(const holo_digest *a, const holo_digest *b) {
  for (int i = 0; i < HOLO_DIGEST_LEN; i++)
    if (a->b[i] != b->b[i]) return false;
  return true;
}

#ifdef __cplusplus
}
#endif
#endif
