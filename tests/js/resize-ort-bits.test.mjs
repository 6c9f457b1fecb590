// Issue 18's regression: a linear Resize must give onnxruntime-node's bits,
// not merely close values (operators/resize-bilinear.c, decision 52). ISNet's
// quantized model (bench/zoo, isnet_small) upsamples by 2x with sizes and
// feeds the result to DynamicQuantizeLinear: a Resize output 1 ulp off lands
// on the other side of a rounding step, one uint8 differs, and the
// difference grew through 119 quantized convolutions to 10% of the output.
// Here: the bits of Resize (modes, sizes and scales, whole and fractional
// ratios) and the uint8 of a Resize -> DynamicQuantizeLinear block, equal.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, rand } from './onnx-build.mjs';

const rt = await init();
const UINT8 = 2;

function resizeModel(xs, attrs, { sizes, scales }, quantize) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, xs);
  if (sizes) b.init('sizes', INT64, [xs.length], sizes.map(BigInt));
  if (scales) b.init('scales', FLOAT, [xs.length], scales);
  b.node('Relu', ['x'], ['r']);
  b.node('Resize', sizes ? ['r', '', '', 'sizes'] : ['r', '', 'scales'], ['y'], { mode: 'linear', ...attrs });
  b.output('y', FLOAT, null);
  if (quantize) {
    b.node('DynamicQuantizeLinear', ['y'], ['q', 'qs', 'qz']);
    b.output('q', UINT8, null);
    b.output('qs', FLOAT, null);
    b.output('qz', UINT8, null);
  }
  return b.bytes();
}

/** Outputs of onnxruntime and hologram on x; returns the count of elements whose bits differ per output. */
async function differing(bytes, xs, x, outs) {
  const want = await (await ort.InferenceSession.create(bytes)).run({ x: new ort.Tensor('float32', x, xs) });
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run({ x: { data: x, shape: xs } });
    const n = {};
    for (const k of outs) {
      assert.equal([...got[k].shape], [...want[k].dims].map(Number), `${k}: shape`);
      const a = new Uint8Array(got[k].data.buffer, got[k].data.byteOffset, got[k].data.byteLength);
      const b = new Uint8Array(want[k].data.buffer, want[k].data.byteOffset, want[k].data.byteLength);
      const w = got[k].data.BYTES_PER_ELEMENT;
      let d = 0;
      for (let i = 0; i < a.length; i += w)
        for (let j = 0; j < w; j++)
          if (a[i + j] !== b[i + j]) { d++; break; }
      n[k] = d;
    }
    return n;
  } finally {
    h.dispose();
  }
}

const COORDS = ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric', 'tf_half_pixel_for_nn'];
const XS = [1, 4, 24, 20];

test('Resize linear: the bits of onnxruntime, every transform, sizes up/down and scales', async () => {
  const x = rand(XS.reduce((a, d) => a * d, 1), 4);
  for (const coord of COORDS)
    for (const target of [{ sizes: [1, 4, 48, 40] }, { sizes: [1, 4, 37, 13] }, { sizes: [1, 4, 24, 33] }, { scales: [1, 1, 2, 2] }, { scales: [1, 1, 0.5, 0.5] }]) {
      const n = await differing(resizeModel(XS, { coordinate_transformation_mode: coord }, target), XS, x, ['y']);
      assert.is(n.y, 0, `${coord} ${JSON.stringify(target)}: ${n.y} outputs differ in their bits`);
    }
  const x2 = rand(17 * 19, 4);
  const n = await differing(resizeModel([17, 19], {}, { sizes: [34, 38] }), [17, 19], x2, ['y']);
  assert.is(n.y, 0, `rank 2: ${n.y} outputs differ in their bits`);
});

test('Resize 2x -> DynamicQuantizeLinear (ISNet\'s pattern): the same uint8 as onnxruntime', async () => {
  const xs = [1, 32, 64, 64];
  const x = rand(xs.reduce((a, d) => a * d, 1), 3);
  const n = await differing(resizeModel(xs, {}, { sizes: [1, 32, 128, 128] }, true), xs, x, ['y', 'q', 'qs', 'qz']);
  assert.equal(n, { y: 0, q: 0, qs: 0, qz: 0 }, `outputs whose bits differ: ${JSON.stringify(n)}`);
});

test.run();
