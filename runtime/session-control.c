/* Control flow as a construct of the graph (docs/holo-format.md §4a): the
 * checks of a control node at load, the walk of a nested graph, and If.
 * Loop is session-loop.c's. Nothing here names a kernel: a nested graph's
 * nodes run through the same holo__s_run_node as the top level, so their
 * labels derive from their operands' labels -- a branch or an iteration that
 * recomputes content already resident is elided, and the outputs a control
 * node passes through keep their labels. */
#include "session-impl.h"

static bool op_is(const holo_ar_node *n, const char *name) {
  uint32_t k = 0;
  while (name[k])
    k++;
  return n->op.len == k && holo_memcmp(n->op.p, name, k) == 0;
}

static bool name_is(const holo_ar_graph *g, const char *name) {
  uint32_t k = 0;
  while (name[k])
    k++;
  return g->name.len == k && holo_memcmp(g->name.p, name, k) == 0;
}

static holo_status plan_if(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  const holo_ar_graph *g = &s->ar.graphs[n->first_graph];
  if (n->n_graphs != 2 || !name_is(&g[0], "then_branch") || !name_is(&g[1], "else_branch"))
    return holo_err(err, HOLO_ERR_FORMAT,
                    NODE_FMT ": If needs the graphs then_branch, else_branch (in this order)",
                    NODE_ARGS(i, n));
  if (n->n_in != 1 || n->in[0] == HOLO_ABSENT)
    return holo_err(err, HOLO_ERR_FORMAT, NODE_FMT ": If takes one input (cond), has %u", NODE_ARGS(i, n),
                    n->n_in);
  for (int b = 0; b < 2; b++)
    if (g[b].n_in != 0 || g[b].n_out != n->n_out)
      return holo_err(err, HOLO_ERR_FORMAT, NODE_FMT ": %.*s has %u inputs and %u outputs, If needs 0 and %u",
                      NODE_ARGS(i, n), (int)g[b].name.len, g[b].name.p, g[b].n_in, g[b].n_out, n->n_out);
  s->control[i] = HOLO_CTL_IF;
  return HOLO_OK;
}

static holo_status plan_loop(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  const holo_ar_graph *g = &s->ar.graphs[n->first_graph];
  if (n->n_graphs != 1 || !name_is(g, "body"))
    return holo_err(err, HOLO_ERR_FORMAT, NODE_FMT ": Loop needs one graph, body", NODE_ARGS(i, n));
  if (n->n_in < 2)
    return holo_err(err, HOLO_ERR_FORMAT, NODE_FMT ": Loop takes (M, cond, carried...), has %u inputs",
                    NODE_ARGS(i, n), n->n_in);
  uint32_t carried = n->n_in - 2;
  if (g->n_in != carried + 2 || g->n_out < carried + 1 || n->n_out != g->n_out - 1)
    return holo_err(err, HOLO_ERR_FORMAT,
                    NODE_FMT
                    ": Loop with %u carried values: body has %u inputs (needs %u) and %u outputs, node %u "
                    "outputs (needs body outputs - 1)",
                    NODE_ARGS(i, n), carried, g->n_in, carried + 2, g->n_out, n->n_out);
  for (uint32_t k = 2; k < n->n_in; k++)
    if (n->in[k] == HOLO_ABSENT)
      return holo_err(err, HOLO_ERR_FORMAT, NODE_FMT ": Loop carried value %u is absent", NODE_ARGS(i, n),
                      k - 2);
  s->control[i] = HOLO_CTL_LOOP;
  return HOLO_OK;
}

holo_status holo__s_plan_control(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  if (op_is(n, "If")) return plan_if(s, i, err);
  if (op_is(n, "Loop")) return plan_loop(s, i, err);
  return holo_err(err, HOLO_ERR_UNSUPPORTED,
                  NODE_FMT ": owns %u nested graphs but %.*s is not a control construct (If, Loop)",
                  NODE_ARGS(i, n), n->n_graphs, (int)n->op.len, n->op.p);
}

/* The ancestor of node j (or j) that lies in graph `want` (an enclosing
 * graph of j's): who, in want's walk order, reads what j reads. */
uint32_t holo__s_reader_in(const holo_session *s, uint32_t j, uint32_t want) {
  uint32_t g = s->ar.node_graph[j];
  while (g != want && g != 0) {
    j = s->ar.graphs[g - 1].owner;
    g = s->ar.node_graph[j];
  }
  return j;
}

/* Last readers across nesting: a value read inside a nested graph is kept
 * until the enclosing node in its own graph is done; a graph's outputs are
 * kept to the graph's end (released by holo__s_release_graph). */
