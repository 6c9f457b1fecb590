// The deterministic training-side ops: ai.onnx.preview.training's Adagrad,
// Adam, Momentum and Gradient (compiler/onnx-ops-training.js) against
// float64 formulas written from the spec (onnxruntime-node has no preview
// training kernels), BatchNormalization training_mode=1 and Dropout's mask /
// runtime training_mode (kernels-wasm-simd/operators/dropout.c), MaxPool's
// Indices output and uint8 MaxPool against onnxruntime-node, and every
// refusal with its message.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, BOOL, F, rand, close } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const TRAIN = 'ai.onnx.preview.training';

/** A model of one preview-training node (only that domain imported, as onnx's own test models). */
function trainingModel(op, ins, outs, attrs, shapes) {
  const b = new OnnxBuilder(18);
  for (const i of ins) b.input(i, i === 'T' ? INT64 : FLOAT, shapes[i] ?? []);
  b.node(op, ins, outs, attrs, op.toLowerCase());
  for (const o of outs) b.output(o, FLOAT, null);
  const m = onnxProto.onnx.ModelProto.decode(b.bytes());
  m.graph.node[0].domain = TRAIN;
  m.opsetImport = [{ domain: TRAIN, version: 1 }];
  return onnxProto.onnx.ModelProto.encode(m).finish();
}

function run(bytes, feeds) {
  const s = rt.load(convert(bytes).holo);
  try {
    return s.run(feeds);
  } finally {
    s.dispose();
  }
}

const f32 = (a) => ({ data: Float32Array.from(a), shape: [a.length] });
const scalar = (v) => ({ data: Float32Array.of(v), shape: [] });
const count = (t) => ({ data: BigInt64Array.of(BigInt(t)), shape: [] });

test('Adagrad agrees with the spec formula (two tensors)', () => {
  const R = 0.1, decay = 0.1, eps = 1e-5, norm = 0.01, T = 3;
  const X = [[1.5, -2], [0.25]], G = [[-1, 3], [0.5]], H = [[0.5, 2], [1]];
  const bytes = trainingModel('Adagrad', ['R', 'T', 'X1', 'X2', 'G1', 'G2', 'H1', 'H2'], ['X1n', 'X2n', 'H1n', 'H2n'],
    { decay_factor: F(decay), epsilon: F(eps), norm_coefficient: F(norm) }, { X1: [2], X2: [1], G1: [2], G2: [1], H1: [2], H2: [1] });
  const y = run(bytes, { R: scalar(R), T: count(T), X1: f32(X[0]), X2: f32(X[1]), G1: f32(G[0]), G2: f32(G[1]), H1: f32(H[0]), H2: f32(H[1]) });
  const r = R / (1 + T * decay);
  X.forEach((x, j) => {
    const gr = x.map((v, i) => norm * v + G[j][i]);
    const h = H[j].map((v, i) => v + gr[i] * gr[i]);
    assert.ok(close(y[`H${j + 1}n`].data, h, 1e-5, 1e-6), `H${j + 1}`);
    assert.ok(close(y[`X${j + 1}n`].data, x.map((v, i) => v - (r * gr[i]) / (Math.sqrt(h[i]) + eps)), 1e-5, 1e-6), `X${j + 1}`);
  });
});

test('Adam agrees with the spec formula, with and without bias correction (T > 0, T = 0)', () => {
  const alpha = 0.9, beta = 0.99, eps = 1e-4, norm = 0.01, post = 0.05, R = 0.2;
  const x = [1, -0.5, 2], g = [0.3, -1, 0.1], v = [0.1, 0.2, -0.3], h = [0.5, 0.1, 1];
  const bytes = trainingModel('Adam', ['R', 'T', 'X', 'G', 'V', 'H'], ['Xn', 'Vn', 'Hn'],
    { alpha: F(alpha), beta: F(beta), epsilon: F(eps), norm_coefficient: F(norm), norm_coefficient_post: F(post) }, { X: [3], G: [3], V: [3], H: [3] });
  for (const T of [0, 4]) {
    const y = run(bytes, { R: scalar(R), T: count(T), X: f32(x), G: f32(g), V: f32(v), H: f32(h) });
    const gr = x.map((a, i) => norm * a + g[i]);
    const vn = v.map((a, i) => alpha * a + (1 - alpha) * gr[i]);
    const hn = h.map((a, i) => beta * a + (1 - beta) * gr[i] * gr[i]);
    const r = T > 0 ? (R * Math.sqrt(1 - beta ** T)) / (1 - alpha ** T) : R;
    const xn = x.map((a, i) => (1 - post) * (a - (r * vn[i]) / (Math.sqrt(hn[i]) + eps)));
    assert.ok(close(y.Vn.data, vn, 1e-5, 1e-6) && close(y.Hn.data, hn, 1e-5, 1e-6), `T=${T}: V, H`);
    assert.ok(close(y.Xn.data, xn, 1e-5, 1e-6), `T=${T}: X ${[...y.Xn.data]} vs ${xn}`);
  }
});

