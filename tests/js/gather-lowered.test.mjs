// Compress, ReverseSequence and MaxUnpool (compiler/onnx-ops-gather.js:
// lowered onto NonZero/Gather, GatherElements and ScatterElements) against
// onnxruntime-node, including MaxPool -> MaxUnpool round trips with and
// without output_shape, and the runtime errors for out-of-range data.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, BOOL, rand, close } from './onnx-build.mjs';

const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const ORT_TYPE = { [FLOAT]: 'float32', [INT64]: 'int64', [BOOL]: 'bool' };

async function agree(bytes, feeds, what) {
  const want = await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, [t, data, shape]]) => [k, new ort.Tensor(ORT_TYPE[t], data, shape)])));
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }])));
    for (const k of Object.keys(want)) {
      assert.equal([...got[k].shape], [...want[k].dims].map(Number), `${what} ${k}: shape`);
      assert.ok(close(got[k].data, want[k].data, 0, 0), `${what} ${k}: values`);
    }
  } finally {
    h.dispose();
  }
}

test('Compress: each axis, negative axis, no axis, a condition shorter than the axis', async () => {
  for (const [xs, cond, axis] of [[[3, 4], [1, 0, 1], 0], [[3, 4], [0, 1, 1, 0], 1], [[2, 3, 4], [1, 0, 1, 1], -1], [[2, 3], [0, 1, 0, 0, 1, 1], undefined], [[5, 2], [1, 1], 0], [[3, 2], [0, 0, 0], 0]]) {
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, xs).input('c', BOOL, [cond.length]).node('Compress', ['x', 'c'], ['y'], axis === undefined ? {} : { axis }).output('y', FLOAT, null);
    await agree(b.bytes(), { x: [FLOAT, rand(numel(xs)), xs], c: [BOOL, Uint8Array.from(cond), [cond.length]] }, `Compress ${JSON.stringify([xs, cond, axis])}`);
  }
});

test('ReverseSequence: time-major and batch-major, full, partial and length-1 sequences', async () => {
  for (const [xs, ta, ba, lens] of [[[4, 3, 2], 0, 1, [4, 2, 1]], [[3, 5], 1, 0, [5, 1, 3]], [[2, 6, 2, 2], 1, 0, [6, 3]]]) {
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, xs).input('l', INT64, [lens.length]).node('ReverseSequence', ['x', 'l'], ['y'], { time_axis: ta, batch_axis: ba }).output('y', FLOAT, null);
    await agree(b.bytes(), { x: [FLOAT, rand(numel(xs)), xs], l: [INT64, BigInt64Array.from(lens, BigInt), [lens.length]] }, `ReverseSequence ${JSON.stringify([xs, ta, lens])}`);
  }
});

// MaxPool's Indices output has no kernel here: onnxruntime's MaxPool makes the inputs.
test('MaxUnpool of onnxruntime MaxPool results: strides, pads, and output_shape as an input', async () => {
  for (const [xs, ks, st, pads, outShape] of [[[1, 2, 4, 4], [2, 2], [2, 2], null, null], [[2, 1, 6, 5], [3, 2], [2, 1], [1, 0, 1, 1], [2, 1, 6, 5]], [[1, 1, 4, 4], [2, 2], [2, 2], null, [1, 1, 5, 5]]]) {
    const pa = { kernel_shape: ks, strides: st, ...(pads ? { pads } : {}) };
    const pm = new OnnxBuilder(13);
    pm.input('x', FLOAT, xs).node('MaxPool', ['x'], ['p', 'i'], pa).output('p', FLOAT, null).output('i', INT64, null);
    const { p, i } = await (await ort.InferenceSession.create(pm.bytes())).run({ x: new ort.Tensor('float32', rand(numel(xs)), xs) });
    const b = new OnnxBuilder(13);
    b.input('p', FLOAT, p.dims.map(Number)).input('i', INT64, i.dims.map(Number));
    if (outShape) b.input('s', INT64, [4]);
    b.node('MaxUnpool', outShape ? ['p', 'i', 's'] : ['p', 'i'], ['y'], pa).output('y', FLOAT, null);
    const feeds = { p: [FLOAT, p.data, p.dims.map(Number)], i: [INT64, i.data, i.dims.map(Number)] };
    if (outShape) feeds.s = [INT64, BigInt64Array.from(outShape, BigInt), [4]];
    await agree(b.bytes(), feeds, `MaxUnpool ${JSON.stringify([xs, ks, st, pads, outShape])}`);
  }
});

test('out-of-range data are errors with a message: a true condition past the axis, a sequence length past T', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 2]).input('c', BOOL, [3]).node('Compress', ['x', 'c'], ['y'], { axis: 0 }).output('y', FLOAT, null);
  const h = rt.load(convert(b.bytes()).holo);
  assert.throws(() => h.run({ x: { data: rand(4), shape: [2, 2] }, c: { data: Uint8Array.from([0, 0, 1]), shape: [3] } }), /Gather: index 2 .* out of range/);
  assert.equal(h.run({ x: { data: Float32Array.from([1, 2, 3, 4]), shape: [2, 2] }, c: { data: Uint8Array.from([0, 1, 0]), shape: [3] } }).y.data, Float32Array.from([3, 4]));
  h.dispose();
  const r = new OnnxBuilder(13);
  r.input('x', FLOAT, [3, 2]).input('l', INT64, [2]).node('ReverseSequence', ['x', 'l'], ['y'], {}).output('y', FLOAT, null);
  const g = rt.load(convert(r.bytes()).holo);
  assert.throws(() => g.run({ x: { data: rand(6), shape: [3, 2] }, l: { data: BigInt64Array.from([4n, 1n]), shape: [2] } }), /GatherElements: index 3 .* out of range/);
  g.dispose();
});

test.run();
