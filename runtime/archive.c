#include "archive.h"

#include "archive-graphs.h"

#include "hologram/fmt.h"
#include "hologram/mem.h"

#define MAX_SECTIONS 64u
#define MAX_VALUES (1u << 24)
#define MAX_NODES (1u << 24)
#define MAX_PORTS 4096u
#define MAX_NODE_IO 64u
#define MAX_GRAPHS (1u << 16)

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

typedef struct sect {
  const uint8_t *p;
  uint64_t len;
  bool present;
  uint64_t off; /* from the start of the file */
} sect;

enum { S_STRS, S_SYMS, S_VALS, S_CONS, S_DATA, S_ATTR, S_NODE, S_IOIX, S_PORT, S_META, S_STAT, S_GRPH, S_COUNT };
static const char SECT_IDS[S_COUNT][5] = {"STRS", "SYMS", "VALS", "CONS", "DATA", "ATTR",
                                          "NODE", "IOIX", "PORT", "META", "STAT", "GRPH"};

typedef struct reader {
  const uint8_t *base;
  size_t len;  /* the archive's length (file_size) */
  size_t have; /* bytes of it at base: len, or a sourced load's head (all before DATA) */
  const holo_allocator *a;
  holo_error *err;
  sect s[S_COUNT];
} reader;

#define FAIL(...) return holo_err(r->err, HOLO_ERR_FORMAT, __VA_ARGS__)

static void *zalloc(const holo_allocator *a, size_t n, size_t size) {
  if (n == 0) n = 1;
  if (n > SIZE_MAX / size) return 0;
  void *p = a->alloc(a->ctx, n * size, 16);
  if (p) holo_memset(p, 0, n * size);
  return p;
}

/* A string reference must lie inside STRS. */
static holo_status str_at(reader *r, const uint8_t *p, holo_ar_str *out, const char *what,
                          uint32_t idx) {
  uint32_t off = rd32(p), len = rd32(p + 4);
  if ((uint64_t)off + len > r->s[S_STRS].len)
    FAIL("string out of range in %s %u: offset %u + length %u > STRS length %llu", what, idx, off,
         len, (unsigned long long)r->s[S_STRS].len);
  out->p = (const char *)r->s[S_STRS].p + off;
  out->len = len;
  return HOLO_OK;
}

/* A counted table: u32 count then count fixed-size records, exactly. */
static holo_status table(reader *r, int id, uint32_t recsize, uint32_t max, uint32_t *count,
                         const uint8_t **recs) {
  sect *s = &r->s[id];
  *count = 0;
  *recs = 0;
  if (!s->present) return HOLO_OK;
  if (s->len < 4) FAIL("section %s too short for its count (%llu bytes)", SECT_IDS[id], (unsigned long long)s->len);
  uint32_t n = rd32(s->p);
  if (n > max) FAIL("section %s count %u exceeds the limit %u", SECT_IDS[id], n, max);
  if ((uint64_t)4 + (uint64_t)n * recsize != s->len)
    FAIL("section %s count %u does not match its length %llu (records of %u bytes)", SECT_IDS[id],
         n, (unsigned long long)s->len, recsize);
  *count = n;
  *recs = s->p + 4;
  return HOLO_OK;
}

