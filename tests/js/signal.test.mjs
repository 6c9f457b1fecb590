// DFT, STFT and MelWeightMatrix (kernels-wasm-simd/operators/dft.c,
// melweight.c) against onnxruntime-node: real and complex input, axes,
// inverse, onesided, dft_length shorter and longer than the signal, STFT
// with a window or a frame_length; STFT of a complex signal against a
// float64 sum written from the definition (onnxruntime-node's differs);
// the refused forms with their messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, INT32, rand, close } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const i64 = (b, name, v) => b.init(name, INT64, [], [BigInt(v)]);

function model(xs, build) {
  const b = new OnnxBuilder(17);
  b.input('x', FLOAT, xs);
  build(b);
  return b.output('y', FLOAT, null).bytes();
}

function holo(bytes, x, xs) {
  const h = rt.load(convert(bytes).holo);
  try {
    return h.run({ x: { data: x, shape: xs } }).y;
  } finally {
    h.dispose();
  }
}

async function agree(what, xs, build) {
  const bytes = model(xs, build), x = rand(numel(xs));
  const want = (await (await ort.InferenceSession.create(bytes)).run({ x: new ort.Tensor('float32', x, xs) })).y;
  const got = holo(bytes, x, xs);
  assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
  assert.ok(close(got.data, want.data, 1e-4, 1e-4), `${what}: values`);
}

test('DFT agrees with onnxruntime-node', async () => {
  for (const [xs, axis] of [[[2, 7, 1], 1], [[2, 8, 2], 1], [[3, 5, 4, 1], 2], [[1, 16, 3, 2], 1], [[2, 6, 5, 1], -2]])
    for (const inverse of [0, 1])
      for (const onesided of [0, 1])
        for (const L of [0, 5, 12]) {
          if (onesided && (inverse || xs.at(-1) === 2)) continue;
          await agree(`DFT ${xs} axis=${axis} inverse=${inverse} onesided=${onesided} L=${L}`, xs, (b) => {
            const ins = ['x'];
            if (L) { i64(b, 'L', L); ins.push('L'); }
            b.node('DFT', ins, ['y'], { axis, inverse, onesided });
          });
        }
});

test('STFT of a real signal agrees with onnxruntime-node', async () => {
  for (const [xs, step, fl, win, onesided] of [[[1, 64, 1], 8, 16, 0, 1], [[2, 50, 1], 5, 12, 1, 1], [[2, 50, 1], 3, 10, 1, 0], [[1, 33, 1], 7, 9, 0, 0]])
    await agree(`STFT ${xs} step=${step} frame_length=${fl} window=${win} onesided=${onesided}`, xs, (b) => {
      i64(b, 's', step);
      const ins = ['x', 's'];
      if (win) { b.init('w', FLOAT, [fl], rand(fl)); ins.push('w'); } else { i64(b, 'fl', fl); ins.push('', 'fl'); }
      b.node('STFT', ins, ['y'], { onesided });
    });
});

test('STFT of a complex signal is the windowed DFT of each frame (float64 reference)', () => {
  const xs = [1, 40, 2], fl = 8, step = 4, w = rand(fl), x = rand(numel(xs));
  const bytes = model(xs, (b) => { i64(b, 's', step); b.init('w', FLOAT, [fl], w); b.node('STFT', ['x', 's', 'w'], ['y'], { onesided: 0 }); });
  const got = holo(bytes, x, xs);
  assert.equal([...got.shape], [1, 9, fl, 2]);
  const want = new Float64Array(got.data.length);
  for (let f = 0; f < 9; f++)
    for (let k = 0; k < fl; k++)
      for (let j = 0; j < fl; j++) {
        const a = (-2 * Math.PI * ((j * k) % fl)) / fl, p = 2 * (f * step + j);
        const xr = x[p] * w[j], xi = x[p + 1] * w[j], o = 2 * (f * fl + k);
        want[o] += xr * Math.cos(a) - xi * Math.sin(a);
        want[o + 1] += xr * Math.sin(a) + xi * Math.cos(a);
      }
  assert.ok(close(got.data, want, 1e-5, 1e-6));
});

test('MelWeightMatrix agrees with onnxruntime-node, folded at convert time', async () => {
  for (const [mels, n, rate, lo, hi] of [[8, 16, 8192, 0, 4096], [10, 64, 16000, 20, 7000], [5, 31, 1000, 100, 450]]) {
    const b = new OnnxBuilder(17);
    b.init('m', INT32, [], [mels]).init('n', INT32, [], [n]).init('r', INT32, [], [rate]);
    b.init('lo', FLOAT, [], [lo]).init('hi', FLOAT, [], [hi]);
    b.node('MelWeightMatrix', ['m', 'n', 'r', 'lo', 'hi'], ['y']).output('y', FLOAT, null);
    const bytes = b.bytes();
    const want = (await (await ort.InferenceSession.create(bytes)).run({})).y;
    const h = rt.load(convert(bytes).holo);
    const got = h.run({}).y;
    h.dispose();
    assert.equal([...got.shape], [...want.dims].map(Number));
    assert.equal([...got.data], [...want.data], `mel ${mels} ${n} ${rate} ${lo} ${hi}`);
  }
});

test('the refused forms name the op and the reason', () => {
  const cases = [
    [[2, 8, 2], (b) => b.node('DFT', ['x'], ['y'], { onesided: 1 }), /onesided output of a complex input/],
    [[2, 8, 1], (b) => b.node('DFT', ['x'], ['y'], { onesided: 1, inverse: 1 }), /inverse with onesided/],
    [[2, 8, 1], (b) => b.node('DFT', ['x'], ['y'], { axis: 2 }), /axis is outside/],
    [[1, 8, 1], (b) => { i64(b, 's', 2); i64(b, 'fl', 9); b.node('STFT', ['x', 's', '', 'fl'], ['y']); }, /frame_length 9 is outside/],
    [[1, 8, 1], (b) => { i64(b, 's', 0); i64(b, 'fl', 4); b.node('STFT', ['x', 's', '', 'fl'], ['y']); }, /frame_step must be positive/],
  ];
  for (const [xs, build, re] of cases) {
    let msg = '';
    try {
      holo(model(xs, build), rand(numel(xs)), xs);
    } catch (e) {
      msg = e.message;
    }
    assert.match(msg, re);
  }
});

test.run();
