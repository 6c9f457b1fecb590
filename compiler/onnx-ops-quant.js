// QuantizeLinear, DequantizeLinear (opsets 10, 13, 19, 21: per-tensor and
// per-axis; int8, uint8, int16, uint16) and DynamicQuantizeLinear (uint8),
// lowered onto Div/Round/Add/Cast/Sub/Mul and the reductions (DynamicQuantizeLinear:
// one backend node whose kernel takes those steps, lowerDynamicQuantize), with
// onnxruntime's formulas: q = saturate(nearbyint(x / scale) + zp) (a true
// division, as MLAS does, not a multiply by the reciprocal; Round is ties to
// even, and Cast f32 -> int saturates), y = (x - zp) * scale (the difference
// is exact in f32 for 8/16-bit x); per-tensor u8/i8 go to the backend's
// one-pass QuantizeLinear / DequantizeLinear kernels (operators/
// qlinear-quant.c: the same steps, decision 66). Blocked quantization (block_size),
// int4/uint4 and the float8 types are refused with a message.
import { A, attr, DT, Unsupported } from './ir.js';

const OPS = Object.create(null);
const QTYPES = new Map([[DT.u8, [0, 255]], [DT.i8, [-128, 127]], [DT.u16, [0, 65535]], [DT.i16, [-32768, 32767]]]);
const QNAMES = { 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 16: 'bfloat16', 17: 'float8e4m3fn', 21: 'uint4', 22: 'int4' };
const qname = (dt) => QNAMES[dt] ?? `dtype ${dt}`;

function emitter(ctx, o) {
  return (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];
}

/** `v`, checked to be float32: float16 scales and inputs are opset 19's, beyond the converter's range. */
function asF32(ctx, e, v, what) {
  const dt = ctx.value(v).dtype;
  if (dt === DT.f32) return v;
  throw new Unsupported(`${what} must be float32, got ${dt === DT.f16 ? 'float16' : qname(dt)}`);
}

/**
 * The scale (or zero point) `v` shaped to broadcast against `x`: a scalar or
 * a 1-element tensor as is, a 1-D one of length D along `axis`.
 */
function alongAxis(ctx, n, v, x) {
  const vs = ctx.shape(v);
  if (!vs) throw new Unsupported('the scale/zero point needs a known shape');
  if (vs.length === 0) return v;
  if (vs.length !== 1) throw new Unsupported(`blocked quantization (a rank-${vs.length} scale) is not supported`);
  const xs = ctx.shape(x);
  if (!xs) throw new Unsupported('per-axis quantization needs the input rank');
  let axis = attr(n, 'axis', 1);
  if (axis < 0) axis += xs.length;
  if (axis < 0 || axis >= xs.length) throw new Unsupported(`axis ${attr(n, 'axis', 1)} is out of range for rank ${xs.length}`);
  if (typeof xs[axis] === 'number' && typeof vs[0] === 'number' && vs[0] !== xs[axis] && vs[0] !== 1)
    throw new Unsupported(`the scale has ${vs[0]} elements, the input dim ${axis} is ${xs[axis]}`);
  const target = xs.map((_, i) => (i === axis ? -1 : 1));
  return ctx.emit('Reshape', [v, ctx.constI64(`${v}_axis`, target)], [ctx.tmp(`${v}_r`)], { allowzero: A.int(0) })[0];
}

/** `v` has a known shape of one element, rank <= 1 (the kernels' per-tensor form). */
function oneElem(ctx, v) {
  const s = v ? ctx.shape(v) : null;
  return !!s && s.length <= 1 && s.every((d) => d === 1);
}

function checkBlock(n) {
  if (attr(n, 'block_size', 0) !== 0) throw new Unsupported('blocked quantization (block_size > 0) is not supported');
}

OPS.QuantizeLinear = {
  attrs: ['axis', 'saturate', 'block_size', 'output_dtype'],
  norm(ctx, n) {
    checkBlock(n);
    const [x, scale, zp] = n.inputs;
    const o = n.outputs[0], e = emitter(ctx, o);
    const outDt = zp ? ctx.value(zp).dtype : attr(n, 'output_dtype', 0) || DT.u8;
    if (!QTYPES.has(outDt)) throw new Unsupported(`QuantizeLinear to ${qname(outDt)} is not supported (uint8, int8, uint16, int16 are)`);
    if (zp && attr(n, 'output_dtype', 0) && attr(n, 'output_dtype', 0) !== outDt)
      throw new Unsupported('output_dtype disagrees with the zero point dtype');
    const xf = asF32(ctx, e, x, 'the input');
    // per-tensor u8/i8: the backend's one-pass kernel, the same f32 steps as the chain below
    if (oneElem(ctx, scale) && oneElem(ctx, zp) && (outDt === DT.u8 || outDt === DT.i8) && ctx.value(scale).dtype === DT.f32)
      return void ctx.emit('QuantizeLinear', [xf, scale, zp], [o], {});
    let q = e('Round', [e('Div', [xf, alongAxis(ctx, n, asF32(ctx, e, scale, 'the scale'), x)])]);
    if (zp) q = e('Add', [q, alongAxis(ctx, n, e('Cast', [zp], { to: A.int(DT.f32) }), x)]);
    ctx.emit('Cast', [q], [o], { to: A.int(outDt) });
  },
};

