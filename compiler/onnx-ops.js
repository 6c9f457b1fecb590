// Per-op normalization: an ONNX node of a given opset -> canonical nodes in the
// opset-18 form, with every attribute default of the ONNX spec written out
// (so kernels never depend on their own defaults), inputs-as-attributes of
// old opsets turned into constant inputs, and semantics that changed across
// opsets rewritten (Softmax < 13, legacy `broadcast` of opset 6...).
//
// `OPS[op] = { attrs: [known attribute names], norm(ctx, node) }`. A node with
// an attribute not listed is refused (it may change the semantics). `norm`
// emits canonical nodes through ctx.emit and may return nothing.
import { RESIZE_OPS } from './onnx-ops-resize.js';
import { RNN_OPS } from './onnx-ops-rnn.js';
import { TENSOR_OPS } from './onnx-ops-tensors.js';
import { QGEMM_OPS } from './onnx-ops-qgemm.js';
import { EINSUM_OPS } from './onnx-ops-einsum.js';
import { LOSS_OPS } from './onnx-ops-loss.js';
import { conv3d, pool3d } from './onnx-ops-3d.js';
import { CONTROL_OPS } from './onnx-ops-control.js';
import { SEQUENCE_OPS } from './onnx-ops-seq.js';
import { SEQMAP_OPS } from './onnx-ops-seqmap.js';
import { GATHER_OPS } from './onnx-ops-gather.js';
import { QUANT_OPS } from './onnx-ops-quant.js';
import { DETECT_OPS } from './onnx-ops-detect.js';
import { SIGNAL_OPS } from './onnx-ops-signal.js';
import { MAX_NODE_IN } from './holo-writer.js';
import { TEXT_OPS } from './onnx-ops-text.js';
import { OPSET21_OPS } from './onnx-ops-opset21.js';
import { MSFT_ATTENTION_DEFAULT_OPS } from './onnx-ops-msft-attention.js';
import { BATCHNORM_OPS } from './onnx-ops-batchnorm.js';
import { CAST_OPS } from './onnx-ops-cast.js';
import { LPPOOL_OPS } from './onnx-ops-lppool.js';
import { BLOCK_OPS } from './onnx-ops-blocks.js';
import { RANDOM_OPS } from './onnx-ops-random.js';
import { A, attr, constInts, DT, i64Bytes, isConcrete, numel, writeElems, dtypeName, Unsupported } from './ir.js';

export { Unsupported, numel };
// the window helpers ConvInteger shares (onnx-ops-qgemm.js)
export { spatialRank, windowAttrs, as2d };

const ones = (n) => Array(n).fill(1);
const zeros = (n) => Array(n).fill(0);

/** Reshape target (for the Reshape kernel, allowzero=0) that turns `from` into `to`; null if symbols prevent it. */
export function reshapeTarget(from, to) {
  if (!to) return null;
  from = from ?? [];
  const out = [];
  let neg = false;
  for (let i = 0; i < to.length; i++) {
    const d = to[i];
    if (typeof d === 'number' && d !== 0) out.push(d);
    else if (i < from.length && from[i] === d) out.push(0); // copy the input dim
    else if (!neg && typeof d === 'string') { out.push(-1); neg = true; }
    else return null;
  }
  return out;
}

// attribute sets ---------------------------------------------------------------
const UNARY = ['Relu', 'Sigmoid', 'Tanh', 'Exp', 'Log', 'Abs', 'Neg', 'Sqrt', 'Reciprocal', 'Floor', 'Ceil', 'Erf',
  'Sin', 'Cos', 'Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh', 'Sign', 'Round', 'Not',
  'IsNaN', 'Softsign', 'Softplus', 'HardSwish', 'Mish', 'Size', 'GlobalAveragePool', 'MatMul', 'Where',
  'Expand', 'Tile', 'Max', 'Min'];
const LEGACY_BCAST = ['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Equal', 'Less', 'Greater', 'And', 'Or', 'Xor'];
const SIMPLE_ATTR = {
  LeakyRelu: { alpha: 0.01 },
  Elu: { alpha: 1.0 },
  Selu: { alpha: 1.67326319217681884765625, gamma: 1.05070102214813232421875 },
  Celu: { alpha: 1.0 },
  HardSigmoid: { alpha: 0.2, beta: 0.5 },
  ThresholdedRelu: { alpha: 1.0 },
  Shrink: { bias: 0.0, lambd: 0.5 },
  LRN: { alpha: 0.0001, beta: 0.75, bias: 1.0, size: null },
  InstanceNormalization: { epsilon: 1e-5 },
  Gather: { axis: 0 },
  Mod: { fmod: 0 },
  IsInf: { detect_negative: 1, detect_positive: 1 },
  LessOrEqual: {},
  GreaterOrEqual: {},
};
const FLOAT_ATTRS = new Set(['alpha', 'beta', 'bias', 'gamma', 'lambd', 'epsilon']);