static holo_status header(reader *r) {
  static const uint8_t magic[8] = {0x89, 'H', 'O', 'L', 'O', 0x0D, 0x0A, 0x1A};
  if (r->len < 32 || r->have < 32) FAIL("archive truncated: %zu bytes, the header alone is 32", r->len);
  for (int i = 0; i < 8; i++)
    if (r->base[i] != magic[i]) FAIL("bad magic: not a .holo archive");
  uint32_t major = (uint32_t)r->base[8] | (uint32_t)r->base[9] << 8;
  if (major != 1) FAIL("unsupported format version %u (this reader reads version 1)", major);
  uint32_t nsec = rd32(r->base + 12);
  uint64_t fsize = rd64(r->base + 16);
  if (fsize != r->len)
    FAIL("file_size field says %llu bytes but the archive has %zu (truncated or padded)",
         (unsigned long long)fsize, r->len);
  if (rd64(r->base + 24) != 0) FAIL("reserved header field is not zero");
  if (nsec == 0 || nsec > MAX_SECTIONS) FAIL("section_count %u outside 1..%u", nsec, MAX_SECTIONS);
  uint64_t table_end = 32 + (uint64_t)nsec * 24;
  if (table_end > r->len) FAIL("section table (%u entries) runs past the end of the archive", nsec);
  if (table_end > r->have) FAIL("section table (%u entries) runs past the %zu bytes read", nsec, r->have);

  uint64_t offs[MAX_SECTIONS], lens[MAX_SECTIONS];
  for (uint32_t i = 0; i < nsec; i++) {
    const uint8_t *e = r->base + 32 + 24 * (size_t)i;
    uint32_t flags = rd32(e + 4);
    uint64_t off = rd64(e + 8), len = rd64(e + 16);
    char id[5] = {(char)e[0], (char)e[1], (char)e[2], (char)e[3], 0};
    for (int k = 0; k < 4; k++)
      if (id[k] < 0x20 || id[k] > 0x7e) id[k] = '?';
    if (flags & ~1u) FAIL("section %s: flags 0x%x has unknown bits", id, flags);
    if (off < table_end || off > r->len || len > r->len - off)
      FAIL("section %s out of bounds: offset %llu length %llu, archive %zu bytes", id,
           (unsigned long long)off, (unsigned long long)len, r->len);
    if (off % 8) FAIL("section %s misaligned: offset %llu is not a multiple of 8", id, (unsigned long long)off);
    for (uint32_t j = 0; j < i; j++)
      if (off < offs[j] + lens[j] && offs[j] < off + len)
        FAIL("section %s overlaps section %u", id, j);
    offs[i] = off;
    lens[i] = len;
    int known = -1;
    for (int k = 0; k < S_COUNT; k++)
      if (holo_memcmp(e, SECT_IDS[k], 4) == 0) known = k;
    if (known < 0) {
      if (flags & 1u) FAIL("unknown required section %s", id);
      continue; /* optional sections of later minors are skipped */
    }
    if (r->s[known].present) FAIL("duplicate section %s", id);
    if (known == S_DATA && off % 64) FAIL("DATA section misaligned: offset %llu is not a multiple of 64", (unsigned long long)off);
    /* A sourced load reads the head only: DATA's bytes are fetched by range. */
    bool here = off + len <= r->have;
    if (!here && known != S_DATA)
      FAIL("section %s lies past the %zu bytes read before DATA", id, r->have);
    r->s[known] = (sect){here ? r->base + off : 0, len, true, off};
  }
  static const int needed[] = {S_STRS, S_VALS, S_NODE, S_IOIX, S_PORT};
  for (unsigned i = 0; i < sizeof needed / sizeof needed[0]; i++)
    if (!r->s[needed[i]].present) FAIL("missing required section %s", SECT_IDS[needed[i]]);
  return HOLO_OK;
}

