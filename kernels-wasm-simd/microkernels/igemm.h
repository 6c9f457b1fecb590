/* The integer GEMM core shared by MatMulInteger and ConvInteger:
 *
 *   C(i,j) = sum_k (a(i,k) - za(i)) * (b(k,j) - zb(j))      exact, int32
 *
 * a and b are u8 or i8, so every difference fits int16 (-255..255) and
 * every product |p| <= 65025: a sum of K <= HOLO_IGEMM_MAX_K terms cannot
 * overflow int32, and an exact integer sum has one value whatever the
 * order. Every variant below therefore gives the same bytes (no byte class
 * of its own; tests/c/test_microkernels.c checks it over many tiles).
 *
 * Both operands are packed, once, as int16 differences in the "c2" layout
 * that i32x4.dot_i16x8_s consumes: k is taken in pairs (K padded to even
 * with zeros), and a pair's two values sit side by side.
 *   packed A: panels of HOLO_IGEMM_MR rows; panel p, pair q, row r, half h
 *             at pa[p*KP*MR + q*2*MR + 2*r + h], KP = K rounded up to even
 *   packed B: panels of HOLO_IGEMM_NR columns; panel p, pair q, column j,
 *             half h at pb[p*KP*NR + q*2*NR + 2*j + h]
 * Rows / columns past M / N and the padding k are zero.
 *
 * The tile kernels, one file each:
 *   igemm-i8-4x8-scalar.c   holo_ukernel_igemm_i8_4x8__scalar, every build
 *   igemm-i8-4x8-simd128.c  holo_ukernel_igemm_i8_4x8__simd128, wasm SIMD
 *                           builds: per pair, one load32_splat of a row's
 *                           pair against two B vectors, i32x4.dot_i16x8_s */
#ifndef HOLOGRAM_KERNELS_IGEMM_H
#define HOLOGRAM_KERNELS_IGEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOLO_IGEMM_MR 4
#define HOLO_IGEMM_NR 8
/* 255 * 255 * 33025 < 2^31 */
#define HOLO_IGEMM_MAX_K 33025

static inline size_t holo_igemm_kp(size_t K) { return K + (K & 1); }
/* int16 elements of a packed A of M rows / a packed B of N columns */
static inline size_t holo_igemm_packed_a_elems(size_t M, size_t K) {
  return (M + HOLO_IGEMM_MR - 1) / HOLO_IGEMM_MR * HOLO_IGEMM_MR * holo_igemm_kp(K);
}
static inline size_t holo_igemm_packed_b_elems(size_t K, size_t N) {
  return (N + HOLO_IGEMM_NR - 1) / HOLO_IGEMM_NR * HOLO_IGEMM_NR * holo_igemm_kp(K);
}

/* One int8 operand: element (r, k) at p[r*rs + k*cs] of dtype u8 (is_u8)
 * or i8, and its zero point z[r*zs] (zs 0: one for every r; z NULL: 0). */
typedef struct holo_iop {
  const void *p;
  size_t rs, cs;
  bool is_u8;
  const void *z;
  size_t zs;
  bool z_u8;
} holo_iop;

/* Packs rows [r0, r1) (r0 a multiple of MR) of an operand with K columns:
 * A's rows into A panels, or B's columns (r = j, k along B's rows) into B
 * panels, as differences from the zero point. */
void holo_ukernel_ipack_a_i8__scalar(int16_t *dst, const holo_iop *a, size_t M, size_t K, size_t r0,
                                     size_t r1);
void holo_ukernel_ipack_b_i8__scalar(int16_t *dst, const holo_iop *b, size_t N, size_t K, size_t c0,
                                     size_t c1);

/* One MR x NR tile: c[i*ldc + j] = sum over KP/2 pairs of pa's panel row i
 * times pb's panel column j, for i < mr, j < nr (the rest is not written). */
void holo_ukernel_igemm_i8_4x8__scalar(size_t kp, const int16_t *pa, const int16_t *pb, int32_t *c,
                                       size_t ldc, size_t mr, size_t nr);
#ifdef __wasm_simd128__
void holo_ukernel_igemm_i8_4x8__simd128(size_t kp, const int16_t *pa, const int16_t *pb, int32_t *c,
                                        size_t ldc, size_t mr, size_t nr);
#endif

static inline void holo_igemm_i8_4x8(size_t kp, const int16_t *pa, const int16_t *pb, int32_t *c, size_t ldc,
                                     size_t mr, size_t nr) {
#ifdef __wasm_simd128__
  holo_ukernel_igemm_i8_4x8__simd128(kp, pa, pb, c, ldc, mr, nr);
#else
  holo_ukernel_igemm_i8_4x8__scalar(kp, pa, pb, c, ldc, mr, nr);
#endif
}

/* s[i] = sum_k of packed A's row i, i < M: the sum of row i's differences
 * from its zero point (the product's zero point correction). */
static inline void holo_igemm_a_rowsums(const int16_t *pa, size_t M, size_t K, int32_t *s) {
  size_t kp = holo_igemm_kp(K);
  for (size_t i = 0; i < M; i++) {
    const int16_t *d = pa + (i / HOLO_IGEMM_MR) * kp * HOLO_IGEMM_MR + 2 * (i % HOLO_IGEMM_MR);
    int32_t t = 0;
    for (size_t q = 0; q < kp / 2; q++)
      t += d[q * 2 * HOLO_IGEMM_MR] + d[q * 2 * HOLO_IGEMM_MR + 1];
    s[i] = t;
  }
}

/* Rows of A per block: a block of A (MC x K int16) stays in cache while
 * every B panel passes it, each B panel (8 columns x K) in L1 while the
 * block's A panels stream by. */
#define HOLO_IGEMM_MC 32

/* C = A x B over packed operands: M rows of A panels, N columns of B
 * panels, C(i,j) at c[i*ldc + j]. */
static inline void holo_igemm_i8(size_t M, size_t N, size_t K, const int16_t *pa, const int16_t *pb,
                                 int32_t *c, size_t ldc) {
  size_t kp = holo_igemm_kp(K);
  for (size_t i0 = 0; i0 < M; i0 += HOLO_IGEMM_MC) {
    size_t i1 = M - i0 < HOLO_IGEMM_MC ? M : i0 + HOLO_IGEMM_MC;
    for (size_t j = 0; j < N; j += HOLO_IGEMM_NR)
      for (size_t i = i0; i < i1; i += HOLO_IGEMM_MR)
        holo_igemm_i8_4x8(kp, pa + i * kp, pb + j * kp, c + i * ldc + j, ldc,
                          M - i < HOLO_IGEMM_MR ? M - i : HOLO_IGEMM_MR,
                          N - j < HOLO_IGEMM_NR ? N - j : HOLO_IGEMM_NR);
  }
}

#endif
