/* What the product operators (matmul.c: MatMul, Gemm, holo.MatMulPacked;
 * conv2d.c: Conv) share on top of the GEMM core (microkernels/gemm.h): the
 * fused activation attributes, and the core's and A packing's split into
 * tasks over the backend's threading hook. */
#ifndef HOLOGRAM_KERNELS_PRODUCTS_H
#define HOLOGRAM_KERNELS_PRODUCTS_H

#include "hologram/backend.h"
#include "microkernels/gemm.h"

/* The fused epilogue activation of Gemm, Conv, MatMul and holo.MatMulPacked
 * (docs/kernels.md): attribute holo_activation = "Relu", or "Clip" with
 * optional FLOAT attributes holo_clip_min / holo_clip_max (an absent bound
 * does not clip, as in Clip). Sets g->relu / lo_on / lo / hi_on / hi; any
 * other value fails UNSUPPORTED naming op (gemm-epilogue.c). */
holo_status holo_k_gemm_act(holo_kernel_call *c, const char *op, holo_gemm *g);

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

#endif
