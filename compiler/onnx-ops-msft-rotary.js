// onnxruntime's com.microsoft RotaryEmbedding (the rotary position embedding
// of Llama-style exports), LOWERED here to standard ops (Gather, Slice, Mul,
// Sub, Add, Concat, Reshape), no kernel of its own. float32 only. Semantics
// from onnxruntime 1.30's CPU kernel (contrib_ops/cpu/bert/rotary_embedding.cc,
// rotary_embedding_helper.h) and docs/ContribOperators.md:
//   RotaryEmbedding(input [B, S, hidden] or [B, N, S, H], position_ids int64
//     [1] (an offset: position p + s) or [B, S], cos_cache and sin_cache
//     [max_sequence_length, R/2]; interleaved 0, num_heads, rotary_embedding_dim
//     R (0: the cache's width * 2 = the head size), scale, is_packed_batching)
//     -> output, the input's shape: per head, the first R lanes rotated by the
//     cached angle of the token's position, the other H - R lanes copied
//     (partial rotary). Not interleaved: lanes i and i + R/2 form a pair,
//     out[i] = x[i] cos - x[i + R/2] sin, out[i + R/2] = x[i + R/2] cos +
//     x[i] sin; interleaved: lanes 2i and 2i + 1.
//   scale is accepted and, as by onnxruntime's CPU kernel, not used (it only
//     scales a cache update, which onnxruntime does not implement either).
//   Refused: is_packed_batching = 1, a sequence longer than the caches
//     (onnxruntime refuses it too: "Updating cos_cache and sin_cache ... is
//     not currently supported"), other dtypes, shapes onnxruntime's
//     CheckInputs rejects.
// rotary() is the rotation itself over [.., .., .., H] heads, reused by
// GroupQueryAttention's do_rotary (onnx-ops-msft-gqa.js).
import { A, attr, DT, dtypeName, Unsupported } from './ir.js';

const OPS = Object.create(null);
const known = (d) => typeof d === 'number';
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];

/** `lo..hi` of x's last axis. */
const lanes = (ctx, e, o, x, lo, hi) => e('Slice', [x, ctx.constI64(`${o}_lo`, [lo]), ctx.constI64(`${o}_hi`, [hi]), ctx.constI64(`${o}_ax`, [-1])]);

/**
 * The positions [1 or B, S] (int64) of a sequence of S tokens: `pos` [B, S]
 * as given, or a scalar / [1] offset p as p + 0..S-1. `S` a number, or null
 * with `shapeOf` a value whose axis `axis` is the sequence.
 */
export function positions(ctx, e, o, pos, S, shapeOf, axis) {
  const ps = ctx.shape(pos);
  if (ps.length === 2) return pos;
  let r;
  if (known(S)) r = ctx.constI64(`${o}_arange`, Array.from({ length: S }, (_, i) => i));
  else {
    const len = e('Gather', [e('Shape', [shapeOf]), ctx.constScalar(`${o}_sax`, DT.i64, axis)], { axis: A.int(0) });
    r = e('Range', [ctx.constScalar(`${o}_r0`, DT.i64, 0), len, ctx.constScalar(`${o}_r1`, DT.i64, 1)]);
  }
  return e('Add', [e('Reshape', [pos, ctx.constI64(`${o}_p11`, [1, 1])], { allowzero: A.int(0) }), e('Unsqueeze', [r, ctx.constI64(`${o}_u0`, [0])])]);
}

/**
 * x [.., .., .., H] with its first R lanes rotated: cos, sin broadcastable
 * onto [.., .., .., R/2]. The other H - R lanes are copied. Named `out`.
 */
export function rotary(ctx, e, o, x, cos, sin, { H, R, interleaved }, out) {
  const h = R / 2;
  let y;
  if (!interleaved) {
    const x1 = lanes(ctx, e, `${o}_a`, x, 0, h), x2 = lanes(ctx, e, `${o}_b`, x, h, R);
    const y1 = e('Sub', [e('Mul', [x1, cos]), e('Mul', [x2, sin])]);
    const y2 = e('Add', [e('Mul', [x2, cos]), e('Mul', [x1, sin])]);
    y = [y1, y2];
  } else {
    // lanes 2i, 2i + 1 as [.., R/2, 2]: the even and odd lanes side by side
    const xr = R === H ? x : lanes(ctx, e, `${o}_r`, x, 0, R);
    const x5 = e('Reshape', [xr, ctx.constI64(`${o}_pairs`, [0, 0, 0, h, 2])], { allowzero: A.int(0) });
    const ev = lanes(ctx, e, `${o}_e`, x5, 0, 1), od = lanes(ctx, e, `${o}_o`, x5, 1, 2);
    const u = ctx.constI64(`${o}_ul`, [-1]);
    const c5 = e('Unsqueeze', [cos, u]), s5 = e('Unsqueeze', [sin, u]);
    const ye = e('Sub', [e('Mul', [ev, c5]), e('Mul', [od, s5])]);
    const yo = e('Add', [e('Mul', [od, c5]), e('Mul', [ev, s5])]);
    y = [e('Reshape', [e('Concat', [ye, yo], { axis: A.int(-1) }), ctx.constI64(`${o}_unpair`, [0, 0, 0, R])], { allowzero: A.int(0) })];
  }
  if (R < H) y.push(lanes(ctx, e, `${o}_pass`, x, R, H));
  return y.length === 1 ? e('Identity', y, {}, out) : e('Concat', y, { axis: A.int(-1) }, out);
}

