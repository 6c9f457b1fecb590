// The converter's constant folding agrees with the runtime, byte for byte
// (issue 16, defect 2; docs/converter.md "Constant folding").
//
// For every op the converter can fold, over edge inputs (out of range for the
// target dtype, NaN, +-Inf, -0, subnormals, empty tensors, each dtype):
//  - folded:   the ONNX graph with every input an initializer, converted (the
//              node must fold away), loaded, executed;
//  - unfolded: the same graph with its data input a graph input fed at execute
//              time (the node must stay), run on the scalar and simd128 cores;
// and the outputs (dtype, shape, bytes) or the refusals (code, message) must
// be identical. The ops JS folds symbolically (JS_FOLDS) are checked against
// onnxruntime and against the concrete conversion (where the same chain is
// folded by the kernels). The case tables must cover every foldable op: JS_FOLDS
// and every op of onnx-ops.js the backend has a kernel for.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import onnxProto from 'onnx-proto';
import ort from 'onnxruntime-node';
import { convert, backendHasOp } from '../../compiler/convert.js';
import * as foldConstants from '../../compiler/rewrites/fold-constants.js';
import { OPS } from '../../compiler/onnx-ops.js';
import { MSFT_OPS } from '../../compiler/onnx-ops-msft.js';
import { KernelFolder } from '../../compiler/fold-runtime.js';
import { IR } from '../../compiler/ir.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, Fs } from './onnx-build.mjs';

const { onnx } = onnxProto;
const rtScalar = await init(undefined, { variant: 'scalar' });
const rtSimd = await init(undefined, { variant: 'simd128' });
const D = { f32: 1, u8: 2, i8: 3, u16: 4, i16: 5, i32: 6, i64: 7, bool: 9, f16: 10, f64: 11, u32: 12, u64: 13 };
const ARR = { 1: Float32Array, 2: Uint8Array, 3: Int8Array, 4: Uint16Array, 5: Int16Array, 6: Int32Array, 7: BigInt64Array, 9: Uint8Array, 10: Uint16Array, 11: Float64Array, 12: Uint32Array, 13: BigUint64Array };
const NAME = Object.fromEntries(Object.entries(D).map(([k, v]) => [v, k]));
const BIG = new Set([D.i64, D.u64]);

// ---- edge values per dtype (f16 as bit patterns)
const F_EDGE = [0, -0, 1, -1, 2.5, -2.5, 0.5, -0.5, 1.5, 300, -300, 3e9, -3e9, 255.5, -128.7, 65504, 65520, 1e10, 2 ** 31, -(2 ** 31) - 1000, 2 ** 63, 2 ** 64, -(2 ** 64),
  1e-45, -1e-40, 1.17e-38, 3.4e38, -3.4e38, Infinity, -Infinity, NaN, 88.7, -104, 0.1];
const EDGE = {
  [D.f32]: F_EDGE,
  [D.f64]: [...F_EDGE, 1e300, -1e300, 5e-324, 2 ** 53 + 1, 9.2e18, 1.8e19],
  [D.f16]: [0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x3c00, 0xbc00, 0x3800, 0x4100, 0x5bf8, 0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00],
  [D.u8]: [0, 1, 127, 128, 200, 255],
  [D.i8]: [0, 1, -1, 127, -128, 100, -100],
  [D.u16]: [0, 1, 255, 256, 32768, 65535],
  [D.i16]: [0, 1, -1, 255, -129, 32767, -32768],
  [D.u32]: [0, 1, 255, 65536, 2 ** 31, 2 ** 32 - 1],
  [D.i32]: [0, 1, -1, 255, 256, -129, 65535, 2 ** 31 - 1, -(2 ** 31), 16777217],
  // 2^60 + 2^36 + 1: rounding through a double first lands on a tie, so double rounding to f32 differs from the kernel's one rounding
  [D.i64]: [0n, 1n, -1n, 255n, -129n, 2n ** 31n, 2n ** 53n + 1n, 2n ** 60n + 2n ** 36n + 1n, -(2n ** 60n + 2n ** 36n + 1n), 2n ** 63n - 1n, -(2n ** 63n)],
  [D.u64]: [0n, 1n, 255n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 60n + 2n ** 36n + 1n, 2n ** 63n, 2n ** 64n - 1n],
  [D.bool]: [0, 1, 1, 0],
};
const ALL = Object.values(D);

/** A tensor of `dtype` and `dims` whose elements cycle through `vals` (or the dtype's edge values). */
function t(dtype, dims, vals = EDGE[dtype]) {
  const n = dims.reduce((a, b) => a * b, 1);
  const A = ARR[dtype];
  const arr = new A(n);
  for (let i = 0; i < n; i++) {
    const v = vals[i % vals.length];
    arr[i] = BIG.has(dtype) ? BigInt(v) : Number(v);
  }
  return { dtype, dims, bytes: new Uint8Array(arr.buffer) };
}
const vec = (dtype, vals) => t(dtype, [vals.length], vals);
const i64 = (vals) => vec(D.i64, vals.map(BigInt));
const sc = (dtype, v) => t(dtype, [], [v]);
const typed = (x) => new ARR[x.dtype](x.bytes.buffer.slice(x.bytes.byteOffset, x.bytes.byteOffset + x.bytes.byteLength));

/** The ONNX model of one node: inputs in `feed` are graph inputs, the others initializers. */
function model(c, feed) {
  const b = new OnnxBuilder(c.opset ?? 18);
  const names = c.ins.map((x, i) => (x ? `in${i}` : ''));
  c.ins.forEach((x, i) => {
    if (!x) return;
    if (feed.includes(i)) b.input(names[i], x.dtype, x.dims);
    else b.inits.push(onnx.TensorProto.create({ name: names[i], dataType: x.dtype, dims: x.dims, rawData: x.bytes }));
  });
  const outs = Array.from({ length: c.outs ?? 1 }, (_, k) => `y${k}`);
  b.node(c.op, names, outs, c.attrs ?? {});
  for (const o of outs) b.output(o, 1, null);
  if (!c.domain) return b.bytes();
  // a contrib op (compiler/onnx-ops-msft.js): its node in its domain, imported
  const m = onnx.ModelProto.decode(b.bytes());
  m.graph.node[0].domain = c.domain;
  m.opsetImport.push({ domain: c.domain, version: 1 });
  return onnx.ModelProto.encode(m).finish();
}

// A refusal in the runtime's words, wherever it surfaced: at convert (the
// converter's own load check), at load (the constant cone) or at execute.
const refusal = (m) => String(m).replace(/^convert: the backend refuses the converted graph: /, '').replace(/^[A-Z_]+: /, '').replace(/^node \d+ \([^)]*\): /, '');
function execute(rt, holo, feeds) {
  let s;
  try {
    s = rt.load(holo);
    const r = s.execute(feeds);
    return { outs: r.map((o) => ({ dtype: o.dtype, shape: o.shape, bytes: Buffer.from(o.data.buffer, o.data.byteOffset, o.data.byteLength).toString('hex') })) };
  } catch (e) {
    return { error: refusal(e.message) };
  } finally {
    if (s) s.dispose();
  }
}

