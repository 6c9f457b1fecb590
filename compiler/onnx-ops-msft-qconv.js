// com.microsoft quantized conv / pool / integer ops lowered onto ops the
// backend has (decision 86), each checked against onnxruntime-node 1.30's
// CPU kernels (tests/js/convert-msft-qconv.test.mjs):
//   QLinearConv (X, x_scale, x_zp, W, w_scale, w_zp, y_scale, y_zp, B?;
//     channels_last): the standard QLinearConv (onnx-ops-qgemm.js, the
//     same integer core and requantization as onnxruntime's kernel, which
//     is this op's kernel with the layout switch). channels_last = 1: X
//     [N, spatial..., C] is Transposed to [N, C, spatial...] and Y back;
//     W stays [M, C/group, k...] in both layouts (onnxruntime reads it so).
//     Integers only, so the transposes are exact. 1-D and 2-D (3-D refused
//     as the standard op's lowering refuses it).
//   QLinearMatMul: onnxruntime registers no com.microsoft QLinearMatMul
//     (session creation: "not a registered function/op"); refused by name,
//     the ai.onnx op is the one to use.
//   QLinearAveragePool (X, x_scale, x_zp?, y_scale, y_zp?; kernel_shape,
//     strides, pads, auto_pad, ceil_mode, count_include_pad,
//     channels_last): onnxruntime's steps -- X dequantized to f32 ((x -
//     zp) * scale), the f32 window sum in row-major order divided by the
//     count (the backend's AveragePool sums in the same order), then
//     nearbyint(y / y_scale + (float)y_zp) -- the zero point added before
//     the rounding, as its kernel does -- saturated to X's dtype. When the
//     kernel covers the whole image without padding onnxruntime takes its
//     global-average path (an int32 sum requantized by x_scale / (y_scale *
//     n)), and so does this lowering (QLinearGlobalAveragePool's). 1-D and
//     2-D; refused: 3-D, ceil_mode = 1 with count_include_pad = 1 (the
//     kernel then divides by the whole kernel size where the backend
//     counts the padded extent only).
//   MatMulInteger16 (A int16, B int16 -> int32): each operand split into
//     an i8 high byte and a u8 low byte (a = 256 * hi + lo, exact in f32:
//     Floor(a / 256)), four MatMulInteger products (exact int32 sums) and
//     y = 65536 * hh + 256 * (hl + lh) + ll in int32 with the backend's
//     wrapping Mul / Add: onnxruntime's int32 GEMM (Eigen, wrapping) gives
//     the same bits modulo 2^32. K is bounded by MatMulInteger's 33025.
//   FusedConv (X, W, B?, Z?; the Conv attributes, activation,
//     activation_params): onnxruntime's Conv<float> with Z as the GEMM's
//     initial value and the MLAS activation after: act(Conv(X, W, B) + Z),
//     lowered as Conv (onnx-ops.js), Add, then the activation's standard op
//     -- Relu, Tanh, Sigmoid, LeakyRelu (alpha = params[0]), Clip (min, max
//     = params[0..1]), HardSigmoid (alpha, beta = params[0..1]); float32.
//     Refused: another activation, activation_params of another count than
//     the activation takes (onnxruntime fails such a session too), other
//     dtypes.
//   NhwcConv (X, W, B?): onnxruntime-node registers no CPU kernel for it
//     (session creation: "Could not find an implementation"); its CUDA
//     kernel is Conv with X and Y channels-last and W as [M, C/group,
//     k...] (the NHWC layout transformation moves only the activations).
//     Lowered as Transpose, Conv, Transpose back, and tested against that
//     graph of standard ops in onnxruntime-node. float32, 1-D and 2-D.
import { A, attr, DT, Unsupported } from './ir.js';
import { QGEMM_OPS } from './onnx-ops-qgemm.js';
import { QUANT_OPS } from './onnx-ops-quant.js';
import { OPS as BASE_OPS } from './onnx-ops.js';

const OPS = Object.create(null);
const INT8 = new Set([DT.u8, DT.i8]);
const numel = (s) => s.reduce((a, d) => a * d, 1);