static holo_status dims_check(reader *r, holo_ar_value *v, uint32_t i, uint32_t nsyms) {
  if (v->rank == HOLO_RANK_UNKNOWN) {
    if (v->kind != HOLO_VK_NODE && v->kind != HOLO_VK_GRAPH_INPUT)
      FAIL("value %u (%.*s): unknown rank is only allowed for node outputs and graph inputs", i, (int)v->name.len, v->name.p);
    /* No dim is used, so all eight slots are unused and zero (as the JS reader checks). */
    for (uint32_t d = 0; d < HOLO_MAX_RANK; d++)
      if (v->dims[d] != 0) FAIL("value %u: unused dims slot %u is not zero (rank unknown)", i, d);
    return HOLO_OK;
  }
  if (v->rank > HOLO_MAX_RANK) FAIL("value %u (%.*s): rank %u exceeds %u", i, (int)v->name.len, v->name.p, v->rank, HOLO_MAX_RANK);
  for (uint32_t d = 0; d < HOLO_MAX_RANK; d++) {
    if (d >= v->rank) {
      if (v->dims[d] != 0) FAIL("value %u: unused dims slot %u is not zero", i, d);
      continue;
    }
    if (v->dims[d] < 0) {
      uint64_t sym = (uint64_t)(-(v->dims[d] + 1));
      if (v->kind == HOLO_VK_CONST) FAIL("value %u (%.*s): constant dims must be concrete, dim is symbolic", i, (int)v->name.len, v->name.p);
      if (sym >= nsyms) FAIL("value %u: symbol index %llu out of range (%u symbols)", i, (unsigned long long)sym, nsyms);
    }
  }
  return HOLO_OK;
}

static holo_status values(reader *r, holo_archive *ar) {
  const uint8_t *rec;
  holo_status st = table(r, S_SYMS, 8, MAX_VALUES, &ar->n_syms, &rec);
  if (st) return st;
  ar->syms = zalloc(r->a, ar->n_syms, sizeof *ar->syms);
  if (!ar->syms) return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory reading symbols");
  for (uint32_t i = 0; i < ar->n_syms; i++)
    if ((st = str_at(r, rec + 8 * (size_t)i, &ar->syms[i], "symbol", i))) return st;

  if ((st = table(r, S_META, 16, MAX_VALUES, &ar->n_meta, &rec))) return st;
  ar->meta = zalloc(r->a, 2 * (size_t)ar->n_meta, sizeof *ar->meta);
  if (!ar->meta) return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory reading metadata");
  for (uint32_t i = 0; i < 2 * ar->n_meta; i++)
    if ((st = str_at(r, rec + 8 * (size_t)i, &ar->meta[i], "metadata entry", i / 2))) return st;

  if ((st = table(r, S_VALS, 80, MAX_VALUES, &ar->n_values, &rec))) return st;
  ar->values = zalloc(r->a, ar->n_values, sizeof *ar->values);
  if (!ar->values) return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory: %u values", ar->n_values);
  for (uint32_t i = 0; i < ar->n_values; i++) {
    const uint8_t *p = rec + 80 * (size_t)i;
    holo_ar_value *v = &ar->values[i];
    if ((st = str_at(r, p, &v->name, "value", i))) return st;
    v->dtype = p[8];
    v->rank = p[9];
    v->kind = p[10];
    v->aux = rd32(p + 12);
    for (int d = 0; d < HOLO_MAX_RANK; d++) v->dims[d] = (int64_t)rd64(p + 16 + 8 * d);
    if (p[11]) FAIL("value %u: reserved byte is not zero", i);
    if (v->kind > HOLO_VK_GRAPH_INPUT) FAIL("value %u (%.*s): unknown kind %u", i, (int)v->name.len, v->name.p, v->kind);
    if (holo_dtype_size(v->dtype) == 0) FAIL("value %u (%.*s): unknown dtype %u", i, (int)v->name.len, v->name.p, v->dtype);
    if (holo_dtype_is_list(v->dtype) && v->rank != 1 && v->rank != HOLO_RANK_UNKNOWN)
      FAIL("value %u (%.*s): a sequence or optional (dtype %u) has rank 1, not %u", i, (int)v->name.len, v->name.p,
           v->dtype, v->rank);
    if ((st = dims_check(r, v, i, ar->n_syms))) return st;
    if (v->kind == HOLO_VK_INPUT && v->aux != 0) FAIL("value %u: aux of an input must be zero", i);
  }
  return HOLO_OK;
}

