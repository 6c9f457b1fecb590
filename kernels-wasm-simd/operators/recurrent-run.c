/* The run of LSTM, GRU and RNN (recurrent.c validates): per direction,
 * the input projection of every step at once, XW = X*W^T + Wb, one GEMM of
 * seq*batch rows on the GEMM core; then per step the recurrent product
 * HR = H*R^T + Rb (batch rows, serial: too small to split) and the cell's
 * elementwise steps (microkernels/rnncell.h) with the activations of the
 * unary operators. W and R run from the GEMM core's packed panels, packed
 * once per session (recurrent.c's pack) or, without it, once per call.
 *
 * A gate's pre-activation is (X*W^T + Wb) + (H*R^T + Rb), each product
 * summed in ascending k by the core's order contract: the bytes are the
 * GEMM core's class (registry-table.h GEMM_CLASS). The two directions of a
 * bidirectional node run as two tasks of the threading hook, each wholly by
 * one thread, so the bytes do not depend on the thread count.
 *
 * sequence_lens: a batch entry b of length L_b takes steps 0..L_b-1 (reverse:
 * L_b-1 down to 0); Y is 0 at its steps t >= L_b; its Y_h / Y_c are the
 * state after its last step (its initial state when L_b = 0). */
#include "common/shape.h"
#include "microkernels/gemm.h"
#include "microkernels/rnncell.h"
#include "operators/products.h"
#include "operators/recurrent.h"

/* Floats of one direction's scratch: h, c, rh, hh [B*H], hr [B*G*H], gates [G*H]. */
static uint64_t dir_scratch(const rnn_geom *g) {
  uint64_t bh = holo_k_mul_sat(g->B, g->H);
  return holo_k_mul_sat(bh, 4) + holo_k_mul_sat(bh, g->G) + (uint64_t)g->G * g->H;
}

/* Workspace regions in floats, in order: packed W, packed R, XW, packed X, scratch. */
typedef struct rnn_ws {
  uint64_t wpk, rpk, xw, ap, scr;
} rnn_ws;

static rnn_ws ws_plan(const rnn_geom *g, bool w_packed, bool r_packed) {
  rnn_ws w = {0};
  uint64_t D = g->D, SB = holo_k_mul_sat(g->S, g->B);
  if (g->H && g->I && !w_packed) {
    size_t f = holo_k_recurrent_packed_floats(g, false, holo_k_recurrent_panel_width(g, false));
    w.wpk = f ? holo_k_mul_sat(D, f) : UINT64_MAX;
  }
  if (g->H && !r_packed) {
    size_t f = holo_k_recurrent_packed_floats(g, true, holo_k_recurrent_panel_width(g, true));
    w.rpk = f ? holo_k_mul_sat(D, f) : UINT64_MAX;
  }
  w.xw = holo_k_mul_sat(holo_k_mul_sat(D, SB), (uint64_t)g->G * g->H);
  if (g->H && holo_gemm_wants_packed_a(SB, g->G * g->H, g->I)) w.ap = holo_k_mul_sat((SB + 3) / 4 * 4, g->I);
  w.scr = holo_k_mul_sat(D, dir_scratch(g));
  return w;
}

size_t holo_k_recurrent_workspace(const holo_kernel_call *c, const rnn_geom *g, bool w_packed,
                                  bool r_packed) {
  (void)c;
  rnn_ws w = ws_plan(g, w_packed, r_packed);
  uint64_t t = 0, parts[5] = {w.wpk, w.rpk, w.xw, w.ap, w.scr};
  for (int i = 0; i < 5; i++) {
    if (parts[i] > UINT64_MAX - t) return SIZE_MAX;
    t += parts[i];
  }
  if (t > (SIZE_MAX - 64) / sizeof(float)) return SIZE_MAX;
  return (size_t)t * sizeof(float);
}

/* What a direction's steps read: the packed weights and the projections. */
typedef struct rnn_job {
  holo_kernel_call *c;
  const rnn_geom *g;
  const float *rp; /* packed R, all directions */
  size_t rw, r_per;
  float *xw, *scr;
} rnn_job;

static size_t seq_len(const holo_kernel_call *c, const rnn_geom *g, size_t b) {
  if (c->n_inputs <= 4 || c->inputs[4].dtype == 0) return g->S;
  int32_t v = ((const int32_t *)c->inputs[4].data)[b];
  return v < 0 ? 0 : (size_t)v > g->S ? g->S : (size_t)v;
}