/** perm taking [N, s..., C] to [N, C, s...] (toFirst) or back. */
function lastPerm(rank, toFirst) {
  const sp = Array.from({ length: rank - 2 }, (_, i) => i + (toFirst ? 1 : 2));
  return toFirst ? [0, rank - 1, ...sp] : [0, ...sp, 1];
}

/** Runs `body(xFirst, yFirst)` on X transposed to channels-first, Y transposed back into `o`. */
function viaChannelsFirst(ctx, x, o, body) {
  const sh = ctx.shape(x);
  if (!sh || sh.length < 3) throw new Unsupported('channels_last = 1 needs X of a known rank >= 3');
  const r = sh.length;
  const [xf] = ctx.emit('Transpose', [x], [ctx.tmp(`${o}_nchw`)], { perm: A.ints(lastPerm(r, true)) });
  const yf = ctx.tmp(`${o}_ync`);
  body(xf, yf);
  ctx.emit('Transpose', [yf], [o], { perm: A.ints(lastPerm(r, false)) });
}

OPS.QLinearConv = {
  attrs: ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides', 'channels_last'],
  norm(ctx, n) {
    const x = n.inputs[0];
    for (let i = 0; i < 8; i++) if (!n.inputs[i]) throw new Unsupported('inputs 0-7 (x, scales, zero points, w) are required');
    const xdt = ctx.value(x).dtype, wdt = ctx.value(n.inputs[3]).dtype;
    if (!INT8.has(xdt) || !INT8.has(wdt)) throw new Unsupported('x and w must be uint8 or int8');
    if (xdt === DT.i8 && wdt !== DT.i8) throw new Unsupported('an int8 x takes an int8 w (onnxruntime has no int8 x uint8 kernel)');
    const ydt = ctx.value(n.inputs[7]).dtype;
    if (ydt !== xdt) throw new Unsupported('y_zero_point must have x\'s dtype (onnxruntime\'s kernels)');
    const { channels_last: _cl, ...rest } = n.attrs;
    const plain = { ...n, attrs: rest };
    if (attr(n, 'channels_last', 0) === 0) return QGEMM_OPS.QLinearConv.norm(ctx, plain);
    const o = n.outputs[0];
    viaChannelsFirst(ctx, x, o, (xf, yf) => QGEMM_OPS.QLinearConv.norm(ctx, { ...plain, inputs: [xf, ...n.inputs.slice(1)], outputs: [yf] }));
  },
};

OPS.QLinearMatMul = {
  attrs: [],
  refuse: 'onnxruntime registers no com.microsoft QLinearMatMul (only the ai.onnx QLinearMatMul, which is supported)',
};

function scalarF32(ctx, v, what) {
  const s = ctx.shape(v);
  if (ctx.value(v).dtype !== DT.f32 || !s || numel(s) !== 1 || s.length > 1) throw new Unsupported(`${what} must be a float32 scalar`);
}

