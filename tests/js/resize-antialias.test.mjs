// Resize-18's antialias = 1 and keep_aspect_ratio_policy (operators/resize.c,
// resize-taps.c, compiler/onnx-ops-resize.js; docs/decisions.md 100) against
// onnxruntime-node 1.30: linear and cubic, downscaling (the widened filter)
// and upscaling (the plain interpolation), torchvision's NCHW image shapes,
// 4-D inputs whose N and C are kept, float32 (within 1e-5; cubic within 1e-5
// of the inputs' scale) and uint8 (equal but for at most 2% within 1: both
// round after each axis's pass, but onnxruntime's weights are quantized to
// 2^-22, so where the exact sum is a half, as linear upsampling's k/40
// weights make it, the two may round apart; 6 of 900 here), exclude_outside on and
// off, the transforms that move the filter's centre, the aspect-ratio
// policies over axes subsets, and the output shapes the converter tells.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, F, rand, close } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const UINT8 = 2;
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(xs, attrs, { sizes, scales, dtype = FLOAT, opset = 18 }) {
  const b = new OnnxBuilder(opset);
  b.input('x', dtype, xs);
  const n = (sizes ?? scales).length;
  if (sizes) b.init('sizes', INT64, [n], sizes.map(BigInt));
  if (scales) b.init('scales', FLOAT, [n], scales);
  b.node('Resize', sizes ? ['x', '', '', 'sizes'] : ['x', '', 'scales'], ['y'], attrs);
  b.output('y', dtype, null);
  return b.bytes();
}

/** hologram and onnxruntime on one model: the shapes must agree; returns both outputs. */
async function both(bytes, xs, x) {
  const type = x instanceof Uint8Array ? 'uint8' : 'float32';
  const want = (await (await ort.InferenceSession.create(bytes)).run({ x: new ort.Tensor(type, x, xs) })).y;
  const { holo, report } = convert(bytes);
  const h = rt.load(holo);
  try {
    const got = h.run({ x: { data: x, shape: xs } }).y;
    assert.equal([...got.shape], [...want.dims].map(Number), 'shape');
    assert.equal(report.outputs[0].shape, [...want.dims].map(Number), 'the converter\'s shape');
    return { got: got.data, want: want.data };
  } finally {
    h.dispose();
  }
}

async function agreeF32(what, xs, attrs, target, x = rand(numel(xs), 3)) {
  const { got, want } = await both(model(xs, attrs, target), xs, x);
  let worst = 0;
  for (let i = 0; i < got.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
  // onnxruntime sums in f32; cubic's negative lobes cancel, so its error is
  // relative to the inputs (±3 here), not to the output: 1e-5 of 3 (plain
  // cubic, with or without a policy, is ~2e-5 off hologram's double sum)
  const tol = attrs.mode === 'cubic' ? 3e-5 : 1e-5;
  assert.ok(close(got, want, tol, tol), `${what}: values (max |diff| ${worst})`);
  return got;
}

async function agreeU8(what, xs, attrs, target) {
  let s = 7;
  const x = Uint8Array.from({ length: numel(xs) }, () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 16) & 255);
  const { got, want } = await both(model(xs, attrs, { ...target, dtype: UINT8 }), xs, x);
  let off = 0;
  for (let i = 0; i < got.length; i++) {
    const d = Math.abs(got[i] - want[i]);
    assert.ok(d <= 1, `${what}: output ${i} is ${got[i]}, onnxruntime ${want[i]}`);
    off += d;
  }
  // the ±1 are the rare sums near a half, not a systematic shift
  assert.ok(off <= Math.max(2, got.length * 0.02), `${what}: ${off} of ${got.length} outputs differ by 1`);
}

const IMG = [1, 3, 64, 48];

test('antialias linear and cubic downscale an NCHW image as onnxruntime (torchvision\'s export)', async () => {
  for (const mode of ['linear', 'cubic'])
    for (const coord of ['half_pixel', 'pytorch_half_pixel', 'align_corners', 'asymmetric'])
      for (const exclude of [0, 1]) {
        const attrs = { mode, antialias: 1, coordinate_transformation_mode: coord, exclude_outside: exclude };
        const what = `${mode} ${coord} exclude_outside=${exclude}`;
        await agreeF32(`${what} sizes [23, 17]`, IMG, attrs, { sizes: [1, 3, 23, 17] });
        await agreeF32(`${what} sizes [32, 7] by axes`, IMG, { ...attrs, axes: [2, 3] }, { sizes: [32, 7] });
        await agreeF32(`${what} scales 0.5`, IMG, attrs, { scales: [1, 1, 0.5, 0.5] });
      }
  // torchvision's cubic is cubic_coeff_a -0.5 with exclude_outside 0
  await agreeF32('cubic a=-0.5', IMG, { mode: 'cubic', antialias: 1, cubic_coeff_a: F(-0.5) }, { sizes: [1, 3, 23, 17] });
  // a strong downscale: windows of 2 * 8 + 1 (cubic, 1/4) along both axes
  await agreeF32('cubic 1/4', [1, 2, 64, 64], { mode: 'cubic', antialias: 1 }, { sizes: [1, 2, 16, 16] });
});

