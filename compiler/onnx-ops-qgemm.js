// The integer GEMM family: MatMulInteger and ConvInteger (opset 10) map to
// the backend's ops of the same names (kernels-wasm-simd/operators/
// matmul-integer.c: exact int32 sums, zero points scalar, per row of A or
// per column of B; conv-integer.c: x_zero_point scalar, w_zero_point scalar
// or per output channel). ConvInteger's window attributes are written out
// as Conv's are; a 1-D ConvInteger runs as 2-D over [N, C, 1, L] and a 3-D
// one is refused.
//
// QLinearMatMul and QLinearConv (opset 10) map to the backend's ops of the
// same names, the same integer core with the requantization fused
// (operators/qlinear.h: rne(sum * x_scale * w_scale / y_scale) + y_zp,
// saturated, in onnxruntime's f32 order); their W / B is input 3, so the
// window helpers see a view of the node with inputs [X, W].
import { A, attr, Unsupported } from './ir.js';
import { spatialRank, windowAttrs, as2d } from './onnx-ops.js';

const OPS = Object.create(null);

OPS.MatMulInteger = { attrs: [], norm: (ctx, n) => ctx.emit('MatMulInteger', n.inputs, n.outputs, {}) };

OPS.ConvInteger = {
  attrs: ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides'],
  norm(ctx, n) {
    const nsp = spatialRank(ctx, n, true);
    const xr = ctx.shape(n.inputs[0])?.length, wr = ctx.shape(n.inputs[1])?.length;
    if (xr !== undefined && wr !== undefined && xr !== wr) throw new Unsupported(`input X has rank ${xr} but weight W rank ${wr} (they must be equal)`);
    if (nsp !== null && nsp !== 1 && nsp !== 2) throw new Unsupported(`${nsp}-D ConvInteger is not supported (1-D and 2-D)`);
    const a = { ...windowAttrs(ctx, n, nsp, true), group: A.int(attr(n, 'group', 1)) };
    if (nsp === 1) return as2d(ctx, n, 'Conv', a, (ins, outs, at) => ctx.emit('ConvInteger', ins, outs, at));
    ctx.emit('ConvInteger', n.inputs, n.outputs, a);
  },
};

OPS.QLinearMatMul = { attrs: [], norm: (ctx, n) => ctx.emit('QLinearMatMul', n.inputs, n.outputs, {}) };

OPS.QLinearConv = {
  attrs: ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides'],
  norm(ctx, n) {
    const v = { ...n, inputs: [n.inputs[0], n.inputs[3]] };
    const nsp = spatialRank(ctx, v, true);
    const xr = ctx.shape(n.inputs[0])?.length, wr = ctx.shape(n.inputs[3])?.length;
    if (xr !== undefined && wr !== undefined && xr !== wr) throw new Unsupported(`input X has rank ${xr} but weight W rank ${wr} (they must be equal)`);
    if (nsp !== null && nsp !== 1 && nsp !== 2) throw new Unsupported(`${nsp}-D QLinearConv is not supported (1-D and 2-D)`);
    const a = { ...windowAttrs(ctx, v, nsp, true), group: A.int(attr(n, 'group', 1)) };
    if (nsp !== 1) return ctx.emit('QLinearConv', n.inputs, n.outputs, a);
    const L = ctx.shape(n.inputs[3])?.[2];
    as2d(ctx, n, 'QLinearConv', a, (ins, outs, at) => {
      ins[3] = ctx.reshapeTo(ins[3], [0, 0, 1, typeof L === 'number' ? L : -1]);
      return ctx.emit('QLinearConv', ins, outs, at);
    });
  },
};

export const QGEMM_OPS = OPS;
