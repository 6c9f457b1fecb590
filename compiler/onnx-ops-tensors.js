// The ops that index into or generate tensors: ScatterElements, Scatter,
// ScatterND, GatherND (reduction checked against the opset), NonZero,
// EyeLike and the window functions; each maps to the backend's op of the
// same name (kernels-wasm-simd/operators/scatter.c, nonzero.c, eyelike.c,
// windows.c).
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
