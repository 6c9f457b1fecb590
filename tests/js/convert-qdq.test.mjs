// The QDQ fusion (compiler/rewrites/fuse-qdq.js, decision 66): static-QDQ
// Conv / MatMul / Gemm -- QuantizeLinear(x) -> DequantizeLinear -> op with
// DequantizeLinear'd constant weights (and int32 bias) -> QuantizeLinear --
// become QLinearConv / QLinearMatMul in the archive, and agree with
// onnxruntime-node at its DEFAULT optimization level (which fuses the same
// patterns) within one quantum of the output, the mismatching elements
// counted and printed. Where a condition of the integer op fails (a scale
// that is not a constant, the float product read twice, a bias at another
// scale, a Relu the quantization does not absorb) the graph stays float.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32 } from './onnx-build.mjs';

const U8 = 2, I8 = 3;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const f32 = Math.fround;
let seed = 21;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const unit = () => next() / 2 ** 32;
const ORT = { [U8]: 'uint8', [I8]: 'int8' };

/** Per-channel (or one) weight parameters and the quantized weight along `axis` of dims. */
function qweight(tw, dims, axis, per) {
  const C = per ? dims[axis] : 1, inner = numel(dims.slice(axis + 1));
  const sc = Array.from({ length: C }, () => f32(0.002 + unit() * 0.01));
  const zp = Array.from({ length: C }, () => (tw === U8 ? 100 + (next() >>> 27) : (next() >>> 28) - 8));
  const [lo, hi] = tw === U8 ? [0, 255] : [-128, 127];
  const q = Array.from({ length: numel(dims) }, (_, i) => Math.max(lo, Math.min(hi, zp[per ? Math.floor(i / inner) % C : 0] + ((next() >>> 24) - 128))));
  return { sc, zp, q };
}

/**
 * x (float input) -> Q -> DQ -> OP(DQ(w), [DQ(bias)]) [-> act] -> Q -> y (the quantized output).
 * c: { op, tx, tw, xs, ws, axis, per, bias, attrs, act, ysc, yzp, edit(b) }
 */
function qdqModel(c) {
  const b = new OnnxBuilder(13);
  const [xlo, xhi] = c.tx === U8 ? [0, 255] : [-128, 127];
  b.input('x', FLOAT, c.xs);
  const xsc = f32(0.03), xzp = c.tx === U8 ? 120 : -3;
  b.init('xs', FLOAT, [], [xsc]).init('xz', c.tx, [], [xzp]);
  const w = qweight(c.tw, c.ws, c.axis, c.per);
  const sh = c.per ? [w.sc.length] : [];
  b.init('w', c.tw, c.ws, w.q).init('ws', FLOAT, sh, w.sc).init('wz', c.tw, sh, w.zp);
  b.init('ys', FLOAT, [], [f32(c.ysc ?? 0.2)]).init('yz', c.ty ?? c.tx, [], [c.yzp ?? (c.tx === U8 ? 90 : 5)]);
  b.node('QuantizeLinear', ['x', 'xs', 'xz'], ['xq']).node('DequantizeLinear', ['xq', 'xs', 'xz'], ['xd']);
  b.node('DequantizeLinear', ['w', 'ws', 'wz'], ['wd'], c.per ? { axis: c.axis } : {});
  const ins = ['xd', 'wd'];
  if (c.bias) {
    const N = c.bias;
    const bs = Array.from({ length: c.per ? N : 1 }, (_, k) => f32(xsc * w.sc[c.per ? k : 0]) * (c.biasScaleOff ?? 1));
    b.init('bq', INT32, [N], Array.from({ length: N }, () => (next() >>> 20) - 2048)).init('bs', FLOAT, c.per ? [N] : [], bs);
    b.node('DequantizeLinear', ['bq', 'bs'], ['bd'], c.per ? { axis: 0 } : {});
    ins.push('bd');
  }
  b.node(c.op, ins, [c.act ? 'p' : 'yf'], c.attrs ?? {});
  if (c.act === 'Relu') b.node('Relu', ['p'], ['yf']);
  if (c.act === 'Clip') b.init('lo', FLOAT, [], [c.clip[0]]).init('hi', FLOAT, [], [c.clip[1]]).node('Clip', ['p', 'lo', 'hi'], ['yf']);
  b.node('QuantizeLinear', ['yf', 'ys', 'yz'], ['y']).output('y', c.ty ?? c.tx, null);
  c.edit?.(b);
  const x = Float32Array.from({ length: numel(c.xs) }, () => ((xlo - xzp) + unit() * (xhi - xlo)) * xsc);
  return { bytes: b.bytes(), x };
}

