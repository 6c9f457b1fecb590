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

/* Tree content labels (label-tree.c): content of more than
 * HOLO_CONTENT_CHUNK bytes. The leaf preimage is the 64-byte block
 * "holo/content-leaf/v1" (NUL-padded) || the chunk's bytes; the root's is
 * "holo/content-tree/v1\0" || u32 dtype || u32 rank || i64 dims || u64 len ||
 * the leaf digests in order. */
extern const uint8_t holo__content_leaf_block[64];
size_t holo__content_leaves(size_t len); /* 0 when len <= one chunk (flat label) */
/* Leaf digests leaf0 .. leaf0+n-1, n <= 4 (lanes for whole chunks). */
void holo__content_leaf_group(const uint8_t *bytes, size_t len, size_t leaf0, size_t n, uint8_t out[][32]);
void holo__content_root_init(holo_sha256 *c, uint32_t dtype, const int64_t *shape, uint32_t rank, size_t len);
void holo__content_tree_digest(uint32_t dtype, const int64_t *shape, uint32_t rank, const void *bytes, size_t len,
                               holo_digest *out);

void holo_put_u32le(uint8_t *p, uint32_t v);
void holo_put_i64le(uint8_t *p, int64_t v);

#endif
