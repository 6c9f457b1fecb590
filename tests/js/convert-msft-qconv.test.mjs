// com.microsoft QLinearConv (channels_last), QLinearAveragePool (both
// layouts), MatMulInteger16 (compiler/onnx-ops-msft-qconv.js) against
// onnxruntime-node's own com.microsoft CPU kernels, exact bytes; the
// refusals by name (QLinearMatMul: onnxruntime registers no com.microsoft
// one). QLinearConv's weights stay within [-63, 63] for u8 x s8: without
// AVX-VNNI onnxruntime's u8 x s8 kernel sums pairs in saturating int16
// (decision 45's note), and 2 * 255 * 63 < 2^15 keeps it exact.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, Fs, rand, msftDomain } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const U8 = 2, I8 = 3, I16 = 5;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
let seed = 7;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const f32 = Math.fround;
const ORT = { [U8]: 'uint8', [I8]: 'int8', [I16]: 'int16', [INT32]: 'int32', [FLOAT]: 'float32' };
const ARR = { [U8]: Uint8Array, [I8]: Int8Array, [I16]: Int16Array };
/** n integers of dtype dt, within [lo, hi] when given */
function ints(dt, n, lo, hi) {
  const [a, b] = lo !== undefined ? [lo, hi] : dt === U8 ? [0, 255] : dt === I8 ? [-128, 127] : [-32768, 32767];
  return ARR[dt].from({ length: n }, () => a + (next() % (b - a + 1)));
}

async function compare(bytes, feeds, what, ortBytes = bytes) {
  const sess = await ort.InferenceSession.create(ortBytes);
  const want = (await sess.run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, s]]) => [k, new ort.Tensor(ORT[t], d, s)])))).y;
  const h = rt.load(convert(bytes).holo);
  let got;
  try { got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }]))).y; } finally { h.dispose(); }
  assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
  const bad = [...want.data].findIndex((v, i) => v !== got.data[i]);
  assert.ok(bad < 0, `${what}: element ${bad}: ${got.data[bad]} != onnxruntime's ${want.data[bad]}`);
  return want.data;
}

// ---- QLinearConv -------------------------------------------------------
function qconv(c) {
  const M = c.ws[0], last = c.last ? 1 : 0;
  const b = new OnnxBuilder(13);
  const x = ints(c.tx, numel(c.xs));
  const [wlo, whi] = c.tw === I8 ? [-63, 63] : [0, 255];
  const w = ints(c.tw, numel(c.ws), wlo, whi);
  b.input('x', c.tx, c.xs).init('w', c.tw, c.ws, w);
  const per = c.per ? M : 0;
  const wsc = Array.from({ length: per || 1 }, () => f32(0.002 + (next() >>> 8) / 2 ** 24 * 0.03));
  const wz = c.tw === I8 ? 0 : Number(ints(U8, 1, 100, 150)[0]);
  b.init('xs', FLOAT, [], [f32(0.05)]).init('xz', c.tx, [], [c.tx === U8 ? 120 : -3]);
  b.init('ws', FLOAT, per ? [M] : [], wsc).init('wz', c.tw, per ? [M] : [], Array(per || 1).fill(wz));
  b.init('ys', FLOAT, [], [f32(c.ysc ?? 0.2)]).init('yz', c.tx, [], [c.tx === U8 ? 128 : 5]);
  const ins = ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'];
  if (c.bias) { b.init('B', INT32, [M], Int32Array.from({ length: M }, () => (next() % 4001) - 2000)); ins.push('B'); }
  b.node('QLinearConv', ins, ['y'], { ...c.attrs, ...(c.last !== undefined ? { channels_last: last } : {}) }).output('y', c.tx, null);
  return { bytes: msftDomain(b), feeds: { x: [c.tx, x, c.xs] } };
}

