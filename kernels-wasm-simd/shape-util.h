/* Helpers shared by the scalar kernels: operand validation with messages,
 * shapes, strides, numpy-style broadcasting and 2-D window geometry.
 * Freestanding. */
#ifndef HOLOGRAM_KERNELS_SHAPE_UTIL_H
#define HOLOGRAM_KERNELS_SHAPE_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hologram/backend.h"

/* Kernels never fuse multiply-add: a fused result would differ in its last
 * bit between targets, and the bytes enter content labels. (gcc contracts
 * in -std=gnu* modes and clang by default once FMA is available.) */
#if defined(__clang__)
#pragma clang fp contract(off)
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

/* Room for "[" + 8 signed 64-bit dims + "]". */
#define HOLO_K_SHAPE_STR 200

/* a * b, or UINT64_MAX when it does not fit. By 32-bit halves: the usual
 * `a > UINT64_MAX / b` test becomes a 128-bit multiply (__multi3), which the
 * wasm builds do not link. */
static inline uint64_t holo_k_mul_sat(uint64_t a, uint64_t b) {
  if (a < b) {
    uint64_t t = a;
    a = b;
    b = t;
  }
  if (b >> 32) return UINT64_MAX; /* both >= 2^32 */
  uint64_t hi = (a >> 32) * b, lo = (a & 0xffffffffu) * b;
  if (hi >> 32) return UINT64_MAX;
  uint64_t r = (hi << 32) + lo;
  return r < lo ? UINT64_MAX : r;
}

/* The product of n factors, saturating: a kernel's work estimate
 * (holo_kernel_call.work) multiplies attribute-sized numbers. */
static inline uint64_t holo_k_work(uint32_t n, const uint64_t *f) {
  uint64_t w = 1;
  for (uint32_t i = 0; i < n; i++) w = holo_k_mul_sat(w, f[i]);
  return w;
}

/* Writes the message into call->msg and returns st. */
holo_status holo_k_fail(holo_kernel_call *c, holo_status st, const char *fmt, ...);

/* "[2,3,4]" into buf (HOLO_K_SHAPE_STR bytes); returns buf. */
const char *holo_k_shape_str(char *buf, const int64_t *shape, uint32_t rank);

/* Short dtype name for messages ("f32", "i64"). */
const char *holo_k_dtype_name(uint32_t dt);

/* n_inputs within [min_in, max_in] and n_outputs within [1, max_out]. */
holo_status holo_k_check_arity(holo_kernel_call *c, const char *op, uint32_t min_in,
                               uint32_t max_in, uint32_t max_out);

/* Input idx is present, of dtype want (0: any known dtype), rank <= 8,
 * non-negative dims, addressable size, and its buffer holds that many bytes. */
holo_status holo_k_check_input(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t want);

/* True when input idx is an absent optional input. */
static inline bool holo_k_absent(const holo_kernel_call *c, uint32_t idx) {
  return idx >= c->n_inputs || c->inputs[idx].dtype == 0;
}

/* Sets outputs[idx] dtype/rank/shape/bytes; refuses an unaddressable size. */
holo_status holo_k_set_output(holo_kernel_call *c, const char *op, uint32_t idx, uint32_t dtype,
                              uint32_t rank, const int64_t *shape);

/* Product of dims [from, to); callers only pass shapes already checked by
 * holo_shape_numel, so it cannot overflow. */
size_t holo_k_prod(const int64_t *shape, uint32_t from, uint32_t to);
/* t viewed as [outer, n, inner] around axis: element (o, i, r) is at
 * (o * n + i) * inner + r. */
static inline void holo_k_axis_split(const holo_tensor *t, uint32_t axis, size_t *outer, size_t *n, size_t *inner) {
  *outer = holo_k_prod(t->shape, 0, axis);
  *n = (size_t)t->shape[axis];
  *inner = holo_k_prod(t->shape, axis + 1, t->rank);
}

