// The com.microsoft contrib ops (compiler/onnx-ops-msft.js) against
// onnxruntime-node: MatMulIntegerToFloat and DynamicQuantizeMatMul (float
// outputs within 1e-4 * max|ref|), QuantizeLinear / DequantizeLinear of
// that domain (exact). The bar for the two products is onnxruntime's float
// twin of the same arithmetic (DynamicQuantizeLinear, Cast, Sub the zero
// points, MatMul -- exact, every partial sum an integer below 2^24 -- Mul
// by a_scale * b_scale, Add the bias); onnxruntime's own contrib kernels
// are compared too, and must meet the bar where they are exact (u8 x u8);
// its u8 x s8 kernels saturate int16 pairs on this AVX2 machine (decision
// 45), so there a disagreement is printed, not failed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, F } from './onnx-build.mjs';

const { onnx } = onnxProto;
const U8 = 2, I8 = 3;
const MS = new Set(['MatMulIntegerToFloat', 'DynamicQuantizeMatMul', 'QuantizeLinear', 'DequantizeLinear', 'QLinearLeakyRelu', 'QLinearSigmoid', 'QLinearGlobalAveragePool', 'QLinearConcat', 'MatMulNBits']);
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
let seed = 7;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const ints = (dt, n) => (dt === U8 ? Uint8Array.from({ length: n }, () => next() >>> 24) : Int8Array.from({ length: n }, () => (next() >>> 24) - 128));
const floats = (n, s = 4) => Float32Array.from({ length: n }, () => ((next() >>> 8) / 2 ** 24 - 0.5) * s);
const ORT = { [U8]: 'uint8', [I8]: 'int8', [FLOAT]: 'float32' };
const f32 = Math.fround;

/** The builder's bytes with its contrib ops (MS, unless `std`) in domain com.microsoft. */
function msft(b, std = false) {
  const m = onnx.ModelProto.decode(b.bytes());
  if (!std) {
    for (const n of m.graph.node) if (MS.has(n.opType)) n.domain = 'com.microsoft';
    m.opsetImport.push({ domain: 'com.microsoft', version: 1 });
  }
  return onnx.ModelProto.encode(m).finish();
}

const ortRun = async (bytes, feeds) => (await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, s]]) => [k, new ort.Tensor(ORT[t], d, s)])))).y;

function runHolo(bytes, feeds) {
  const h = rt.load(convert(bytes).holo);
  try {
    return h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }]))).y;
  } finally {
    h.dispose();
  }
}

function close(got, want, what) {
  assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
  const max = Math.max(...[...want.data].map(Math.abs), 1e-30);
  const worst = Math.max(0, ...[...got.data].map((v, i) => Math.abs(v - want.data[i])));
  return worst / max;
}

// B, scales, zero points, bias of one case, as initializers on b
function weights(b, c) {
  const N = c.ws[c.ws.length - 1];
  const nb = c.per ? N : 1, sh = c.per ? [N] : [];
  b.init('w', c.tw, c.ws, ints(c.tw, numel(c.ws)));
  b.init('ws', FLOAT, sh, Array.from({ length: nb }, () => f32(0.001 + (next() >>> 8) / 2 ** 24 * 0.02)));
  b.init('wz', c.tw, sh, Array.from(ints(c.tw, nb)));
  if (c.bias) b.init('bias', FLOAT, [N], floats(N, 2));
}

// the twin's tail: acc (float sums) * (as * ws) + bias -> y
function tail(b, c, as) {
  b.node('Mul', [as, 'ws'], ['m'], {}).node('Mul', ['acc', 'm'], [c.bias ? 'v' : 'y'], {});
  if (c.bias) b.node('Add', ['v', 'bias'], ['y'], {});
  b.output('y', FLOAT, null);
}
function wFloat(b) {
  b.node('Cast', ['w'], ['wc'], { to: FLOAT }).node('Cast', ['wz'], ['wzc'], { to: FLOAT }).node('Sub', ['wc', 'wzc'], ['wf'], {});
}

