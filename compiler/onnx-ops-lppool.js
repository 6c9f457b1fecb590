// LpPool, GlobalLpPool (opsets 2..18) and CenterCropPad (opset 18), lowered
// to ops the backend runs (issue 42 item 4).
//
// LpPool: y = (sum over the window of |x|^p)^(1/p), padding contributing 0,
// as onnxruntime's CPU kernel computes it (pow(|x|, p) summed, then
// pow(sum, 1/p)). |x|^p is Abs (p = 1), Mul(x, x) (p = 2) or Pow(Abs(x), p);
// the window sum is a depthwise Conv with a weight of ones ([C, 1, k...],
// group C: exact sums, with strides, pads, auto_pad and dilations as Conv
// has them); the root is Sqrt (p = 2) or Pow(s, 1/p). ceil_mode=1 is refused
// by name. GlobalLpPool is the same with ReduceSum over every spatial axis
// (keepdims). LpPool-1/GlobalLpPool-1 (float p) stay refused in
// onnx-legacy.js. float32 only.
//
// CenterCropPad: per axis, a central Slice where the target is smaller
// (start = floor((in - out) / 2)) and a central zero Pad where it is larger
// (before = floor((out - in) / 2), the rest after). The shape input must be
// a constant and the input dims of the axes known.
import { A, attr, DT, dtypeName, numel, writeElems, Unsupported } from './ir.js';
import { OPS as ALL } from './onnx-ops.js';

const OPS = Object.create(null);

function lpPower(ctx, n, what) {
  const x = n.inputs[0], o = n.outputs[0];
  const dt = ctx.value(x).dtype;
  if (dt !== DT.f32) throw new Unsupported(`${what}: X of ${dtypeName(dt)} is not supported (float32)`);
  const p = attr(n, 'p', 2);
  if (!Number.isInteger(p) || p < 1) throw new Unsupported(`${what}: p = ${p} is not supported (a positive integer)`);
  const xs = ctx.shape(x);
  if (!xs || xs.length < 3) throw new Unsupported(`${what}: X needs a known rank >= 3 ([N, C, spatial...])`);
  const e = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
  let xp;
  if (p === 1) xp = e('Abs', [x]);
  else if (p === 2) xp = e('Mul', [x, x]);
  else xp = e('Pow', [e('Abs', [x]), ctx.constScalar(`${o}_p`, DT.f32, p)]);
  const root = (s) => {
    if (p === 1) return ctx.emit('Identity', [s], [o], {});
    if (p === 2) return ctx.emit('Sqrt', [s], [o], {});
    return ctx.emit('Pow', [s, ctx.constScalar(`${o}_invp`, DT.f32, Math.fround(1 / p))], [o], {});
  };
  return { xp, xs, p, e, root };
}

OPS.LpPool = {
  attrs: ['auto_pad', 'ceil_mode', 'dilations', 'kernel_shape', 'p', 'pads', 'strides'],
  norm(ctx, n) {
    if (attr(n, 'ceil_mode', 0) !== 0) throw new Unsupported('LpPool: ceil_mode=1 is not supported');
    if (n.attrs.dilations !== undefined && ctx.opset < 18) throw new Unsupported(`LpPool: dilations are opset 18 (this model is opset ${ctx.opset})`);
    const ks = attr(n, 'kernel_shape', null);
    if (!ks) throw new Unsupported(`LpPool: required attribute 'kernel_shape' is missing`);
    const { xp, xs, root } = lpPower(ctx, n, 'LpPool');
    const C = xs[1];
    if (typeof C !== 'number') throw new Unsupported('LpPool: the channel count must be known');
    if (ks.length !== xs.length - 2) throw new Unsupported(`LpPool: kernel_shape of ${ks.length} values for ${xs.length - 2} spatial axes`);
    if (!ks.every((k) => Number.isInteger(k) && k >= 1)) throw new Unsupported(`LpPool: kernel_shape ${JSON.stringify(ks)} is not valid`);
    const o = n.outputs[0];
    const w = ctx.constRaw(`${o}_ones`, DT.f32, [C, 1, ...ks], writeElems(DT.f32, Array(C * numel(ks)).fill(1)));
    const sum = ctx.tmp(`${o}_sum`);
    const attrs = {};
    for (const k of ['auto_pad', 'dilations', 'kernel_shape', 'pads', 'strides']) if (n.attrs[k] !== undefined) attrs[k] = n.attrs[k];
    attrs.group = A.int(C);
    ALL.Conv.norm(ctx, { ...n, opType: 'Conv', inputs: [xp, w], outputs: [sum], attrs });
    root(sum);
  },
};

