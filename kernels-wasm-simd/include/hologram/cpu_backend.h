/* The CPU backend: portable scalar reference kernels, and wasm SIMD128 /
 * relaxed-SIMD variants of the hot ones chosen at compile time (the
 * SIMD128 ones produce the scalar bytes; docs/kernels.md). */
#ifndef HOLOGRAM_CPU_BACKEND_H
#define HOLOGRAM_CPU_BACKEND_H

#include "hologram/backend.h"

/* Fills identity, ctx NULL, lookup, parallel_for NULL. The identity names
 * the byte class compiled in: "hologram-cpu/scalar/1" for the scalar and
 * the SIMD128 builds (same bytes), "hologram-cpu/relaxed-simd/1" for the
 * relaxed-SIMD build on an engine that fuses multiply-add,
 * "hologram-cpu/relaxed-simd-unfused/1" on one that does not. */
void holo_cpu_backend_init(holo_backend *b);

/* The kernel variant set compiled in: "scalar", "simd128" or "relaxed-simd"
 * (diagnostics only; labels use the identity). */
const char *holo_cpu_backend_variant(void);

/* The kernel for an ONNX op type (op need not be NUL-terminated), or NULL. */
const holo_kernel *holo_cpu_lookup(void *ctx, const char *op, uint32_t op_len);

/* The whole kernel table holo_cpu_lookup searches (*n rows), as this
 * engine's byte class names it: for tests and tools that list the ops. */
const holo_kernel *holo_cpu_kernels(size_t *n);

#endif
