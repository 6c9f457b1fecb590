/* holo_session_load_source: a session over an archive read by range. Only
 * the bytes before DATA (header, tables, strings) are held; the archive
 * label is streamed over the whole file; constants are read later, by
 * session-weights.c, as nodes need them. */
#include "session-impl.h"

#define CHUNK ((size_t)1 << 16)

static uint64_t rd64(const uint8_t *p) {
  uint64_t v = 0;
  for (int k = 7; k >= 0; k--)
    v = v << 8 | p[k];
  return v;
}

static holo_status src_read(const holo_source *src, uint64_t off, void *dst, size_t len, holo_error *err) {
  if (off > src->size || len > src->size - off)
    return holo_err(err, HOLO_ERR_FORMAT, "archive truncated: bytes [%llu, +%zu) past its %llu bytes",
                    (unsigned long long)off, len, (unsigned long long)src->size);
  if (src->read(src->ctx, off, dst, len) != HOLO_OK)
    return holo_err(err, HOLO_ERR_IO, "the source could not read archive bytes [%llu, +%zu)",
                    (unsigned long long)off, len);
  return HOLO_OK;
}

/* The head: everything up to the end of the last section that is not DATA
 * (the writer puts DATA last, so that is all but the constants). Bounds are
 * the reader's to check; here they only size what is read. */
static holo_status read_head(holo_session *s, const holo_source *src, size_t *have, holo_error *err) {
  uint8_t hdr[32 + 24 * 64];
  size_t n = src->size < sizeof hdr ? (size_t)src->size : sizeof hdr;
  holo_status st = src_read(src, 0, hdr, n, err);
  if (st) return st;
  uint64_t nsec =
      n >= 16 ? (uint64_t)hdr[12] | (uint64_t)hdr[13] << 8 | (uint64_t)hdr[14] << 16 | (uint64_t)hdr[15] << 24
              : 0;
  uint64_t end = n;
  if (nsec >= 1 && nsec <= 64 && 32 + 24 * nsec <= n) {
    end = 32 + 24 * nsec;
    for (uint64_t i = 0; i < nsec; i++) {
      const uint8_t *e = hdr + 32 + 24 * i;
      uint64_t off = rd64(e + 8), len = rd64(e + 16);
      if (e[0] == 'D' && e[1] == 'A' && e[2] == 'T' && e[3] == 'A') continue;
      if (off <= src->size && len <= src->size - off && off + len > end) end = off + len;
    }
  }
  if (end > SIZE_MAX / 2)
    return holo_err(err, HOLO_ERR_LIMIT, "archive tables of %llu bytes", (unsigned long long)end);
  s->head = holo__s_zalloc(s, (size_t)end, 1);
  if (!s->head)
    return holo_err(err, HOLO_ERR_MEMORY, "out of memory: %llu bytes of archive tables",
                    (unsigned long long)end);
  *have = (size_t)end;
  return src_read(src, 0, s->head, (size_t)end, err);
}

/* SHA-256 over the whole file, CHUNK bytes at a time, through the arena's allocator. */
static holo_status stream_label(holo_session *s, const holo_source *src, holo_error *err) {
  uint8_t *buf = holo__s_zalloc(s, CHUNK, 1);
  if (!buf) return holo_err(err, HOLO_ERR_MEMORY, "out of memory: a %zu-byte read buffer", CHUNK);
  holo_sha256 c;
  holo__s_archive_label_begin(&c);
  holo_status st = HOLO_OK;
  for (uint64_t off = 0; off < src->size && !st; off += CHUNK) {
    size_t n = src->size - off < CHUNK ? (size_t)(src->size - off) : CHUNK;
    if (!(st = src_read(src, off, buf, n, err))) holo_sha256_update(&c, buf, n);
  }
  holo__s_free(s, buf);
  if (!st) holo__s_archive_label_end(s, &c, src->size);
  return st;
}

/* Ranges are the reader's to validate (src_read checks them against size). */
static holo_status memory_read(void *ctx, uint64_t off, void *dst, size_t len) {
  holo_memcpy(dst, (const uint8_t *)ctx + off, len);
  return HOLO_OK;
}

void holo_source_memory(holo_source *src, const uint8_t *bytes, size_t len) {
  *src = (holo_source){(void *)bytes, len, memory_read, 0};
}

holo_status holo_session_load_source(const holo_source *src, const holo_backend *backend,
                                     const holo_options *options, uint64_t weight_budget, holo_session **out,
                                     holo_error *err) {
  if (out) *out = 0;
  if (!src || !src->read || !backend || !out)
    return holo_err(err, HOLO_ERR_ARG, "load: source (with read), backend or out is NULL");
  if ((uint64_t)(size_t)src->size != src->size)
    return holo_err(err, HOLO_ERR_LIMIT, "archive of %llu bytes", (unsigned long long)src->size);
  holo_session *s;
  holo_status st = holo__s_new(backend, options, &s, err);
  if (st) return st;
  s->src = *src;
  s->w.budget = weight_budget;
  size_t have = 0;
  if (!(st = read_head(s, src, &have, err)) &&
      !(st = holo_archive_parse_head(s->head, have, (size_t)src->size, &s->a, &s->ar, err)) &&
      !(st = stream_label(s, src, err)))
    st = holo__s_load_parsed(s, options, err);
  if (st) {
    holo_session_free(s);
    return st;
  }
  *out = s;
  return HOLO_OK;
}
