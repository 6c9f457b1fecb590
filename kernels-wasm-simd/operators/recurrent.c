/* LSTM, GRU and RNN (ONNX opsets 1 to 22, as the converter writes them
 * out: compiler/onnx-ops-rnn.js): their attributes, operand shapes, infer,
 * and the pack of the weights W and R into the GEMM core's panels once per
 * session (backend.h holo_pack_call, docs/decisions.md 32). The steps are
 * recurrent-run.c's.
 *
 * Inputs X, W, R, B?, sequence_lens?, initial_h? (and initial_c?, P? for
 * LSTM); outputs Y, Y_h (and Y_c). Attributes: hidden_size (required; the
 * converter writes it from R when the model leaves it out), direction
 * ("forward", "reverse", "bidirectional"), layout (0: [seq, batch, ...],
 * 1: batch first), clip (absent: none; must be >= 0), activations (one
 * STRING, the names joined by ',': per direction f (RNN); f, g (GRU);
 * f, g, h (LSTM)), activation_alpha / activation_beta (FLOATS, one per
 * activation, the converter's reading of ONNX's "consumed in order"; absent:
 * each activation's ONNX default), linear_before_reset (GRU), input_forget
 * (LSTM). f32 only (the spec also allows f16 and f64: refused with a
 * message). sequence_lens values must lie in [0, seq_length]; an entry of
 * length 0 keeps its initial state as Y_h / Y_c (docs/decisions.md). */
#include "operators/recurrent.h"
#include "common/check.h"
#include "common/shape.h"
#include "operators/operators.h"
#include "operators/products.h"

static const char *const OP_NAMES[] = {"RNN", "GRU", "LSTM"};
static const size_t GATES[] = {1, 3, 4};

static const struct {
  const char *name;
  rnn_act_kind kind;
  const char *unary; /* the unary operators' row */
  float alpha, beta; /* ONNX's defaults */
} ACTS[] = {
    {"Relu", RNN_ACT_UNARY, "Relu", 0, 0},
    {"Tanh", RNN_ACT_UNARY, "Tanh", 0, 0},
    {"Sigmoid", RNN_ACT_UNARY, "Sigmoid", 0, 0},
    {"Affine", RNN_ACT_AFFINE, "Tanh", 1.0f, 0.0f},
    {"LeakyRelu", RNN_ACT_UNARY, "LeakyRelu", 0.01f, 0},
    {"ThresholdedRelu", RNN_ACT_UNARY, "ThresholdedRelu", 1.0f, 0},
    {"ScaledTanh", RNN_ACT_SCALEDTANH, "Tanh", 1.0f, 1.0f},
    {"HardSigmoid", RNN_ACT_UNARY, "HardSigmoid", 0.2f, 0.5f},
    {"Elu", RNN_ACT_UNARY, "Elu", 1.0f, 0},
    {"Softsign", RNN_ACT_UNARY, "Softsign", 0, 0},
    {"Softplus", RNN_ACT_UNARY, "Softplus", 0, 0},
};
#define N_ACTS (sizeof ACTS / sizeof ACTS[0])

static int act_index(const uint8_t *s, size_t n) {
  for (size_t i = 0; i < N_ACTS; i++) {
    size_t k = 0;
    while (k < n && ACTS[i].name[k] && ACTS[i].name[k] == (char)s[k])
      k++;
    if (k == n && !ACTS[i].name[k]) return (int)i;
  }
  return -1;
}

