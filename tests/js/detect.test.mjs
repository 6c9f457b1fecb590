// The detection ops (compiler/onnx-ops-detect.js, kernels-wasm-simd/
// operators/nms.c, roialign.c) against onnxruntime-node: NonMaxSuppression
// byte-exact over random boxes with equal scores, degenerate and swapped
// boxes, both box formats, absent and present thresholds, several batches
// and classes, fed at execute time and folded at convert time. MaxRoiPool
// (operators/roipool.c) byte-exact over random rois.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, F } from './onnx-build.mjs';

const rt = await init();
let seed = 20;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const ORT = { [FLOAT]: 'float32', [INT64]: 'int64' };

/** Runs the one-node model on onnxruntime and on hologram; returns both outputs. */
async function both(b, feeds) {
  const bytes = b.bytes();
  const s = await ort.InferenceSession.create(bytes, { logSeverityLevel: 3 });
  const want = (await s.run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, sh]]) => [k, new ort.Tensor(ORT[t], d, sh)])))).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }]))).y;
    return { want, got };
  } finally {
    h.dispose();
  }
}

/** Random boxes [B, N, 4]: a few duplicated, zero-area and corner-swapped ones. */
function boxes(B, N, cpb) {
  const a = new Float32Array(B * N * 4);
  for (let i = 0; i < B * N; i++) {
    const r = next();
    const p = a.subarray(4 * i, 4 * i + 4);
    if (i > 0 && r < 0.1) p.set(a.subarray(4 * (i - 1), 4 * i));
    else if (cpb) p.set([next() * 10, next() * 10, r < 0.15 ? 0 : next() * 4, next() * 4]);
    else {
      const y = next() * 10, x = next() * 10, h = r < 0.15 ? 0 : next() * 4, w = next() * 4;
      p.set(r < 0.3 ? [y + h, x + w, y, x] : [y, x, y + h, x + w]);
    }
  }
  return a;
}
// scores from a few levels, so that ties are common
const scores = (n, levels) => Float32Array.from({ length: n }, () => Math.floor(next() * levels) / levels);

function nmsModel({ B, C, N, cpb, max, iou, thr, feedParams, opset = 11 }) {
  const b = new OnnxBuilder(opset);
  b.input('boxes', FLOAT, [B, N, 4]).input('scores', FLOAT, [B, C, N]);
  const feeds = { boxes: [FLOAT, boxes(B, N, cpb), [B, N, 4]], scores: [FLOAT, scores(B * C * N, 6), [B, C, N]] };
  const ins = ['boxes', 'scores'];
  const param = (name, t, v) => {
    if (v === undefined) return ins.push('');
    const data = t === INT64 ? BigInt64Array.of(BigInt(v)) : Float32Array.of(v);
    if (feedParams) { b.input(name, t, [1]); feeds[name] = [t, data, [1]]; } else b.init(name, t, [1], [...data]);
    ins.push(name);
  };
  param('max', INT64, max);
  param('iou', FLOAT, iou);
  param('thr', FLOAT, thr);
  while (ins.length > 2 && !ins[ins.length - 1]) ins.pop();
  b.node('NonMaxSuppression', ins, ['y'], cpb ? { center_point_box: cpb } : {}).output('y', INT64, null);
  return { b, feeds };
}

test('NonMaxSuppression: byte-exact with onnxruntime over 60 random problems (ties, degenerate boxes, both formats)', async () => {
  let rows = 0;
  for (let k = 0; k < 60; k++) {
    const p = {
      B: 1 + (k % 3), C: 1 + ((k >> 1) % 3), N: [1, 5, 17, 40, 64][k % 5], cpb: (k >> 2) % 2,
      max: [undefined, 0, 1, 3, 10, 1000, -2][k % 7], iou: [undefined, 0, 0.3, 0.5, 1][k % 5],
      thr: [undefined, 0.2, 0.5, -1][(k >> 3) % 4], feedParams: k % 2 === 0, opset: k % 4 === 0 ? 10 : 11,
    };
    if (p.max === undefined) p.iou = p.thr = undefined;
    const { b, feeds } = nmsModel(p);
    const { want, got } = await both(b, feeds);
    const what = JSON.stringify(p);
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.equal([...got.data], [...want.data], `${what}: indices`);
    rows += want.dims[0];
  }
  assert.ok(rows > 300, `${rows} selected rows in all`);
});

