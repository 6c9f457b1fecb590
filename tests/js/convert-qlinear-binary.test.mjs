// QLinearAdd / QLinearMul (decision 74): the com.microsoft ops (compiler/
// onnx-ops-msft.js) and the static-QDQ fusion of DequantizeLinear ->
// Add|Mul [-> Relu] -> QuantizeLinear and DequantizeLinear -> Relu ->
// QuantizeLinear (compiler/rewrites/fuse-qdq.js), both on the backend's
// one-pass kernel (kernels-wasm-simd/operators/qlinear-binary.c).
// - the com.microsoft ops against a JS model of onnxruntime's reference
//   kernel (f32 steps via Math.fround: exact) and against onnxruntime-node
//   (its x64 kernels may take a fixed-point path: the differing elements
//   are counted and printed, the bar is one quantum);
// - the fusion against the same model converted with fuse: false (the
//   op-for-op float path): the same bytes, since the kernel computes the
//   float path's f32 steps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT } from './onnx-build.mjs';

const { onnx } = onnxProto;
const U8 = 2, I8 = 3;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const f32 = Math.fround;
let seed = 74;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const ints = (dt, n) => (dt === U8 ? Uint8Array.from({ length: n }, () => next() >>> 24) : Int8Array.from({ length: n }, () => (next() >>> 24) - 128));
const ORT = { [U8]: 'uint8', [I8]: 'int8', [FLOAT]: 'float32' };
const rne = (v) => { const f = Math.floor(v), d = v - f; return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f; };

function msft(b) {
  const m = onnx.ModelProto.decode(b.bytes());
  for (const n of m.graph.node) if (n.opType.startsWith('QLinear')) n.domain = 'com.microsoft';
  m.opsetImport.push({ domain: 'com.microsoft', version: 1 });
  return onnx.ModelProto.encode(m).finish();
}

function runHolo(bytes, feeds, opts) {
  const conv = convert(bytes, opts);
  const h = rt.load(conv.holo);
  try {
    return { y: h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }]))).y, ops: conv.report.opsOut };
  } finally {
    h.dispose();
  }
}

/** onnxruntime's reference QLinearAdd / QLinearMul in f32 steps, numpy broadcasting. */
function reference(mul, dt, A, as, az, sa, B, bs, bz, sb, cs, cz, ys) {
  const [lo, hi] = dt === U8 ? [0, 255] : [-128, 127];
  const r = ys.length, pad = (s) => [...Array(r - s.length).fill(1), ...s];
  const pa = pad(sa), pb = pad(sb), n = numel(ys), out = new (dt === U8 ? Uint8Array : Int8Array)(n);
  const at = (p, idx) => { let o = 0; for (let d = 0; d < r; d++) o = o * p[d] + (p[d] === 1 ? 0 : idx[d]); return o; };
  for (let i = 0, idx = Array(r).fill(0); i < n; i++) {
    const va = f32((A[at(pa, idx)] - az) * as), vb = f32((B[at(pb, idx)] - bz) * bs);
    const v = f32(f32(mul ? va * vb : va + vb) / cs);
    out[i] = Math.max(lo, Math.min(hi, rne(v) + cz));
    for (let d = r - 1; d >= 0 && ++idx[d] === ys[d]; d--) idx[d] = 0;
  }
  return out;
}

