// QLinearMatMul and QLinearConv (compiler/onnx-ops-qgemm.js; the integer
// core with the requantization fused: kernels-wasm-simd/operators/
// matmul-integer.c, conv-integer.c, qlinear.h) against onnxruntime-node,
// exact bytes: u8/i8 operands and outputs, per-tensor and per-column /
// per-output-channel weight scales and zero points, batched and 1-D
// MatMul, constant weights (packed once) and fed ones, Conv windows,
// groups, 1-D, the int32 bias, outputs that saturate both ways.
//
// The bar is onnxruntime's float twin of the same arithmetic: Cast, Sub the
// zero points, MatMul / Conv (+ bias) -- exact, every partial sum an
// integer below 2^24 here -- then Mul by the f32 multiplier (x_scale *
// w_scale) / y_scale (rounded to f32 in that order, as onnxruntime's
// QLinear kernels compute it), Round (half to even), Add the output zero
// point, Clip, Cast. onnxruntime's own QLinear kernels are run too and any
// disagreement printed: without AVX-VNNI its u8 x s8 kernels sum pairs in
// saturating int16 (decision 45's note), so they are not the bar.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init, load } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32 } from './onnx-build.mjs';

const U8 = 2, I8 = 3;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
let seed = 5;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const ints = (dt, n) => (dt === U8 ? Uint8Array.from({ length: n }, () => next() >>> 24) : Int8Array.from({ length: n }, () => (next() >>> 24) - 128));
const ORT = { [U8]: 'uint8', [I8]: 'int8', [INT32]: 'int32' };
const RANGE = { [U8]: [0, 255], [I8]: [-128, 127] };
const f32 = Math.fround;

const ortRun = async (bytes, feeds) => (await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, s]]) => [k, new ort.Tensor(ORT[t], d, s)])))).y;

function runHolo(bytes, feeds) {
  const h = rt.load(convert(bytes).holo);
  try {
    return h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }]))).y;
  } finally {
    h.dispose();
  }
}

// A case's tensors, drawn once: q = { ta, tw, ty, xs, ws, per (channel count or 0), wconst, bias }
function draw(c, perAxisLen) {
  const x = ints(c.tx, numel(c.xs)), w = ints(c.tw, numel(c.ws));
  const n = c.per ? perAxisLen : 1;
  const wsc = Array.from({ length: n }, () => f32(0.002 + (next() >>> 8) / 2 ** 24 * 0.03));
  const wzp = Array.from(ints(c.tw, n));
  const p = { x, w, xsc: f32(c.xsc ?? 0.05), xzp: Array.from(ints(c.tx, 1))[0], wsc, wzp, ysc: f32(c.ysc ?? 0.25), yzp: Array.from(ints(c.ty, 1))[0] };
  p.mult = wsc.map((s) => f32(f32(p.xsc * s) / p.ysc));
  if (c.bias) p.bias = Int32Array.from({ length: perAxisLen }, () => ((next() >>> 16) % 4001) - 2000);
  return p;
}

// The QLinear model: inputs x (and w unless constant), the rest initializers.
function qmodel(c, op, p, perShape, attrs) {
  const b = new OnnxBuilder(13);
  const feeds = { x: [c.tx, p.x, c.xs] };
  b.input('x', c.tx, c.xs);
  if (c.wconst) b.init('w', c.tw, c.ws, p.w);
  else { b.input('w', c.tw, c.ws); feeds.w = [c.tw, p.w, c.ws]; }
  const sh = c.per ? perShape : [];
  b.init('xs', FLOAT, [], [p.xsc]).init('xz', c.tx, [], [p.xzp]).init('ws', FLOAT, sh, p.wsc).init('wz', c.tw, sh, p.wzp);
  b.init('ys', FLOAT, [], [p.ysc]).init('yz', c.ty, [], [p.yzp]);
  const ins = ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'];
  if (p.bias) { b.init('bias', INT32, [p.bias.length], p.bias); ins.push('bias'); }
  b.node(op, ins, ['y'], attrs).output('y', c.ty, null);
  return { bytes: b.bytes(), feeds };
}

// The float twin: `product(b, xf, wf)` adds the MatMul / Conv node giving 'acc'.
function twin(c, p, wzShape, multShape, product) {
  const b = new OnnxBuilder(13);
  b.input('x', c.tx, c.xs);
  if (c.wconst) b.init('w', c.tw, c.ws, p.w);
  else b.input('w', c.tw, c.ws);
  b.init('xzf', FLOAT, [], [p.xzp]).init('wzf', FLOAT, c.per ? wzShape : [], p.wzp);
  b.node('Cast', ['x'], ['xc'], { to: FLOAT }).node('Sub', ['xc', 'xzf'], ['xf'], {});
  b.node('Cast', ['w'], ['wc'], { to: FLOAT }).node('Sub', ['wc', 'wzf'], ['wf'], {});
  product(b, 'xf', 'wf');
  const [lo, hi] = RANGE[c.ty];
  b.init('m', FLOAT, c.per ? multShape : [], p.mult).init('yzf', FLOAT, [], [p.yzp]).init('lo', FLOAT, [], [lo]).init('hi', FLOAT, [], [hi]);
  b.node('Mul', ['acc', 'm'], ['v'], {}).node('Round', ['v'], ['r'], {}).node('Add', ['r', 'yzf'], ['t'], {});
  b.node('Clip', ['t', 'lo', 'hi'], ['cl'], {}).node('Cast', ['cl'], ['y'], { to: c.ty }).output('y', c.ty, null);
  return b.bytes();
}

