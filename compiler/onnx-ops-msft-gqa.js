// onnxruntime's com.microsoft GroupQueryAttention (onnxruntime-genai's
// Llama-style exports), LOWERED here to standard ops, no kernel of its own.
// float32 only. Semantics from onnxruntime 1.30's CPU kernel
// (contrib_ops/cpu/bert/group_query_attention.cc, gqa_attention_base.h,
// group_query_attention_helper.h):
//   GroupQueryAttention(query [B, S, N*H] (or packed [B, S, (N + 2 Nk) H]
//     when key/value are absent), key, value [B, S, Nk*H], past_key,
//     past_value [B, Nk, P, H] (BNSH), seqlens_k int32 [B] (each row's total
//     length - 1), total_sequence_length int32 scalar T, cos_cache,
//     sin_cache [>= T, R/2]; num_heads N, kv_num_heads Nk, scale
//     (1/sqrt(H)), do_rotary, rotary_interleaved, local_window_size (-1),
//     softcap (0), smooth_softmax (0)) -> output [B, S, N*H], present_key,
//     present_value [B, Nk, max(T, P), H].
//   Per batch row b: tot = seqlens_k[b] + 1; past = 0 on the first prompt
//     (S == T), else tot - S. Query s is at position p = past + s; it sees
//     keys t <= p, t < tot and, with a local window w > 0, t > p - w (w keys,
//     itself included: what onnxruntime 1.30 computes, checked). Rotary
//     (do_rotary: the caches' width x 2 lanes of Q and K, as RotaryEmbedding)
//     at position p, padded prompt tokens included (1.30 does not move them
//     to 1 as the WebGPU kernel does: checked). present rows t < past are
//     past's, the S new ones follow at past, the rest are 0 (onnxruntime
//     zeroes a present that does not alias past: with a max-length past
//     buffer, T <= P, this is the shared-buffer layout's content too).
//     Scores = scale * Q K^T, softcap * tanh(scores / softcap) when softcap
//     > 0, softmax over the keys seen (smooth_softmax: an extra zero logit in
//     the denominator), times V. Query head h reads kv head h / (N / Nk).
//     present's length max(T, P) is the value of an input: a Slice with a
//     computed end (the shape is known at run time only).
//   Padded query rows of a first prompt (s >= tot) are padding: matched by
//     the tests without a local window, not with one.
//   Refused: position_ids, attention_bias, head_sink inputs (the newer
//     custom-attention inputs), the qk output, other dtypes.
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';
import { rotary } from './onnx-ops-msft-rotary.js';

const OPS = Object.create(null);
const LOWEST = -3.4028234663852886e38;
const known = (d) => typeof d === 'number';
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
const f32Const = (ctx, hint, dims, vals) => ctx.constRaw(hint, DT.f32, dims, new Uint8Array(Float32Array.from(vals).buffer));

/** The presence and dtype checks onnxruntime's CheckInputs makes (and the inputs not lowered). */
function checkInputs(ctx, n) {
  const [q, k, v, pk, pv, seqlens, totalIn, cosC, sinC, posIds, abias, sink] = n.inputs, qk = n.outputs[3];
  if (posIds || abias || sink) throw new Unsupported('the position_ids, attention_bias and head_sink inputs are not supported');
  if (qk || attr(n, 'qk_output', 0)) throw new Unsupported('the qk output is not supported');
  if (!seqlens || !totalIn) throw new Unsupported('seqlens_k and total_sequence_length are required');
  if (!!k !== !!v) throw new Unsupported('key and value must be both present, or both absent (packed QKV)');
  if (!!pk !== !!pv) throw new Unsupported('past_key and past_value must be both present or both absent');
  if (!!cosC !== !!sinC) throw new Unsupported('cos_cache and sin_cache must be both present or both absent');
  for (const [x, what] of [[q, 'query'], [k, 'key'], [v, 'value'], [pk, 'past_key'], [pv, 'past_value'], [cosC, 'cos_cache'], [sinC, 'sin_cache']]) {
    if (x && ctx.value(x).dtype !== DT.f32) throw new Unsupported(`${what} of ${dtypeName(ctx.value(x).dtype)} is not supported (float32 only)`);
  }
  for (const [x, what] of [[seqlens, 'seqlens_k'], [totalIn, 'total_sequence_length']]) {
    if (ctx.value(x).dtype !== DT.i32) throw new Unsupported(`${what} of ${dtypeName(ctx.value(x).dtype)} is not supported (int32, as onnxruntime takes it)`);
  }
}