async function compare(c, what) {
  const m = qdqModel(c);
  const conv = convert(m.bytes);
  const h = rt.load(conv.holo);
  let got;
  try { got = h.run({ x: { data: m.x, shape: c.xs } }); } finally { h.dispose(); }
  const s = await ort.InferenceSession.create(m.bytes); // the default level: onnxruntime fuses QDQ too
  const want = (await s.run({ x: new ort.Tensor('float32', m.x, c.xs) })).y;
  assert.equal([...got.y.shape], [...want.dims].map(Number), `${what}: shape`);
  let off = 0, worst = 0;
  for (let i = 0; i < want.data.length; i++) { const d = Math.abs(got.y.data[i] - want.data[i]); if (d) off++; worst = Math.max(worst, d); }
  assert.ok(worst <= 1, `${what}: ${off} elements differ, the worst by ${worst} quanta (bar: 1)`);
  console.log(`# ${what}: ${off}/${want.data.length} outputs one quantum off onnxruntime (default level)`);
  return conv.report.opsOut;
}

const fusedCases = [
  ['Conv u8/u8 per-channel, int32 bias, pads/strides', { op: 'Conv', tx: U8, tw: U8, xs: [1, 8, 9, 9], ws: [6, 8, 3, 3], axis: 0, per: true, bias: 6, attrs: { pads: [1, 1, 1, 1], strides: [2, 2] } }],
  ['Conv u8/u8 per-tensor, groups, no bias', { op: 'Conv', tx: U8, tw: U8, xs: [2, 4, 7, 6], ws: [4, 2, 3, 3], axis: 0, attrs: { group: 2, pads: [1, 0, 1, 0] } }],
  ['Conv depthwise + Relu absorbed (yz = 0)', { op: 'Conv', tx: U8, tw: U8, xs: [1, 8, 6, 6], ws: [8, 1, 3, 3], axis: 0, per: true, bias: 8, act: 'Relu', yzp: 0, ysc: 0.05, attrs: { group: 8, pads: [1, 1, 1, 1] } }],
  ['Conv 1-D i8/i8 + Clip absorbed', { op: 'Conv', tx: I8, tw: I8, xs: [1, 3, 20], ws: [5, 3, 3], axis: 0, per: true, act: 'Clip', clip: [-1e9, 1e9], attrs: {} }],
  ['MatMul u8/u8 per-column, batched', { op: 'MatMul', tx: U8, tw: U8, xs: [2, 5, 24], ws: [24, 7], axis: 1, per: true }],
  ['Gemm transB=1 with bias (a Linear)', { op: 'Gemm', tx: U8, tw: U8, xs: [3, 40], ws: [10, 40], axis: 0, per: true, bias: 10, attrs: { transB: 1 } }],
  ['Gemm transB=0 per-tensor', { op: 'Gemm', tx: U8, tw: U8, xs: [2, 16], ws: [16, 9], axis: 1, bias: 9, attrs: {} }],
];