async function check(c, model, twin, feeds, what) {
  const want = await ortRun(twin, feeds);
  const rel = close(runHolo(model, feeds), want, what);
  assert.ok(rel <= 1e-4, `${what}: max |diff| / max |ref| = ${rel}`);
  const own = await ortRun(model, feeds);
  const orel = close({ shape: own.dims, data: own.data }, want, what);
  if (c.tw === U8 && (c.ta ?? U8) === U8) assert.ok(orel <= 1e-4, `${what}: onnxruntime's own kernel ${orel}`);
  else if (orel > 1e-4) console.log(`# onnxruntime's own ${what} differs from its float path: ${orel.toExponential(2)} of max|ref|`);
}

test('MatMulIntegerToFloat: u8/i8, scalar and per-column b, zero points, bias, batched A vs onnxruntime', async () => {
  const cases = [
    { ta: U8, tw: U8, as: [3, 5, 17], ws: [17, 9], bias: true },
    { ta: U8, tw: I8, as: [4, 33], ws: [33, 12], per: true },
    { ta: I8, tw: I8, as: [2, 6, 16], ws: [16, 8], per: true, bias: true },
    { ta: U8, tw: U8, as: [7, 64], ws: [64, 20], per: true, bias: true },
  ];
  for (const c of cases) {
    seed = 7 + cases.indexOf(c);
    const build = (twin) => {
      const b = new OnnxBuilder(13);
      b.input('a', c.ta, c.as).init('as', FLOAT, [], [f32(0.0173)]).init('az', c.ta, [], [c.ta === U8 ? 131 : -3]);
      weights(b, c);
      if (!twin) {
        b.node('MatMulIntegerToFloat', ['a', 'w', 'as', 'ws', 'az', 'wz', ...(c.bias ? ['bias'] : [])], ['y'], {}).output('y', FLOAT, null);
        return msft(b);
      }
      b.node('Cast', ['a'], ['ac'], { to: FLOAT }).node('Cast', ['az'], ['azc'], { to: FLOAT }).node('Sub', ['ac', 'azc'], ['af'], {});
      wFloat(b);
      b.node('MatMul', ['af', 'wf'], ['acc'], {});
      tail(b, c, 'as');
      return msft(b, true);
    };
    seed = 7 + cases.indexOf(c);
    const model = build(false);
    seed = 7 + cases.indexOf(c);
    const twin = build(true);
    const feeds = { a: [c.ta, ints(c.ta, numel(c.as)), c.as] };
    await check(c, model, twin, feeds, `MatMulIntegerToFloat ${JSON.stringify(c)}`);
  }
});

test('DynamicQuantizeMatMul: u8/i8 B, scalar and per-column, bias vs onnxruntime', async () => {
  const cases = [
    { tw: U8, as: [5, 17], ws: [17, 9], bias: true },
    { tw: I8, as: [2, 3, 40], ws: [40, 16], per: true, bias: true },
    { tw: U8, as: [1, 64], ws: [64, 24], per: true },
  ];
  for (const c of cases) {
    const build = (twin) => {
      const b = new OnnxBuilder(13);
      b.input('a', FLOAT, c.as);
      weights(b, c);
      if (!twin) {
        b.node('DynamicQuantizeMatMul', ['a', 'w', 'ws', 'wz', ...(c.bias ? ['bias'] : [])], ['y'], {}).output('y', FLOAT, null);
        return msft(b);
      }
      b.node('DynamicQuantizeLinear', ['a'], ['aq', 'as', 'az'], {});
      b.node('Cast', ['aq'], ['ac'], { to: FLOAT }).node('Cast', ['az'], ['azc'], { to: FLOAT }).node('Sub', ['ac', 'azc'], ['af'], {});
      wFloat(b);
      b.node('MatMul', ['af', 'wf'], ['acc'], {});
      tail(b, c, 'as');
      return msft(b, true);
    };
    seed = 40 + cases.indexOf(c);
    const model = build(false);
    seed = 40 + cases.indexOf(c);
    const twin = build(true);
    const feeds = { a: [FLOAT, floats(numel(c.as), 6), c.as] };
    await check(c, model, twin, feeds, `DynamicQuantizeMatMul ${JSON.stringify(c)}`);
  }
});

