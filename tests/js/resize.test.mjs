// Resize (operators/resize.c, compiler/onnx-ops-resize.js) against
// onnxruntime-node on the shapes exporters write: N and C kept, H and W
// resized up and down by sizes and by scales, every mode and coordinate
// transform torch and tf emit; Upsample-9 and Resize-10 through the legacy
// mapping; the shapes told.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, rand, close } from './onnx-build.mjs';

const rt = await init();
// even H and W: scales 0.5 give whole lengths, where onnxruntime and the ONNX
// reference agree (they differ at fractional in * scale under align_corners:
// docs/conformance.md; the conformance suite holds us to the reference there)
const X = [2, 3, 6, 8];

function model(opset, attrs, { sizes, scales } = {}) {
  const b = new OnnxBuilder(opset);
  b.input('x', FLOAT, X);
  if (sizes) b.init('sizes', INT64, [4], sizes.map(BigInt));
  if (scales) b.init('scales', FLOAT, [4], scales);
  if (opset === 10) b.node('Resize', ['x', 'scales'], ['y'], attrs);
  else b.node('Resize', sizes ? ['x', '', '', 'sizes'] : ['x', '', 'scales'], ['y'], attrs);
  b.output('y', FLOAT, null);
  return b.bytes();
}

async function agree(bytes, what) {
  const x = rand(X.reduce((a, d) => a * d, 1), 3);
  const s = await ort.InferenceSession.create(bytes);
  const want = (await s.run({ x: new ort.Tensor('float32', x, X) })).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run({ x: { data: x, shape: X } }).y;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    let worst = 0;
    for (let i = 0; i < got.data.length; i++) worst = Math.max(worst, Math.abs(got.data[i] - want.data[i]));
    assert.ok(close(got.data, want.data, 1e-5, 1e-5), `${what}: values (max |diff| ${worst})`);
  } finally {
    h.dispose();
  }
}

const CASES = [
  ['linear', 'half_pixel'], ['linear', 'pytorch_half_pixel'], ['linear', 'align_corners'], ['linear', 'asymmetric'],
  ['nearest', 'asymmetric', 'floor'], ['nearest', 'half_pixel', 'round_prefer_floor'], ['nearest', 'tf_half_pixel_for_nn', 'round_prefer_ceil'],
  ['nearest', 'align_corners', 'round_prefer_ceil'], ['cubic', 'half_pixel'], ['cubic', 'align_corners'],
];
for (const [mode, coord, nearest] of CASES) {
  const attrs = { mode, coordinate_transformation_mode: coord, ...(nearest ? { nearest_mode: nearest } : {}) };
  test(`Resize-13 ${mode} ${coord}${nearest ? ' ' + nearest : ''}: sizes up and down, scales 2x and 0.5x`, async () => {
    await agree(model(13, attrs, { sizes: [2, 3, 11, 5] }), 'sizes [11, 5]');
    await agree(model(13, attrs, { scales: [1, 1, 2, 2] }), 'scales 2x');
    await agree(model(13, attrs, { scales: [1, 1, 0.5, 0.5] }), 'scales 0.5x');
  });
}

test('Resize-10 and Upsample-9 are asymmetric with floor nearest', async () => {
  await agree(model(10, { mode: 'nearest' }, { scales: [1, 1, 2, 3] }), 'Resize-10 nearest');
  await agree(model(10, { mode: 'linear' }, { scales: [1, 1, 2, 2] }), 'Resize-10 linear');
  const b = new OnnxBuilder(9);
  b.input('x', FLOAT, X).init('scales', FLOAT, [4], [1, 1, 2, 2]);
  b.node('Upsample', ['x', 'scales'], ['y'], { mode: 'nearest' });
  b.output('y', FLOAT, null);
  await agree(b.bytes(), 'Upsample-9');
});

test('the output shape is told for constant sizes and scales (antialias and the policies: resize-antialias.test.mjs)', () => {
  const { report } = convert(model(13, { mode: 'linear' }, { scales: [1, 1, 2, 0.5] }));
  assert.equal(report.outputs[0].shape, [2, 3, 12, 4]);
});

test.run();
