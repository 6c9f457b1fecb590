/* A session's hot labels: each computed label derived from its node's key
 * (session-keys.c) and the operands' labels, input content labels and the
 * memo key. */
#include "session-impl.h"
#include "blake3.h"
#include "sha256-lanes.h"

/* Labels of outputs 0 .. n_out-1 of node i (format §5, holo/node/v4):
 * BLAKE3's keyed hash, keyed by output k's key, of the operands' 32-byte
 * digests in order (an absent operand is 32 zero bytes). A 1- or 2-operand
 * node's message is one 64-byte block, so an output costs one BLAKE3
 * compression (7 rounds), about half of v3's one SHA-256 compression
 * (decision 85). */
void holo__s_computed_digests(holo_session *s, uint32_t i, holo_digest *out) {
  const holo_ar_node *n = &s->ar.nodes[i];
  const uint32_t(*key)[8] = &s->keys[s->key_at[i]];
  uint8_t msg[HOLO_BLAKE3_MAX_LEN]; /* n_in <= 64 (archive.c) */
  for (uint32_t j = 0; j < n->n_in; j++) { /* a constant's label is its record's, resident or not */
    uint8_t *d = msg + 32 * j;
    if (n->in[j] != HOLO_ABSENT)
      holo_memcpy(d, holo__s_label_of(s, n->in[j])->b, HOLO_DIGEST_LEN);
    else
      holo_memset(d, 0, HOLO_DIGEST_LEN);
  }
  for (uint32_t k = 0; k < n->n_out; k++)
    holo__blake3_keyed(key[k], msg, 32u * n->n_in, out[k].b);
}

/* A tree label's leaves, a window at a time (the digests live on the
 * stack), four leaves per task of the backend's pool, so lanes and threads
 * multiply; the root takes the window's digests in order. */
#define LEAF_WINDOW 64u
typedef struct leaf_job {
  const uint8_t *bytes;
  size_t len, leaf0, n;
  uint8_t (*d)[32];
} leaf_job;

static void leaf_task(void *arg, uint32_t t) {
  const leaf_job *j = arg;
  size_t i = 4 * (size_t)t, g = j->n - i < 4 ? j->n - i : 4;
  holo__content_leaf_group(j->bytes, j->len, j->leaf0 + i, g, j->d + i);
}

/* The host's SHA-256 of one leaf preimage; false: it declined. */
static bool host_leaf(const holo_hasher *h, const uint8_t *bytes, size_t len, size_t leaf, uint8_t out[32]) {
  size_t at = leaf * HOLO_CONTENT_CHUNK, m = len - at < HOLO_CONTENT_CHUNK ? len - at : HOLO_CONTENT_CHUNK;
  holo_span parts[2] = {{holo__content_leaf_block, 64}, {bytes + at, m}};
  return h->sha256(h->ctx, parts, 2, out) == HOLO_OK;
}

static void tree_digest(holo_session *s, uint32_t dtype, const int64_t *shape, uint32_t rank,
                        const uint8_t *bytes, size_t len, bool host, holo_digest *out) {
  uint8_t d[LEAF_WINDOW][32];
  holo_sha256 root;
  size_t n = holo__content_leaves(len);
  holo__content_root_init(&root, dtype, shape, rank, len);
  for (size_t w0 = 0; w0 < n; w0 += LEAF_WINDOW) {
    leaf_job j = {bytes, len, w0, n - w0 < LEAF_WINDOW ? n - w0 : LEAF_WINDOW, d};
    uint32_t tasks = (uint32_t)((j.n + 3) / 4);
    if (host) {
      for (size_t i = 0; i < j.n; i++)
        if (!host_leaf(&s->hasher, bytes, len, w0 + i, d[i]))
          holo__content_leaf_group(bytes, len, w0 + i, 1, d + i);
    } else if (s->be->parallel_for && tasks > 1) {
      s->be->parallel_for(s->be->pctx, tasks, leaf_task, &j);
    } else {
      for (uint32_t t = 0; t < tasks; t++)
        leaf_task(&j, t);
    }
    holo_sha256_update(&root, d, 32 * j.n);
  }
  holo_sha256_final(&root, out->b);
}

/* The content label of an execute-time input: the host's SHA-256 when one
 * is installed and the input is large enough, else ours (also when the host
 * declines); a tree label's leaves over the pool's threads when there is
 * no host hash. Same preimage, same label either way. */
void holo__s_input_digest(holo_session *s, uint32_t dtype, const int64_t *shape, uint32_t rank,
                          const void *bytes, size_t len, holo_digest *out) {
  s->c.bytes_hashed += len;
  bool host = s->hasher.sha256 && len >= s->hasher.min_bytes;
  if (len > HOLO_CONTENT_CHUNK) {
    tree_digest(s, dtype, shape, rank, bytes, len, host, out);
    return;
  }
  if (host) {
    uint8_t hdr[HOLO_CONTENT_HEADER_MAX];
    holo_span parts[2] = {{hdr, holo_content_header(dtype, shape, rank, hdr)}, {bytes, len}};
    if (s->hasher.sha256(s->hasher.ctx, parts, 2, out->b) == HOLO_OK) return;
  }
  holo_content_digest(dtype, shape, rank, bytes, len, out);
}

void holo__s_memo_key(holo_session *s, holo_digest *key) {
  holo_sha256 c = s->memo_prefix; /* tag, archive label, backend, n (session-keys.c) */
  for (uint32_t i = 0; i < s->ar.n_in_ports; i++)
    holo_label_hash_into(&c, &s->in_digests[i]);
  holo_sha256_final(&c, key->b);
}