test("NonMaxSuppression in torchvision's batched_nms form: class offsets, NMS, column 2, Gather of the kept scores", async () => {
  const b = new OnnxBuilder(17);
  const N = 50;
  b.input('boxes', FLOAT, [N, 4]).input('scores', FLOAT, [N]).input('idxs', INT64, [N]);
  b.init('one', FLOAT, [], [1]).init('ax0', INT64, [1], [0]).init('ax1', INT64, [1], [1]).init('two', INT64, [], [2]);
  b.init('max', INT64, [1], [1000]).init('iou', FLOAT, [1], [0.5]);
  b.node('ReduceMax', ['boxes'], ['m'], { keepdims: 0 });
  b.node('Cast', ['idxs'], ['fi'], { to: FLOAT });
  b.node('Add', ['m', 'one'], ['m1']);
  b.node('Mul', ['fi', 'm1'], ['off']);
  b.node('Unsqueeze', ['off', 'ax1'], ['off1']);
  b.node('Add', ['boxes', 'off1'], ['bx']);
  b.node('Unsqueeze', ['bx', 'ax0'], ['bx3']);
  b.node('Unsqueeze', ['scores', 'ax0'], ['sc2']);
  b.node('Unsqueeze', ['sc2', 'ax0'], ['sc3']);
  b.node('NonMaxSuppression', ['bx3', 'sc3', 'max', 'iou'], ['sel']);
  b.node('Gather', ['sel', 'two'], ['col'], { axis: 1 });
  b.node('Gather', ['scores', 'col'], ['y'], { axis: 0 });
  b.output('y', FLOAT, null);
  const feeds = {
    boxes: [FLOAT, boxes(1, N, 0).map((v) => v * 10), [N, 4]], scores: [FLOAT, scores(N, 8), [N]],
    idxs: [INT64, BigInt64Array.from({ length: N }, () => BigInt(Math.floor(next() * 3))), [N]],
  };
  const { want, got } = await both(b, feeds);
  assert.equal([...got.shape], [...want.dims].map(Number), 'shape');
  assert.equal([...got.data], [...want.data], 'kept scores');
  assert.ok(want.dims[0] > 5, `${want.dims[0]} kept`);
});

test('NonMaxSuppression: an out-of-range iou_threshold and a NaN candidate score are refusals, not answers', async () => {
  const { b, feeds } = nmsModel({ B: 1, C: 1, N: 4, cpb: 0, max: 3, iou: 1.5, thr: undefined, feedParams: true });
  const h = rt.load(convert(b.bytes()).holo);
  const run = (f) => h.run(Object.fromEntries(Object.entries(f).map(([k, [, data, shape]]) => [k, { data, shape }])));
  assert.throws(() => run(feeds), /iou_threshold must be in \[0, 1\]/);
  feeds.iou = [FLOAT, Float32Array.of(0.5), [1]];
  feeds.scores[1][2] = NaN;
  assert.throws(() => run(feeds), /NaN score/);
  h.dispose();
});

/** Random rois [R, 4] (x1, y1, x2, y2) over an H x W map at `scale`: some outside, some empty, some reversed. */
function rois(R, H, W, scale) {
  const a = new Float32Array(R * 4);
  for (let i = 0; i < R; i++) {
    const r = next(), x = (next() * 1.4 - 0.2) * W / scale, y = (next() * 1.4 - 0.2) * H / scale;
    const w = r < 0.1 ? 0 : (next() * 0.8 * W) / scale, h = r < 0.1 ? 0 : (next() * 0.8 * H) / scale;
    a.set(r > 0.9 ? [x + w, y + h, x, y] : [x, y, x + w, y + h], 4 * i);
  }
  return a;
}