test('Momentum standard and nesterov agree with the spec formula (T = 0 uses beta 1)', () => {
  const alpha = 0.9, beta = 0.5, norm = 0.02, R = 0.1;
  const x = [1, 2], g = [-0.5, 0.25], v = [0.3, -0.1];
  for (const mode of ['standard', 'nesterov'])
    for (const T of [0, 2]) {
      const bytes = trainingModel('Momentum', ['R', 'T', 'X', 'G', 'V'], ['Xn', 'Vn'], { alpha: F(alpha), beta: F(beta), norm_coefficient: F(norm), mode }, { X: [2], G: [2], V: [2] });
      const y = run(bytes, { R: scalar(R), T: count(T), X: f32(x), G: f32(g), V: f32(v) });
      const b = T > 0 ? beta : 1;
      const gr = x.map((a, i) => norm * a + g[i]);
      const vn = v.map((a, i) => alpha * a + b * gr[i]);
      const xn = x.map((a, i) => a - R * (mode === 'standard' ? vn[i] : gr[i] + alpha * vn[i]));
      assert.ok(close(y.Vn.data, vn, 1e-5, 1e-6) && close(y.Xn.data, xn, 1e-5, 1e-6), `${mode} T=${T}`);
    }
});

test('the optimizers refuse malformed nodes by name', () => {
  const m = (attrs, ins = ['R', 'T', 'X', 'G', 'V'], outs = ['Xn', 'Vn']) => trainingModel('Momentum', ins, outs, attrs, { X: [2], G: [2], V: [2] });
  assert.throws(() => convert(m({ alpha: F(0.9), beta: F(1), norm_coefficient: F(0), mode: 'heavy' })), /mode must be "standard" or "nesterov"/);
  assert.throws(() => convert(m({ beta: F(1), norm_coefficient: F(0), mode: 'standard' })), /required attribute 'alpha'/);
  assert.throws(() => convert(m({ alpha: F(0.9), beta: F(1), norm_coefficient: F(0), mode: 'standard' }, ['R', 'T', 'X', 'G'], ['Xn'])), /expected R, T and 3 lists/);
  const other = trainingModel('Momentum', ['R', 'T', 'X', 'G', 'V'], ['Xn', 'Vn'], {}, {});
  const dec = onnxProto.onnx.ModelProto.decode(other);
  dec.graph.node[0].opType = 'Lamb';
  assert.throws(() => convert(onnxProto.onnx.ModelProto.encode(dec).finish()), /unsupported op 'ai.onnx.preview.training.Lamb': only Adagrad, Adam, Momentum, Gradient/);
});

/** Gradient of y = f(a, b) (default-domain nodes plus one Gradient node). */
function gradientModel(build, xs = ['a', 'b'], y = 'y', shape = []) {
  const b = new OnnxBuilder(13);
  b.input('a', FLOAT, shape).input('b', FLOAT, shape);
  build(b);
  b.node('Gradient', xs, xs.map((x) => `d_${x}`), { xs: { __ss: xs }, y }, 'grad');
  b.output(y, FLOAT, null);
  for (const x of xs) b.output(`d_${x}`, FLOAT, null);
  const m = onnxProto.onnx.ModelProto.decode(b.bytes());
  m.graph.node.at(-1).domain = TRAIN;
  m.opsetImport.push({ domain: TRAIN, version: 1 });
  return onnxProto.onnx.ModelProto.encode(m).finish();
}

