// The random ops (compiler/onnx-ops-random.js on the backend's holo.Philox,
// kernels-wasm-simd/operators/random.c; docs/decisions.md 99): the
// distributions (mean and variance over 100,000 samples, a chi-square on
// Multinomial, Bernoulli's frequency, Dropout's kept share and scale), the
// documented generator word for word (a JS Philox4x32-10 here), the same
// seed giving the same bytes in two sessions, on the scalar, simd128 and
// 2-thread cores and folded or executed, other seeds differing, and the
// unseeded forms: fresh on every run through the entropy input, reproduced
// when the caller gives it, never a memo hit; and the refusals.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, DOUBLE, INT64, INT32, BOOL, F, G } from './onnx-build.mjs';

const rt = await init(undefined, { variant: 'simd128' });
const N = 100_000;

/** A one-node model: op(inputs) -> y (and more outputs), opset 15 unless said. */
function model(op, attrs, { inputs = [], outs = [['y', FLOAT, null]], opset = 15 } = {}) {
  const b = new OnnxBuilder(opset);
  for (const [name, t, dims] of inputs) b.input(name, t, dims);
  b.node(op, inputs.map((i) => i[0]), outs.map((o) => o[0]), attrs);
  for (const [name, t, dims] of outs) b.output(name, t, dims);
  return b.bytes();
}

function runOnce(bytes, feeds = {}, r = rt, opts = {}) {
  const s = r.load(convert(bytes, opts).holo);
  try {
    return s.run(feeds);
  } finally {
    s.dispose();
  }
}

function stats(a) {
  let m = 0, v = 0;
  for (const x of a) m += Number(x);
  m /= a.length;
  for (const x of a) v += (Number(x) - m) ** 2;
  return { mean: m, variance: v / a.length };
}
const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

// The documented generator, written again from docs/decisions.md 99.
function philox(ctr, k0, k1) {
  let [x0, x1, x2, x3] = ctr;
  for (let r = 0; r < 10; r++) {
    const p = BigInt(0xD2511F53) * BigInt(x0), q = BigInt(0xCD9E8D57) * BigInt(x2);
    const y0 = (Number(q >> 32n) ^ x1 ^ k0) >>> 0, y2 = (Number(p >> 32n) ^ x3 ^ k1) >>> 0;
    x1 = Number(q & 0xffffffffn); x3 = Number(p & 0xffffffffn); x0 = y0; x2 = y2;
    k0 = (k0 + 0x9E3779B9) >>> 0; k1 = (k1 + 0xBB67AE85) >>> 0;
  }
  return [x0, x1, x2, x3];
}
const seedKey = (s) => new Uint32Array(new Float32Array([s]).buffer)[0];
function words(n, key, stream = 0, e = [0, 0, 0, 0]) {
  const out = new Uint32Array(n);
  for (let j = 0; j < n; j += 4) {
    const w = philox([j / 4, 0, (stream ^ e[2]) >>> 0, e[3]], (key ^ e[0]) >>> 0, e[1]);
    for (let i = 0; i < 4 && j + i < n; i++) out[j + i] = w[i];
  }
  return out;
}