test('RoiAlign: onnxruntime within 1e-5 relative over 48 random problems (avg, max, both coordinate modes, adaptive sampling)', async () => {
  let worst = 0;
  for (let k = 0; k < 48; k++) {
    const N = 1 + (k % 2), C = [1, 3, 8][k % 3], H = [5, 12, 9][(k >> 1) % 3], W = [7, 12, 16][(k >> 2) % 3], R = 1 + (k % 5);
    const scale = [1, 0.5, 0.25, 1 / 16][(k >> 1) % 4] * (k % 4 === 3 ? 1 : 1);
    const opset = k % 3 === 0 ? 10 : 16;
    const a = { mode: k % 2 ? 'max' : 'avg', output_height: 1 + (k % 4), output_width: 1 + ((k >> 2) % 3), sampling_ratio: [0, 2, 1, 0][(k >> 3) % 4], spatial_scale: F(scale) };
    if (opset >= 16 && k % 5 === 0) a.coordinate_transformation_mode = 'output_half_pixel';
    const b = new OnnxBuilder(opset);
    b.input('x', FLOAT, [N, C, H, W]).input('rois', FLOAT, [R, 4]).input('bi', INT64, [R]);
    b.node('RoiAlign', ['x', 'rois', 'bi'], ['y'], a).output('y', FLOAT, null);
    const x = Float32Array.from({ length: N * C * H * W }, () => next() * 4 - 2);
    const bi = BigInt64Array.from({ length: R }, () => BigInt(Math.floor(next() * N)));
    const feeds = { x: [FLOAT, x, [N, C, H, W]], rois: [FLOAT, rois(R, H, W, scale), [R, 4]], bi: [INT64, bi, [R]] };
    const { want, got } = await both(b, feeds);
    const what = JSON.stringify({ N, C, H, W, R, opset, scale, ...a });
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    let mx = 0, diff = 0;
    for (let i = 0; i < want.data.length; i++) {
      const u = want.data[i], v = got.data[i];
      assert.ok(Number.isNaN(u) === Number.isNaN(v), `${what}: NaN at ${i}`);
      if (Number.isNaN(u)) continue;
      mx = Math.max(mx, Math.abs(u));
      diff = Math.max(diff, Math.abs(u - v));
    }
    assert.ok(diff <= 1e-5 * mx, `${what}: max|diff| ${diff} vs max|ref| ${mx}`);
    worst = Math.max(worst, mx ? diff / mx : diff);
  }
  console.log(`  RoiAlign: worst max|diff|/max|ref| ${worst.toExponential(2)}`);
});

test('RoiAlign: a batch index out of range and a non-finite roi are refusals', async () => {
  const b = new OnnxBuilder(16);
  b.input('x', FLOAT, [1, 1, 4, 4]).input('rois', FLOAT, [1, 4]).input('bi', INT64, [1]);
  b.node('RoiAlign', ['x', 'rois', 'bi'], ['y'], { output_height: 2, output_width: 2 }).output('y', FLOAT, null);
  const h = rt.load(convert(b.bytes()).holo);
  const run = (r, i) => h.run({ x: { data: new Float32Array(16), shape: [1, 1, 4, 4] }, rois: { data: Float32Array.from(r), shape: [1, 4] }, bi: { data: BigInt64Array.of(i), shape: [1] } });
  assert.equal([...run([0, 0, 2, 2], 0n).y.shape], [1, 1, 2, 2]);
  assert.throws(() => run([0, 0, 2, 2], 1n), /batch index 1 \(roi 0\) is outside \[0, 1\)/);
  assert.throws(() => run([0, NaN, 2, 2], 0n), /roi 0 is not finite/);
  h.dispose();
});

// rois [R, 5] for MaxRoiPool: a batch index (fractions truncate), corners
// in image units / scale, some on .5 (std::round's ties), swapped
// (malformed: one pixel), or partly and wholly outside the image
function poolRois(R, N, H, W, scale) {
  const a = new Float32Array(R * 5);
  for (let i = 0; i < R; i++) {
    const r = next();
    const tie = (v) => (r < 0.3 ? Math.round(v * scale * 2) / 2 / scale : v); // corners on .5 after scaling
    const x1 = (next() * (W + 4) - 2) / scale, y1 = (next() * (H + 4) - 2) / scale;
    const x2 = r < 0.15 ? x1 - 2 / scale : x1 + next() * W / scale, y2 = r > 0.9 ? (H + 3) / scale : y1 + next() * H / scale;
    a.set([Math.min(N - 1, next() * N), tie(x1), tie(y1), tie(x2), tie(y2)], 5 * i);
    if (r > 0.95) a.set([0, (W + 1) / scale, (H + 1) / scale, (W + 5) / scale, (H + 5) / scale], 5 * i); // wholly outside: empty bins
  }
  return a;
}

