// ConvInteger (compiler/onnx-ops-qgemm.js, kernels-wasm-simd/operators/
// conv-integer.c) against onnxruntime-node, exact int32: u8/i8 X and W,
// zero points absent or scalar, W a graph input (packed per call) or an
// initializer (packed once), pads/auto_pad/strides/dilations/group, 1-D and
// 2-D, K odd, output planes over several im2col chunks. onnxruntime takes
// only a scalar w_zero_point, so the per-output-channel form is checked
// against the direct formula written here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, INT32 } from './onnx-build.mjs';

const U8 = 2, I8 = 3;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
let seed = 11;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const ints = (dt, n) => (dt === U8 ? Uint8Array.from({ length: n }, () => next() >>> 24) : Int8Array.from({ length: n }, () => (next() >>> 24) - 128));
const ORT = { [U8]: 'uint8', [I8]: 'int8' };

function model(c) {
  const b = new OnnxBuilder(13);
  const feeds = { x: [c.tx, ints(c.tx, numel(c.xs)), c.xs] };
  b.input('x', c.tx, c.xs);
  const w = ints(c.tw, numel(c.ws));
  if (c.wconst) b.init('w', c.tw, c.ws, w);
  else { b.input('w', c.tw, c.ws); feeds.w = [c.tw, w, c.ws]; }
  const ins = ['x', 'w'];
  if (c.zx !== undefined || c.zw !== undefined) {
    b.init('zx', c.tx, [], [c.zx ?? 0]);
    ins.push('zx');
  }
  if (c.zw !== undefined) {
    const zs = Array.isArray(c.zw) ? [c.zw.length] : [];
    b.init('zw', c.tw, zs, Array.isArray(c.zw) ? c.zw : [c.zw]);
    ins.push('zw');
  }
  b.node('ConvInteger', ins, ['y'], c.attrs).output('y', INT32, null);
  return { bytes: b.bytes(), feeds, w };
}

// The same convolution in float32 (Cast, Sub the zero points, Conv, Cast to
// int32): onnxruntime's exact reference. Every partial sum is an integer
// below 2^24 (|product| <= 255*256, K <= 63 here), so the float path is exact
// in any summation order. onnxruntime's own ConvInteger is not: on x86-64
// without AVX-VNNI its mixed-sign (u8 x s8) kernels sum pairs of products in
// saturating int16 (vpmaddubsw) -- measured here on an AVX2 AMD EPYC, where
// the ConvInteger and the float path disagree for I8 x U8 -- so it is
// compared with, and any disagreement printed, but the float path is the bar.
function floatTwin(c) {
  const FLOAT = 1;
  const b = new OnnxBuilder(13);
  b.input('x', c.tx, c.xs);
  if (c.wconst) b.init('w', c.tw, c.ws, model(c).w);
  else b.input('w', c.tw, c.ws);
  const zw = Array.isArray(c.zw) ? c.zw : [c.zw ?? 0];
  b.init('zxf', FLOAT, [], [c.zx ?? 0]).init('zwf', FLOAT, Array.isArray(c.zw) ? [zw.length, ...c.ws.slice(1).map(() => 1)] : [], zw);
  b.node('Cast', ['x'], ['xf'], { to: FLOAT }).node('Sub', ['xf', 'zxf'], ['xz'], {});
  b.node('Cast', ['w'], ['wf'], { to: FLOAT }).node('Sub', ['wf', 'zwf'], ['wz'], {});
  b.node('Conv', ['xz', 'wz'], ['yf'], c.attrs).node('Cast', ['yf'], ['y'], { to: INT32 }).output('y', INT32, null);
  return b.bytes();
}

const ortRun = async (bytes, feeds) => (await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, s]]) => [k, new ort.Tensor(ORT[t], d, s)])))).y;

function runHolo(bytes, feeds) {
  const h = rt.load(convert(bytes).holo);
  try {
    return h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }]))).y;
  } finally {
    h.dispose();
  }
}

