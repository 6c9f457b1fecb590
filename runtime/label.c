#include "label.h"

static const char HEX[] = "0123456789abcdef";

void holo_label_render(const holo_digest *d, char out[HOLO_LABEL_LEN + 1]) {
  const char *pre = "sha256:";
  for (int i = 0; i < 7; i++) out[i] = pre[i];
  for (int i = 0; i < 32; i++) {
    out[7 + 2 * i] = HEX[d->b[i] >> 4];
    out[8 + 2 * i] = HEX[d->b[i] & 15];
  }
  out[HOLO_LABEL_LEN] = 0;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool holo_label_parse(const char *s, size_t len, holo_digest *d) {
  const char *pre = "sha256:";
  if (!s || len != HOLO_LABEL_LEN) return false;
  for (int i = 0; i < 7; i++)
    if (s[i] != pre[i]) return false;
  for (int i = 0; i < 32; i++) {
    int hi = hexval(s[7 + 2 * i]), lo = hexval(s[8 + 2 * i]);
    if (hi < 0 || lo < 0) return false;
    d->b[i] = (uint8_t)(hi << 4 | lo);
  }
  return true;
}

void holo_label_hash_into(holo_sha256 *c, const holo_digest *d) {
  char txt[HOLO_LABEL_LEN + 1];
  holo_label_render(d, txt);
  holo_sha256_update(c, txt, HOLO_LABEL_LEN);
}

void holo_put_u32le(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void holo_put_i64le(uint8_t *p, int64_t v) {
  uint64_t u = (uint64_t)v;
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(u >> (8 * i));
}

size_t holo_content_header(uint32_t dtype, const int64_t *shape, uint32_t rank, uint8_t out[HOLO_CONTENT_HEADER_MAX]) {
  static const char tag[] = "holo/content/v1"; /* sizeof includes the NUL */
  for (size_t i = 0; i < sizeof tag; i++) out[i] = (uint8_t)tag[i];
  uint8_t *hdr = out + sizeof tag;
  if (rank > HOLO_MAX_RANK) rank = HOLO_MAX_RANK; /* callers validate; never overrun */
  holo_put_u32le(hdr, dtype);
  holo_put_u32le(hdr + 4, rank);
  for (uint32_t i = 0; i < rank; i++) holo_put_i64le(hdr + 8 + 8 * i, shape[i]);
  return sizeof tag + 8 + 8 * (size_t)rank;
}

void holo_content_digest(uint32_t dtype, const int64_t *shape, uint32_t rank, const void *bytes,
                         size_t len, holo_digest *out) {
  if (len > HOLO_CONTENT_CHUNK) {
    holo__content_tree_digest(dtype, shape, rank, bytes, len, out);
    return;
  }
  uint8_t hdr[HOLO_CONTENT_HEADER_MAX];
  holo_sha256 c;
  holo_sha256_init(&c);
  holo_sha256_update(&c, hdr, holo_content_header(dtype, shape, rank, hdr));
  holo_sha256_update(&c, bytes, len);
  holo_sha256_final(&c, out->b);
}
