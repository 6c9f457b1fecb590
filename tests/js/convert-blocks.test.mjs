// Col2Im and DeformConv (compiler/onnx-ops-blocks.js) against
// onnxruntime-node 1.30's CPU kernels on one-node models over their
// attribute space. Col2Im must give onnxruntime's bytes (same additions in
// the same order); DeformConv's sampled columns are onnxruntime's and only
// the GEMM's summation order differs, so it is held to 1e-5 of max |ref|.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, rand } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const i64 = (a) => BigInt64Array.from(a.map(BigInt));

// feeds: { name: [shape, data] }; returns [hologram output, onnxruntime output]
async function both(bytes, feeds) {
  const of = {}, hf = {};
  for (const [k, [s, d]] of Object.entries(feeds)) { of[k] = new ort.Tensor('float32', d, s); hf[k] = { data: d, shape: s }; }
  const want = (await (await ort.InferenceSession.create(bytes)).run(of)).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(hf).y;
    assert.equal([...got.shape], [...want.dims].map(Number), 'shape');
    return [got.data, want.data];
  } finally { h.dispose(); }
}

function col2im(xs, img, blk, attrs, { symbolicN = false } = {}) {
  const b = new OnnxBuilder(18);
  b.input('x', FLOAT, symbolicN ? ['N', ...xs.slice(1)] : xs);
  b.init('img', INT64, [img.length], i64(img)).init('blk', INT64, [blk.length], i64(blk));
  b.node('Col2Im', ['x', 'img', 'blk'], ['y'], attrs).output('y', FLOAT, null);
  return b.bytes();
}

const blocks = (img, blk, { dilations, pads, strides } = {}) => {
  const r = img.length;
  return img.reduce((a, d, i) => a * (Math.floor((d + (pads?.[i] ?? 0) + (pads?.[r + i] ?? 0) - ((dilations?.[i] ?? 1) * (blk[i] - 1) + 1)) / (strides?.[i] ?? 1)) + 1), 1);
};

test('Col2Im: 1-D, 2-D, 3-D; strides, pads, dilations, channels, batch: onnxruntime bytes', async () => {
  const cases = [
    [2, 3, [5, 5], [2, 2], {}],
    [1, 1, [4, 6], [3, 2], { strides: [1, 2] }],
    [2, 2, [6, 5], [2, 3], { pads: [1, 0, 2, 1] }],
    [1, 3, [7, 7], [3, 3], { dilations: [2, 1] }],
    [1, 2, [9, 8], [3, 2], { dilations: [2, 2], pads: [1, 2, 1, 0], strides: [2, 3] }],
    [1, 2, [5, 5], [1, 1], { strides: [2, 2] }], // pixels no block reaches stay 0
    [2, 1, [10], [3], { strides: [2], pads: [1, 2] }],
    [1, 2, [4, 3, 5], [2, 2, 3], { strides: [1, 1, 2], pads: [0, 1, 0, 1, 0, 1] }],
  ];
  for (const [N, C, img, blk, attrs] of cases) {
    const K = blk.reduce((a, d) => a * d, 1), L = blocks(img, blk, attrs);
    const xs = [N, C * K, L];
    const [got, want] = await both(col2im(xs, img, blk, attrs), { x: [xs, rand(N * C * K * L, 3)] });
    assert.equal(Buffer.from(got.buffer, got.byteOffset, got.byteLength), Buffer.from(want.buffer, want.byteOffset, want.byteLength), `bytes of ${JSON.stringify([N, C, img, blk, attrs])}`);
  }
  assert.is(cases.length, 8);
});

test('Col2Im: a symbolic batch dim', async () => {
  const xs = [3, 2 * 4, 16];
  const [got, want] = await both(col2im(xs, [5, 5], [2, 2], {}, { symbolicN: true }), { x: [xs, rand(3 * 8 * 16, 1)] });
  assert.equal([...got], [...want]);
});

test('Col2Im: the forms it cannot take are refused by name', () => {
  const refuses = (bytes, re) => assert.throws(() => convert(bytes), re);
  refuses(col2im([1, 5, 16], [5, 5], [2, 2], {}), /Col2Im: input dim 1 \(5\) must be a known multiple of prod\(block_shape\) = 4/);
  refuses(col2im([1, 4, 15], [5, 5], [2, 2], {}), /Col2Im: input dim 2 is 15, the blocks of image_shape \[5,5\] number 16/);
  refuses(col2im([1, 4, 1], [1, 1], [2, 2], {}), /Col2Im: the blocks \[2,2\] do not fit the padded image \[1,1\]/);
  refuses(col2im([1, 4, 16], [5, 5], [2, 2], { strides: [1] }), /Col2Im: dilations \/ strides need 2 values and pads 4/);
  const b = new OnnxBuilder(18);
  b.input('x', FLOAT, [1, 4, 16]).input('img', INT64, [2]).init('blk', INT64, [2], i64([2, 2]));
  b.node('Col2Im', ['x', 'img', 'blk'], ['y']).output('y', FLOAT, null);
  refuses(b.bytes(), /Col2Im: image_shape must be a constant int64 tensor/);
});

test.run();
