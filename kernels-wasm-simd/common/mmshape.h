/* MatMul's numpy shape rule, shared by MatMul (operators/matmul.c) and
 * MatMulInteger (operators/matmul-integer.c): 1-D operands promoted (A to
 * [1,K], B to [K,1]) and the promoted dim dropped from the result; leading
 * batch dims broadcast. */
#ifndef HOLOGRAM_KERNELS_MMSHAPE_H
#define HOLOGRAM_KERNELS_MMSHAPE_H

#include "hologram/backend.h"

typedef struct holo_k_mm_geom {
  size_t M, K, N;
  uint32_t brank; /* batch rank of the output */
  int64_t bshape[HOLO_MAX_RANK];
  int64_t sa[HOLO_MAX_RANK], sb[HOLO_MAX_RANK]; /* batch strides, in matrices */
} holo_k_mm_geom;

/* The geometry of inputs 0 (A) and 1 (B), and the output's shape; fails
 * HOLO_ERR_KERNEL naming op on a scalar operand, differing inner dims or
 * batch dims that do not broadcast. */
holo_status holo_k_mm_geometry(holo_kernel_call *c, const char *op, holo_k_mm_geom *g, int64_t *yshape,
                               uint32_t *yrank);
/* The same for inputs ia (A) and ib (B) (QLinearMatMul's 0 and 3). */
holo_status holo_k_mm_geometry_of(holo_kernel_call *c, const char *op, uint32_t ia, uint32_t ib,
                                  holo_k_mm_geom *g, int64_t *yshape, uint32_t *yrank);

#endif