function withDefaults(node, defaults) {
  const out = {};
  for (const [k, d] of Object.entries(defaults)) {
    const has = node.attrs[k] !== undefined;
    if (!has && d === null) throw new Unsupported(`required attribute '${k}' is missing`);
    const v = has ? attr(node, k, d ?? 0) : d; // attr() checks the type (every default here is a number)
    out[k] = FLOAT_ATTRS.has(k) ? A.float(v) : Number.isInteger(v) ? A.int(v) : A.float(v);
  }
  return out;
}

// null prototype: an op type such as 'constructor' or 'toString' is unknown, not a method of Object
export const OPS = Object.create(null);
Object.assign(OPS, RESIZE_OPS, RNN_OPS, TENSOR_OPS, QGEMM_OPS, EINSUM_OPS, LOSS_OPS, CONTROL_OPS, SEQUENCE_OPS, SEQMAP_OPS, GATHER_OPS, QUANT_OPS, DETECT_OPS, SIGNAL_OPS, TEXT_OPS, OPSET21_OPS, BATCHNORM_OPS, CAST_OPS, MSFT_ATTENTION_DEFAULT_OPS, LPPOOL_OPS, BLOCK_OPS, RANDOM_OPS); // + onnxruntime's default-domain SimplifiedLayerNormalization
for (const op of UNARY) OPS[op] = { attrs: [], norm: (ctx, n) => ctx.emit(op, n.inputs, n.outputs, {}) };
for (const [op, d] of Object.entries(SIMPLE_ATTR)) OPS[op] = { attrs: Object.keys(d), norm: (ctx, n) => ctx.emit(op, n.inputs, n.outputs, withDefaults(n, d)) };

OPS.BitShift = {
  attrs: ['direction'],
  norm(ctx, n) {
    const d = attr(n, 'direction', null);
    if (d !== 'LEFT' && d !== 'RIGHT') throw new Unsupported(`BitShift: direction must be "LEFT" or "RIGHT", got ${JSON.stringify(d)}`);
    ctx.emit('BitShift', n.inputs, n.outputs, { direction: A.string(d) });
  },
};

// BitwiseAnd/Or/Xor/Not (opset 18): one integer dtype, broadcast like Add;
// kept as they are (kernels-wasm-simd/operators/logical.c).
for (const op of ['BitwiseAnd', 'BitwiseOr', 'BitwiseXor', 'BitwiseNot']) OPS[op] = { attrs: [], norm: (ctx, n) => ctx.emit(op, n.inputs, n.outputs, {}) };

