/* LSTM, GRU and RNN (operators/recurrent.c) against a float64 reference
 * written from the ONNX equations: every direction, sequence_lens with a
 * zero-length entry, initial states, peepholes, clip, input_forget, both
 * linear_before_reset values, both layouts, every activation with its
 * alpha/beta; the packed-weight path and 2 threads give the same bytes;
 * the refusals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hologram/parallel.h"
#include "util/kernel_testutil.h"

enum { K_RNN, K_GRU, K_LSTM };
static const char *const OPS[] = {"RNN", "GRU", "LSTM"};
static const int GATES[] = {1, 3, 4};
static const char *const ACT_NAMES[] = {
    "Relu",       "Tanh",        "Sigmoid", "Affine",   "LeakyRelu", "ThresholdedRelu",
    "ScaledTanh", "HardSigmoid", "Elu",     "Softsign", "Softplus"};
enum {
  A_RELU,
  A_TANH,
  A_SIGMOID,
  A_AFFINE,
  A_LEAKY,
  A_THRELU,
  A_STANH,
  A_HSIG,
  A_ELU,
  A_SOFTSIGN,
  A_SOFTPLUS
};

typedef struct rc_case {
  int kind;
  int64_t S, B, I, H;
  int D;
  bool reverse, layout1, bias, init_h, init_c, peep, has_clip;
  const int32_t *lens; /* NULL: no sequence_lens */
  float clip;
  int lbr, input_forget;
  int nacts; /* 0: the defaults; else acts/alpha/beta given */
  int acts[6];
  float alpha[6], beta[6];
} rc_case;

static double act(int id, double x, double a, double b) {
  switch (id) {
  case A_RELU: return x < 0 ? 0 : x;
  case A_TANH: return tanh(x);
  case A_SIGMOID: return 1 / (1 + exp(-x));
  case A_AFFINE: return a * x + b;
  case A_LEAKY: return x >= 0 ? x : a * x;
  case A_THRELU: return x > a ? x : 0;
  case A_STANH: return a * tanh(b * x);
  case A_HSIG: return fmax(0, fmin(1, a * x + b));
  case A_ELU: return x >= 0 ? x : a * (exp(x) - 1);
  case A_SOFTSIGN: return x / (1 + fabs(x));
  default: return log1p(exp(x));
  }
}

typedef struct rc_data {
  float *X, *W, *R, *Bs, *h0, *c0, *P;
} rc_data;

/* activation k (f, g, h) of direction d, clipped first */
static double ract(const rc_case *t, int d, int k, double x) {
  static const int dflt[3][3] = {{A_TANH}, {A_SIGMOID, A_TANH}, {A_SIGMOID, A_TANH, A_TANH}};
  int n = t->kind + 1, i = d * n + k;
  if (t->has_clip) x = fmax(-t->clip, fmin(t->clip, x));
  if (!t->nacts) return act(dflt[t->kind][k], x, 0, 0);
  return act(t->acts[i], x, t->alpha[i], t->beta[i]);
}

/* sum_k v[k] * M[row][k] over n */
static double dot(const float *M, int64_t row, int64_t n, const double *v) {
  double s = 0;
  for (int64_t k = 0; k < n; k++)
    s += (double)M[row * n + k] * v[k];
  return s;
}