/** cos/sin cache rows of `pos` [P, S], unsqueezed at `axis` (the heads' axis). */
export function cacheRows(ctx, e, o, cache, pos, axis) {
  return e('Unsqueeze', [e('Gather', [cache, pos], { axis: A.int(0) }), ctx.constI64(`${o}_hax`, [axis])]);
}

OPS.RotaryEmbedding = {
  attrs: ['interleaved', 'num_heads', 'rotary_embedding_dim', 'scale', 'is_packed_batching'],
  norm(ctx, n) {
    const [x, pos, cosC, sinC] = n.inputs, y = n.outputs[0], e = emitter(ctx, y);
    if (!pos || !cosC || !sinC) throw new Unsupported('input, position_ids, cos_cache and sin_cache are required');
    if (attr(n, 'is_packed_batching', 0)) throw new Unsupported('is_packed_batching is not supported');
    for (const [v, what] of [[x, 'input'], [cosC, 'cos_cache'], [sinC, 'sin_cache']]) {
      const dt = ctx.value(v).dtype;
      if (dt !== DT.f32) throw new Unsupported(`${what} of ${dtypeName(dt)} is not supported (float32 only)`);
    }
    if (ctx.value(pos).dtype !== DT.i64) throw new Unsupported(`position_ids of ${dtypeName(ctx.value(pos).dtype)} is not supported (int64, as onnxruntime takes it)`);
    const xs = ctx.shape(x), ps = ctx.shape(pos), cs = ctx.shape(cosC), ss = ctx.shape(sinC);
    if (!xs || (xs.length !== 3 && xs.length !== 4)) throw new Unsupported('input must be 3-D [batch, sequence, hidden] or 4-D [batch, heads, sequence, head_size]');
    if (!ps || !(ps.length === 2 || (ps.length <= 1 && (ps.length === 0 || ps[0] === 1)))) throw new Unsupported('position_ids must be [1] (an offset) or 2-D [batch, sequence]');
    if (!cs || !ss || cs.length !== 2 || ss.length !== 2 || !known(cs[1]) || cs[0] !== ss[0] || cs[1] !== ss[1]) throw new Unsupported('cos_cache and sin_cache must be 2-D of one shape [max_sequence_length, rotary_dim / 2] with a known width');
    const four = xs.length === 4;
    const hidden = four ? (known(xs[1]) && known(xs[3]) ? xs[1] * xs[3] : null) : xs[2];
    if (!known(hidden)) throw new Unsupported('the hidden size (heads x head size) must be known');
    const Rattr = attr(n, 'rotary_embedding_dim', 0), Nattr = attr(n, 'num_heads', 0);
    if (Rattr > 0 && !Nattr) throw new Unsupported('num_heads must be provided if rotary_embedding_dim is specified');
    // onnxruntime's CheckInputs: the head size from the cache unless R is given
    const H = Rattr === 0 ? cs[1] * 2 : hidden / Nattr;
    const N = Nattr > 0 ? Nattr : hidden / H;
    const R = Rattr > 0 ? Rattr : H;
    if (!Number.isInteger(H) || !Number.isInteger(N) || N * H !== hidden) throw new Unsupported(`the hidden size ${hidden} is not num_heads x head_size (${N} x ${H})`);
    if (four && (xs[1] !== N || xs[3] !== H)) throw new Unsupported(`a 4-D input [${xs}] needs ${N} heads of ${H} (from the caches and attributes)`);
    if (R > H || R % 2) throw new Unsupported(`rotary_embedding_dim ${R} must be even and at most the head size ${H}`);
    if (cs[1] !== R / 2) throw new Unsupported(`the caches' width ${cs[1]} is not rotary_embedding_dim / 2 = ${R / 2}`);
    const [B] = xs, S = four ? xs[2] : xs[1];
    if (ps.length === 2 && ((known(ps[0]) && known(B) && ps[0] !== B) || (known(ps[1]) && known(S) && ps[1] !== S))) throw new Unsupported(`position_ids [${ps}] is not [batch, sequence] = [${B}, ${S}]`);
    if (known(S) && known(cs[0]) && S > cs[0]) throw new Unsupported(`a sequence of ${S} is longer than the caches (${cs[0]}): onnxruntime does not update them either`);
    const p = positions(ctx, e, y, pos, S, x, four ? 2 : 1);
    const heads = four ? 1 : 2; // [B, S, N, H]: the heads at axis 2; [B, N, S, H]: at 1
    const cos = cacheRows(ctx, e, `${y}_c`, cosC, p, heads), sin = cacheRows(ctx, e, `${y}_s`, sinC, p, heads);
    const x4 = four ? x : e('Reshape', [x, ctx.constI64(`${y}_heads`, [0, 0, N, H])], { allowzero: A.int(0) });
    const interleaved = attr(n, 'interleaved', 0) === 1;
    if (four) return rotary(ctx, e, y, x4, cos, sin, { H, R, interleaved }, y);
    const r = rotary(ctx, e, y, x4, cos, sin, { H, R, interleaved });
    e('Reshape', [r, ctx.constI64(`${y}_merge`, [0, 0, hidden])], { allowzero: A.int(0) }, y);
  },
};

