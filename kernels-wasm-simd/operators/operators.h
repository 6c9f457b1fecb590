/* The operators' entry points, as the kernel table (registry-table.h)
 * names them: each op's infer (validation, shape inference, workspace) and
 * run (dtype dispatch, broadcasting, the parallel split, then the
 * microkernels), holo_k_<name>_infer / holo_k_<name>_run, defined by the
 * op family's file in operators/ (docs/kernels.md). The views share one
 * run. */
#ifndef HOLOGRAM_KERNELS_OPERATORS_H
#define HOLOGRAM_KERNELS_OPERATORS_H

#include "hologram/backend.h"

#define HOLO_K_OPERATOR(name)                                                                                \
  holo_status holo_k_##name##_infer(holo_kernel_call *c);                                                    \
  holo_status holo_k_##name##_run(holo_kernel_call *c);

/* products (matmul.c, conv2d.c) */
HOLO_K_OPERATOR(matmul_f32)
HOLO_K_OPERATOR(gemm_f32)
HOLO_K_OPERATOR(mmpacked_f32) HOLO_K_OPERATOR(packb_f32) HOLO_K_OPERATOR(conv_f32)
/* integer products (matmul-integer.c, conv-integer.c) */
HOLO_K_OPERATOR(matmulinteger) HOLO_K_OPERATOR(convinteger)
/* QLinear products, on the same core (matmul-integer.c, conv-integer.c) */
HOLO_K_OPERATOR(qlinearmatmul) HOLO_K_OPERATOR(qlinearconv)
/* per-tensor QuantizeLinear / DequantizeLinear in one pass (qlinear-quant.c) */
HOLO_K_OPERATOR(quantizelinear) HOLO_K_OPERATOR(dequantizelinear)
/* DynamicQuantizeLinear in one pass (qlinear-quant.c); MatMulInteger with its
 * float epilogue, and with A quantized in front (matmul-integer.c) */
HOLO_K_OPERATOR(dynquantizelinear) HOLO_K_OPERATOR(mmitofloat) HOLO_K_OPERATOR(dqmatmul)
/* QLinearAdd / QLinearMul, the float path in one pass over int8 (qlinear-binary.c) */
HOLO_K_OPERATOR(qlinearadd) HOLO_K_OPERATOR(qlinearmul)
/* com.microsoft MatMulNBits' 4-bit weight to f32 (dequant-nbits.c) */
HOLO_K_OPERATOR(dequantq4)
    /* The products' own layouts of a constant weight (backend.h holo_pack_call). */
    holo_status holo_k_matmul_f32_pack(holo_pack_call *p);
