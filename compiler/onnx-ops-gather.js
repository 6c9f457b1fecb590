// Compress, ReverseSequence and MaxUnpool, lowered onto the gather and
// scatter kernels (NonZero + Gather; a computed index tensor +
// GatherElements; Expand'ed zeros + ScatterElements), so none needs a
// kernel of its own.
import { A, attr, DT, Unsupported } from './ir.js';

const OPS = Object.create(null);
const known = (d) => Number.isInteger(d) && d >= 0;
const emitter = (ctx, o) => (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${o}_${op}`)], attrs)[0];

// Compress: the indices of the true conditions, gathered along the axis (a
// condition shorter than the axis drops the rest; a true one past it is an
// index error at execute time). Without an axis the input is flattened.
OPS.Compress = {
  attrs: ['axis'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    if (ctx.value(n.inputs[1]).dtype !== DT.bool) throw new Unsupported('the condition must be bool');
    const cs = ctx.shape(n.inputs[1]);
    if (cs && cs.length !== 1) throw new Unsupported(`the condition must be 1-D, it has rank ${cs.length}`);
    let x = n.inputs[0], axis = 0;
    if (n.attrs.axis === undefined) x = e('Reshape', [x, ctx.constI64(`${o}_flat`, [-1])], { allowzero: A.int(0) });
    else axis = attr(n, 'axis');
    const idx = e('Reshape', [e('NonZero', [n.inputs[1]]), ctx.constI64(`${o}_flat`, [-1])], { allowzero: A.int(0) });
    ctx.emit('Gather', [x, idx], n.outputs, { axis: A.int(axis) });
  },
};

// ReverseSequence: index[t, b] = t < len[b] ? len[b] - 1 - t : t along the
// time axis, broadcast over the other axes, then GatherElements.
OPS.ReverseSequence = {
  attrs: ['batch_axis', 'time_axis'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const xs = ctx.shape(n.inputs[0]);
    if (!xs || xs.length < 2) throw new Unsupported('the input needs a known rank >= 2');
    const ba = attr(n, 'batch_axis', 1), ta = attr(n, 'time_axis', 0);
    if (!((ba === 0 && ta === 1) || (ba === 1 && ta === 0))) throw new Unsupported(`batch_axis/time_axis must be 0 and 1 (either way), got ${ba}/${ta}`);
    const T = xs[ta];
    if (!known(T)) throw new Unsupported('the time dim must be known at convert time');
    if (ctx.value(n.inputs[1]).dtype !== DT.i64) throw new Unsupported('sequence_lens must be int64');
    const ones = Array(xs.length - 2).fill(1);
    const tShape = ta === 0 ? [T, 1, ...ones] : [1, T, ...ones], lShape = ta === 0 ? [1, -1, ...ones] : [-1, 1, ...ones];
    const t = ctx.constRaw(`${o}_t`, DT.i64, tShape, new Uint8Array(BigInt64Array.from({ length: T }, (_, i) => BigInt(i)).buffer));
    const len = e('Reshape', [n.inputs[1], ctx.constI64(`${o}_lshape`, lShape)], { allowzero: A.int(0) });
    const rev = e('Sub', [e('Sub', [len, ctx.constScalar(`${o}_one`, DT.i64, 1)]), t]);
    const idx = e('Where', [e('Less', [t, len]), rev, t]);
    const full = e('Expand', [idx, e('Shape', [n.inputs[0]], { start: A.int(0) })]);
    ctx.emit('GatherElements', [n.inputs[0], full], n.outputs, { axis: A.int(ta) });
  },
};

// MaxUnpool: X scattered at MaxPool's flat indices into zeros of the output
// shape (output_shape, else (in-1)*s - pads + k).
// Overlapping windows that picked one element twice write it twice: the
// later index wins (the spec leaves it open; the value is the same max).
OPS.MaxUnpool = {
  attrs: ['kernel_shape', 'pads', 'strides'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const xs = ctx.shape(n.inputs[0]), ks = attr(n, 'kernel_shape');
    if (!ks) throw new Unsupported(`required attribute 'kernel_shape' is missing`);
    if (!xs) throw new Unsupported("the input's shape must be known at convert time");
    const nsp = xs.length - 2, st = attr(n, 'strides', Array(nsp).fill(1)), pads = attr(n, 'pads', Array(2 * nsp).fill(0));
    // The indices are flat positions in the output: of output_shape when it
    // is given (a runtime input or not), as MaxPool computed them over the
    // original input, which is what onnxruntime and torch do. (The ONNX
    // reference data pads the default shape instead: docs/converter.md.)
    const shape = n.inputs[2] || (xs.every(known) && ctx.constI64(`${o}_shape`, [xs[0], xs[1], ...xs.slice(2).map((d, k) => (d - 1) * st[k] - pads[k] - pads[k + nsp] + ks[k])]));
    if (!shape) throw new Unsupported("without output_shape the input's shape must be known at convert time");
    const flat = (v) => e('Reshape', [v, ctx.constI64(`${o}_flat`, [-1])], { allowzero: A.int(0) });
    const zeros = flat(e('Expand', [ctx.constScalar(`${o}_zero`, ctx.value(n.inputs[0]).dtype, 0), shape]));
    const y = e('ScatterElements', [zeros, flat(n.inputs[1]), flat(n.inputs[0])], { axis: A.int(0), reduction: A.string('none') });
    ctx.emit('Reshape', [y, shape], n.outputs, { allowzero: A.int(0) });
  },
};

export const GATHER_OPS = OPS;
