// onnxruntime's com.microsoft attention contrib ops (BERT-optimizer and LLM
// exports), LOWERED here to standard ops (MatMul, Softmax, Where...), no
// kernel of their own. float32 only. Semantics from onnxruntime's CPU
// kernels (contrib_ops/cpu/bert/attention.cc, attention_cpu_base.h,
// attention_helper.h PrepareMask) and docs/ContribOperators.md:
//   Attention(input [B, S, D], weights [D, hq + hk + hv], bias?, mask_index?,
//     past (refused), attention_bias?; num_heads, unidirectional 0,
//     qkv_hidden_sizes (hq = hk), scale 1/sqrt(hq / N), mask_filter_value
//     -10000) -> output [B, S, hv]: qkv = input W (+ bias), split, each
//     [B, N, S, h]; scores = scale * Q K^T + mask (+ attention_bias),
//     Softmax over keys, times V, heads merged back. The mask is
//     onnxruntime's additive one: 0 where a key is kept, mask_filter_value
//     where mask_index masks it (2-D [B, S] raw 0/1 mask, 3-D [B, S, S], 1-D
//     [B] key lengths: key j kept when j < len, 1-D [2B]: also j >= start),
//     and the float's lowest where unidirectional hides key j > query i
//     (it overrides the padding value, as PrepareMask writes it).
//   Refused: past / present (the KV cache), past_sequence_length, no bias
//     (onnxruntime-node 1.30's CPU kernel crashes without one), 4-D
//     masks (onnxruntime's CPU kernel refuses them too), do_rotary,
//     hq != hk.
//   MultiHeadAttention(query [B, S, D], key, value [B, L, D / Dv] or BNSH
//     [B, N, L, h] (no bias, no past then), bias [2D + Dv]?,
//     key_padding_mask?, attention_bias?, past_key, past_value [B, N, P, h]?;
//     num_heads, scale, mask_filter_value, unidirectional) -> output,
//     present_key/present_value = Concat(past, new) over T = P + L keys:
//     the same masks and attend() as Attention (onnxruntime's CPU kernel
//     runs the same ApplyAttention). The causal diagonal is offset by P
//     (PrepareMask's past_sequence_length). Refused: packed QKV / KV
//     (onnxruntime's CPU kernel has neither), past_sequence_length and
//     cache_indirection (DecoderMaskedMultiHeadAttention's), the qk output,
//     unidirectional cross attention (L != S: onnxruntime-node 1.30's
//     result matched no diagonal offset tried).
// The default domain's SimplifiedLayerNormalization (what onnxruntime's
// BERT/T5 optimizer writes without a domain; onnxruntime registers it
// there) is the com.microsoft one's normalizer: MSFT_ATTENTION_DEFAULT_OPS.
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';
import { MSFT_TRANSFORMER_OPS } from './onnx-ops-msft-transformer.js';

const OPS = Object.create(null);
const LOWEST = -3.4028234663852886e38; // std::numeric_limits<float>::lowest()

const f32 = (ctx, v, what) => {
  const dt = ctx.value(v).dtype;
  if (dt !== DT.f32) throw new Unsupported(`${what} of ${dtypeName(dt)} is not supported (float32 only)`);
};
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
const f32Const = (ctx, hint, dims, vals) => ctx.constRaw(hint, DT.f32, dims, new Uint8Array(Float32Array.from(vals).buffer));
const known = (d) => typeof d === 'number';

/** [B, S, N*h] -> [B, N, S, h] (Reshape with 0s copies B and S whatever they are). */
function splitHeads(ctx, e, o, x, N, h) {
  const r = e('Reshape', [x, ctx.constI64(`${o}_heads`, [0, 0, N, h])], { allowzero: A.int(0) });
  return e('Transpose', [r], { perm: A.ints([0, 2, 1, 3]) });
}

/** [B, N, S, h] -> [B, S, N*h], named `out`. */
function mergeHeads(ctx, e, o, x, out) {
  const t = e('Transpose', [x], { perm: A.ints([0, 2, 1, 3]) });
  return e('Reshape', [t, ctx.constI64(`${o}_merge`, [0, 0, -1])], { allowzero: A.int(0) }, out);
}

/**
 * onnxruntime's additive key-padding mask from mask_index, broadcastable
 * onto scores [B, N, S, T]: 0 where kept, `filter` where masked; null when
 * there is no mask. The 1-D form of ends and starts needs a known B; a
 * symbolic key length T is read from axis 1 of tIn.
 */
