// The com.microsoft contrib ops the converter takes (onnxruntime's
// contrib_defs); any other op of that domain is refused by name.
//   MatMulIntegerToFloat(A, B, a_scale, b_scale, a_zp?, b_zp?, bias?):
//     MatMulInteger's exact int32 product, then (float)sum * (a_scale *
//     b_scale) + bias -- onnxruntime's order (its scale/bias processor:
//     the scales multiplied first, in f32). a_scale a scalar; b_scale and
//     b_zp a scalar or one per column.
//   DynamicQuantizeMatMul(A f32, B, b_scale, b_zp?, bias?): A quantized as
//     DynamicQuantizeLinear does (u8, onnxruntime's range / zero point),
//     then MatMulIntegerToFloat.
//   QuantizeLinear / DequantizeLinear: the standard ops' lowering
//     (onnx-ops-quant.js; the contrib versions take the same axis).
//   QLinearLeakyRelu / QLinearSigmoid(X, X_scale, X_zp?, Y_scale, Y_zp?):
//     DequantizeLinear, the float op, QuantizeLinear -- per element what
//     onnxruntime's 256-entry table holds (it fills the table the same way:
//     dequantize, the op, quantize with a true division and nearbyint); the
//     output has X's dtype (a Y_zp of 0 when absent).
//   QLinearGlobalAveragePool(X, x_scale, x_zp, y_scale, y_zp): onnxruntime's
//     int32 sum of x - x_zp over the image, requantized by scale = x_scale /
//     (y_scale * (float)image_size) (its order) as QLinearConv's sums are:
//     rne((float)sum * scale) + y_zp, saturated. Here the sum runs in f32,
//     exact while image_size * 255 < 2^24 (a larger image is refused).
//   QLinearConcat(Y_scale, Y_zp, (X, X_scale, X_zp)...): each input
//     DequantizeLinear then QuantizeLinear to Y's scale and zero point (per
//     element what onnxruntime's per-input table holds; its copy when the
//     parameters agree is the same bytes), then Concat.
//   QLinearAdd / QLinearMul(A, A_scale, A_zp?, B, B_scale, B_zp?, C_scale,
//     C_zp?): the backend's QLinearAdd / QLinearMul (kernels-wasm-simd/
//     operators/qlinear-binary.c, decision 74): per element the float
//     path, (float)(a - A_zp) * A_scale + (or *) (float)(b - B_zp) * B_scale,
//     divided by C_scale, rounded half to even, + C_zp, saturated --
//     onnxruntime's reference kernel (MlasQLinearAddKernelRawHelper), numpy
//     broadcasting; per-tensor f32 scales, A, B and C of one dtype (u8/i8).
//     holo_relu = 1 (the converter's own attribute, set by
//     rewrites/fuse-qdq.js for a Relu between the op and its
//     QuantizeLinear) applies max(v, 0) before the division.
//   MatMulNBits(A f32, B u8 [N, blocks, block_size/2], scales, zp?; K, N,
//     bits 4, block_size): the backend's holo.DequantizeQ4 (the weight as an
//     f32 [K, N], computed once in the constant cone, at load when it is
//     large) in front of a MatMul (which packs it once), then + bias.
//     bits 2 and 8: standard ops that keep B packed in the archive
//     (nbitsWeight, onnx-ops-msft-nbits.js, decision 84).
//   QLinearConv (channels_last), QLinearAveragePool, MatMulInteger16:
//     onnx-ops-msft-qconv.js (decision 86); FusedConv, NhwcConv there too
//     (decision 87). GatherBlockQuantized: onnx-ops-msft-gatherbq.js
//     (decision 87).
import { A, attr, DT, Unsupported } from './ir.js';
import { QUANT_OPS } from './onnx-ops-quant.js';
import { MSFT_TRANSFORMER_OPS } from './onnx-ops-msft-transformer.js';
import { MSFT_ATTENTION_OPS } from './onnx-ops-msft-attention.js';
import { MSFT_ROTARY_OPS } from './onnx-ops-msft-rotary.js';
import { MSFT_GQA_OPS } from './onnx-ops-msft-gqa.js';
import { MSFT_EMBED_OPS } from './onnx-ops-msft-embed.js';
import { nbitsWeight } from './onnx-ops-msft-nbits.js';
import { MSFT_QCONV_OPS, setGlobalAvgPool } from './onnx-ops-msft-qconv.js';
import { MSFT_GATHERBQ_OPS } from './onnx-ops-msft-gatherbq.js';