async function agree(c, q, twinBytes, what) {
  const want = await ortRun(twinBytes, q.feeds);
  const got = runHolo(q.bytes, q.feeds);
  assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
  assert.equal([...got.data], [...want.data], `${what}: values`);
  const lo = RANGE[c.ty][0], hi = RANGE[c.ty][1];
  const sat = [...want.data].filter((v) => v === lo || v === hi).length;
  let direct = null;
  try { direct = await ortRun(q.bytes, q.feeds); } catch (e) { console.log(`# onnxruntime refuses ${what}: ${String(e.message).split('\n')[0]}`); }
  const off = direct ? [...direct.data].filter((v, i) => v !== want.data[i]).length : 0;
  if (off) console.log(`# onnxruntime's own kernel differs from its exact float path in ${off}/${want.data.length} outputs: ${what}`);
  return { n: want.data.length, sat };
}

test('QLinearMatMul: u8/i8, per-tensor and per-column b, batched, 1-D, constant B: exact vs onnxruntime', async () => {
  const cases = [
    { tx: U8, tw: U8, ty: U8, xs: [5, 7], ws: [7, 9] },
    { tx: U8, tw: I8, ty: U8, xs: [2, 3, 17], ws: [17, 12], per: true, wconst: true },
    { tx: I8, tw: I8, ty: I8, xs: [2, 4, 33], ws: [2, 33, 8], per: false },
    { tx: I8, tw: U8, ty: I8, xs: [9, 64], ws: [64, 19], per: true, ysc: 0.05 },
    { tx: U8, tw: U8, ty: I8, xs: [16], ws: [16, 5], wconst: true },
    { tx: U8, tw: U8, ty: U8, xs: [3, 10], ws: [10], ysc: 1.5 },
    { tx: U8, tw: I8, ty: U8, xs: [1, 128], ws: [128, 40], per: true, wconst: true, ysc: 4 },
  ];
  let total = 0, sat = 0;
  for (const c of cases) {
    const N = c.ws.length === 1 ? 1 : c.ws[c.ws.length - 1];
    const p = draw(c, N);
    const q = qmodel(c, 'QLinearMatMul', p, [N], {});
    const t = twin(c, p, [N], [N], (b, xf, wf) => b.node('MatMul', [xf, wf], ['acc'], {}));
    const r = await agree(c, q, t, `QLinearMatMul ${JSON.stringify(c)}`);
    total += r.n; sat += r.sat;
  }
  assert.ok(sat > 0 && sat < total, `some outputs saturate (${sat}/${total})`);
});

test('QLinearConv: u8/i8, per-channel w, bias, windows, groups, 1-D: exact vs onnxruntime', async () => {
  const cases = [
    { tx: U8, tw: U8, ty: U8, xs: [1, 3, 9, 10], ws: [5, 3, 3, 3], wconst: true, bias: true, attrs: { pads: [1, 1, 1, 1] } },
    { tx: U8, tw: I8, ty: U8, xs: [2, 4, 7, 7], ws: [6, 2, 3, 3], per: true, bias: true, attrs: { group: 2, auto_pad: 'SAME_UPPER', strides: [2, 2] } },
    { tx: I8, tw: I8, ty: I8, xs: [2, 2, 11, 9], ws: [3, 2, 3, 2], per: true, wconst: true, attrs: { strides: [2, 1], dilations: [2, 3], pads: [0, 2, 1, 1] } },
    { tx: U8, tw: U8, ty: U8, xs: [2, 3, 17], ws: [4, 3, 5], wconst: true, bias: true, attrs: { pads: [2, 1], strides: [2] } },
    { tx: U8, tw: I8, ty: U8, xs: [1, 16, 20, 20], ws: [33, 16, 1, 1], per: true, wconst: true, bias: true, ysc: 0.1, attrs: {} },
    { tx: I8, tw: U8, ty: I8, xs: [1, 8, 6, 6], ws: [8, 1, 3, 3], per: true, wconst: true, attrs: { group: 8, pads: [1, 1, 1, 1] } },
    // depthwise (the padded-plane kernels, idwconv2d.h): strides 1 / 2 / 3, dilations, odd widths
    { tx: U8, tw: I8, ty: U8, xs: [1, 16, 14, 15], ws: [16, 1, 3, 3], per: true, wconst: true, bias: true, attrs: { group: 16, pads: [1, 1, 1, 1] } },
    { tx: U8, tw: U8, ty: U8, xs: [2, 7, 13, 9], ws: [7, 1, 3, 3], wconst: true, bias: true, attrs: { group: 7, strides: [2, 2], pads: [1, 1, 1, 1] } },
    { tx: I8, tw: I8, ty: I8, xs: [1, 5, 9, 23], ws: [5, 1, 3, 3], per: true, attrs: { group: 5, strides: [1, 2], dilations: [2, 1], pads: [2, 1, 2, 1] } },
    { tx: U8, tw: I8, ty: U8, xs: [1, 3, 11, 19], ws: [3, 1, 2, 3], per: true, wconst: true, attrs: { group: 3, strides: [3, 3] } },
  ];
  let total = 0, sat = 0;
  for (const c of cases) {
    const M = c.ws[0], r = c.xs.length;
    const p = draw(c, M);
    const chan = [M, ...Array(r - 2).fill(1)];
    const q = qmodel(c, 'QLinearConv', p, [M], c.attrs);
    const t = twin(c, p, [M, ...Array(r - 1).fill(1)], chan, (b, xf, wf) => {
      const ins = [xf, wf];
      if (p.bias) { b.init('bf', FLOAT, [M], [...p.bias]); ins.push('bf'); }
      b.node('Conv', ins, ['acc'], c.attrs);
    });
    const o = await agree(c, q, t, `QLinearConv ${JSON.stringify(c)}`);
    total += o.n; sat += o.sat;
  }
  assert.ok(sat > 0 && sat < total, `some outputs saturate (${sat}/${total})`);
});

