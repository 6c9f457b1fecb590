/* The scalar backend's kernel table and lookup. One kernel per op type;
 * a kernel dispatches on dtype itself. Identities name op, dtypes, variant
 * and a version to bump whenever a kernel's output bytes can change. */
#include "hologram/cpu_backend.h"

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
K(maxpool_f32_infer) K(maxpool_f32_run)
K(avgpool_f32_infer) K(avgpool_f32_run)
K(gap_f32_infer) K(gap_f32_run)
#undef K

static const holo_kernel kernels[] = {
    {"MatMul", "MatMul/f32/scalar/1", holo_k_matmul_f32_infer, holo_k_matmul_f32_run},
    {"Gemm", "Gemm/f32/scalar/1", holo_k_gemm_f32_infer, holo_k_gemm_f32_run},
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
    {"Conv", "Conv/f32/scalar/1", holo_k_conv_f32_infer, holo_k_conv_f32_run},
    {"MaxPool", "MaxPool/f32/scalar/1", holo_k_maxpool_f32_infer, holo_k_maxpool_f32_run},
    {"AveragePool", "AveragePool/f32/scalar/1", holo_k_avgpool_f32_infer, holo_k_avgpool_f32_run},
    {"GlobalAveragePool", "GlobalAveragePool/f32/scalar/1", holo_k_gap_f32_infer,
     holo_k_gap_f32_run},
};

const holo_kernel *holo_cpu_lookup(void *ctx, const char *op, uint32_t op_len) {
  (void)ctx;
  if (!op) return 0;
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    if (holo__name_eq(op, op_len, kernels[i].op)) return &kernels[i];
  return 0;
}

void holo_cpu_backend_init(holo_backend *b) {
  b->identity = "hologram-cpu/scalar/1";
  b->ctx = 0;
  b->lookup = holo_cpu_lookup;
  b->parallel_for = 0;
  b->pctx = 0;
}
