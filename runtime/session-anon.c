/* Which nodes' outputs live outside the content table (holo_arena_anon),
 * planned at load.
 *
 * A computed label is found again only when its node's operand labels
 * recur. A top-level value that depends on every input port recurs only in
 * an execution whose every input label recurs -- which the memo answers
 * whole before any node runs -- or, within one execution, at a duplicate
 * node (the same key over the same operands). Such a value, when no other
 * node has its signature, it is no graph output and no nested graph or
 * control node reads it, is never looked up: entering it in the table,
 * retiring it to the scratch cache and evicting it later were 12 % of a
 * 256-node chain's time (docs/benchmarks.md). Its label is still computed
 * (its readers' labels are made from it); no output's bytes or label
 * changes. What is lost is reuse after a memo record's outputs were
 * evicted, and a duplicate that only runtime equal inputs of two different
 * ports would create. */
#include "session-impl.h"

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 29);
}

static uint64_t digest_word(const holo_digest *d) {
  uint64_t w = 0;
  for (int b = 0; b < 8; b++)
    w |= (uint64_t)d->b[b] << (8 * b);
  return w;
}

/* Signatures (sig) and the input ports each value depends on (dep), in node
 * order. A node's signature is its first output's key over its operands'
 * signatures: equal labels in one execution imply equal signatures unless
 * two ports get equal inputs. No-anon producers are marked in `keep`. */
static void signatures(holo_session *s, uint64_t *sig, uint64_t *dep, uint64_t *nsig, uint8_t *keep) {
  const holo_archive *ar = &s->ar;
  for (uint32_t v = 0; v < ar->n_values; v++) {
    const holo_ar_value *val = &ar->values[v];
    sig[v] = val->kind == HOLO_VK_CONST ? digest_word(&ar->consts[val->aux].digest) : mix(0x5eed, v);
    dep[v] = 0;
  }
  for (uint32_t p = 0; p < ar->n_in_ports; p++)
    dep[ar->in_ports[p]] |= 1ull << p;
  for (uint32_t i = 0; i < ar->n_nodes; i++) {
    const holo_ar_node *n = &ar->nodes[i];
    bool nested = ar->node_graph[i] || s->control[i];
    const uint32_t *key = s->keys[s->key_at[i]];
    uint64_t h = n->n_out ? mix(((uint64_t)key[1] << 32) | key[0], ((uint64_t)key[3] << 32) | key[2]) : 0;
    uint64_t d = nested ? ~0ull : 0;
    for (uint32_t k = 0; k < n->n_in; k++) {
      uint32_t v = n->in[k];
      h = mix(h, v == HOLO_ABSENT ? 0 : sig[v]);
      if (v == HOLO_ABSENT) continue;
      d |= dep[v];
      if (nested && ar->values[v].kind == HOLO_VK_NODE) keep[ar->values[v].aux] = 1;
    }
    nsig[i] = nested ? mix(0xc0de, i) : h;
    for (uint32_t k = 0; k < n->n_out; k++) {
      sig[n->out[k]] = mix(nsig[i], k);
      dep[n->out[k]] = d;
    }
  }
}

/* Marks in `keep` every node whose signature another node shares. */
static bool mark_duplicates(holo_session *s, const uint64_t *nsig, uint8_t *keep) {
  uint32_t n = s->ar.n_nodes, cap = 16;
  while (cap < 2 * n)
    cap *= 2;
  uint32_t *tab = holo__s_zalloc(s, cap, sizeof *tab); /* node + 1, 0 = empty */
  if (!tab) return false;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t at = (uint32_t)nsig[i] & (cap - 1);
    while (tab[at] && nsig[tab[at] - 1] != nsig[i])
      at = (at + 1) & (cap - 1);
    if (!tab[at]) {
      tab[at] = i + 1;
    } else {
      keep[i] = 1;
      keep[tab[at] - 1] = 1;
    }
  }
  holo__s_free(s, tab);
  return true;
}

holo_status holo__s_plan_anon(holo_session *s, holo_error *err) {
  const holo_archive *ar = &s->ar;
  if (!ar->n_in_ports || ar->n_in_ports > 64 || !ar->n_nodes) return HOLO_OK; /* s->anon stays NULL */
  uint64_t all = ar->n_in_ports == 64 ? ~0ull : (1ull << ar->n_in_ports) - 1;
  uint64_t *sig = holo__s_zalloc(s, ar->n_values, sizeof *sig), *dep = holo__s_zalloc(s, ar->n_values, sizeof *dep);
  uint64_t *nsig = holo__s_zalloc(s, ar->n_nodes, sizeof *nsig);
  uint8_t *keep = holo__s_zalloc(s, ar->n_nodes, 1);
  s->anon = holo__s_zalloc(s, ar->n_nodes, 1);
  bool ok = sig && dep && nsig && keep && s->anon;
  if (ok) {
    signatures(s, sig, dep, nsig, keep);
    ok = mark_duplicates(s, nsig, keep);
  }
  if (ok) {
    for (uint32_t k = 0; k < ar->n_graphs; k++) /* a nested graph may output an outer value as it is */
      for (uint32_t j = 0; j < ar->graphs[k].n_out; j++) {
        const holo_ar_value *val = &ar->values[ar->graphs[k].out[j]];
        if (val->kind == HOLO_VK_NODE) keep[val->aux] = 1;
      }
    for (uint32_t p = 0; p < ar->n_out_ports; p++) {
      const holo_ar_value *val = &ar->values[ar->out_ports[p]];
      if (val->kind == HOLO_VK_NODE) keep[val->aux] = 1;
    }
    for (uint32_t i = 0; i < ar->n_nodes; i++) {
      const holo_ar_node *n = &ar->nodes[i];
      bool plain = !ar->node_graph[i] && !s->control[i] && !s->in_cone[i] && n->n_out;
      s->anon[i] = plain && !keep[i] && (dep[n->out[0]] & all) == all;
    }
  }
  holo__s_free(s, sig);
  holo__s_free(s, dep);
  holo__s_free(s, nsig);
  holo__s_free(s, keep);
  if (!ok) return holo_err(err, HOLO_ERR_MEMORY, "out of memory planning %u nodes", ar->n_nodes);
  return HOLO_OK;
}
