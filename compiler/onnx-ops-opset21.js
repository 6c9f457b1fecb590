// Ops that opsets 18..23 added or changed and that the converter lowers
// here: Gelu (20; the backend's Gelu kernel, approximate "none" | "tanh"),
// GroupNormalization (18 and 21: 21 made scale and bias per channel, where
// 18 had them per group), AffineGrid (20, 2-D: a constant base grid
// times theta) and RMSNormalization (23, its function body). Opset 22 only
// added bfloat16 to 48 ops and 23 float4e2m1 to 18 (dtypes, refused by
// name where unsupported). The ops of these opsets not lowered anywhere are refused
// with their reason (REFUSED below). What the other ops' 19..21 versions
// changed is handled in their own normalizers (Cast/CastLike saturate and
// float8/int4 names, Pad 'wrap', Resize half_pixel_symmetric, DFT's axis
// input, GridSample's modes), or is only new element types, which every
// normalizer and kernel refuses by dtype.
import { A, attr, DT, dtypeName, isConcrete, numel, writeElems, Unsupported } from './ir.js';
import { ONNX_ROTARY } from './onnx-ops-msft-rotary.js';

const OPS = Object.create(null);

OPS.Gelu = {
  attrs: ['approximate'],
  norm(ctx, n) {
    if (ctx.opset < 20) throw new Unsupported(`Gelu is an opset-20 op (this model is opset ${ctx.opset})`);
    const ap = attr(n, 'approximate', 'none');
    if (ap !== 'none' && ap !== 'tanh') throw new Unsupported(`approximate must be "none" or "tanh", got ${JSON.stringify(ap)}`);
    ctx.emit('Gelu', n.inputs, n.outputs, { approximate: A.string(ap) });
  },
};

/**
 * GroupNormalization: X [N, C, ...] viewed as [N, G, C/G * spatial], each
 * group normalized by its own mean and biased variance, then scaled and
 * shifted per channel (opset 21) or per group (opset 18). stash_type 1
 * (compute in float32) is the only one: X must be float32.
 */
OPS.GroupNormalization = {
  attrs: ['epsilon', 'num_groups', 'stash_type'],
  norm(ctx, n) {
    if (ctx.opset < 18) throw new Unsupported(`GroupNormalization is an opset-18 op (this model is opset ${ctx.opset})`);
    const [x, scale, bias] = n.inputs;
    if (!scale || !bias) throw new Unsupported('scale and bias are required');
    const G = attr(n, 'num_groups', null), eps = attr(n, 'epsilon', 1e-5);
    if (!Number.isInteger(G) || G < 1) throw new Unsupported(`required attribute 'num_groups' must be a positive integer`);
    if (n.attrs.stash_type !== undefined && (ctx.opset < 21 || attr(n, 'stash_type') !== 1)) throw new Unsupported(`stash_type ${attr(n, 'stash_type')} is not supported (opset 21, value 1 only)`);
    const xs = ctx.shape(x), dt = ctx.value(x).dtype;
    if (dt !== DT.f32) throw new Unsupported(`X of ${dtypeName(dt)} is not supported (float32)`);
    if (!xs || xs.length < 3) throw new Unsupported('X needs a known rank >= 3 ([N, C, D1, ...])');
    const C = xs[1];
    if (typeof C !== 'number' || C % G !== 0) throw new Unsupported(`the channel count ${C} must be known and divisible by num_groups ${G}`);
    const perGroup = ctx.opset < 21, per = perGroup ? G : C;
    for (const v of [scale, bias]) {
      const s = ctx.shape(v);
      if (ctx.value(v).dtype !== dt || !s || s.length !== 1 || s[0] !== per) throw new Unsupported(`'${v}' must be float32 [${per}] at opset ${ctx.opset} (per ${ctx.opset >= 21 ? 'channel' : 'group'})`);
    }
    const o = n.outputs[0];
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const keep = { keepdims: A.int(1), noop_with_empty_axes: A.int(0) };
    const xg = ctx.reshapeTo(x, [0, G, -1]);
    const ax = ctx.constI64(`${o}_axis`, [2]);
    const d = e('Sub', [xg, e('ReduceMean', [xg, ax], keep)]);
    const vr = e('ReduceMean', [e('Mul', [d, d]), ax], keep);
    let y = e('Div', [d, e('Sqrt', [e('Add', [vr, ctx.constScalar(`${o}_eps`, dt, eps)])])]);
    if (perGroup) y = e('Add', [e('Mul', [y, ctx.reshapeTo(scale, [1, G, 1])]), ctx.reshapeTo(bias, [1, G, 1])]);
    const back = isConcrete(xs) ? ctx.constI64(`${o}_shape`, xs) : e('Shape', [x], { start: A.int(0), end: A.int(xs.length) });
    y = ctx.emit('Reshape', [y, back], [perGroup ? o : ctx.tmp(`${o}_nchw`)], { allowzero: A.int(0) })[0];
    if (!perGroup) {
      const chan = [1, C, ...Array(xs.length - 2).fill(1)];
      ctx.emit('Add', [e('Mul', [y, ctx.reshapeTo(scale, chan)]), ctx.reshapeTo(bias, chan)], [o], {});
    }
  },
};

/**
 * AffineGrid (opset 20), 2-D: grid[n, h, w] = theta[n] (x_w, y_h, 1), the
 * base coordinates in [-1, 1] (align_corners: the pixel centers at the
 * ends; else half a pixel inside), as the spec's reference builds them in
 * float32. The size input must be a constant [N, C, H, W]; 3-D is refused.
 */