const tally = { cases: 0, folded: 0, refused: 0 };
/** Folded and unfolded results of one case; asserts the folded graph folded and the unfolded one did not. */
function both(c) {
  tally.cases++;
  const feed = c.feed ?? [0];
  const label = `${c.op} ${c.ins.map((x) => (x ? `${NAME[x.dtype]}${JSON.stringify(x.dims)}` : '-')).join(' ')} ${JSON.stringify(c.attrs ?? {})}`;
  const conv = (bytes) => { try { return convert(bytes); } catch (e) { return { error: `convert: ${e.message}` }; } };
  const fr = conv(model(c, [])), ur = conv(model(c, feed));
  const feeds = feed.map((i) => ({ data: typed(c.ins[i]), shape: c.ins[i].dims }));
  let unfolded, folded;
  if (ur.error) unfolded = { error: refusal(ur.error) };
  else {
    assert.ok(ur.report.nodes > 0, `${label}: the fed graph keeps its node`);
    unfolded = execute(rtScalar, ur.holo, feeds);
    assert.equal(execute(rtSimd, ur.holo, feeds), unfolded, `${label}: simd128 and scalar cores agree`);
  }
  folded = fr.error ? { error: refusal(fr.error) } : execute(rtSimd, fr.holo, []);
  const kernelWords = !fr.error || fr.error.startsWith('convert: the backend refuses');
  if (folded.error && unfolded.error && kernelWords && ur.report && !ur.report.opsOut[c.op]) {
    // normalization rewrote the fed node (a Squeeze of a non-constant becomes a Reshape): both refuse, in their own words
  } else assert.equal(folded, unfolded, `${label}: folded == runtime bytes`);
  if (unfolded.error) { tally.refused++; return { label, refused: unfolded.error }; }
  assert.is(fr.report.nodes, 0, `${label}: the constant graph folds away (${JSON.stringify(fr.report.opsOut)})`);
  tally.folded++;
  return { label, folded, unfolded, report: fr.report };
}

// ---- the runtime-folded ops: cases per op (a function returning a list of cases)
const F = D.f32;
const fe = (dims) => t(F, dims);
const UNARY_F = ['Relu', 'Sigmoid', 'Tanh', 'Exp', 'Log', 'Abs', 'Neg', 'Sqrt', 'Reciprocal', 'Floor', 'Ceil', 'Erf', 'Sin', 'Cos', 'Tan', 'Sign', 'Round',
  'Softsign', 'Softplus', 'HardSwish', 'LeakyRelu', 'Elu', 'Selu', 'Celu', 'HardSigmoid', 'ThresholdedRelu',
  'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh', 'Mish', 'Shrink'];
const BINARY = ['Add', 'Sub', 'Mul', 'Div', 'Pow', 'Mod', 'Max', 'Min', 'Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual', 'PRelu'];
const LOGIC = ['And', 'Or', 'Xor'];
const REDUCE = ['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare'];

const RUNTIME_CASES = {};
for (const op of UNARY_F) RUNTIME_CASES[op] = () => [[34], [2, 0], [0]].map((d) => ({ op, ins: [fe(d)] })).concat(
  [D.i32, D.i64, D.f64, D.f16].map((dt) => ({ op, ins: [t(dt, [7])] })));
