/* What the recurrent operators' two files share (recurrent.c: attributes,
 * shapes, infer and the weights' pack; recurrent-run.c: the projections
 * and the steps): the node's geometry, read the same way by infer, pack
 * and run. */
#ifndef HOLOGRAM_KERNELS_RECURRENT_H
#define HOLOGRAM_KERNELS_RECURRENT_H

#include "hologram/backend.h"
#include "microkernels/vunary.h"

typedef enum { RNN_KIND_RNN, RNN_KIND_GRU, RNN_KIND_LSTM } rnn_kind;

/* The activations of ONNX's recurrent ops: the unary operators' rows, and
 * the two that are no ONNX op of their own (alpha*x + beta, alpha*tanh(beta*x)). */
typedef enum { RNN_ACT_UNARY, RNN_ACT_AFFINE, RNN_ACT_SCALEDTANH } rnn_act_kind;
typedef struct rnn_act {
  rnn_act_kind kind;
  int row; /* the unary operators' row (Tanh for ScaledTanh) */
  holo_vunary_params p;
  float alpha, beta;
} rnn_act;

#define RNN_MAX_ACTS 6 /* 3 per direction (LSTM f, g, h), 2 directions */

typedef struct rnn_geom {
  rnn_kind kind;
  const char *op;
  size_t S, B, I, H; /* seq_length, batch_size, input_size, hidden_size */
  size_t G, D;       /* gates (1, 3, 4), directions (1, 2) */
  bool reverse0;     /* direction 0 runs backwards (direction = "reverse") */
  bool layout1;      /* layout = 1: batch first */
  bool has_clip, lbr, input_forget;
  float clip;
  size_t n_act; /* per direction */
  rnn_act act[RNN_MAX_ACTS];
} rnn_geom;

/* Validates every attribute and operand shape of the node (infer, pack and
 * run read it alike); fills g. Fails naming the op. */
holo_status holo_k_recurrent_geometry(holo_kernel_call *c, rnn_kind kind, rnn_geom *g);

/* The recurrent weight R of one direction is packed in segments of columns
 * (gates): GRU without linear_before_reset needs H*[Rz,Rr]^T before rt is
 * known and (rt (.) H)*Rh^T after; every other cell one product of all
 * gates. *n segments, their first columns and widths (in units of H). */
void holo_k_recurrent_r_segments(const rnn_geom *g, size_t *n, size_t first[2], size_t width[2]);

/* Floats of one direction's packed W (segments 1) or R in panels of w. */
size_t holo_k_recurrent_packed_floats(const rnn_geom *g, bool is_r, size_t w);
/* Packs one direction's W [G*H, I] or R [G*H, H] (row-major, B = its
 * transpose) into dst in panels of w, segment after segment. */
void holo_k_recurrent_pack_dir(const rnn_geom *g, bool is_r, const float *w_dir, size_t w, float *dst);
/* Panel widths: W's product has S*B rows, R's B rows (products.h). */
size_t holo_k_recurrent_panel_width(const rnn_geom *g, bool is_r);

/* The workspace run needs (bytes, saturating), given which weights arrived packed. */
size_t holo_k_recurrent_workspace(const holo_kernel_call *c, const rnn_geom *g, bool w_packed, bool r_packed);

holo_status holo_k_recurrent_run(holo_kernel_call *c, rnn_kind kind);

#endif