static void reference(const rc_case *t, const rc_data *in, double *Y, double *Yh, double *Yc) {
  int64_t S = t->S, B = t->B, I = t->I, H = t->H, G = GATES[t->kind], D = t->D;
  memset(Y, 0, sizeof(double) * S * D * B * H);
  double x[64], h[64], c[64], pre[256], rh[64];
  for (int64_t d = 0; d < D; d++)
    for (int64_t b = 0; b < B; b++) {
      int64_t hoff = (t->layout1 ? b * D + d : d * B + b) * H, L = t->lens ? t->lens[b] : S;
      for (int64_t j = 0; j < H; j++)
        h[j] = t->init_h ? in->h0[hoff + j] : 0, c[j] = t->init_c ? in->c0[hoff + j] : 0;
      const float *W = in->W + d * G * H * I, *R = in->R + d * G * H * H;
      const float *Wb = t->bias ? in->Bs + d * 2 * G * H : 0, *Rb = Wb ? Wb + G * H : 0;
      for (int64_t s = 0; s < L; s++) {
        int64_t tt = (d == 1 || t->reverse) ? L - 1 - s : s;
        for (int64_t k = 0; k < I; k++)
          x[k] = in->X[(t->layout1 ? b * S + tt : tt * B + b) * I + k];
        for (int64_t j = 0; j < G * H; j++) {
          pre[j] = dot(W, j, I, x) + (Wb ? Wb[j] : 0);
          if (t->kind != K_GRU || j < 2 * H) pre[j] += dot(R, j, H, h) + (Rb ? Rb[j] : 0);
        }
        if (t->kind == K_RNN) {
          for (int64_t j = 0; j < H; j++)
            h[j] = ract(t, (int)d, 0, pre[j]);
        } else if (t->kind == K_GRU) {
          double z[64], r[64];
          for (int64_t j = 0; j < H; j++)
            z[j] = ract(t, (int)d, 0, pre[j]), r[j] = ract(t, (int)d, 0, pre[H + j]);
          for (int64_t j = 0; j < H; j++)
            rh[j] = r[j] * h[j];
          double hh[64];
          for (int64_t j = 0; j < H; j++) {
            double rb = Rb ? Rb[2 * H + j] : 0;
            double v = t->lbr ? pre[2 * H + j] + r[j] * (dot(R, 2 * H + j, H, h) + rb)
                              : pre[2 * H + j] + dot(R, 2 * H + j, H, rh) + rb;
            hh[j] = ract(t, (int)d, 1, v);
          }
          for (int64_t j = 0; j < H; j++)
            h[j] = (1 - z[j]) * hh[j] + z[j] * h[j];
        } else {
          const float *P = t->peep ? in->P + d * 3 * H : 0;
          for (int64_t j = 0; j < H; j++) {
            double ig = ract(t, (int)d, 0, pre[j] + (P ? P[j] * c[j] : 0));
            double fg =
                t->input_forget ? 1 - ig : ract(t, (int)d, 0, pre[2 * H + j] + (P ? P[2 * H + j] * c[j] : 0));
            double cg = ract(t, (int)d, 1, pre[3 * H + j]);
            c[j] = fg * c[j] + ig * cg;
            double og = ract(t, (int)d, 0, pre[H + j] + (P ? P[H + j] * c[j] : 0));
            h[j] = og * ract(t, (int)d, 2, c[j]);
          }
        }
        for (int64_t j = 0; j < H; j++)
          Y[(t->layout1 ? (b * S + tt) * D + d : (tt * D + d) * B + b) * H + j] = h[j];
      }
      for (int64_t j = 0; j < H; j++)
        Yh[hoff + j] = h[j], Yc[hoff + j] = c[j];
    }
}

