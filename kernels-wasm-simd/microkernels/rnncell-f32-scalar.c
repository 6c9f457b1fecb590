/* The recurrent cells' elementwise steps (rnncell.h): the scalar reference,
 * every build's. Each element is independent, so a compiler's vectorized
 * form of these loops computes the same operations on the same values. */
#include "microkernels/rnncell.h"

void holo_ukernel_rnn_add_f32__scalar(size_t n, const float *a, const float *b, float *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = a[i] + b[i];
}

void holo_ukernel_rnn_addmul_f32__scalar(size_t n, const float *p, const float *c, float *y) {
  for (size_t i = 0; i < n; i++) {
    float m = p[i] * c[i];
    y[i] = y[i] + m;
  }
}

void holo_ukernel_rnn_clip_f32__scalar(size_t n, float t, float *y) {
  for (size_t i = 0; i < n; i++) {
    float v = y[i];
    v = v < -t ? -t : v;
    y[i] = v > t ? t : v;
  }
}

void holo_ukernel_rnn_affine_f32__scalar(size_t n, float alpha, float beta, float *y) {
  for (size_t i = 0; i < n; i++) {
    float m = alpha * y[i];
    y[i] = m + beta;
  }
}

void holo_ukernel_rnn_scale_f32__scalar(size_t n, float a, float *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = a * y[i];
}

void holo_ukernel_rnn_oneminus_f32__scalar(size_t n, const float *x, float *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = 1.0f - x[i];
}

void holo_ukernel_rnn_lstmcell_f32__scalar(size_t n, const float *f, const float *i, const float *g,
                                           float *c) {
  for (size_t k = 0; k < n; k++) {
    float keep = f[k] * c[k], add = i[k] * g[k];
    c[k] = keep + add;
  }
}

void holo_ukernel_rnn_mul_f32__scalar(size_t n, const float *a, const float *b, float *y) {
  for (size_t i = 0; i < n; i++)
    y[i] = a[i] * b[i];
}

void holo_ukernel_rnn_gatedadd_f32__scalar(size_t n, const float *x, const float *r, const float *hr,
                                           float *y) {
  for (size_t i = 0; i < n; i++) {
    float m = r[i] * hr[i];
    y[i] = x[i] + m;
  }
}

void holo_ukernel_rnn_grumerge_f32__scalar(size_t n, const float *z, const float *g, float *h) {
  for (size_t i = 0; i < n; i++) {
    float a = (1.0f - z[i]) * g[i], b = z[i] * h[i];
    h[i] = a + b;
  }
}
