// LpPool, GlobalLpPool and CenterCropPad (compiler/onnx-ops-lppool.js)
// against onnxruntime-node's CPU kernels, within 1e-5 * max|ref| (float32);
// the unsupported forms are refused by name and the converter stays usable.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, rand } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const TOL = 1e-5;

function model(op, xs, attrs, opset = 18, extra) {
  const b = new OnnxBuilder(opset);
  b.input('x', FLOAT, xs);
  const ins = ['x'];
  if (extra) { b.init('shape', INT64, [extra.length], BigInt64Array.from(extra.map(BigInt))); ins.push('shape'); }
  b.node(op, ins, ['y'], attrs).output('y', FLOAT, null);
  return b.bytes();
}

async function diff(bytes, xs) {
  const data = rand(xs.reduce((a, d) => a * d, 1), 2);
  const want = (await (await ort.InferenceSession.create(bytes)).run({ x: new ort.Tensor('float32', data, xs) })).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = Object.values(h.run({ x: { data, shape: xs } }))[0]; // an Identity output may keep the input's name
    assert.equal([...got.shape], [...want.dims].map(Number), 'shape');
    const max = Math.max(1e-30, ...[...want.data].map(Math.abs));
    let r = 0;
    for (let i = 0; i < want.data.length; i++) r = Math.max(r, Math.abs(got.data[i] - want.data[i]) / max);
    return r;
  } finally { h.dispose(); }
}
const agree = async (what, op, xs, attrs, opset, extra) => {
  const r = await diff(model(op, xs, attrs, opset, extra), xs);
  assert.ok(r <= TOL, `${what}: max |diff| / max |ref| = ${r}`);
};

test('LpPool: p 1/2/3, 2-D and 1-D, strides, pads, auto_pad, dilations vs onnxruntime', async () => {
  let cases = 0;
  for (const p of [1, 2, 3]) {
    for (const opset of [11, 18]) {
      await agree(`2-D p=${p} opset ${opset}`, 'LpPool', [1, 3, 6, 7], { p, kernel_shape: [2, 3] }, opset);
      await agree(`2-D strides pads p=${p}`, 'LpPool', [2, 2, 7, 6], { p, kernel_shape: [3, 2], strides: [2, 1], pads: [1, 0, 1, 1] }, opset);
      await agree(`2-D SAME_UPPER p=${p}`, 'LpPool', [1, 2, 5, 5], { p, kernel_shape: [3, 3], strides: [2, 2], auto_pad: 'SAME_UPPER' }, opset);
      await agree(`1-D p=${p}`, 'LpPool', [1, 3, 9], { p, kernel_shape: [3], strides: [2], pads: [1, 1] }, opset);
      cases += 4;
    }
    await agree(`2-D dilations p=${p}`, 'LpPool', [1, 2, 7, 7], { p, kernel_shape: [2, 2], dilations: [2, 2] }, 18);
    await agree(`default p (2)`, 'LpPool', [1, 2, 5, 5], { kernel_shape: [2, 2] }, 18);
    cases += 2;
  }
  assert.is(cases, 30);
});

test('GlobalLpPool: p 1/2/3 on 4-D and 3-D inputs vs onnxruntime', async () => {
  for (const p of [1, 2, 3]) {
    await agree(`4-D p=${p}`, 'GlobalLpPool', [2, 3, 4, 5], { p });
    await agree(`3-D p=${p}`, 'GlobalLpPool', [2, 3, 7], { p }, 11);
  }
  await agree('default p', 'GlobalLpPool', [1, 2, 3, 3], {});
});

test('CenterCropPad: crop, pad, mixed, with and without axes vs onnxruntime', async () => {
  await agree('crop all', 'CenterCropPad', [3, 8, 7], {}, 18, [2, 5, 4]);
  await agree('pad all', 'CenterCropPad', [2, 3, 3], {}, 18, [3, 6, 8]);
  await agree('mixed', 'CenterCropPad', [2, 7, 4], {}, 18, [2, 4, 7]);
  await agree('axes', 'CenterCropPad', [2, 7, 4], { axes: [1, 2] }, 18, [3, 9]);
  await agree('negative axes', 'CenterCropPad', [2, 7, 4], { axes: [-1, -3] }, 18, [1, 5]);
  await agree('unchanged', 'CenterCropPad', [2, 3], {}, 18, [2, 3]);
});

test('LpPool/GlobalLpPool/CenterCropPad refuse the unsupported forms by name', async () => {
  const refuses = (bytes, re) => assert.throws(() => convert(bytes), re);
  refuses(model('LpPool', [1, 2, 5, 5], { kernel_shape: [2, 2], ceil_mode: 1 }), /LpPool: ceil_mode=1 is not supported/);
  refuses(model('LpPool', [1, 2, 5, 5], { kernel_shape: [2, 2], p: 0 }), /LpPool: p = 0 is not supported/);
  refuses(model('LpPool', [1, 2, 5, 5], { p: 2 }), /LpPool: required attribute 'kernel_shape' is missing/);
  refuses(model('LpPool', [1, 2, 5, 5], { kernel_shape: [2, 2] }, 1), /LpPool-1 has a float `p`/);
  refuses(model('GlobalLpPool', [1, 2, 5, 5], {}, 1), /GlobalLpPool-1 has a float `p`/);
  const b = new OnnxBuilder(18);
  b.input('x', FLOAT, [2, 4]).input('s', INT64, [2]).node('CenterCropPad', ['x', 's'], ['y']).output('y', FLOAT, null);
  refuses(b.bytes(), /CenterCropPad: a shape input that is not a constant \(initializer\) is not supported/);
  // still usable
  await agree('after refusals', 'LpPool', [1, 2, 5, 5], { p: 2, kernel_shape: [2, 2] }, 18);
});

test.run();