/* The activations attribute, else the op's defaults, with their alpha/beta. */
static holo_status rnn_acts(holo_kernel_call *c, rnn_geom *g) {
  static const int dflt[3][3] = {{1}, {2, 1}, {2, 1, 1}}; /* Tanh; Sigmoid, Tanh; Sigmoid, Tanh, Tanh */
  size_t total = g->n_act * g->D;
  int idx[RNN_MAX_ACTS];
  const holo_attr *a = holo_attr_find(c, "activations");
  if (a && a->type != HOLO_ATTR_STRING)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: activations must be one STRING of names joined by ','",
                       g->op);
  size_t n = 0, start = 0;
  for (size_t i = 0; a && i <= a->count; i++) {
    if (i < a->count && a->payload[i] != ',') continue;
    int k = n < RNN_MAX_ACTS ? act_index(a->payload + start, i - start) : -1;
    if (k < 0)
      return holo_k_fail(c, HOLO_ERR_UNSUPPORTED,
                         "%s: activation %zu of '%.*s' is not one ONNX defines (or one too many)", g->op, n,
                         (int)a->count, (const char *)a->payload);
    idx[n++] = k;
    start = i + 1;
  }
  if (a && n != total)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %zu activations for %zu direction(s), expected %zu", g->op, n,
                       g->D, total);
  for (size_t i = 0; !a && i < total; i++)
    idx[i] = dflt[g->kind][i % g->n_act];
  float al[RNN_MAX_ACTS], be[RNN_MAX_ACTS];
  int32_t na = holo_attr_floats(c, "activation_alpha", al, RNN_MAX_ACTS);
  int32_t nb = holo_attr_floats(c, "activation_beta", be, RNN_MAX_ACTS);
  if ((na >= 0 && (size_t)na != total) || (nb >= 0 && (size_t)nb != total))
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "%s: activation_alpha/activation_beta need one value per activation (%zu)", g->op,
                       total);
  for (size_t i = 0; i < total; i++) {
    rnn_act *t = &g->act[i];
    t->kind = ACTS[idx[i]].kind;
    t->row = holo_k_unary_row(ACTS[idx[i]].unary);
    t->alpha = na >= 0 ? al[i] : ACTS[idx[i]].alpha;
    t->beta = nb >= 0 ? be[i] : ACTS[idx[i]].beta;
    t->p = (holo_vunary_params){.alpha = t->alpha, .beta = t->beta};
  }
  return HOLO_OK;
}

static holo_status rnn_attrs(holo_kernel_call *c, rnn_geom *g) {
  const char *op = g->op;
  int64_t hs = holo_attr_int(c, "hidden_size", -1), layout = holo_attr_int(c, "layout", 0);
  if (hs < 0) return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: attribute hidden_size is required (>= 0)", op);
  if (layout != 0 && layout != 1)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: layout must be 0 or 1, got %lld", op, (long long)layout);
  g->H = (size_t)hs;
  g->layout1 = layout == 1;
  const holo_attr *d = holo_attr_find(c, "direction");
  g->D = 1;
  g->reverse0 = false;
  if (!d || holo_attr_string_is(c, "direction", "forward")) {
  } else if (holo_attr_string_is(c, "direction", "reverse")) {
    g->reverse0 = true;
  } else if (holo_attr_string_is(c, "direction", "bidirectional")) {
    g->D = 2;
  } else {
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: direction must be forward, reverse or bidirectional", op);
  }
  const holo_attr *cl = holo_attr_find(c, "clip");
  g->has_clip = cl != 0;
  g->clip = holo_attr_float(c, "clip", 0);
  if (cl && (cl->type != HOLO_ATTR_FLOAT || !(g->clip >= 0)))
    return holo_k_fail(c, HOLO_ERR_KERNEL,
                       "%s: clip must be a FLOAT >= 0 (ONNX defines no negative threshold)", op);
  int64_t lbr = holo_attr_int(c, "linear_before_reset", 0), inf = holo_attr_int(c, "input_forget", 0);
  if ((lbr != 0 && lbr != 1) || (inf != 0 && inf != 1))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: linear_before_reset/input_forget must be 0 or 1", op);
  g->lbr = g->kind == RNN_KIND_GRU && lbr;
  g->input_forget = g->kind == RNN_KIND_LSTM && inf;
  return rnn_acts(c, g);
}

/* Input idx is absent, or f32 (i32 for sequence_lens) of exactly this shape. */
static holo_status rnn_operand(holo_kernel_call *c, const rnn_geom *g, uint32_t idx, const char *name,
                               uint32_t rank, const int64_t *want) {
  char s1[HOLO_K_SHAPE_STR], s2[HOLO_K_SHAPE_STR];
  if (holo_k_absent(c, idx)) return HOLO_OK;
  holo_status st = holo_k_check_input(c, g->op, idx, idx == 4 ? HOLO_DT_I32 : HOLO_DT_F32);
  if (st) return st;
  const holo_tensor *t = &c->inputs[idx];
  bool ok = t->rank == rank;
  for (uint32_t i = 0; ok && i < rank; i++)
    ok = t->shape[i] == want[i];
  if (!ok)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: %s%s must be %s", g->op, name,
                       holo_k_shape_str(s1, t->shape, t->rank), holo_k_shape_str(s2, want, rank));
  return HOLO_OK;
}

