/* The elementwise steps of the recurrent cells (operators/recurrent-run.c:
 * LSTM, GRU, RNN) over n contiguous floats, each operation rounded to f32
 * in the order written, no fused multiply-add (common/fp-contract.h), so
 * every build gives the same bytes. The activations themselves are the
 * unary operators' own kernels (operators/products.h holo_k_unary_apply). */
#ifndef HOLOGRAM_KERNELS_RNNCELL_H
#define HOLOGRAM_KERNELS_RNNCELL_H

#include <stddef.h>

#include "common/fp-contract.h"

/* y[i] = a[i] + b[i] */
void holo_ukernel_rnn_add_f32__scalar(size_t n, const float *a, const float *b, float *y);
/* y[i] = y[i] + p[i] * c[i]  (a peephole term) */
void holo_ukernel_rnn_addmul_f32__scalar(size_t n, const float *p, const float *c, float *y);
/* y[i] = y[i] < -t ? -t : y[i], then y[i] > t ? t : y[i]  (NaN passes) */
void holo_ukernel_rnn_clip_f32__scalar(size_t n, float t, float *y);
/* y[i] = alpha * y[i] + beta  (Affine) */
void holo_ukernel_rnn_affine_f32__scalar(size_t n, float alpha, float beta, float *y);
/* y[i] = a * y[i]  (ScaledTanh's scalings) */
void holo_ukernel_rnn_scale_f32__scalar(size_t n, float a, float *y);
/* y[i] = 1 - x[i]  (LSTM input_forget: f = 1 - i) */
void holo_ukernel_rnn_oneminus_f32__scalar(size_t n, const float *x, float *y);
/* c[i] = f[i] * c[i] + i[i] * g[i]  (the LSTM cell state) */
void holo_ukernel_rnn_lstmcell_f32__scalar(size_t n, const float *f, const float *i, const float *g,
                                           float *c);
/* y[i] = a[i] * b[i] */
void holo_ukernel_rnn_mul_f32__scalar(size_t n, const float *a, const float *b, float *y);
/* y[i] = x[i] + r[i] * hr[i]  (GRU linear_before_reset: Xt*Wh + Wbh + rt (.) (Ht-1*Rh + Rbh)) */
void holo_ukernel_rnn_gatedadd_f32__scalar(size_t n, const float *x, const float *r, const float *hr,
                                           float *y);
/* h[i] = (1 - z[i]) * g[i] + z[i] * h[i]  (the GRU state, in place) */
void holo_ukernel_rnn_grumerge_f32__scalar(size_t n, const float *z, const float *g, float *h);

#endif