OPS.GlobalLpPool = {
  attrs: ['p'],
  norm(ctx, n) {
    const { xp, xs, e, root } = lpPower(ctx, n, 'GlobalLpPool');
    const axes = ctx.constI64(`${n.outputs[0]}_axes`, Array.from({ length: xs.length - 2 }, (_, i) => i + 2));
    root(e('ReduceSum', [xp, axes], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) }));
  },
};

function constInts1(ctx, name) {
  const v = ctx.value(name);
  if (v.kind !== 'const' || (v.dtype !== DT.i64 && v.dtype !== DT.i32)) return null;
  const dv = new DataView(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength);
  const out = [];
  for (let i = 0; i < numel(v.shape); i++) out.push(v.dtype === DT.i64 ? Number(dv.getBigInt64(i * 8, true)) : dv.getInt32(i * 4, true));
  return out;
}

OPS.CenterCropPad = {
  attrs: ['axes'],
  norm(ctx, n) {
    if (ctx.opset < 18) throw new Unsupported(`CenterCropPad: an opset-18 op (this model is opset ${ctx.opset})`);
    const [x, shape] = n.inputs;
    const o = n.outputs[0];
    if (!shape) throw new Unsupported('CenterCropPad: the shape input is required');
    const want = constInts1(ctx, shape);
    if (!want) throw new Unsupported('CenterCropPad: a shape input that is not a constant (initializer) is not supported');
    const xs = ctx.shape(x);
    if (!xs) throw new Unsupported('CenterCropPad: the input rank must be known');
    const r = xs.length;
    const axes0 = attr(n, 'axes', Array.from({ length: r }, (_, i) => i));
    const axes = axes0.map((a) => (a < 0 ? a + r : a));
    if (axes.some((a) => !(a >= 0 && a < r)) || new Set(axes).size !== axes.length) throw new Unsupported(`CenterCropPad: axes ${JSON.stringify(axes0)} are not valid for rank ${r}`);
    if (want.length !== axes.length) throw new Unsupported(`CenterCropPad: shape has ${want.length} values for ${axes.length} axes`);
    if (want.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new Unsupported(`CenterCropPad: shape ${JSON.stringify(want)} is not valid`);
    const st = [], en = [], sa = [], pads = Array(2 * r).fill(0);
    let needPad = false;
    axes.forEach((a, i) => {
      const d = xs[a], t = want[i];
      if (typeof d !== 'number') throw new Unsupported(`CenterCropPad: input dim ${a} must be known (it is ${JSON.stringify(d)})`);
      if (t < d) { const s = Math.floor((d - t) / 2); st.push(s); en.push(s + t); sa.push(a); }
      else if (t > d) { const b = Math.floor((t - d) / 2); pads[a] = b; pads[r + a] = t - d - b; needPad = true; }
    });
    let y = x;
    if (sa.length) {
      y = ctx.emit('Slice', [x, ctx.constI64(`${o}_starts`, st), ctx.constI64(`${o}_ends`, en), ctx.constI64(`${o}_axes`, sa)],
        [needPad ? ctx.tmp(`${o}_crop`) : o], {})[0];
    }
    if (needPad) ctx.emit('Pad', [y, ctx.constI64(`${o}_pads`, pads)], [o], { mode: A.string('constant') });
    else if (!sa.length) ctx.emit('Identity', [x], [o], {});
  },
};

export const LPPOOL_OPS = OPS;