test('com.microsoft QLinearConv: NHWC and NCHW, u8/i8, per-tensor and per-channel w_scale, bias, strides, pads, groups, dilations, 1-D: exact vs onnxruntime', async () => {
  const cases = [
    { tx: U8, tw: I8, xs: [1, 9, 10, 3], ws: [5, 3, 3, 3], last: true, bias: true, attrs: { pads: [1, 1, 1, 1] } },
    { tx: U8, tw: U8, xs: [2, 7, 7, 4], ws: [6, 2, 3, 3], last: true, per: true, attrs: { group: 2, strides: [2, 2], auto_pad: 'SAME_UPPER' } },
    { tx: I8, tw: I8, xs: [2, 11, 9, 2], ws: [3, 2, 3, 2], last: true, per: true, attrs: { strides: [2, 1], dilations: [2, 3], pads: [0, 2, 1, 1] } },
    { tx: U8, tw: I8, xs: [1, 8, 8, 6], ws: [6, 1, 3, 3], last: true, per: true, bias: true, attrs: { group: 6, pads: [1, 1, 1, 1] } },
    { tx: U8, tw: I8, xs: [1, 5, 6, 16], ws: [12, 16, 1, 1], last: true, per: true, ysc: 0.05, attrs: {} },
    { tx: I8, tw: I8, xs: [2, 17, 3], ws: [4, 3, 5], last: true, bias: true, attrs: { pads: [2, 1], strides: [2] } },
    { tx: U8, tw: I8, xs: [1, 3, 9, 10], ws: [5, 3, 3, 3], last: false, bias: true, attrs: { pads: [1, 1, 1, 1] } },
    { tx: U8, tw: U8, xs: [1, 4, 6, 6], ws: [4, 2, 2, 2], per: true, attrs: { group: 2, strides: [2, 2] } },
  ];
  let sat = 0, total = 0;
  for (const c of cases) {
    const q = qconv(c);
    const y = await compare(q.bytes, q.feeds, `QLinearConv ${JSON.stringify(c)}`);
    const [lo, hi] = c.tx === U8 ? [0, 255] : [-128, 127];
    sat += [...y].filter((v) => v === lo || v === hi).length; total += y.length;
  }
  assert.ok(sat < total, `not everything saturates (${sat}/${total})`);
});

test('com.microsoft QLinearConv / QLinearMatMul refusals', () => {
  const q = qconv({ tx: I8, tw: I8, xs: [1, 4, 4, 2], ws: [2, 2, 1, 1], last: true, attrs: {} });
  convert(q.bytes); // converts
  const b = new OnnxBuilder(13);
  b.input('x', U8, [1, 2, 4, 4]).init('w', U8, [2, 2, 1, 1, 1], new Uint8Array(4));
  b.init('xs', FLOAT, [], [1]).init('xz', U8, [], [0]).init('ws', FLOAT, [], [1]).init('wz', U8, [], [0]).init('ys', FLOAT, [], [1]).init('yz', I8, [], [0]);
  b.node('QLinearConv', ['x', 'xs', 'xz', 'w', 'ws', 'wz', 'ys', 'yz'], ['y'], { channels_last: 1 }).output('y', I8, null);
  assert.throws(() => convert(msftDomain(b)), /y_zero_point must have x's dtype/);
  const m = new OnnxBuilder(13);
  m.input('a', U8, [2, 3]).init('b', U8, [3, 4], new Uint8Array(12));
  m.init('as', FLOAT, [], [1]).init('az', U8, [], [0]).init('bs', FLOAT, [], [1]).init('bz', U8, [], [0]).init('ys', FLOAT, [], [1]).init('yz', U8, [], [0]);
  m.node('QLinearMatMul', ['a', 'as', 'az', 'b', 'bs', 'bz', 'ys', 'yz'], ['y'], {}).output('y', U8, null);
  assert.throws(() => convert(msftDomain(m)), /onnxruntime registers no com.microsoft QLinearMatMul/);
});

// ---- QLinearAveragePool ------------------------------------------------
function qpool(c) {
  const b = new OnnxBuilder(13);
  const x = ints(c.t, numel(c.xs));
  b.input('x', c.t, c.xs).init('xs', FLOAT, [], [f32(c.xsc ?? 0.037)]).init('ys', FLOAT, [], [f32(c.ysc ?? 0.051)]);
  const has = (v) => v !== undefined && (v !== 0 || c.keepZero);
  const ins = ['x', 'xs', has(c.xz) ? 'xz' : '', 'ys', has(c.yz) ? 'yz' : ''];
  if (has(c.xz)) b.init('xz', c.t, [], [c.xz]);
  if (has(c.yz)) b.init('yz', c.t, [], [c.yz]);
  while (!ins[ins.length - 1]) ins.pop();
  b.node('QLinearAveragePool', ins, ['y'], { ...c.attrs, ...(c.last ? { channels_last: 1 } : {}) }).output('y', c.t, null);
  return { bytes: msftDomain(b), feeds: { x: [c.t, x, c.xs] } };
}

test('com.microsoft QLinearAveragePool: NCHW and NHWC, u8/i8, zero points absent/present, strides, pads, auto_pad, count_include_pad, ceil_mode, 1-D, whole image: exact vs onnxruntime', async () => {
  const cases = [
    { t: U8, xs: [1, 3, 8, 9], xz: 128, yz: 120, attrs: { kernel_shape: [2, 2] } },
    { t: U8, xs: [2, 7, 7, 3], last: true, xz: 100, yz: 130, attrs: { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] } },
    { t: U8, xs: [2, 7, 7, 3], last: true, xz: 100, yz: 130, attrs: { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1], count_include_pad: 1 } },
    { t: I8, xs: [1, 2, 9, 8], xz: -5, yz: 3, attrs: { kernel_shape: [3, 2], strides: [2, 3], pads: [1, 0, 1, 1] } },
    { t: I8, xs: [1, 9, 8, 2], last: true, attrs: { kernel_shape: [2, 3], auto_pad: 'SAME_UPPER', strides: [2, 2] } },
    { t: U8, xs: [1, 2, 9, 9], attrs: { kernel_shape: [2, 2], strides: [2, 2], ceil_mode: 1 } },
    { t: U8, xs: [1, 4, 11], xz: 7, yz: 9, attrs: { kernel_shape: [3], strides: [2], pads: [1, 1] } },
    { t: I8, xs: [2, 11, 4], last: true, xz: 2, attrs: { kernel_shape: [4], pads: [2, 1], count_include_pad: 1 } },
    { t: U8, xs: [2, 3, 5, 6], xz: 128, yz: 128, attrs: { kernel_shape: [5, 6] } },
    { t: I8, xs: [1, 5, 6, 4], last: true, xz: -1, yz: 2, attrs: { kernel_shape: [5, 6], auto_pad: 'VALID' } },
    { t: U8, xs: [1, 2, 6, 6], xsc: 0.3, ysc: 0.01, xz: 10, yz: 250, attrs: { kernel_shape: [2, 2] } },
  ];
  for (const c of cases) {
    const q = qpool(c);
    // onnxruntime's type inference refuses an absent zero point (its optional
    // inputs), so it runs the same model with explicit zeros, the default
    const ref = c.xz && c.yz ? q.bytes : qpool({ ...c, xz: c.xz ?? 0, yz: c.yz ?? 0, keepZero: true }).bytes;
    await compare(q.bytes, q.feeds, `QLinearAveragePool ${JSON.stringify(c)}`, ref);
  }
});

