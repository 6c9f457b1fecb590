#include "hologram/sha256.h"

#include "hologram/mem.h"
#include "sha256-lanes.h"

const uint32_t holo__sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
#define K holo__sha256_k

static inline uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* Big-endian 32-bit load: one (unaligned) little-endian load and a byte
 * swap (bswap on x86; two rotates and masks in wasm, which has no bswap). */
static inline uint32_t be32(const uint8_t *p) {
  uint32_t x;
  __builtin_memcpy(&x, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  return __builtin_bswap32(x);
#else
  return x;
#endif
}

/* Fully unrolled rounds over a rolling 16-word message schedule (no 64-word
 * array, no per-round register rotation: the eight working variables are
 * renamed by the macro arguments). Ch(e,f,g) = ((f ^ g) & e) ^ g and
 * Maj(a,b,c) = (a & b) | (c & (a | b)) are the FIPS 180-4 functions. */
#define S0(x) (ror(x, 2) ^ ror(x, 13) ^ ror(x, 22))
#define S1(x) (ror(x, 6) ^ ror(x, 11) ^ ror(x, 25))
#define s0(x) (ror(x, 7) ^ ror(x, 18) ^ ((x) >> 3))
#define s1(x) (ror(x, 17) ^ ror(x, 19) ^ ((x) >> 10))
#define RND(a, b, c, d, e, f, g, h, i, wi)                                \
  do {                                                                    \
    uint32_t t1_ = h + S1(e) + (((f ^ g) & e) ^ g) + K[i] + (wi);         \
    uint32_t t2_ = S0(a) + ((a & b) | (c & (a | b)));                     \
    d += t1_;                                                             \
    h = t1_ + t2_;                                                        \
  } while (0)
/* W[i] for i >= 16, in place in the rolling window w[i & 15]. */
#define WX(i) (w[(i) & 15] += s1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + s0(w[((i) - 15) & 15]))
#define R8(i, wf)                                \
  RND(a, b, c, d, e, f, g, h, (i) + 0, wf((i) + 0)); \
  RND(h, a, b, c, d, e, f, g, (i) + 1, wf((i) + 1)); \
  RND(g, h, a, b, c, d, e, f, (i) + 2, wf((i) + 2)); \
  RND(f, g, h, a, b, c, d, e, (i) + 3, wf((i) + 3)); \
  RND(e, f, g, h, a, b, c, d, (i) + 4, wf((i) + 4)); \
  RND(d, e, f, g, h, a, b, c, (i) + 5, wf((i) + 5)); \
  RND(c, d, e, f, g, h, a, b, (i) + 6, wf((i) + 6)); \
  RND(b, c, d, e, f, g, h, a, (i) + 7, wf((i) + 7))
#define W0(i) (w[i] = be32(p + 4 * (i)))

static void block(uint32_t hs[8], const uint8_t *p) {
  uint32_t w[16];
  uint32_t a = hs[0], b = hs[1], c = hs[2], d = hs[3], e = hs[4], f = hs[5], g = hs[6], h = hs[7];
  R8(0, W0);
  R8(8, W0);
  R8(16, WX);
  R8(24, WX);
  R8(32, WX);
  R8(40, WX);
  R8(48, WX);
  R8(56, WX);
  hs[0] += a; hs[1] += b; hs[2] += c; hs[3] += d;
  hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
}

void holo__sha256_blocks(uint32_t h[8], const uint8_t *p, size_t n) {
  for (; n; n--, p += 64) block(h, p);
}

void holo_sha256_init(holo_sha256 *c) {
  static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  for (int i = 0; i < 8; i++) c->h[i] = iv[i];
  c->total = 0;
  c->used = 0;
}

void holo_sha256_update(holo_sha256 *c, const void *data, size_t len) {
  if (len == 0) return; /* data may be NULL for an empty tensor */
  const uint8_t *p = data;
  c->total += len;
  if (c->used) {
    size_t take = 64 - c->used;
    if (take > len) take = len;
    holo_memcpy(c->buf + c->used, p, take);
    c->used += (uint32_t)take;
    p += take;
    len -= take;
    if (c->used < 64) return;
    block(c->h, c->buf);
    c->used = 0;
  }
  for (; len >= 64; p += 64, len -= 64) block(c->h, p);
  if (len) {
    holo_memcpy(c->buf, p, len);
    c->used = (uint32_t)len;
  }
}

void holo_sha256_final(holo_sha256 *c, uint8_t out[32]) {
  uint64_t bits = c->total * 8;
  uint8_t pad[72];
  size_t n = (c->used < 56) ? 56 - c->used : 120 - c->used;
  pad[0] = 0x80;
  for (size_t i = 1; i < n; i++) pad[i] = 0;
  for (int i = 0; i < 8; i++) pad[n + i] = (uint8_t)(bits >> (56 - 8 * i));
  uint64_t total = c->total;
  holo_sha256_update(c, pad, n + 8);
  c->total = total;
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(c->h[i] >> 24);
    out[4 * i + 1] = (uint8_t)(c->h[i] >> 16);
    out[4 * i + 2] = (uint8_t)(c->h[i] >> 8);
    out[4 * i + 3] = (uint8_t)c->h[i];
  }
}

void holo_sha256_digest(const void *data, size_t len, uint8_t out[32]) {
  holo_sha256 c;
  holo_sha256_init(&c);
  holo_sha256_update(&c, data, len);
  holo_sha256_final(&c, out);
}