function paddingMask(ctx, e, o, mask, B, S, T, filter, tIn = null) {
  if (!mask) return null;
  const dt = ctx.value(mask).dtype;
  if (dt !== DT.i32) throw new Unsupported(`mask_index of ${dtypeName(dt)} is not supported (int32, as onnxruntime takes it)`);
  const ms = ctx.shape(mask);
  if (!ms) throw new Unsupported('mask_index needs a known rank');
  const zero = f32Const(ctx, `${o}_zero`, [], [0]), fill = f32Const(ctx, `${o}_filter`, [], [filter]);
  const where = (keep) => e('Where', [keep, zero, fill]);
  if (ms.length === 2 || ms.length === 3) {
    // raw 0/1 mask: a value > 0 keeps the key (PrepareMask's test)
    const keep = e('Greater', [mask, ctx.constScalar(`${o}_i0`, DT.i32, 0)]);
    return e('Unsqueeze', [where(keep), ctx.constI64(`${o}_max`, ms.length === 2 ? [1, 2] : [1])]);
  }
  if (ms.length !== 1) throw new Unsupported(`a ${ms.length}-D mask_index is not supported (1-D, 2-D and 3-D are; onnxruntime's CPU kernel refuses 4-D)`);
  // [B] key lengths: the same (possibly symbolic) batch as the input's, as
  // the BERT optimizer's exports have it (EmbedLayerNormalization's
  // mask_index [batch]); [2B] ends and starts: a known batch
  const lengths = ms[0] === B && (known(B) || typeof B === 'string');
  if (!lengths && !(known(B) && ms[0] === 2 * B)) {
    if (!known(B) || !known(ms[0])) throw new Unsupported(`a 1-D mask_index of ${ms[0]} elements over a batch of ${B}: the same batch (key lengths) or a known batch (ends and starts) is supported`);
    throw new Unsupported(`a 1-D mask_index has ${ms[0]} elements: ${B} (key lengths) or ${2 * B} (ends and starts) are supported`);
  }
  if (!known(T) && !tIn) throw new Unsupported('a 1-D mask_index needs a known key length');
  const pos = known(T) ? ctx.constRaw(`${o}_pos`, DT.i32, [1, T], new Uint8Array(Int32Array.from({ length: T }, (_, j) => j).buffer))
    : e('Unsqueeze', [e('Cast', [e('Range', [ctx.constScalar(`${o}_p0`, DT.i64, 0), e('Gather', [e('Shape', [tIn]), ctx.constScalar(`${o}_pax`, DT.i64, 1)], { axis: A.int(0) }), ctx.constScalar(`${o}_p1`, DT.i64, 1)])], { to: A.int(DT.i32) }), ctx.constI64(`${o}_pax0`, [0])]);
  const col = (lo) => (lengths ? e('Unsqueeze', [mask, ctx.constI64(`${o}_col`, [1])])
    : e('Reshape', [e('Slice', [mask, ctx.constI64(`${o}_s${lo}`, [lo]), ctx.constI64(`${o}_e${lo}`, [lo + B])]), ctx.constI64(`${o}_col`, [B, 1])], { allowzero: A.int(0) }));
  let keep = e('Less', [pos, col(0)]); // key j kept while j < end
  if (!lengths) keep = e('And', [keep, e('Not', [e('Less', [pos, col(B)])])]); // and j >= start
  return e('Unsqueeze', [where(keep), ctx.constI64(`${o}_m4`, [1, 2])]); // [B, 1, 1, T]
}

/** The lowest float above the diagonal of [S, T] (key j > off + query i; off T - S by default), 0 elsewhere. */
function causalMask(ctx, o, S, T, off = T - S) {
  if (!known(S) || !known(T)) throw new Unsupported('unidirectional needs a known sequence length');
  const v = new Float32Array(S * T);
  for (let i = 0; i < S; i++) for (let j = off + i + 1; j < T; j++) v[i * T + j] = LOWEST;
  return f32Const(ctx, `${o}_causal`, [S, T], v);
}

/**
 * softmax(scale * Q K^T + bias) V over [B, N, S, h] heads, merged into
 * `out` [B, S, N*hv]. `bias` is the additive mask or null.
 */
function attend(ctx, e, o, q, k, v, scale, bias, extra, out) {
  const kt = e('Transpose', [k], { perm: A.ints([0, 1, 3, 2]) });
  let s = e('Mul', [e('MatMul', [q, kt]), f32Const(ctx, `${o}_scale`, [], [scale])]);
  if (bias) s = e('Add', [s, bias]);
  if (extra) s = e('Add', [s, extra]); // attention_bias comes after the mask, as in onnxruntime
  const p = e('Softmax', [s], { axis: A.int(-1) });
  return mergeHeads(ctx, e, o, e('MatMul', [p, v]), out);
}