test('ConvInteger: u8/i8, scalar zero points, windows, groups, 1-D, several chunks: exact vs onnxruntime', async () => {
  const cases = [
    { tx: U8, tw: U8, xs: [1, 3, 9, 10], ws: [5, 3, 3, 3], zx: 117, zw: 130, wconst: true, attrs: { pads: [1, 1, 1, 1] } },
    { tx: I8, tw: I8, xs: [2, 2, 11, 9], ws: [3, 2, 3, 2], attrs: { strides: [2, 1], dilations: [2, 3], pads: [0, 2, 1, 1] } },
    { tx: U8, tw: I8, xs: [2, 4, 7, 7], ws: [6, 2, 3, 3], zx: 3, zw: -5, attrs: { group: 2, auto_pad: 'SAME_UPPER', strides: [2, 2] } },
    { tx: I8, tw: U8, xs: [1, 7, 13, 12], ws: [9, 7, 3, 3], zx: -4, zw: 128, wconst: true, attrs: { pads: [1, 1, 1, 1] } },
    { tx: U8, tw: U8, xs: [1, 4, 8, 8], ws: [4, 4, 2, 2], zx: 250, attrs: { auto_pad: 'SAME_LOWER' } },
    { tx: U8, tw: U8, xs: [2, 3, 17], ws: [4, 3, 5], zx: 9, zw: 200, wconst: true, attrs: { pads: [2, 1], strides: [2] } },
    { tx: U8, tw: U8, xs: [1, 16, 20, 20], ws: [33, 16, 1, 1], zx: 128, zw: 127, wconst: true, attrs: {} },
    // depthwise (group == C == M: the padded-plane kernels, idwconv2d.h)
    { tx: U8, tw: I8, xs: [2, 5, 9, 11], ws: [5, 1, 3, 3], zx: 130, zw: -7, wconst: true, attrs: { group: 5, pads: [1, 1, 1, 1] } },
    { tx: I8, tw: U8, xs: [1, 3, 13, 21], ws: [3, 1, 3, 3], zx: -9, zw: 200, attrs: { group: 3, strides: [2, 2], pads: [0, 1, 2, 1] } },
    { tx: U8, tw: U8, xs: [1, 4, 10, 17], ws: [4, 1, 3, 2], zx: 1, attrs: { group: 4, strides: [1, 3], dilations: [2, 2], pads: [2, 0, 1, 3] } },
    { tx: U8, tw: U8, xs: [1, 6, 7, 37], ws: [6, 1, 5, 5], zx: 255, zw: 0, wconst: true, attrs: { group: 6, auto_pad: 'SAME_UPPER', strides: [2, 2] } },
    { tx: I8, tw: I8, xs: [2, 4, 19], ws: [4, 1, 3], attrs: { group: 4, pads: [1, 1], dilations: [2] } },
  ];
  for (const c of cases) {
    seed = 11 + cases.indexOf(c); // the twin re-draws W from the same seed
    const { bytes, feeds } = model(c);
    seed = 11 + cases.indexOf(c);
    const want = await ortRun(floatTwin(c), feeds);
    const got = runHolo(bytes, feeds);
    const what = JSON.stringify(c);
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.equal([...got.data], [...want.data], `${what}: values`);
    const direct = await ortRun(bytes, feeds);
    const off = [...direct.data].filter((v, i) => v !== want.data[i]).length;
    if (off) console.log(`# onnxruntime's ConvInteger differs from its exact float path in ${off}/${want.data.length} outputs: ${what}`);
  }
});

test('ConvInteger: a w_zero_point per output channel, against the direct formula (grouped and depthwise)', () => {
  const cases = [
    { tx: U8, tw: I8, xs: [1, 4, 6, 5], ws: [6, 2, 3, 3], zx: 77, zw: [-3, 0, 5, 127, -128, 1], wconst: true, attrs: { group: 2, pads: [1, 0, 1, 2] } },
    { tx: U8, tw: I8, xs: [2, 6, 9, 13], ws: [6, 1, 3, 3], zx: 200, zw: [-3, 0, 5, 127, -128, 1], wconst: true, attrs: { group: 6, pads: [1, 0, 1, 2] } },
    { tx: I8, tw: U8, xs: [1, 5, 8, 11], ws: [5, 1, 3, 3], zx: -100, zw: [0, 255, 128, 1, 9], attrs: { group: 5, pads: [1, 0, 1, 2], strides: [2, 2] } },
  ];
  for (const c of cases) {
    const { bytes, feeds, w } = model(c);
    const x = feeds.x[1], [N, C, H, W] = c.xs, [M, Cg, kH, kW] = c.ws, G = c.attrs.group, Mg = M / G;
    const s = c.attrs.strides ?? [1, 1];
    const OH = Math.floor((H + 2 - kH) / s[0]) + 1, OW = Math.floor((W + 2 - kW) / s[1]) + 1, want = [];
    for (let n = 0; n < N; n++)
      for (let m = 0; m < M; m++)
        for (let oh = 0; oh < OH; oh++)
          for (let ow = 0; ow < OW; ow++) {
            let sum = 0;
            for (let ci = 0; ci < Cg; ci++)
              for (let kh = 0; kh < kH; kh++)
                for (let kw = 0; kw < kW; kw++) {
                  const ih = oh * s[0] - 1 + kh, iw = ow * s[1] + kw, ch = Math.floor(m / Mg) * Cg + ci;
                  const xv = ih >= 0 && ih < H && iw >= 0 && iw < W ? x[((n * C + ch) * H + ih) * W + iw] - c.zx : 0;
                  sum += xv * (w[((m * Cg + ci) * kH + kh) * kW + kw] - c.zw[m]);
                }
            want.push(sum);
          }
    const got = runHolo(bytes, feeds);
    assert.equal([...got.shape], [N, M, OH, OW], JSON.stringify(c));
    assert.equal([...got.data], want, JSON.stringify(c));
  }
});

test('ConvInteger: refusals name the op', () => {
  const b = new OnnxBuilder(13);
  b.input('x', U8, [1, 2, 4, 4, 4]).input('w', U8, [1, 2, 2, 2, 2]).node('ConvInteger', ['x', 'w'], ['y'], {}).output('y', INT32, null);
  assert.throws(() => convert(b.bytes()), /3-D ConvInteger is not supported/);
});

test.run();
