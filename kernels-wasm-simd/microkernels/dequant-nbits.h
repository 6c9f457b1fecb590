/* 4-bit block dequantization (com.microsoft MatMulNBits' weight layout):
 * row n of B holds kb blocks of bs 4-bit values, two per byte (element 2i
 * in the low nibble), block b of row n scaled by s[n*kb + b] with the zero
 * point z (4-bit, packed two per byte along the blocks of a row, row
 * stride (kb + 1) / 2 bytes; NULL: 8):
 *
 *   w[k][n] = (float)(q(n, k) - zp(n, k / bs)) * s[n*kb + k / bs],  k < K
 *
 * written transposed, K x N, ready for MatMul's B. One f32 multiply of an
 * exact small integer: one rounding, the same bytes on every build.
 *   dequant-nbits-scalar.c  holo_ukernel_dequant_q4__scalar */
#ifndef HOLOGRAM_KERNELS_DEQUANT_NBITS_H
#define HOLOGRAM_KERNELS_DEQUANT_NBITS_H

#include <stddef.h>
#include <stdint.h>

/* rows [n0, n1) of w (K x N, row stride N) */
void holo_ukernel_dequant_q4__scalar(const uint8_t *b, const float *s, const uint8_t *z, size_t K, size_t N,
                                     size_t bs, size_t n0, size_t n1, float *w);

#endif