// The default domain's RotaryEmbedding (opset 23): the same rotation over
// X [B, N, S, H] (4-D) or [B, S, hidden] (3-D, num_heads required),
// cos_cache / sin_cache [B, S, R/2] as given, or [max_position, R/2] rows
// picked by position_ids [B, S]; interleaved, rotary_embedding_dim (0: the
// whole head). float32 only.
export const ONNX_ROTARY = {
  attrs: ['interleaved', 'num_heads', 'rotary_embedding_dim'],
  norm(ctx, n) {
    if (ctx.opset < 23) throw new Unsupported(`RotaryEmbedding is an opset-23 op (this model is opset ${ctx.opset})`);
    const [x, cosC, sinC, pos] = n.inputs, y = n.outputs[0], e = emitter(ctx, y);
    if (!cosC || !sinC) throw new Unsupported('X, cos_cache and sin_cache are required');
    for (const [v, what] of [[x, 'X'], [cosC, 'cos_cache'], [sinC, 'sin_cache']]) {
      const dt = ctx.value(v).dtype;
      if (dt !== DT.f32) throw new Unsupported(`${what} of ${dtypeName(dt)} is not supported (float32 only)`);
    }
    if (pos && ctx.value(pos).dtype !== DT.i64) throw new Unsupported('position_ids must be int64');
    const xs = ctx.shape(x), cs = ctx.shape(cosC);
    if (!xs || (xs.length !== 3 && xs.length !== 4)) throw new Unsupported('X must be 3-D [batch, sequence, hidden] or 4-D [batch, heads, sequence, head_size]');
    const four = xs.length === 4, Na = attr(n, 'num_heads', 0);
    if (!four && !Na) throw new Unsupported('a 3-D X needs num_heads');
    const N = four ? xs[1] : Na, H = four ? xs[3] : xs[2] / Na;
    if (!known(N) || !known(H) || !Number.isInteger(H)) throw new Unsupported('the head count and size must be known');
    const R = attr(n, 'rotary_embedding_dim', 0) || H;
    if (R > H || R % 2) throw new Unsupported(`rotary_embedding_dim ${R} must be even and at most the head size ${H}`);
    if (!cs || cs.length !== (pos ? 2 : 3) || cs[cs.length - 1] !== R / 2) throw new Unsupported(`cos_cache must be ${pos ? '[max_position, R/2]' : '[batch, sequence, R/2]'} with R/2 = ${R / 2}`);
    const heads = four ? 1 : 2;
    const rows = (c) => e('Unsqueeze', [pos ? e('Gather', [c, pos], { axis: A.int(0) }) : c, ctx.constI64(`${y}_${c}_hax`, [heads])]);
    const cos = rows(cosC), sin = rows(sinC), interleaved = attr(n, 'interleaved', 0) === 1;
    if (four) return rotary(ctx, e, y, x, cos, sin, { H, R, interleaved }, y);
    const x4 = e('Reshape', [x, ctx.constI64(`${y}_heads`, [0, 0, N, H])], { allowzero: A.int(0) });
    e('Reshape', [rotary(ctx, e, y, x4, cos, sin, { H, R, interleaved }), ctx.constI64(`${y}_merge`, [0, 0, N * H])], { allowzero: A.int(0) }, y);
  },
};

export const MSFT_ROTARY_OPS = OPS;