test('com.microsoft QLinearAveragePool refusals', () => {
  const r = (c, re) => assert.throws(() => convert(qpool(c).bytes), re);
  r({ t: U8, xs: [1, 2, 4, 4, 4], attrs: { kernel_shape: [2, 2, 2] } }, /3-D QLinearAveragePool is not supported/);
  r({ t: U8, xs: [1, 2, 5, 5], attrs: { kernel_shape: [2, 2], ceil_mode: 1, count_include_pad: 1 } }, /ceil_mode = 1 with count_include_pad = 1/);
  r({ t: U8, xs: [1, 2, 5, 5], attrs: { kernel_shape: [2, 2], dilations: [2, 2] } }, /attribute 'dilations' is not supported/);
});

// ---- MatMulInteger16 ---------------------------------------------------
function mmi16(as, bs, bconst, range) {
  const b = new OnnxBuilder(13);
  const A = ints(I16, numel(as), ...(range ?? [])), B = ints(I16, numel(bs), ...(range ?? []));
  b.input('a', I16, as);
  const feeds = { a: [I16, A, as] };
  if (bconst) b.init('b', I16, bs, B); else { b.input('b', I16, bs); feeds.b = [I16, B, bs]; }
  b.node('MatMulInteger16', ['a', 'b'], ['y'], {}).output('y', INT32, null);
  return { bytes: msftDomain(b), feeds, A, B };
}

test('com.microsoft MatMulInteger16: 2-D, batched, broadcast, constant and fed B, full int16 range (int32 wraps): exact vs onnxruntime', async () => {
  const cases = [[[3, 5], [5, 4], true], [[2, 3, 17], [17, 6], false], [[2, 4, 9], [2, 9, 3], false], [[1, 64], [64, 33], true], [[5, 3], [3, 2], false, [-300, 300]]];
  let wrapped = 0;
  for (const [as, bs, bc, range] of cases) {
    const q = mmi16(as, bs, bc, range);
    const y = await compare(q.bytes, q.feeds, `MatMulInteger16 ${JSON.stringify([as, bs, bc])}`);
    if (as.length !== 2 || bs.length !== 2) continue;
    // the exact sums (below 2^53 here): those beyond int32 wrapped, in both
    const [M, K] = as, N = bs[1];
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
      let t = 0;
      for (let k = 0; k < K; k++) t += q.A[i * K + k] * q.B[k * N + j];
      assert.is(y[i * N + j], (t % 2 ** 32 + 2 ** 32) % 2 ** 32 | 0, 'wrapped sum');
      if (t !== (t | 0)) wrapped++;
    }
  }
  assert.ok(wrapped > 0, 'some sums wrap');
});