test('Philox4x32-10 here matches Random123 (the reference the kernel test checks too)', () => {
  assert.equal(philox([0, 0, 0, 0], 0, 0), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
  assert.equal(philox([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], 0xa4093822, 0x299f31d0), [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]);
});

test('RandomUniform is the documented float of the documented words: ((w >> 8) * 2^-24) * (high - low) + low, in float32', () => {
  const y = runOnce(model('RandomUniform', { shape: [1001], seed: F(7.5), low: F(-2), high: F(3) })).y.data;
  const w = words(1001, seedKey(7.5));
  const want = Float32Array.from(w, (x) => Math.fround(Math.fround((x >>> 8) * 2 ** -24 * 5) + -2));
  assert.equal(Buffer.from(y.buffer), Buffer.from(want.buffer));
});

test('RandomNormal is Box-Muller of two words per element, sqrt(-2 ln(1 - u0)) cos(2 pi u1), within float32 rounding', () => {
  const y = runOnce(model('RandomNormal', { shape: [2, 500], seed: F(1) })).y.data;
  const w = words(2000, seedKey(1));
  for (let i = 0; i < 1000; i++) {
    const u0 = (w[2 * i] >>> 8) * 2 ** -24, u1 = (w[2 * i + 1] >>> 8) * 2 ** -24;
    const z = Math.sqrt(-2 * Math.log(1 - u0)) * Math.cos(Math.fround(2 * Math.PI) * u1);
    assert.ok(Math.abs(y[i] - z) <= 1e-5 * (1 + Math.abs(z)), `element ${i}: ${y[i]} vs ${z}`);
  }
});

test('RandomNormal: mean and variance over 100,000 samples (float, double; mean 2 scale 0.5)', () => {
  for (const [dt, mean, scale] of [[FLOAT, 0, 1], [DOUBLE, 2, 0.5]]) {
    const y = runOnce(model('RandomNormal', { shape: [N], seed: F(3), mean: F(mean), scale: F(scale), dtype: dt }, { outs: [['y', dt, [N]]] })).y;
    assert.is(y.dtype, dt === FLOAT ? 'float32' : 'float64');
    const s = stats(y.data), sd = scale;
    // the mean of N samples has sd scale / sqrt(N); 5 of those; the variance's sd is ~ sqrt(2 / N) scale^2
    assert.ok(Math.abs(s.mean - mean) < 5 * sd / Math.sqrt(N), `mean ${s.mean}`);
    assert.ok(Math.abs(s.variance - sd * sd) < 5 * Math.sqrt(2 / N) * sd * sd, `variance ${s.variance}`);
    // the tails: about 4.55 % beyond 2 sd
    const tail = y.data.filter((x) => Math.abs(x - mean) > 2 * sd).length / N;
    assert.ok(Math.abs(tail - 0.0455) < 0.004, `tail ${tail}`);
  }
});

test('RandomUniform: in [low, high), mean (low + high) / 2, variance (high - low)^2 / 12', () => {
  const y = runOnce(model('RandomUniform', { shape: [N], seed: F(11), low: F(-1), high: F(5) })).y.data;
  const s = stats(y);
  assert.ok(y.every((x) => x >= -1 && x < 5));
  assert.ok(Math.abs(s.mean - 2) < 5 * Math.sqrt(3 / N), `mean ${s.mean}`);
  assert.ok(Math.abs(s.variance - 3) < 5 * 3 * Math.sqrt(0.8 / N), `variance ${s.variance}`);
});

test('the Like forms take the input\'s shape and dtype (dtype overrides), symbolic dims included', () => {
  const inputs = [['x', DOUBLE, ['N', 3]]];
  const s = rt.load(convert(model('RandomNormalLike', { seed: F(2) }, { inputs, outs: [['y', DOUBLE, ['N', 3]]] })).holo);
  const y = s.run({ x: { data: new Float64Array(3 * 7000), shape: [7000, 3] } }).y;
  assert.is(y.dtype, 'float64');
  assert.equal(y.shape, [7000, 3]);
  const st = stats(y.data);
  assert.ok(Math.abs(st.mean) < 5 / Math.sqrt(21000) && Math.abs(st.variance - 1) < 5 * Math.sqrt(2 / 21000));
  s.dispose();
  const u = runOnce(model('RandomUniformLike', { dtype: FLOAT, seed: F(2), high: F(2) }, { inputs: [['x', DOUBLE, [4, 5]]] }), { x: new Float64Array(20) }).y;
  assert.is(u.dtype, 'float32');
  assert.equal(u.shape, [4, 5]);
  assert.ok(u.data.every((v) => v >= 0 && v < 2));
});

test('Bernoulli: the frequency of 1 is p (float, double; outputs of bool, int32, double)', () => {
  const per = 20_000, ps = [0, 0.1, 0.5, 0.9, 1];
  const p = new Float32Array(per * ps.length).map((_, i) => ps[i % ps.length]);
  for (const [xdt, ydt] of [[FLOAT, undefined], [DOUBLE, BOOL], [FLOAT, INT32], [FLOAT, DOUBLE]]) {
    const attrs = { seed: F(5) };
    if (ydt !== undefined) attrs.dtype = ydt;
    const x = xdt === FLOAT ? p : Float64Array.from(p);
    const y = runOnce(model('Bernoulli', attrs, { inputs: [['x', xdt, [p.length]]], outs: [['y', ydt ?? xdt, [p.length]]] }), { x }).y;
    assert.is(y.dtype, { [FLOAT]: 'float32', [DOUBLE]: 'float64', [BOOL]: 'bool', [INT32]: 'int32' }[ydt ?? xdt]);
    ps.forEach((q, k) => {
      let ones = 0;
      for (let i = k; i < p.length; i += ps.length) { assert.ok(Number(y.data[i]) === 0 || Number(y.data[i]) === 1); ones += Number(y.data[i]); }
      const f = ones / per;
      assert.ok(Math.abs(f - q) <= 5 * Math.sqrt(q * (1 - q) / per) + 1e-12, `p ${q}: frequency ${f}`);
    });
  }
});

// chi-square critical values at p = 0.001
const CHI2_999 = { 1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47 };

test('Multinomial: a chi-square over the classes, a zero-mass class never drawn, int64, a symbolic batch', () => {
  const probs = [[0.1, 0.2, 0.3, 0.4], [0.5, 0, 0.25, 0.25]];
  const S = 40_000;
  const x = Float32Array.from(probs.flat(), (q) => (q === 0 ? -Infinity : Math.log(q) + 3)); // unnormalized
  for (const dt of [INT32, INT64]) {
    const y = runOnce(model('Multinomial', { sample_size: S, seed: F(9), dtype: dt }, { inputs: [['x', FLOAT, ['B', 4]]], outs: [['y', dt, ['B', S]]], opset: 13 }), { x: { data: x, shape: [2, 4] } }).y;
    assert.is(y.dtype, dt === INT32 ? 'int32' : 'int64');
    assert.equal(y.shape, [2, S]);
    probs.forEach((row, b) => {
      const count = [0, 0, 0, 0];
      for (let i = 0; i < S; i++) count[Number(y.data[b * S + i])]++;
      let chi = 0, df = -1;
      row.forEach((q, c) => { if (q > 0) { chi += (count[c] - S * q) ** 2 / (S * q); df++; } else assert.is(count[c], 0, 'a class of zero mass'); });
      assert.ok(chi < CHI2_999[df], `row ${b}: chi-square ${chi.toFixed(2)} over ${df} degrees of freedom (counts ${count})`);
    });
  }
  // the default: int32, one sample per row
  const y = runOnce(model('Multinomial', { seed: F(1) }, { inputs: [['x', FLOAT, [3, 2]]], outs: [['y', INT32, [3, 1]]], opset: 13 }), { x: new Float32Array([0, -Infinity, -Infinity, 0, 5, -Infinity]) }).y;
  assert.equal([...y.data], [0, 1, 0]);
});

test('Dropout in training mode: the kept share is 1 - ratio, kept values scaled by 1 / (1 - ratio), the mask where they are kept', () => {
  const x = Float32Array.from({ length: N }, (_, i) => 1 + (i % 7));
  for (const ratio of [0.25, 0.8]) {
    const bytes = model('Dropout', { seed: 42 }, { opset: 13, inputs: [['x', FLOAT, [N]], ['r', FLOAT, []], ['t', BOOL, []]], outs: [['y', FLOAT, [N]], ['mask', BOOL, [N]]] });
    const out = runOnce(bytes, { x, r: new Float32Array([ratio]), t: new Uint8Array([1]) });
    const scale = Math.fround(1 / Math.fround(1 - Math.fround(ratio))); // in float32, as onnxruntime
    let kept = 0;
    for (let i = 0; i < N; i++) {
      if (out.mask.data[i]) { kept++; assert.is(out.y.data[i], Math.fround(x[i] * scale)); } else assert.is(out.y.data[i], 0);
    }
    assert.ok(Math.abs(kept / N - (1 - ratio)) < 5 * Math.sqrt(ratio * (1 - ratio) / N), `ratio ${ratio}: kept ${kept / N}`);
    // training_mode false at run time: the identity and an all-true mask
    const inf = runOnce(bytes, { x, r: new Float32Array([ratio]), t: new Uint8Array([0]) });
    assert.equal(bytesOf(inf.y), bytesOf({ data: x }));
    assert.ok(inf.mask.data.every((m) => m === 1));
  }
  // a constant training_mode and ratio (initializers), no mask output, the default ratio 0.5
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [N]); b.init('t', BOOL, [], [1]);
  b.node('Dropout', ['x', '', 't'], ['y'], { seed: 1 });
  b.output('y', FLOAT, [N]);
  const y = runOnce(b.bytes(), { x }).y.data;
  const kept = y.filter((v) => v !== 0).length / N;
  assert.ok(Math.abs(kept - 0.5) < 5 * Math.sqrt(0.25 / N));
});

