/* BLAKE3 keyed hashing of up to two chunks (blake3.h). Written here rather
 * than taken from the reference implementation: the no-libc core needs one
 * short-message path only, and this is it in under a hundred lines; the
 * official test vectors check it (tests/c/test_blake3.c). Why BLAKE3 for a
 * node's label: one compression of 7 rounds of 8 G functions costs about
 * half of SHA-256's 64 rounds, and it runs once per node per execution
 * (decision 85). */
#include "blake3.h"

#include "hologram/mem.h"
#include "label.h"

enum { CHUNK_START = 1, CHUNK_END = 2, PARENT = 4, ROOT = 8, KEYED_HASH = 16 };

static const uint32_t IV[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                               0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};

/* The message word order of each of the 7 rounds: the permutation
 * (2 6 3 10 7 0 4 13 1 11 12 5 9 14 15 8) applied r times. */
static const uint8_t SCHEDULE[7][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8},
    {3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1},
    {10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6},
    {12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4},
    {9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7},
    {11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13},
};

#ifdef __wasm_simd128__
#include <wasm_simd128.h>

/* The state's four rows as vectors, G on the four columns at once, then on
 * the diagonals after rotating rows 1-3 by 1, 2 and 3 lanes (the usual
 * row-parallel form). The same arithmetic on the same words as the scalar
 * form below: the bytes are identical (tests/c/test_blake3.c runs in both
 * builds). About 2.5x fewer instructions than the scalar rounds; this runs
 * once per computed label. */
#define ROR16(x) wasm_i8x16_shuffle(x, x, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)
#define ROR8(x) wasm_i8x16_shuffle(x, x, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12)
#define RORN(x, n) wasm_v128_or(wasm_u32x4_shr(x, n), wasm_i32x4_shl(x, 32 - (n)))
#define GV(x, y)                                   \
  do {                                             \
    r0 = wasm_i32x4_add(wasm_i32x4_add(r0, r1), x); \
    r3 = ROR16(wasm_v128_xor(r3, r0));             \
    r2 = wasm_i32x4_add(r2, r3);                   \
    r1 = RORN(wasm_v128_xor(r1, r2), 12);          \
    r0 = wasm_i32x4_add(wasm_i32x4_add(r0, r1), y); \
    r3 = ROR8(wasm_v128_xor(r3, r0));              \
    r2 = wasm_i32x4_add(r2, r3);                   \
    r1 = RORN(wasm_v128_xor(r1, r2), 7);           \
  } while (0)

/* cv = the first half of the compression of block m (16 words) from cv. */
static void compress(uint32_t cv[8], const uint32_t m[16], uint32_t counter, uint32_t len, uint32_t flags) {
  v128_t r0 = wasm_v128_load(cv), r1 = wasm_v128_load(cv + 4), r2 = wasm_v128_load(IV);
  v128_t r3 = wasm_i32x4_make((int32_t)counter, 0, (int32_t)len, (int32_t)flags);
  for (int r = 0; r < 7; r++) {
    const uint8_t *s = SCHEDULE[r];
    GV(wasm_u32x4_make(m[s[0]], m[s[2]], m[s[4]], m[s[6]]), wasm_u32x4_make(m[s[1]], m[s[3]], m[s[5]], m[s[7]]));
    r1 = wasm_i32x4_shuffle(r1, r1, 1, 2, 3, 0);
    r2 = wasm_i32x4_shuffle(r2, r2, 2, 3, 0, 1);
    r3 = wasm_i32x4_shuffle(r3, r3, 3, 0, 1, 2);
    GV(wasm_u32x4_make(m[s[8]], m[s[10]], m[s[12]], m[s[14]]),
       wasm_u32x4_make(m[s[9]], m[s[11]], m[s[13]], m[s[15]]));
    r1 = wasm_i32x4_shuffle(r1, r1, 3, 0, 1, 2);
    r2 = wasm_i32x4_shuffle(r2, r2, 2, 3, 0, 1);
    r3 = wasm_i32x4_shuffle(r3, r3, 1, 2, 3, 0);
  }
  wasm_v128_store(cv, wasm_v128_xor(r0, r2));
  wasm_v128_store(cv + 4, wasm_v128_xor(r1, r3));
}
#else
static inline uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