static holo_status rnn_shapes(holo_kernel_call *c, rnn_geom *g) {
  char s1[HOLO_K_SHAPE_STR];
  const holo_tensor *x = &c->inputs[0];
  holo_status st;
  if ((st = holo_k_check_input(c, g->op, 0, 0))) return st;
  if (x->dtype != HOLO_DT_F32)
    return holo_k_fail(c, HOLO_ERR_UNSUPPORTED, "%s: X is %s; this backend runs f32 only (not f16/f64)",
                       g->op, holo_k_dtype_name(x->dtype));
  if (x->rank != 3)
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: X%s must be 3-D", g->op,
                       holo_k_shape_str(s1, x->shape, x->rank));
  g->S = (size_t)x->shape[g->layout1 ? 1 : 0];
  g->B = (size_t)x->shape[g->layout1 ? 0 : 1];
  g->I = (size_t)x->shape[2];
  int64_t D = (int64_t)g->D, GH = (int64_t)(g->G * g->H), B = (int64_t)g->B, H = (int64_t)g->H;
  if (GH / (int64_t)g->G != H) return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: hidden_size is too large", g->op);
  int64_t w[3] = {D, GH, (int64_t)g->I}, r[3] = {D, GH, H}, b[2] = {D, 2 * GH}, sl[1] = {B};
  int64_t h0[3] = {g->layout1 ? B : D, g->layout1 ? D : B, H}, p[2] = {D, 3 * H};
  if (holo_k_absent(c, 1) || holo_k_absent(c, 2))
    return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: inputs W and R are required", g->op);
  if ((st = rnn_operand(c, g, 1, "W", 3, w)) || (st = rnn_operand(c, g, 2, "R", 3, r)) ||
      (st = rnn_operand(c, g, 3, "B", 2, b)) || (st = rnn_operand(c, g, 4, "sequence_lens", 1, sl)) ||
      (st = rnn_operand(c, g, 5, "initial_h", 3, h0)))
    return st;
  if (g->kind == RNN_KIND_LSTM &&
      ((st = rnn_operand(c, g, 6, "initial_c", 3, h0)) || (st = rnn_operand(c, g, 7, "P", 2, p))))
    return st;
  const holo_tensor *t = &c->inputs[4];
  for (size_t i = 0; !holo_k_absent(c, 4) && t->data && i < g->B; i++) {
    int32_t v = ((const int32_t *)t->data)[i];
    if (v < 0 || (size_t)v > g->S)
      return holo_k_fail(c, HOLO_ERR_KERNEL, "%s: sequence_lens[%zu] = %d is outside [0, %zu]", g->op, i,
                         (int)v, g->S);
  }
  return HOLO_OK;
}

holo_status holo_k_recurrent_geometry(holo_kernel_call *c, rnn_kind kind, rnn_geom *g) {
  *g = (rnn_geom){.kind = kind, .op = OP_NAMES[kind], .G = GATES[kind], .n_act = (size_t)kind + 1};
  holo_status st;
  if ((st = rnn_attrs(c, g))) return st;
  return rnn_shapes(c, g);
}

void holo_k_recurrent_r_segments(const rnn_geom *g, size_t *n, size_t first[2], size_t width[2]) {
  if (g->kind == RNN_KIND_GRU && !g->lbr) {
    *n = 2;
    first[0] = 0, width[0] = 2, first[1] = 2, width[1] = 1;
  } else {
    *n = 1;
    first[0] = 0, width[0] = g->G;
  }
}

size_t holo_k_recurrent_panel_width(const rnn_geom *g, bool is_r) {
  return holo_gemm_panel_width(is_r ? g->B : g->S * g->B, g->H);
}

size_t holo_k_recurrent_packed_floats(const rnn_geom *g, bool is_r, size_t w) {
  size_t n = 1, first[2] = {0}, width[2] = {g->G}, total = 0;
  if (is_r) holo_k_recurrent_r_segments(g, &n, first, width);
  for (size_t s = 0; s < n; s++) {
    size_t f = holo_gemm_packed_b_floats_checked(is_r ? g->H : g->I, width[s] * g->H, w);
    if (!f || total > SIZE_MAX - f) return 0;
    total += f;
  }
  return total;
}

void holo_k_recurrent_pack_dir(const rnn_geom *g, bool is_r, const float *w_dir, size_t w, float *dst) {
  size_t n = 1, first[2] = {0}, width[2] = {g->G};
  size_t K = is_r ? g->H : g->I;
  if (is_r) holo_k_recurrent_r_segments(g, &n, first, width);
  for (size_t s = 0; s < n; s++) {
    size_t N = width[s] * g->H;
    holo_gemm_pack_b_w(dst, w_dir + first[s] * g->H * K, 1, K, K, N, w);
    dst += holo_gemm_packed_floats_w(K, N, w);
  }
}