test('com.microsoft QLinearAdd / QLinearMul: exact vs the reference kernel, within 1 quantum of onnxruntime', async () => {
  const cases = [
    // op, dt, A shape, B shape, as, az, bs, bz, cs, cz
    ['QLinearAdd', U8, [2, 3, 40], [2, 3, 40], 0.05, 120, 0.03, 100, 0.07, 128],
    ['QLinearAdd', I8, [1, 8, 7, 9], [1, 8, 7, 9], 0.021, -3, 0.013, 5, 0.03, -10],
    ['QLinearAdd', U8, [2, 3, 1, 5], [3, 4, 1], 0.1, 0, 0.2, 7, 0.25, 3],
    ['QLinearAdd', I8, [4, 33], [1], 0.01, 0, 0.5, 0, 0.02, 0],
    ['QLinearAdd', U8, [1], [50], 0.01, 10, 0.04, 130, 0.05, 60],
    ['QLinearMul', U8, [3, 37], [3, 37], 0.05, 120, 0.03, 100, 0.09, 128],
    ['QLinearMul', I8, [2, 5, 6], [5, 1], 0.04, 2, 0.07, -4, 0.1, 1],
  ];
  for (const [op, dt, sa, sb, as, az, bs, bz, cs, cz] of cases) {
    const b = new OnnxBuilder(13);
    b.input('a', dt, sa).input('b', dt, sb);
    b.init('as', FLOAT, [], [f32(as)]).init('az', dt, [], [az]).init('bs', FLOAT, [], [f32(bs)]).init('bz', dt, [], [bz]);
    b.init('cs', FLOAT, [], [f32(cs)]).init('cz', dt, [], [cz]);
    b.node(op, ['a', 'as', 'az', 'b', 'bs', 'bz', 'cs', 'cz'], ['y']).output('y', dt, null);
    const bytes = msft(b);
    const A = ints(dt, numel(sa)), B = ints(dt, numel(sb));
    const feeds = { a: [dt, A, sa], b: [dt, B, sb] };
    const { y: got, ops } = runHolo(bytes, feeds);
    const what = `${op} ${JSON.stringify([dt, sa, sb])}`;
    assert.is(ops[op], 1, `${what}: one ${op} (${JSON.stringify(ops)})`);
    const s = await ort.InferenceSession.create(bytes);
    const want = (await s.run({ a: new ort.Tensor(ORT[dt], A, sa), b: new ort.Tensor(ORT[dt], B, sb) })).y;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    const ref = reference(op === 'QLinearMul', dt, A, f32(as), az, sa, B, f32(bs), bz, sb, f32(cs), cz, [...want.dims].map(Number));
    assert.equal([...got.data], [...ref], `${what}: the reference kernel's bytes`);
    let off = 0, worst = 0;
    for (let i = 0; i < want.data.length; i++) { const d = Math.abs(got.data[i] - want.data[i]); if (d) off++; worst = Math.max(worst, d); }
    console.log(`# ${what}: ${off}/${want.data.length} outputs off onnxruntime-node (worst ${worst})`);
    assert.ok(worst <= 1, `${what}: ${off} elements differ from onnxruntime, the worst by ${worst}`);
  }
});