OPS.GroupQueryAttention = {
  attrs: ['num_heads', 'kv_num_heads', 'scale', 'do_rotary', 'rotary_interleaved', 'local_window_size', 'softcap', 'smooth_softmax', 'qk_output'],
  norm(ctx, n) {
    const [q, k, v, pk, pv, seqlens, totalIn, cosC, sinC] = n.inputs;
    const [y, presK, presV] = n.outputs, e = emitter(ctx, y);
    const I = (hint, vals) => ctx.constI64(`${y}_${hint}`, vals);
    const S64 = (hint, x) => ctx.constScalar(`${y}_${hint}`, DT.i64, x);
    checkInputs(ctx, n);
    const N = attr(n, 'num_heads', 0), Nk = attr(n, 'kv_num_heads', 0);
    if (!(N > 0) || !(Nk > 0)) throw new Unsupported('num_heads and kv_num_heads are required');
    if (N % Nk) throw new Unsupported(`num_heads ${N} is not a multiple of kv_num_heads ${Nk}`);
    const G = N / Nk;
    const qs = ctx.shape(q);
    if (!qs || qs.length !== 3 || !known(qs[2])) throw new Unsupported('query must be 3-D [batch, sequence, hidden] with a known hidden size');
    const H = k ? qs[2] / N : qs[2] / (N + 2 * Nk);
    if (!Number.isInteger(H)) throw new Unsupported(`query's hidden size ${qs[2]} does not split into ${k ? N : `${N} + 2 x ${Nk}`} heads`);
    if (k) for (const x of [k, v]) {
      const s = ctx.shape(x);
      if (!s || s.length !== 3 || s[2] !== Nk * H) throw new Unsupported(`key and value must be [batch, sequence, ${Nk * H}]`);
    }
    if (pk) for (const x of [pk, pv]) {
      const s = ctx.shape(x);
      if (!s || s.length !== 4 || s[1] !== Nk || s[3] !== H) throw new Unsupported(`past_key and past_value must be BNSH [batch, ${Nk}, past, ${H}]`);
    }
    const interleaved = attr(n, 'rotary_interleaved', 0) === 1, doRot = attr(n, 'do_rotary', 0) === 1;
    let R = 0;
    if (doRot) {
      if (!cosC) throw new Unsupported('do_rotary needs cos_cache and sin_cache');
      const cs = ctx.shape(cosC), ss = ctx.shape(sinC);
      if (!cs || !ss || cs.length !== 2 || ss.length !== 2 || !known(cs[1]) || cs[1] !== ss[1]) throw new Unsupported('cos_cache and sin_cache must be 2-D [max_sequence_length, rotary_dim / 2] of one known width');
      R = cs[1] * 2;
      if (R > H) throw new Unsupported(`the caches' width ${cs[1]} is more than head_size / 2 = ${H / 2}`);
    }
    const scale = attr(n, 'scale', 0) || 1 / Math.sqrt(H);
    const softcap = attr(n, 'softcap', 0), smooth = attr(n, 'smooth_softmax', 0) === 1;
    const lw = attr(n, 'local_window_size', -1);

    // Q [B, N, S, H], K and V [B, Nk, S, H]
    let qv = q, kv = k, vv = v;
    if (!k) {
      const parts = [0, 1, 2].map((i) => ctx.tmp(`${y}_qkv${i}`));
      ctx.emit('Split', [q, I('sizes', [N * H, Nk * H, Nk * H])], parts, { axis: A.int(2) });
      [qv, kv, vv] = parts;
    }
    const heads = (x, nh, hint) => e('Transpose', [e('Reshape', [x, I(`${hint}_h`, [0, 0, nh, H])], { allowzero: A.int(0) })], { perm: A.ints([0, 2, 1, 3]) });
    let Q = heads(qv, N, 'q'), K = heads(kv, Nk, 'k');
    const V = heads(vv, Nk, 'v');

    // per row: tot = seqlens_k + 1, past = first prompt ? 0 : tot - S  ([B, 1] int64)
    const Sv = known(qs[1]) ? S64('S', qs[1]) : e('Gather', [e('Shape', [q]), S64('sax', 1)], { axis: A.int(0) });
    const T = e('Cast', [e('Reshape', [totalIn, I('scalar', [])], { allowzero: A.int(0) })], { to: A.int(DT.i64) });
    const tot = e('Unsqueeze', [e('Add', [e('Cast', [seqlens], { to: A.int(DT.i64) }), S64('one', 1)]), I('u1', [1])]);
    const past = e('Where', [e('Equal', [Sv, T]), S64('zero', 0), e('Sub', [tot, Sv])]);
    const arange = (len, hint, n0) => (known(n0) ? I(hint, Array.from({ length: n0 }, (_, i) => i)) : e('Range', [S64(`${hint}0`, 0), len, S64(`${hint}1`, 1)]));
    const sIdx = e('Unsqueeze', [arange(Sv, 'srange', qs[1]), I('u0', [0])]); // [1, S]
    const qpos = e('Add', [past, sIdx]); // [B, S]: each query's position

    if (doRot) {
      const rows = (c, hint) => e('Unsqueeze', [e('Gather', [c, qpos], { axis: A.int(0) }), I(`${hint}_hax`, [1])]);
      const cos = rows(cosC, 'cos'), sin = rows(sinC, 'sin');
      Q = rotary(ctx, e, `${y}_rq`, Q, cos, sin, { H, R, interleaved });
      K = rotary(ctx, e, `${y}_rk`, K, cos, sin, { H, R, interleaved });
    }

    // the cache rows t of [past rows, new rows]: t < past from past_key, then the S new at past, 0 after
    const ps = pk ? ctx.shape(pk) : null;
    const P = pk ? (known(ps[2]) ? S64('P', ps[2]) : e('Gather', [e('Shape', [pk]), S64('pax', 2)], { axis: A.int(0) })) : S64('P0', 0);
    const catK = pk ? e('Concat', [pk, K], { axis: A.int(2) }) : K, catV = pk ? e('Concat', [pv, V], { axis: A.int(2) }) : V;
    const L0 = pk ? (known(ps[2]) && known(qs[1]) ? ps[2] + qs[1] : null) : qs[1];
    const L = e('Add', [P, Sv]);
    const t = e('Unsqueeze', [arange(L, 'trange', L0), I('u0t', [0])]); // [1, L]
    const fromPast = e('Less', [t, past]);
    const newEnd = e('Add', [past, Sv]);
    const valid = e('Less', [t, newEnd]); // [B, L]
    const last = e('Sub', [L, S64('one2', 1)]);
    const src = e('Min', [e('Where', [fromPast, t, e('Add', [e('Sub', [t, past]), P])]), last]);
    const idx = e('Expand', [e('Unsqueeze', [src, I('u13', [1, 3])]), I('kvb', [1, Nk, 1, H])]);
    const valid4 = e('Unsqueeze', [valid, I('u13v', [1, 3])]);
    const zero = f32Const(ctx, `${y}_z`, [], [0]);
    const cacheOf = (cat) => e('Where', [valid4, e('GatherElements', [cat, idx], { axis: A.int(2) }), zero]);
    const Kc = cacheOf(catK), Vc = cacheOf(catV); // [B, Nk, L, H]
    const Tp = e('Max', [T, P]);
    const present = (c, out) => e('Slice', [c, e('Reshape', [S64(`${out}_s0`, 0), I('one1', [1])], { allowzero: A.int(0) }), e('Reshape', [Tp, I('one1b', [1])], { allowzero: A.int(0) }), I(`${out}_ax2`, [2])], {}, out);
    if (presK) present(Kc, presK);
    if (presV) present(Vc, presV);

    // scores [B, Nk, G*S, L]: the G query heads of a kv head stacked along the rows
    const Qg = e('Reshape', [Q, I('qg', [0, Nk, -1, H])], { allowzero: A.int(0) });
    let s = e('Mul', [e('MatMul', [Qg, e('Transpose', [Kc], { perm: A.ints([0, 1, 3, 2]) })]), f32Const(ctx, `${y}_scale`, [], [scale])]);
    if (softcap > 0) {
      const c = f32Const(ctx, `${y}_cap`, [], [softcap]);
      s = e('Mul', [e('Tanh', [e('Div', [s, c])]), c]);
    }
    // key t seen by query s: t <= past + s, t < tot, and t > past + s - w with a window (w keys, itself included: onnxruntime 1.30)
    const qp = e('Unsqueeze', [qpos, I('u2', [2])]); // [B, S, 1]
    const t3 = e('Unsqueeze', [t, I('u1t', [1])]); // [1, 1, L]
    let seen = e('And', [e('LessOrEqual', [t3, qp]), e('Less', [t3, e('Unsqueeze', [tot, I('u2t', [2])])])]);
    if (lw > 0) seen = e('And', [seen, e('Greater', [t3, e('Sub', [qp, S64('lw', lw)])])]);
    const seen4 = e('Tile', [e('Unsqueeze', [seen, I('u1s', [1])]), I('tile', [1, 1, G, 1])]); // [B, 1, G*S, L]
    s = e('Where', [seen4, s, f32Const(ctx, `${y}_lowest`, [], [LOWEST])]);
    let p;
    if (!smooth) p = e('Softmax', [s], { axis: A.int(-1) });
    else {
      // softmax with an extra zero logit: exp(s - m) / (sum exp(s - m) + exp(-m)), m = max(max s, 0)
      const m = e('Max', [e('ReduceMax', [s, I('axl', [-1])], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) }), zero]);
      const ex = e('Exp', [e('Sub', [s, m])]);
      const den = e('Add', [e('ReduceSum', [ex, I('axl2', [-1])], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) }), e('Exp', [e('Neg', [m])])]);
      p = e('Div', [ex, den]);
    }
    const o = e('Reshape', [e('MatMul', [p, Vc]), I('og', [0, N, -1, H])], { allowzero: A.int(0) }); // [B, N, S, H]
    // [B, S, N*H]: the shape from query's (o's is not told: the cache's length is max(T, P)), so y's is known
    const yShape = e('Concat', [e('Slice', [e('Shape', [q]), I('ys0', [0]), I('ys1', [2])]), I('yhid', [N * H])], { axis: A.int(0) });
    e('Reshape', [e('Transpose', [o], { perm: A.ints([0, 2, 1, 3]) }), yShape], { allowzero: A.int(0) }, y);
  },
};

export const MSFT_GQA_OPS = OPS;
