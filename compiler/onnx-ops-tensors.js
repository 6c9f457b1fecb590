// The ops that index into or generate tensors: ScatterElements, Scatter,
// ScatterND, GatherND (reduction checked against the opset), NonZero, Unique,
// EyeLike, Det and the window functions; each maps to the backend's op of the
// same name (kernels-wasm-simd/operators/scatter.c, nonzero.c, eyelike.c,
// windows.c, unique.c, det.c).
import { A, attr, Unsupported } from './ir.js';

const OPS = Object.create(null);

function scatterReduction(ctx, n) {
  const r = attr(n, 'reduction', 'none');
  const allowed = ctx.opset >= 18 ? ['none', 'add', 'mul', 'max', 'min'] : ctx.opset >= 16 ? ['none', 'add', 'mul'] : ['none'];
  if (!allowed.includes(r)) throw new Unsupported(`reduction '${r}' is not defined at opset ${ctx.opset} (${allowed.join(', ')})`);
  return A.string(r);
}
OPS.ScatterElements = {
  attrs: ['axis', 'reduction'],
  norm: (ctx, n) => ctx.emit('ScatterElements', n.inputs, n.outputs, { axis: A.int(attr(n, 'axis', 0)), reduction: scatterReduction(ctx, n) }),
};
// Scatter (opset 9, deprecated at 11) is ScatterElements without reduction.
OPS.Scatter = { attrs: ['axis'], norm: (ctx, n) => ctx.emit('ScatterElements', n.inputs, n.outputs, { axis: A.int(attr(n, 'axis', 0)), reduction: A.string('none') }) };
OPS.ScatterND = { attrs: ['reduction'], norm: (ctx, n) => ctx.emit('ScatterND', n.inputs, n.outputs, { reduction: scatterReduction(ctx, n) }) };
OPS.GatherND = { attrs: ['batch_dims'], norm: (ctx, n) => ctx.emit('GatherND', n.inputs, n.outputs, { batch_dims: A.int(attr(n, 'batch_dims', 0)) }) };
OPS.NonZero = { attrs: [], norm: (ctx, n) => ctx.emit('NonZero', n.inputs, n.outputs, {}) };
// Unique: holo.UniqueOrder sorts (stably) and Unique counts and writes the
// outputs (kernels-wasm-simd/operators/unique.c); `axis` is written only when
// given (its absence means the flattened tensor), absent outputs get internal names.
OPS.Unique = {
  attrs: ['axis', 'sorted'],
  norm(ctx, n) {
    const a = {};
    if (n.attrs.axis !== undefined) a.axis = A.int(attr(n, 'axis'));
    const order = ctx.emit('holo.UniqueOrder', [n.inputs[0]], [ctx.tmp(`${n.outputs[0]}_order`)], a)[0];
    const outs = ctx.trimOutputs(n.outputs).map((o, k) => o || ctx.tmp(`${n.outputs[0]}_out${k}`));
    ctx.emit('Unique', [n.inputs[0], order], outs, { ...a, sorted: A.int(attr(n, 'sorted', 1)) });
  },
};

OPS.Det = { attrs: [], norm: (ctx, n) => ctx.emit('Det', n.inputs, n.outputs, {}) };

OPS.EyeLike = {
  attrs: ['dtype', 'k'],
  norm(ctx, n) {
    const a = { k: A.int(attr(n, 'k', 0)) };
    if (n.attrs.dtype !== undefined) a.dtype = A.int(attr(n, 'dtype'));
    ctx.emit('EyeLike', n.inputs, n.outputs, a);
  },
};
for (const w of ['HannWindow', 'HammingWindow', 'BlackmanWindow'])
  OPS[w] = {
    attrs: ['output_datatype', 'periodic'],
    norm: (ctx, n) => ctx.emit(w, n.inputs, n.outputs, { output_datatype: A.int(attr(n, 'output_datatype', 1)), periodic: A.int(attr(n, 'periodic', 1)) }),
  };

export const TENSOR_OPS = OPS;
