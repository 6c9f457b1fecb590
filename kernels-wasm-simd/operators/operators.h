/* The operators' entry points, as the kernel table (registry-table.h)
 * names them: each op's infer (validation, shape inference, workspace) and
 * run (dtype dispatch, broadcasting, the parallel split, then the
 * microkernels). One file per op family defines them (docs/kernels.md).
 * Ops that share a run (the views) share its name. */
#ifndef HOLOGRAM_KERNELS_OPERATORS_H
#define HOLOGRAM_KERNELS_OPERATORS_H

#include "hologram/backend.h"

holo_status holo_k_matmul_f32_infer(holo_kernel_call *c);
holo_status holo_k_matmul_f32_run(holo_kernel_call *c);
holo_status holo_k_gemm_f32_infer(holo_kernel_call *c); holo_status holo_k_gemm_f32_run(holo_kernel_call *c);
holo_status holo_k_conv_f32_infer(holo_kernel_call *c); holo_status holo_k_conv_f32_run(holo_kernel_call *c);
holo_status holo_k_mmpacked_f32_infer(holo_kernel_call *c);
holo_status holo_k_mmpacked_f32_run(holo_kernel_call *c);
holo_status holo_k_packb_f32_infer(holo_kernel_call *c);
holo_status holo_k_packb_f32_run(holo_kernel_call *c);
/* The products' own layouts of a constant weight (backend.h holo_pack_call). */
holo_status holo_k_matmul_f32_pack(holo_pack_call *p);
holo_status holo_k_gemm_f32_pack(holo_pack_call *p);
holo_status holo_k_conv_f32_pack(holo_pack_call *p);
holo_status holo_k_add_infer(holo_kernel_call *c); holo_status holo_k_add_run(holo_kernel_call *c);
holo_status holo_k_sub_infer(holo_kernel_call *c); holo_status holo_k_sub_run(holo_kernel_call *c);
holo_status holo_k_mul_infer(holo_kernel_call *c); holo_status holo_k_mul_run(holo_kernel_call *c);
holo_status holo_k_div_infer(holo_kernel_call *c); holo_status holo_k_div_run(holo_kernel_call *c);
holo_status holo_k_relu_infer(holo_kernel_call *c); holo_status holo_k_relu_run(holo_kernel_call *c);
holo_status holo_k_sigmoid_infer(holo_kernel_call *c); holo_status holo_k_sigmoid_run(holo_kernel_call *c);
holo_status holo_k_tanh_infer(holo_kernel_call *c); holo_status holo_k_tanh_run(holo_kernel_call *c);
holo_status holo_k_softmax_f32_infer(holo_kernel_call *c);
holo_status holo_k_softmax_f32_run(holo_kernel_call *c);
holo_status holo_k_reshape_infer(holo_kernel_call *c); holo_status holo_k_view_run(holo_kernel_call *c);
holo_status holo_k_flatten_infer(holo_kernel_call *c);
holo_status holo_k_transpose_infer(holo_kernel_call *c);
holo_status holo_k_transpose_run(holo_kernel_call *c);
holo_status holo_k_concat_infer(holo_kernel_call *c); holo_status holo_k_concat_run(holo_kernel_call *c);
holo_status holo_k_maxpool_f32_infer(holo_kernel_call *c);
holo_status holo_k_maxpool_f32_run(holo_kernel_call *c);
holo_status holo_k_avgpool_f32_infer(holo_kernel_call *c);
holo_status holo_k_avgpool_f32_run(holo_kernel_call *c);
holo_status holo_k_gap_f32_infer(holo_kernel_call *c); holo_status holo_k_gap_f32_run(holo_kernel_call *c);
holo_status holo_k_cast_infer(holo_kernel_call *c); holo_status holo_k_cast_run(holo_kernel_call *c);
holo_status holo_k_reducesum_infer(holo_kernel_call *c);
holo_status holo_k_reducesum_run(holo_kernel_call *c);
holo_status holo_k_reducemean_infer(holo_kernel_call *c);
holo_status holo_k_reducemean_run(holo_kernel_call *c);
holo_status holo_k_reducemax_infer(holo_kernel_call *c);
holo_status holo_k_reducemax_run(holo_kernel_call *c);
holo_status holo_k_reducemin_infer(holo_kernel_call *c);
holo_status holo_k_reducemin_run(holo_kernel_call *c);
holo_status holo_k_reduceprod_infer(holo_kernel_call *c);
holo_status holo_k_reduceprod_run(holo_kernel_call *c);
holo_status holo_k_reducesumsquare_infer(holo_kernel_call *c);
holo_status holo_k_reducesumsquare_run(holo_kernel_call *c);
holo_status holo_k_reducel1_infer(holo_kernel_call *c); holo_status holo_k_reducel1_run(holo_kernel_call *c);
holo_status holo_k_reducel2_infer(holo_kernel_call *c); holo_status holo_k_reducel2_run(holo_kernel_call *c);
holo_status holo_k_reducelogsum_infer(holo_kernel_call *c);
holo_status holo_k_reducelogsum_run(holo_kernel_call *c);
holo_status holo_k_reducelogsumexp_infer(holo_kernel_call *c);
holo_status holo_k_reducelogsumexp_run(holo_kernel_call *c);
holo_status holo_k_argmax_infer(holo_kernel_call *c); holo_status holo_k_argmax_run(holo_kernel_call *c);
holo_status holo_k_argmin_infer(holo_kernel_call *c); holo_status holo_k_argmin_run(holo_kernel_call *c);
holo_status holo_k_neg_infer(holo_kernel_call *c); holo_status holo_k_neg_run(holo_kernel_call *c);
holo_status holo_k_abs_infer(holo_kernel_call *c); holo_status holo_k_abs_run(holo_kernel_call *c);
holo_status holo_k_exp_infer(holo_kernel_call *c); holo_status holo_k_exp_run(holo_kernel_call *c);
holo_status holo_k_log_infer(holo_kernel_call *c); holo_status holo_k_log_run(holo_kernel_call *c);
holo_status holo_k_sqrt_infer(holo_kernel_call *c); holo_status holo_k_sqrt_run(holo_kernel_call *c);
holo_status holo_k_reciprocal_infer(holo_kernel_call *c);
holo_status holo_k_reciprocal_run(holo_kernel_call *c);
holo_status holo_k_floor_infer(holo_kernel_call *c); holo_status holo_k_floor_run(holo_kernel_call *c);
holo_status holo_k_ceil_infer(holo_kernel_call *c); holo_status holo_k_ceil_run(holo_kernel_call *c);
holo_status holo_k_round_infer(holo_kernel_call *c); holo_status holo_k_round_run(holo_kernel_call *c);
holo_status holo_k_sign_infer(holo_kernel_call *c); holo_status holo_k_sign_run(holo_kernel_call *c);
holo_status holo_k_erf_infer(holo_kernel_call *c); holo_status holo_k_erf_run(holo_kernel_call *c);
holo_status holo_k_sin_infer(holo_kernel_call *c); holo_status holo_k_sin_run(holo_kernel_call *c);
holo_status holo_k_cos_infer(holo_kernel_call *c); holo_status holo_k_cos_run(holo_kernel_call *c);
holo_status holo_k_tan_infer(holo_kernel_call *c); holo_status holo_k_tan_run(holo_kernel_call *c);
holo_status holo_k_softplus_infer(holo_kernel_call *c); holo_status holo_k_softplus_run(holo_kernel_call *c);
holo_status holo_k_softsign_infer(holo_kernel_call *c); holo_status holo_k_softsign_run(holo_kernel_call *c);
holo_status holo_k_hardswish_infer(holo_kernel_call *c);
holo_status holo_k_hardswish_run(holo_kernel_call *c);
holo_status holo_k_leakyrelu_infer(holo_kernel_call *c);
holo_status holo_k_leakyrelu_run(holo_kernel_call *c);
holo_status holo_k_elu_infer(holo_kernel_call *c); holo_status holo_k_elu_run(holo_kernel_call *c);
holo_status holo_k_selu_infer(holo_kernel_call *c); holo_status holo_k_selu_run(holo_kernel_call *c);
holo_status holo_k_hardsigmoid_infer(holo_kernel_call *c);
holo_status holo_k_hardsigmoid_run(holo_kernel_call *c);
holo_status holo_k_celu_infer(holo_kernel_call *c); holo_status holo_k_celu_run(holo_kernel_call *c);
holo_status holo_k_thresholdedrelu_infer(holo_kernel_call *c);
holo_status holo_k_thresholdedrelu_run(holo_kernel_call *c);
holo_status holo_k_gelu_infer(holo_kernel_call *c); holo_status holo_k_gelu_run(holo_kernel_call *c);
holo_status holo_k_max_infer(holo_kernel_call *c); holo_status holo_k_max_run(holo_kernel_call *c);
holo_status holo_k_min_infer(holo_kernel_call *c); holo_status holo_k_min_run(holo_kernel_call *c);
holo_status holo_k_pow_infer(holo_kernel_call *c); holo_status holo_k_pow_run(holo_kernel_call *c);
holo_status holo_k_mod_infer(holo_kernel_call *c); holo_status holo_k_mod_run(holo_kernel_call *c);
holo_status holo_k_prelu_infer(holo_kernel_call *c); holo_status holo_k_prelu_run(holo_kernel_call *c);
holo_status holo_k_equal_infer(holo_kernel_call *c); holo_status holo_k_equal_run(holo_kernel_call *c);
holo_status holo_k_less_infer(holo_kernel_call *c); holo_status holo_k_less_run(holo_kernel_call *c);
holo_status holo_k_greater_infer(holo_kernel_call *c); holo_status holo_k_greater_run(holo_kernel_call *c);
holo_status holo_k_lessorequal_infer(holo_kernel_call *c);
holo_status holo_k_lessorequal_run(holo_kernel_call *c);
holo_status holo_k_greaterorequal_infer(holo_kernel_call *c);
holo_status holo_k_greaterorequal_run(holo_kernel_call *c);
holo_status holo_k_and_infer(holo_kernel_call *c); holo_status holo_k_and_run(holo_kernel_call *c);
holo_status holo_k_or_infer(holo_kernel_call *c); holo_status holo_k_or_run(holo_kernel_call *c);
holo_status holo_k_xor_infer(holo_kernel_call *c); holo_status holo_k_xor_run(holo_kernel_call *c);
holo_status holo_k_not_infer(holo_kernel_call *c); holo_status holo_k_not_run(holo_kernel_call *c);
holo_status holo_k_where_infer(holo_kernel_call *c); holo_status holo_k_where_run(holo_kernel_call *c);
holo_status holo_k_clip_infer(holo_kernel_call *c); holo_status holo_k_clip_run(holo_kernel_call *c);
holo_status holo_k_logsoftmax_infer(holo_kernel_call *c);
holo_status holo_k_logsoftmax_run(holo_kernel_call *c);
holo_status holo_k_slice_infer(holo_kernel_call *c); holo_status holo_k_slice_run(holo_kernel_call *c);
holo_status holo_k_pad_infer(holo_kernel_call *c); holo_status holo_k_pad_run(holo_kernel_call *c);
holo_status holo_k_gather_infer(holo_kernel_call *c); holo_status holo_k_gather_run(holo_kernel_call *c);
holo_status holo_k_expand_infer(holo_kernel_call *c); holo_status holo_k_expand_run(holo_kernel_call *c);
holo_status holo_k_layernorm_infer(holo_kernel_call *c);
holo_status holo_k_layernorm_run(holo_kernel_call *c);
holo_status holo_k_layernormsteps_infer(holo_kernel_call *c);
holo_status holo_k_layernormsteps_run(holo_kernel_call *c);
holo_status holo_k_squeeze_infer(holo_kernel_call *c);
holo_status holo_k_unsqueeze_infer(holo_kernel_call *c);
holo_status holo_k_gatherelements_infer(holo_kernel_call *c);
holo_status holo_k_gatherelements_run(holo_kernel_call *c);
holo_status holo_k_trilu_infer(holo_kernel_call *c); holo_status holo_k_trilu_run(holo_kernel_call *c);
holo_status holo_k_split_infer(holo_kernel_call *c); holo_status holo_k_split_run(holo_kernel_call *c);
holo_status holo_k_range_infer(holo_kernel_call *c); holo_status holo_k_range_run(holo_kernel_call *c);
holo_status holo_k_cumsum_infer(holo_kernel_call *c); holo_status holo_k_cumsum_run(holo_kernel_call *c);
holo_status holo_k_hardmax_infer(holo_kernel_call *c); holo_status holo_k_hardmax_run(holo_kernel_call *c);
holo_status holo_k_tile_infer(holo_kernel_call *c); holo_status holo_k_tile_run(holo_kernel_call *c);

#endif