OPS.QLinearAveragePool = {
  attrs: ['auto_pad', 'ceil_mode', 'count_include_pad', 'kernel_shape', 'pads', 'strides', 'channels_last'],
  norm(ctx, n) {
    const [x, xs, xz, ys, yz] = n.inputs;
    if (!xs || !ys) throw new Unsupported('x_scale and y_scale are required');
    const xdt = ctx.value(x).dtype;
    if (!INT8.has(xdt)) throw new Unsupported('X must be uint8 or int8');
    scalarF32(ctx, xs, 'x_scale');
    scalarF32(ctx, ys, 'y_scale');
    for (const [v, what] of [[xz, 'x_zero_point'], [yz, 'y_zero_point']]) {
      if (!v) continue;
      const s = ctx.shape(v);
      if (ctx.value(v).dtype !== xdt || !s || numel(s) !== 1 || s.length > 1) throw new Unsupported(`${what} must be a scalar of X's dtype`);
    }
    const ks = attr(n, 'kernel_shape');
    if (!ks) throw new Unsupported(`required attribute 'kernel_shape' is missing`);
    if (ks.length !== 1 && ks.length !== 2) throw new Unsupported(`${ks.length}-D QLinearAveragePool is not supported (1-D and 2-D)`);
    const sh = ctx.shape(x);
    if (!sh || sh.length !== ks.length + 2) throw new Unsupported(`X needs a known rank of ${ks.length + 2} (kernel_shape has ${ks.length} dims)`);
    const cip = attr(n, 'count_include_pad', 0), ceil = attr(n, 'ceil_mode', 0);
    if (ceil !== 0 && cip !== 0) throw new Unsupported('ceil_mode = 1 with count_include_pad = 1 is not supported (onnxruntime divides by the whole kernel size there)');
    const last = attr(n, 'channels_last', 0) !== 0;
    const o = n.outputs[0];
    const sp = last ? sh.slice(1, -1) : sh.slice(2);
    // onnxruntime's global-average path: the kernel is the image, no padding
    const ap = attr(n, 'auto_pad', 'NOTSET');
    const st = attr(n, 'strides', ks.map(() => 1));
    const noPad = ap === 'VALID' || (ap === 'NOTSET' ? attr(n, 'pads', [0]).every((p) => p === 0)
      : sp.every((d, i) => typeof d === 'number' && Math.ceil(d / st[i]) === 1));
    if (noPad && sp.every((d, i) => d === ks[i])) {
      const g = { ...n, attrs: last ? { channels_last: A.int(1) } : {}, inputs: [x, xs, xz || '', ys, yz || ''] };
      return MSFT_GAP().norm(ctx, g);
    }
    const pool = (xin, yout) => {
      const d = ctx.tmp(`${o}_dq`);
      QUANT_OPS.DequantizeLinear.norm(ctx, { ...n, attrs: {}, inputs: [xin, xs, xz || ''], outputs: [d] });
      const p = ctx.tmp(`${o}_avg`);
      const pa = { kernel_shape: n.attrs.kernel_shape, ceil_mode: A.int(ceil), count_include_pad: A.int(cip), auto_pad: A.string(ap) };
      for (const k of ['strides', 'pads']) if (n.attrs[k]) pa[k] = n.attrs[k];
      BASE_OPS.AveragePool.norm(ctx, { ...n, opType: 'AveragePool', attrs: pa, inputs: [d], outputs: [p] });
      const e = (op, ins, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], op === 'Cast' ? { to: A.int(xdt) } : {})[0];
      let v = e('Div', [p, ys]);
      if (yz) v = ctx.emit('Add', [v, ctx.emit('Cast', [yz], [ctx.tmp(`${o}_yzf`)], { to: A.int(DT.f32) })[0]], [ctx.tmp(`${o}_add`)], {})[0];
      e('Cast', [e('Round', [v])], yout); // Cast f32 -> u8/i8 saturates
    };
    if (!last) return pool(x, o);
    viaChannelsFirst(ctx, x, o, pool);
  },
};

let gap = null;
/** QLinearGlobalAveragePool's lowering (onnx-ops-msft.js; read lazily: that file imports this one). */
function MSFT_GAP() { return gap; }
export function setGlobalAvgPool(spec) { gap = spec; }

