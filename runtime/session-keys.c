/* A session's cold labels: the per-node, per-output keys computed labels
 * are chained from (format §5, holo/node/v4), hashed once at load; the
 * code identity; the label a probe asks of one node. Nothing here runs per
 * node per execution (session-labels.c is that), so it is compiled for
 * size in the wasm core (wasm.mk). */
#include "session-impl.h"

static void hash_cstr(holo_sha256 *c, const char *p) {
  uint32_t n = 0;
  while (p[n])
    n++;
  holo_sha256_update(c, p, n + 1);
}

static void hash_u32(holo_sha256 *c, uint32_t v) {
  uint8_t w[4];
  holo_put_u32le(w, v);
  holo_sha256_update(c, w, 4);
}

/* N_k = SHA-256("holo/node/v4\0" || backend identity "\0" || kernel
 * identity "\0" || u32 n_attrs || attributes || u32 n_in || u32 n_out ||
 * u32 k), kept as the eight little-endian words of its bytes: the BLAKE3
 * key of output k's label (session-labels.c). */
void holo__s_node_keys(holo_session *s, uint32_t i, const holo_kernel *k) {
  static const char tag[] = "holo/node/v4";
  const holo_ar_node *n = &s->ar.nodes[i];
  holo_sha256 c;
  uint8_t w[8], d[HOLO_DIGEST_LEN];
  holo_sha256_init(&c);
  holo_sha256_update(&c, tag, sizeof tag);
  hash_cstr(&c, s->be->identity);
  hash_cstr(&c, k->identity);
  hash_u32(&c, n->n_attrs);
  for (uint32_t a = 0; a < n->n_attrs; a++) {
    const holo_attr *at = &n->attrs[a];
    size_t plen = at->type == HOLO_ATTR_INT || at->type == HOLO_ATTR_INTS       ? 8u * at->count
                  : at->type == HOLO_ATTR_FLOAT || at->type == HOLO_ATTR_FLOATS ? 4u * at->count
                                                                                : at->count;
    holo_sha256_update(&c, at->name, at->name_len);
    holo_sha256_update(&c, "", 1);
    holo_put_u32le(w, at->type);
    holo_put_u32le(w + 4, at->count);
    holo_sha256_update(&c, w, 8);
    holo_sha256_update(&c, at->payload, plen);
  }
  hash_u32(&c, n->n_in);
  hash_u32(&c, n->n_out);
  for (uint32_t o = 0; o < n->n_out; o++) {
    holo_sha256 co = c;
    uint32_t *key = s->keys[s->key_at[i] + o];
    hash_u32(&co, o);
    holo_sha256_final(&co, d);
    for (int j = 0; j < 8; j++)
      key[j] = (uint32_t)d[4 * j] | (uint32_t)d[4 * j + 1] << 8 | (uint32_t)d[4 * j + 2] << 16 |
               (uint32_t)d[4 * j + 3] << 24;
  }
}

/* The memo key's fixed part (format §5): "holo/memo/v1\0" || archive
 * label || backend identity "\0" || u32 n, hashed once at load; each
 * execution continues from it with the input labels. */
void holo__s_memo_prefix(holo_session *s) {
  static const char tag[] = "holo/memo/v1";
  holo_sha256 *c = &s->memo_prefix;
  holo_sha256_init(c);
  holo_sha256_update(c, tag, sizeof tag);
  holo_label_hash_into(c, &s->archive_digest);
  hash_cstr(c, s->be->identity);
  hash_u32(c, s->ar.n_in_ports);
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
    if (n->in[j] != HOLO_ABSENT && !s->slot[n->in[j]] && s->ar.values[n->in[j]].kind != HOLO_VK_CONST)
      return false;
  holo_digest od[64];
  holo__s_computed_digests(s, node, od);
  *out = od[k];
  return true;
}