static void rc_setup(kt_call *k, const rc_case *t, const rc_data *in, int64_t *dims) {
  int64_t S = t->S, B = t->B, I = t->I, H = t->H, G = GATES[t->kind], D = t->D;
  kt_init(k, OPS[t->kind]);
  int64_t xs[3] = {t->layout1 ? B : S, t->layout1 ? S : B, I}, ws[3] = {D, G * H, I}, rs[3] = {D, G * H, H};
  int64_t bs[2] = {D, 2 * G * H}, ls[1] = {B}, hs[3] = {t->layout1 ? B : D, t->layout1 ? D : B, H},
          ps[2] = {D, 3 * H};
  kt_input(k, 0, HOLO_DT_F32, 3, xs, in->X);
  kt_input(k, 1, HOLO_DT_F32, 3, ws, in->W);
  kt_input(k, 2, HOLO_DT_F32, 3, rs, in->R);
  if (t->bias) kt_input(k, 3, HOLO_DT_F32, 2, bs, in->Bs);
  if (t->lens) kt_input(k, 4, HOLO_DT_I32, 1, ls, t->lens);
  if (t->init_h) kt_input(k, 5, HOLO_DT_F32, 3, hs, in->h0);
  if (t->init_c) kt_input(k, 6, HOLO_DT_F32, 3, hs, in->c0);
  if (t->peep) kt_input(k, 7, HOLO_DT_F32, 2, ps, in->P);
  for (uint32_t i = 0; i < k->call.n_inputs; i++)
    if (!k->in[i].data) kt_absent(k, i);
  k->call.n_outputs = t->kind == K_LSTM ? 3 : 2;
  kt_attr_int(k, "hidden_size", H);
  kt_attr_string(k, "direction", t->D == 2 ? "bidirectional" : t->reverse ? "reverse" : "forward");
  kt_attr_int(k, "layout", t->layout1);
  if (t->has_clip) kt_attr_float(k, "clip", t->clip);
  if (t->kind == K_GRU) kt_attr_int(k, "linear_before_reset", t->lbr);
  if (t->kind == K_LSTM) kt_attr_int(k, "input_forget", t->input_forget);
  if (t->nacts) {
    static char names[128];
    names[0] = 0;
    for (int i = 0; i < t->nacts; i++) {
      if (i) strcat(names, ",");
      strcat(names, ACT_NAMES[t->acts[i]]);
    }
    kt_attr_string(k, "activations", names);
    kt_attr_floats(k, "activation_alpha", (uint32_t)t->nacts, t->alpha);
    kt_attr_floats(k, "activation_beta", (uint32_t)t->nacts, t->beta);
  }
  dims[0] = S * D * B * H;
  dims[1] = D * B * H;
}

static rc_data rc_alloc(const rc_case *t, uint64_t *seed) {
  int64_t G = GATES[t->kind],
          n[7] = {t->S * t->B * t->I, t->D * G * t->H * t->I, t->D * G * t->H * t->H, t->D * 2 * G * t->H,
                  t->D * t->B * t->H, t->D * t->B * t->H,     t->D * 3 * t->H};
  float *p[7];
  for (int i = 0; i < 7; i++) {
    p[i] = malloc(sizeof(float) * (size_t)(n[i] + 1));
    kt_fill(p[i], (size_t)n[i], seed, -1, 1);
  }
  return (rc_data){p[0], p[1], p[2], p[3], p[4], p[5], p[6]};
}

static void rc_free(rc_data *d) {
  float *p[7] = {d->X, d->W, d->R, d->Bs, d->h0, d->c0, d->P};
  for (int i = 0; i < 7; i++)
    free(p[i]);
}

/* Runs t (pool: NULL serial; packed: through the kernel's pack); checks
 * against the reference; returns the outputs' bytes (caller frees). */
static float *rc_run(const rc_case *t, const rc_data *in, holo_pool *pool, bool packed) {
  kt_call k;
  int64_t dims[2];
  rc_setup(&k, t, in, dims);
  void *pk[8] = {0};
  const void *pkc[8] = {0};
  if (packed) {
    for (uint32_t i = 1; i <= 2; i++) {
      holo_pack_call p = {.call = &k.call, .input = i};
      assert_int_equal(k.kernel->pack(&p), HOLO_OK);
      if (!p.bytes) continue;
      pk[i] = aligned_alloc(64, (p.bytes + 63) / 64 * 64);
      p.dst = pk[i];
      assert_int_equal(k.kernel->pack(&p), HOLO_OK);
      pkc[i] = pk[i];
    }
    k.call.packed = pkc;
  }
  if (pool) k.call.parallel_for = holo_pool_parallel_for, k.call.pctx = pool;
  holo_status st = kt_exec(&k);
  if (st) fprintf(stderr, "%s: %s\n", OPS[t->kind], k.msg);
  assert_int_equal(st, HOLO_OK);
  size_t ny = (size_t)dims[0], nh = (size_t)dims[1];
  double *Y = malloc(sizeof(double) * (ny + 1)), *Yh = malloc(sizeof(double) * (nh + 1)),
         *Yc = malloc(sizeof(double) * (nh + 1));
  reference(t, in, Y, Yh, Yc);
  kt_close(k.out[0].data, Y, ny, 1e-4, 1e-5);
  kt_close(k.out[1].data, Yh, nh, 1e-4, 1e-5);
  if (t->kind == K_LSTM) kt_close(k.out[2].data, Yc, nh, 1e-4, 1e-5);
  float *bytes = malloc(sizeof(float) * (ny + 2 * nh + 1));
  memcpy(bytes, k.out[0].data, sizeof(float) * ny);
  memcpy(bytes + ny, k.out[1].data, sizeof(float) * nh);
  if (t->kind == K_LSTM)
    memcpy(bytes + ny + nh, k.out[2].data, sizeof(float) * nh);
  else
    memset(bytes + ny + nh, 0, sizeof(float) * nh);
  free(Y), free(Yh), free(Yc);
  free(pk[1]), free(pk[2]);
  kt_free(&k);
  return bytes;
}

