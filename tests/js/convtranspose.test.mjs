// ConvTranspose (operators/convtranspose.c) against onnxruntime-node on
// the forms exporters write: U-Net's 2x2 stride-2 up-convolution, 3x3
// stride 2 with padding and output_padding, groups, dilations, 1-D and 3-D,
// output_shape, auto_pad, no bias; and the 1-thread/2-thread bytes equal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, rand, close } from './onnx-build.mjs';

const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(xs, ws, attrs, bias = true) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, xs).init('w', FLOAT, ws, rand(numel(ws), 0.5));
  const M = ws[1] * (attrs.group ?? 1);
  if (bias) b.init('b', FLOAT, [M], rand(M, 0.1));
  b.node('ConvTranspose', bias ? ['x', 'w', 'b'] : ['x', 'w'], ['y'], attrs);
  b.output('y', FLOAT, null);
  return b.bytes();
}

async function agree(xs, ws, attrs, bias) {
  const bytes = model(xs, ws, attrs, bias);
  const x = rand(numel(xs));
  const s = await ort.InferenceSession.create(bytes);
  const want = (await s.run({ x: new ort.Tensor('float32', x, xs) })).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run({ x: { data: x, shape: xs } }).y;
    assert.equal([...got.shape], [...want.dims].map(Number), `${JSON.stringify(attrs)}: shape`);
    assert.ok(close(got.data, want.data, 1e-5, 1e-5), `${JSON.stringify(attrs)}: values`);
  } finally {
    h.dispose();
  }
}

test('2-D: the U-Net up-convolution, padded with output_padding, groups, dilations, no bias', async () => {
  await agree([1, 8, 6, 5], [8, 4, 2, 2], { strides: [2, 2] });
  await agree([2, 4, 5, 5], [4, 3, 3, 3], { strides: [2, 2], pads: [1, 1, 1, 1], output_padding: [1, 1] });
  await agree([1, 6, 4, 7], [6, 2, 3, 3], { group: 3, strides: [2, 1], pads: [0, 1, 1, 0] });
  await agree([1, 2, 5, 4], [2, 3, 3, 2], { dilations: [2, 3], strides: [1, 2] }, false);
});

test('1-D and 3-D; output_shape and auto_pad choose the padding', async () => {
  await agree([1, 3, 9], [3, 5, 4], { strides: [3], pads: [1, 2] });
  await agree([1, 2, 3, 4, 3], [2, 2, 2, 3, 2], { strides: [2, 1, 2] });
  await agree([1, 2, 4, 4], [2, 3, 3, 3], { strides: [2, 2], output_shape: [9, 10] });
  await agree([1, 2, 4, 5], [2, 3, 3, 3], { strides: [2, 2], auto_pad: 'SAME_UPPER' });
});

test('refusals at run time, with a message, the session still usable: group not dividing C, output_padding >= stride', () => {
  for (const [xs, ws, attrs, re] of [
    [[1, 6, 4, 4], [6, 2, 3, 3], { group: 4 }, /group/],
    [[1, 2, 4, 4], [2, 2, 3, 3], { strides: [2, 2], output_padding: [2, 0] }, /output_padding/],
  ]) {
    const h = rt.load(convert(model(xs, ws, attrs)).holo);
    try {
      assert.throws(() => h.run({ x: { data: rand(numel(xs)), shape: xs } }), re);
      assert.throws(() => h.run({ x: { data: rand(numel(xs)), shape: xs } }), re);
    } finally {
      h.dispose();
    }
  }
});

test.run();