OPS.DequantizeLinear = {
  attrs: ['axis', 'block_size', 'output_dtype'],
  norm(ctx, n) {
    checkBlock(n);
    const [x, scale, zp] = n.inputs;
    const o = n.outputs[0], e = emitter(ctx, o);
    const xdt = ctx.value(x).dtype;
    if (!QTYPES.has(xdt) && xdt !== DT.i32) throw new Unsupported(`DequantizeLinear of ${qname(xdt)} is not supported (uint8, int8, uint16, int16, int32 are)`);
    const sdt = ctx.value(scale).dtype;
    if (sdt !== DT.f32) throw new Unsupported(`the scale must be float32, got ${sdt === DT.f16 ? 'float16' : qname(sdt)}`);
    if ((xdt === DT.u8 || xdt === DT.i8) && oneElem(ctx, scale) && (!zp || oneElem(ctx, zp)))
      return void ctx.emit('DequantizeLinear', zp ? [x, scale, zp] : [x, scale], [o], {});
    let d = e('Cast', [x], { to: A.int(DT.f32) });
    if (zp) {
      if (xdt === DT.i32) throw new Unsupported('an int32 DequantizeLinear takes no zero point');
      d = e('Sub', [d, alongAxis(ctx, n, e('Cast', [zp], { to: A.int(DT.f32) }), x)]);
    }
    const s = alongAxis(ctx, n, asF32(ctx, e, scale, 'the scale'), x);
    ctx.emit('Mul', [d, s], [o], {});
  },
};

// onnxruntime's GetQuantizationParameter: the range [min(x, 0), max(x, 0)],
// scale = range / 255 (1 if the range is empty), zero point =
// round(clamp(0 - min / scale, 0, 255)) with std::round (ties away from
// zero: floor, plus 1 when the exact fraction is >= 0.5).
OPS.DynamicQuantizeLinear = {
  attrs: [],
  norm(ctx, n) {
    const [x] = n.inputs;
    const [y, ys, yzp] = n.outputs;
    if (ctx.value(x).dtype !== DT.f32) throw new Unsupported('DynamicQuantizeLinear takes float32 input');
    // the backend's one-pass kernel (operators/qlinear-quant.c): the steps of
    // lowerDynamicQuantize in its order, the same bytes (tests/js/dql-kernel.test.mjs)
    ctx.emit('DynamicQuantizeLinear', [x], [y, ys || ctx.tmp(`${y}_scale`), yzp || ctx.tmp(`${y}_zp`)], {});
  },
};

/** DynamicQuantizeLinear as Reduce/Min/Max/Div/Round/Cast steps: the kernel's specification, kept for its test. */
export function lowerDynamicQuantize(ctx, x, y, ys, yzp) {
  const e = emitter(ctx, y);
  const f = (v) => ctx.constScalar(`${y}_f`, DT.f32, v);
  const all = { keepdims: A.int(0), noop_with_empty_axes: A.int(0) };
  const mn = e('Min', [e('ReduceMin', [x], all), f(0)]);
  const mx = e('Max', [e('ReduceMax', [x], all), f(0)]);
  const range = e('Sub', [mx, mn]);
  const scaleName = ys || ctx.tmp(`${y}_scale`);
  ctx.emit('Where', [e('Equal', [range, f(0)]), f(1), e('Div', [range, f(255)])], [scaleName], {});
  const z0 = e('Clip', [e('Neg', [e('Div', [mn, scaleName])]), f(0), f(255)]);
  const fl = e('Floor', [z0]);
  const zf = e('Where', [e('GreaterOrEqual', [e('Sub', [z0, fl]), f(0.5)]), e('Ceil', [z0]), fl]);
  const q = e('Add', [e('Round', [e('Div', [x, scaleName])]), zf]);
  ctx.emit('Cast', [q], [y], { to: A.int(DT.u8) });
  if (yzp) ctx.emit('Cast', [zf], [yzp], { to: A.int(DT.u8) });
}

export { OPS as QUANT_OPS };