test('Gradient differentiates Add, Sub, Mul, Div and Neg symbolically', () => {
  // y = ((a + b) * a - b) / (-a) ; dy/da = (2a + b)/(-a) - ((a+b)a - b)/(a^2) * (-1) ...
  const bytes = gradientModel((b) => b.node('Add', ['a', 'b'], ['c']).node('Mul', ['c', 'a'], ['d']).node('Sub', ['d', 'b'], ['e'])
    .node('Neg', ['a'], ['na']).node('Div', ['e', 'na'], ['y']));
  for (const [a, bb] of [[1.5, -0.5], [-2, 3]]) {
    const out = run(bytes, { a: scalar(a), b: scalar(bb) });
    const f = (p, q) => ((p + q) * p - q) / -p;
    const h = 1e-6;
    const da = (f(a + h, bb) - f(a - h, bb)) / (2 * h), db = (f(a, bb + h) - f(a, bb - h)) / (2 * h);
    assert.ok(close(out.y.data, [f(a, bb)], 1e-5, 1e-6), 'y');
    assert.ok(close(out.d_a.data, [da], 1e-4, 1e-5), `dy/da ${out.d_a.data[0]} vs ${da}`);
    assert.ok(close(out.d_b.data, [db], 1e-4, 1e-5), `dy/db ${out.d_b.data[0]} vs ${db}`);
  }
  // an x that y does not depend on has gradient 0
  const z = run(gradientModel((b) => b.node('Mul', ['a', 'a'], ['y'])), { a: scalar(3), b: scalar(7) });
  assert.equal([...z.d_a.data, ...z.d_b.data], [6, 0]);
});

test('Gradient refuses what it cannot differentiate, by name', () => {
  assert.throws(() => convert(gradientModel((b) => b.node('Exp', ['a'], ['e']).node('Add', ['e', 'b'], ['y']))), /cannot differentiate through Exp/);
  assert.throws(() => convert(gradientModel((b) => b.node('Add', ['a', 'b'], ['y']), ['a', 'b'], 'y', [2])), /y must be a scalar/);
});

test('BatchNormalization training_mode=1 agrees with the batch statistics in float64', () => {
  const xs = [3, 2, 2, 2], N = 24, eps = 1e-3, mom = 0.8;
  const x = rand(N), s = [0.5, 2], bias = [0.1, -1], mean = [1, -1], variance = [0.5, 2];
  const b = new OnnxBuilder(15);
  b.input('x', FLOAT, xs).init('s', FLOAT, [2], s).init('bias', FLOAT, [2], bias).init('m', FLOAT, [2], mean).init('v', FLOAT, [2], variance);
  b.node('BatchNormalization', ['x', 's', 'bias', 'm', 'v'], ['y', 'rm', 'rv'], { epsilon: F(eps), momentum: F(mom), training_mode: 1 });
  b.output('y', FLOAT, null).output('rm', FLOAT, null).output('rv', FLOAT, null);
  const out = run(b.bytes(), { x: { data: x, shape: xs } });
  const chan = (i) => Math.floor(i / 4) % 2;
  const mu = [0, 0], va = [0, 0];
  x.forEach((v, i) => (mu[chan(i)] += v / 12));
  x.forEach((v, i) => (va[chan(i)] += (v - mu[chan(i)]) ** 2 / 12));
  const y = [...x].map((v, i) => (s[chan(i)] * (v - mu[chan(i)])) / Math.sqrt(va[chan(i)] + eps) + bias[chan(i)]);
  assert.ok(close(out.y.data, y, 1e-5, 1e-5), 'Y');
  assert.ok(close(out.rm.data, mean.map((m, c) => m * mom + mu[c] * (1 - mom)), 1e-5, 1e-6), 'running mean');
  assert.ok(close(out.rv.data, variance.map((m, c) => m * mom + va[c] * (1 - mom)), 1e-5, 1e-6), 'running var');
});

function dropoutModel(outs, extraIns = []) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 3]);
  if (extraIns.includes('r')) b.input('r', FLOAT, []);
  if (extraIns.includes('t')) b.input('t', BOOL, []);
  b.node('Dropout', ['x', ...extraIns], outs, { seed: 0 }, 'drop');
  b.output('y', FLOAT, null);
  if (outs[1]) b.output('mask', BOOL, null);
  return b.bytes();
}