OPS.Attention = {
  attrs: ['num_heads', 'unidirectional', 'qkv_hidden_sizes', 'scale', 'mask_filter_value', 'do_rotary', 'past_present_share_buffer', 'rotary_embedding_dim'],
  norm(ctx, n) {
    const [x, w, bias, mask, past, abias, pastLen] = n.inputs, [y, present] = n.outputs, e = emitter(ctx, y);
    if (!w) throw new Unsupported('weights are required');
    if (past) throw new Unsupported('past (the KV cache) is not supported');
    if (pastLen) throw new Unsupported('past_sequence_length is not supported');
    if (present && ctx.trimOutputs([y, present]).length > 1) throw new Unsupported('output present (the KV cache) is not supported');
    // onnxruntime-node 1.30's CPU kernel crashes without a bias: no reference to match
    if (!bias) throw new Unsupported('a missing bias is not supported (onnxruntime\'s CPU kernel needs one)');
    if (attr(n, 'do_rotary', 0)) throw new Unsupported('do_rotary is not supported');
    for (const [v, what] of [[x, 'input'], [w, 'weights'], [bias, 'bias'], [abias, 'attention_bias']]) if (v) f32(ctx, v, what);
    const N = attr(n, 'num_heads');
    if (!N) throw new Unsupported('num_heads is required');
    const xs = ctx.shape(x), ws = ctx.shape(w);
    if (!xs || xs.length !== 3) throw new Unsupported('input must be 3-D [batch, sequence, hidden]');
    if (!ws || ws.length !== 2 || !known(ws[1])) throw new Unsupported('weights must be 2-D with a known width');
    const sizes = n.attrs.qkv_hidden_sizes ? attr(n, 'qkv_hidden_sizes') : [ws[1] / 3, ws[1] / 3, ws[1] / 3];
    const [hq, hk, hv] = sizes.map(Number);
    if (sizes.length !== 3 || hq + hk + hv !== ws[1]) throw new Unsupported(`qkv_hidden_sizes ${sizes} do not add up to the weights' width ${ws[1]}`);
    if (hq !== hk) throw new Unsupported(`qkv_hidden_sizes with q (${hq}) != k (${hk}) are not supported`);
    if (hq % N || hv % N) throw new Unsupported(`hidden sizes ${hq}, ${hv} are not multiples of num_heads ${N}`);
    const qkv = e('Add', [e('MatMul', [x, w]), bias]);
    const parts = [hq, hk, hv].map((_, i) => ctx.tmp(`${y}_qkv${i}`));
    ctx.emit('Split', [qkv, ctx.constI64(`${y}_sizes`, [hq, hk, hv])], parts, { axis: A.int(2) });
    const [q, k, v] = parts.map((p, i) => splitHeads(ctx, e, `${y}_${i}`, p, N, (i === 2 ? hv : hq) / N));
    const scale = attr(n, 'scale', 0) || 1 / Math.sqrt(hq / N);
    const [B, S] = xs;
    let m = paddingMask(ctx, e, y, mask, B, S, S, attr(n, 'mask_filter_value', -10000), x);
    if (attr(n, 'unidirectional', 0)) {
      const c = causalMask(ctx, y, S, S);
      // PrepareMask writes lowest over the padding value: a Where, not a sum
      m = m ? e('Where', [e('Less', [c, f32Const(ctx, `${y}_z`, [], [0])]), c, m]) : c;
    }
    attend(ctx, e, y, q, k, v, scale, m, abias || null, y);
  },
};

/** x (+ the `at`..`at + w` slice of bias) as [B, N, S, h] heads; a 4-D x is BNSH already. */
function headsOf(ctx, e, o, x, bias, at, w, N) {
  const r = ctx.shape(x).length;
  if (r === 4) return x;
  const xb = bias ? e('Add', [x, e('Slice', [bias, ctx.constI64(`${o}_b0`, [at]), ctx.constI64(`${o}_b1`, [at + w]), ctx.constI64(`${o}_bax`, [0])])]) : x;
  return splitHeads(ctx, e, o, xb, N, w / N);
}

