/* The CPU backend: portable scalar reference kernels.
 * Every op has one kernel here; SIMD variants are tested against these. */
#ifndef HOLOGRAM_CPU_BACKEND_H
#define HOLOGRAM_CPU_BACKEND_H

#include "hologram/backend.h"

/* Fills identity "hologram-cpu/scalar/1", ctx NULL, lookup, parallel_for NULL. */
void holo_cpu_backend_init(holo_backend *b);

/* The kernel for an ONNX op type (op need not be NUL-terminated), or NULL. */
const holo_kernel *holo_cpu_lookup(void *ctx, const char *op, uint32_t op_len);

#endif