test('com.microsoft QuantizeLinear / DequantizeLinear: per-tensor and per-axis, exact vs onnxruntime', async () => {
  for (const [dt, axis, per] of [[U8, 1, false], [I8, 1, true], [U8, 0, true]]) {
    const xs = [3, 4, 5], D = per ? xs[axis] : 1, sh = per ? [D] : [];
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, xs).init('s', FLOAT, sh, Array.from({ length: D }, (_, i) => f32(0.02 + 0.01 * i)));
    b.init('z', dt, sh, Array.from(ints(dt, D)));
    b.node('QuantizeLinear', ['x', 's', 'z'], ['q'], { axis }).node('DequantizeLinear', ['q', 's', 'z'], ['d'], { axis });
    b.output('q', dt, null).output('d', FLOAT, null);
    const bytes = msft(b);
    const feeds = { x: [FLOAT, floats(numel(xs), 8), xs] };
    const s = await ort.InferenceSession.create(bytes);
    const want = await s.run({ x: new ort.Tensor('float32', feeds.x[1], xs) });
    const h = rt.load(convert(bytes).holo);
    try {
      const got = h.run({ x: { data: feeds.x[1], shape: xs } });
      assert.equal([...got.q.data], [...want.q.data], `q ${dt} axis ${axis}`);
      assert.equal([...got.d.data], [...want.d.data], `dq ${dt} axis ${axis}`);
    } finally {
      h.dispose();
    }
  }
});

// every one of the 256 input values, so the whole of onnxruntime's table is compared
test('QLinearLeakyRelu / QLinearSigmoid: u8/i8, all 256 inputs, Y_zero_point absent: exact vs onnxruntime', async () => {
  const cfgs = [
    ['QLinearLeakyRelu', U8, 0.05, 120, 0.03, 20, { alpha: F(0.1) }],
    ['QLinearLeakyRelu', I8, 0.02, -5, 0.011, null, {}],
    ['QLinearSigmoid', U8, 0.05, 128, 1 / 256, 0, {}],
    ['QLinearSigmoid', I8, 0.1, 3, 1 / 200, -100, {}],
    ['QLinearSigmoid', U8, 0.031, 90, 0.0041, null, {}],
  ];
  for (const [op, dt, xs, xz, ys, yz, attrs] of cfgs) {
    // onnxruntime aborts (a failed assertion) on an absent Y_zero_point: it is given an explicit 0
    const model = (withZ) => {
      const b = new OnnxBuilder(13);
      b.input('x', dt, [2, 128]).init('xs', FLOAT, [], [f32(xs)]).init('xz', dt, [], [xz]).init('ys', FLOAT, [], [f32(ys)]);
      const ins = ['x', 'xs', 'xz', 'ys'];
      if (withZ) { b.init('yz', dt, [], [yz ?? 0]); ins.push('yz'); }
      b.node(op, ins, ['y'], attrs).output('y', dt, null);
      return msft(b);
    };
    const bytes = model(yz !== null);
    const all = dt === U8 ? Uint8Array.from({ length: 256 }, (_, i) => i) : Int8Array.from({ length: 256 }, (_, i) => i - 128);
    const feeds = { x: [dt, all, [2, 128]] };
    const want = await ortRun(model(true), feeds);
    const got = runHolo(bytes, feeds);
    const what = `${op} ${JSON.stringify([dt, xs, xz, ys, yz])}`;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    const off = [...got.data].map((v, i) => [i, v, want.data[i]]).filter(([, v, w]) => v !== w);
    assert.equal(off, [], `${what}: values`);
  }
});