OPS.MultiHeadAttention = {
  attrs: ['num_heads', 'mask_filter_value', 'scale', 'unidirectional'],
  norm(ctx, n) {
    const [q, k, v, bias, mask, abias, pk, pv, pastLen, cacheInd] = n.inputs, [y, presK, presV, qk] = n.outputs, e = emitter(ctx, y);
    if (pastLen || cacheInd) throw new Unsupported('past_sequence_length and cache_indirection (DecoderMaskedMultiHeadAttention\'s inputs) are not supported');
    if (qk) throw new Unsupported('the qk output is not supported');
    if (!k || !v) throw new Unsupported('separate key and value are required (packed QKV and packed KV are not implemented by onnxruntime\'s CPU kernel either)');
    if (!!pk !== !!pv) throw new Unsupported('past_key and past_value must be both present or both absent');
    for (const [x, what] of [[q, 'query'], [k, 'key'], [v, 'value'], [bias, 'bias'], [abias, 'attention_bias'], [pk, 'past_key'], [pv, 'past_value']]) if (x) f32(ctx, x, what);
    const N = attr(n, 'num_heads', 0);
    if (!(N > 0)) throw new Unsupported('num_heads is required');
    const qs = ctx.shape(q), ks = ctx.shape(k), vs = ctx.shape(v);
    if (!qs || qs.length !== 3 || !known(qs[2])) throw new Unsupported('query must be 3-D [batch, sequence, hidden] with a known hidden size (packed QKV is not implemented by onnxruntime\'s CPU kernel)');
    if (!ks || !vs || ks.length !== vs.length || (ks.length !== 3 && ks.length !== 4)) throw new Unsupported('key and value must be both 3-D [batch, kv_sequence, hidden] or both 4-D BNSH');
    const D = qs[2], H = D / N;
    if (!Number.isInteger(H)) throw new Unsupported(`query's hidden size ${D} is not a multiple of num_heads ${N}`);
    const four = ks.length === 4;
    if (four && (bias || pk)) throw new Unsupported('4-D (BNSH) key and value take no bias and no past, as in onnxruntime');
    if (four && (ks[1] !== N || ks[3] !== H || vs[1] !== N)) throw new Unsupported(`4-D key and value must be [batch, ${N}, kv_sequence, head_size]`);
    if (!four && ks[2] !== D) throw new Unsupported(`key's hidden size ${ks[2]} is not query's ${D}`);
    const Dv = four ? vs[1] * vs[3] : vs[2];
    if (!known(Dv) || Dv % N) throw new Unsupported(`value's hidden size ${Dv} is not a multiple of num_heads ${N}`);
    if (bias) {
      const bs = ctx.shape(bias);
      if (!bs || bs.length !== 1 || bs[0] !== 2 * D + Dv) throw new Unsupported(`bias must be [${2 * D + Dv}] (query, key, value biases)`);
    }
    const Q = headsOf(ctx, e, `${y}_q`, q, bias, 0, D, N);
    let K = headsOf(ctx, e, `${y}_k`, k, bias, D, D, N), V = headsOf(ctx, e, `${y}_v`, v, bias, 2 * D, Dv, N);
    if (pk) {
      const ps = ctx.shape(pk);
      if (!ps || ps.length !== 4 || ps[1] !== N || ps[3] !== H) throw new Unsupported(`past_key and past_value must be BNSH [batch, ${N}, past, ${H}]`);
      K = e('Concat', [pk, K], { axis: A.int(2) });
      V = e('Concat', [pv, V], { axis: A.int(2) });
    }
    if (presK) e('Identity', [K], {}, presK);
    if (presV) e('Identity', [V], {}, presV);
    const B = qs[0], S = qs[1], T = ctx.shape(K)[2], P = pk ? ctx.shape(pk)[2] : 0;
    const scale = attr(n, 'scale', 0) || 1 / Math.sqrt(H);
    let m = paddingMask(ctx, e, y, mask, B, S, T, attr(n, 'mask_filter_value', -10000));
    if (attr(n, 'unidirectional', 0)) {
      // PrepareMask's diagonal is offset by the past length, not T - S (they differ for cross attention)
      if (!known(P)) throw new Unsupported('unidirectional needs a known past length');
      const L = ctx.shape(k)[four ? 2 : 1];
      // cross attention (kv sequence != sequence) under a causal mask: onnxruntime-node 1.30's result
      // matched no diagonal offset we tried; refused rather than guessed
      if (L !== S) throw new Unsupported(`unidirectional with a kv sequence (${L}) other than the sequence (${S}) is not supported`);
      const c = causalMask(ctx, y, S, T, P);
      m = m ? e('Where', [e('Less', [c, f32Const(ctx, `${y}_z`, [], [0])]), c, m]) : c;
    }
    attend(ctx, e, y, Q, K, V, scale, m, abias || null, y);
  },
};

export const MSFT_ATTENTION_OPS = OPS;
export const MSFT_ATTENTION_DEFAULT_OPS = { SimplifiedLayerNormalization: MSFT_TRANSFORMER_OPS.SimplifiedLayerNormalization };
