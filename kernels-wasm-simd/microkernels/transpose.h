/* Transpose (operators/transpose.c). */
#ifndef HOLOGRAM_KERNELS_TRANSPOSE_H
#define HOLOGRAM_KERNELS_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>

/* y (rank >= 1 dims `shape`, row-major) from x read at element strides
 * `stride` per output dim; es: element bytes, 1, 2, 4 or 8
 * (transpose-any-scalar.c). */
void holo_ukernel_transpose_any__scalar(size_t es, const void *x, void *y, uint32_t rank, const int64_t *shape,
                                        const int64_t *stride);

/* The 2-D case of 4-byte elements: y[p*Q + q] = x[q*s + p], p < P, q < Q
 * (transpose-any-scalar.c: in 8x8 tiles; transpose-x32-simd128.c: 4x4
 * lane transposes). Data movement, the same bytes either way. */
void holo_ukernel_transpose2d_x32__scalar(const uint32_t *x, size_t s, uint32_t *y, size_t P, size_t Q);
#ifdef __wasm_simd128__
void holo_ukernel_transpose2d_x32__simd128(const uint32_t *x, size_t s, uint32_t *y, size_t P, size_t Q);
#define holo_transpose2d_x32 holo_ukernel_transpose2d_x32__simd128 /* the build's variant */
#else
#define holo_transpose2d_x32 holo_ukernel_transpose2d_x32__scalar
#endif

#endif
