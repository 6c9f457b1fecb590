/* Four-lane SHA-256 (sha256-lanes.h): lane l of every vector is message l.
 * The rounds are FIPS 180-4's, written once over GCC/clang vector types, so
 * the same source is v128 code in the SIMD wasm cores, SSE2/NEON natively,
 * and plain 32-bit code where the target has no vector unit (the scalar
 * wasm core: there holo__sha256_x4 is the scalar twin). Wasm SIMD has no
 * rotate: a rotate is two shifts and an or, which is why four lanes give
 * about twice, not four times, the serial throughput. */
#include "sha256-lanes.h"

#include "hologram/mem.h"

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* The padding block of a message of `bits` bits whose length is a multiple
 * of 64 bytes: 0x80, zeros, the 64-bit big-endian length. */
static void pad_block(uint8_t pad[64], uint64_t bits) {
  pad[0] = 0x80;
  for (int i = 1; i < 56; i++) pad[i] = 0;
  for (int i = 0; i < 8; i++) pad[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
}

void holo__sha256_x4_scalar(const uint32_t mid[8], uint64_t done, const uint8_t *const p[4], size_t n_blocks,
                            uint8_t out[4][32]) {
  uint8_t pad[64];
  pad_block(pad, (done + 64 * (uint64_t)n_blocks) * 8);
  for (int l = 0; l < 4; l++) {
    uint32_t h[8];
    for (int i = 0; i < 8; i++) h[i] = mid[i];
    holo__sha256_blocks(h, p[l], n_blocks);
    holo__sha256_blocks(h, pad, 1);
    for (int i = 0; i < 8; i++) put_be32(out[l] + 4 * i, h[i]);
  }
}

#if defined(__wasm_simd128__) || defined(__SSE2__) || defined(__ARM_NEON)
#define HOLO_X4_VECTOR 1
typedef uint32_t v4 __attribute__((vector_size(16)));
typedef uint8_t v16 __attribute__((vector_size(16)));

static inline v4 splat(uint32_t x) { return (v4){x, x, x, x}; }
static inline v4 vror(v4 x, int n) { return (x >> n) | (x << (32 - n)); }

/* Words 4q..4q+3 of one block of each lane, byte-swapped to big-endian
 * order and transposed so that w[4q + j] holds word 4q + j of all lanes. */
static inline void load4(v4 w[4], const uint8_t *const p[4], size_t off) {
  v4 r[4];
  for (int l = 0; l < 4; l++) {
    v16 b;
    __builtin_memcpy(&b, p[l] + off, 16);
    b = __builtin_shufflevector(b, b, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
    r[l] = (v4)b;
  }
  v4 t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5), t1 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
  v4 t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5), t3 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
  w[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  w[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  w[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  w[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

#define VS0(x) (vror(x, 2) ^ vror(x, 13) ^ vror(x, 22))
#define VS1(x) (vror(x, 6) ^ vror(x, 11) ^ vror(x, 25))
#define Vs0(x) (vror(x, 7) ^ vror(x, 18) ^ ((x) >> 3))
#define Vs1(x) (vror(x, 17) ^ vror(x, 19) ^ ((x) >> 10))
#define VRND(a, b, c, d, e, f, g, h, i)                                                  \
  do {                                                                                   \
    v4 t1_ = h + VS1(e) + (((f ^ g) & e) ^ g) + splat(holo__sha256_k[i]) + w[(i) & 15]; \
    v4 t2_ = VS0(a) + ((a & b) | (c & (a | b)));                                         \
    d += t1_;                                                                            \
    h = t1_ + t2_;                                                                       \
  } while (0)
#define VWX(i) (w[(i) & 15] += Vs1(w[((i) - 2) & 15]) + w[((i) - 7) & 15] + Vs0(w[((i) - 15) & 15]))
#define VR8(i)                        \
  VRND(a, b, c, d, e, f, g, h, (i) + 0); \
  VRND(h, a, b, c, d, e, f, g, (i) + 1); \
  VRND(g, h, a, b, c, d, e, f, (i) + 2); \
  VRND(f, g, h, a, b, c, d, e, (i) + 3); \
  VRND(e, f, g, h, a, b, c, d, (i) + 4); \
  VRND(d, e, f, g, h, a, b, c, (i) + 5); \
  VRND(c, d, e, f, g, h, a, b, (i) + 6); \
  VRND(b, c, d, e, f, g, h, a, (i) + 7)
#define VWX8(i) VWX((i) + 0); VWX((i) + 1); VWX((i) + 2); VWX((i) + 3); VWX((i) + 4); VWX((i) + 5); VWX((i) + 6); VWX((i) + 7)

/* One block of all four lanes; w holds its 16 words on entry. */
static void vblock(v4 hs[8], v4 w[16]) {
  v4 a = hs[0], b = hs[1], c = hs[2], d = hs[3], e = hs[4], f = hs[5], g = hs[6], h = hs[7];
  /* the schedule for rounds r..r+15 depends only on the 16 words before */
  VR8(0); VR8(8);
  VWX8(16); VWX8(24); VR8(16); VR8(24);
  VWX8(32); VWX8(40); VR8(32); VR8(40);
  VWX8(48); VWX8(56); VR8(48); VR8(56);
  hs[0] += a; hs[1] += b; hs[2] += c; hs[3] += d;
  hs[4] += e; hs[5] += f; hs[6] += g; hs[7] += h;
}

void holo__sha256_x4(const uint32_t mid[8], uint64_t done, const uint8_t *const p[4], size_t n_blocks,
                     uint8_t out[4][32]) {
  v4 hs[8], w[16];
  for (int i = 0; i < 8; i++) hs[i] = splat(mid[i]);
  for (size_t k = 0; k < n_blocks; k++) {
    for (int q = 0; q < 4; q++) load4(w + 4 * q, p, 64 * k + 16 * (size_t)q);
    vblock(hs, w);
  }
  /* the padding block is the same in every lane */
  uint64_t bits = (done + 64 * (uint64_t)n_blocks) * 8;
  w[0] = splat(0x80000000u);
  for (int i = 1; i < 14; i++) w[i] = splat(0);
  w[14] = splat((uint32_t)(bits >> 32));
  w[15] = splat((uint32_t)bits);
  vblock(hs, w);
  for (int l = 0; l < 4; l++)
    for (int i = 0; i < 8; i++) put_be32(out[l] + 4 * i, hs[i][l]);
}
#else
#define HOLO_X4_VECTOR 0
void holo__sha256_x4(const uint32_t mid[8], uint64_t done, const uint8_t *const p[4], size_t n_blocks,
                     uint8_t out[4][32]) {
  holo__sha256_x4_scalar(mid, done, p, n_blocks, out);
}
#endif

int holo__sha256_x4_is_vector(void) { return HOLO_X4_VECTOR; }