test('Dropout: the mask of an inference run is all true; a runtime training_mode selects the draw (onnx-ops-random.js) or the identity', () => {
  const x = rand(6);
  const a = run(dropoutModel(['y', 'mask']), { x: { data: x, shape: [2, 3] } });
  assert.equal([...a.y.data], [...x]);
  assert.equal([...a.mask.data], [1, 1, 1, 1, 1, 1]);
  assert.is(a.mask.dtype, 'bool');
  const bytes = dropoutModel(['y', 'mask'], ['r', 't']);
  for (const [r, t] of [[0, 1], [0.5, 0], [0, 0]]) {
    const o = run(bytes, { x: { data: x, shape: [2, 3] }, r: scalar(r), t: { data: Uint8Array.of(t), shape: [] } });
    assert.equal([...o.y.data], [...x], `r=${r} t=${t}`);
    assert.equal([...o.mask.data], [1, 1, 1, 1, 1, 1]);
  }
  // training with ratio 0.5: kept values doubled, the others 0, the mask where they are kept; seeded, so every run the same
  const feeds = { x: { data: x, shape: [2, 3] }, r: scalar(0.5), t: { data: Uint8Array.of(1), shape: [] } };
  const d = run(bytes, feeds), d2 = run(bytes, feeds);
  x.forEach((v, i) => assert.is(d.y.data[i], d.mask.data[i] ? Math.fround(v * 2) : 0));
  assert.equal([...d2.y.data], [...d.y.data]);
  // a constant training_mode true with a constant ratio draws too, without the mask output
  const c = new OnnxBuilder(13);
  c.input('x', FLOAT, [200]).init('r', FLOAT, [], [0.3]).init('t', BOOL, [], [1]).node('Dropout', ['x', 'r', 't'], ['y'], { seed: 7 }, 'drop').output('y', FLOAT, [200]);
  const ones = new Float32Array(200).fill(1);
  const y = run(c.bytes(), { x: ones }).y.data;
  const scale = Math.fround(1 / Math.fround(1 - Math.fround(0.3)));
  assert.ok(y.every((v) => v === 0 || v === scale));
  assert.ok(y.some((v) => v === 0) && y.some((v) => v === scale));
  // a constant ratio outside [0, 1) is refused at convert time
  const bad = new OnnxBuilder(13);
  bad.input('x', FLOAT, [2]).init('r', FLOAT, [], [1]).init('t', BOOL, [], [1]).node('Dropout', ['x', 'r', 't'], ['y'], {}, 'drop').output('y', FLOAT, [2]);
  assert.throws(() => convert(bad.bytes()), /unsupported op 'Dropout' \(node 'drop'\): ratio 1 must be in \[0, 1\)/);
});

async function ortRun(bytes, feeds) {
  const s = await ort.InferenceSession.create(bytes);
  return s.run(feeds);
}

test('MaxPool Indices (storage_order 0 and 1, pads, strides, dilations, batch > 1) agree with onnxruntime-node', async () => {
  const cases = [
    { xs: [2, 3, 5, 6], a: { kernel_shape: [2, 2], strides: [2, 2] } },
    { xs: [1, 2, 5, 5], a: { kernel_shape: [3, 3], pads: [1, 1, 1, 1], storage_order: 1 } },
    { xs: [2, 1, 7, 6], a: { kernel_shape: [3, 2], strides: [2, 1], dilations: [2, 1], storage_order: 0 } },
    { xs: [1, 2, 6, 7], a: { kernel_shape: [2, 3], strides: [1, 2], pads: [0, 1, 1, 0], storage_order: 1, ceil_mode: 1 } },
  ];
  for (const { xs, a } of cases) {
    const b = new OnnxBuilder(12);
    b.input('x', FLOAT, xs).node('MaxPool', ['x'], ['y', 'i'], a).output('y', FLOAT, null).output('i', INT64, null);
    const bytes = b.bytes();
    const n = xs.reduce((p, d) => p * d, 1);
    const x = rand(n).map((v) => Math.round(v * 4) / 4); // ties: the first in window order wins
    const want = await ortRun(bytes, { x: new ort.Tensor('float32', x, xs) });
    const got = run(bytes, { x: { data: x, shape: xs } });
    assert.equal([...got.y.data], [...want.y.data], `${JSON.stringify(a)}: Y`);
    assert.equal([...got.i.data], [...want.i.data], `${JSON.stringify(a)}: Indices`);
  }
});

test('MaxPool of uint8 and int8 agrees with onnxruntime-node', async () => {
  for (const [dt, Arr, name] of [[2, Uint8Array, 'uint8'], [3, Int8Array, 'int8']]) {
    const b = new OnnxBuilder(12);
    b.input('x', dt, [1, 2, 5, 5]).node('MaxPool', ['x'], ['y'], { kernel_shape: [3, 3], pads: [1, 1, 1, 1], strides: [2, 2] }).output('y', dt, null);
    const x = Arr.from({ length: 50 }, (_, i) => (i * 37) % 251 - (dt === 3 ? 125 : 0));
    const want = await ortRun(b.bytes(), { x: new ort.Tensor(name, x, [1, 2, 5, 5]) });
    const got = run(b.bytes(), { x: { data: x, shape: [1, 2, 5, 5] } });
    assert.equal([...got.y.data], [...want.y.data], name);
  }
});

test.run();