RUNTIME_CASES.Not = () => [{ op: 'Not', ins: [t(D.bool, [4])] }, { op: 'Not', ins: [t(D.bool, [0])] }];
for (const op of BINARY) {
  RUNTIME_CASES[op] = () => {
    const cs = [];
    for (const dt of [F, D.i32, D.i64, D.f64, D.u8]) {
      const e = EDGE[dt];
      // every pair of edge values: a[i] op b[j] over an [n, 1] x [n] broadcast
      const a = t(dt, [e.length, 1], e), bb = t(dt, [e.length], e);
      cs.push({ op, ins: [a, bb], attrs: op === 'Mod' && dt !== F && dt !== D.f64 ? {} : op === 'Mod' ? { fmod: 1 } : {} });
      cs.push({ op, ins: [t(dt, [0, 3]), t(dt, [3])] });
    }
    if (op === 'Mod') cs.push({ op, ins: [vec(D.i32, [7, -7, 7, -7, 0]), vec(D.i32, [3, 3, -3, -3, 5])], attrs: { fmod: 1 } });
    return cs;
  };
}
for (const op of LOGIC) RUNTIME_CASES[op] = () => [{ op, ins: [t(D.bool, [2, 1], [0, 1]), t(D.bool, [2], [0, 1])] }, { op, ins: [t(D.bool, [0]), t(D.bool, [1])] }];
for (const op of REDUCE) {
  RUNTIME_CASES[op] = () => [
    { op, ins: [fe([4, 5]), i64([1])], attrs: { keepdims: 1 } },
    { op, ins: [fe([4, 5]), i64([0])], attrs: { keepdims: 0 } },
    { op, ins: [fe([3, 0]), i64([1])], attrs: { keepdims: 0 } },
    { op, ins: [fe([2, 3])] },
  ];
}
for (const op of ['ArgMax', 'ArgMin']) {
  RUNTIME_CASES[op] = () => [
    { op, ins: [fe([4, 5])], attrs: { axis: 1, keepdims: 0 } },
    { op, ins: [fe([4, 5])], attrs: { axis: 0, keepdims: 1, select_last_index: 1 } },
    { op, ins: [t(F, [6], [NaN, 1, NaN, 2, 2, -Infinity])], attrs: { axis: 0 } },
  ];
}
Object.assign(RUNTIME_CASES, {
  Cast: () => {
    const cs = [];
    for (const from of ALL) for (const to of ALL) {
      cs.push({ op: 'Cast', ins: [vec(from, EDGE[from])], attrs: { to } });
      // the finite values alone too: a fold that gives up on NaN/Inf must still agree on the rest
      if (from === F || from === D.f64) cs.push({ op: 'Cast', ins: [vec(from, EDGE[from].filter(Number.isFinite))], attrs: { to } });
    }
    for (const to of [D.u8, D.f16, D.bool]) cs.push({ op: 'Cast', ins: [t(F, [2, 0])], attrs: { to } });
    return cs;
  },
  Gather: () => ALL.flatMap((dt) => [
    { op: 'Gather', ins: [t(dt, [3, 4]), i64([2, -3, 0])], attrs: { axis: 0 } },
    { op: 'Gather', ins: [t(dt, [3, 4]), vec(D.i32, [-1, 3])], attrs: { axis: 1 } },
  ]).concat([
    { op: 'Gather', ins: [fe([3, 4]), i64([3])], attrs: { axis: 0 } }, // out of range: both refuse
    { op: 'Gather', ins: [fe([3, 4]), t(D.i64, [0])], attrs: { axis: 1 } },
    { op: 'Gather', ins: [fe([0, 4]), t(D.i64, [2], [0, 1])], attrs: { axis: 1 } },
    { op: 'Gather', ins: [fe([3, 4]), sc(D.i64, -1)], attrs: { axis: 0 } },
  ]),
  IsNaN: () => [F, D.f64, D.f16].map((dt) => ({ op: 'IsNaN', ins: [t(dt, [EDGE[dt].length])] })),
  IsInf: () => [F, D.f64, D.f16].flatMap((dt) => [{ op: 'IsInf', ins: [t(dt, [EDGE[dt].length])] },
    { op: 'IsInf', ins: [t(dt, [EDGE[dt].length])], attrs: { detect_positive: 0 } }]),
  BitShift: () => [D.u8, D.u16, D.u32, D.u64].flatMap((dt) => ['LEFT', 'RIGHT'].map((direction) => ({
    op: 'BitShift', ins: [t(dt, [EDGE[dt].length, 1]), t(dt, [5], BIG.has(dt) ? [0n, 1n, 7n, 63n, 64n] : [0, 1, 7, 15, 31])], attrs: { direction } }))),
  ...Object.fromEntries(['BitwiseAnd', 'BitwiseOr', 'BitwiseXor', 'BitwiseNot'].map((op) => [op, () =>
    [D.i8, D.u8, D.i16, D.u16, D.i32, D.u32, D.i64, D.u64].map((dt) => ({ op, opset: 18,
      ins: op === 'BitwiseNot' ? [t(dt, [EDGE[dt].length])] : [t(dt, [EDGE[dt].length, 1]), t(dt, [3], EDGE[dt].slice(-3))] }))])),
  Gelu: () => ['none', 'tanh'].map((approximate) => ({ op: 'Gelu', opset: 20, ins: [fe([34])], attrs: { approximate } })),
  // Dropout reaches the kernel with its mask in use (else it is the identity and removed)
  Dropout: () => [{ op: 'Dropout', ins: [fe([2, 3])], outs: 2 },
    { op: 'Dropout', ins: [fe([4]), sc(F, 0), sc(D.bool, 1)], outs: 2, feed: [0, 1, 2] },
    { op: 'Dropout', ins: [fe([4]), sc(F, 0.25), sc(D.bool, 0)], outs: 2, feed: [0, 2] }],
  EyeLike: () => [{ op: 'EyeLike', ins: [fe([3, 4])], attrs: { k: 1 } }, { op: 'EyeLike', ins: [t(D.i32, [4, 2])], attrs: { k: -1, dtype: D.f64 } }],
  HannWindow: () => [{ op: 'HannWindow', ins: [sc(D.i64, 7)] }, { op: 'HannWindow', ins: [sc(D.i32, 1)], attrs: { periodic: 0 } }],
  HammingWindow: () => [{ op: 'HammingWindow', ins: [sc(D.i64, 9)], attrs: { output_datatype: D.f64 } }],
  BlackmanWindow: () => [{ op: 'BlackmanWindow', ins: [sc(D.i64, 0)] }, { op: 'BlackmanWindow', ins: [sc(D.i64, 6)], attrs: { periodic: 0 } }],
  DepthToSpace: () => [{ op: 'DepthToSpace', ins: [fe([1, 8, 2, 3])], attrs: { blocksize: 2, mode: 'CRD' } }, { op: 'DepthToSpace', ins: [t(D.i64, [2, 4, 1, 2])], attrs: { blocksize: 2 } }],
  SpaceToDepth: () => [{ op: 'SpaceToDepth', ins: [fe([1, 2, 4, 6])], attrs: { blocksize: 2 } }],
  ScatterElements: () => [
    { op: 'ScatterElements', ins: [fe([3, 4]), t(D.i64, [2, 4], [0, -1, 2, 1]), fe([2, 4])], attrs: { axis: 0, reduction: 'add' } },
    { op: 'ScatterElements', ins: [t(D.i32, [3, 4]), t(D.i64, [3, 1], [3, -4, 0]), t(D.i32, [3, 1])], attrs: { axis: 1 } },
    { op: 'ScatterElements', ins: [fe([3, 4]), t(D.i64, [1, 1], [3]), fe([1, 1])], attrs: { axis: 0 } }, // out of range: both refuse
  ],
  ScatterND: () => [
    { op: 'ScatterND', ins: [fe([4, 3]), t(D.i64, [2, 1], [1, -1]), fe([2, 3])], attrs: { reduction: 'mul' } },
    { op: 'ScatterND', ins: [t(D.u8, [2, 3]), t(D.i64, [2, 2], [0, 1, 1, 2]), t(D.u8, [2], [7, 9])] },
  ],
  GatherND: () => [
    { op: 'GatherND', ins: [fe([2, 3, 4]), t(D.i64, [2, 1, 2], [1, 2, 0, -1])], attrs: { batch_dims: 0 } },
    { op: 'GatherND', ins: [t(D.i64, [2, 3]), t(D.i64, [2, 1], [2, 0])], attrs: { batch_dims: 1 } },
  ],
  NonZero: () => [{ op: 'NonZero', ins: [fe([EDGE[F].length])] }, { op: 'NonZero', ins: [t(D.bool, [2, 2])] }, { op: 'NonZero', ins: [fe([0, 3])] }],
  GridSample: () => {
    const grid = t(F, [1, 2, 3, 2], [-1.2, -1, -0.3, 0, 0.45, 1, 1.3, 0.5, -0.5, 0.25, 3, -7]);
    return [['bilinear', 'zeros', 0], ['nearest', 'border', 1], ['bicubic', 'reflection', 0], ['bicubic', 'border', 1], ['bilinear', 'reflection', 1]]
      .map(([mode, padding_mode, align_corners]) => ({ op: 'GridSample', ins: [t(F, [1, 2, 3, 4], [1, -2, 0.5, 3, 7, -1, 0, 2.5, 4, -3, 1.5, 6]), grid], attrs: { mode, padding_mode, align_corners } }))
      .concat([{ op: 'GridSample', ins: [fe([1, 1, 4, 3]), t(D.f64, [1, 2, 2, 2], [0.1, -0.9, NaN, 0.3, Infinity, 0, 0.5, -Infinity])], attrs: { mode: 'bilinear', padding_mode: 'border', align_corners: 0 } }]);
  },
  Unique: () => [
    { op: 'Unique', ins: [fe([EDGE[F].length])], outs: 4 },
    { op: 'Unique', ins: [t(D.i64, [2, 5], [3n, 1n, 3n, -2n, 1n, 3n, 1n, 3n, -2n, 1n])], attrs: { axis: 1, sorted: 0 }, outs: 4 },
    { op: 'Unique', ins: [t(D.u8, [0, 3])], attrs: { axis: 0 }, outs: 4 },
  ],
  Det: () => [{ op: 'Det', ins: [fe([3, 3, 3])] }, { op: 'Det', ins: [t(D.f64, [2, 2, 2], [1, 2, 3, 4, 0, 0, 5, 6])] }, { op: 'Det', ins: [fe([0, 0])] }],
  OneHot: () => [{ op: 'OneHot', ins: [t(D.i64, [2, 2], [0n, -1n, 3n, 7n]), sc(D.i64, 4), t(F, [2], [0, 1])], attrs: { axis: -1 } },
    { op: 'OneHot', ins: [fe([3]), sc(F, 3.7), t(D.i32, [2], [5, 9])], attrs: { axis: 0 } }],
  TopK: () => [{ op: 'TopK', ins: [fe([EDGE[F].length]), i64([5])], attrs: { axis: 0 }, outs: 2 },
    { op: 'TopK', ins: [t(D.i64, [3, 4]), i64([2])], attrs: { axis: 1, largest: 0 }, outs: 2 }],
  NonMaxSuppression: () => [
    { op: 'NonMaxSuppression', ins: [t(F, [1, 6, 4], [0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, -0.1, 1, 0.9, 0, 10, 1, 11, 0, 10.1, 1, 11.1, 0, 100, 1, 101]),
      t(F, [1, 2, 6], [0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.8, 0.8, 0.8, 0.1, 0.8, 0.2]), i64([3]), t(F, [1], [0.5]), t(F, [1], [0.05])] },
    { op: 'NonMaxSuppression', ins: [fe([1, 9, 4]), t(F, [1, 1, 9], [3, 1, 4, 1, 5, 9, 2, 6, 5]), i64([9])], attrs: { center_point_box: 1 } },
    { op: 'NonMaxSuppression', ins: [fe([1, 9, 4]), fe([1, 2, 9]), i64([4]), t(F, [1], [0]), t(F, [1], [0])] },
    { op: 'NonMaxSuppression', ins: [fe([1, 9, 4]), fe([1, 2, 9]), i64([4])] }, // a NaN candidate score: both refuse
  ],
  RoiAlign: () => [
    { op: 'RoiAlign', ins: [fe([1, 2, 4, 5]), t(F, [3, 4], [0, 0, 3, 2, 1, 1, 4, 4, -1, 0.5, 2, 7]), i64([0, 0, 0])], attrs: { output_height: 2, output_width: 3 } },
    { op: 'RoiAlign', ins: [fe([2, 1, 5, 4]), t(F, [2, 4], [0.5, 1, 6, 9, 3, 3, 3, 3]), i64([1, 0])],
      attrs: { mode: 'max', coordinate_transformation_mode: 'output_half_pixel', spatial_scale: 0.5, sampling_ratio: 2 } },
  ],
  BatchNormalization: () => [{ op: 'BatchNormalization', ins: [fe([2, 3, 2, 2]), t(F, [3], [1, -2, 0.5]), t(F, [3], [0, 1, -1]), t(F, [3], [0.5, 0, 3]), t(F, [3], [1, 0.25, 4])], attrs: { epsilon: 1e-3 } }],
  LRN: () => [{ op: 'LRN', ins: [fe([1, 5, 2, 2])], attrs: { size: 3, alpha: 1e-2, beta: 0.75, bias: 2 } }, { op: 'LRN', ins: [fe([2, 4, 3])], attrs: { size: 4 } }],
  GatherElements: () => [
    { op: 'GatherElements', ins: [fe([3, 4]), t(D.i64, [2, 4], [0, -1, 2, 1])], attrs: { axis: 0 } },
    { op: 'GatherElements', ins: [t(D.i64, [3, 4]), t(D.i32, [3, 1], [3, -4, 0])], attrs: { axis: 1 } },
  ],
  Concat: () => ALL.flatMap((dt) => [
    { op: 'Concat', ins: [t(dt, [2, 3]), t(dt, [2, 0]), t(dt, [2, 1])], attrs: { axis: -1 }, feed: [0] },
    { op: 'Concat', ins: [t(dt, [1, 3]), t(dt, [2, 3])], attrs: { axis: 0 } },
  ]),
  Slice: () => ALL.flatMap((dt) => [
    { op: 'Slice', ins: [t(dt, [4, 5]), i64([1, -1]), i64([100, -6]), i64([0, 1]), i64([1, -2])] },
  ]).concat([
    { op: 'Slice', ins: [fe([4, 5]), i64([0]), i64([9223372036854775807n]), i64([1]), i64([3])] },
    { op: 'Slice', ins: [fe([4, 5]), i64([-9223372036854775807n]), i64([2])] },
    { op: 'Slice', ins: [fe([4, 5]), i64([3]), i64([1])] }, // empty
    { op: 'Slice', ins: [fe([4, 5]), i64([4]), i64([-100]), i64([0]), i64([-1])] },
    { op: 'Slice', ins: [fe([4, 5]), i64([0]), i64([2]), i64([0]), i64([0])] }, // step 0: both refuse
  ]),
  Reshape: () => ALL.flatMap((dt) => [
    { op: 'Reshape', ins: [t(dt, [2, 3, 4]), i64([4, -1])] },
  ]).concat([
    { op: 'Reshape', ins: [fe([2, 3, 4]), i64([0, 0, -1])] },
    { op: 'Reshape', ins: [fe([2, 0, 4]), i64([0, 4, -1])] },
    { op: 'Reshape', ins: [fe([2, 0]), i64([0, 5])], attrs: { allowzero: 1 } },
    { op: 'Reshape', ins: [fe([2, 3]), i64([4, -1])] }, // not divisible: both refuse
  ]),
  Flatten: () => [0, 1, 2, -1, 3].map((axis) => ({ op: 'Flatten', ins: [fe([2, 3, 4])], attrs: { axis } })).concat(
    [{ op: 'Flatten', ins: [t(D.i64, [2, 0, 3])], attrs: { axis: 2 } }]),
  Squeeze: () => ALL.map((dt) => ({ op: 'Squeeze', ins: [t(dt, [1, 3, 1]), i64([0, -1])] })).concat(
    [{ op: 'Squeeze', ins: [fe([1, 0, 1])] }, { op: 'Squeeze', ins: [fe([2, 3]), i64([0])] }]),
  Unsqueeze: () => ALL.map((dt) => ({ op: 'Unsqueeze', ins: [t(dt, [3]), i64([0, -1])] })).concat(
    [{ op: 'Unsqueeze', ins: [sc(F, NaN), i64([0])] }, { op: 'Unsqueeze', ins: [fe([0]), i64([1])] }]),
  Range: () => [
    [F, 0, 1, 0.1], [F, 1, -1, -0.3], [F, 0, 1e8, 3e7], [F, 0, 0, 1], [F, 5, 1, 1], [F, 0.5, 10.25, 0.5], [F, -0, 1, 0.75],
    [D.f64, 0, 1, 0.1], [D.i32, 0, 10, 3], [D.i32, 10, -10, -7], [D.i64, -5, 5, 2], [D.i16, 0, 100, 33], [D.i32, 0, 5, 0], [F, 0, 1, NaN],
  ].map(([dt, a, b, d]) => ({ op: 'Range', ins: [sc(dt, a), sc(dt, b), sc(dt, d)], feed: [0, 1, 2] })),
  Expand: () => ALL.flatMap((dt) => [
    { op: 'Expand', ins: [t(dt, [3, 1]), i64([2, 1, 4])] },
    { op: 'Expand', ins: [t(dt, [1]), i64([2, 0])] },
  ]),
  Tile: () => [{ op: 'Tile', ins: [t(D.i32, [2, 3]), i64([2, 1])] }, { op: 'Tile', ins: [fe([2, 3]), i64([0, 3])] }],
  Transpose: () => ALL.map((dt) => ({ op: 'Transpose', ins: [t(dt, [2, 3, 4])], attrs: { perm: [2, 0, 1] } })).concat(
    [{ op: 'Transpose', ins: [fe([0, 3])] }]),
  Where: () => [F, D.i64, D.u8].map((dt) => ({ op: 'Where', ins: [t(D.bool, [3, 1], [1, 0, 1]), t(dt, [3, 4]), t(dt, [4], EDGE[dt].slice(1))] })),
  Clip: () => [
    { op: 'Clip', ins: [fe([34]), sc(F, -1), sc(F, 2)] },
    { op: 'Clip', ins: [fe([34]), sc(F, NaN), sc(F, 2)] },
    { op: 'Clip', ins: [fe([34]), sc(F, 3), sc(F, -3)] },
    { op: 'Clip', ins: [t(D.i32, [10]), sc(D.i32, -5), sc(D.i32, 300)] },
    { op: 'Clip', ins: [fe([34])] },
  ],
  Pad: () => [
    { op: 'Pad', ins: [fe([2, 3]), i64([1, 0, 0, 2]), sc(F, NaN)], attrs: { mode: 'constant' } },
    { op: 'Pad', ins: [t(D.i64, [2, 3]), i64([0, 1, 1, 1])], attrs: { mode: 'edge' } },
    { op: 'Pad', ins: [fe([3, 4]), i64([0, 2, 0, 2])], attrs: { mode: 'reflect' } },
    { op: 'Pad', ins: [fe([3, 4]), i64([-1, 0, 0, -2])] },
  ],
  Split: () => [
    { op: 'Split', ins: [fe([6, 2]), i64([1, 2, 3])], attrs: { axis: 0 }, outs: 3 },
    { op: 'Split', ins: [t(D.i32, [2, 7])], attrs: { axis: 1, num_outputs: 3 }, outs: 3 },
  ],
  DFT: () => [
    { op: 'DFT', ins: [fe([1, 8, 1])], attrs: { onesided: 1 }, opset: 17 },
    { op: 'DFT', ins: [fe([2, 6, 2])], attrs: { inverse: 1 }, opset: 17 },
    { op: 'DFT', ins: [fe([1, 5, 1]), sc(D.i64, 8)], attrs: { axis: 1 }, opset: 17 },
  ],
  STFT: () => [
    { op: 'STFT', ins: [fe([1, 16, 1]), sc(D.i64, 4), fe([8])], opset: 17 },
    { op: 'STFT', ins: [fe([2, 12, 1]), sc(D.i64, 3), fe([6])], attrs: { onesided: 0 }, opset: 17 },
  ],
  MelWeightMatrix: () => [
    { op: 'MelWeightMatrix', ins: [sc(D.i64, 8), sc(D.i64, 16), sc(D.i64, 8000), sc(F, 0), sc(F, 4000)], opset: 17 },
  ],
  TfIdfVectorizer: () => [
    { op: 'TfIdfVectorizer', ins: [vec(D.i32, [1, 1, 3, 3, 3, 7, 8, 6, 7, 5, 6, 8])], opset: 9,
      attrs: { min_gram_length: 1, max_gram_length: 2, max_skip_count: 2, mode: 'TFIDF', ngram_counts: [0, 4], ngram_indexes: [6, 5, 4, 3, 2, 1, 0], pool_int64s: [2, 3, 5, 4, 5, 6, 7, 8, 6, 7], weights: Fs([0.5, 1, 1.5, 2, 2.5, 3, 3.5]) } },
    { op: 'TfIdfVectorizer', ins: [t(D.i64, [2, 5], [1n, 2n, 3n, 1n, 2n, 9n, 9n, 9n, 1n, 2n])], opset: 9,
      attrs: { min_gram_length: 2, max_gram_length: 2, max_skip_count: 0, mode: 'IDF', ngram_counts: [0, 1], ngram_indexes: [0, 1], pool_int64s: [9, 1, 2] } },
  ],
  CumSum: () => [
    { op: 'CumSum', ins: [fe([3, 4]), sc(D.i64, 1)] },
    { op: 'CumSum', ins: [t(D.i32, [9]), sc(D.i32, 0)], attrs: { exclusive: 1, reverse: 1 } },
  ],
  Trilu: () => [
    { op: 'Trilu', ins: [fe([3, 4]), sc(D.i64, 1)], attrs: { upper: 0 } },
    { op: 'Trilu', ins: [t(D.i64, [2, 3, 3])], attrs: { upper: 1 } },
  ],
  Softmax: () => [{ op: 'Softmax', ins: [fe([3, 7])], attrs: { axis: -1 } }, { op: 'Softmax', ins: [fe([2, 3, 5])], attrs: { axis: 1 }, opset: 11 }],
  LogSoftmax: () => [{ op: 'LogSoftmax', ins: [fe([3, 7])], attrs: { axis: 0 } }],
  Hardmax: () => [{ op: 'Hardmax', ins: [fe([3, 7])], attrs: { axis: 1 } }],
  LayerNormalization: () => [{ op: 'LayerNormalization', ins: [fe([3, 8]), t(F, [8], [1, 2, -1, 0.5]), t(F, [8], [0, 0.1])], attrs: { axis: -1 } }],
  InstanceNormalization: () => [{ op: 'InstanceNormalization', ins: [fe([2, 3, 6]), t(F, [3], [1, -2, 0.5]), t(F, [3], [0, 0.1, -1])], attrs: { epsilon: 1e-3 } }],
  RNN: () => [{ op: 'RNN', ins: [fe([3, 2, 2]), t(F, [2, 4, 2], [0.5, -1, 0.25]), t(F, [2, 4, 4], [0.1, -0.2, 0.3]), t(F, [2, 8], [0.5, 0])], attrs: { hidden_size: 4, direction: 'bidirectional' }, outs: 2 }],
  GRU: () => [0, 1].map((lbr) => ({ op: 'GRU', ins: [fe([2, 3, 2]), t(F, [1, 9, 2], [0.5, -1, 0.25]), t(F, [1, 9, 3], [0.1, -0.2, 0.3])], attrs: { hidden_size: 3, linear_before_reset: lbr }, outs: 2 })),
  LSTM: () => [{ op: 'LSTM', ins: [fe([2, 3, 2]), t(F, [1, 8, 2], [0.5, -1, 0.25]), t(F, [1, 8, 2], [0.1, -0.2, 0.3]), t(F, [1, 16], [0.5, 0]), null, t(F, [1, 3, 2], [1, -1]), t(F, [1, 3, 2], [0.5]), t(F, [1, 6], [0.2, -0.1])], attrs: { hidden_size: 2, clip: 3 }, outs: 3 }],
  GlobalAveragePool: () => [{ op: 'GlobalAveragePool', ins: [fe([1, 2, 3, 3])] }],
  MaxPool: () => [{ op: 'MaxPool', ins: [fe([1, 2, 4, 4])], attrs: { kernel_shape: [2, 2], strides: [1, 2] } }],
  AveragePool: () => [{ op: 'AveragePool', ins: [fe([1, 2, 4, 4])], attrs: { kernel_shape: [3, 3], pads: [1, 1, 1, 1], count_include_pad: 0 } }],
  MatMulInteger: () => [{ op: 'MatMulInteger', ins: [t(D.u8, [3, 5]), t(D.i8, [5, 4]), t(D.u8, [], [255]), t(D.i8, [4], [-128, 0, 1, 127])] }, { op: 'MatMulInteger', ins: [t(D.i8, [2, 0]), t(D.u8, [0, 3])] }],
  ConvInteger: () => [{ op: 'ConvInteger', ins: [t(D.u8, [1, 4, 5, 5]), t(D.i8, [4, 2, 3, 3]), t(D.u8, [], [128]), t(D.i8, [4], [-128, 0, 1, 127])], attrs: { pads: [1, 1, 1, 1], group: 2, strides: [2, 1] } }, { op: 'ConvInteger', ins: [t(D.i8, [1, 3, 4, 4]), t(D.u8, [2, 3, 2, 2])], attrs: { dilations: [2, 2] } }],
  QLinearMatMul: () => [{ op: 'QLinearMatMul', ins: [t(D.u8, [3, 5]), t(F, [], [0.05]), t(D.u8, [], [3]), t(D.i8, [5, 4]), t(F, [4], [0.01, 0.5, 0.002, 0.03]), t(D.i8, [4], [-128, 0, 1, 127]), t(F, [], [0.25]), t(D.u8, [], [128])] }, { op: 'QLinearMatMul', ins: [t(D.i8, [2, 2, 3]), t(F, [], [0.5]), t(D.i8, [], [-1]), t(D.i8, [3, 2]), t(F, [], [0.25]), t(D.i8, [], [0]), t(F, [], [0.125]), t(D.i8, [], [5])] }],
  QLinearConv: () => [{ op: 'QLinearConv', ins: [t(D.u8, [1, 4, 5, 5]), t(F, [], [0.05]), t(D.u8, [], [128]), t(D.i8, [4, 2, 3, 3]), t(F, [4], [0.01, 0.5, 0.002, 0.03]), t(D.i8, [4], [-128, 0, 1, 127]), t(F, [], [0.25]), t(D.u8, [], [7]), t(D.i32, [4], [-1000, 0, 5, 100000])], attrs: { pads: [1, 1, 1, 1], group: 2, strides: [2, 1] } }, { op: 'QLinearConv', ins: [t(D.i8, [1, 3, 4, 4]), t(F, [], [0.5]), t(D.i8, [], [0]), t(D.u8, [2, 3, 2, 2]), t(F, [], [0.5]), t(D.u8, [], [9]), t(F, [], [0.5]), t(D.i8, [], [-3])], attrs: { dilations: [2, 2] } }],
  QuantizeLinear: () => [{ op: 'QuantizeLinear', ins: [t(F, [2, 5], [-1e9, -2.5, -0.5, 0.5, 1.5, 2.5, 40, 1e9, -0, 3.25]), t(F, [], [0.5]), t(D.u8, [], [3])] }, { op: 'QuantizeLinear', ins: [t(F, [4], [-70, -1.5, 0.5, 70]), t(F, [1], [0.5]), t(D.i8, [1], [-2])] }],
  // com.microsoft's (qlinear-binary.c): ties (scales 0.5 / 0.25), saturation both ways, broadcast both ways,
  // the fusion's relu; a zero C_scale is refused alike folded and fed
  QLinearAdd: () => [
    { op: 'QLinearAdd', domain: 'com.microsoft', ins: [t(D.u8, [2, 3, 5]), sc(F, 0.5), sc(D.u8, 128), t(D.u8, [3, 1]), sc(F, 0.25), sc(D.u8, 7), sc(F, 0.5), sc(D.u8, 100)] },
    { op: 'QLinearAdd', domain: 'com.microsoft', ins: [t(D.i8, [1]), sc(F, 0.03), sc(D.i8, -128), t(D.i8, [4, 9]), sc(F, 2), sc(D.i8, 127), sc(F, 0.125), sc(D.i8, 0)], attrs: { holo_relu: 1 } },
    { op: 'QLinearAdd', domain: 'com.microsoft', ins: [t(D.i8, [20]), sc(F, 0.5), sc(D.i8, 0), t(D.i8, [20]), sc(F, 0.5), sc(D.i8, 0), sc(F, 0), sc(D.i8, 0)] },
  ],
  QLinearMul: () => [
    { op: 'QLinearMul', domain: 'com.microsoft', ins: [t(D.u8, [2, 18]), sc(F, 0.05), sc(D.u8, 3), t(D.u8, [2, 18]), sc(F, 0.5), sc(D.u8, 255), sc(F, 0.25), sc(D.u8, 128)] },
    { op: 'QLinearMul', domain: 'com.microsoft', ins: [t(D.i8, [3, 7]), sc(F, 1e-3), sc(D.i8, 5), t(D.i8, [7]), sc(F, 40), sc(D.i8, -1), sc(F, 0.5), sc(D.i8, -3)], attrs: { holo_relu: 1 } },
  ],
  // Edge values on purpose: an all-zero input (scale 0), a range not straddling 0 (ORT widens it to 0), NaN-free ties.
  DynamicQuantizeLinear: () => [
    { op: 'DynamicQuantizeLinear', ins: [t(F, [2, 5], [-1.5, -0.5, 0, 0.25, 0.5, 1.5, 2.5, 3, 7.75, -2])], outs: 3 },
    { op: 'DynamicQuantizeLinear', ins: [t(F, [4], [2, 3, 4.5, 6])], outs: 3 },
    { op: 'DynamicQuantizeLinear', ins: [t(F, [3], [0, 0, 0])], outs: 3 },
  ],
  DequantizeLinear: () => [{ op: 'DequantizeLinear', ins: [t(D.u8, [2, 3], [0, 1, 3, 128, 254, 255]), t(F, [], [0.05]), t(D.u8, [], [3])] }, { op: 'DequantizeLinear', ins: [t(D.i8, [4], [-128, -1, 0, 127]), t(F, [1], [0.25])] }],
  MatMul: () => [{ op: 'MatMul', ins: [fe([3, 5]), t(F, [5, 9], [0.5, -2, 1e-40, 3e38, 1])] }, { op: 'MatMul', ins: [fe([2, 0]), fe([0, 3])] }],
  Gemm: () => [{ op: 'Gemm', ins: [fe([4, 3]), t(F, [5, 3], [1, -1, 0.25]), t(F, [5], [0.5])], attrs: { transB: 1, alpha: 0.5 } }],
  Conv: () => [{ op: 'Conv', ins: [fe([1, 2, 5, 5]), t(F, [3, 2, 3, 3], [0.5, -1, 2, 0]), t(F, [3], [1, -1, 0])], attrs: { pads: [1, 1, 1, 1] } }],
  ConvTranspose: () => [
    { op: 'ConvTranspose', ins: [fe([1, 2, 3, 3]), t(F, [2, 3, 2, 2], [0.5, -1, 2]), t(F, [3], [1, -1, 0])], attrs: { strides: [2, 2] } },
    { op: 'ConvTranspose', ins: [fe([1, 2, 4]), t(F, [2, 2, 3], [0.25, 3])], attrs: { strides: [2], pads: [1, 0], output_padding: [1] } },
  ],
  Resize: () => [
    { op: 'Resize', ins: [fe([1, 2, 3, 4]), null, t(F, [4], [1, 1, 2, 1.5])], attrs: { mode: 'linear' } },
    { op: 'Resize', ins: [fe([1, 1, 4, 4]), null, null, i64([1, 1, 3, 7])], attrs: { mode: 'cubic', coordinate_transformation_mode: 'align_corners' } },
  ],
});