test('QLinearGlobalAveragePool: u8/i8, NCHW and channels_last, 1-D and 2-D images: exact vs onnxruntime', async () => {
  const cfgs = [
    [U8, [2, 5, 7, 9], 0, 0.05, 117, 0.02, 130],
    [I8, [1, 16, 4, 4], 0, 0.1, -3, 0.03, 5],
    [U8, [3, 6, 11], 0, 0.07, 0, 0.01, 0],
    [U8, [2, 8, 8, 12], 1, 0.02, 128, 0.004, 100],
    [I8, [1, 3, 33, 31], 0, 0.5, 10, 0.05, -120],
  ];
  for (const [dt, xs, last, sx, zx, sy, zy] of cfgs) {
    const b = new OnnxBuilder(13);
    b.input('x', dt, xs).init('xs', FLOAT, [], [f32(sx)]).init('xz', dt, [], [zx]).init('ys', FLOAT, [], [f32(sy)]).init('yz', dt, [], [zy]);
    b.node('QLinearGlobalAveragePool', ['x', 'xs', 'xz', 'ys', 'yz'], ['y'], { channels_last: last }).output('y', dt, null);
    const bytes = msft(b);
    const feeds = { x: [dt, ints(dt, numel(xs)), xs] };
    const want = await ortRun(bytes, feeds);
    const got = runHolo(bytes, feeds);
    const what = `QLinearGlobalAveragePool ${JSON.stringify([dt, xs, last, sx, zx, sy, zy])}`;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.equal([...got.data], [...want.data], `${what}: values`);
  }
});

test('QLinearConcat: u8/i8, inputs with their own and with Y\'s parameters, axes: exact vs onnxruntime', async () => {
  const cfgs = [
    [U8, 1, [[2, 3, 4], [2, 5, 4], [2, 1, 4]], [[0.05, 120], [0.02, 128], [0.1, 3]]],
    [I8, 0, [[1, 6], [3, 6]], [[0.04, -2], [0.04, -2]]],
    [I8, -1, [[2, 2, 3], [2, 2, 7]], [[0.3, 10], [0.01, -100]]],
  ];
  for (const [dt, axis, shapes, params] of cfgs) {
    const b = new OnnxBuilder(13);
    b.init('ys', FLOAT, [], [f32(0.04)]).init('yz', dt, [], [dt === U8 ? 127 : -2]);
    const ins = ['ys', 'yz'], feeds = {};
    shapes.forEach((sh, k) => {
      b.input(`x${k}`, dt, sh).init(`s${k}`, FLOAT, [], [f32(params[k][0])]).init(`z${k}`, dt, [], [params[k][1]]);
      ins.push(`x${k}`, `s${k}`, `z${k}`);
      feeds[`x${k}`] = [dt, ints(dt, numel(sh)), sh];
    });
    b.node('QLinearConcat', ins, ['y'], { axis }).output('y', dt, null);
    const bytes = msft(b);
    const want = await ortRun(bytes, feeds);
    const got = runHolo(bytes, feeds);
    const what = `QLinearConcat ${JSON.stringify([dt, axis, shapes, params])}`;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.equal([...got.data], [...want.data], `${what}: values`);
  }
});

// B's 4-bit weight dequantized here in double from the layout's definition, then a double product
function nbitsRef(a, M, K, N, bs, B, S, Z, bias) {
  const kb = Math.ceil(K / bs), zrow = Math.ceil(kb / 2), y = new Float64Array(M * N);
  for (let n = 0; n < N; n++)
    for (let k = 0; k < K; k++) {
      const blk = Math.floor(k / bs), i = k % bs;
      const q = (B[(n * kb + blk) * (bs / 2) + (i >> 1)] >> (4 * (i & 1))) & 15;
      const z = Z ? (Z[n * zrow + (blk >> 1)] >> (4 * (blk & 1))) & 15 : 8;
      const w = f32((q - z) * S[n * kb + blk]);
      for (let m = 0; m < M; m++) y[m * N + n] += a[m * K + k] * w;
    }
  if (bias) for (let m = 0; m < M; m++) for (let n = 0; n < N; n++) y[m * N + n] += bias[n];
  return y;
}