/* W (input 1) or R (input 2) in panels, for every direction (header: rows
 * K, cols G*H, groups D); whatever infer would refuse is left alone. */
static holo_status rnn_pack(holo_pack_call *p, rnn_kind kind) {
  rnn_geom g;
  if ((p->input != 1 && p->input != 2) || holo_k_recurrent_geometry(p->call, kind, &g)) return HOLO_OK;
  bool is_r = p->input == 2;
  size_t K = is_r ? g.H : g.I, w = holo_k_recurrent_panel_width(&g, is_r),
         per = holo_k_recurrent_packed_floats(&g, is_r, w);
  if (K == 0 || g.H == 0 || !per || per > SIZE_MAX / g.D) return HOLO_OK;
  if (!p->dst) {
    p->bytes = holo_gemm_pack_bytes(per * g.D);
    return HOLO_OK;
  }
  float *dst = holo_gemm_pack_header(p->dst, HOLO_GEMM_PACKED_B, w, K, g.G * g.H, g.D);
  const float *src = p->call->inputs[p->input].data;
  for (size_t d = 0; d < g.D; d++)
    holo_k_recurrent_pack_dir(&g, is_r, src + d * g.G * g.H * K, w, dst + d * per);
  return HOLO_OK;
}

static holo_status rnn_infer(holo_kernel_call *c, rnn_kind kind) {
  rnn_geom g;
  holo_status st;
  const char *op = OP_NAMES[kind];
  if ((st = holo_k_infer_begin(c, op, 3, kind == RNN_KIND_LSTM ? 8 : 6, kind == RNN_KIND_LSTM ? 3 : 2)))
    return st;
  if ((st = holo_k_recurrent_geometry(c, kind, &g))) return st;
  size_t wpw, rpw;
  bool wp = c->packed && holo_gemm_packed(c->packed[1], HOLO_GEMM_PACKED_B, g.I, g.G * g.H, g.D, &wpw);
  bool rp = c->packed && holo_gemm_packed(c->packed[2], HOLO_GEMM_PACKED_B, g.H, g.G * g.H, g.D, &rpw);
  c->workspace_bytes = holo_k_recurrent_workspace(c, &g, wp, rp);
  if (c->workspace_bytes == SIZE_MAX)
    return holo_k_fail(c, HOLO_ERR_LIMIT, "%s: the operands are too large", op);
  uint64_t f1[5] = {g.D, g.S, g.B, g.G * g.H, g.I + g.H + 8};
  c->work = holo_k_work(5, f1);
  int64_t D = (int64_t)g.D, S = (int64_t)g.S, B = (int64_t)g.B, H = (int64_t)g.H;
  int64_t y0[4] = {S, D, B, H}, y1[4] = {B, S, D, H}, h0[3] = {D, B, H}, h1[3] = {B, D, H};
  if ((st = holo_k_set_output(c, op, 0, HOLO_DT_F32, 4, g.layout1 ? y1 : y0))) return st;
  for (uint32_t k = 1; k < c->n_outputs; k++)
    if ((st = holo_k_set_output(c, op, k, HOLO_DT_F32, 3, g.layout1 ? h1 : h0))) return st;
  return HOLO_OK;
}

holo_status holo_k_rnn_infer(holo_kernel_call *c) { return rnn_infer(c, RNN_KIND_RNN); }
holo_status holo_k_gru_infer(holo_kernel_call *c) { return rnn_infer(c, RNN_KIND_GRU); }
holo_status holo_k_lstm_infer(holo_kernel_call *c) { return rnn_infer(c, RNN_KIND_LSTM); }
holo_status holo_k_rnn_run(holo_kernel_call *c) { return holo_k_recurrent_run(c, RNN_KIND_RNN); }
holo_status holo_k_gru_run(holo_kernel_call *c) { return holo_k_recurrent_run(c, RNN_KIND_GRU); }
holo_status holo_k_lstm_run(holo_kernel_call *c) { return holo_k_recurrent_run(c, RNN_KIND_LSTM); }
holo_status holo_k_rnn_pack(holo_pack_call *p) { return rnn_pack(p, RNN_KIND_RNN); }
holo_status holo_k_gru_pack(holo_pack_call *p) { return rnn_pack(p, RNN_KIND_GRU); }
holo_status holo_k_lstm_pack(holo_pack_call *p) { return rnn_pack(p, RNN_KIND_LSTM); }