// ---- ops JS folds symbolically: each case is a model over x[N, 3, 4] whose
// chain yields a shape that a final Reshape applies to x (the symbolic
// conversion folds the chain in JS, the concrete one through the kernels),
// or, for Identity/Size, a plain model checked against onnxruntime.
const I64 = 7;
function shapeModel(build, { symbolic = true, xdims = ['N', 3, 4], opset = 18 } = {}) {
  const b = new OnnxBuilder(opset);
  b.input('x', 1, symbolic ? xdims : xdims.map((d) => (typeof d === 'string' ? 2 : d)));
  const k = (name, vals, dt = I64) => b.inits.push(onnx.TensorProto.create({ name, dataType: dt, dims: [vals.length], rawData: new Uint8Array(dt === I64 ? BigInt64Array.from(vals.map(BigInt)).buffer : Int32Array.from(vals).buffer) }));
  b.node('Shape', ['x'], ['s']);
  const s = build(b, k);
  b.node('Reshape', ['x', s], ['y']);
  b.output('y', 1, null);
  return b.bytes();
}
const SYMBOLIC_CASES = {
  Shape: [(b, k) => { b.node('Shape', ['x'], ['s1'], { start: -2 }); b.node('Shape', ['x'], ['s0'], { end: 1 }); k('m1', [-1]); b.node('Concat', ['s0', 'm1'], ['t'], { axis: 0 }); return 't'; },
    (b, k) => { b.node('Shape', ['x'], ['a'], { start: 1, end: 100 }); b.node('Shape', ['x'], ['n'], { start: -100, end: -2 }); b.node('Shape', ['x'], ['z'], { start: 2, end: 1 }); b.node('Concat', ['n', 'a', 'z'], ['t'], { axis: 0 }); return 't'; }],
  Cast: [(b) => { b.node('Cast', ['s'], ['c32'], { to: 6 }); b.node('Cast', ['c32'], ['c64'], { to: 7 }); return 'c64'; },
    (b, k) => { k('hi', [1]); b.node('Concat', ['s', 'hi'], ['t'], { axis: 0 }); b.node('Cast', ['t'], ['u'], { to: 13 }); b.node('Cast', ['u'], ['v'], { to: 7 }); return 'v'; }],
  Gather: [(b, k) => { k('i', [0, -1]); b.node('Gather', ['s', 'i'], ['g'], { axis: 0 }); k('m1', [-1]); b.node('Concat', ['g', 'm1'], ['t'], { axis: 0 }); return 't'; }],
  Concat: [(b, k) => { k('a', [12]); k('i', [0]); b.node('Gather', ['s', 'i'], ['g']); b.node('Concat', ['g', 'a'], ['t'], { axis: 0 }); return 't'; },
    (b, k) => { k('e', []); b.node('Concat', ['e', 's', 'e'], ['t'], { axis: 0 }); return 't'; }],
  Slice: [(b, k) => { k('st', [0]); k('en', [1]); b.node('Slice', ['s', 'st', 'en'], ['h']); k('m1', [-1]); b.node('Concat', ['h', 'm1'], ['t'], { axis: 0 }); return 't'; },
    (b, k) => { k('st', [-1]); k('en', [-100]); k('ax', [0]); k('sp', [-1]); b.node('Slice', ['s', 'st', 'en', 'ax', 'sp'], ['r']); b.node('Slice', ['r', 'st', 'en', 'ax', 'sp'], ['t']); return 't'; }],
  Unsqueeze: [(b, k) => { k('z', [0]); b.node('Gather', ['s', 'z'], ['n'].map(String), {}); b.node('Squeeze', ['n', 'z'], ['n0']); b.node('Unsqueeze', ['n0', 'z'], ['n1']); k('m1', [-1]); b.node('Concat', ['n1', 'm1'], ['t'], { axis: 0 }); return 't'; }],
  Squeeze: [(b, k) => { k('z', [0]); k('i', [0]); b.node('Gather', ['s', 'i'], ['n']); b.node('Squeeze', ['n', 'z'], ['n0']); k('m1', [-1]); b.node('Unsqueeze', ['n0', 'z'], ['n1']); b.node('Concat', ['n1', 'm1'], ['t'], { axis: 0 }); return 't'; }],
  Reshape: [(b, k) => { k('sh', [3]); b.node('Reshape', ['s', 'sh'], ['r']); k('one', [1]); b.node('Concat', ['r', 'one'], ['t'], { axis: 0 }); return 't'; }],
  Identity: [(b) => { b.node('Identity', ['s'], ['i1']); b.node('Identity', ['i1'], ['i2']); return 'i2'; }],
  Size: [(b, k) => { b.node('Size', ['x'], ['n']); k('z', [0]); b.node('Unsqueeze', ['n', 'z'], ['n1']); k('m1', [-1]); b.node('Concat', ['m1', 'n1'], ['t'], { axis: 0 }); return 't'; }],
};