test('com.microsoft MatMulInteger16 refuses other dtypes', () => {
  const b = new OnnxBuilder(13);
  b.input('a', U8, [2, 3]).init('b', U8, [3, 2], new Uint8Array(6));
  b.node('MatMulInteger16', ['a', 'b'], ['y'], {}).output('y', INT32, null);
  assert.throws(() => convert(msftDomain(b)), /A must be int16/);
});

// ---- FusedConv, NhwcConv (float) --------------------------------------
async function closeTo(bytes, ortBytes, feeds, what) {
  const want = (await (await ort.InferenceSession.create(ortBytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, [d, sh]]) => [k, new ort.Tensor('float32', d, sh)])))).y;
  const h = rt.load(convert(bytes).holo);
  let got;
  try { got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [data, shape]]) => [k, { data, shape }]))).y; } finally { h.dispose(); }
  assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
  const max = Math.max(1e-30, ...[...want.data].map(Math.abs));
  let r = 0;
  for (let i = 0; i < want.data.length; i++) r = Math.max(r, Math.abs(got.data[i] - want.data[i]) / max);
  assert.ok(r <= 1e-5, `${what}: max |diff| / max |ref| = ${r}`);
}

/** Conv output dims of the NCHW case (for Z) */
function convOut(xs, ws, a) {
  const sp = xs.slice(2).map((d, i) => {
    const k = ws[2 + i], s = a.strides?.[i] ?? 1, dl = a.dilations?.[i] ?? 1;
    const p = a.pads ? a.pads[i] + a.pads[i + xs.length - 2] : 0;
    return Math.floor((d + p - dl * (k - 1) - 1) / s) + 1;
  });
  return [xs[0], ws[0], ...sp];
}

test('com.microsoft FusedConv: every activation, with and without bias and Z, strides, pads, groups, dilations, 1-D: within 1e-5 of onnxruntime', async () => {
  const acts = [['Relu', []], ['Tanh', []], ['Sigmoid', []], ['LeakyRelu', [0.13]], ['Clip', [-0.4, 0.7]], ['HardSigmoid', [0.3, 0.45]], ['', []]];
  const shapes = [
    { xs: [1, 3, 8, 9], ws: [4, 3, 3, 3], a: { pads: [1, 1, 1, 1] } },
    { xs: [2, 4, 9, 7], ws: [6, 2, 3, 2], a: { group: 2, strides: [2, 1], dilations: [1, 2], pads: [1, 0, 2, 1] } },
    { xs: [1, 3, 12], ws: [5, 3, 4], a: { strides: [2], pads: [1, 2] } },
  ];
  let n = 0;
  for (const [act, params] of acts)
    for (const [si, sh] of shapes.entries())
      for (const [bias, zin] of [[false, false], [true, false], [si !== 1, true]]) {
        const b = new OnnxBuilder(13);
        b.input('x', FLOAT, sh.xs).init('w', FLOAT, sh.ws, rand(numel(sh.ws), 0.5));
        const ins = ['x', 'w', ''];
        if (bias) { b.init('B', FLOAT, [sh.ws[0]], rand(sh.ws[0])); ins[2] = 'B'; }
        const feeds = { x: [rand(numel(sh.xs), 2), sh.xs] };
        if (zin) { const zs = convOut(sh.xs, sh.ws, sh.a); b.input('z', FLOAT, zs); ins[3] = 'z'; feeds.z = [rand(numel(zs)), zs]; }
        while (!ins[ins.length - 1]) ins.pop();
        const at = { ...sh.a, ...(act ? { activation: act } : {}), ...(params.length ? { activation_params: Fs(params) } : {}) };
        b.node('FusedConv', ins, ['y'], at).output('y', FLOAT, null);
        const bytes = msftDomain(b);
        await closeTo(bytes, bytes, feeds, `FusedConv ${act} ${JSON.stringify({ ...sh, bias, zin })}`);
        n++;
      }
  assert.is(n, 63);
});

