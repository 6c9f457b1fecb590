/* The CPU backend's kernel table and lookup. One kernel per op type; a
 * kernel dispatches on dtype itself. Identities name op, dtypes, the byte
 * class and a version to bump whenever a kernel's output bytes can change.
 *
 * Byte classes (docs/kernels.md): the scalar build and the wasm SIMD128
 * build produce the same bytes for every op (the GEMM core's order
 * contract, gemm.h; tests/js/kernels-simd.test.mjs compares them byte for
 * byte), so they share the identities "…/scalar/N" and the backend
 * identity "hologram-cpu/scalar/1", and therefore every label. The relaxed
 * SIMD build uses f32x4.relaxed_madd in the GEMM core, which the engine may
 * fuse: its GEMM-based kernels and its backend identity differ, and a fused
 * engine is told apart from an unfused one at init. */
#include "hologram/cpu_backend.h"

#ifdef __wasm_relaxed_simd__
#include <wasm_simd128.h>
#endif

#define K(name) holo_status holo_k_##name(holo_kernel_call *c);
K(matmul_f32_infer) K(matmul_f32_run)
K(gemm_f32_infer) K(gemm_f32_run)
K(add_infer) K(add_run) K(sub_infer) K(sub_run)
K(mul_infer) K(mul_run) K(div_infer) K(div_run)
K(relu_infer) K(relu_run) K(sigmoid_infer) K(sigmoid_run) K(tanh_infer) K(tanh_run)
K(softmax_f32_infer) K(softmax_f32_run)
K(reshape_infer) K(flatten_infer) K(view_run)
K(transpose_infer) K(transpose_run)
K(concat_infer) K(concat_run)
K(conv_f32_infer) K(conv_f32_run)
K(packb_f32_infer) K(packb_f32_run) K(mmpacked_f32_infer) K(mmpacked_f32_run)
K(maxpool_f32_infer) K(maxpool_f32_run)
K(avgpool_f32_infer) K(avgpool_f32_run)
K(gap_f32_infer) K(gap_f32_run)
#undef K

#ifdef __wasm_relaxed_simd__
#define GEMM_CLASS "relaxed-fma"
#else
#define GEMM_CLASS "scalar"
#endif

/* The first N_GEMM entries run the GEMM core (their bytes depend on FMA). */
#define N_GEMM 4
static const holo_kernel kernels[] = {
    {"MatMul", "MatMul/f32/" GEMM_CLASS "/1", holo_k_matmul_f32_infer, holo_k_matmul_f32_run},
    {"Gemm", "Gemm/f32/" GEMM_CLASS "/1", holo_k_gemm_f32_infer, holo_k_gemm_f32_run},
    {"Conv", "Conv/f32/" GEMM_CLASS "/2", holo_k_conv_f32_infer, holo_k_conv_f32_run},
    {"holo.MatMulPacked", "holo.MatMulPacked/f32/" GEMM_CLASS "/1", holo_k_mmpacked_f32_infer,
     holo_k_mmpacked_f32_run},
    {"holo.PackB", "holo.PackB/f32/panels-8-32/2", holo_k_packb_f32_infer, holo_k_packb_f32_run},
    {"Add", "Add/f32,i32,i64/scalar/1", holo_k_add_infer, holo_k_add_run},
    {"Sub", "Sub/f32,i32,i64/scalar/1", holo_k_sub_infer, holo_k_sub_run},
    {"Mul", "Mul/f32,i32,i64/scalar/1", holo_k_mul_infer, holo_k_mul_run},
    {"Div", "Div/f32,i32,i64/scalar/1", holo_k_div_infer, holo_k_div_run},
    {"Relu", "Relu/f32/scalar/1", holo_k_relu_infer, holo_k_relu_run},
    {"Sigmoid", "Sigmoid/f32/scalar/1", holo_k_sigmoid_infer, holo_k_sigmoid_run},
    {"Tanh", "Tanh/f32/scalar/1", holo_k_tanh_infer, holo_k_tanh_run},
    {"Softmax", "Softmax/f32/scalar/1", holo_k_softmax_f32_infer, holo_k_softmax_f32_run},
    {"Reshape", "Reshape/any/view/1", holo_k_reshape_infer, holo_k_view_run},
    {"Flatten", "Flatten/any/view/1", holo_k_flatten_infer, holo_k_view_run},
    {"Transpose", "Transpose/any/scalar/1", holo_k_transpose_infer, holo_k_transpose_run},
    {"Concat", "Concat/any/scalar/1", holo_k_concat_infer, holo_k_concat_run},
    {"MaxPool", "MaxPool/f32/scalar/1", holo_k_maxpool_f32_infer, holo_k_maxpool_f32_run},
    {"AveragePool", "AveragePool/f32/scalar/1", holo_k_avgpool_f32_infer, holo_k_avgpool_f32_run},
    {"GlobalAveragePool", "GlobalAveragePool/f32/scalar/1", holo_k_gap_f32_infer,
     holo_k_gap_f32_run},
};

#ifdef __wasm_relaxed_simd__
/* An engine without FMA computes relaxed_madd as a rounded multiply then a
 * rounded add: the same bytes as the scalar class, but it keeps a name of
 * its own ("unfused") rather than claim the scalar labels. */
static const holo_kernel kernels_unfused[N_GEMM] = {
    {"MatMul", "MatMul/f32/relaxed-unfused/1", holo_k_matmul_f32_infer, holo_k_matmul_f32_run},
    {"Gemm", "Gemm/f32/relaxed-unfused/1", holo_k_gemm_f32_infer, holo_k_gemm_f32_run},
    {"Conv", "Conv/f32/relaxed-unfused/2", holo_k_conv_f32_infer, holo_k_conv_f32_run},
    {"holo.MatMulPacked", "holo.MatMulPacked/f32/relaxed-unfused/1", holo_k_mmpacked_f32_infer,
     holo_k_mmpacked_f32_run},
};

/* True when this engine fuses f32x4.relaxed_madd: (1+2^-23)^2 - (1+2^-22)
 * is 2^-46 fused and 0 when the product is rounded first. */
static bool relaxed_madd_fuses(void) {
  volatile float a = 1.00000011920928955078125f, c = -1.0000002384185791015625f;
  v128_t r = wasm_f32x4_relaxed_madd(wasm_f32x4_splat(a), wasm_f32x4_splat(a), wasm_f32x4_splat(c));
  return wasm_f32x4_extract_lane(r, 0) != 0.0f;
}
static int fused = -1; /* -1 unknown, set by holo_cpu_backend_init */
#endif

const holo_kernel *holo_cpu_lookup(void *ctx, const char *op, uint32_t op_len) {
  (void)ctx;
  if (!op) return 0;
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    if (holo__name_eq(op, op_len, kernels[i].op)) {
#ifdef __wasm_relaxed_simd__
      if (fused < 0) fused = relaxed_madd_fuses();
      if (!fused && i < N_GEMM) return &kernels_unfused[i];
#endif
      return &kernels[i];
    }
  return holo_cpu_lookup_ext(op, op_len);
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
