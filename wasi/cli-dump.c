/* `holo dump`: the archive as the graph JSON of docs/holo-format.md §8, the
 * same schema the JS writer takes, so the two sides can be compared. This
 * tool reads the archive layer directly (it is an archive tool). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "../runtime/archive.h"
#include "holo-std.h"
#include "holo-cli.h"

static void json_str(FILE *f, const char *p, uint32_t n) {
  fputc('"', f);
  for (uint32_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)p[i];
    if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
    else if (c < 0x20) fprintf(f, "\\u%04x", c);
    else fputc(c, f);
  }
  fputc('"', f);
}

static void json_int(FILE *f, int64_t v) {
  const int64_t lim = (int64_t)1 << 53;
  if (v > lim || v < -lim) fprintf(f, "\"%" PRId64 "\"", v);
  else fprintf(f, "%" PRId64, v);
}

static void hex(FILE *f, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) fprintf(f, "%02x", p[i]);
}

static void shape(FILE *f, const holo_archive *ar, const holo_ar_value *v) {
  if (v->rank == HOLO_RANK_UNKNOWN) {
    fputs("null", f);
    return;
  }
  fputc('[', f);
  for (uint32_t d = 0; d < v->rank; d++) {
    if (d) fputc(',', f);
    if (v->dims[d] < 0) {
      const holo_ar_str *s = &ar->syms[-(v->dims[d] + 1)];
      json_str(f, s->p, s->len);
    } else {
      json_int(f, v->dims[d]);
    }
  }
  fputc(']', f);
}

static int64_t rd_i64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return (int64_t)v;
}

static float rd_f32(const uint8_t *p) {
  union { uint32_t u; float f; } v = {(uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24};
  return v.f;
}

static void attr(FILE *f, const holo_attr *a) {
  static const char *types[] = {"", "int", "float", "ints", "floats", "string"};
  fputs("{\"name\":", f);
  json_str(f, a->name, a->name_len);
  fprintf(f, ",\"type\":\"%s\",\"value\":", types[a->type]);
  switch (a->type) {
  case HOLO_ATTR_INT: json_int(f, rd_i64(a->payload)); break;
  case HOLO_ATTR_FLOAT: fprintf(f, "%.9g", (double)rd_f32(a->payload)); break;
  case HOLO_ATTR_STRING: json_str(f, (const char *)a->payload, a->count); break;
  default:
    fputc('[', f);
    for (uint32_t i = 0; i < a->count; i++) {
      if (i) fputc(',', f);
      if (a->type == HOLO_ATTR_INTS) json_int(f, rd_i64(a->payload + 8 * i));
      else fprintf(f, "%.9g", (double)rd_f32(a->payload + 4 * i));
    }
    fputc(']', f);
  }
  fputc('}', f);
}

static void ids(FILE *f, const uint32_t *v, uint32_t n) {
  fputc('[', f);
  for (uint32_t i = 0; i < n; i++) {
    if (i) fputc(',', f);
    if (v[i] == HOLO_ABSENT) fputs("null", f);
    else fprintf(f, "%u", v[i]);
  }
  fputc(']', f);
}

static void graphs(FILE *f, const holo_archive *ar) {
  fputs(",\n\"graphs\":[", f);
  for (uint32_t k = 0; k < ar->n_graphs; k++) {
    const holo_ar_graph *g = &ar->graphs[k];
    fputs(k ? ",\n{\"name\":" : "\n{\"name\":", f);
    json_str(f, g->name.p, g->name.len);
    fprintf(f, ",\"owner\":%u,\"first\":%u,\"count\":%u,\"inputs\":", g->owner, g->first_node, g->n_nodes);
    ids(f, g->in, g->n_in);
    fputs(",\"outputs\":", f);
    ids(f, g->out, g->n_out);
    fputc('}', f);
  }
  fputc(']', f);
}

int holo_cli_dump(const char *path) {
  uint8_t *bytes;
  size_t len;
  holo_error err = {0};
  holo_archive ar;
  int rc = cli_read_file(path, CLI_ARCHIVE, &bytes, &len);
  if (rc) return rc;
  if (holo_archive_parse(bytes, len, holo_std_allocator(), &ar, &err)) {
    free(bytes);
    return holo_cli_fail(path, &err, 2);
  }
  FILE *f = stdout;
  fputs("{\"meta\":[", f);
  for (uint32_t i = 0; i < ar.n_meta; i++) {
    fputs(i ? ",[" : "[", f);
    json_str(f, ar.meta[2 * i].p, ar.meta[2 * i].len);
    fputc(',', f);
    json_str(f, ar.meta[2 * i + 1].p, ar.meta[2 * i + 1].len);
    fputc(']', f);
  }
  fputs("],\n\"symbols\":[", f);
  for (uint32_t i = 0; i < ar.n_syms; i++) {
    if (i) fputc(',', f);
    json_str(f, ar.syms[i].p, ar.syms[i].len);
  }
  fputs("],\n\"values\":[", f);
  static const char *kinds[] = {"input", "const", "node", "graph-input"};
  for (uint32_t i = 0; i < ar.n_values; i++) {
    const holo_ar_value *v = &ar.values[i];
    fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
    json_str(f, v->name.p, v->name.len);
    fprintf(f, ",\"dtype\":%u,\"kind\":\"%s\",\"shape\":", v->dtype, kinds[v->kind]);
    shape(f, &ar, v);
    if (v->kind == HOLO_VK_CONST) {
      const holo_ar_const *c = &ar.consts[v->aux];
      fputs(",\"data\":\"", f);
      hex(f, c->data, c->len);
      fputs("\",\"digest\":\"", f);
      hex(f, c->digest.b, 32);
      fputc('"', f);
    }
    fputc('}', f);
  }
  fputs("],\n\"nodes\":[", f);
  for (uint32_t i = 0; i < ar.n_nodes; i++) {
    const holo_ar_node *n = &ar.nodes[i];
    fputs(i ? ",\n{\"op\":" : "\n{\"op\":", f);
    json_str(f, n->op.p, n->op.len);
    fputs(",\"name\":", f);
    json_str(f, n->name.p, n->name.len);
    fputs(",\"inputs\":", f);
    ids(f, n->in, n->n_in);
    fputs(",\"outputs\":", f);
    ids(f, n->out, n->n_out);
    fputs(",\"attrs\":[", f);
    for (uint32_t a = 0; a < n->n_attrs; a++) {
      if (a) fputc(',', f);
      attr(f, &n->attrs[a]);
    }
    fputs("]}", f);
  }
  fputs("],\n\"inputs\":", f);
  ids(f, ar.in_ports, ar.n_in_ports);
  fputs(",\"outputs\":", f);
  ids(f, ar.out_ports, ar.n_out_ports);
  if (ar.n_state) {
    fputs(",\"state\":[", f);
    for (uint32_t k = 0; k < ar.n_state; k++) fprintf(f, "%s[%u,%u]", k ? "," : "", ar.state[2 * k], ar.state[2 * k + 1]);
    fputc(']', f);
  }
  if (ar.n_graphs) graphs(f, &ar);
  fputs("}\n", f);
  holo_archive_release(&ar, holo_std_allocator());
  free(bytes);
  return 0;
}
