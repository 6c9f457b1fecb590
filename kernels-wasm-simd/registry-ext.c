/* The extension kernel table: scalar reference kernels for ops beyond the
 * core set of registry.c (which falls back here). One kernel per op type,
 * dispatching on dtype itself. Identities "Op/dtypes/scalar/N": bump N
 * whenever a kernel's output bytes can change. None of these uses the GEMM
 * core, so every build (scalar, SIMD128, relaxed) produces the same bytes. */
#include "hologram/cpu_backend.h"

#define K(name) holo_status holo_k_##name##_infer(holo_kernel_call *c); \
  holo_status holo_k_##name##_run(holo_kernel_call *c);
K(cast)
K(reducesum)
K(reducemean)
K(reducemax)
K(reducemin)
K(reduceprod)
K(reducesumsquare)
K(reducel1)
K(reducel2)
K(reducelogsum)
K(reducelogsumexp)
K(argmax)
K(argmin)
K(neg)
K(abs)
K(exp)
K(log)
K(sqrt)
K(reciprocal)
K(floor)
K(ceil)
K(round)
K(sign)
K(erf)
K(sin)
K(cos)
K(tan)
K(softplus)
K(softsign)
K(hardswish)
K(leakyrelu)
K(elu)
K(selu)
K(hardsigmoid)
K(celu)
K(thresholdedrelu)
K(gelu)
K(max)
K(min)
K(pow)
K(mod)
K(prelu)
K(equal)
K(less)
K(greater)
K(lessorequal)
K(greaterorequal)
K(and)
K(or)
K(xor)
K(not)
K(where)
K(clip)
K(logsoftmax)
K(slice)
K(pad)
K(gather)
K(expand)
K(layernorm)
K(layernormsteps)
K(gatherelements)
K(trilu)
K(split)
K(range)
K(cumsum)
K(hardmax)
K(tile)
#undef K
holo_status holo_k_squeeze_infer(holo_kernel_call *c);
holo_status holo_k_unsqueeze_infer(holo_kernel_call *c);
holo_status holo_k_view_run(holo_kernel_call *c); /* reshape-any-view.c */

