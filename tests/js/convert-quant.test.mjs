// QuantizeLinear / DequantizeLinear / DynamicQuantizeLinear
// (compiler/onnx-ops-quant.js) against onnxruntime-node: per-tensor and
// per-axis, int8/uint8 (and int32 dequantized), opsets 10/13/18 (the
// converter's maximum; 16-bit types arrive with opset 21); integer outputs must
// be equal, not close. Values sit on and near the .5 ties so rounding and
// saturation are exercised. A blocked scale is a refusal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, rand, close } from './onnx-build.mjs';

const rt = await init();
const UINT8 = 2, INT8 = 3;
const ORT = { 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32' };
const ARR = { 1: Float32Array, 2: Uint8Array, 3: Int8Array, 4: Uint16Array, 5: Int16Array, 6: Int32Array };
const numel = (s) => s.reduce((a, d) => a * d, 1);

async function agree(bytes, feeds, outs, exact, what) {
  const want = await (await ort.InferenceSession.create(bytes)).run(
    Object.fromEntries(Object.entries(feeds).map(([k, [dt, data, shape]]) => [k, new ort.Tensor(ORT[dt], data, shape)])));
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }])));
    for (const k of outs) {
      assert.equal([...got[k].shape], [...want[k].dims].map(Number), `${what} ${k}: shape`);
      const a = [...got[k].data], b = [...want[k].data];
      if (exact) assert.equal(a, b, `${what} ${k}`);
      else assert.ok(close(got[k].data, want[k].data, 1e-6, 1e-7), `${what} ${k}: ${a.slice(0, 4)} vs ${b.slice(0, 4)}`);
    }
  } finally {
    h.dispose();
  }
}

// x spans well past the quantized range and includes exact ties (k + 0.5) * scale.
function inputs(n, scale) {
  const x = rand(n, 300 * scale);
  for (let i = 0; i < n; i += 4) x[i] = (Math.round(x[i] / scale) + 0.5) * scale;
  return x;
}

function qModel(opset, xs, qdt, scaleShape, axis, withZp, scales, zps) {
  const b = new OnnxBuilder(opset);
  b.input('x', FLOAT, xs);
  b.init('s', FLOAT, scaleShape, scales);
  if (withZp) b.init('z', qdt, scaleShape, zps);
  b.node('QuantizeLinear', withZp ? ['x', 's', 'z'] : ['x', 's'], ['y'], axis === undefined ? {} : { axis });
  b.output('y', qdt, null);
  return b.bytes();
}

const RANGE = { 2: [0, 255], 3: [-128, 127], 4: [0, 65535], 5: [-32768, 32767] };
const zpsFor = (dt, n) => Array.from({ length: n }, (_, i) => (dt === 2 ? 3 + 40 * i : -20 + 17 * i) % (dt > 3 ? 30000 : 120));

test('QuantizeLinear: per-tensor and per-axis, 8 and 16 bit, opsets 10, 13, 18', async () => {
  for (const [opset, dts] of [[10, [UINT8, INT8]], [13, [UINT8, INT8]], [18, [UINT8, INT8]]])
    for (const qdt of dts) {
      const big = qdt > 3 ? 128 : 1;
      const x = inputs(24, 0.05 / big);
      await agree(qModel(opset, [2, 3, 4], qdt, [], undefined, true, [0.05 / big], zpsFor(qdt, 1)), { x: [FLOAT, x, [2, 3, 4]] }, ['y'], true, `Q${opset} ${ORT[qdt]} tensor`);
      if (opset >= 13) {
        for (const axis of [0, 1, -1]) {
          const xs = [2, 3, 4], d = xs.at(axis);
          const sc = Array.from({ length: d }, (_, i) => (0.03 + 0.02 * i) / big);
          await agree(qModel(opset, xs, qdt, [d], axis, true, sc, zpsFor(qdt, d)), { x: [FLOAT, x, xs] }, ['y'], true, `Q${opset} ${ORT[qdt]} axis ${axis}`);
        }
      }
    }
  // no zero point: uint8
  const x = inputs(12, 0.1);
  await agree(qModel(13, [3, 4], UINT8, [], undefined, false, [0.1]), { x: [FLOAT, x, [3, 4]] }, ['y'], true, 'Q13 no zp');
});