/* Each case serial, packed, and on 2 threads: the same bytes. */
static void rc_check(const rc_case *t, uint64_t seed) {
  if (getenv("KT_VERBOSE")) fprintf(stderr, "case seed %llu\n", (unsigned long long)seed);
  rc_data in = rc_alloc(t, &seed);
  size_t n = (size_t)(t->S * t->D * t->B * t->H + 2 * t->D * t->B * t->H);
  float *a = rc_run(t, &in, NULL, false), *b = rc_run(t, &in, NULL, true);
  holo_pool *pool = holo_pool_create(2);
  assert_non_null(pool);
  float *c = rc_run(t, &in, pool, true);
  holo_pool_destroy(pool);
  assert_memory_equal(a, b, n * sizeof(float));
  assert_memory_equal(a, c, n * sizeof(float));
  free(a), free(b), free(c);
  rc_free(&in);
}

static const int32_t LENS3[] = {3, 0, 2};
static const int32_t LENS4[] = {5, 1, 0, 4};

static void test_lstm(void **st) {
  (void)st;
  /* forward, defaults */
  rc_check(&(rc_case){.kind = K_LSTM, .S = 4, .B = 2, .I = 3, .H = 5, .D = 1}, 1);
  /* bidirectional with initial states, peepholes, bias, a zero-length entry, clip */
  rc_check(&(rc_case){.kind = K_LSTM,
                      .S = 3,
                      .B = 3,
                      .I = 4,
                      .H = 6,
                      .D = 2,
                      .bias = true,
                      .init_h = true,
                      .init_c = true,
                      .peep = true,
                      .lens = LENS3,
                      .has_clip = true,
                      .clip = 0.7f},
           2);
  /* reverse, layout 1, input_forget, wide panels (H >= 32 gates) */
  rc_check(&(rc_case){.kind = K_LSTM,
                      .S = 5,
                      .B = 4,
                      .I = 9,
                      .H = 9,
                      .reverse = true,
                      .D = 1,
                      .layout1 = true,
                      .bias = true,
                      .lens = LENS4,
                      .input_forget = 1,
                      .init_h = true},
           3);
  /* activations with alpha/beta, one set per direction */
  rc_check(&(rc_case){.kind = K_LSTM,
                      .S = 3,
                      .B = 2,
                      .I = 2,
                      .H = 3,
                      .D = 2,
                      .bias = true,
                      .nacts = 6,
                      .acts = {A_HSIG, A_STANH, A_AFFINE, A_SIGMOID, A_SOFTSIGN, A_ELU},
                      .alpha = {0.3f, 0.9f, 1.5f, 0, 0, 0.8f},
                      .beta = {0.4f, 1.2f, -0.25f, 0, 0, 0}},
           4);
  /* batch >= 8 rows, seq*batch >= 8: the packed-A paths of the SIMD core */
  rc_check(&(rc_case){.kind = K_LSTM, .S = 6, .B = 9, .I = 17, .H = 12, .D = 2, .bias = true, .init_h = true},
           5);
}

