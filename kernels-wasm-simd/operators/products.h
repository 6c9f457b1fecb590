/* What the product operators (matmul.c: MatMul, Gemm, holo.MatMulPacked;
 * conv2d.c: Conv) share on top of the GEMM core (microkernels/gemm.h): the
 * fused activation attributes, the core's and A packing's split into tasks
 * over the backend's threading hook, and the header of a weight packed once
 * per session. */
#ifndef HOLOGRAM_KERNELS_PRODUCTS_H
#define HOLOGRAM_KERNELS_PRODUCTS_H

#include "hologram/backend.h"
#include "microkernels/gemm.h"

/* The fused epilogue activation of Gemm, Conv, MatMul and holo.MatMulPacked
 * (docs/kernels.md): attribute holo_activation = "Relu", or "Clip" with
 * optional FLOAT attributes holo_clip_min / holo_clip_max (an absent bound
 * does not clip, as in Clip): g->relu / lo_on / lo / hi_on / hi, in the
 * core's epilogue. Or one of the elementwise activations "Sigmoid",
 * "holo.SiLU", "HardSwish", "HardSigmoid", "Gelu", "Tanh", whose
 * attributes are holo_activation_<name> (holo_activation_alpha, _beta,
 * _approximate): g->act / act_p, that operator's own kernel run over the
 * core's results (holo_gemm_act_apply), so the fused node's bytes are the
 * pair's. Any other value fails UNSUPPORTED naming op (gemm-epilogue.c). */
holo_status holo_k_gemm_act(holo_kernel_call *c, const char *op, holo_gemm *g);
/* g->act over n contiguous results at y, in place (nothing when g->act is 0). */
void holo_gemm_act_apply(const holo_gemm *g, float *y, size_t n);
/* g->act over the M x N block of g->C (row stride ldc). */
void holo_gemm_act_block(const holo_gemm *g);

/* The unary operators' table (unary.c), which the fused activations share:
 * the row of op (-1: none), its attributes read as `prefix` + name, and its
 * kernel over n elements (in place allowed). */
int holo_k_unary_row(const char *op);
holo_status holo_k_unary_attrs(holo_kernel_call *c, int row, const char *prefix, holo_vunary_params *p);
void holo_k_unary_apply(int row, const holo_vunary_params *p, size_t n, const float *x, float *y);

/* The backend's threading hook (holo_kernel_call.parallel_for). */
typedef void (*holo_gemm_parallel_for)(void *pctx, uint32_t n, void (*fn)(void *arg, uint32_t i), void *arg);

/* Computes g->C like holo_gemm_f32, split into independent tasks by a FIXED
 * rule that depends only on (M, N, K) — row blocks of HOLO_GEMM_PAR_ROWS,
 * else column blocks of HOLO_GEMM_PAR_COLS (whole panels), doubled until a
 * block holds HOLO_GEMM_PAR_MIN_TASK multiply-adds — each task a
 * holo_gemm_f32 on its sub-block, run through pf (feature `parallel`);
 * without pf, one holo_gemm_f32 call. Every element is computed by one task with
 * the order contract's operations, so the bytes never depend on the thread
 * count or on which thread ran what (gemm-tasks.c; tests/c/test_parallel.c). */
void holo_gemm_f32_par(const holo_gemm *g, holo_gemm_parallel_for pf, void *pctx);
#define HOLO_GEMM_PAR_ROWS 64
#define HOLO_GEMM_PAR_COLS 64 /* a multiple of every panel width: blocks are whole panels */
/* Below this many multiply-adds a GEMM is not split. */
#define HOLO_GEMM_PAR_MIN_WORK ((size_t)1 << 18)
/* Blocks are doubled until a task has at least this many multiply-adds. */
#define HOLO_GEMM_PAR_MIN_TASK ((size_t)1 << 18)

/* Packs g's A into dst (holo_gemm_packed_a_floats(M, K) floats) and sets
 * g->Ap; blocks of HOLO_GEMM_PAR_ROWS rows run as tasks through pf. Pure
 * data movement: no result byte depends on it. */
void holo_gemm_pack_a_par(holo_gemm *g, float *dst, holo_gemm_parallel_for pf, void *pctx);

/* ---- a weight packed once per session by its kernel's pack (backend.h
 * holo_pack_call, docs/decisions.md 32; packed-weights.c): a 64-byte
 * header naming the layout, then the floats. The kernel chooses the layout
 * from the shapes of the first execution that runs it; run reads it back
 * from the header, so any later shape is served (every layout gives the
 * same bytes). */
#define HOLO_GEMM_PACK_HDR 64
typedef enum holo_gemm_pack_kind {
  HOLO_GEMM_PACKED_B = 1, /* holo_gemm_pack_b_w panels of width w: rows K, cols N */
  HOLO_GEMM_PACKED_A = 2, /* holo_gemm_pack_a_par strips, one block per group: rows M, cols K */
  HOLO_GEMM_PACKED_IA = 3, /* the integer core's int16 A panels (igemm.h), one block per group: rows M, cols K */
  HOLO_GEMM_PACKED_IB = 4  /* the integer core's int16 B panels (igemm.h): rows K, cols N */
} holo_gemm_pack_kind;

/* The panel width for a product of M rows with a B packed once: 32-column
 * panels below the 4-row tile (each row streams one contiguous panel,
 * HOLO_GEMM_NR_WIDE) when N fills one, else the tile's 8. */
static inline size_t holo_gemm_panel_width(size_t M, size_t N) {
  return M < 4 && N >= HOLO_GEMM_NR_WIDE ? HOLO_GEMM_NR_WIDE : HOLO_GEMM_NR;
}
/* Bytes of a packed weight (header included) of `floats` floats; 0 when
 * that overflows (the kernel then keeps the weight as it is). */
static inline size_t holo_gemm_pack_bytes(size_t floats) {
  return floats > (SIZE_MAX - HOLO_GEMM_PACK_HDR) / sizeof(float) ? 0 : HOLO_GEMM_PACK_HDR + floats * sizeof(float);
}
/* Floats of a packed B of K x N in panels of w columns, 0 on overflow. */
size_t holo_gemm_packed_b_floats_checked(size_t K, size_t N, size_t w);
/* Writes the header (kind, w, rows, cols, groups); returns the floats after it. */
float *holo_gemm_pack_header(void *dst, holo_gemm_pack_kind kind, size_t w, size_t rows, size_t cols,
                             size_t groups);
/* The floats of a packed weight whose header says (kind, rows, cols,
 * groups), its width in *w; NULL when p is NULL or says otherwise. */
const float *holo_gemm_packed(const void *p, holo_gemm_pack_kind kind, size_t rows, size_t cols, size_t groups,
                              size_t *w);

#endif