static const float *opt_input(const holo_kernel_call *c, uint32_t i) {
  return i < c->n_inputs && c->inputs[i].dtype ? c->inputs[i].data : 0;
}

/* Clip (when set), then activation k of direction d, over y in place. */
static void activate(const rnn_geom *g, size_t d, size_t k, size_t n, float *y) {
  const rnn_act *a = &g->act[d * g->n_act + k];
  if (g->has_clip) holo_ukernel_rnn_clip_f32__scalar(n, g->clip, y);
  switch (a->kind) {
  case RNN_ACT_AFFINE: holo_ukernel_rnn_affine_f32__scalar(n, a->alpha, a->beta, y); break;
  case RNN_ACT_SCALEDTANH:
    holo_ukernel_rnn_scale_f32__scalar(n, a->beta, y);
    holo_k_unary_apply(a->row, &a->p, n, y, y);
    holo_ukernel_rnn_scale_f32__scalar(n, a->alpha, y);
    break;
  default: holo_k_unary_apply(a->row, &a->p, n, y, y); break;
  }
}

/* C [M, N] = A [M, K] * B + bias, B packed in panels of w: serial. */
static void small_gemm(const float *A, size_t M, size_t K, const float *Bp, size_t w, size_t N,
                       const float *bias, float *C) {
  holo_gemm q = {0};
  q.M = M, q.N = N, q.K = K, q.A = A, q.rsa = K, q.csa = 1, q.Bp = Bp, q.bpw = w, q.C = C, q.ldc = N;
  if (bias) q.bias = bias, q.bcs = 1;
  holo_gemm_f32(&q);
}

/* One LSTM step of batch row b: gates i, o, f, c of gt; state c, h. */
static void lstm_cell(const rnn_job *J, size_t d, const float *xw, const float *hr, float *gt, float *cs,
                      float *h) {
  const rnn_geom *g = J->g;
  size_t H = g->H;
  const float *P = opt_input(J->c, 7);
  const float *Pi = P ? P + d * 3 * H : 0, *Po = Pi ? Pi + H : 0, *Pf = Pi ? Pi + 2 * H : 0;
  float *gi = gt, *go = gt + H, *gf = gt + 2 * H, *gc = gt + 3 * H;
  holo_ukernel_rnn_add_f32__scalar(4 * H, xw, hr, gt);
  if (Pi) holo_ukernel_rnn_addmul_f32__scalar(H, Pi, cs, gi);
  activate(g, d, 0, H, gi);
  if (g->input_forget) {
    holo_ukernel_rnn_oneminus_f32__scalar(H, gi, gf);
  } else {
    if (Pf) holo_ukernel_rnn_addmul_f32__scalar(H, Pf, cs, gf);
    activate(g, d, 0, H, gf);
  }
  activate(g, d, 1, H, gc);
  holo_ukernel_rnn_lstmcell_f32__scalar(H, gf, gi, gc, cs);
  if (Po) holo_ukernel_rnn_addmul_f32__scalar(H, Po, cs, go);
  activate(g, d, 0, H, go);
  for (size_t k = 0; k < H; k++)
    gc[k] = cs[k];
  activate(g, d, 2, H, gc);
  holo_ukernel_rnn_mul_f32__scalar(H, go, gc, h);
}

/* The time index batch row b reads at step s of direction d, or S when b is done. */
static size_t step_time(const rnn_job *J, size_t d, size_t b, size_t s) {
  size_t L = seq_len(J->c, J->g, b);
  if (s >= L) return J->g->S;
  return (d == 1 || J->g->reverse0) ? L - 1 - s : s;
}

static size_t xw_row(const rnn_geom *g, size_t t, size_t b) {
  return g->layout1 ? b * g->S + t : t * g->B + b;
}
static size_t hd_off(const rnn_geom *g, size_t d, size_t b) {
  return (g->layout1 ? b * g->D + d : d * g->B + b) * g->H;
}

/* The GRU step without linear_before_reset: z, r from hr (in place), then
 * (r (.) H)*Rh^T + Rbh, then the state. */
