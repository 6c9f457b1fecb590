/* The CPU backend's lookup over its one kernel table (registry-table.h),
 * and the backend's identity.
 *
 * Byte classes (docs/kernels.md): the scalar build and the wasm SIMD128
 * build produce the same bytes for every op (the GEMM core's order
 * contract, microkernels/gemm.h; tests/js/kernels-simd.test.mjs compares
 * them byte for byte), so they share the identities "…/scalar/N" and the
 * backend identity "hologram-cpu/scalar/1", and therefore every label. The
 * relaxed SIMD build uses f32x4.relaxed_madd in the GEMM core, which the
 * engine may fuse: its HOLO_KERNEL_GEMM rows and its backend identity
 * differ, and a fused engine is told apart from an unfused one at init. */
#include "hologram/cpu_backend.h"

#include "operators/operators.h"

#ifdef __wasm_relaxed_simd__
#include <wasm_simd128.h>
#define GEMM_CLASS "relaxed-fma"
#else
#define GEMM_CLASS "scalar"
#endif

static const holo_kernel kernels[] = {
#include "registry-table.h"
};
#define N_KERNELS (sizeof kernels / sizeof kernels[0])

#ifdef __wasm_relaxed_simd__
/* An engine without FMA computes relaxed_madd as a rounded multiply then a
 * rounded add: the same bytes as the scalar class, but its GEMM rows keep a
 * name of their own ("unfused") rather than claim the scalar labels. The
 * same table, row for row, under that class. */
#undef GEMM_CLASS
#define GEMM_CLASS "relaxed-unfused"
static const holo_kernel kernels_unfused[] = {
#include "registry-table.h"
};
_Static_assert(sizeof kernels_unfused == sizeof kernels, "one table, two classes");

/* True when this engine fuses f32x4.relaxed_madd: (1+2^-23)^2 - (1+2^-22)
 * is 2^-46 fused and 0 when the product is rounded first. */
static bool relaxed_madd_fuses(void) {
  volatile float a = 1.00000011920928955078125f, c = -1.0000002384185791015625f;
  v128_t r = wasm_f32x4_relaxed_madd(wasm_f32x4_splat(a), wasm_f32x4_splat(a), wasm_f32x4_splat(c));
  return wasm_f32x4_extract_lane(r, 0) != 0.0f;
}
static int fused = -1; /* -1 unknown, set by holo_cpu_backend_init */
#endif

/* The table this engine's bytes belong to. */
static const holo_kernel *table(void) {
#ifdef __wasm_relaxed_simd__
  if (fused < 0) fused = relaxed_madd_fuses();
  if (!fused) return kernels_unfused;
#endif
  return kernels;
}

const holo_kernel *holo_cpu_kernels(size_t *n) {
  *n = N_KERNELS;
  return table();
}

const holo_kernel *holo_cpu_lookup(void *ctx, const char *op, uint32_t op_len) {
  (void)ctx;
  if (!op) return 0;
  const holo_kernel *t = table();
  for (size_t i = 0; i < N_KERNELS; i++)
    if (holo__name_eq(op, op_len, t[i].op)) return &t[i];
  return 0;
}

const char *holo_cpu_backend_variant(void) {
#if defined(__wasm_relaxed_simd__)
  return "relaxed-simd";
#elif defined(__wasm_simd128__)
  return "simd128";
#else
  return "scalar";
#endif
}

void holo_cpu_backend_init(holo_backend *b) {
#ifdef __wasm_relaxed_simd__
  if (fused < 0) fused = relaxed_madd_fuses();
  b->identity = fused ? "hologram-cpu/relaxed-simd/1" : "hologram-cpu/relaxed-simd-unfused/1";
#else
  /* simd128 shares the scalar class: same bytes, same labels */
  b->identity = "hologram-cpu/scalar/1";
#endif
  b->ctx = 0;
  b->lookup = holo_cpu_lookup;
  b->parallel_for = 0;
  b->pctx = 0;
}