static void test_gru(void **st) {
  (void)st;
  for (int lbr = 0; lbr <= 1; lbr++) {
    rc_check(&(rc_case){.kind = K_GRU, .S = 4, .B = 2, .I = 3, .H = 5, .D = 1, .lbr = lbr}, 10 + lbr);
    rc_check(&(rc_case){.kind = K_GRU,
                        .S = 3,
                        .B = 3,
                        .I = 4,
                        .H = 6,
                        .D = 2,
                        .bias = true,
                        .init_h = true,
                        .lens = LENS3,
                        .has_clip = true,
                        .clip = 0.5f,
                        .lbr = lbr,
                        .nacts = 4,
                        .acts = {A_SIGMOID, A_SOFTPLUS, A_SIGMOID, A_TANH}},
             12 + lbr);
    rc_check(&(rc_case){.kind = K_GRU,
                        .S = 5,
                        .B = 4,
                        .I = 7,
                        .H = 33,
                        .reverse = true,
                        .D = 1,
                        .layout1 = true,
                        .bias = true,
                        .lens = LENS4,
                        .lbr = lbr,
                        .nacts = 2,
                        .acts = {A_HSIG, A_LEAKY},
                        .alpha = {0.3f, 0.1f},
                        .beta = {0.45f, 0}},
             14 + lbr);
    rc_check(&(rc_case){.kind = K_GRU, .S = 2, .B = 9, .I = 5, .H = 8, .D = 2, .bias = true, .lbr = lbr},
             16 + lbr);
  }
}

static void test_rnn(void **st) {
  (void)st;
  rc_check(&(rc_case){.kind = K_RNN, .S = 4, .B = 2, .I = 3, .H = 5, .D = 1}, 20);
  rc_check(&(rc_case){.kind = K_RNN,
                      .S = 3,
                      .B = 3,
                      .I = 4,
                      .H = 6,
                      .D = 2,
                      .bias = true,
                      .init_h = true,
                      .lens = LENS3,
                      .layout1 = true,
                      .nacts = 2,
                      .acts = {A_RELU, A_THRELU},
                      .alpha = {0, 0.2f},
                      .beta = {0, 0}},
           21);
  rc_check(&(rc_case){.kind = K_RNN,
                      .S = 5,
                      .B = 3,
                      .I = 1,
                      .H = 40,
                      .reverse = true,
                      .D = 1,
                      .bias = true,
                      .lens = LENS3,
                      .has_clip = true,
                      .clip = 0.3f},
           22);
  /* seq_length 0: Y empty, Y_h the initial state */
  rc_check(&(rc_case){.kind = K_RNN, .S = 0, .B = 2, .I = 3, .H = 4, .D = 2, .init_h = true}, 23);
}

static void test_recurrent_refusals(void **st) {
  (void)st;
  uint64_t seed = 99;
  rc_case t = {.kind = K_LSTM, .S = 3, .B = 3, .I = 2, .H = 2, .D = 1, .lens = LENS3};
  rc_data in = rc_alloc(&t, &seed);
  kt_call k;
  int64_t dims[2];
  int32_t bad[3] = {1, 4, 0};
  t.lens = bad;
  rc_setup(&k, &t, &in, dims);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "sequence_lens[1] = 4");
  t.lens = LENS3;
  rc_setup(&k, &t, &in, dims);
  kt_attr_float(&k, "clip", -1.0f);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "clip");
  rc_setup(&k, &t, &in, dims);
  k.attrs[1].payload = (const uint8_t *)"sideways", k.attrs[1].count = 8;
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "direction");
  rc_setup(&k, &t, &in, dims);
  kt_attr_string(&k, "activations", "Sigmoid,Tanh,Swish");
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "LSTM: activation 2");
  rc_setup(&k, &t, &in, dims);
  kt_attr_string(&k, "activations", "Sigmoid,Tanh");
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "2 activations");
  rc_setup(&k, &t, &in, dims);
  k.in[2].shape[1] = 4, k.in[2].shape[2] = 4;
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "LSTM: R[1,4,4] must be [1,8,2]");
  rc_setup(&k, &t, &in, dims);
  k.in[0].dtype = HOLO_DT_F64;
  k.in[0].bytes *= 2;
  kt_expect_fail(&k, HOLO_ERR_UNSUPPORTED, "f32 only");
  rc_setup(&k, &t, &in, dims);
  kt_absent(&k, 2);
  kt_expect_fail(&k, HOLO_ERR_KERNEL, "LSTM");
  rc_free(&in);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lstm),
      cmocka_unit_test(test_gru),
      cmocka_unit_test(test_rnn),
      cmocka_unit_test(test_recurrent_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