test('QDQ Conv / MatMul / Gemm fuse onto QLinearConv / QLinearMatMul, within 1 quantum of onnxruntime (default level)', async () => {
  for (const [what, c] of fusedCases) {
    const ops = await compare(c, what);
    const want = c.op === 'MatMul' ? 'QLinearMatMul' : 'QLinearConv';
    assert.is(ops[want], 1, `${what}: one ${want} (${JSON.stringify(ops)})`);
    assert.not.ok(ops[c.op === 'Gemm' ? 'Gemm' : c.op] || ops.Conv || ops.MatMul, `${what}: no float product left (${JSON.stringify(ops)})`);
    // DQ is Cast/Sub/Mul once lowered: only x's QuantizeLinear (Div, Round, Add, Cast) stays
    assert.not.ok(ops.Mul || ops.Sub, `${what}: no DequantizeLinear left (${JSON.stringify(ops)})`);
  }
});

test('fuse: false keeps the op-for-op QDQ graph (a different archive)', () => {
  const m = qdqModel(fusedCases[0][1]);
  const a = convert(m.bytes), b = convert(m.bytes, { fuse: false });
  assert.is(a.report.opsOut.QLinearConv, 1);
  assert.not.ok(b.report.opsOut.QLinearConv);
  assert.is(b.report.opsOut.Conv, 1);
  assert.ok(a.report.rewrites.some((r) => r.startsWith('fuse-qdq: 1 ')), a.report.rewrites.join('; '));
  assert.not.equal(Buffer.from(a.holo).toString('hex'), Buffer.from(b.holo).toString('hex'));
});

const base = fusedCases[0][1];
const notFused = [
  ['y scale not a constant', { ...base, edit: (b) => { b.inits = b.inits.filter((t) => t.name !== 'ys'); b.input('ys', FLOAT, []); } }],
  ['the float product also a graph output', { ...base, edit: (b) => b.output('yf', FLOAT, null) }],
  ['the float product read twice', { ...base, edit: (b) => { b.node('Sigmoid', ['yf'], ['s']).output('s', FLOAT, null); } }],
  ['bias at another scale than xs * ws', { ...base, biasScaleOff: 2 }],
  ['Relu not absorbed (yz above qmin)', { ...fusedCases[2][1], yzp: 10 }],
  ['Clip not absorbed (its max inside the range)', { ...fusedCases[3][1], clip: [-1e9, 3] }],
  ['x per-axis (not per-tensor)', { ...base, edit: (b) => {
    const i = b.nodes.findIndex((n) => n.input[0] === 'xq' && n.opType === 'DequantizeLinear');
    b.init('xs8', FLOAT, [8], Array(8).fill(0.03)).init('xz8', U8, [8], Array(8).fill(120));
    b.nodes[i] = { ...b.nodes[i], input: ['xq', 'xs8', 'xz8'], attribute: [{ name: 'axis', type: 2, i: 1 }] };
  } }],
  ['w per-channel on the wrong axis', { ...base, ws: [6, 8, 3, 3], edit: (b) => {
    b.inits = b.inits.filter((t) => !['ws', 'wz'].includes(t.name));
    b.init('ws', FLOAT, [8], Array(8).fill(0.004)).init('wz', U8, [8], Array(8).fill(128));
    b.nodes.find((n) => n.input[0] === 'w').attribute = [{ name: 'axis', type: 2, i: 1 }];
    b.nodes = b.nodes.filter((n) => n.input[0] !== 'bq');
    b.nodes.find((n) => n.opType === 'Conv').input.length = 2;
  } }],
];

test('QDQ patterns the integer ops cannot take stay float (and still convert)', () => {
  for (const [what, c] of notFused) {
    const m = qdqModel(c);
    const r = convert(m.bytes);
    assert.not.ok(r.report.opsOut.QLinearConv, `${what}: not fused (${JSON.stringify(r.report.opsOut)})`);
    assert.is(r.report.opsOut.Conv, 1, `${what}: the float Conv stays`);
  }
});