holo_status holo_k_gemm_f32_pack(holo_pack_call *p);
holo_status holo_k_conv_f32_pack(holo_pack_call *p);
holo_status holo_k_convinteger_pack(holo_pack_call *p);
holo_status holo_k_matmulinteger_pack(holo_pack_call *p);
holo_status holo_k_qlinearconv_pack(holo_pack_call *p);
holo_status holo_k_qlinearmatmul_pack(holo_pack_call *p);
holo_status holo_k_mmitofloat_pack(holo_pack_call *p);
holo_status holo_k_dqmatmul_pack(holo_pack_call *p);
/* broadcasting arithmetic (binary.c) */
HOLO_K_OPERATOR(add)
HOLO_K_OPERATOR(sub)
HOLO_K_OPERATOR(mul) HOLO_K_OPERATOR(div) HOLO_K_OPERATOR(pow) HOLO_K_OPERATOR(mod)
    /* min / max (minmax.c) */
    HOLO_K_OPERATOR(max) HOLO_K_OPERATOR(min)
    /* comparisons (compare.c) */
    HOLO_K_OPERATOR(equal) HOLO_K_OPERATOR(less) HOLO_K_OPERATOR(greater) HOLO_K_OPERATOR(lessorequal)
        HOLO_K_OPERATOR(greaterorequal)
    /* logic and select (logical.c, where.c) */
    HOLO_K_OPERATOR(and) HOLO_K_OPERATOR(or) HOLO_K_OPERATOR(xor) HOLO_K_OPERATOR(not ) HOLO_K_OPERATOR(where)
    /* activations and other elementwise functions (unary.c, prelu.c, clip.c) */
    HOLO_K_OPERATOR(relu) HOLO_K_OPERATOR(sigmoid) HOLO_K_OPERATOR(silu) HOLO_K_OPERATOR(tanh)
        HOLO_K_OPERATOR(neg) HOLO_K_OPERATOR(abs) HOLO_K_OPERATOR(exp) HOLO_K_OPERATOR(log)
            HOLO_K_OPERATOR(sqrt) HOLO_K_OPERATOR(reciprocal) HOLO_K_OPERATOR(floor) HOLO_K_OPERATOR(ceil)
                HOLO_K_OPERATOR(round) HOLO_K_OPERATOR(sign) HOLO_K_OPERATOR(erf) HOLO_K_OPERATOR(sin)
                    HOLO_K_OPERATOR(cos) HOLO_K_OPERATOR(tan) HOLO_K_OPERATOR(softplus)
                        HOLO_K_OPERATOR(softsign) HOLO_K_OPERATOR(hardswish) HOLO_K_OPERATOR(leakyrelu)
                            HOLO_K_OPERATOR(elu) HOLO_K_OPERATOR(selu) HOLO_K_OPERATOR(hardsigmoid)
                                HOLO_K_OPERATOR(celu) HOLO_K_OPERATOR(thresholdedrelu) HOLO_K_OPERATOR(gelu)
                                    HOLO_K_OPERATOR(prelu) HOLO_K_OPERATOR(clip) HOLO_K_OPERATOR(asin)
                                        HOLO_K_OPERATOR(acos) HOLO_K_OPERATOR(atan) HOLO_K_OPERATOR(sinh)
                                            HOLO_K_OPERATOR(cosh) HOLO_K_OPERATOR(asinh)
                                                HOLO_K_OPERATOR(acosh) HOLO_K_OPERATOR(atanh)
                                                    HOLO_K_OPERATOR(mish) HOLO_K_OPERATOR(shrink)
                                                        HOLO_K_OPERATOR(isnan) HOLO_K_OPERATOR(isinf)
                                                            HOLO_K_OPERATOR(bitshift)