test('determinism: the scalar core and 2 threads give the simd128 bytes (QLinearConv over several tasks, grouped and depthwise, QLinearMatMul)', async () => {
  const scalar = await init(undefined, { variant: 'scalar' });
  const cs = [
    ['QLinearConv', { tx: U8, tw: I8, ty: U8, xs: [2, 8, 23, 19], ws: [12, 4, 3, 3], per: true, wconst: true, bias: true, attrs: { group: 2, pads: [1, 1, 1, 1] } }, 12],
    ['QLinearMatMul', { tx: I8, tw: U8, ty: I8, xs: [3, 37, 45], ws: [45, 29], per: true, wconst: true }, 29],
    ['QLinearConv', { tx: U8, tw: I8, ty: U8, xs: [2, 24, 17, 29], ws: [24, 1, 3, 3], per: true, wconst: true, bias: true, attrs: { group: 24, pads: [1, 1, 1, 1] } }, 24],
    ['QLinearConv', { tx: I8, tw: I8, ty: I8, xs: [1, 24, 17, 29], ws: [24, 1, 3, 3], per: true, wconst: true, attrs: { group: 24, strides: [2, 2], pads: [1, 1, 1, 1] } }, 24],
  ];
  for (const [op, c, per] of cs) {
    const p = draw(c, per);
    const q = qmodel(c, op, p, [per], c.attrs ?? {});
    const holo = convert(q.bytes).holo;
    const feeds = Object.fromEntries(Object.entries(q.feeds).map(([k, [, data, shape]]) => [k, { data, shape }]));
    const run = (h) => { try { return Buffer.from(h.run(feeds).y.data).toString('hex'); } finally { h.dispose(); } };
    const want = run(rt.load(holo));
    assert.equal(run(scalar.load(holo)), want, `${op}: scalar = simd128`);
    assert.equal(run(await load(holo, { threads: 2 })), want, `${op}: 2 threads = 1 thread`);
  }
});

test('QLinear: refusals name the op and the input', () => {
  const b = new OnnxBuilder(13);
  b.input('x', U8, [2, 3]).init('w', U8, [3, 4], new Uint8Array(12));
  b.init('xs', FLOAT, [2], [1, 1]).init('xz', U8, [], [0]).init('ws', FLOAT, [], [1]).init('wz', U8, [], [0]).init('ys', FLOAT, [], [1]).init('yz', U8, [], [0]);
  b.node('QLinearMatMul', ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'], ['y'], {}).output('y', U8, null);
  const h = rt.load(convert(b.bytes()).holo);
  try {
    assert.throws(() => h.run({ x: { data: new Uint8Array(6), shape: [2, 3] } }), /QLinearMatMul: a_scale must be a scalar/);
  } finally {
    h.dispose();
  }
  const b2 = new OnnxBuilder(13);
  b2.input('x', U8, [1, 1, 4, 4]).init('w', U8, [1, 1, 1, 1], [1]);
  b2.init('xs', FLOAT, [], [1]).init('xz', U8, [], [0]).init('ws', FLOAT, [], [1e30]).init('wz', U8, [], [0]).init('ys', FLOAT, [], [1e-30]).init('yz', U8, [], [0]);
  b2.node('QLinearConv', ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'], ['y'], {}).output('y', U8, null);
  const h2 = rt.load(convert(b2.bytes()).holo);
  try {
    assert.throws(() => h2.run({ x: { data: new Uint8Array(16), shape: [1, 1, 4, 4] } }), /QLinearConv: the scales give a requantization multiplier that is not finite/);
  } finally {
    h2.dispose();
  }
});

test.run();