test('x dequantized for the Conv and for a float op too: fused, the DequantizeLinear kept for the other', async () => {
  const c = { ...base, edit: (b) => b.node('Sigmoid', ['xd'], ['sx']).output('sx', FLOAT, null) };
  const m = qdqModel(c);
  const r = convert(m.bytes);
  assert.is(r.report.opsOut.QLinearConv, 1, JSON.stringify(r.report.opsOut));
  assert.is(r.report.opsOut.Sigmoid, 1);
  const h = rt.load(r.holo);
  let got;
  try { got = h.run({ x: { data: m.x, shape: c.xs } }); } finally { h.dispose(); }
  const want = await (await ort.InferenceSession.create(m.bytes)).run({ x: new ort.Tensor('float32', m.x, c.xs) });
  const worst = Math.max(...want.y.data.map((v, i) => Math.abs(v - got.y.data[i])));
  assert.ok(worst <= 1, `y within 1 quantum (${worst})`);
  const ws = Math.max(...want.sx.data.map((v, i) => Math.abs(v - got.sx.data[i])));
  assert.ok(ws < 1e-6, `the float reader of x's DequantizeLinear (${ws})`);
});

test('per-tensor QuantizeLinear / DequantizeLinear are one-pass kernels with the bytes of the lowered chains', () => {
  const xs = [-1e30, -300, -128.5, -2.5, -1.5, -0.5, -0.49, -0, 0, 0.5, 1.5, 2.5, 3.5, 127.5, 254.5, 255.5, 1e30, Infinity, -Infinity, NaN];
  for (const v of Array.from({ length: 200 }, () => (unit() - 0.5) * 700)) xs.push(v);
  for (const [dt, zp] of [[U8, 7], [U8, 0], [I8, -3], [I8, 0]]) {
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, [xs.length]).input('xq', dt, [256]);
    b.init('s', FLOAT, [], [f32(0.7)]).init('z', dt, [], [zp]).init('s1', FLOAT, [1], [f32(0.7)]).init('z1', dt, [1], [zp]);
    b.init('zf', FLOAT, [], [zp]);
    b.node('QuantizeLinear', ['x', 's', 'z'], ['q']).node('QuantizeLinear', ['x', 's1', 'z1'], ['q1']);
    // the lowering spelled out: Div, Round, Add, Cast (saturating) / Cast, Sub, Mul
    b.node('Div', ['x', 's'], ['d']).node('Round', ['d'], ['r']).node('Add', ['r', 'zf'], ['a']).node('Cast', ['a'], ['qc'], { to: dt });
    b.node('DequantizeLinear', ['xq', 's', 'z'], ['dq']).node('DequantizeLinear', ['xq', 's'], ['dq0']);
    b.node('Cast', ['xq'], ['xf'], { to: FLOAT }).node('Sub', ['xf', 'zf'], ['xm'], {}).node('Mul', ['xm', 's'], ['dqc'], {}).node('Mul', ['xf', 's'], ['dqc0'], {});
    for (const [o, t] of [['q', dt], ['q1', dt], ['qc', dt], ['dq', FLOAT], ['dq0', FLOAT], ['dqc', FLOAT], ['dqc0', FLOAT]]) b.output(o, t, null);
    const r = convert(b.bytes());
    assert.is(r.report.opsOut.QuantizeLinear, 2, JSON.stringify(r.report.opsOut));
    assert.is(r.report.opsOut.DequantizeLinear, 2, JSON.stringify(r.report.opsOut));
    const h = rt.load(r.holo);
    const xq = dt === U8 ? Uint8Array.from({ length: 256 }, (_, i) => i) : Int8Array.from({ length: 256 }, (_, i) => i - 128);
    let y;
    try { y = h.run({ x: { data: Float32Array.from(xs), shape: [xs.length] }, xq: { data: xq, shape: [256] } }); } finally { h.dispose(); }
    const bytes = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('hex');
    assert.is(bytes(y.q), bytes(y.qc), `QuantizeLinear ${dt} zp ${zp}: the chain's bytes`);
    assert.is(bytes(y.q1), bytes(y.qc), `QuantizeLinear ${dt} zp ${zp}, [1]-shaped parameters`);
    assert.is(bytes(y.dq), bytes(y.dqc), `DequantizeLinear ${dt} zp ${zp}`);
    assert.is(bytes(y.dq0), bytes(y.dqc0), `DequantizeLinear ${dt} without a zero point`);
  }
});

test.run();