HOLO_K_OPERATOR(bitwiseand) HOLO_K_OPERATOR(bitwiseor) HOLO_K_OPERATOR(bitwisexor) HOLO_K_OPERATOR(bitwisenot)
HOLO_K_OPERATOR(scatterelements) HOLO_K_OPERATOR(scatternd) HOLO_K_OPERATOR(gathernd)
HOLO_K_OPERATOR(topk) HOLO_K_OPERATOR(nonzero) HOLO_K_OPERATOR(uniqueorder) HOLO_K_OPERATOR(unique)
/* detection (nms.c, roialign.c, roipool.c) */
HOLO_K_OPERATOR(nms) HOLO_K_OPERATOR(roialign) HOLO_K_OPERATOR(roipoolmax)
HOLO_K_OPERATOR(depthtospace) HOLO_K_OPERATOR(spacetodepth)
HOLO_K_OPERATOR(onehot) HOLO_K_OPERATOR(eyelike) HOLO_K_OPERATOR(dropout)
/* random words (random.c) */
HOLO_K_OPERATOR(philox)
/* text (tfidf.c) */
HOLO_K_OPERATOR(tfidfvectorizer)
HOLO_K_OPERATOR(hannwindow) HOLO_K_OPERATOR(hammingwindow) HOLO_K_OPERATOR(blackmanwindow)
/* signal (dft.c, melweight.c) */
HOLO_K_OPERATOR(dft) HOLO_K_OPERATOR(stft) HOLO_K_OPERATOR(melweightmatrix)
HOLO_K_OPERATOR(batchnorm) HOLO_K_OPERATOR(lrn)
    /* along one axis (softmax.c, argminmax.c, cumsum.c) */
    HOLO_K_OPERATOR(softmax_f32) HOLO_K_OPERATOR(logsoftmax) HOLO_K_OPERATOR(hardmax) HOLO_K_OPERATOR(argmax)
        HOLO_K_OPERATOR(argmin) HOLO_K_OPERATOR(cumsum)
    /* normalization (layernorm.c, instancenorm.c) */
    HOLO_K_OPERATOR(layernorm) HOLO_K_OPERATOR(layernormsteps) HOLO_K_OPERATOR(instancenorm)
    /* reductions (reduce.c) */
    HOLO_K_OPERATOR(reducesum) HOLO_K_OPERATOR(reducemean) HOLO_K_OPERATOR(reducemax)
        HOLO_K_OPERATOR(reducemin) HOLO_K_OPERATOR(reduceprod) HOLO_K_OPERATOR(reducesumsquare)
            HOLO_K_OPERATOR(reducel1) HOLO_K_OPERATOR(reducel2) HOLO_K_OPERATOR(reducelogsum)
                HOLO_K_OPERATOR(reducelogsumexp)
    /* pooling (pool2d.c) */
    HOLO_K_OPERATOR(maxpool_f32) HOLO_K_OPERATOR(avgpool_f32) HOLO_K_OPERATOR(gap_f32)
    /* data movement (transpose.c, concat.c, split.c, slice.c, pad.c, gather.c, expand.c, tile.c, trilu.c) */
    HOLO_K_OPERATOR(transpose) HOLO_K_OPERATOR(concat) HOLO_K_OPERATOR(split) HOLO_K_OPERATOR(slice)
        HOLO_K_OPERATOR(pad) HOLO_K_OPERATOR(gather) HOLO_K_OPERATOR(gatherelements) HOLO_K_OPERATOR(expand)
            HOLO_K_OPERATOR(tile) HOLO_K_OPERATOR(trilu)
    /* conversion and generation (cast.c, range.c) */
    HOLO_K_OPERATOR(cast) HOLO_K_OPERATOR(range) HOLO_K_OPERATOR(shape) HOLO_K_OPERATOR(size)
    /* resampling and the transposed convolution (resize.c, convtranspose.c) */
    HOLO_K_OPERATOR(resize) HOLO_K_OPERATOR(convtranspose) HOLO_K_OPERATOR(gridsample) HOLO_K_OPERATOR(det)
    /* the recurrent family (recurrent.c, recurrent-run.c), with the pack of W and R */
    HOLO_K_OPERATOR(rnn) HOLO_K_OPERATOR(gru) HOLO_K_OPERATOR(lstm)
holo_status holo_k_rnn_pack(holo_pack_call *p);
holo_status holo_k_gru_pack(holo_pack_call *p);
holo_status holo_k_lstm_pack(holo_pack_call *p);

    /* sequences and optionals over the encoding of holo-format.md §4b
     * (sequence.c, sequence-split.c, optional.c) */
    HOLO_K_OPERATOR(seqempty) HOLO_K_OPERATOR(seqconstruct) HOLO_K_OPERATOR(seqinsert) HOLO_K_OPERATOR(seqerase)
        HOLO_K_OPERATOR(seqat) HOLO_K_OPERATOR(seqlength) HOLO_K_OPERATOR(splittoseq)
            HOLO_K_OPERATOR(concatfromseq) HOLO_K_OPERATOR(optional) HOLO_K_OPERATOR(opthas) HOLO_K_OPERATOR(optget)

    /* the views (views.c): alias input 0, nothing to run */
    holo_status holo_k_reshape_infer(holo_kernel_call *c);
holo_status holo_k_flatten_infer(holo_kernel_call *c);
holo_status holo_k_squeeze_infer(holo_kernel_call *c);
holo_status holo_k_unsqueeze_infer(holo_kernel_call *c);
holo_status holo_k_view_run(holo_kernel_call *c);

#undef HOLO_K_OPERATOR

#endif
