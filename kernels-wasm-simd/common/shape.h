/* Shape arithmetic: element counts, axes, row-major strides, numpy-style
 * broadcast shapes and strides, saturating work estimates. Freestanding. */
#ifndef HOLOGRAM_KERNELS_SHAPE_H
#define HOLOGRAM_KERNELS_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hologram/backend.h"

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

/* Multidirectional broadcast of a and b into out (rank max(ra,rb));
 * false when some pair of dims is neither equal nor 1. */
bool holo_k_broadcast_shape(const int64_t *a, uint32_t ra, const int64_t *b, uint32_t rb,
                            int64_t *out, uint32_t *rout);

/* The broadcast shape of n tensors (folding holo_k_broadcast_shape left
 * to right) into out/rout; false when they do not broadcast. */
bool holo_k_broadcast_tensors(const holo_tensor *const *t, uint32_t n, int64_t *out, uint32_t *rout);

/* Element strides of shape `in` (rank rin <= rout) aligned right against an
 * output of rank rout, with 0 where the input dim is broadcast. */
void holo_k_broadcast_strides(const int64_t *in, uint32_t rin, const int64_t *out, uint32_t rout,
                              int64_t *strides);

/* Advances the row-major index idx over dims [0, rank) of count (the last
 * dim fastest). */
static inline void holo_k_next_index(int64_t *idx, const int64_t *count, uint32_t rank) {
  for (int32_t d = (int32_t)rank - 1; d >= 0; d--) {
    if (++idx[d] < count[d]) return;
    idx[d] = 0;
  }
}

/* The same, moving *off by stride[d] per step along dim d and back over
 * the whole dim on a carry (wrapping size_t arithmetic: *off is back in
 * range after every carry, whatever the strides' signs). */
static inline void holo_k_next_offset(int64_t *idx, const int64_t *count, const int64_t *stride, uint32_t rank,
                                      size_t *off) {
  for (int32_t d = (int32_t)rank - 1; d >= 0; d--) {
    *off += (size_t)stride[d];
    if (++idx[d] < count[d]) return;
    *off -= (size_t)(stride[d] * count[d]);
    idx[d] = 0;
  }
}

/* Row-major element strides of a contiguous tensor. */
void holo_k_strides(const int64_t *shape, uint32_t rank, int64_t *strides);

#endif