static holo_status constants(reader *r, holo_archive *ar) {
  const uint8_t *rec;
  holo_status st = table(r, S_CONS, 48, MAX_VALUES, &ar->n_consts, &rec);
  if (st) return st;
  if (ar->n_consts && !r->s[S_DATA].present) FAIL("missing required section DATA (%u constants)", ar->n_consts);
  ar->consts = zalloc(r->a, ar->n_consts, sizeof *ar->consts);
  uint8_t *used = zalloc(r->a, ar->n_consts, 1);
  if (!ar->consts || !used) {
    if (used) r->a->free(r->a->ctx, used);
    return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory: %u constants", ar->n_consts);
  }
  for (uint32_t i = 0; i < ar->n_consts; i++) {
    const uint8_t *p = rec + 48 * (size_t)i;
    uint64_t off = rd64(p), len = rd64(p + 8);
    if (off % 64) { r->a->free(r->a->ctx, used); FAIL("constant offset %llu of constant %u is not aligned to 64", (unsigned long long)off, i); }
    if (off > r->s[S_DATA].len || len > r->s[S_DATA].len - off) {
      r->a->free(r->a->ctx, used);
      FAIL("constant %u: bytes [%llu, +%llu) out of DATA bounds (%llu)", i, (unsigned long long)off,
           (unsigned long long)len, (unsigned long long)r->s[S_DATA].len);
    }
    ar->consts[i].data = r->s[S_DATA].p ? r->s[S_DATA].p + off : 0;
    ar->consts[i].off = r->s[S_DATA].off + off;
    ar->consts[i].len = (size_t)len;
    holo_memcpy(ar->consts[i].digest.b, p + 16, 32);
  }
  /* Each constant record belongs to exactly one value of matching size. */
  for (uint32_t i = 0; i < ar->n_values; i++) {
    holo_ar_value *v = &ar->values[i];
    if (v->kind != HOLO_VK_CONST) continue;
    size_t need;
    const char *msg = 0;
    if (v->aux >= ar->n_consts) msg = "constant index out of range";
    else if (used[v->aux]) msg = "constant record referred to twice";
    else if (!holo_shape_bytes(v->dtype, v->dims, v->rank, &need)) msg = "constant size overflows";
    else if (need != ar->consts[v->aux].len) msg = "constant length does not match numel x dtype size";
    if (msg) {
      r->a->free(r->a->ctx, used);
      FAIL("value %u (%.*s): %s", i, (int)v->name.len, v->name.p, msg);
    }
    used[v->aux] = 1;
  }
  for (uint32_t i = 0; i < ar->n_consts; i++)
    if (!used[i]) {
      r->a->free(r->a->ctx, used);
      FAIL("constant record %u is not referred to by any value", i);
    }
  r->a->free(r->a->ctx, used);
  return HOLO_OK;
}

static holo_status attributes(reader *r, holo_archive *ar) {
  const uint8_t *rec;
  holo_status st = table(r, S_ATTR, 24, MAX_VALUES, &ar->n_attrs, &rec);
  if (st) return st;
  ar->attrs = zalloc(r->a, ar->n_attrs, sizeof *ar->attrs);
  if (!ar->attrs) return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory: %u attributes", ar->n_attrs);
  for (uint32_t i = 0; i < ar->n_attrs; i++) {
    const uint8_t *p = rec + 24 * (size_t)i;
    holo_ar_str name;
    if ((st = str_at(r, p, &name, "attribute", i))) return st;
    uint32_t type = rd32(p + 8), count = rd32(p + 12), off = rd32(p + 16), len = rd32(p + 20);
    uint64_t expect;
    switch (type) {
    case HOLO_ATTR_INT: expect = 8; if (count != 1) FAIL("attribute %u (%.*s): INT count %u != 1", i, (int)name.len, name.p, count); break;
    case HOLO_ATTR_FLOAT: expect = 4; if (count != 1) FAIL("attribute %u (%.*s): FLOAT count %u != 1", i, (int)name.len, name.p, count); break;
    case HOLO_ATTR_INTS: expect = 8ull * count; break;
    case HOLO_ATTR_FLOATS: expect = 4ull * count; break;
    case HOLO_ATTR_STRING: expect = count; break;
    default: FAIL("attribute %u (%.*s): unknown attribute type %u", i, (int)name.len, name.p, type);
    }
    if (len != expect) FAIL("attribute %u (%.*s): payload length %u, expected %llu", i, (int)name.len, name.p, len, (unsigned long long)expect);
    if ((uint64_t)off + len > r->s[S_STRS].len) FAIL("attribute %u (%.*s): payload string out of range", i, (int)name.len, name.p);
    ar->attrs[i] = (holo_attr){name.p, name.len, type, count, r->s[S_STRS].p + off};
  }
  return HOLO_OK;
}

