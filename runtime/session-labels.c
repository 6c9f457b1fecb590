/* A session's labels: the per-node label preimages (format §5) hashed once
 * at load, each computed label derived from them and the operands' labels,
 * input content labels, the memo key and the code identity. */
#include "session-impl.h"

/* The per-node part of a computed label's preimage (format §5), hashed once
 * at load so each execution adds only the operands' labels. n_in is part of
 * it: it is the node's, not the execution's. */
void holo__s_node_prefix(holo_session *s, uint32_t i, const holo_kernel *k) {
  static const char tag[] = "holo/node/v2";
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_sha256 *c = &s->prefix[i];
  uint8_t w[8];
  const char *bid = s->be->identity;
  uint32_t blen = 0, klen = 0;
  while (bid[blen])
    blen++;
  while (k->identity[klen])
    klen++;
  holo_sha256_init(c);
  holo_sha256_update(c, tag, sizeof tag);
  holo_sha256_update(c, bid, blen + 1);
  holo_sha256_update(c, k->identity, klen + 1);
  holo_put_u32le(w, n->n_attrs);
  holo_sha256_update(c, w, 4);
  for (uint32_t a = 0; a < n->n_attrs; a++) {
    const holo_attr *at = &n->attrs[a];
    size_t plen = at->type == HOLO_ATTR_INT || at->type == HOLO_ATTR_INTS       ? 8u * at->count
                  : at->type == HOLO_ATTR_FLOAT || at->type == HOLO_ATTR_FLOATS ? 4u * at->count
                                                                                : at->count;
    holo_sha256_update(c, at->name, at->name_len);
    holo_sha256_update(c, "", 1);
    holo_put_u32le(w, at->type);
    holo_put_u32le(w + 4, at->count);
    holo_sha256_update(c, w, 8);
    holo_sha256_update(c, at->payload, plen);
  }
  holo_put_u32le(w, n->n_in);
  holo_sha256_update(c, w, 4);
}

/* Labels of outputs 0 .. n_out-1 of node i. The operands enter as their
 * 32-byte digests (format §5, holo/node/v2: the 71-byte text form cost
 * 2.2x the SHA-256 blocks per node, decision 70), hashed once for all
 * outputs: only the trailing u32 k differs between them. */
void holo__s_computed_digests(holo_session *s, uint32_t i, holo_digest *out) {
  static const uint8_t zeros[HOLO_DIGEST_LEN] = {0};
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_sha256 c = s->prefix[i];
  uint8_t w[4];
  for (uint32_t j = 0; j < n->n_in; j++) /* a constant's label is its record's, resident or not */
    holo_sha256_update(&c, n->in[j] == HOLO_ABSENT ? zeros : holo__s_label_of(s, n->in[j])->b,
                       HOLO_DIGEST_LEN);
  for (uint32_t k = 0; k < n->n_out; k++) {
    holo_sha256 ck = c;
    holo_put_u32le(w, k);
    holo_sha256_update(&ck, w, 4);
    holo_sha256_final(&ck, out[k].b);
  }
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
  static const char tag[] = "holo/memo/v1";
  holo_sha256 c;
  uint8_t w[4];
  const char *bid = s->be->identity;
  uint32_t blen = 0;
  while (bid[blen])
    blen++;
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  holo_label_hash_into(&c, &s->archive_digest);
  holo_sha256_update(&c, bid, blen + 1);
  holo_put_u32le(w, s->ar.n_in_ports);
  holo_sha256_update(&c, w, 4);
  for (uint32_t i = 0; i < s->ar.n_in_ports; i++)
    holo_label_hash_into(&c, &s->in_digests[i]);
  holo_sha256_final(&c, key->b);
}

static void hash_cstr(holo_sha256 *c, const char *p) {
  uint32_t n = 0;
  while (p[n])
    n++;
  holo_sha256_update(c, p, n + 1);
}

void holo__code_identity(const holo_session *s, uint8_t out[32]) {
  static const char tag[] = "holo/code/v1";
  holo_sha256 c;
  uint8_t w[4];
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  hash_cstr(&c, s->be->identity);
  holo_put_u32le(w, s->ar.n_nodes);
  holo_sha256_update(&c, w, 4);
  for (uint32_t i = 0; i < s->ar.n_nodes; i++) {
    if (s->kernels[i]) {
      hash_cstr(&c, s->kernels[i]->identity);
      continue;
    }
    /* a control node: the runtime's construct, named by its op */
    holo_sha256_update(&c, s->ar.nodes[i].op.p, s->ar.nodes[i].op.len);
    holo_sha256_update(&c, "", 1);
  }
  holo_sha256_final(&c, out);
}

bool holo__probe_node_label(holo_session *s, uint32_t node, uint32_t k, holo_digest *out) {
  if (node >= s->ar.n_nodes || k >= s->ar.nodes[node].n_out || s->control[node]) return false;
  const holo_ar_node *n = &s->ar.nodes[node];
  for (uint32_t j = 0; j < n->n_in; j++)
    if (n->in[j] != HOLO_ABSENT && !s->slot[n->in[j]] && s->ar.values[n->in[j]].kind != HOLO_VK_CONST) return false;
  holo_digest od[64];
  holo__s_computed_digests(s, node, od);
  *out = od[k];
  return true;
}
