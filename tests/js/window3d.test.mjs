// 3-D Conv, MaxPool and AveragePool (compiler/onnx-ops-3d.js: 2-D windows over
// depth slices) against onnxruntime-node: strides, dilations, explicit and
// auto pads, groups, bias, ceil_mode, count_include_pad; the 1-thread and
// 2-thread bytes are equal; the forms it refuses, with their messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, rand, close } from './onnx-build.mjs';

ort.env.logLevel = 'error'; // its own shape inference disagrees with its kernel on a ceil_mode case (see the ceil_mode rows)
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(op, xs, attrs, ws, bias) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, xs);
  const ins = ['x'];
  if (ws) { b.init('w', FLOAT, ws, rand(numel(ws), 0.5)); ins.push('w'); }
  if (bias) { b.init('b', FLOAT, [ws[0]], rand(ws[0], 0.2)); ins.push('b'); }
  b.node(op, ins, ['y'], attrs).output('y', FLOAT, null);
  return b.bytes();
}

async function agree(op, xs, attrs, ws, bias) {
  const bytes = model(op, xs, attrs, ws, bias), x = rand(numel(xs));
  const want = (await (await ort.InferenceSession.create(bytes)).run({ x: new ort.Tensor('float32', x, xs) })).y;
  const holo = convert(bytes).holo, what = `${op} ${JSON.stringify(xs)} ${JSON.stringify(attrs)}`;
  const h = rt.load(holo);
  try {
    const got = h.run({ x: { data: x, shape: xs } }).y;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.ok(close(got.data, want.data, 1e-5, 1e-5), `${what}: values`);
    return got.data;
  } finally {
    h.dispose();
  }
}

test('3-D Conv: strides, dilations, pads, groups, bias, auto_pad', async () => {
  await agree('Conv', [1, 3, 6, 7, 5], {}, [4, 3, 3, 3, 3], true);
  await agree('Conv', [2, 4, 8, 6, 6], { strides: [2, 1, 2], pads: [1, 0, 1, 1, 2, 0], group: 2 }, [6, 2, 3, 2, 3], true);
  await agree('Conv', [1, 4, 7, 6, 5], { dilations: [2, 1, 2], group: 2 }, [4, 2, 2, 3, 2], false);
  await agree('Conv', [1, 2, 5, 5, 5], { auto_pad: 'SAME_UPPER', strides: [2, 2, 2] }, [3, 2, 3, 3, 3], true);
  await agree('Conv', [1, 2, 6, 4, 4], { auto_pad: 'SAME_LOWER' }, [2, 2, 2, 2, 2], false);
  await agree('Conv', [1, 3, 4, 5, 6], { auto_pad: 'VALID', strides: [1, 2, 1] }, [2, 3, 1, 1, 1], true);
});

test('3-D MaxPool and AveragePool: strides, pads, ceil_mode, count_include_pad, dilations', async () => {
  for (const op of ['MaxPool', 'AveragePool']) {
    await agree(op, [1, 2, 6, 6, 6], { kernel_shape: [2, 2, 2] });
    await agree(op, [2, 3, 7, 5, 6], { kernel_shape: [3, 2, 3], strides: [2, 1, 2], pads: [1, 0, 1, 1, 1, 0] });
    await agree(op, [1, 2, 7, 7, 7], { kernel_shape: [3, 3, 3], strides: [2, 2, 2], ceil_mode: 1 });
    await agree(op, [1, 2, 8, 6, 5], { kernel_shape: [3, 3, 2], strides: [3, 2, 2], pads: [1, 1, 0, 1, 1, 1], ceil_mode: 1 });
    await agree(op, [1, 1, 5, 5, 5], { kernel_shape: [2, 3, 2], auto_pad: 'SAME_UPPER' });
  }
  await agree('AveragePool', [1, 2, 6, 5, 6], { kernel_shape: [3, 3, 3], pads: [1, 1, 1, 1, 1, 1], count_include_pad: 1 });
  await agree('AveragePool', [1, 2, 7, 5, 6], { kernel_shape: [3, 2, 3], strides: [2, 2, 2], pads: [1, 0, 1, 2, 1, 1], count_include_pad: 1 });
  await agree('MaxPool', [1, 2, 9, 8, 8], { kernel_shape: [2, 2, 2], dilations: [2, 2, 1], strides: [1, 2, 2] });
});

test('the 2-thread run gives the 1-thread bytes', async () => {
  const bytes = model('Conv', [1, 8, 6, 10, 10], { pads: [1, 1, 1, 1, 1, 1] }, [16, 8, 3, 3, 3], true), x = rand(4800);
  const rt2 = await init(undefined, { threads: 2 });
  const run = (r) => { const h = r.load(convert(bytes).holo); try { return Buffer.from(h.run({ x: { data: x, shape: [1, 8, 6, 10, 10] } }).y.data.buffer); } finally { h.dispose(); } };
  assert.ok(run(rt).equals(run(rt2)));
  rt2.dispose();
});

test('refusals: unknown dims, MaxPool Indices, count_include_pad with ceil_mode', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 2, 'd', 4, 4]).init('w', FLOAT, [2, 2, 1, 1, 1], rand(4)).node('Conv', ['x', 'w'], ['y']).output('y', FLOAT, null);
  assert.throws(() => convert(b.bytes()), /3-D Conv needs the input's C, D, H, W at convert time/);
  assert.throws(() => convert(model('AveragePool', [1, 1, 5, 5, 5], { kernel_shape: [2, 2, 2], strides: [2, 2, 2], ceil_mode: 1, count_include_pad: 1, pads: [1, 1, 1, 1, 1, 1] })), /count_include_pad=1 and ceil_mode=1/);
});

test.run();