const OPS = Object.create(null);
const INT8 = new Set([DT.u8, DT.i8]);

function checkScales(ctx, as, bs) {
  for (const [v, what] of [[as, 'a_scale'], [bs, 'b_scale']])
    if (ctx.value(v).dtype !== DT.f32) throw new Unsupported(`${what} must be float32 (float16 scales are not supported)`);
  const s = ctx.shape(as);
  if (!s || s.reduce((a, d) => a * d, 1) !== 1) throw new Unsupported('a_scale must be a scalar (per-row A scales are not supported)');
  const b = ctx.shape(bs);
  if (!b || b.length > 1) throw new Unsupported('b_scale must be a scalar or 1-D (one per column)');
}

/** y = (float)MatMulInteger(a, b, za, zb) * (as * bs) (+ bias). */
function intToFloat(ctx, o, [a, b, as, bs, za, zb, bias]) {
  if (!INT8.has(ctx.value(a).dtype) || !INT8.has(ctx.value(b).dtype)) throw new Unsupported('A and B must be uint8 or int8');
  checkScales(ctx, as, bs);
  const e = (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
  const acc = e('MatMulInteger', [a, b, za || '', zb || '']);
  const y = e('Mul', [e('Cast', [acc], { to: A.int(DT.f32) }), e('Mul', [as, bs])], {}, bias ? undefined : o);
  if (bias) {
    if (ctx.value(bias).dtype !== DT.f32) throw new Unsupported('bias must be float32');
    e('Add', [y, bias], {}, o);
  }
}

OPS.MatMulIntegerToFloat = {
  attrs: [],
  norm(ctx, n) {
    const [a, b, as, bs, za, zb, bias] = n.inputs;
    if (!b || !as || !bs) throw new Unsupported('A, B, a_scale and b_scale are required');
    intToFloat(ctx, n.outputs[0], [a, b, as, bs, za, zb, bias]);
  },
};

OPS.DynamicQuantizeMatMul = {
  attrs: [],
  norm(ctx, n) {
    const [a, b, bs, zb, bias] = n.inputs;
    if (!b || !bs) throw new Unsupported('A, B and b_scale are required');
    if (ctx.value(a).dtype !== DT.f32) throw new Unsupported('A must be float32');
    const o = n.outputs[0];
    const q = [ctx.tmp(`${o}_aq`), ctx.tmp(`${o}_as`), ctx.tmp(`${o}_az`)];
    QUANT_OPS.DynamicQuantizeLinear.norm(ctx, { ...n, opType: 'DynamicQuantizeLinear', inputs: [a], outputs: q });
    intToFloat(ctx, o, [q[0], b, q[1], bs, q[2], zb, bias]);
  },
};

OPS.QuantizeLinear = { attrs: ['axis'], norm: QUANT_OPS.QuantizeLinear.norm };
OPS.DequantizeLinear = { attrs: ['axis'], norm: QUANT_OPS.DequantizeLinear.norm };

/** Dequantize, `op`, quantize: the QLinear elementwise ops. */
function viaFloat(op, opAttrs) {
  return (ctx, n) => {
    const [x, xs, xz, ys, yz] = n.inputs;
    if (!xs || !ys) throw new Unsupported('X_scale and Y_scale are required');
    const xdt = ctx.value(x).dtype;
    if (!INT8.has(xdt)) throw new Unsupported('X must be uint8 or int8');
    for (const [v, what] of [[xs, 'X_scale'], [ys, 'Y_scale']]) {
      const sh = ctx.shape(v);
      if (!sh || sh.reduce((a, d) => a * d, 1) !== 1) throw new Unsupported(`${what} must be a scalar`);
    }
    const o = n.outputs[0], f = ctx.tmp(`${o}_x`), g = ctx.tmp(`${o}_f`);
    const node = (ins, outs) => ({ ...n, inputs: ins, outputs: outs, attrs: {} });
    QUANT_OPS.DequantizeLinear.norm(ctx, node([x, xs, xz || ''], [f]));
    ctx.emit(op, [f], [g], opAttrs(n));
    QUANT_OPS.QuantizeLinear.norm(ctx, node([g, ys, yz || ctx.constScalar(`${o}_yz`, xdt, 0)], [o]));
  };
}

OPS.QLinearLeakyRelu = { attrs: ['alpha'], norm: viaFloat('LeakyRelu', (n) => ({ alpha: A.float(attr(n, 'alpha', 0.01)) })) };
OPS.QLinearSigmoid = { attrs: [], norm: viaFloat('Sigmoid', () => ({})) };

/** QLinearAdd / QLinearMul onto the backend's op of the same name. */
function qlinearBinary(op) {
  return (ctx, n) => {
    const [a, as, az, b, bs, bz, cs, cz] = n.inputs;
    if (!a || !as || !b || !bs || !cs) throw new Unsupported('A, A_scale, B, B_scale and C_scale are required');
    const dt = ctx.value(a).dtype;
    if (!INT8.has(dt)) throw new Unsupported('A must be uint8 or int8');
    if (ctx.value(b).dtype !== dt) throw new Unsupported('B must have A\'s dtype');
    for (const [v, what] of [[as, 'A_scale'], [bs, 'B_scale'], [cs, 'C_scale']]) {
      const sh = ctx.shape(v);
      if (ctx.value(v).dtype !== DT.f32 || !sh || sh.reduce((x, d) => x * d, 1) !== 1) throw new Unsupported(`${what} must be a float32 scalar`);
    }
    for (const [v, what] of [[az, 'A_zero_point'], [bz, 'B_zero_point'], [cz, 'C_zero_point']]) {
      if (!v) continue;
      const sh = ctx.shape(v);
      if (ctx.value(v).dtype !== dt || !sh || sh.reduce((x, d) => x * d, 1) !== 1) throw new Unsupported(`${what} must be a scalar of A's dtype`);
    }
    const relu = attr(n, 'holo_relu', 0);
    if (relu !== 0 && relu !== 1) throw new Unsupported('holo_relu must be 0 or 1');
    const ins = [a, as, az || '', b, bs, bz || '', cs, cz || ''];
    while (ins[ins.length - 1] === '') ins.pop();
    ctx.emit(op, ins, [n.outputs[0]], relu ? { relu: A.int(1) } : {});
  };
}

OPS.QLinearAdd = { attrs: ['holo_relu'], norm: qlinearBinary('QLinearAdd') };
OPS.QLinearMul = { attrs: ['holo_relu'], norm: qlinearBinary('QLinearMul') };

OPS.QLinearGlobalAveragePool = {
  attrs: ['channels_last'],
  norm(ctx, n) {
    const [x, xs, xz, ys, yz] = n.inputs;
    if (!xs || !ys) throw new Unsupported('x_scale and y_scale are required');
    const xdt = ctx.value(x).dtype, sh = ctx.shape(x);
    if (!INT8.has(xdt)) throw new Unsupported('X must be uint8 or int8');
    if (!sh || sh.length < 3) throw new Unsupported('X needs a known rank of 3 or more');
    const last = attr(n, 'channels_last', 0) !== 0;
    const axes = sh.map((_, i) => i).filter((i) => (last ? i >= 1 && i < sh.length - 1 : i >= 2));
    const dims = axes.map((i) => sh[i]);
    if (!dims.every((d) => typeof d === 'number')) throw new Unsupported('the spatial dims must be known at convert time');
    const size = dims.reduce((a, d) => a * d, 1);
    if (size * 255 >= 2 ** 24) throw new Unsupported(`an image of ${size} elements is beyond the exact f32 sum (< 65794)`);
    for (const [v, what] of [[xs, 'x_scale'], [ys, 'y_scale']]) {
      const vs = ctx.shape(v);
      if (ctx.value(v).dtype !== DT.f32 || !vs || vs.reduce((a, d) => a * d, 1) !== 1) throw new Unsupported(`${what} must be a float32 scalar`);
    }
    const o = n.outputs[0];
    const e = (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
    const f = (v) => e('Cast', [v], { to: A.int(DT.f32) });
    let d = f(x);
    if (xz) d = e('Sub', [d, f(xz)]);
    const sum = e('ReduceSum', [d, ctx.constI64(`${o}_axes`, axes)], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
    const scale = e('Div', [xs, e('Mul', [ys, ctx.constScalar(`${o}_n`, DT.f32, size)])]);
    const ydt = yz ? ctx.value(yz).dtype : xdt;
    if (!INT8.has(ydt)) throw new Unsupported('y_zero_point must be uint8 or int8');
    let q = e('Round', [e('Mul', [sum, scale])]);
    if (yz) q = e('Add', [q, f(yz)]);
    e('Cast', [q], { to: A.int(ydt) }, o);
  },
};

OPS.QLinearConcat = {
  attrs: ['axis'],
  norm(ctx, n) {
    const [ys, yz, ...rest] = n.inputs;
    if (!ys || !yz || rest.length === 0 || rest.length % 3 !== 0) throw new Unsupported('expects Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) triples');
    if (n.attrs.axis === undefined) throw new Unsupported(`required attribute 'axis' is missing`);
    const ydt = ctx.value(yz).dtype;
    if (!INT8.has(ydt)) throw new Unsupported('Y_zero_point must be uint8 or int8');
    const o = n.outputs[0], parts = [];
    const node = (ins, outs) => ({ ...n, inputs: ins, outputs: outs, attrs: {} });
    for (let k = 0; k < rest.length; k += 3) {
      const [x, xs, xz] = rest.slice(k, k + 3);
      if (!x || !xs || !xz) throw new Unsupported(`input triple ${k / 3} is incomplete`);
      if (ctx.value(x).dtype !== ydt) throw new Unsupported(`input ${k / 3} has another dtype than Y_zero_point`);
      for (const v of [xs, ys]) {
        const vs = ctx.shape(v);
        if (ctx.value(v).dtype !== DT.f32 || !vs || vs.reduce((a, d) => a * d, 1) !== 1) throw new Unsupported('the scales must be float32 scalars');
      }
      const f = ctx.tmp(`${o}_d${k / 3}`), q = ctx.tmp(`${o}_q${k / 3}`);
      QUANT_OPS.DequantizeLinear.norm(ctx, node([x, xs, xz], [f]));
      QUANT_OPS.QuantizeLinear.norm(ctx, node([f, ys, yz], [q]));
      parts.push(q);
    }
    ctx.emit('Concat', parts, [o], { axis: A.int(attr(n, 'axis', 0)) });
  },
};

OPS.MatMulNBits = {
  attrs: ['K', 'N', 'bits', 'block_size', 'accuracy_level'],
  norm(ctx, n) {
    const [a, b, s, z, gidx, bias] = n.inputs;
    const bits = attr(n, 'bits', 4);
    if (![2, 4, 8].includes(bits)) throw new Unsupported(`bits = ${bits} is not supported (2, 4 and 8 are)`);
    if (n.attrs.K === undefined || n.attrs.N === undefined || n.attrs.block_size === undefined) throw new Unsupported('attributes K, N and block_size are required');
    if (gidx) throw new Unsupported('g_idx (act-order) is not supported');
    if (!b || !s) throw new Unsupported('B and scales are required');
    if (ctx.value(a).dtype !== DT.f32 || ctx.value(s).dtype !== DT.f32) throw new Unsupported('A and scales must be float32 (float16 is not supported)');
    if (ctx.value(b).dtype !== DT.u8) throw new Unsupported(`B must be uint8 (packed ${bits}-bit)`);
    if (z && ctx.value(z).dtype !== DT.u8) throw new Unsupported(`zero_points must be uint8 (packed ${bits}-bit); float zero points are not supported`);
    const o = n.outputs[0];
    const K = attr(n, 'K'), N = attr(n, 'N'), bs = attr(n, 'block_size');
    const w = bits === 4
      ? ctx.emit('holo.DequantizeQ4', [b, s, z || ''], [ctx.tmp(`${o}_w`)], { K: A.int(K), N: A.int(N), block_size: A.int(bs) })[0]
      : nbitsWeight(ctx, n, o);
    if (!bias) return ctx.emit('MatMul', [a, w], [o], {});
    if (ctx.value(bias).dtype !== DT.f32) throw new Unsupported('bias must be float32');
    const [y] = ctx.emit('MatMul', [a, w], [ctx.tmp(`${o}_mm`)], {});
    ctx.emit('Add', [y, bias], [o], {});
  },
};

setGlobalAvgPool(OPS.QLinearGlobalAveragePool); // QLinearAveragePool's whole-image case
export const MSFT_OPS = Object.assign(OPS, MSFT_TRANSFORMER_OPS, MSFT_ATTENTION_OPS, MSFT_ROTARY_OPS, MSFT_GQA_OPS, MSFT_EMBED_OPS, MSFT_QCONV_OPS, MSFT_GATHERBQ_OPS); // + the transformer, attention, rotary, GQA, embedding, quantized conv/pool and GatherBlockQuantized ops (onnx-ops-msft-transformer.js, -attention.js, -rotary.js, -gqa.js, -embed.js, -qconv.js, -gatherbq.js)
