/* The .holo reader: validates every field of docs/holo-format.md before
 * anything else looks at it. The parsed form points into the archive bytes. */
#ifndef HOLO_ARCHIVE_H
#define HOLO_ARCHIVE_H

#include "hologram/error.h"
#include "hologram/holo.h"
#include "label.h"

enum { HOLO_VK_INPUT = 0, HOLO_VK_CONST = 1, HOLO_VK_NODE = 2 };
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
  const uint8_t *data;
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
} holo_ar_node;

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
} holo_archive;

holo_status holo_archive_parse(const uint8_t *bytes, size_t len, const holo_allocator *a,
                               holo_archive *ar, holo_error *err);
void holo_archive_release(holo_archive *ar, const holo_allocator *a);

#endif
