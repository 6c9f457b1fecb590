/* The .holo reader: validates every field of docs/holo-format.md before
 * anything else looks at it. The parsed form points into the archive bytes. */
#ifndef HOLO_ARCHIVE_H
#define HOLO_ARCHIVE_H

#include "hologram/error.h"
#include "hologram/holo.h"
#include "label.h"

enum { HOLO_VK_INPUT = 0, HOLO_VK_CONST = 1, HOLO_VK_NODE = 2, HOLO_VK_GRAPH_INPUT = 3 };
/* Nested graphs (GRPH): at most this many levels below the top-level graph. */
#define HOLO_MAX_GRAPH_DEPTH 16u
#define HOLO_ABSENT 0xFFFFFFFFu

typedef struct holo_ar_str {
  const char *p;
  uint32_t len;
} holo_ar_str;

typedef struct holo_ar_value {
  holo_ar_str name;
  uint32_t dtype, rank, kind, aux;
  int64_t dims[HOLO_MAX_RANK];
} holo_ar_value;

typedef struct holo_ar_const {
  const uint8_t *data; /* NULL in a sourced load: read from off by range */
  uint64_t off;        /* from the start of the file */
  size_t len;
  holo_digest digest;
} holo_ar_const;

typedef struct holo_ar_node {
  holo_ar_str op, name;
  const uint32_t *in;  /* n_in ids (HOLO_ABSENT allowed), host-endian copy */
  const uint32_t *out; /* n_out ids */
  uint32_t n_in, n_out;
  const holo_attr *attrs;
  uint32_t n_attrs;
  uint32_t first_graph, n_graphs; /* the GRPH records this node owns (control nodes) */
} holo_ar_node;

/* A nested graph (GRPH record): the body of a control node. */
typedef struct holo_ar_graph {
  holo_ar_str name; /* its role in the owner: then_branch, else_branch, body */
  uint32_t owner;   /* the control node */
  uint32_t first_node, n_nodes;
  const uint32_t *in, *out; /* n_in values of kind graph input; n_out values in scope */
  uint32_t n_in, n_out;
} holo_ar_graph;

typedef struct holo_archive {
  const uint8_t *base;
  size_t len;
  uint32_t n_values, n_consts, n_nodes, n_attrs, n_io, n_syms, n_meta;
  uint32_t n_in_ports, n_out_ports;
  holo_ar_value *values;
  holo_ar_const *consts;
  holo_ar_node *nodes;
  holo_attr *attrs;
  uint32_t *io;
  uint32_t *in_ports, *out_ports;
  holo_ar_str *syms;
  holo_ar_str *meta; /* 2 * n_meta: key, value */
  uint32_t n_state;  /* optional state contract (STAT): input port <- output port */
  uint32_t *state;   /* 2 * n_state: input port, output port */
  uint32_t n_graphs;
  holo_ar_graph *graphs;
  uint32_t *node_graph; /* per node: 0 = top level, k + 1 = GRPH record k */
} holo_archive;

/* Scope of a value: the graph (0 top, k + 1 record k) that binds it; constants: 0. */
uint32_t holo_archive_value_graph(const holo_archive *ar, uint32_t v);

holo_status holo_archive_parse(const uint8_t *bytes, size_t len, const holo_allocator *a,
                               holo_archive *ar, holo_error *err);
/* The same over the first `have` bytes of a `len`-byte archive: every
 * section but DATA must lie in them (a sourced load, whose constants are
 * read by range). */
holo_status holo_archive_parse_head(const uint8_t *head, size_t have, size_t len, const holo_allocator *a,
                                    holo_archive *ar, holo_error *err);
void holo_archive_release(holo_archive *ar, const holo_allocator *a);

#endif