// GlobalMaxPool is ReduceMax over every spatial axis, kept. A NaN
// propagates, as ReduceMax's does (onnxruntime's GlobalMaxPool skips it; the
// spec is silent: docs/converter.md).
OPS.GlobalMaxPool = {
  attrs: [],
  norm(ctx, n) {
    const s = ctx.shape(n.inputs[0]);
    if (!s) throw new Unsupported('GlobalMaxPool needs the input rank');
    if (s.length < 3) throw new Unsupported(`GlobalMaxPool: input rank ${s.length} has no spatial axis`);
    const axes = ctx.constI64(`${n.outputs[0]}_axes`, Array.from({ length: s.length - 2 }, (_, i) => i + 2));
    ctx.emit('ReduceMax', [n.inputs[0], axes], n.outputs, { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
  },
};

// PRelu before opset 7 has no broadcasting rule: a slope of size 1 is shared,
// otherwise it is one value per channel (dim 1), which is how exporters of that
// era wrote a [C] slope for an [N, C, ...] input. Opset 7 broadcasts it
// unidirectionally instead, so the [C] slope becomes [C, 1, ..., 1].
OPS.PRelu = {
  attrs: [],
  norm(ctx, n) {
    const [x, slope] = n.inputs;
    const sx = ctx.shape(x), ss = ctx.shape(slope);
    if (ctx.opset >= 7 || !ss || ss.length !== 1 || ss[0] === 1) { ctx.emit('PRelu', n.inputs, n.outputs, {}); return; }
    if (!sx) throw new Unsupported(`opset ${ctx.opset} PRelu needs the input rank (a [${ss[0]}] slope is per channel)`);
    if (sx.length < 2) { ctx.emit('PRelu', n.inputs, n.outputs, {}); return; }
    const to = [ss[0], ...Array(sx.length - 2).fill(1)];
    const [s2] = ctx.emit('Reshape', [slope, ctx.constI64(`${n.outputs[0]}_slope_shape`, to)], [ctx.tmp(`${n.outputs[0]}_slope`)], { allowzero: A.int(0) });
    ctx.emit('PRelu', [x, s2], n.outputs, {});
  },
};

for (const op of LEGACY_BCAST) {
  OPS[op] = {
    attrs: ['broadcast', 'axis'],
    norm(ctx, n) {
      let [a, b] = n.inputs;
      if (ctx.opset < 7 && attr(n, 'broadcast', 0)) {
        // opset < 7: B is broadcast onto A, aligned at `axis` (default: the trailing dims, as numpy)
        if (n.attrs.axis !== undefined) {
          const ra = ctx.shape(a)?.length, sb = ctx.shape(b);
          if (ra === undefined || !sb) throw new Unsupported(`legacy broadcast with axis needs the ranks of A and B`);
          const axis = attr(n, 'axis') < 0 ? attr(n, 'axis') + ra : attr(n, 'axis');
          const want = [...sb, ...ones(ra - axis - sb.length)];
          if (want.length !== sb.length) {
            const t = reshapeTarget(sb, want);
            if (!t) throw new Unsupported(`legacy broadcast of B${JSON.stringify(sb)} at axis ${axis} cannot be expressed`);
            b = ctx.reshapeTo(b, t);
          }
        }
      } else if (ctx.opset < 7) {
        // broadcast=0: the shapes must be equal; numpy broadcasting gives the same result
      } else if (n.attrs.broadcast !== undefined || n.attrs.axis !== undefined) {
        throw new Unsupported(`attribute 'broadcast'/'axis' is not part of opset ${ctx.opset}`);
      }
      ctx.emit(op, [a, b], n.outputs, {});
    },
  };
}

OPS.Gemm = {
  attrs: ['alpha', 'beta', 'transA', 'transB', 'broadcast'],
  norm(ctx, n) {
    ctx.emit('Gemm', n.inputs, n.outputs, {
      alpha: A.float(attr(n, 'alpha', 1.0)), beta: A.float(attr(n, 'beta', 1.0)),
      transA: A.int(attr(n, 'transA', 0)), transB: A.int(attr(n, 'transB', 0)),
    });
  },
};

function softmaxLike(op) {
  return {
    attrs: ['axis'],
    norm(ctx, n) {
      const x = n.inputs[0];
      const s = ctx.shape(x);
      if (ctx.opset >= 13) {
        ctx.emit(op, n.inputs, n.outputs, { axis: A.int(attr(n, 'axis', -1)) });
        return;
      }
      // opset < 13: the input is coerced to 2-D [prod(d<axis), prod(d>=axis)] and the op runs over dim 1
      let axis = attr(n, 'axis', 1);
      const r = s ? s.length : null;
      if (r !== null && axis < 0) axis += r;
      if (r !== null && (axis === r - 1 || r <= 1)) { ctx.emit(op, [x], n.outputs, { axis: A.int(-1) }); return; }
      const [f] = ctx.emit('Flatten', [x], [ctx.tmp(`${n.outputs[0]}_2d`)], { axis: A.int(axis) });
      const [m] = ctx.emit(op, [f], [ctx.tmp(`${n.outputs[0]}_sm`)], { axis: A.int(-1) });
      const back = s && reshapeTarget(ctx.shape(f), s);
      if (back) { ctx.emit('Reshape', [m, ctx.constI64(`${n.outputs[0]}_shape`, back)], n.outputs, { allowzero: A.int(0) }); return; }
      // The rank or a dim is unknown here (symbolic, or an op without a shape
      // rule upstream): the input's own dims, read at execute time, restore
      // the shape. allowzero: they are exact dims, a 0 among them is a 0.
      const [shp] = ctx.emit('Shape', [x], [ctx.tmp(`${n.outputs[0]}_dims`)], { start: A.int(0) });
      ctx.emit('Reshape', [m, shp], n.outputs, { allowzero: A.int(1) });
    },
  };
}
OPS.Softmax = softmaxLike('Softmax');
OPS.LogSoftmax = softmaxLike('LogSoftmax');
OPS.Hardmax = softmaxLike('Hardmax');

OPS.Reshape = {
  attrs: ['allowzero'],
  norm(ctx, n) {
    let [x, s] = n.inputs;
    const az = attr(n, 'allowzero', 0);
    const sv = ctx.sv(s);
    if (sv && !ctx.isConst(s)) {
      // a shape known up to symbolic dims (e.g. Concat(Shape(x)[0], -1)): resolve against x's dims
      const xs = ctx.shape(x);
      const req = sv.map((e, i) => {
        if (typeof e === 'bigint') return Number(e);
        if (!az && xs && xs[i] === e) return 0;
        return e;
      });
      const syms = req.filter((e) => typeof e === 'string');
      if (syms.length === 0) s = ctx.constI64(`${n.outputs[0]}_shape`, req);
      else if (syms.length === 1 && !req.includes(-1)) s = ctx.constI64(`${n.outputs[0]}_shape`, req.map((e) => (typeof e === 'string' ? -1 : e)));
    }
    ctx.emit('Reshape', [x, s], n.outputs, { allowzero: A.int(az) });
  },
};

OPS.Flatten = { attrs: ['axis'], norm: (ctx, n) => ctx.emit('Flatten', n.inputs, n.outputs, { axis: A.int(attr(n, 'axis', 1)) }) };

OPS.Transpose = {
  attrs: ['perm'],
  norm(ctx, n) {
    const s = ctx.shape(n.inputs[0]);
    const perm = attr(n, 'perm', s ? s.map((_, i) => s.length - 1 - i) : undefined);
    ctx.emit('Transpose', n.inputs, n.outputs, perm ? { perm: A.ints(perm) } : {});
  },
};

OPS.Concat = {
  attrs: ['axis'],
  norm(ctx, n) {
    // Concat-1 (opsets 1-3) has an optional axis, 1 by default; Concat-4 requires it
    if (n.attrs.axis === undefined && ctx.opset >= 4) throw new Unsupported(`required attribute 'axis' is missing`);
    const axis = { axis: A.int(attr(n, 'axis', 1)) };
    // a node holds at most MAX_NODE_IN inputs (the format's bound); a longer
    // Concat (ssdlite's per-class boxes: 90) becomes Concats of runs of
    // inputs, then one of those: a copy in the same order, the same bytes
    let ins = n.inputs;
    while (ins.length > MAX_NODE_IN) {
      const runs = [];
      for (let i = 0; i < ins.length; i += MAX_NODE_IN) {
        const run = ins.slice(i, i + MAX_NODE_IN);
        runs.push(run.length === 1 ? run[0] : ctx.emit('Concat', run, [ctx.tmp(`${n.outputs[0]}_run`)], axis)[0]);
      }
      ins = runs;
    }
    ctx.emit('Concat', ins, n.outputs, axis);
  },
};

function spatialRank(ctx, n, useW) {
  const check = (r, what) => {
    if (r < 3) throw new Unsupported(`${what} has rank ${r}: ${n.opType} needs [N, C, spatial...] (rank 3 or more)`);
    return r - 2;
  };
  const xs = ctx.shape(n.inputs[0]);
  if (xs) return check(xs.length, 'input X');
  if (useW) { const ws = ctx.shape(n.inputs[1]); if (ws) return check(ws.length, 'weight W'); }
  const ks = attr(n, 'kernel_shape', []);
  return ks.length ? ks.length : null;
}

function windowAttrs(ctx, n, nsp, kernelFromW) {
  const out = {};
  const ap = attr(n, 'auto_pad', 'NOTSET');
  if (!['NOTSET', 'VALID', 'SAME_UPPER', 'SAME_LOWER'].includes(ap)) throw new Unsupported(`auto_pad '${ap}' is not valid`);
  out.auto_pad = A.string(ap);
  if (nsp !== null) {
    out.dilations = A.ints(attr(n, 'dilations', ones(nsp)));
    out.strides = A.ints(attr(n, 'strides', ones(nsp)));
    if (ap === 'NOTSET') out.pads = A.ints(attr(n, 'pads', zeros(2 * nsp)));
    else if (n.attrs.pads) out.pads = A.ints(attr(n, 'pads'));
  } else {
    for (const k of ['dilations', 'strides', 'pads']) if (n.attrs[k]) out[k] = A.ints(attr(n, k));
  }
  let ks = attr(n, 'kernel_shape');
  if (!ks && kernelFromW) {
    const ws = ctx.shape(n.inputs[1]);
    if (ws && isConcrete(ws.slice(2))) ks = ws.slice(2);
  }
  if (!ks && !kernelFromW) throw new Unsupported(`required attribute 'kernel_shape' is missing`);
  if (ks) out.kernel_shape = A.ints(ks);
  return out;
}

/**
 * 1-D Conv/MaxPool/AveragePool run as 2-D over [N, C, 1, L] (exactly the same
 * windows: a kernel of height 1, stride 1, no padding along the added axis);
 * the output [N, M, 1, L'] is reshaped back with [0, 0, -1].
 */
function as2d(ctx, n, op, attrs, emitOp) {
  const ex = (name, v0) => (attrs[name] ? { ...attrs[name], value: [v0, ...attrs[name].value] } : undefined);
  const a2 = { ...attrs };
  for (const k of ['dilations', 'strides', 'kernel_shape']) if (a2[k]) a2[k] = ex(k, 1);
  if (a2.pads) { const p = a2.pads.value; a2.pads = A.ints([0, p[0], 0, p[1]]); }
  const last = (v, k) => { const d = ctx.shape(v)?.[k]; return typeof d === 'number' ? d : -1; };
  const x = ctx.reshapeTo(n.inputs[0], [0, 0, 1, last(n.inputs[0], 2)]);
  const ins = [x, ...n.inputs.slice(1)];
  if (op === 'Conv' && n.inputs[1]) ins[1] = ctx.reshapeTo(n.inputs[1], [0, 0, 1, last(n.inputs[1], 2)]);
  const [y] = emitOp(ins, [ctx.tmp(`${n.outputs[0]}_2d`)], a2);
  ctx.emit('Reshape', [y, ctx.constI64(`${n.outputs[0]}_shape1d`, [0, 0, last(y, 3)])], [n.outputs[0]], { allowzero: A.int(0) });
}

OPS.Conv = {
  attrs: ['auto_pad', 'dilations', 'group', 'kernel_shape', 'pads', 'strides'],
  norm(ctx, n) {
    const nsp = spatialRank(ctx, n, true);
    const xr = ctx.shape(n.inputs[0])?.length, wr = ctx.shape(n.inputs[1])?.length;
    if (xr !== undefined && wr !== undefined && xr !== wr) throw new Unsupported(`input X has rank ${xr} but weight W rank ${wr} (they must be equal)`);
    const a = { ...windowAttrs(ctx, n, nsp, true), group: A.int(attr(n, 'group', 1)) };
    if (nsp === 1) return as2d(ctx, n, 'Conv', a, (ins, outs, at) => ctx.emit('Conv', ins, outs, at));
    if (nsp === 3) return conv3d(ctx, n);
    ctx.emit('Conv', n.inputs, n.outputs, a);
  },
};

OPS.MaxPool = {
  attrs: ['auto_pad', 'ceil_mode', 'dilations', 'kernel_shape', 'pads', 'storage_order', 'strides'],
  norm(ctx, n) {
    const nsp = spatialRank(ctx, n, false);
    const a = { ...windowAttrs(ctx, n, nsp, false), ceil_mode: A.int(attr(n, 'ceil_mode', 0)), storage_order: A.int(attr(n, 'storage_order', 0)) };
    const outs = ctx.trimOutputs(n.outputs);
    const dt = ctx.value(n.inputs[0]).dtype;
    // 8-bit integers (opset 12) pool exactly in f32: a max picks one element, and every u8/i8 is an f32
    if (dt === DT.u8 || dt === DT.i8) {
      const xf = ctx.emit('Cast', [n.inputs[0]], [ctx.tmp(`${n.outputs[0]}_f32`)], { to: A.int(DT.f32) })[0];
      const yf = ctx.tmp(`${n.outputs[0]}_pooled`);
      OPS.MaxPool.norm(ctx, { ...n, inputs: [xf], outputs: [yf, ...outs.slice(1)] });
      ctx.emit('Cast', [yf], [n.outputs[0]], { to: A.int(dt) });
      return;
    }
    if (nsp === 1 && outs.length === 1) return as2d(ctx, n, 'MaxPool', a, (ins, o, at) => ctx.emit('MaxPool', ins, o, at));
    if (nsp === 3 && outs.length === 1) return pool3d(ctx, n, 'MaxPool');
    ctx.emit('MaxPool', n.inputs, outs, a);
  },
};

OPS.AveragePool = {
  attrs: ['auto_pad', 'ceil_mode', 'count_include_pad', 'kernel_shape', 'pads', 'strides', 'dilations'],
  norm(ctx, n) {
    const nsp = spatialRank(ctx, n, false);
    const a = windowAttrs(ctx, n, nsp, false);
    if (n.attrs.dilations === undefined) delete a.dilations; // dilations are opset 19; all-ones is the same
    Object.assign(a, { ceil_mode: A.int(attr(n, 'ceil_mode', 0)), count_include_pad: A.int(attr(n, 'count_include_pad', 0)) });
    if (nsp === 1) return as2d(ctx, n, 'AveragePool', a, (ins, o, at) => ctx.emit('AveragePool', ins, o, at));
    if (nsp === 3) return pool3d(ctx, n, 'AveragePool');
    ctx.emit('AveragePool', n.inputs, n.outputs, a);
  },
};

// Sum / Mean of several inputs: a left-to-right chain of Add (Mean: then Div by n), as the reference computes them.
for (const op of ['Sum', 'Mean']) {
  OPS[op] = {
    attrs: [],
    norm(ctx, n) {
      const ins = n.inputs.filter(Boolean);
      if (ins.length === 0) throw new Unsupported('at least one input is required');
      const x0 = ctx.value(ins[0]);
      if (ins.length === 1 && op === 'Sum') return ctx.emit('Identity', ins, n.outputs, {});
      let acc = ins[0];
      for (let i = 1; i < ins.length; i++) {
        const last = i === ins.length - 1 && op === 'Sum';
        [acc] = ctx.emit('Add', [acc, ins[i]], [last ? n.outputs[0] : ctx.tmp(`${n.outputs[0]}_sum${i}`)], {});
      }
      if (op === 'Mean') {
        if (![DT.f32, DT.f64].includes(x0.dtype)) throw new Unsupported(`Mean of ${dtypeName(x0.dtype)} is not supported`);
        ctx.emit('Div', [acc, ctx.constScalar(`${n.outputs[0]}_n`, x0.dtype, ins.length)], n.outputs, {});
      }
    },
  };
}

OPS.Shape = {
  attrs: ['start', 'end'],
  norm(ctx, n) {
    const a = { start: A.int(attr(n, 'start', 0)) };
    if (n.attrs.end !== undefined) a.end = A.int(attr(n, 'end'));
    else { const s = ctx.shape(n.inputs[0]); if (s) a.end = A.int(s.length); }
    ctx.emit('Shape', n.inputs, n.outputs, a);
  },
};

function axesInput(ctx, n, fromAttrSince, name = 'axes') {
  // returns the axes value name ('' if absent)
  if (ctx.opset < fromAttrSince) {
    // an input the op does not take at this opset is refused, not dropped (onnxruntime refuses such a model)
    if (n.inputs[1]) throw new Unsupported(`input '${name}' is not part of opset ${ctx.opset} (an attribute before opset ${fromAttrSince})`);
    if (n.attrs[name] === undefined) return '';
    return ctx.constI64(`${n.outputs[0]}_${name}`, attr(n, name));
  }
  if (n.attrs[name] !== undefined) throw new Unsupported(`attribute '${name}' is not part of opset ${ctx.opset}`);
  return n.inputs[1] ?? '';
}

function squeezeLike(op) {
  return {
    attrs: ['axes'],
    norm(ctx, n) {
      const axes = axesInput(ctx, n, 13);
      const ins = axes ? [n.inputs[0], axes] : [n.inputs[0]];
      // an equivalent Reshape when the output shape is known (the backend may lack the op)
      const x = n.inputs[0];
      const xs = ctx.shape(x), ys = ctx.inferOnly(op, ins, {})[0].shape;
      const t = reshapeTarget(xs, ys);
      if (t && !ctx.isConst(x) && !ctx.sv(x)) ctx.emit('Reshape', [x, ctx.constI64(`${n.outputs[0]}_shape`, t)], n.outputs, { allowzero: A.int(0) });
      else ctx.emit(op, ins, n.outputs, {});
    },
  };
}
OPS.Squeeze = squeezeLike('Squeeze');
OPS.Unsqueeze = squeezeLike('Unsqueeze');

OPS.Slice = {
  attrs: ['starts', 'ends', 'axes'],
  norm(ctx, n) {
    if (ctx.opset < 10) {
      if (!n.attrs.starts || !n.attrs.ends) throw new Unsupported(`required attributes 'starts'/'ends' are missing`);
      const ins = [n.inputs[0], ctx.constI64(`${n.outputs[0]}_starts`, attr(n, 'starts')), ctx.constI64(`${n.outputs[0]}_ends`, attr(n, 'ends'))];
      if (n.attrs.axes) ins.push(ctx.constI64(`${n.outputs[0]}_axes`, attr(n, 'axes')));
      ctx.emit('Slice', ins, n.outputs, {});
    } else ctx.emit('Slice', n.inputs, n.outputs, {});
  },
};

OPS.Pad = {
  attrs: ['mode', 'pads', 'value'],
  norm(ctx, n) {
    const mode = attr(n, 'mode', 'constant');
    if (!['constant', 'reflect', 'edge', 'wrap'].includes(mode)) throw new Unsupported(`mode '${mode}' is not valid`);
    if (mode === 'wrap' && ctx.opset < 19) throw new Unsupported(`mode 'wrap' is opset 19 (this model is opset ${ctx.opset})`);
    if (ctx.opset < 11) {
      const x = ctx.value(n.inputs[0]);
      if (!n.attrs.pads) throw new Unsupported(`required attribute 'pads' is missing`);
      const ins = [n.inputs[0], ctx.constI64(`${n.outputs[0]}_pads`, attr(n, 'pads'))];
      if (mode === 'constant') ins.push(ctx.constScalar(`${n.outputs[0]}_value`, x.dtype, attr(n, 'value', 0)));
      ctx.emit('Pad', ins, n.outputs, { mode: A.string(mode) });
    } else ctx.emit('Pad', n.inputs, n.outputs, { mode: A.string(mode) });
  },
};

OPS.Clip = {
  attrs: ['min', 'max'],
  norm(ctx, n) {
    if (ctx.opset < 11) {
      const x = ctx.value(n.inputs[0]);
      const ins = [n.inputs[0], ctx.constScalar(`${n.outputs[0]}_min`, x.dtype, attr(n, 'min', -3.4028234663852886e38)),
        ctx.constScalar(`${n.outputs[0]}_max`, x.dtype, attr(n, 'max', 3.4028234663852886e38))];
      ctx.emit('Clip', ins, n.outputs, {});
    } else ctx.emit('Clip', n.inputs, n.outputs, {});
  },
};

const REDUCE = ['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare'];
for (const op of REDUCE) {
  OPS[op] = {
    attrs: ['axes', 'keepdims', 'noop_with_empty_axes'],
    norm(ctx, n) {
      const since = op === 'ReduceSum' ? 13 : 18;
      const axes = axesInput(ctx, n, since);
      ctx.emit(op, axes ? [n.inputs[0], axes] : [n.inputs[0]], n.outputs, {
        keepdims: A.int(attr(n, 'keepdims', 1)), noop_with_empty_axes: A.int(attr(n, 'noop_with_empty_axes', 0)),
      });
    },
  };
}
for (const op of ['ArgMax', 'ArgMin']) {
  OPS[op] = {
    attrs: ['axis', 'keepdims', 'select_last_index'],
    norm: (ctx, n) => ctx.emit(op, n.inputs, n.outputs, {
      axis: A.int(attr(n, 'axis', 0)), keepdims: A.int(attr(n, 'keepdims', 1)), select_last_index: A.int(attr(n, 'select_last_index', 0)),
    }),
  };
}

OPS.LayerNormalization = {
  attrs: ['axis', 'epsilon', 'stash_type'],
  norm(ctx, n) {
    // The kernel writes Mean and InvStdDev too (outputs 1, 2) when asked.
    const outs = ctx.trimOutputs(n.outputs);
    ctx.emit('LayerNormalization', n.inputs, outs, { axis: A.int(attr(n, 'axis', -1)), epsilon: A.float(attr(n, 'epsilon', 1e-5)), stash_type: A.int(attr(n, 'stash_type', 1)) });
  },
};

function holoDtypeSize(dt) {
  return { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2 }[dt] ?? 0;
}

OPS.ConstantOfShape = {
  attrs: ['value'],
  norm(ctx, n) {
    if (n.attrs.value && n.attrs.value.type !== 'tensor') throw new Unsupported(`attribute 'value' is of type ${n.attrs.value.type}, expected tensor`);
    const v = n.attrs.value ? n.attrs.value.value : { dtype: DT.f32, dims: [1], bytes: new Uint8Array(4) };
    if (v.bytes.length !== holoDtypeSize(v.dtype)) throw new Unsupported(`attribute 'value' must hold exactly one element`);
    // Expand of a rank-0 constant to the shape: the same tensor, with kernels we have.
    const c = ctx.constRaw(`${n.outputs[0]}_value`, v.dtype, [], v.bytes);
    ctx.emit('Expand', [c, n.inputs[0]], n.outputs, {});
  },
};

OPS.Range = { attrs: [], norm: (ctx, n) => ctx.emit('Range', n.inputs, n.outputs, {}) };

OPS.Constant = {
  attrs: ['value', 'value_float', 'value_floats', 'value_int', 'value_ints', 'value_string', 'value_strings', 'sparse_value'],
  norm(ctx, n) {
    const keys = Object.keys(n.attrs);
    if (keys.length !== 1) throw new Unsupported(`exactly one value attribute is required, got ${keys.length}`);
    const k = keys[0], v = n.attrs[k].value;
    const want = { value: 'tensor', value_float: 'float', value_floats: 'floats', value_int: 'int', value_ints: 'ints' }[k];
    if (want && n.attrs[k].type !== want && !(want === 'float' && n.attrs[k].type === 'int'))
      throw new Unsupported(`attribute '${k}' is of type ${n.attrs[k].type}, expected ${want}`);
    if (!n.outputs[0]) throw new Unsupported('the output is missing');
    let dtype, dims, bytes;
    if (k === 'value') ({ dtype, dims, bytes } = v);
    else if (k === 'value_float') { dtype = DT.f32; dims = []; bytes = writeElems(DT.f32, [v]); }
    else if (k === 'value_floats') { dtype = DT.f32; dims = [v.length]; bytes = writeElems(DT.f32, v); }
    else if (k === 'value_int') { dtype = DT.i64; dims = []; bytes = i64Bytes([v]); }
    else if (k === 'value_ints') { dtype = DT.i64; dims = [v.length]; bytes = i64Bytes(v); }
    else throw new Unsupported(`attribute '${k}' (string or sparse constants) is not supported`);
    ctx.defineConst(n.outputs[0], dtype, dims, bytes);
  },
};

/** Nodes the convert pipeline keeps as is (handled by rewrites). */

// ---- ops the converter maps for kernels that may not exist yet (the backend
// check at the end of convert() refuses them until a kernel is registered)

OPS.Split = {
  attrs: ['axis', 'split', 'num_outputs'],
  norm(ctx, n) {
    const a = { axis: A.int(attr(n, 'axis', 0)) };
    let ins = [n.inputs[0]];
    if (ctx.opset < 13 && n.attrs.split) ins.push(ctx.constI64(`${n.outputs[0]}_split`, attr(n, 'split')));
    else if (ctx.opset >= 13 && n.inputs[1]) ins.push(n.inputs[1]);
    if (ins.length === 1) a.num_outputs = A.int(attr(n, 'num_outputs', n.outputs.length));
    ctx.emit('Split', ins, n.outputs, a);
  },
};

OPS.ConvTranspose = {
  attrs: ['auto_pad', 'dilations', 'group', 'kernel_shape', 'output_padding', 'output_shape', 'pads', 'strides'],
  norm(ctx, n) {
    const nsp = spatialRank(ctx, n, true);
    const xr = ctx.shape(n.inputs[0])?.length, wr = ctx.shape(n.inputs[1])?.length;
    if (xr !== undefined && wr !== undefined && xr !== wr) throw new Unsupported(`input X has rank ${xr} but weight W rank ${wr} (they must be equal)`);
    const a = { ...windowAttrs(ctx, n, nsp, true), group: A.int(attr(n, 'group', 1)) };
    if (nsp !== null) a.output_padding = A.ints(attr(n, 'output_padding', zeros(nsp)));
    if (n.attrs.output_shape) { a.output_shape = A.ints(attr(n, 'output_shape')); if (!n.attrs.pads) delete a.pads; }
    ctx.emit('ConvTranspose', n.inputs, n.outputs, a);
  },
};

OPS.DepthToSpace = {
  attrs: ['blocksize', 'mode'],
  norm(ctx, n) {
    if (n.attrs.blocksize === undefined) throw new Unsupported(`required attribute 'blocksize' is missing`);
    ctx.emit('DepthToSpace', n.inputs, n.outputs, { blocksize: A.int(attr(n, 'blocksize')), mode: A.string(attr(n, 'mode', 'DCR')) });
  },
};
OPS.SpaceToDepth = {
  attrs: ['blocksize'],
  norm(ctx, n) {
    if (n.attrs.blocksize === undefined) throw new Unsupported(`required attribute 'blocksize' is missing`);
    ctx.emit('SpaceToDepth', n.inputs, n.outputs, { blocksize: A.int(attr(n, 'blocksize')) });
  },
};
OPS.GatherElements = { attrs: ['axis'], norm: (ctx, n) => ctx.emit('GatherElements', n.inputs, n.outputs, { axis: A.int(attr(n, 'axis', 0)) }) };
OPS.CumSum = { attrs: ['exclusive', 'reverse'], norm: (ctx, n) => ctx.emit('CumSum', n.inputs, n.outputs, { exclusive: A.int(attr(n, 'exclusive', 0)), reverse: A.int(attr(n, 'reverse', 0)) }) };
OPS.Trilu = { attrs: ['upper'], norm: (ctx, n) => ctx.emit('Trilu', n.inputs, n.outputs, { upper: A.int(attr(n, 'upper', 1)) }) };
OPS.OneHot = { attrs: ['axis'], norm: (ctx, n) => ctx.emit('OneHot', n.inputs, n.outputs, { axis: A.int(attr(n, 'axis', -1)) }) };
OPS.TopK = {
  attrs: ['axis', 'largest', 'sorted', 'k'],
  norm(ctx, n) {
    let ins = n.inputs;
    if (ctx.opset < 10) {
      if (n.attrs.k === undefined) throw new Unsupported(`required attribute 'k' is missing`);
      ins = [n.inputs[0], ctx.constI64(`${n.outputs[0]}_k`, [attr(n, 'k')])];
    } else if (n.attrs.k !== undefined) throw new Unsupported(`attribute 'k' is not part of opset ${ctx.opset}`);
    ctx.emit('TopK', ins, n.outputs, { axis: A.int(attr(n, 'axis', -1)), largest: A.int(attr(n, 'largest', 1)), sorted: A.int(attr(n, 'sorted', 1)) });
  },
};