test('MatMulNBits: 4-bit blocks of 16/32/128, padded last block, odd block count, zero points packed or absent, bias, batched A, a weight dequantized at load', async () => {
  const cfgs = [
    { as: [3, 64], N: 8, bs: 32, z: true },
    { as: [2, 3, 50], N: 5, bs: 16, z: true, bias: true },
    { as: [4, 80], N: 12, bs: 16, z: false },
    { as: [1, 300], N: 7, bs: 128, z: true, bias: true },
    { as: [5, 512], N: 256, bs: 32, z: true },
  ];
  for (const c of cfgs) {
    const K = c.as[c.as.length - 1], M = numel(c.as) / K, kb = Math.ceil(K / c.bs);
    const B = ints(U8, c.N * kb * (c.bs / 2)), S = Array.from({ length: c.N * kb }, () => f32(0.005 + (next() >>> 8) / 2 ** 24 * 0.05));
    const Z = c.z ? ints(U8, c.N * Math.ceil(kb / 2)) : null, bias = c.bias ? floats(c.N, 2) : null;
    const b = new OnnxBuilder(13);
    b.input('a', FLOAT, c.as).init('B', U8, [c.N, kb, c.bs / 2], B).init('S', FLOAT, [c.N * kb], S);
    const ins = ['a', 'B', 'S', c.z ? 'Z' : ''];
    if (c.z) b.init('Z', U8, [Z.length], Z);
    if (bias) { b.init('bias', FLOAT, [c.N], bias); ins.push('', 'bias'); }
    b.node('MatMulNBits', ins, ['y'], { K, N: c.N, bits: 4, block_size: c.bs }).output('y', FLOAT, null);
    const bytes = msft(b);
    const a = floats(numel(c.as), 2), feeds = { a: [FLOAT, a, c.as] };
    const what = `MatMulNBits ${JSON.stringify(c)}`;
    const got = runHolo(bytes, feeds);
    const ref = nbitsRef(a, M, K, c.N, c.bs, B, S, Z, bias);
    const own = await ortRun(bytes, feeds);
    assert.equal([...got.shape], [...own.dims].map(Number), `${what}: shape`);
    assert.equal([...got.shape], [...c.as.slice(0, -1), c.N], `${what}: shape`);
    const max = Math.max(...[...ref].map(Math.abs));
    const d = (x) => Math.max(...[...x].map((v, i) => Math.abs(v - ref[i]))) / max;
    assert.ok(d(got.data) <= 1e-5, `${what}: vs the float64 reference ${d(got.data)}`);
    assert.ok(d(own.data) <= 1e-4, `${what}: onnxruntime vs the float64 reference ${d(own.data)}`);
    const og = Math.max(...[...got.data].map((v, i) => Math.abs(v - own.data[i]))) / Math.max(...[...own.data].map(Math.abs));
    assert.ok(og <= 1e-4, `${what}: vs onnxruntime ${og}`);
  }
});

test('com.microsoft: ops not implemented are refused by name', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2]).node('FusedGelu', ['x'], ['y'], {}).output('y', FLOAT, null);
  const m = onnx.ModelProto.decode(b.bytes());
  m.graph.node[0].domain = 'com.microsoft';
  m.opsetImport.push({ domain: 'com.microsoft', version: 1 });
  assert.throws(() => convert(onnx.ModelProto.encode(m).finish()), /unsupported op 'com\.microsoft\.FusedGelu'.*not implemented/);
});

test.run();