function dqModel(opset, xs, qdt, scaleShape, axis, withZp, scales, zps) {
  const b = new OnnxBuilder(opset);
  b.input('x', qdt, xs);
  b.init('s', FLOAT, scaleShape, scales);
  if (withZp) b.init('z', qdt, scaleShape, zps);
  b.node('DequantizeLinear', withZp ? ['x', 's', 'z'] : ['x', 's'], ['y'], axis === undefined ? {} : { axis });
  b.output('y', FLOAT, null);
  return b.bytes();
}

test('DequantizeLinear: per-tensor and per-axis, 8/32 bit', async () => {
  for (const [opset, dts] of [[10, [UINT8, INT8, INT32]], [13, [UINT8, INT8, INT32]], [18, [UINT8, INT8]]])
    for (const qdt of dts) {
      const xs = [3, 5], n = numel(xs);
      const lo = qdt === INT32 ? -1e6 : RANGE[qdt][0], hi = qdt === INT32 ? 1e6 : RANGE[qdt][1];
      const x = ARR[qdt].from({ length: n }, (_, i) => Math.round(lo + ((hi - lo) * ((i * 7) % n)) / (n - 1)));
      const zp = qdt !== INT32;
      await agree(dqModel(opset, xs, qdt, [], undefined, zp, [0.0731], zpsFor(qdt, 1)), { x: [qdt, x, xs] }, ['y'], false, `DQ${opset} ${ORT[qdt]} tensor`);
      if (opset >= 13)
        for (const axis of [0, 1]) {
          const d = xs[axis], sc = Array.from({ length: d }, (_, i) => 0.01 + 0.37 * i);
          await agree(dqModel(opset, xs, qdt, [d], axis, zp, sc, zpsFor(qdt, d)), { x: [qdt, x, xs] }, ['y'], false, `DQ${opset} ${ORT[qdt]} axis ${axis}`);
        }
    }
});

test('DynamicQuantizeLinear: scale, zero point and values equal onnxruntime', async () => {
  const cases = [
    [[4, 6], 1, 0], [[2, 3, 5], 3, 0.5], [[7], 1, -2], [[3, 3], 1, 2], [[5], 0, 0],
  ];
  for (const [xs, amp, shift] of cases) {
    const b = new OnnxBuilder(11);
    b.input('x', FLOAT, xs);
    b.node('DynamicQuantizeLinear', ['x'], ['y', 's', 'z']);
    b.output('y', UINT8, null).output('s', FLOAT, null).output('z', UINT8, null);
    const x = rand(numel(xs), amp).map((v) => v + shift);
    await agree(b.bytes(), { x: [FLOAT, x, xs] }, ['y', 's', 'z'], true, `DQL ${JSON.stringify(xs)} ${amp} ${shift}`);
  }
});

test('refusals: a blocked (rank-2) scale and an int32 zero point say so', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 4]).init('s', FLOAT, [2, 2], [1, 1, 1, 1]);
  b.node('QuantizeLinear', ['x', 's'], ['y'], { axis: 1 });
  b.output('y', UINT8, null);
  assert.throws(() => convert(b.bytes()), /blocked/);
  const c = new OnnxBuilder(13);
  c.input('x', INT32, [2, 4]).init('s', FLOAT, [], [1]).init('z', INT32, [], [0]);
  c.node('DequantizeLinear', ['x', 's', 'z'], ['y']);
  c.output('y', FLOAT, null);
  assert.throws(() => convert(c.bytes()), /int32 DequantizeLinear takes no zero point/);
});

test.run();