async function ortRun(bytes, x) {
  const s = await ort.InferenceSession.create(bytes);
  const r = await s.run({ x: new ort.Tensor('float32', x.data, x.shape) });
  return r.y;
}
const xOf = (n) => ({ data: Float32Array.from({ length: n * 12 }, (_, i) => i - 7.5), shape: [n, 3, 4] });

// ---- the tests

test('the case tables cover every op the converter can fold', () => {
  assert.equal(Object.keys(SYMBOLIC_CASES).sort(), [...(foldConstants.JS_FOLDS ?? [])].sort(), 'one symbolic case list per JS fold (JS_FOLDS)');
  // the com.microsoft ops too (their QuantizeLinear / DequantizeLinear are the standard ones)
  const kernelOps = [...new Set([...Object.keys(OPS), ...Object.keys(MSFT_OPS)])].filter((op) => backendHasOp(rtScalar, op));
  // Shape and Size: a fed graph declares the feed's shape, so they fold in JS
  // there too; their kernels run only over symbolic dims, where
  // tests/js/dynamic-shapes.test.mjs checks them against onnxruntime
  const SHAPE_ONLY = new Set(['Shape', 'Size']);
  // the sequence ops: the converter tracks a sequence it can fold as a list
  // of tensors (compiler/onnx-ops-seq.js), so their kernels run only on
  // run-time sequences (tests/js/sequences.test.mjs, the conformance suite)
  const LISTS = new Set(['SequenceEmpty', 'SequenceConstruct', 'SequenceInsert', 'SequenceErase', 'SequenceAt', 'SequenceLength',
    'SplitToSequence', 'ConcatFromSequence', 'Optional', 'OptionalHasElement', 'OptionalGetElement']);
  const missing = kernelOps.filter((op) => !RUNTIME_CASES[op] && !SHAPE_ONLY.has(op) && !LISTS.has(op));
  assert.equal(missing, [], 'every op with a kernel folds through the runtime and has cases');
  assert.ok(kernelOps.length >= 80, `${kernelOps.length} kernel ops`);
});

