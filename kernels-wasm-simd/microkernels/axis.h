/* Microkernels that run along one axis of a tensor viewed as
 * [outer, n, inner] (element (o, i, r) at (o * n + i) * inner + r; common/
 * shape.h holo_k_axis_split): operators/softmax.c, argminmax.c, cumsum.c. */
#ifndef HOLOGRAM_KERNELS_AXIS_H
#define HOLOGRAM_KERNELS_AXIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fp-contract.h"

/* Softmax (softmax-f32-scalar.c, softmax-f32-simd128.c: SIMD where
 * inner == 1, the same bytes). */
void holo_ukernel_softmax_f32__scalar(const float *x, float *y, size_t outer, size_t n, size_t inner);
#ifdef __wasm_simd128__
void holo_ukernel_softmax_f32__simd128(const float *x, float *y, size_t outer, size_t n, size_t inner);
#endif
static inline void holo_softmax_f32(const float *x, float *y, size_t outer, size_t n, size_t inner) {
#ifdef __wasm_simd128__
  holo_ukernel_softmax_f32__simd128(x, y, outer, n, inner);
#else
  holo_ukernel_softmax_f32__scalar(x, y, outer, n, inner);
#endif
}

void holo_ukernel_logsoftmax_f32__scalar(const float *x, float *y, size_t outer, size_t n, size_t inner);
void holo_ukernel_hardmax_f32__scalar(const float *x, float *y, size_t outer, size_t n, size_t inner);
void holo_ukernel_argminmax_f32__scalar(const float *x, int64_t *y, size_t outer, size_t n, size_t inner, bool is_max,
                                        bool last);
/* The other numeric dtypes: i8..i64, u8..u64, f16, bf16, f64, the same
 * rules (argminmax-numeric-scalar.c). */
void holo_ukernel_argminmax_numeric__scalar(uint32_t dt, const void *x, int64_t *y, size_t outer, size_t n,
                                            size_t inner, bool is_max, bool last);
/* dt: f32, f64, i32 or i64 (cumsum-f32-f64-i32-i64-scalar.c). */
void holo_ukernel_cumsum__scalar(uint32_t dt, const void *x, void *y, size_t outer, size_t n, size_t inner, bool excl,
                                 bool rev);

#endif