test('the same seed: the same bytes in two sessions, on the scalar, simd128 and 2-thread cores, folded or executed; another seed differs', async () => {
  const bytes = (seed, shape = [3000]) => model('RandomNormal', { shape, seed: F(seed) });
  const rts = [rt, await init(undefined, { variant: 'scalar' }), await init(undefined, { threads: 2 })];
  try {
    const ref = bytesOf(runOnce(bytes(4)).y);
    for (const r of rts) {
      const a = runOnce(bytes(4), {}, r), b2 = runOnce(bytes(4), {}, r);
      assert.equal(bytesOf(a.y), ref, r.variant);
      assert.equal(bytesOf(b2.y), ref);
      assert.is(a.y.label, b2.y.label, 'the seed is part of the label: equal seeds, equal labels');
    }
    // folded at convert (a small constant) against executed at load (fold: false)
    const small = bytes(4, [64]);
    const folded = convert(small), kept = convert(small, { fold: false });
    assert.not.ok(folded.report.opsOut['holo.Philox'], 'folded');
    assert.ok(kept.report.opsOut['holo.Philox'], 'kept for the load');
    const f = rt.load(folded.holo), k = rt.load(kept.holo);
    assert.equal(bytesOf(f.run({}).y), bytesOf(k.run({}).y));
    assert.equal(bytesOf(f.run({}).y), ref.subarray(0, 256), 'a prefix of the longer draw');
    f.dispose(); k.dispose();
    const other = runOnce(bytes(5)).y;
    assert.is.not(bytesOf(other).equals(ref), true);
    assert.is.not(other.label, runOnce(bytes(4)).y.label);
  } finally {
    rts[2].dispose();
  }
});

