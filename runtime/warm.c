#include "warm.h"

#include "hologram/error.h"
#include "hologram/mem.h"

static const uint8_t MAGIC[8] = {'H', 'O', 'L', 'O', 'W', 'S', '2', 0};

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Parses a record; false when it is not a well-formed record whose bytes
 * match its content digest. */
static bool parse(const uint8_t *p, size_t len, const char *label, bool trust, uint32_t *dtype, uint32_t *rank,
                  int64_t *shape, const uint8_t **data, size_t *n, holo_counters *c) {
  /* The record names its own label: a record filed under another label
   * (a mis-keyed or swapped file) is refused even when trusted. */
  if (len < 16 + HOLO_LABEL_LEN || holo_memcmp(p, MAGIC, 8) != 0) return false;
  if (holo_memcmp(p + 8, label, HOLO_LABEL_LEN) != 0) return false;
  p += HOLO_LABEL_LEN;
  len -= HOLO_LABEL_LEN;
  *dtype = rd32(p + 8);
  *rank = rd32(p + 12);
  if (*rank > HOLO_MAX_RANK) return false;
  size_t hdr = 16 + 8 * (size_t)*rank + 32;
  if (len < hdr) return false;
  for (uint32_t d = 0; d < *rank; d++) {
    uint64_t u = (uint64_t)rd32(p + 16 + 8 * d) | (uint64_t)rd32(p + 20 + 8 * d) << 32;
    shape[d] = (int64_t)u;
  }
  if (!holo_shape_bytes(*dtype, shape, *rank, n) || *n != len - hdr) return false;
  *data = p + hdr;
  if (trust) return true;
  holo_digest want, got;
  holo_memcpy(want.b, p + hdr - 32, 32);
  holo_content_digest(*dtype, shape, *rank, *data, *n, &got);
  c->bytes_hashed += *n;
  return holo_digest_eq(&want, &got);
}

holo_status holo_warm_fetch(holo_warm_store *ws, holo_arena *ar, const holo_digest *labels, uint32_t n,
                            bool trust, holo_counters *c, holo_error *err) {
  return holo_warm_fetch_as(ws, ar, labels, n, trust, true, c, err);
}

holo_status holo_warm_fetch_as(holo_warm_store *ws, holo_arena *ar, const holo_digest *labels, uint32_t n,
                               bool trust, bool pinned, holo_counters *c, holo_error *err) {
  for (uint32_t k = 0; k < n; k++) {
    if (holo_arena_find(ar, &labels[k])) continue;
    char label[HOLO_LABEL_LEN + 1];
    holo_label_render(&labels[k], label);
    const uint8_t *bytes = 0;
    size_t len = 0;
    if (!ws->get || ws->get(ws->ctx, label, &bytes, &len) != HOLO_OK || !bytes) {
      c->store_misses++;
      return HOLO_OK; /* one miss means the node runs: stop looking */
    }
    uint32_t dtype, rank;
    int64_t shape[HOLO_MAX_RANK];
    const uint8_t *data;
    size_t nbytes;
    if (!parse(bytes, len, label, trust, &dtype, &rank, shape, &data, &nbytes, c)) {
      c->store_corrupt++;
      return HOLO_OK;
    }
    holo_buf *b;
    holo_entry *e;
    holo_status st = holo_arena_alloc(ar, nbytes, pinned, &b, err);
    if (st) return st;
    holo_memcpy(b->data, data, nbytes);
    st = holo_arena_insert(ar, &labels[k], b, dtype, rank, shape, pinned, &e, err);
    holo_arena_unref(ar, b);
    if (st) return st;
    c->store_hits++;
  }
  return HOLO_OK;
}

void holo_warm_put(holo_warm_store *ws, holo_arena *ar, const holo_entry *e, holo_counters *c) {
  if (!ws->put) return;
  size_t n = e->buf->bytes, hdr = 8 + HOLO_LABEL_LEN + 8 + 8 * (size_t)e->rank + 32;
  uint8_t *rec = ar->a.alloc(ar->a.ctx, hdr + n, 16);
  if (!rec) return;
  char label[HOLO_LABEL_LEN + 1];
  holo_label_render(&e->d, label);
  holo_memcpy(rec, MAGIC, 8);
  holo_memcpy(rec + 8, label, HOLO_LABEL_LEN);
  uint8_t *q = rec + 8 + HOLO_LABEL_LEN;
  holo_put_u32le(q, e->dtype);
  holo_put_u32le(q + 4, e->rank);
  for (uint32_t d = 0; d < e->rank; d++) holo_put_i64le(q + 8 + 8 * d, e->shape[d]);
  holo_digest cd;
  holo_content_digest(e->dtype, e->shape, e->rank, e->buf->data, n, &cd);
  c->bytes_hashed += n;
  holo_memcpy(rec + hdr - 32, cd.b, 32);
  holo_memcpy(rec + hdr, e->buf->data, n);
  if (ws->put(ws->ctx, label, rec, hdr + n) == HOLO_OK) c->store_puts++;
  ar->a.free(ar->a.ctx, rec);
}