static void gru_step(const rnn_job *J, size_t d, size_t s, float *h, float *hr, float *gt, float *rh,
                     float *hh) {
  const rnn_geom *g = J->g;
  size_t H = g->H, GH = g->G * H, B = g->B;
  const float *xw = J->xw + d * g->S * B * GH, *Bias = opt_input(J->c, 3);
  for (size_t b = 0; b < B; b++) {
    size_t t = step_time(J, d, b, s);
    float *z = hr + b * 2 * H;
    if (t == g->S) {
      for (size_t k = 0; k < H; k++)
        rh[b * H + k] = 0;
      continue;
    }
    holo_ukernel_rnn_add_f32__scalar(2 * H, xw + xw_row(g, t, b) * GH, z, z);
    activate(g, d, 0, 2 * H, z);
    holo_ukernel_rnn_mul_f32__scalar(H, z + H, h + b * H, rh + b * H);
  }
  const float *rp = J->rp + d * J->r_per + holo_gemm_packed_floats_w(H, 2 * H, J->rw);
  small_gemm(rh, B, H, rp, J->rw, H, Bias ? Bias + d * 2 * GH + GH + 2 * H : 0, hh);
  for (size_t b = 0; b < B; b++) {
    size_t t = step_time(J, d, b, s);
    if (t == g->S) continue;
    holo_ukernel_rnn_add_f32__scalar(H, xw + xw_row(g, t, b) * GH + 2 * H, hh + b * H, gt);
    activate(g, d, 1, H, gt);
    holo_ukernel_rnn_grumerge_f32__scalar(H, hr + b * 2 * H, gt, h + b * H);
  }
}

/* The cell of batch row b at time t for RNN, GRU with linear_before_reset, LSTM. */
static void cell(const rnn_job *J, size_t d, const float *xw, const float *hr, float *gt, float *cs,
                 float *h) {
  const rnn_geom *g = J->g;
  size_t H = g->H;
  if (g->kind == RNN_KIND_LSTM) {
    lstm_cell(J, d, xw, hr, gt, cs, h);
  } else if (g->kind == RNN_KIND_RNN) {
    holo_ukernel_rnn_add_f32__scalar(H, xw, hr, h);
    activate(g, d, 0, H, h);
  } else {
    holo_ukernel_rnn_add_f32__scalar(2 * H, xw, hr, gt);
    activate(g, d, 0, 2 * H, gt);
    holo_ukernel_rnn_gatedadd_f32__scalar(H, xw + 2 * H, gt + H, hr + 2 * H, gt + 2 * H);
    activate(g, d, 1, H, gt + 2 * H);
    holo_ukernel_rnn_grumerge_f32__scalar(H, gt, gt + 2 * H, h);
  }
}

/* The initial state of direction d (or zeros) into h [B*H]. */
static void init_state(const rnn_job *J, size_t d, uint32_t idx, float *h) {
  const rnn_geom *g = J->g;
  const float *h0 = opt_input(J->c, idx);
  for (size_t b = 0; b < g->B; b++)
    for (size_t k = 0; k < g->H; k++)
      h[b * g->H + k] = h0 ? h0[hd_off(g, d, b) + k] : 0.0f;
}

static void run_dir(const rnn_job *J, size_t d) {
  const rnn_geom *g = J->g;
  holo_kernel_call *c = J->c;
  size_t H = g->H, GH = g->G * H, B = g->B, S = g->S, smax = 0;
  float *h = J->scr + d * dir_scratch(g), *cs = h + B * H, *rh = cs + B * H, *hh = rh + B * H;
  float *hr = hh + B * H, *gt = hr + B * GH;
  const float *xw = J->xw + d * S * B * GH, *Bias = opt_input(c, 3), *rp = J->rp + d * J->r_per;
  float *Y = c->outputs[0].data;
  init_state(J, d, 5, h);
  init_state(J, d, 6, cs); /* zeros unless LSTM has initial_c */
  for (size_t b = 0; b < B; b++)
    smax = seq_len(c, g, b) > smax ? seq_len(c, g, b) : smax;
  size_t n1 = g->kind == RNN_KIND_GRU && !g->lbr ? 2 * H : GH;
  for (size_t s = 0; s < smax; s++) {
    small_gemm(h, B, H, rp, J->rw, n1, Bias ? Bias + d * 2 * GH + GH : 0, hr);
    if (n1 != GH) gru_step(J, d, s, h, hr, gt, rh, hh);
    for (size_t b = 0; b < B; b++) {
      size_t t = step_time(J, d, b, s);
      if (t == S) continue;
      if (n1 == GH) cell(J, d, xw + xw_row(g, t, b) * GH, hr + b * GH, gt, cs + b * H, h + b * H);
      float *y = Y + (g->layout1 ? (b * S + t) * g->D + d : (t * g->D + d) * B + b) * H;
      for (size_t k = 0; k < H; k++)
        y[k] = h[b * H + k];
    }
  }
  for (uint32_t o = 1; o < c->n_outputs; o++)
    for (size_t b = 0; b < B; b++)
      for (size_t k = 0; k < H; k++)
        ((float *)c->outputs[o].data)[hd_off(g, d, b) + k] = (o == 1 ? h : cs)[b * H + k];
}