OPS.AffineGrid = {
  attrs: ['align_corners'],
  norm(ctx, n) {
    const [theta, size] = n.inputs;
    const align = attr(n, 'align_corners', 0);
    if (align !== 0 && align !== 1) throw new Unsupported(`align_corners must be 0 or 1, got ${align}`);
    const dims = size ? constSize(ctx, size) : null;
    if (!dims) throw new Unsupported('the size input must be a constant');
    if (dims.length !== 4) throw new Unsupported(`size of ${dims.length} values: only the 2-D form ([N, C, H, W]) is supported`);
    const [N, , H, W] = dims;
    const ts = ctx.shape(theta), dt = ctx.value(theta).dtype;
    if (dt !== DT.f32) throw new Unsupported(`theta of ${dtypeName(dt)} is not supported (float32)`);
    if (!ts || ts.length !== 3 || ts[1] !== 2 || ts[2] !== 3 || (typeof ts[0] === 'number' && ts[0] !== N)) throw new Unsupported(`theta must be [${N}, 2, 3], got ${JSON.stringify(ts)}`);
    if (H * W > 1 << 24) throw new Unsupported(`a grid of ${H} x ${W} is too large to build at convert time`);
    if (align && (H === 1 || W === 1)) throw new Unsupported('align_corners=1 with a size-1 axis (its one coordinate is not defined by the spec) is not supported');
    // in double, rounded once: the reference's float64 arange, to within its own accumulation
    const lin = (k, m) => Math.fround(align ? -1 + (2 * k) / (m - 1) : -1 + (2 * k + 1) / m);
    const base = [];
    for (let h = 0; h < H; h++) for (let w = 0; w < W; w++) base.push(lin(w, W), lin(h, H), 1);
    const o = n.outputs[0];
    const b = ctx.constRaw(`${o}_base`, DT.f32, [1, H * W, 3], writeElems(DT.f32, base));
    const tt = ctx.emit('Transpose', [theta], [ctx.tmp(`${o}_thetaT`)], { perm: A.ints([0, 2, 1]) })[0];
    const g = ctx.emit('MatMul', [b, tt], [ctx.tmp(`${o}_grid`)], {})[0];
    ctx.emit('Reshape', [g, ctx.constI64(`${o}_shape`, [N, H, W, 2])], [o], { allowzero: A.int(0) });
  },
};

function constSize(ctx, name) {
  const v = ctx.value(name);
  if (v.kind !== 'const' || (v.dtype !== DT.i64 && v.dtype !== DT.i32)) return null;
  const dv = new DataView(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength);
  const out = [];
  for (let i = 0; i < numel(v.shape); i++) out.push(v.dtype === DT.i64 ? Number(dv.getBigInt64(i * 8, true)) : dv.getInt32(i * 4, true));
  return out.every((d) => Number.isSafeInteger(d) && d >= 0) ? out : null;
}

/**
 * RMSNormalization (opset 23): Y = X / sqrt(mean(X^2 over axes axis..r-1) +
 * epsilon) * scale, the spec's function body (Mul, ReduceMean, Add, Sqrt,
 * Div, Mul) in float32. stash_type 1 (compute in float32) only: X and scale
 * float32 (a float16 graph reaches here widened).
 */
OPS.RMSNormalization = {
  attrs: ['axis', 'epsilon', 'stash_type'],
  norm(ctx, n) {
    if (ctx.opset < 23) throw new Unsupported(`RMSNormalization is an opset-23 op (this model is opset ${ctx.opset})`);
    const [x, scale] = n.inputs;
    if (!scale) throw new Unsupported('scale is required');
    const st = attr(n, 'stash_type', 1);
    if (st !== 1) throw new Unsupported(`stash_type ${st} is not supported (1: float32)`);
    const xs = ctx.shape(x), dt = ctx.value(x).dtype;
    if (dt !== DT.f32 || ctx.value(scale).dtype !== DT.f32) throw new Unsupported(`X and scale of ${dtypeName(dt)}/${dtypeName(ctx.value(scale).dtype)} are not supported (float32)`);
    if (!xs) throw new Unsupported('X needs a known rank');
    const r = xs.length, ax0 = attr(n, 'axis', -1), ax = ax0 < 0 ? ax0 + r : ax0;
    if (!(ax >= 0 && ax < r)) throw new Unsupported(`axis ${ax0} is out of range for rank ${r}`);
    const eps = attr(n, 'epsilon', 1e-5), o = n.outputs[0];
    const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
    const axes = ctx.constI64(`${o}_axes`, Array.from({ length: r - ax }, (_, k) => ax + k));
    const ms = e('ReduceMean', [e('Mul', [x, x]), axes], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
    const rms = e('Sqrt', [e('Add', [ms, ctx.constScalar(`${o}_eps`, DT.f32, eps)])]);
    ctx.emit('Mul', [e('Div', [x, rms]), scale], [o], {});
  },
};

// RotaryEmbedding (opset 23): com.microsoft RotaryEmbedding's rotation (onnx-ops-msft-rotary.js, decision 83).
OPS.RotaryEmbedding = ONNX_ROTARY;

// Ops of opsets 18..23 that no normalizer lowers: refused with the reason.
const REFUSED = {
  ImageDecoder: 'ImageDecoder (opset 20) is not implemented: decoding JPEG/PNG bytes is outside an inference kernel set',
  Attention: 'Attention (opset 23) is not implemented yet: its masks, KV-cache inputs and softcap need their own lowering',
};
// (normalize.js refuses a spec with `refuse` before looking at attributes or inputs)
for (const [op, why] of Object.entries(REFUSED)) OPS[op] = { attrs: [], refuse: why, norm() { throw new Unsupported(why); } };

export const OPSET21_OPS = OPS;