for (const [op, cases] of Object.entries(RUNTIME_CASES)) {
  test(`runtime fold: ${op} — folded bytes == the runtime's bytes for the fed graph`, () => {
    let folded = 0;
    const cs = cases();
    for (const c of cs) if (both(c).report) folded++;
    assert.ok(folded > 0, `${op}: at least one case folds`);
    if (op === 'Cast') assert.is(folded, cs.length, 'every dtype pair folds');
  });
}

test('the issue\'s Cast: f32 [-1, 300, 3e9, 2.5] -> u8 folds to the kernel\'s saturated [0, 255, 255, 2]', () => {
  const r = both({ op: 'Cast', ins: [vec(F, [-1, 300, 3e9, 2.5])], attrs: { to: D.u8 } });
  assert.equal(r.folded.outs[0], { dtype: 'uint8', shape: [4], bytes: '00ffff02' });
  assert.equal(r.report.folded.runtime, { Cast: 1 });
});

for (const [op, builds] of Object.entries(SYMBOLIC_CASES)) {
  test(`JS fold: ${op} over a symbolic shape == onnxruntime == the kernel-folded concrete conversion`, async () => {
    for (const build of builds) {
      const sym = convert(shapeModel(build, { symbolic: op !== 'Size' })); // Size folds only for a concrete shape
      assert.equal(sym.report.opsOut, { Reshape: 1 }, `${op}: the shape chain folds away in JS`);
      assert.ok(sym.report.folded.js[op] > 0, `${op}: folded by JS`);
      const conc = convert(shapeModel(build, { symbolic: false }));
      assert.equal(conc.report.folded.js[op === 'Size' || op === 'Shape' || op === 'Identity' ? op : 'Shape'] > 0, true);
      for (const n of [2, 5]) {
        if (n !== 2 && op === 'Size') continue;
        const x = xOf(n);
        const want = await ortRun(shapeModel(build, { symbolic: false, xdims: [n, 3, 4] }), x);
        const s = rtSimd.load(sym.holo);
        const [got] = s.execute([x]);
        s.dispose();
        assert.equal(got.shape, [...want.dims], `${op} N=${n}: shape`);
        assert.equal([...got.data], [...want.data]);
      }
      const s = rtSimd.load(conc.holo);
      assert.equal(s.execute([xOf(2)])[0].shape, rtSimd.load(sym.holo).execute([xOf(2)])[0].shape, `${op}: symbolic == concrete`);
      s.dispose();
    }
  });
}