test('MaxRoiPool: onnxruntime bytes over 48 random problems (scales, pooled shapes, ties, malformed and outside rois, NaN pixels)', async () => {
  let empties = 0;
  for (let k = 0; k < 48; k++) {
    const N = 1 + (k % 2), C = [1, 3, 4][k % 3], H = [5, 12, 9][(k >> 1) % 3], W = [7, 12, 16][(k >> 2) % 3], R = 1 + (k % 6);
    const scale = [1, 0.5, 0.25, 1 / 16][(k >> 1) % 4];
    const a = { pooled_shape: [1 + (k % 4), 1 + ((k >> 2) % 3)] };
    if (k % 7) a.spatial_scale = F(scale);
    const sc = k % 7 ? scale : 1;
    const b = new OnnxBuilder(k % 2 ? 1 : 13);
    b.input('x', FLOAT, [N, C, H, W]).input('rois', FLOAT, [R, 5]);
    b.node('MaxRoiPool', ['x', 'rois'], ['y'], a).output('y', FLOAT, null);
    const x = Float32Array.from({ length: N * C * H * W }, () => next() * 4 - 2);
    if (k % 5 === 4) x[Math.floor(next() * x.length)] = NaN;
    const feeds = { x: [FLOAT, x, [N, C, H, W]], rois: [FLOAT, poolRois(R, N, H, W, sc), [R, 5]] };
    const { want, got } = await both(b, feeds);
    const what = JSON.stringify({ N, C, H, W, R, sc, ...a });
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    for (let i = 0; i < want.data.length; i++) {
      assert.ok(Object.is(got.data[i], want.data[i]) || (Number.isNaN(got.data[i]) && Number.isNaN(want.data[i])), `${what}: element ${i} is ${got.data[i]}, onnxruntime ${want.data[i]}`);
      if (Object.is(want.data[i], 0)) empties++;
    }
  }
  assert.ok(empties > 0, 'some empty bins');
});

test('MaxRoiPool: a batch index out of range, a non-finite roi and a missing pooled_shape are refusals', async () => {
  const b = new OnnxBuilder(1);
  b.input('x', FLOAT, [1, 1, 4, 4]).input('rois', FLOAT, [1, 5]);
  b.node('MaxRoiPool', ['x', 'rois'], ['y'], { pooled_shape: [2, 2] }).output('y', FLOAT, null);
  const h = rt.load(convert(b.bytes()).holo);
  const x = Float32Array.from({ length: 16 }, (_, i) => i);
  const run = (r) => h.run({ x: { data: x, shape: [1, 1, 4, 4] }, rois: { data: Float32Array.from(r), shape: [1, 5] } });
  assert.equal([...run([0, 0, 0, 3, 3]).y.data], [5, 7, 13, 15]);
  const bad = /MaxRoiPool: a roi has a batch index outside \[0, N\), a non-finite value or a corner beyond 2\^24/;
  for (const r of [[1, 0, 0, 2, 2], [-1, 0, 0, 2, 2], [0, NaN, 0, 2, 2], [0, 0, 0, 3e7, 2], [Infinity, 0, 0, 2, 2]]) assert.throws(() => run(r), bad, JSON.stringify(r));
  assert.equal([...run([0.9, 0, 0, 1e7, 3]).y.data], [7, 0, 15, 0], 'a corner below 2^24 is taken (the right bins lie outside: 0)');
  h.dispose();
  const m = new OnnxBuilder(1);
  m.input('x', FLOAT, [1, 1, 4, 4]).input('rois', FLOAT, [1, 5]);
  m.node('MaxRoiPool', ['x', 'rois'], ['y'], {}).output('y', FLOAT, null);
  assert.throws(() => convert(m.bytes()), /MaxRoiPool: required attribute 'pooled_shape' is missing/);
});

test.run();