static holo_status graph(reader *r, holo_archive *ar) {
  const uint8_t *rec, *iorec;
  holo_status st = table(r, S_IOIX, 4, 0xFFFFFFFFu / 4, &ar->n_io, &iorec);
  if (st) return st;
  ar->io = zalloc(r->a, ar->n_io, sizeof *ar->io);
  if (!ar->io) return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory: %u io entries", ar->n_io);
  for (uint32_t i = 0; i < ar->n_io; i++) ar->io[i] = rd32(iorec + 4 * (size_t)i);

  if ((st = table(r, S_NODE, 32, MAX_NODES, &ar->n_nodes, &rec))) return st;
  ar->nodes = zalloc(r->a, ar->n_nodes, sizeof *ar->nodes);
  /* producer[v] = node index + 1 for node outputs, to check rules 3 and 4. */
  uint32_t *producer = zalloc(r->a, ar->n_values, sizeof *producer);
  if (!ar->nodes || !producer) {
    if (producer) r->a->free(r->a->ctx, producer);
    return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory: %u nodes", ar->n_nodes);
  }
#define GFAIL(...) do { holo_err(r->err, HOLO_ERR_FORMAT, __VA_ARGS__); r->a->free(r->a->ctx, producer); return HOLO_ERR_FORMAT; } while (0)
  for (uint32_t i = 0; i < ar->n_nodes; i++) {
    const uint8_t *p = rec + 32 * (size_t)i;
    holo_ar_node *n = &ar->nodes[i];
    if ((st = str_at(r, p, &n->op, "node op", i)) || (st = str_at(r, p + 8, &n->name, "node name", i))) {
      r->a->free(r->a->ctx, producer);
      return st;
    }
    uint32_t first = rd32(p + 16), nin = (uint32_t)p[20] | (uint32_t)p[21] << 8,
             nout = (uint32_t)p[22] | (uint32_t)p[23] << 8, fa = rd32(p + 24), na = rd32(p + 28);
    if (nin > MAX_NODE_IO) GFAIL("node %u (%.*s): n_in %u exceeds 64", i, (int)n->name.len, n->name.p, nin);
    if (nout == 0 || nout > MAX_NODE_IO) GFAIL("node %u (%.*s): n_out %u outside 1..64", i, (int)n->name.len, n->name.p, nout);
    if ((uint64_t)first + nin + nout > ar->n_io) GFAIL("node %u (%.*s): io range out of IOIX bounds", i, (int)n->name.len, n->name.p);
    if ((uint64_t)fa + na > ar->n_attrs) GFAIL("node %u (%.*s): attribute range out of ATTR bounds", i, (int)n->name.len, n->name.p);
    n->in = ar->io + first;
    n->out = ar->io + first + nin;
    n->n_in = nin;
    n->n_out = nout;
    n->attrs = ar->attrs + fa;
    n->n_attrs = na;
    for (uint32_t k = 0; k < nin; k++) {
      uint32_t v = n->in[k];
      if (v == HOLO_ABSENT) continue;
      if (v >= ar->n_values) GFAIL("node %u (%.*s): input value id %u out of range (%u values)", i, (int)n->name.len, n->name.p, v, ar->n_values);
      if (ar->values[v].kind == HOLO_VK_NODE && producer[v] == 0)
        GFAIL("node %u (%.*s): input %u (value %u) is not produced by an earlier node: graph is not in topological order", i, (int)n->name.len, n->name.p, k, v);
    }
    for (uint32_t k = 0; k < nout; k++) {
      uint32_t v = n->out[k];
      if (v >= ar->n_values) GFAIL("node %u (%.*s): output value id %u out of range", i, (int)n->name.len, n->name.p, v);
      if (ar->values[v].kind != HOLO_VK_NODE) GFAIL("node %u (%.*s): output value %u is not of kind node output", i, (int)n->name.len, n->name.p, v);
      if (producer[v]) GFAIL("value %u is produced twice (nodes %u and %u)", v, producer[v] - 1, i);
      if (ar->values[v].aux != i) GFAIL("value %u: aux %u does not name its producing node %u", v, ar->values[v].aux, i);
      producer[v] = i + 1;
    }
  }
  for (uint32_t v = 0; v < ar->n_values; v++)
    if (ar->values[v].kind == HOLO_VK_NODE && !producer[v])
      GFAIL("value %u (%.*s) is a node output that no node produces (dangling)", v, (int)ar->values[v].name.len, ar->values[v].name.p);
  r->a->free(r->a->ctx, producer);
#undef GFAIL
  return HOLO_OK;
}