void holo__s_plan_graph_uses(holo_session *s) {
  const holo_archive *ar = &s->ar;
  for (uint32_t k = 0; k < ar->n_graphs; k++)
    for (uint32_t j = 0; j < ar->graphs[k].n_out; j++) {
      uint32_t v = ar->graphs[k].out[j], want = holo_archive_value_graph(ar, v);
      if (ar->values[v].kind == HOLO_VK_CONST) continue;
      uint32_t at = want == k + 1 ? ar->n_nodes : holo__s_reader_in(s, ar->graphs[k].owner, want);
      if (at > s->last_use[v]) s->last_use[v] = at;
    }
}

holo_status holo__s_run_graph(holo_session *s, uint32_t g, holo_error *err) {
  const holo_ar_graph *gr = &s->ar.graphs[g];
  holo_status st = HOLO_OK;
  for (uint32_t i = gr->first_node; i < gr->first_node + gr->n_nodes && !st; i++) {
    st = s->control[i] ? holo__s_run_control(s, i, err) : holo__s_run_node(s, i, err);
    if (!st) holo__s_retire(s, i);
  }
  return st;
}

void holo__s_release_graph(holo_session *s, uint32_t g) {
  const holo_ar_graph *gr = &s->ar.graphs[g];
  for (uint32_t i = gr->first_node; i < gr->first_node + gr->n_nodes; i++)
    for (uint32_t k = 0; k < s->ar.nodes[i].n_out; k++)
      holo__s_unhold(s, s->ar.nodes[i].out[k]);
  for (uint32_t k = 0; k < gr->n_in; k++)
    holo__s_unhold(s, gr->in[k]);
}

holo_status holo__s_scalar_of(holo_session *s, uint32_t i, holo_entry *e, uint32_t dtype, const char *what,
                              int64_t *out, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  size_t es = holo_dtype_size(dtype);
  if (!e || e->dtype != dtype || e->buf->bytes != es)
    return holo_err(err, HOLO_ERR_KERNEL,
                    NODE_FMT ": %s must be one element of dtype %u (got dtype %u, %zu bytes)",
                    NODE_ARGS(i, n), what, dtype, e ? e->dtype : 0, e ? e->buf->bytes : 0);
  const uint8_t *p = e->buf->data;
  uint64_t v = 0;
  for (size_t k = 0; k < es; k++)
    v |= (uint64_t)p[k] << (8 * k);
  *out = (int64_t)v;
  return HOLO_OK;
}

/* An If condition (format §4a): one element of bool or any numeric dtype,
 * nonzero = true as ONNX has it (a float NaN is nonzero; -0.0 is zero). */
static holo_status if_cond(holo_session *s, uint32_t i, const holo_entry *e, bool *out, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  size_t es = e ? holo_dtype_size(e->dtype) : 0;
  if (!e || es == 0 || holo_dtype_is_list(e->dtype) || e->buf->bytes != es)
    return holo_err(err, HOLO_ERR_KERNEL,
                    NODE_FMT ": the condition must be one bool or numeric element (got dtype %u, %zu bytes)",
                    NODE_ARGS(i, n), e ? e->dtype : 0, e ? e->buf->bytes : 0);
  const uint8_t *p = e->buf->data;
  uint64_t v = 0;
  for (size_t k = 0; k < es; k++)
    v |= (uint64_t)p[k] << (8 * k);
  /* floats: zero is +0 and -0 (every bit but the sign clear) */
  uint64_t sign = (uint64_t)1 << (8 * es - 1);
  bool is_float = e->dtype == HOLO_DT_F32 || e->dtype == HOLO_DT_F64 || e->dtype == HOLO_DT_F16 ||
                  e->dtype == HOLO_DT_BF16;
  *out = is_float ? (v & ~sign) != 0 : v != 0;
  return HOLO_OK;
}

/* If: only the taken branch runs; its outputs become the node's (same
 * entries, same labels). */
static holo_status run_if(holo_session *s, uint32_t i, holo_error *err) {
  const holo_ar_node *n = &s->ar.nodes[i];
  bool cond = false;
  holo_status st = if_cond(s, i, s->slot[n->in[0]], &cond, err);
  if (st) return st;
  uint32_t g = n->first_graph + (cond ? 0 : 1);
  st = holo__s_run_graph(s, g, err);
  for (uint32_t k = 0; k < n->n_out && !st; k++)
    if (!(st = holo__s_weights_need(s, s->ar.graphs[g].out[k], err)))
      holo__s_bind(s, n->out[k], s->slot[s->ar.graphs[g].out[k]]);
  holo__s_release_graph(s, g);
  return st;
}

holo_status holo__s_run_control(holo_session *s, uint32_t i, holo_error *err) {
  holo_status st = holo__s_weights_acquire(s, i, err);
  if (st) return st;
  st = s->control[i] == HOLO_CTL_IF ? run_if(s, i, err) : holo__s_run_loop(s, i, err);
  holo__s_weights_release(s, i);
  return st;
}