test('com.microsoft NhwcConv: 2-D and 1-D, bias, strides, pads, groups, dilations, auto_pad: within 1e-5 of Transpose-Conv-Transpose in onnxruntime', async () => {
  const cases = [
    { xs: [1, 8, 9, 3], ws: [4, 3, 3, 3], a: { pads: [1, 1, 1, 1] }, bias: true },
    { xs: [2, 9, 7, 4], ws: [6, 2, 3, 2], a: { group: 2, strides: [2, 1], dilations: [1, 2], pads: [1, 0, 2, 1] } },
    { xs: [1, 6, 6, 5], ws: [5, 1, 3, 3], a: { group: 5, auto_pad: 'SAME_UPPER', strides: [2, 2] }, bias: true },
    { xs: [2, 12, 3], ws: [5, 3, 4], a: { strides: [2], pads: [1, 2] }, bias: true },
  ];
  for (const c of cases) {
    const r = c.xs.length, w = rand(numel(c.ws), 0.5), bb = c.bias ? rand(c.ws[0]) : null;
    const mk = (std) => {
      const b = new OnnxBuilder(13);
      b.input('x', FLOAT, c.xs).init('w', FLOAT, c.ws, w);
      if (bb) b.init('B', FLOAT, [c.ws[0]], bb);
      const ins = bb ? ['w', 'B'] : ['w'];
      if (!std) return b.node('NhwcConv', ['x', ...ins], ['y'], c.a).output('y', FLOAT, null), msftDomain(b);
      const toFirst = r === 4 ? [0, 3, 1, 2] : [0, 2, 1], back = r === 4 ? [0, 2, 3, 1] : [0, 2, 1];
      b.node('Transpose', ['x'], ['xt'], { perm: toFirst }).node('Conv', ['xt', ...ins], ['yt'], c.a).node('Transpose', ['yt'], ['y'], { perm: back });
      return b.output('y', FLOAT, null).bytes();
    };
    await closeTo(mk(false), mk(true), { x: [rand(numel(c.xs), 2), c.xs] }, `NhwcConv ${JSON.stringify(c)}`);
  }
  // onnxruntime-node has no CPU kernel for it (the reason for the standard-op reference)
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 4, 4, 2]).init('w', FLOAT, [1, 2, 1, 1], [1, 1]).node('NhwcConv', ['x', 'w'], ['y'], {}).output('y', FLOAT, null);
  let err = null;
  try { await ort.InferenceSession.create(msftDomain(b)); } catch (e) { err = e; }
  assert.ok(err && /implementation/.test(err.message), 'onnxruntime-node has no NhwcConv CPU kernel');
});

test('com.microsoft FusedConv / NhwcConv refusals', () => {
  const fc = (at, xt = FLOAT) => {
    const b = new OnnxBuilder(13);
    b.input('x', xt, [1, 2, 4, 4]).init('w', FLOAT, [1, 2, 1, 1], [1, 1]).node('FusedConv', ['x', 'w'], ['y'], at).output('y', FLOAT, null);
    return msftDomain(b);
  };
  assert.throws(() => convert(fc({ activation: 'Gelu' })), /activation 'Gelu' is not supported/);
  assert.throws(() => convert(fc({ activation: 'LeakyRelu' })), /LeakyRelu takes 1 activation_params, got 0/);
  assert.throws(() => convert(fc({ activation: 'Clip', activation_params: Fs([0]) })), /Clip takes 2 activation_params, got 1/);
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 2, 4, 4, 2]).init('w', FLOAT, [1, 2, 1, 1, 1], [1, 1]).node('NhwcConv', ['x', 'w'], ['y'], {}).output('y', FLOAT, null);
  assert.throws(() => convert(msftDomain(b)), /1-D and 2-D NhwcConv are supported/);
});

// ---- GatherBlockQuantized ---------------------------------------------
function gbq(c) {
  const per = 8 / c.bits, r = c.ds.length, L = c.ds[r - 1] * per, nb = Math.ceil(L / c.bs), zrow = Math.ceil(nb / per);
  const lead = c.ds.slice(0, -1);
  const data = ints(U8, numel(c.ds));
  const S = Float32Array.from({ length: numel(lead) * nb }, () => f32(0.01 + (next() >>> 8) / 2 ** 24 * 0.1));
  const b = new OnnxBuilder(13);
  b.init('d', U8, c.ds, data).input('i', c.it, c.is).init('s', FLOAT, [...lead, nb], S);
  const ins = ['d', 'i', 's'];
  if (c.zp) { b.init('z', U8, [...lead, zrow], ints(U8, numel(lead) * zrow)); ins.push('z'); }
  const at = { block_size: c.bs, ...(c.bits !== 4 ? { bits: c.bits } : {}), ...(r > 2 ? { quantize_axis: r - 1 } : {}), ...(c.attrs ?? {}) };
  b.node('GatherBlockQuantized', ins, ['y'], at).output('y', FLOAT, null);
  const D0 = c.ds[0];
  const idx = Array.from({ length: numel(c.is) }, (_, k) => ((next() >>> 8) % (2 * D0)) - D0);
  return { bytes: msftDomain(b), idx, data };
}