#define G(a, b, c, d, x, y)        \
  do {                             \
    v[a] += v[b] + (x);            \
    v[d] = ror(v[d] ^ v[a], 16);   \
    v[c] += v[d];                  \
    v[b] = ror(v[b] ^ v[c], 12);   \
    v[a] += v[b] + (y);            \
    v[d] = ror(v[d] ^ v[a], 8);    \
    v[c] += v[d];                  \
    v[b] = ror(v[b] ^ v[c], 7);    \
  } while (0)

/* cv = the first half of the compression of block m (16 words) from cv. */
static void compress(uint32_t cv[8], const uint32_t m[16], uint32_t counter, uint32_t len, uint32_t flags) {
  uint32_t v[16];
  for (int i = 0; i < 8; i++)
    v[i] = cv[i];
  for (int i = 0; i < 4; i++)
    v[8 + i] = IV[i];
  v[12] = counter; /* the high word of the 64-bit counter is 0: at most 2 chunks */
  v[13] = 0;
  v[14] = len;
  v[15] = flags;
  for (int r = 0; r < 7; r++) {
    const uint8_t *s = SCHEDULE[r];
    G(0, 4, 8, 12, m[s[0]], m[s[1]]);
    G(1, 5, 9, 13, m[s[2]], m[s[3]]);
    G(2, 6, 10, 14, m[s[4]], m[s[5]]);
    G(3, 7, 11, 15, m[s[6]], m[s[7]]);
    G(0, 5, 10, 15, m[s[8]], m[s[9]]);
    G(1, 6, 11, 12, m[s[10]], m[s[11]]);
    G(2, 7, 8, 13, m[s[12]], m[s[13]]);
    G(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; i++)
    cv[i] = v[i] ^ v[i + 8];
}
#endif

/* The chaining value of one chunk (<= 1024 bytes) of index `counter`. */
static void chunk_cv(const uint32_t key[8], const uint8_t *p, size_t len, uint32_t counter, uint32_t root,
                     uint32_t cv[8]) {
  for (int i = 0; i < 8; i++)
    cv[i] = key[i];
  size_t n_blocks = len ? (len + 63) / 64 : 1;
  for (size_t b = 0; b < n_blocks; b++) {
    size_t at = 64 * b, m = len - at < 64 ? len - at : 64;
    uint32_t w[16];
#ifdef __wasm_simd128__
    /* the words are little-endian, as wasm's memory: the block's bytes,
     * zero-padded, 16 at a time (no call out for a 32- or 64-byte copy) */
    for (int i = 0; i < 4; i++)
      wasm_v128_store(w + 4 * i, wasm_i32x4_splat(0));
    size_t k = 0;
    for (; k + 16 <= m; k += 16)
      wasm_v128_store((uint8_t *)w + k, wasm_v128_load(p + at + k));
    for (; k < m; k++)
      ((uint8_t *)w)[k] = p[at + k];
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* the words are little-endian: on such a machine they are the bytes */
    holo_memset(w, 0, sizeof w);
    holo_memcpy(w, p + at, m);
#else
    uint8_t bytes[64];
    holo_memcpy(bytes, p + at, m);
    holo_memset(bytes + m, 0, 64 - m);
    for (int i = 0; i < 16; i++)
      w[i] = (uint32_t)bytes[4 * i] | (uint32_t)bytes[4 * i + 1] << 8 | (uint32_t)bytes[4 * i + 2] << 16 |
             (uint32_t)bytes[4 * i + 3] << 24;
#endif
    uint32_t last = b + 1 == n_blocks;
    uint32_t flags = KEYED_HASH | (b == 0 ? CHUNK_START : 0) | (last ? CHUNK_END | root : 0);
    compress(cv, w, counter, (uint32_t)m, flags);
  }
}

void holo__blake3_keyed(const uint32_t key[8], const uint8_t *msg, size_t len, uint8_t out[32]) {
  uint32_t cv[8];
  if (len <= 1024) {
    chunk_cv(key, msg, len, 0, ROOT, cv);
  } else {
    uint32_t pair[16];
    chunk_cv(key, msg, 1024, 0, 0, pair);
    chunk_cv(key, msg + 1024, len - 1024, 1, 0, pair + 8);
    for (int i = 0; i < 8; i++)
      cv[i] = key[i];
    compress(cv, pair, 0, 64, KEYED_HASH | PARENT | ROOT);
  }
  for (int i = 0; i < 8; i++)
    holo_put_u32le(out + 4 * i, cv[i]);
}
