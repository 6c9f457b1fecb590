/* The nested-graph rules of the .holo reader (docs/holo-format.md §3 GRPH,
 * §4 rules 8-12): GRPH records, which node belongs to which graph, the
 * nesting (no cycle, bounded depth), graph inputs, and scope -- a value is
 * read only where it is bound. Called by archive.c once every other section
 * is checked; every walk here is bounded by the nesting depth. */
#include "archive-graphs.h"

#include "hologram/mem.h"

#define MAX_GRAPH_IO 4096u

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t holo_archive_value_graph(const holo_archive *ar, uint32_t v) {
  const holo_ar_value *val = &ar->values[v];
  if (val->kind == HOLO_VK_NODE) return ar->node_graph ? ar->node_graph[val->aux] : 0;
  if (val->kind == HOLO_VK_GRAPH_INPUT) return val->aux + 1;
  return 0;
}

/* The graph that holds graph g (0 = top level). */
static uint32_t parent(const holo_archive *ar, uint32_t g) { return ar->node_graph[ar->graphs[g - 1].owner]; }

/* Records: strings, ranges, the owner's records contiguous, each node in at
 * most one graph. */
static holo_status records(holo_archive *ar, const uint8_t *rec, const uint8_t *strs, uint64_t strs_len,
                           holo_error *err) {
  for (uint32_t k = 0; k < ar->n_graphs; k++) {
    const uint8_t *p = rec + 32 * (size_t)k;
    holo_ar_graph *g = &ar->graphs[k];
    uint32_t off = rd32(p), len = rd32(p + 4), fio = rd32(p + 20);
    g->owner = rd32(p + 8);
    g->first_node = rd32(p + 12);
    g->n_nodes = rd32(p + 16);
    g->n_in = (uint32_t)p[24] | (uint32_t)p[25] << 8;
    g->n_out = (uint32_t)p[26] | (uint32_t)p[27] << 8;
    if ((uint64_t)off + len > strs_len)
      return holo_err(err, HOLO_ERR_FORMAT, "graph %u: name string out of range", k);
    g->name = (holo_ar_str){(const char *)strs + off, len};
    if (rd32(p + 28)) return holo_err(err, HOLO_ERR_FORMAT, "graph %u: reserved field is not zero", k);
    if (g->owner >= ar->n_nodes)
      return holo_err(err, HOLO_ERR_FORMAT, "graph %u: owner node %u out of range (%u nodes)", k, g->owner,
                      ar->n_nodes);
    if ((uint64_t)g->first_node + g->n_nodes > ar->n_nodes)
      return holo_err(err, HOLO_ERR_FORMAT, "graph %u: node range [%u, +%u) out of NODE bounds (%u)", k,
                      g->first_node, g->n_nodes, ar->n_nodes);
    if (g->n_in > MAX_GRAPH_IO || g->n_out > MAX_GRAPH_IO)
      return holo_err(err, HOLO_ERR_FORMAT, "graph %u: %u inputs / %u outputs exceed the limit %u", k,
                      g->n_in, g->n_out, MAX_GRAPH_IO);
    if ((uint64_t)fio + g->n_in + g->n_out > ar->n_io)
      return holo_err(err, HOLO_ERR_FORMAT, "graph %u: io range out of IOIX bounds", k);
    g->in = ar->io + fio;
    g->out = ar->io + fio + g->n_in;
    holo_ar_node *o = &ar->nodes[g->owner];
    if (o->n_graphs == 0)
      o->first_graph = k;
    else if (o->first_graph + o->n_graphs != k)
      return holo_err(err, HOLO_ERR_FORMAT, "graph %u: the graphs of node %u are not contiguous in GRPH", k,
                      g->owner);
    o->n_graphs++;
    for (uint32_t i = g->first_node; i < g->first_node + g->n_nodes; i++) {
      if (ar->node_graph[i])
        return holo_err(err, HOLO_ERR_FORMAT, "node %u belongs to two graphs (%u and %u)", i,
                        ar->node_graph[i] - 1, k);
      ar->node_graph[i] = k + 1;
    }
  }
  return HOLO_OK;
}

/* No graph is nested in itself and none deeper than HOLO_MAX_GRAPH_DEPTH. */
static holo_status nesting(const holo_archive *ar, holo_error *err) {
  for (uint32_t k = 1; k <= ar->n_graphs; k++) {
    uint32_t g = k, depth = 0;
    while (g != 0) {
      g = parent(ar, g);
      if (g == k)
        return holo_err(err, HOLO_ERR_FORMAT,
                        "graph %u is nested in itself (a cycle through its owner node %u)", k - 1,
                        ar->graphs[k - 1].owner);
      if (++depth > HOLO_MAX_GRAPH_DEPTH)
        return holo_err(err, HOLO_ERR_FORMAT, "graph %u: nesting deeper than the limit %u", k - 1,
                        HOLO_MAX_GRAPH_DEPTH);
    }
  }
  return HOLO_OK;
}