static const holo_kernel kernels_ext[] = {
    {"Cast", "Cast/any/scalar/1", holo_k_cast_infer, holo_k_cast_run},
    {"ReduceSum", "ReduceSum/f32,f64/scalar/1", holo_k_reducesum_infer, holo_k_reducesum_run},
    {"ReduceMean", "ReduceMean/f32,f64/scalar/1", holo_k_reducemean_infer, holo_k_reducemean_run},
    {"ReduceMax", "ReduceMax/f32,f64/scalar/1", holo_k_reducemax_infer, holo_k_reducemax_run},
    {"ReduceMin", "ReduceMin/f32,f64/scalar/1", holo_k_reducemin_infer, holo_k_reducemin_run},
    {"ReduceProd", "ReduceProd/f32,f64/scalar/1", holo_k_reduceprod_infer, holo_k_reduceprod_run},
    {"ReduceSumSquare", "ReduceSumSquare/f32,f64/scalar/1", holo_k_reducesumsquare_infer, holo_k_reducesumsquare_run},
    {"ReduceL1", "ReduceL1/f32/scalar/1", holo_k_reducel1_infer, holo_k_reducel1_run},
    {"ReduceL2", "ReduceL2/f32/scalar/1", holo_k_reducel2_infer, holo_k_reducel2_run},
    {"ReduceLogSum", "ReduceLogSum/f32,f64/scalar/1", holo_k_reducelogsum_infer, holo_k_reducelogsum_run},
    {"ReduceLogSumExp", "ReduceLogSumExp/f32,f64/scalar/1", holo_k_reducelogsumexp_infer, holo_k_reducelogsumexp_run},
    {"ArgMax", "ArgMax/f32/scalar/1", holo_k_argmax_infer, holo_k_argmax_run},
    {"ArgMin", "ArgMin/f32/scalar/1", holo_k_argmin_infer, holo_k_argmin_run},
    {"Neg", "Neg/f32/scalar/1", holo_k_neg_infer, holo_k_neg_run},
    {"Abs", "Abs/f32/scalar/1", holo_k_abs_infer, holo_k_abs_run},
    {"Exp", "Exp/f32/scalar/1", holo_k_exp_infer, holo_k_exp_run},
    {"Log", "Log/f32/scalar/1", holo_k_log_infer, holo_k_log_run},
    {"Sqrt", "Sqrt/f32/scalar/1", holo_k_sqrt_infer, holo_k_sqrt_run},
    {"Reciprocal", "Reciprocal/f32/scalar/1", holo_k_reciprocal_infer, holo_k_reciprocal_run},
    {"Floor", "Floor/f32/scalar/1", holo_k_floor_infer, holo_k_floor_run},
    {"Ceil", "Ceil/f32/scalar/1", holo_k_ceil_infer, holo_k_ceil_run},
    {"Round", "Round/f32/scalar/1", holo_k_round_infer, holo_k_round_run},
    {"Sign", "Sign/f32/scalar/1", holo_k_sign_infer, holo_k_sign_run},
    {"Erf", "Erf/f32/scalar/1", holo_k_erf_infer, holo_k_erf_run},
    {"Sin", "Sin/f32/scalar/1", holo_k_sin_infer, holo_k_sin_run},
    {"Cos", "Cos/f32/scalar/1", holo_k_cos_infer, holo_k_cos_run},
    {"Tan", "Tan/f32/scalar/1", holo_k_tan_infer, holo_k_tan_run},
    {"Softplus", "Softplus/f32/scalar/1", holo_k_softplus_infer, holo_k_softplus_run},
    {"Softsign", "Softsign/f32/scalar/1", holo_k_softsign_infer, holo_k_softsign_run},
    {"HardSwish", "HardSwish/f32/scalar/1", holo_k_hardswish_infer, holo_k_hardswish_run},
    {"LeakyRelu", "LeakyRelu/f32/scalar/1", holo_k_leakyrelu_infer, holo_k_leakyrelu_run},
    {"Elu", "Elu/f32/scalar/1", holo_k_elu_infer, holo_k_elu_run},
    {"Selu", "Selu/f32/scalar/1", holo_k_selu_infer, holo_k_selu_run},
    {"HardSigmoid", "HardSigmoid/f32/scalar/1", holo_k_hardsigmoid_infer, holo_k_hardsigmoid_run},
    {"Celu", "Celu/f32/scalar/1", holo_k_celu_infer, holo_k_celu_run},
    {"ThresholdedRelu", "ThresholdedRelu/f32/scalar/1", holo_k_thresholdedrelu_infer, holo_k_thresholdedrelu_run},
    {"Gelu", "Gelu/f32/scalar/1", holo_k_gelu_infer, holo_k_gelu_run},
    {"Max", "Max/numeric/scalar/1", holo_k_max_infer, holo_k_max_run},
    {"Min", "Min/numeric/scalar/1", holo_k_min_infer, holo_k_min_run},
    {"Pow", "Pow/f32,f64,f16,i32,i64/scalar/1", holo_k_pow_infer, holo_k_pow_run},
    {"Mod", "Mod/numeric/scalar/1", holo_k_mod_infer, holo_k_mod_run},
    {"PRelu", "PRelu/f32/scalar/1", holo_k_prelu_infer, holo_k_prelu_run},
    {"Equal", "Equal/any/scalar/1", holo_k_equal_infer, holo_k_equal_run},
    {"Less", "Less/numeric/scalar/1", holo_k_less_infer, holo_k_less_run},
    {"Greater", "Greater/numeric/scalar/1", holo_k_greater_infer, holo_k_greater_run},
    {"LessOrEqual", "LessOrEqual/numeric/scalar/1", holo_k_lessorequal_infer, holo_k_lessorequal_run},
    {"GreaterOrEqual", "GreaterOrEqual/numeric/scalar/1", holo_k_greaterorequal_infer, holo_k_greaterorequal_run},
    {"And", "And/bool/scalar/1", holo_k_and_infer, holo_k_and_run},
    {"Or", "Or/bool/scalar/1", holo_k_or_infer, holo_k_or_run},
    {"Xor", "Xor/bool/scalar/1", holo_k_xor_infer, holo_k_xor_run},
    {"Not", "Not/bool/scalar/1", holo_k_not_infer, holo_k_not_run},
    {"Where", "Where/any/scalar/1", holo_k_where_infer, holo_k_where_run},
    {"Clip", "Clip/numeric/scalar/1", holo_k_clip_infer, holo_k_clip_run},
    {"LogSoftmax", "LogSoftmax/f32/scalar/1", holo_k_logsoftmax_infer, holo_k_logsoftmax_run},
    {"Slice", "Slice/any/scalar/1", holo_k_slice_infer, holo_k_slice_run},
    {"Pad", "Pad/any/scalar/1", holo_k_pad_infer, holo_k_pad_run},
    {"Gather", "Gather/any/scalar/1", holo_k_gather_infer, holo_k_gather_run},
    {"Expand", "Expand/any/scalar/1", holo_k_expand_infer, holo_k_expand_run},
    {"LayerNormalization", "LayerNormalization/f32/scalar/1", holo_k_layernorm_infer, holo_k_layernorm_run},
    {"holo.LayerNormSteps", "holo.LayerNormSteps/f32/scalar/1", holo_k_layernormsteps_infer,
     holo_k_layernormsteps_run},
    {"Squeeze", "Squeeze/any/view/1", holo_k_squeeze_infer, holo_k_view_run},
    {"Unsqueeze", "Unsqueeze/any/view/1", holo_k_unsqueeze_infer, holo_k_view_run},
    {"GatherElements", "GatherElements/any/scalar/1", holo_k_gatherelements_infer, holo_k_gatherelements_run},
    {"Trilu", "Trilu/any/scalar/1", holo_k_trilu_infer, holo_k_trilu_run},
    {"Split", "Split/any/scalar/1", holo_k_split_infer, holo_k_split_run},
    {"Range", "Range/f32,f64,i16,i32,i64/scalar/1", holo_k_range_infer, holo_k_range_run},
    {"CumSum", "CumSum/f32,f64,i32,i64/scalar/1", holo_k_cumsum_infer, holo_k_cumsum_run},
    {"Hardmax", "Hardmax/f32/scalar/1", holo_k_hardmax_infer, holo_k_hardmax_run},
    {"Tile", "Tile/any/scalar/1", holo_k_tile_infer, holo_k_tile_run},
};

const holo_kernel *holo_cpu_lookup_ext(const char *op, uint32_t op_len) {
  if (!op) return 0;
  for (size_t i = 0; i < sizeof kernels_ext / sizeof kernels_ext[0]; i++)
    if (holo__name_eq(op, op_len, kernels_ext[i].op)) return &kernels_ext[i];
  return 0;
}