OPS.MatMulInteger16 = {
  attrs: [],
  norm(ctx, n) {
    const [a, b] = n.inputs;
    if (!b) throw new Unsupported('A and B are required');
    for (const [v, what] of [[a, 'A'], [b, 'B']]) if (ctx.value(v).dtype !== DT.i16) throw new Unsupported(`${what} must be int16 (the op's only CPU kernel)`);
    const bs = ctx.shape(b);
    const K = bs && bs.length >= 2 ? bs[bs.length - 2] : bs?.[0];
    if (typeof K === 'number' && K > 33025) throw new Unsupported(`K = ${K} is beyond MatMulInteger's exact int32 sums (<= 33025)`);
    const o = n.outputs[0];
    const e = (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
    const c = (v) => ctx.constScalar(`${o}_c`, DT.f32, v);
    const split = (v) => {
      const f = e('Cast', [v], { to: A.int(DT.f32) });
      const hi = e('Floor', [e('Div', [f, c(256)])]);
      const lo = e('Sub', [f, e('Mul', [hi, c(256)])]);
      return [e('Cast', [hi], { to: A.int(DT.i8) }), e('Cast', [lo], { to: A.int(DT.u8) })];
    };
    const [ah, al] = split(a), [bh, bl] = split(b);
    const mm = (p, q) => e('MatMulInteger', [p, q]);
    const i32 = (v) => ctx.constScalar(`${o}_k`, DT.i32, v);
    const hh = e('Mul', [mm(ah, bh), i32(65536)]);
    const mid = e('Mul', [e('Add', [mm(ah, bl), mm(al, bh)]), i32(256)]);
    e('Add', [e('Add', [hh, mid]), mm(al, bl)], {}, o);
  },
};

const CONV_ATTRS = ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides'];
const convNode = (n, ins, outs) => ({ ...n, opType: 'Conv', inputs: ins, outputs: outs, attrs: Object.fromEntries(Object.entries(n.attrs).filter(([k]) => CONV_ATTRS.includes(k))) });
const ACTS = { Relu: 0, Tanh: 0, Sigmoid: 0, LeakyRelu: 1, Clip: 2, HardSigmoid: 2 };

function checkF32(ctx, n, k) {
  for (const v of n.inputs.slice(0, k)) if (v && ctx.value(v).dtype !== DT.f32) throw new Unsupported('the inputs must be float32');
}

OPS.FusedConv = {
  attrs: [...CONV_ATTRS, 'activation', 'activation_params'],
  norm(ctx, n) {
    const [x, w, b, z] = n.inputs;
    if (!w) throw new Unsupported('X and W are required');
    checkF32(ctx, n, 4);
    const act = attr(n, 'activation', '');
    const params = attr(n, 'activation_params', []);
    if (act !== '' && !(act in ACTS)) throw new Unsupported(`activation '${act}' is not supported (Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid are)`);
    if (act !== '' && params.length !== ACTS[act]) throw new Unsupported(`activation ${act} takes ${ACTS[act]} activation_params, got ${params.length}`);
    const o = n.outputs[0];
    const last = (k) => (k ? ctx.tmp(`${o}_${k}`) : o);
    let y = last(z ? 'conv' : act ? 'conv' : '');
    BASE_OPS.Conv.norm(ctx, convNode(n, b ? [x, w, b] : [x, w], [y]));
    if (z) {
      const s = act ? ctx.tmp(`${o}_sum`) : o;
      ctx.emit('Add', [y, z], [s], {});
      y = s;
    }
    if (!act) return;
    const f = (v) => ctx.constScalar(`${o}_p`, DT.f32, v);
    if (act === 'LeakyRelu') ctx.emit('LeakyRelu', [y], [o], { alpha: A.float(params[0]) });
    else if (act === 'Clip') ctx.emit('Clip', [y, f(params[0]), f(params[1])], [o], {});
    else if (act === 'HardSigmoid') ctx.emit('HardSigmoid', [y], [o], { alpha: A.float(params[0]), beta: A.float(params[1]) });
    else ctx.emit(act, [y], [o], {});
  },
};

OPS.NhwcConv = {
  attrs: CONV_ATTRS,
  norm(ctx, n) {
    const [x, w, b] = n.inputs;
    if (!w) throw new Unsupported('X and W are required');
    checkF32(ctx, n, 3);
    const r = ctx.shape(x)?.length;
    if (r !== 3 && r !== 4) throw new Unsupported(`X of rank ${r ?? 'unknown'}: 1-D and 2-D NhwcConv are supported`);
    viaChannelsFirst(ctx, x, n.outputs[0], (xf, yf) => BASE_OPS.Conv.norm(ctx, convNode(n, b ? [xf, w, b] : [xf, w], [yf])));
  },
};

export const MSFT_QCONV_OPS = OPS;