/* Normalizes axis into [0, rank) (or [0, rank] when inclusive); false when out of range. */
bool holo_k_axis(int64_t axis, uint32_t rank, bool inclusive, uint32_t *out);

/* The "axis" attribute (default -1) of a one-input op, normalized; a
 * message naming op when out of range. */
holo_status holo_k_axis_attr(holo_kernel_call *c, const char *op, uint32_t *axis);
/* infer of a one-input f32 op along an axis whose output has the input's
 * shape (Softmax, LogSoftmax, Hardmax). */
holo_status holo_k_axis_op_infer(holo_kernel_call *c, const char *op);

/* Multidirectional broadcast of a and b into out (rank max(ra,rb));
 * false when some pair of dims is neither equal nor 1. */
bool holo_k_broadcast_shape(const int64_t *a, uint32_t ra, const int64_t *b, uint32_t rb,
                            int64_t *out, uint32_t *rout);

/* Element strides of shape `in` (rank rin <= rout) aligned right against an
 * output of rank rout, with 0 where the input dim is broadcast. */
void holo_k_broadcast_strides(const int64_t *in, uint32_t rin, const int64_t *out, uint32_t rout,
                              int64_t *strides);

/* Row-major element strides of a contiguous tensor. */
void holo_k_strides(const int64_t *shape, uint32_t rank, int64_t *strides);

/* Two-operand broadcast plan: the output is walked row by row (last dim),
 * with per-operand element strides. */
typedef struct holo_k_bcast {
  uint32_t rank; /* >= 1: a scalar output becomes shape [1] */
  int64_t shape[HOLO_MAX_RANK];
  int64_t sa[HOLO_MAX_RANK];
  int64_t sb[HOLO_MAX_RANK];
  size_t n_rows; /* product of all but the last dim */
  size_t row;    /* last dim */
} holo_k_bcast;

void holo_k_bcast_plan(holo_k_bcast *p, const holo_tensor *a, const holo_tensor *b,
                       const holo_tensor *y);

/* Advances the row index and both offsets; call once per row. Offsets use
 * wrapping size_t arithmetic and are always back in range after a carry. */
static inline void holo_k_bcast_next(const holo_k_bcast *p, int64_t *idx, size_t *oa, size_t *ob) {
  for (int32_t d = (int32_t)p->rank - 2; d >= 0; d--) {
    idx[d]++;
    *oa += (size_t)p->sa[d];
    *ob += (size_t)p->sb[d];
    if (idx[d] < p->shape[d]) return;
    *oa -= (size_t)(p->sa[d] * p->shape[d]);
    *ob -= (size_t)(p->sb[d] * p->shape[d]);
    idx[d] = 0;
  }
}

/* Window geometry of a 2-D convolution or pooling over [H, W]: the
 * kernel_shape, strides, dilations, pads and auto_pad (and ceil_mode)
 * attributes resolved into explicit numbers. Index [0] is H, [1] is W. */
typedef struct holo_k_win2d {
  int64_t in[2], k[2], stride[2], dil[2], pad_begin[2], pad_end[2], out[2];
} holo_k_win2d;

/* kernel: the kernel dims taken from a weight tensor (the kernel_shape
 * attribute, if present, must agree), or NULL when kernel_shape is required.
 * ceil_mode is read only when use_ceil. */
/* The fused epilogue activation of Gemm, Conv, MatMul and holo.MatMulPacked
 * (docs/kernels.md): attribute holo_activation = "Relu", or "Clip" with
 * optional FLOAT attributes holo_clip_min / holo_clip_max (an absent bound
 * does not clip, as in Clip). Sets g->relu / lo_on / lo / hi_on / hi; any
 * other value fails UNSUPPORTED naming op. */
struct holo_gemm;
holo_status holo_k_gemm_act(holo_kernel_call *c, const char *op, struct holo_gemm *g);

holo_status holo_k_window2d(holo_kernel_call *c, const char *op, const int64_t *in_hw,
                            const int64_t *kernel, bool use_ceil, holo_k_win2d *w);

#endif