static holo_status ports(reader *r, holo_archive *ar) {
  sect *s = &r->s[S_PORT];
  if (s->len < 8) FAIL("section PORT too short (%llu bytes)", (unsigned long long)s->len);
  uint32_t nin = rd32(s->p);
  if (nin > MAX_PORTS) FAIL("PORT count %u exceeds the limit %u", nin, MAX_PORTS);
  if (s->len < 8 + 4ull * nin) FAIL("section PORT count %u does not match its length %llu", nin, (unsigned long long)s->len);
  uint32_t nout = rd32(s->p + 4 + 4 * (size_t)nin);
  if (nout > MAX_PORTS) FAIL("PORT count %u exceeds the limit %u", nout, MAX_PORTS);
  if (s->len != 8 + 4ull * (nin + nout)) FAIL("section PORT count %u+%u does not match its length %llu", nin, nout, (unsigned long long)s->len);
  ar->n_in_ports = nin;
  ar->n_out_ports = nout;
  ar->in_ports = zalloc(r->a, nin, 4);
  ar->out_ports = zalloc(r->a, nout, 4);
  uint8_t *seen = zalloc(r->a, ar->n_values, 1);
  if (!ar->in_ports || !ar->out_ports || !seen) {
    if (seen) r->a->free(r->a->ctx, seen);
    return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory reading ports");
  }
#define PFAIL(...) do { holo_err(r->err, HOLO_ERR_FORMAT, __VA_ARGS__); r->a->free(r->a->ctx, seen); return HOLO_ERR_FORMAT; } while (0)
  for (uint32_t i = 0; i < nin; i++) {
    uint32_t v = rd32(s->p + 4 + 4 * (size_t)i);
    if (v >= ar->n_values) PFAIL("input port %u: value id %u out of range", i, v);
    if (ar->values[v].kind != HOLO_VK_INPUT) PFAIL("input port %u: value %u is not of kind input", i, v);
    if (ar->values[v].rank == HOLO_RANK_UNKNOWN) PFAIL("input port %u: unknown rank", i);
    if (seen[v]) PFAIL("input port %u: value %u listed twice", i, v);
    seen[v] = 1;
    ar->in_ports[i] = v;
  }
  for (uint32_t v = 0; v < ar->n_values; v++)
    if (ar->values[v].kind == HOLO_VK_INPUT && !seen[v]) PFAIL("value %u (%.*s) is of kind input but is not an input port", v, (int)ar->values[v].name.len, ar->values[v].name.p);
  holo_memset(seen, 0, ar->n_values);
  for (uint32_t i = 0; i < nout; i++) {
    uint32_t v = rd32(s->p + 8 + 4 * (size_t)(nin + i));
    if (v >= ar->n_values) PFAIL("output port %u: value id %u out of range", i, v);
    if (seen[v]) PFAIL("output port %u: value %u listed twice", i, v);
    seen[v] = 1;
    ar->out_ports[i] = v;
  }
  r->a->free(r->a->ctx, seen);
#undef PFAIL
  return HOLO_OK;
}