test('com.microsoft QLinearAdd: non-scalar scales and mixed dtypes are refused', () => {
  const b = new OnnxBuilder(13);
  b.input('a', U8, [4]).input('b', I8, [4]);
  b.init('s', FLOAT, [], [0.1]).init('z', U8, [], [0]).init('zi', I8, [], [0]);
  b.node('QLinearAdd', ['a', 's', 'z', 'b', 's', 'zi', 's', 'z'], ['y']).output('y', U8, null);
  assert.throws(() => convert(msft(b)), /B must have A's dtype/);
  const c = new OnnxBuilder(13);
  c.input('a', U8, [4]).input('b', U8, [4]);
  c.init('s', FLOAT, [], [0.1]).init('s2', FLOAT, [2], [0.1, 0.2]).init('z', U8, [], [0]);
  c.node('QLinearAdd', ['a', 's2', 'z', 'b', 's', 'z', 's', 'z'], ['y']).output('y', U8, null);
  assert.throws(() => convert(msft(c)), /A_scale must be a float32 scalar/);
});

/** a, b float -> Q -> DQ each -> op [-> act] -> Q -> y; unary: a -> Q -> DQ -> act -> Q. */
function qdqModel({ op, dt, sa, sb, act, yz, unary }) {
  const b = new OnnxBuilder(13);
  const z = (v) => (dt === U8 ? v + 128 : v);
  b.input('a', FLOAT, sa).init('as', FLOAT, [], [f32(0.031)]).init('az', dt, [], [z(-7)]);
  b.node('QuantizeLinear', ['a', 'as', 'az'], ['aq']).node('DequantizeLinear', ['aq', 'as', 'az'], ['ad']);
  let p = 'ad';
  if (!unary) {
    b.input('b', FLOAT, sb).init('bs', FLOAT, [], [f32(0.017)]).init('bz', dt, [], [z(4)]);
    b.node('QuantizeLinear', ['b', 'bs', 'bz'], ['bq']).node('DequantizeLinear', ['bq', 'bs', 'bz'], ['bd']);
    b.node(op, ['ad', 'bd'], [act ? 'p' : 'yf']);
    p = 'p';
  }
  if (act === 'Relu') b.node('Relu', [p], ['yf']);
  b.init('ys', FLOAT, [], [f32(0.043)]).init('yz', dt, [], [yz ?? z(2)]);
  b.node('QuantizeLinear', ['yf', 'ys', 'yz'], ['y']).output('y', dt, null);
  return b.bytes();
}

test('static QDQ Add / Mul [-> Relu] and DQ -> Relu -> Q fuse onto QLinearAdd / QLinearMul: the float path\'s bytes', async () => {
  const cases = [
    ['Add u8', { op: 'Add', dt: U8, sa: [1, 16, 9, 9], sb: [1, 16, 9, 9] }, 'QLinearAdd'],
    ['Add i8 + Relu', { op: 'Add', dt: I8, sa: [2, 8, 5, 7], sb: [2, 8, 5, 7], act: 'Relu' }, 'QLinearAdd'],
    ['Add u8 + Relu, broadcast', { op: 'Add', dt: U8, sa: [2, 8, 5, 7], sb: [8, 1, 1], act: 'Relu' }, 'QLinearAdd'],
    ['Mul i8', { op: 'Mul', dt: I8, sa: [3, 50], sb: [3, 50] }, 'QLinearMul'],
    ['DQ -> Relu -> Q u8', { dt: U8, sa: [1, 4, 13, 11], act: 'Relu', unary: true }, 'QLinearAdd'],
    ['DQ -> Relu -> Q i8', { dt: I8, sa: [1, 4, 13, 11], act: 'Relu', unary: true }, 'QLinearAdd'],
  ];
  for (const [what, c, want] of cases) {
    const bytes = qdqModel(c);
    const feeds = { a: [FLOAT, Float32Array.from({ length: numel(c.sa) }, () => ((next() >>> 8) / 2 ** 24 - 0.5) * 9), c.sa] };
    if (!c.unary) feeds.b = [FLOAT, Float32Array.from({ length: numel(c.sb) }, () => ((next() >>> 8) / 2 ** 24 - 0.5) * 5), c.sb];
    const fused = runHolo(bytes, feeds), plain = runHolo(bytes, feeds, { fuse: false });
    assert.is(fused.ops[want], 1, `${what}: one ${want} (${JSON.stringify(fused.ops)})`);
    assert.not.ok(fused.ops.Relu || fused.ops.Add || fused.ops.Mul, `${what}: no float op left (${JSON.stringify(fused.ops)})`);
    assert.not.ok(plain.ops[want], `${what}: fuse: false keeps the float path`);
    assert.equal([...fused.y.data], [...plain.y.data], `${what}: the float path's bytes`);
    const s = await ort.InferenceSession.create(bytes);
    const o = (await s.run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, sh]]) => [k, new ort.Tensor(ORT[t], d, sh)])))).y;
    let off = 0, worst = 0;
    for (let i = 0; i < o.data.length; i++) { const d = Math.abs(fused.y.data[i] - o.data[i]); if (d) off++; worst = Math.max(worst, d); }
    console.log(`# ${what}: ${off}/${o.data.length} outputs off onnxruntime-node at its default level (worst ${worst})`);
    assert.ok(worst <= 1, `${what}: ${off} differ from onnxruntime, the worst by ${worst}`);
  }
});

test('QDQ Add with one float operand stays float', () => {
  const b = new OnnxBuilder(13);
  b.input('a', FLOAT, [8]).input('b', FLOAT, [8]).init('s', FLOAT, [], [0.1]).init('z', U8, [], [128]);
  b.node('QuantizeLinear', ['a', 's', 'z'], ['aq']).node('DequantizeLinear', ['aq', 's', 'z'], ['ad']);
  b.node('Add', ['ad', 'b'], ['yf']).node('QuantizeLinear', ['yf', 's', 'z'], ['y']).output('y', U8, null);
  const ops = convert(b.bytes()).report.opsOut;
  assert.not.ok(ops.QLinearAdd, JSON.stringify(ops));
  assert.is(ops.Add, 1);
});

test.run();
