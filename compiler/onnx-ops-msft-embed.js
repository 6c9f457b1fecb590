// onnxruntime's com.microsoft EmbedLayerNormalization (the BERT optimizer's
// fused embedding), LOWERED here to standard ops (Gather, Add,
// LayerNormalization, ReduceSum), no kernel of its own. float32 only.
// Semantics from onnxruntime 1.30's CPU kernel (contrib_ops/cpu/bert/
// embed_layer_norm.cc, embed_layer_norm_helper.cc):
//   EmbedLayerNormalization(input_ids int32 [B, S], segment_ids int32 [B, S]?,
//     word_embedding [V, D], position_embedding [P, D], segment_embedding
//     [G, D]?, gamma [D], beta [D], mask int32 [B, S]?, position_ids?;
//     epsilon, mask_index_type 1) -> output [B, S, D], mask_index int32 [B],
//     embedding_sum [B, S, D]: sum = word[input_ids] + position[s] (or
//     position[position_ids]) + segment[segment_ids], output = layer norm of
//     sum over D (epsilon), mask_index = the number of mask entries equal to
//     1 per row (0 without a mask).
//   Refused: mask_index_type 0 with mask_index used, other dtypes, an
//     index past its table is an execute-time Gather error (onnxruntime:
//     "input index out of range").
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';

const OPS = Object.create(null);
const known = (d) => typeof d === 'number';
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];

OPS.EmbedLayerNormalization = {
  attrs: ['epsilon', 'mask_index_type'],
  norm(ctx, n) {
    const [ids, segIds, wordE, posE, segE, gamma, beta, mask, posIds] = n.inputs;
    const [y, maskIndex, sumOut] = n.outputs, e = emitter(ctx, y);
    if (!wordE || !posE || !gamma || !beta) throw new Unsupported('input_ids, word_embedding, position_embedding, gamma and beta are required');
    if (!!segIds !== !!segE) throw new Unsupported('segment_ids and segment_embedding must be both present or both absent');
    for (const [v, what] of [[ids, 'input_ids'], [segIds, 'segment_ids'], [mask, 'mask']]) {
      if (v && ctx.value(v).dtype !== DT.i32) throw new Unsupported(`${what} of ${dtypeName(ctx.value(v).dtype)} is not supported (int32, as onnxruntime takes it)`);
    }
    if (posIds && ctx.value(posIds).dtype !== DT.i32) throw new Unsupported(`position_ids of ${dtypeName(ctx.value(posIds).dtype)} is not supported (int32, as onnxruntime takes it)`);
    for (const [v, what] of [[wordE, 'word_embedding'], [posE, 'position_embedding'], [segE, 'segment_embedding'], [gamma, 'gamma'], [beta, 'beta']]) {
      if (v && ctx.value(v).dtype !== DT.f32) throw new Unsupported(`${what} of ${dtypeName(ctx.value(v).dtype)} is not supported (float32 only)`);
    }
    const is = ctx.shape(ids), ws = ctx.shape(wordE), D = ws?.[1];
    if (!is || is.length !== 2) throw new Unsupported('input_ids must be 2-D [batch, sequence]');
    if (!ws || ws.length !== 2 || !known(D)) throw new Unsupported('word_embedding must be 2-D [vocab, hidden] with a known hidden size');
    for (const [v, what] of [[posE, 'position_embedding'], [segE, 'segment_embedding']]) {
      const s = v && ctx.shape(v);
      if (v && (!s || s.length !== 2 || s[1] !== D)) throw new Unsupported(`${what} must be 2-D [rows, ${D}]`);
    }
    for (const [v, what] of [[gamma, 'gamma'], [beta, 'beta']]) {
      const s = ctx.shape(v);
      if (!s || s.length !== 1 || s[0] !== D) throw new Unsupported(`${what} must be [${D}]`);
    }
    const mit = attr(n, 'mask_index_type', 1);
    const used = ctx.trimOutputs([y, maskIndex || '', sumOut || '']);
    if (mit === 0 && maskIndex && used.length > 1) throw new Unsupported('mask_index_type 0 (no mask_index) with the mask_index output used is not supported');
    const S = is[1];
    let pos;
    if (posIds) pos = e('Gather', [posE, posIds], { axis: A.int(0) });
    else {
      const r = known(S) ? ctx.constI64(`${y}_arange`, Array.from({ length: S }, (_, i) => i))
        : e('Range', [ctx.constScalar(`${y}_r0`, DT.i64, 0), e('Gather', [e('Shape', [ids]), ctx.constScalar(`${y}_sax`, DT.i64, 1)], { axis: A.int(0) }), ctx.constScalar(`${y}_r1`, DT.i64, 1)]);
      pos = e('Gather', [posE, r], { axis: A.int(0) }); // [S, D]
    }
    let sum = e('Add', [e('Gather', [wordE, ids], { axis: A.int(0) }), pos]);
    if (segIds) sum = e('Add', [sum, e('Gather', [segE, segIds], { axis: A.int(0) })], {}, sumOut && used.includes(sumOut) ? sumOut : undefined);
    else if (sumOut && used.includes(sumOut)) sum = e('Identity', [sum], {}, sumOut);
    ctx.emit('LayerNormalization', [sum, gamma, beta], [y], { axis: A.int(-1), epsilon: A.float(attr(n, 'epsilon', 1e-12)), stash_type: A.int(1) });
    if (maskIndex && used.includes(maskIndex)) {
      const axes = ctx.constI64(`${y}_ax1`, [1]), keep = { keepdims: A.int(0), noop_with_empty_axes: A.int(0) };
      if (mask) e('ReduceSum', [e('Cast', [e('Equal', [mask, ctx.constScalar(`${y}_one`, DT.i32, 1)])], { to: A.int(DT.i32) }), axes], keep, maskIndex);
      else {
        const m = e('ReduceMax', [ids, axes], keep);
        e('Sub', [m, m], {}, maskIndex);
      }
    }
  },
};

export const MSFT_EMBED_OPS = OPS;