test('antialias when upscaling is the plain interpolation; one axis down, one up', async () => {
  for (const mode of ['linear', 'cubic']) {
    const x = rand(2 * 9 * 7, 3);
    const plain = await agreeF32(`${mode} up`, [1, 2, 9, 7], { mode }, { sizes: [1, 2, 20, 15] }, x);
    const aa = await agreeF32(`${mode} up antialias`, [1, 2, 9, 7], { mode, antialias: 1 }, { sizes: [1, 2, 20, 15] }, x);
    assert.equal([...aa], [...plain], `${mode}: antialias changes nothing when upscaling`);
    await agreeF32(`${mode} down H, up W`, [1, 2, 30, 7], { mode, antialias: 1 }, { sizes: [1, 2, 11, 16] });
  }
  // nearest ignores antialias (onnxruntime refuses it: the spec only widens linear and cubic)
  const b = model([1, 1, 8, 8], { mode: 'nearest', antialias: 1 }, { sizes: [1, 1, 3, 3] });
  const h = rt.load(convert(b).holo);
  const plain = rt.load(convert(model([1, 1, 8, 8], { mode: 'nearest' }, { sizes: [1, 1, 3, 3] })).holo);
  try {
    const x = rand(64);
    assert.equal([...h.run({ x: { data: x, shape: [1, 1, 8, 8] } }).y.data], [...plain.run({ x: { data: x, shape: [1, 1, 8, 8] } }).y.data]);
  } finally {
    h.dispose();
    plain.dispose();
  }
});

test('antialias on 2-D and on 4-D inputs whose N and C are kept', async () => {
  await agreeF32('2-D linear', [40, 30], { mode: 'linear', antialias: 1 }, { sizes: [13, 11] });
  await agreeF32('2-D cubic', [40, 30], { mode: 'cubic', antialias: 1 }, { scales: [0.3, 0.6] });
  await agreeF32('4-D batch of 2, 5 channels', [2, 5, 33, 21], { mode: 'linear', antialias: 1 }, { sizes: [2, 5, 10, 9] });
  await agreeF32('4-D only W', [2, 3, 8, 40], { mode: 'cubic', antialias: 1, axes: [3] }, { sizes: [13] });
});

test('antialias uint8: within 1 of onnxruntime\'s fixed point', async () => {
  for (const mode of ['linear', 'cubic'])
    for (const exclude of [0, 1]) {
      const attrs = { mode, antialias: 1, exclude_outside: exclude };
      await agreeU8(`${mode} exclude_outside=${exclude} [23, 17]`, IMG, attrs, { sizes: [1, 3, 23, 17] });
      await agreeU8(`${mode} exclude_outside=${exclude} 0.5`, IMG, attrs, { scales: [1, 1, 0.5, 0.5] });
    }
  await agreeU8('linear up', [1, 3, 9, 7], { mode: 'linear', antialias: 1 }, { sizes: [1, 3, 20, 15] });
  await agreeU8('cubic a=-0.5, 1/3', [1, 3, 60, 45], { mode: 'cubic', antialias: 1, cubic_coeff_a: F(-0.5) }, { sizes: [1, 3, 20, 15] });
  await agreeU8('linear axes [2, 3]', IMG, { mode: 'linear', antialias: 1, axes: [2, 3] }, { sizes: [23, 17] });
});

test('keep_aspect_ratio_policy not_larger / not_smaller over axes subsets', async () => {
  for (const policy of ['not_larger', 'not_smaller'])
    for (const mode of ['nearest', 'linear', 'cubic'])
      for (const antialias of mode === 'nearest' ? [0] : [0, 1]) {
        const attrs = { mode, antialias, keep_aspect_ratio_policy: policy };
        const what = `${policy} ${mode} antialias=${antialias}`;
        // in [64, 48], sizes [23, 23]: scale 23/64 (not_larger: W 17.25 -> 17) or 23/48 (not_smaller: H 30.67 -> 31)
        await agreeF32(`${what} axes [2, 3]`, IMG, { ...attrs, axes: [2, 3] }, { sizes: [23, 23] });
        await agreeF32(`${what} axes [3, 2]`, IMG, { ...attrs, axes: [3, 2] }, { sizes: [40, 20] });
        await agreeF32(`${what} pytorch_half_pixel up`, [1, 2, 10, 6], { ...attrs, axes: [2, 3], coordinate_transformation_mode: 'pytorch_half_pixel' }, { sizes: [25, 25] });
        // all axes (no axes attribute): N and C take the scale too where it keeps them at 1 and 3
        if (mode !== 'nearest') continue;
        await agreeF32(`${what} every axis`, [1, 3, 20, 10], attrs, { sizes: [1, 3, 31, 31] });
      }
  // a 3-D input, the policy over its last two axes: the first kept
  await agreeF32('not_smaller 3-D', [3, 12, 20], { mode: 'nearest', keep_aspect_ratio_policy: 'not_smaller', axes: [1, 2] }, { sizes: [5, 5] });
});

test('the converter tells the policy\'s output shape and refuses invalid values', () => {
  const { report } = convert(model(IMG, { mode: 'linear', keep_aspect_ratio_policy: 'not_larger', axes: [2, 3] }, { sizes: [23, 23] }));
  assert.equal(report.outputs[0].shape, [1, 3, 23, 17]);
  const r2 = convert(model(IMG, { mode: 'linear', keep_aspect_ratio_policy: 'not_smaller', axes: [2, 3] }, { sizes: [23, 23] })).report;
  assert.equal(r2.outputs[0].shape, [1, 3, 31, 23]);
  // the policy applies to sizes; with scales onnx's shape inference (and onnxruntime) refuse the model
  assert.throws(() => convert(model(IMG, { mode: 'linear', keep_aspect_ratio_policy: 'not_larger' }, { scales: [1, 1, 0.5, 0.25] })), /scales with keep_aspect_ratio_policy 'not_larger' is not valid/);
  assert.throws(() => convert(model(IMG, { mode: 'linear', antialias: 2 }, { scales: [1, 1, 0.5, 0.5] })), /antialias must be 0 or 1/);
  assert.throws(() => convert(model(IMG, { mode: 'linear', keep_aspect_ratio_policy: 'fit' }, { sizes: [1, 3, 5, 5] })), /keep_aspect_ratio_policy 'fit' is not valid/);
});

test.run();
