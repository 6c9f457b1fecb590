// The signal ops: DFT (opsets 17 and 20), STFT and MelWeightMatrix (opset
// 17), each mapped to the backend's op of the same name
// (kernels-wasm-simd/operators/dft.c, melweight.c: a direct transform in
// double). DFT's axis moved from an attribute (default 1) to input 2
// (default -2) at opset 20: the canonical node keeps input 2 when given and
// writes the opset's default as the attribute otherwise. With constant
// operands the converter folds them through the same kernels.
import { A, attr } from './ir.js';

const OPS = Object.create(null);

OPS.DFT = {
  attrs: ['axis', 'inverse', 'onesided'],
  norm(ctx, n) {
    const a = { inverse: A.int(attr(n, 'inverse', 0)), onesided: A.int(attr(n, 'onesided', 0)) };
    a.axis = A.int(ctx.opset >= 20 ? -2 : attr(n, 'axis', 1));
    const ins = ctx.opset >= 20 ? n.inputs.slice(0, 3) : n.inputs.slice(0, 2);
    while (ins.length > 1 && !ins[ins.length - 1]) ins.pop();
    ctx.emit('DFT', ins, n.outputs, a);
  },
};

OPS.STFT = {
  attrs: ['onesided'],
  norm(ctx, n) {
    const ins = n.inputs.slice(0, 4);
    while (ins.length > 2 && !ins[ins.length - 1]) ins.pop();
    ctx.emit('STFT', ins, n.outputs, { onesided: A.int(attr(n, 'onesided', 1)) });
  },
};

OPS.MelWeightMatrix = {
  attrs: ['output_datatype'],
  norm: (ctx, n) => ctx.emit('MelWeightMatrix', n.inputs, n.outputs, { output_datatype: A.int(attr(n, 'output_datatype', 1)) }),
};

export const SIGNAL_OPS = OPS;