test('a shape value is not cast in JS where the kernel could wrap: Cast of a symbolic dim to u8 stays a node and runs with the Shape kernel', async () => {
  const build = (b) => { b.node('Cast', ['s'], ['c'], { to: 2 }); b.node('Cast', ['c'], ['d'], { to: 7 }); return 'd'; };
  const sym = convert(shapeModel(build));
  assert.ok(sym.report.opsOut.Shape && sym.report.opsOut.Cast, `Shape and Cast stay nodes: ${JSON.stringify(sym.report.opsOut)}`);
  for (const n of [2, 5]) {
    const x = xOf(n);
    const want = await ortRun(shapeModel(build, { symbolic: false, xdims: [n, 3, 4] }), x);
    const s = rtSimd.load(sym.holo);
    const [got] = s.execute([x]);
    s.dispose();
    assert.equal(got.shape, [...want.dims], `N=${n}: shape`);
  }
  // the same chain over a concrete shape folds through the kernels
  assert.equal(convert(shapeModel(build, { symbolic: false })).report.opsOut, { Reshape: 1 });
});

// Einsum and LpNormalization lower onto other ops (compiler/onnx-ops-einsum.js):
// folded they run those ops' kernels, fed the same kernels at load; a dtype the
// lowering's MatMul has no kernel for is refused alike both ways.
test('ops lowered onto others fold with the runtime\'s bytes, f64 Einsum (Mul + ReduceSum) included', () => {
  for (const c of [
    { op: 'Einsum', ins: [fe([2, 3]), fe([3, 4])], attrs: { equation: 'ij,jk->ki' }, feed: [0, 1] },
    { op: 'Einsum', ins: [fe([2, 3, 4])], attrs: { equation: 'ijk->kj' } },
    { op: 'LpNormalization', ins: [fe([2, 5])], attrs: { axis: 0, p: 1 } },
  ]) assert.ok(!both(c).refused, `${c.op} ${c.attrs.equation ?? ''} runs`);
  const f64 = t(D.f64, [2, 3]), g64 = t(D.f64, [3, 2]);
  assert.ok(!both({ op: 'Einsum', ins: [f64, g64], attrs: { equation: 'ij,jk->ik' }, feed: [0, 1] }).refused, 'f64 Einsum runs (Mul + ReduceSum: no f64 GEMM)');
});