test('com.microsoft GatherBlockQuantized: bits 4/8/2, block sizes 16-128, partial last block, zero points packed or absent, rank 2-3, int32/int64 and negative indices: vs onnxruntime', async () => {
  const I64 = 7;
  const cases = [
    { bits: 4, bs: 32, ds: [10, 32], is: [4], it: INT32, zp: true },
    { bits: 4, bs: 16, ds: [7, 3, 20], is: [2, 3], it: I64, zp: false },
    { bits: 4, bs: 128, ds: [5, 100], is: [6], it: I64, zp: true },
    { bits: 8, bs: 16, ds: [9, 40], is: [3], it: INT32, zp: true },
    { bits: 8, bs: 64, ds: [6, 2, 64], is: [2, 2], it: I64, zp: false },
    { bits: 8, bs: 32, ds: [8, 80], is: [5], it: INT32, zp: true, attrs: { gather_axis: 0, quantize_axis: -1 } },
    { bits: 2, bs: 16, ds: [6, 12], is: [4], it: I64, zp: true },
    { bits: 2, bs: 32, ds: [5, 3, 40], is: [3], it: INT32, zp: false },
  ];
  for (const c of cases) {
    const { bytes, idx } = gbq(c);
    const d = c.it === INT32 ? Int32Array.from(idx) : BigInt64Array.from(idx.map(BigInt));
    const sess = await ort.InferenceSession.create(bytes).catch((e) => { throw new Error(`${JSON.stringify(c)}: ${e.message}`); });
    const want = (await sess.run({ i: new ort.Tensor(c.it === INT32 ? 'int32' : 'int64', d, c.is) })).y;
    const h = rt.load(convert(bytes).holo);
    let got;
    try { got = h.run({ i: { data: d, shape: c.is } }).y; } finally { h.dispose(); }
    const what = `GatherBlockQuantized ${JSON.stringify(c)}`;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    const bad = [...want.data].findIndex((v, i) => v !== got.data[i]);
    assert.ok(bad < 0, `${what}: element ${bad}: ${got.data[bad]} != onnxruntime's ${want.data[bad]}`);
  }
});

test('com.microsoft GatherBlockQuantized: a large table stays packed in the archive', () => {
  for (const bits of [4, 8]) {
    const c = { bits, bs: 32, ds: [512, 256], is: [4], it: INT32, zp: true };
    const { bytes, data } = gbq(c);
    const holo = convert(bytes).holo;
    const f32Bytes = 512 * 256 * (8 / bits) * 4;
    assert.ok(holo.length < data.length + f32Bytes / 8, `bits ${bits}: archive ${holo.length} bytes for ${data.length} packed (f32 copy ${f32Bytes})`);
  }
});

test('com.microsoft GatherBlockQuantized refusals', () => {
  const r = (c, re) => assert.throws(() => convert(gbq({ is: [2], it: INT32, zp: false, ...c }).bytes), re);
  r({ bits: 4, bs: 32, ds: [4, 16], attrs: { gather_axis: 1, quantize_axis: 0 } }, /uint8 data takes gather_axis 0 and quantize_axis the last axis/);
  r({ bits: 3, bs: 32, ds: [4, 12] }, /bits = 3 is not supported/);
  r({ bits: 4, bs: 24, ds: [4, 16] }, /block_size = 24 must be a power of 2 >= 16/);
  const b = new OnnxBuilder(13);
  b.init('d', U8, [4, 16], new Uint8Array(64)).input('i', INT32, [2]).init('s', FLOAT, [4, 2], new Float32Array(8));
  b.node('GatherBlockQuantized', ['d', 'i', 's'], ['y'], { block_size: 32 }).output('y', FLOAT, null);
  assert.throws(() => convert(msftDomain(b)), /scales must be \[4,1\]/);
});

test.run();