static void dir_task(void *arg, uint32_t d) { run_dir(arg, d); }

/* XW of every direction: X [S*B rows in memory order, I] times W_d^T + Wb_d. */
static void project(holo_kernel_call *c, const rnn_geom *g, const float *wp, size_t ww, size_t w_per,
                    float *ap, float *xw) {
  size_t SB = g->S * g->B, GH = g->G * g->H;
  const float *Bias = opt_input(c, 3);
  if (SB == 0) return;
  if (g->I == 0) { /* no product: the bias alone */
    for (size_t d = 0; d < g->D; d++)
      for (size_t r = 0; r < SB; r++)
        for (size_t j = 0; j < GH; j++)
          xw[(d * SB + r) * GH + j] = Bias ? Bias[d * 2 * GH + j] : 0.0f;
    return;
  }
  holo_gemm q = {0};
  q.M = SB, q.N = GH, q.K = g->I, q.A = c->inputs[0].data, q.rsa = g->I, q.csa = 1, q.bpw = ww, q.ldc = GH;
  q.bcs = 1;
  if (ap && holo_gemm_wants_packed_a(SB, GH, g->I)) holo_gemm_pack_a_par(&q, ap, c->parallel_for, c->pctx);
  for (size_t d = 0; d < g->D; d++) {
    q.Bp = wp + d * w_per;
    q.C = xw + d * SB * GH;
    q.bias = Bias ? Bias + d * 2 * GH : 0;
    holo_gemm_f32_par(&q, c->parallel_for, c->pctx);
  }
}

/* The packed weight of input idx (from the session's pack, else packed
 * into dst now); its panel width and per-direction floats. */
static const float *weights(holo_kernel_call *c, const rnn_geom *g, uint32_t idx, float *dst, size_t *w,
                            size_t *per) {
  bool is_r = idx == 2;
  size_t K = is_r ? g->H : g->I;
  const float *p =
      c->packed ? holo_gemm_packed(c->packed[idx], HOLO_GEMM_PACKED_B, K, g->G * g->H, g->D, w) : 0;
  if (!p) {
    *w = holo_k_recurrent_panel_width(g, is_r);
    *per = holo_k_recurrent_packed_floats(g, is_r, *w);
    const float *src = c->inputs[idx].data;
    for (size_t d = 0; d < g->D; d++)
      holo_k_recurrent_pack_dir(g, is_r, src + d * g->G * g->H * K, *w, dst + d * *per);
    return dst;
  }
  *per = holo_k_recurrent_packed_floats(g, is_r, *w);
  return p;
}

holo_status holo_k_recurrent_run(holo_kernel_call *c, rnn_kind kind) {
  rnn_geom g;
  if (holo_k_recurrent_geometry(c, kind, &g)) return HOLO_ERR_KERNEL;
  float *Y = c->outputs[0].data;
  size_t ny = holo_k_prod(c->outputs[0].shape, 0, 4);
  for (size_t i = 0; i < ny; i++)
    Y[i] = 0.0f; /* Y is 0 past each batch entry's length */
  if (g.H == 0 || g.B == 0) return HOLO_OK;
  size_t ww = 0, rw = 0, w_per = 0, r_per = 0;
  bool wp0 = c->packed && c->packed[1], rp0 = c->packed && c->packed[2];
  rnn_ws P = ws_plan(&g, wp0 && holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_B, g.I, g.G * g.H, g.D, &ww),
                     rp0 && holo_gemm_packed(c->packed[2], HOLO_GEMM_PACKED_B, g.H, g.G * g.H, g.D, &rw));
  float *ws = c->workspace;
  const float *wp = g.I ? weights(c, &g, 1, ws, &ww, &w_per) : 0;
  const float *rp = weights(c, &g, 2, ws + P.wpk, &rw, &r_per);
  float *xw = ws + P.wpk + P.rpk, *ap = P.ap ? xw + P.xw : 0;
  rnn_job J = {c, &g, rp, rw, r_per, xw, xw + P.xw + P.ap};
  project(c, &g, wp, ww, w_per, ap, xw);
  if (g.D == 2 && c->parallel_for)
    c->parallel_for(c->pctx, 2, dir_task, &J);
  else
    for (size_t d = 0; d < g.D; d++)
      run_dir(&J, d);
  return HOLO_OK;
}