test('folding is deterministic: two conversions give the same archive, independent of the caller\'s runtime', async () => {
  const c = { op: 'Cast', ins: [vec(F, F_EDGE)], attrs: { to: D.i32 } };
  const rtThreads = await init(undefined, { threads: 2 });
  const a = convert(model(c, [])).holo, b2 = convert(model(c, []), { runtime: rtThreads }).holo, d = convert(model(c, []), { runtime: rtScalar }).holo;
  assert.equal(Buffer.from(a).toString('hex'), Buffer.from(b2).toString('hex'));
  assert.equal(Buffer.from(a).toString('hex'), Buffer.from(d).toString('hex'));
  rtThreads.dispose();
  // fold: false leaves the node; the runtime's constant cone computes the same bytes at load
  const nf = convert(model(c, []), { fold: false });
  assert.is(nf.report.nodes, 1);
  assert.equal(execute(rtSimd, nf.holo, []), execute(rtSimd, a, []));
});

test('a trap in a fold leaves the node and the next fold gets a fresh instance', () => {
  let made = 0;
  const fresh = () => {
    made++;
    if (made === 1) return { load() { const e = new Error('wasm trap in holo_wasm_load: unreachable'); e.code = 'TRAP'; throw e; }, dispose() {} };
    return rtScalar;
  };
  const folder = new KernelFolder(fresh);
  const ir = new IR();
  const c = vec(F, [-1, 300, 3e9, 2.5]);
  ir.addConst('c', c.dtype, c.dims, c.bytes);
  const mk = (o) => { ir.addValue({ name: o, dtype: D.u8, shape: [4], kind: 'node' }); return { op: 'Cast', name: o, inputs: ['c'], outputs: [o], attrs: { to: { type: 'int', value: D.u8 } } }; };
  assert.is(foldConstants.foldNode(ir, mk('a'), folder), false);
  assert.match(ir.log.join('\n'), /runtime trapped on 'Cast'/);
  assert.is(foldConstants.foldNode(ir, mk('b'), folder), 'const');
  assert.is(made, 2);
  assert.equal([...ir.get('b').bytes], [0, 255, 255, 2]);
});

test.after(() => console.log(`\nfold-equiv: ${tally.cases} folded/fed pairs: ${tally.folded} folded with the runtime's bytes, ${tally.refused} refused alike`));
test.run();