static holo_status state_contract(reader *r, holo_archive *ar) {
  const uint8_t *rec;
  holo_status st = table(r, S_STAT, 8, 64, &ar->n_state, &rec);
  if (st) return st;
  ar->state = zalloc(r->a, 2 * (size_t)ar->n_state, 4);
  if (!ar->state) return holo_err(r->err, HOLO_ERR_MEMORY, "out of memory reading the state contract");
  for (uint32_t k = 0; k < ar->n_state; k++) {
    uint32_t in = rd32(rec + 8 * (size_t)k), out = rd32(rec + 8 * (size_t)k + 4);
    if (in >= ar->n_in_ports || out >= ar->n_out_ports)
      FAIL("state contract %u: port (%u, %u) out of range (%u inputs, %u outputs)", k, in, out, ar->n_in_ports, ar->n_out_ports);
    for (uint32_t j = 0; j < k; j++)
      if (ar->state[2 * j] == in || ar->state[2 * j + 1] == out) FAIL("state contract %u: a port is listed twice", k);
    ar->state[2 * k] = in;
    ar->state[2 * k + 1] = out;
  }
  return HOLO_OK;
}

static holo_status nested_graphs(reader *r, holo_archive *ar) {
  const uint8_t *rec;
  uint32_t n;
  holo_status st = table(r, S_GRPH, 32, MAX_GRAPHS, &n, &rec);
  if (st) return st;
  return holo__archive_graphs(ar, rec, n, r->s[S_STRS].p, r->s[S_STRS].len, r->a, r->err);
}

void holo_archive_release(holo_archive *ar, const holo_allocator *a) {
  void *ptrs[] = {ar->values, ar->consts, ar->nodes,  ar->attrs,  ar->io,        ar->in_ports,
                  ar->out_ports, ar->syms, ar->meta, ar->state, ar->graphs, ar->node_graph};
  for (unsigned i = 0; i < sizeof ptrs / sizeof ptrs[0]; i++)
    if (ptrs[i]) a->free(a->ctx, ptrs[i]);
  holo_memset(ar, 0, sizeof *ar);
}

holo_status holo_archive_parse(const uint8_t *bytes, size_t len, const holo_allocator *a,
                               holo_archive *ar, holo_error *err) {
  return holo_archive_parse_head(bytes, len, len, a, ar, err);
}

holo_status holo_archive_parse_head(const uint8_t *bytes, size_t have, size_t len, const holo_allocator *a,
                                    holo_archive *ar, holo_error *err) {
  holo_memset(ar, 0, sizeof *ar);
  if (!bytes || !a) return holo_err(err, HOLO_ERR_ARG, "archive bytes or allocator is NULL");
  if (have > len) return holo_err(err, HOLO_ERR_ARG, "archive head (%zu bytes) longer than the archive", have);
  reader rd = {bytes, len, have, a, err, {{0, 0, false, 0}}};
  reader *r = &rd;
  ar->base = bytes;
  ar->len = len;
  holo_status st;
  if ((st = header(r)) || (st = values(r, ar)) || (st = constants(r, ar)) ||
      (st = attributes(r, ar)) || (st = graph(r, ar)) || (st = ports(r, ar)) || (st = state_contract(r, ar)) ||
      (st = nested_graphs(r, ar))) {
    holo_archive_release(ar, a);
    return st;
  }
  return HOLO_OK;
}
