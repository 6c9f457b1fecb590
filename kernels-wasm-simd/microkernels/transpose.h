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

#endif
