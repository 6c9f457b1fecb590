/* Port shapes for the three kinds of causal model (docs/generation.md):
 * a step graph (one token), a sequence model (K tokens, padded) and a
 * growing-state model (the token input's length is symbolic; the state is
 * the last execution's, one row longer per token). */
#include "gen-ports.h"

#include "hologram/mem.h"

holo_status holo_gen_token_port(holo_gen *g, holo_error *err) {
  holo_port_info v;
  holo_session_input_info(g->s, g->m.token_input, &v);
  if (v.dtype != HOLO_DT_I64 && v.dtype != HOLO_DT_I32 && v.dtype != HOLO_DT_F32)
    return holo_err(err, HOLO_ERR_UNSUPPORTED, "generator: token input %u must be i64, i32 or f32", g->m.token_input);
  g->seq = 1, g->grow = false;
  if (v.rank != HOLO_RANK_UNKNOWN && v.rank > 0 && v.shape[v.rank - 1] < 0) {
    /* growing: the other dims are 1 or symbolic (a batch of 1) */
    for (uint32_t d = 0; d + 1 < v.rank; d++)
      if (v.shape[d] > 1)
        return holo_err(err, HOLO_ERR_UNSUPPORTED, "generator: token input %u has a batch of %lld (one sequence only)",
                        g->m.token_input, (long long)v.shape[d]);
    g->seq = HOLO_GEN_MAX_SEQ, g->grow = true;
    return HOLO_OK;
  }
  size_t n = 0;
  if (v.rank == HOLO_RANK_UNKNOWN || !holo_shape_numel(v.shape, v.rank, &n) || n < 1 || n > HOLO_GEN_MAX_SEQ)
    return holo_err(err, HOLO_ERR_UNSUPPORTED,
                    "generator: token input %u must hold 1 to " HOLO_GEN_MAX_SEQ_STR
                    " elements (static), or have a symbolic last dimension (a growing-state model)",
                    g->m.token_input);
  g->seq = (uint32_t)n;
  return HOLO_OK;
}

void holo_gen_token_shape(const holo_gen *g, uint32_t n, int64_t shape[HOLO_MAX_RANK], uint32_t *rank) {
  holo_port_info v;
  holo_session_input_info(g->s, g->m.token_input, &v);
  *rank = v.rank;
  for (uint32_t d = 0; d < v.rank; d++) shape[d] = v.shape[d] < 0 ? 1 : v.shape[d];
  if (g->grow) shape[v.rank - 1] = n;
}

/* Is symbol (s, len) one of the token input's batch dims (all but its last)? */
static bool batch_symbol(const holo_gen *g, const char *s, uint32_t len) {
  holo_port_info t;
  holo_session_input_info(g->s, g->m.token_input, &t);
  if (t.rank == HOLO_RANK_UNKNOWN || !len) return false;
  for (uint32_t d = 0; d + 1 < t.rank; d++)
    if (t.shape[d] < 0 && t.symbol_len[d] == len && !holo_memcmp(t.symbol[d], s, len)) return true;
  return false;
}

holo_status holo_gen_zero_shape(const holo_gen *g, uint32_t port, int64_t shape[HOLO_MAX_RANK], uint32_t *rank,
                                holo_error *err) {
  holo_port_info v;
  holo_session_input_info(g->s, port, &v);
  if (v.rank == HOLO_RANK_UNKNOWN || v.rank > HOLO_MAX_RANK)
    return holo_err(err, HOLO_ERR_STATE, "generator: state input %u has an unknown rank; give an initial value", port);
  *rank = v.rank;
  for (uint32_t d = 0; d < v.rank; d++)
    shape[d] = v.shape[d] >= 0 ? v.shape[d] : batch_symbol(g, v.symbol[d], v.symbol_len[d]) ? 1 : 0;
  return HOLO_OK;
}

holo_status holo_gen_vocab(holo_gen *g, const holo_port_info *lv, holo_error *err) {
  bool known = lv->rank != HOLO_RANK_UNKNOWN && lv->rank > 0 && lv->shape[lv->rank - 1] > 0;
  if (known && g->m.vocab && (int64_t)g->m.vocab != lv->shape[lv->rank - 1])
    return holo_err(err, HOLO_ERR_ARG, "generator: vocabulary %u given, the logits' last dimension is %lld", g->m.vocab,
                    (long long)lv->shape[lv->rank - 1]);
  if (!known && !g->m.vocab)
    return holo_err(err, HOLO_ERR_UNSUPPORTED,
                    "generator: the logits' last dimension (the vocabulary) is not static: give the vocabulary");
  g->vocab = known ? (uint32_t)lv->shape[lv->rank - 1] : g->m.vocab;
  return HOLO_OK;
}
