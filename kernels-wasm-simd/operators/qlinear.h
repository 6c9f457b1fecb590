/* What QLinearMatMul (matmul-integer.c) and QLinearConv (conv-integer.c)
 * share around the integer core: validating their scale / zero point
 * inputs and the requantization multipliers, per channel
 *
 *   mult[j] = (x_scale * w_scale[j]) / y_scale        in f32, this order
 *
 * (onnxruntime's order), so an output is microkernels/requant.h of the
 * exact int32 sum. */
#ifndef HOLOGRAM_KERNELS_QLINEAR_H
#define HOLOGRAM_KERNELS_QLINEAR_H

#include <stdbool.h>
#include <stddef.h>

#include "hologram/backend.h"
#include "microkernels/requant.h"

/* Input idx is an f32 scale: a scalar (rank 0, or 1 element of rank 1), or
 * when per > 1 also 1-D of per elements. */
holo_status holo_k_q_scale(holo_kernel_call *c, const char *op, uint32_t idx, size_t per, const char *what);
/* Input idx, when present, is a zero point of dtype dt (0: u8 or i8), shaped
 * as holo_k_q_scale says. */
holo_status holo_k_q_zero(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dt, size_t per,
                          const char *what);
/* Element j of a scalar-or-per-channel input (0 when absent). */
float holo_k_q_scale_at(const holo_kernel_call *c, uint32_t idx, size_t j);
int32_t holo_k_q_zero_at(const holo_kernel_call *c, uint32_t idx, size_t j);

/* mult[j] for j < n from inputs xs (scalar), ws (scalar or per channel) and
 * ys (scalar); fails naming op when one is not finite (requant.h). */
holo_status holo_k_q_multipliers(holo_kernel_call *c, const char *op, uint32_t xs, uint32_t ws, uint32_t ys,
                                 float *mult, size_t n);

/* The output dtype: input yzp's when present, else dflt. */
static inline uint32_t holo_k_q_out_dtype(const holo_kernel_call *c, uint32_t yzp, uint32_t dflt) {
  return yzp < c->n_inputs && c->inputs[yzp].dtype ? c->inputs[yzp].dtype : dflt;
}

/* QuantizeLinear's per-tensor steps: y = sat(rne(x / s) + zp), NaN -> 0,
 * into u8 (u8) or i8 bytes (qlinear-quant.c). */
void holo_k_q_quantize(const float *x, size_t n, float s, int32_t zp, bool u8, uint8_t *y);
/* DynamicQuantizeLinear over x[0..n) (qlinear-quant.c): its scale and zero
 * point (-1: NaN, every q is then 0), and the whole op into y / scale / zp. */
void holo_k_dql_params(const float *x, size_t n, float *scale, int32_t *zp);
void holo_k_dql(const float *x, size_t n, uint8_t *y, float *scale, uint8_t *zp);

#endif
