// GridSample, Unique and Det (operators/gridsample.c, unique.c, det.c)
// against onnxruntime-node: every GridSample mode x padding mode x
// align_corners over a grid reaching past the image, Unique sorted and not,
// flattened and along an axis, with all four outputs, and Det of random and
// singular batches.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, rand, close } from './onnx-build.mjs';

const rt = await init();

/** Runs `bytes` on both with feeds {name: [Float32Array | BigInt64Array, dims]}; returns [ours, ort] outputs by name. */
async function both(bytes, feeds) {
  const s = await ort.InferenceSession.create(bytes);
  const of = Object.fromEntries(Object.entries(feeds).map(([k, [d, dims]]) => [k, new ort.Tensor(d instanceof BigInt64Array ? 'int64' : 'float32', d, dims)]));
  const want = await s.run(of);
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [data, shape]]) => [k, { data, shape }])));
    return [got, want];
  } finally {
    h.dispose();
  }
}

const worst = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

for (const mode of ['bilinear', 'nearest', 'bicubic'])
  for (const padding_mode of ['zeros', 'border', 'reflection'])
    for (const align_corners of [0, 1])
      test(`GridSample ${mode} ${padding_mode} align_corners=${align_corners}`, async () => {
        const X = [2, 3, 5, 7], Gd = [2, 4, 6, 2];
        const b = new OnnxBuilder(16);
        b.input('x', FLOAT, X).input('g', FLOAT, Gd).node('GridSample', ['x', 'g'], ['y'], { mode, padding_mode, align_corners }).output('y', FLOAT, null);
        const x = rand(2 * 3 * 5 * 7, 4), g = rand(2 * 4 * 6 * 2, 1.6); // grid in [-1.6, 1.6]: every padding path
        const [got, want] = await both(b.bytes(), { x: [x, X], g: [g, Gd] });
        assert.equal([...got.y.shape], [2, 3, 4, 6]);
        assert.ok(close(got.y.data, want.y.data, 1e-5, 1e-5), `max |diff| ${worst(got.y.data, want.y.data)}`);
      });

const UNIQUE = [
  ['flattened, sorted', [4, 5], {}, 1],
  ['flattened, unsorted', [4, 5], { sorted: 0 }, 1],
  ['axis 0, sorted', [6, 3], { axis: 0 }, 2],
  ['axis -1, unsorted', [3, 7], { axis: -1, sorted: 0 }, 3],
  ['axis 1 of 3-D', [2, 5, 2], { axis: 1 }, 4],
];
for (const [what, dims, attrs, mod] of UNIQUE)
  test(`Unique ${what}: Y, indices, inverse_indices, counts`, async () => {
    const b = new OnnxBuilder(11);
    const outs = ['y', 'idx', 'inv', 'cnt'];
    b.input('x', FLOAT, dims).node('Unique', ['x'], outs, attrs);
    b.output('y', FLOAT, null);
    for (const o of outs.slice(1)) b.output(o, INT64, null);
    const n = dims.reduce((p, d) => p * d, 1);
    // few distinct values (repeats along the axis come from the modulus)
    const x = Float32Array.from({ length: n }, (_, i) => ((i * 7) % (mod + 2)) - 1 + (i % 3 === 0 ? 0 : 0.5 * (i % mod)));
    const [got, want] = await both(b.bytes(), { x: [x, dims] });
    for (const o of outs) {
      assert.equal([...got[o].shape], [...want[o].dims].map(Number), `${o}: shape`);
      assert.equal([...got[o].data].map(String), [...want[o].data].map(String), `${o}: values`);
    }
  });

test('Det of a random batch [3, 2, 4, 4], a singular matrix and 1x1', async () => {
  for (const [dims, fill] of [[[3, 2, 4, 4], null], [[3, 3], [1, 2, 3, 2, 4, 6, 0, 1, 5]], [[2, 1, 1], [3, -0.5]]]) {
    const b = new OnnxBuilder(11);
    b.input('x', FLOAT, dims).node('Det', ['x'], ['y']).output('y', FLOAT, null);
    const x = fill ? Float32Array.from(fill) : rand(dims.reduce((p, d) => p * d, 1), 2);
    const [got, want] = await both(b.bytes(), { x: [x, dims] });
    assert.equal([...got.y.shape], [...want.y.dims].map(Number));
    assert.ok(close(got.y.data, want.y.data, 1e-5, 1e-5), `${JSON.stringify(dims)}: ${[...got.y.data]} vs ${[...want.y.data]}`);
  }
});

/** The model is refused with `re`, at convert or at execute (zero-filled feeds of `dims`, name -> dims). */
function refused(bytes, dims, re) {
  const z = (d) => ({ data: new Float32Array(d.reduce((p, k) => p * k, 1)), shape: d });
  let h;
  try {
    h = rt.load(convert(bytes).holo);
    h.run(Object.fromEntries(Object.entries(dims).map(([k, d]) => [k, z(d)])));
  } catch (e) {
    assert.match(e.message, re);
    return;
  } finally {
    h?.dispose();
  }
  assert.unreachable(`not refused: ${re}`);
}

test('the refusals name the op: Det of [2, 3], GridSample of a 3-D X, Unique with an axis out of range', () => {
  const d = new OnnxBuilder(11);
  d.input('x', FLOAT, [2, 3]).node('Det', ['x'], ['y']).output('y', FLOAT, null);
  refused(d.bytes(), { x: [2, 3] }, /Det: X must be \[\.\.\., M, M\]/);
  const g = new OnnxBuilder(16);
  g.input('x', FLOAT, [1, 2, 3]).input('g', FLOAT, [1, 2, 2]).node('GridSample', ['x', 'g'], ['y']).output('y', FLOAT, null);
  refused(g.bytes(), { x: [1, 2, 3], g: [1, 2, 2] }, /GridSample: X must be 4-D/);
  const u = new OnnxBuilder(11);
  u.input('x', FLOAT, [2, 3]).node('Unique', ['x'], ['y'], { axis: 2 }).output('y', FLOAT, null);
  refused(u.bytes(), { x: [2, 3] }, /axis 2 is out of range/);
});

test.run();