test('unseeded: a hidden entropy input, fresh on every run (no memo hit); the caller\'s entropy reproduces a run', () => {
  const bytes = model('RandomUniformLike', {}, { inputs: [['x', FLOAT, [1000]]], outs: [['y', FLOAT, [1000]]] });
  const r = convert(bytes);
  assert.is(r.report.entropy, 'holo.entropy');
  const s = rt.load(r.holo);
  assert.equal(s.inputs.map((p) => p.name), ['x'], 'the entropy port is not among inputs');
  assert.equal(s.entropyInput, { name: 'holo.entropy', dtype: 'uint32', dtypeCode: 12, shape: [4] });
  const x = new Float32Array(1000);
  const a = s.run({ x }).y, b = s.run({ x }).y, c = s.execute([x])[0];
  assert.is.not(a.label, b.label);
  assert.not.ok(bytesOf(a).equals(bytesOf(b)));
  assert.not.ok(bytesOf(a).equals(bytesOf(c)));
  assert.is(s.counters.memoHits, 0);
  const e = new Uint32Array([1, 2, 3, 0xfedcba98]);
  const d = s.run({ x, 'holo.entropy': e }).y, d2 = s.execute([x, { data: e, shape: [4] }])[0];
  assert.equal(bytesOf(d), bytesOf(d2));
  // the documented words under that entropy: key (0 ^ e0, e1), stream 0 ^ e2, e3
  const w = words(1000, 0, 0, [...e]);
  assert.equal(bytesOf(d), Buffer.from(Float32Array.from(w, (v) => (v >>> 8) * 2 ** -24).buffer));
  s.dispose();
  // another session, the same entropy: the same bytes
  const s2 = rt.load(r.holo);
  assert.equal(bytesOf(s2.run({ x, 'holo.entropy': e }).y), bytesOf(d));
  s2.dispose();
});

test('two unseeded draws in one graph are independent streams; a dead one leaves no entropy input', () => {
  const b = new OnnxBuilder(15);
  b.node('RandomUniform', [], ['a'], { shape: [500] });
  b.node('RandomUniform', [], ['b'], { shape: [500] });
  b.output('a', FLOAT, [500]); b.output('b', FLOAT, [500]);
  const out = runOnce(b.bytes());
  assert.not.ok(bytesOf(out.a).equals(bytesOf(out.b)));
  const d = new OnnxBuilder(15);
  d.input('x', FLOAT, [2]);
  d.node('RandomNormal', [], ['dead'], { shape: [2] });
  d.node('Relu', ['x'], ['y']);
  d.output('y', FLOAT, [2]);
  const r = convert(d.bytes());
  assert.is(r.report.entropy, null);
  const s = rt.load(r.holo);
  assert.is(s.entropyInput, null);
  s.dispose();
});

test('refused by name: an unseeded draw inside a Loop body, a dtype that is not a float, a missing shape', () => {
  const body = new OnnxBuilder(15);
  body.input('i', INT64, []); body.input('cond', BOOL, []); body.input('acc', FLOAT, [2]);
  body.node('RandomUniform', [], ['u'], { shape: [2] });
  body.node('Add', ['acc', 'u'], ['acc_out']);
  body.node('Identity', ['cond'], ['cond_out']);
  body.output('cond_out', BOOL, []); body.output('acc_out', FLOAT, [2]);
  const b = new OnnxBuilder(15);
  b.input('n', INT64, []); b.input('c', BOOL, []); b.input('a0', FLOAT, [2]);
  b.node('Loop', ['n', 'c', 'a0'], ['a'], { body: G(body) });
  b.output('a', FLOAT, [2]);
  assert.throws(() => convert(b.bytes()), /Loop.*unseeded random op.*repeat at every iteration/);
  assert.throws(() => convert(model('RandomNormal', { shape: [2], dtype: INT32 })), /RandomNormal.*dtype int32 is not a float/);
  assert.throws(() => convert(model('RandomUniform', {})), /RandomUniform.*required attribute 'shape'/);
});

test.after(() => {});
test.run();