/* Every value of kind graph input is listed once, by the graph its aux names. */
static holo_status graph_inputs(const holo_archive *ar, uint8_t *seen, holo_error *err) {
  for (uint32_t k = 0; k < ar->n_graphs; k++)
    for (uint32_t j = 0; j < ar->graphs[k].n_in; j++) {
      uint32_t v = ar->graphs[k].in[j];
      if (v >= ar->n_values || ar->values[v].kind != HOLO_VK_GRAPH_INPUT || ar->values[v].aux != k)
        return holo_err(err, HOLO_ERR_FORMAT,
                        "graph %u input %u: value %u is not a graph input of this graph", k, j, v);
      if (seen[v]) return holo_err(err, HOLO_ERR_FORMAT, "graph %u input %u: value %u listed twice", k, j, v);
      seen[v] = 1;
    }
  for (uint32_t v = 0; v < ar->n_values; v++)
    if (ar->values[v].kind == HOLO_VK_GRAPH_INPUT && !seen[v])
      return holo_err(err, HOLO_ERR_FORMAT, "value %u (%.*s) is of kind graph input but no graph lists it", v,
                      (int)ar->values[v].name.len, ar->values[v].name.p);
  return HOLO_OK;
}

/* Whether value v can be read in graph g by node `at` (HOLO_ABSENT: by the
 * graph's outputs, after all its nodes): its scope is g or an enclosing
 * graph, and, when enclosing, it is produced before the node that (through
 * the nesting) holds g. */
static bool in_scope(const holo_archive *ar, uint32_t v, uint32_t g, uint32_t at) {
  const holo_ar_value *val = &ar->values[v];
  if (val->kind == HOLO_VK_INPUT || val->kind == HOLO_VK_CONST) return true;
  uint32_t want = holo_archive_value_graph(ar, v);
  while (g != want) {
    if (g == 0) return false;
    at = ar->graphs[g - 1].owner;
    g = parent(ar, g);
  }
  return val->kind == HOLO_VK_GRAPH_INPUT || at == HOLO_ABSENT || val->aux < at;
}

static holo_status scopes(const holo_archive *ar, holo_error *err) {
  for (uint32_t i = 0; i < ar->n_nodes; i++) {
    const holo_ar_node *n = &ar->nodes[i];
    for (uint32_t k = 0; k < n->n_in; k++)
      if (n->in[k] != HOLO_ABSENT && !in_scope(ar, n->in[k], ar->node_graph[i], i))
        return holo_err(err, HOLO_ERR_FORMAT, "node %u (%.*s): input %u (value %u) is out of scope", i,
                        (int)n->name.len, n->name.p, k, n->in[k]);
  }
  for (uint32_t k = 0; k < ar->n_graphs; k++)
    for (uint32_t j = 0; j < ar->graphs[k].n_out; j++) {
      uint32_t v = ar->graphs[k].out[j];
      if (v >= ar->n_values)
        return holo_err(err, HOLO_ERR_FORMAT, "graph %u output %u: value id %u out of range", k, j, v);
      if (!in_scope(ar, v, k + 1, HOLO_ABSENT))
        return holo_err(err, HOLO_ERR_FORMAT, "graph %u output %u: value %u is out of scope", k, j, v);
    }
  for (uint32_t p = 0; p < ar->n_out_ports; p++)
    if (!in_scope(ar, ar->out_ports[p], 0, HOLO_ABSENT))
      return holo_err(err, HOLO_ERR_FORMAT,
                      "output port %u: value %u is out of scope (inside a nested graph)", p,
                      ar->out_ports[p]);
  return HOLO_OK;
}

holo_status holo__archive_graphs(holo_archive *ar, const uint8_t *rec, uint32_t count, const uint8_t *strs,
                                 uint64_t strs_len, const holo_allocator *a, holo_error *err) {
  ar->n_graphs = count;
  size_t nn = ar->n_nodes ? ar->n_nodes : 1, ng = count ? count : 1, nv = ar->n_values ? ar->n_values : 1;
  ar->node_graph = a->alloc(a->ctx, nn * sizeof *ar->node_graph, 16);
  ar->graphs = a->alloc(a->ctx, ng * sizeof *ar->graphs, 16);
  uint8_t *seen = a->alloc(a->ctx, nv, 16);
  if (!ar->node_graph || !ar->graphs || !seen) {
    if (seen) a->free(a->ctx, seen);
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory reading %u nested graphs", count);
  }
  holo_memset(ar->node_graph, 0, nn * sizeof *ar->node_graph);
  holo_memset(ar->graphs, 0, ng * sizeof *ar->graphs);
  holo_memset(seen, 0, nv);
  holo_status st = records(ar, rec, strs, strs_len, err);
  if (!st) st = nesting(ar, err);
  if (!st) st = graph_inputs(ar, seen, err);
  if (!st) st = scopes(ar, err);
  a->free(a->ctx, seen);
  return st;
}
