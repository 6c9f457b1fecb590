// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (compiler/onnx-ops-loss.js)
// against onnxruntime-node: every reduction, with and without weights and
// ignore_index (negative and inside [0, C)), [N, C] and [N, C, d1, d2],
// int32 and int64 targets, SCE's log_prob output; an out-of-range target is
// an error with a message and the session stays usable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, INT32, rand, close } from './onnx-build.mjs';

const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(op, xs, tdt, attrs, weight, logProb) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, xs).input('t', tdt, [xs[0], ...xs.slice(2)]);
  if (weight) b.input('w', FLOAT, [xs[1]]);
  b.node(op, weight ? ['x', 't', 'w'] : ['x', 't'], logProb ? ['y', 'lp'] : ['y'], attrs);
  b.output('y', FLOAT, null);
  if (logProb) b.output('lp', FLOAT, null);
  return b.bytes();
}

function targets(n, C, ignore, tdt) {
  let s = 7;
  const v = Array.from({ length: n }, (_, i) => ((s = (s * 48271) % 2147483647) % C));
  if (ignore !== undefined) for (let i = 0; i < n; i += 3) v[i] = ignore;
  return tdt === INT64 ? BigInt64Array.from(v, BigInt) : Int32Array.from(v);
}

async function agree(op, xs, { tdt = INT64, weight = false, logProb = false, ...attrs }) {
  const x = rand(numel(xs), 3), t = targets(numel(xs) / xs[1], xs[1], attrs.ignore_index, tdt), w = Float32Array.from({ length: xs[1] }, (_, i) => 0.5 + i / 4);
  const bytes = model(op, xs, tdt, attrs, weight, logProb);
  const ts = [xs[0], ...xs.slice(2)];
  const feeds = { x: new ort.Tensor('float32', x, xs), t: new ort.Tensor(tdt === INT64 ? 'int64' : 'int32', t, ts) };
  if (weight) feeds.w = new ort.Tensor('float32', w, [xs[1]]);
  const want = await (await ort.InferenceSession.create(bytes)).run(feeds);
  const h = rt.load(convert(bytes).holo);
  try {
    const ins = { x: { data: x, shape: xs }, t: { data: t, shape: ts } };
    if (weight) ins.w = { data: w, shape: [xs[1]] };
    const got = h.run(ins);
    const what = `${op} ${JSON.stringify(xs)} ${JSON.stringify({ ...attrs, weight, tdt })}`;
    for (const k of logProb ? ['y', 'lp'] : ['y']) {
      assert.equal([...got[k].shape], [...want[k].dims].map(Number), `${what} ${k}: shape`);
      assert.ok(close(got[k].data, want[k].data, 1e-5, 1e-6), `${what} ${k}: ${[...got[k].data].slice(0, 4)} vs ${[...want[k].data].slice(0, 4)}`);
    }
  } finally {
    h.dispose();
  }
}

test('NegativeLogLikelihoodLoss: reductions x weights x ignore_index x ranks x target dtypes', async () => {
  for (const reduction of ['none', 'sum', 'mean'])
    for (const weight of [false, true])
      for (const ignore_index of [undefined, -1, 2]) {
        const a = { reduction, weight, ...(ignore_index === undefined ? {} : { ignore_index }) };
        await agree('NegativeLogLikelihoodLoss', [5, 4], a);
        await agree('NegativeLogLikelihoodLoss', [2, 5, 3, 2], { ...a, tdt: INT32 });
      }
});

test('SoftmaxCrossEntropyLoss: the default mean, log_prob, weights, ignore_index', async () => {
  await agree('SoftmaxCrossEntropyLoss', [6, 5], {});
  await agree('SoftmaxCrossEntropyLoss', [6, 5], { logProb: true, weight: true, ignore_index: 1 });
  await agree('SoftmaxCrossEntropyLoss', [2, 4, 3], { reduction: 'none', logProb: true, ignore_index: -5 });
  await agree('SoftmaxCrossEntropyLoss', [2, 4, 3, 2], { reduction: 'sum', weight: true, tdt: INT32 });
});

test('a target outside [0, C) is an error with a message; the session stays usable; bad attributes refused', async () => {
  const h = rt.load(convert(model('NegativeLogLikelihoodLoss', [3, 4], INT64, { reduction: 'sum' })).holo);
  try {
    const x = rand(12);
    for (const bad of [4n, -1n, 99n]) {
      assert.throws(() => h.run({ x: { data: x, shape: [3, 4] }, t: { data: BigInt64Array.from([0n, bad, 1n]), shape: [3] } }), /GatherElements: index (4|99) at position 1 is out of range for axis 1 of size 4/);
    }
    const ok = h.run({ x: { data: x, shape: [3, 4] }, t: { data: BigInt64Array.from([0n, 3n, 1n]), shape: [3] } }).y.data[0];
    assert.ok(Math.abs(ok + (x[0] + x[7] + x[9])) < 1e-6, `sum ${ok}`);
  } finally {
    h.dispose();
  }
  assert.throws(() => convert(model('NegativeLogLikelihoodLoss', [3, 4], INT64, { reduction: 'max' })), /reduction must be one of none, sum, mean/);
  assert.throws(() => convert(model('NegativeLogLikelihoodLoss', [3, 4], FLOAT, {})), /target must be int32 or int64/);
});

test.run();
