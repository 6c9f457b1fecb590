/* Resize over the two innermost axes of one plane, one output row at a time
 * (operators/resize-planes.c). Output element ow of the row is
 *   sum = 0; for a < th: for b < tw: sum += (wh[a] * ww[ow*tw + b]) * (double)rows[a][iw[ow*tw + b]]
 * in double, rounded once to f32: the order and the weight product of
 * operators/resize.c's generic walk (whose leading factors are the outer
 * axes' weights, all exactly 1 where this row kernel is used), hence its
 * bytes. */
#ifndef HOLOGRAM_KERNELS_RESIZE2D_H
#define HOLOGRAM_KERNELS_RESIZE2D_H

#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"

/* taps along H a row takes: an antialiased downsampling by 1/7 has 2 * 14 + 1 (cubic) */
enum { HOLO_RESIZE2D_MAX_TH = 33 };

typedef struct holo_resize2d_row {
  uint32_t th, tw;                         /* taps along H (1, 2, 4, or antialias's window) and W */
  const float *rows[HOLO_RESIZE2D_MAX_TH]; /* the input rows of the H taps */
  const double *wh;                        /* th weights */
  const int64_t *iw;                       /* n * tw column indices */
  const double *ww;                        /* n * tw weights */
  size_t n;                                /* outputs in the row */
} holo_resize2d_row;

void holo_ukernel_resize2d_row_f32__scalar(const holo_resize2d_row *r, float *y);
#ifdef __wasm_simd128__
/* 2 outputs per f64x2 step, each lane the scalar kernel's operations in its order. */
void holo_ukernel_resize2d_row_f32__simd128(const holo_resize2d_row *r, float *y);
#endif
static inline void holo_resize2d_row_f32(const holo_resize2d_row *r, float *y) {
#ifdef __wasm_simd128__
  holo_ukernel_resize2d_row_f32__simd128(r, y);
#else
  holo_ukernel_resize2d_row_f32__scalar(r, y);
#endif
}

#endif
