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

function deform(xs, ws, attrs, { bias = false, mask = false, opset = 19 } = {}) {
  const [N, C, H, W] = xs, [M, , kH, kW] = ws;
  const pads = attrs.pads ?? [0, 0, 0, 0], str = attrs.strides ?? [1, 1], dil = attrs.dilations ?? [1, 1], G = attrs.offset_group ?? 1;
  const oH = Math.floor((H + pads[0] + pads[2] - (dil[0] * (kH - 1) + 1)) / str[0]) + 1;
  const oW = Math.floor((W + pads[1] + pads[3] - (dil[1] * (kW - 1) + 1)) / str[1]) + 1;
  const b = new OnnxBuilder(opset);
  const shapes = { x: xs, w: ws, off: [N, 2 * G * kH * kW, oH, oW] };
  if (bias) shapes.b = [M];
  if (mask) shapes.m = [N, G * kH * kW, oH, oW];
  for (const [k, s] of Object.entries(shapes)) b.input(k, FLOAT, s);
  b.node('DeformConv', ['x', 'w', 'off', bias ? 'b' : '', ...(mask ? ['m'] : [])], ['y'], attrs).output('y', FLOAT, null);
  return { bytes: b.bytes(), shapes };
}

// The spec's DeformConv in float64: zero padding, a point outside reads no pixel.
function deformRef(feeds, attrs, hasBias, hasMask) {
  const [[N, C, H, W], X] = feeds.x, [[M, Cg, kH, kW], Wt] = feeds.w, [[, , oH, oW], off] = feeds.off;
  const pads = attrs.pads ?? [0, 0, 0, 0], str = attrs.strides ?? [1, 1], dil = attrs.dilations ?? [1, 1];
  const group = attrs.group ?? 1, G = attrs.offset_group ?? 1, K = kH * kW;
  const px = (n, c, y, x) => (y >= 0 && y < H && x >= 0 && x < W ? X[((n * C + c) * H + y) * W + x] : 0);
  const sample = (n, c, h, w) => {
    if (!(h > -1 && h < H && w > -1 && w < W)) return 0;
    const h0 = Math.floor(h), w0 = Math.floor(w), lh = h - h0, lw = w - w0;
    let v = 0;
    for (const [dy, dx, wt] of [[0, 0, (1 - lh) * (1 - lw)], [0, 1, (1 - lh) * lw], [1, 0, lh * (1 - lw)], [1, 1, lh * lw]]) {
      const y = h0 + dy, x = w0 + dx;
      if (y >= 0 && y < H && x >= 0 && x < W) v += wt * px(n, c, y, x);
    }
    return v;
  };
  const y = new Float64Array(N * M * oH * oW);
  for (let n = 0; n < N; n++) for (let m = 0; m < M; m++) for (let oh = 0; oh < oH; oh++) for (let ow = 0; ow < oW; ow++) {
    let s = hasBias ? feeds.b[1][m] : 0;
    const g = Math.floor(m / (M / group));
    for (let cg = 0; cg < Cg; cg++) {
      const c = g * Cg + cg, og = Math.floor(c / (C / G));
      for (let i = 0; i < kH; i++) for (let j = 0; j < kW; j++) {
        const k = i * kW + j, at = (ch) => ((n * (ch === 'm' ? G * K : 2 * G * K) + (ch === 'm' ? og * K + k : og * 2 * K + 2 * k + ch)) * oH + oh) * oW + ow;
        const h = oh * str[0] - pads[0] + i * dil[0] + off[at(0)], w = ow * str[1] - pads[1] + j * dil[1] + off[at(1)];
        const mk = hasMask ? feeds.m[1][at('m')] : 1;
        s += Wt[((m * Cg + cg) * kH + i) * kW + j] * sample(n, c, h, w) * mk;
      }
    }
    y[((n * M + m) * oH + oh) * oW + ow] = s;
  }
  return y;
}

// offsets: spread (fractions, many points outside the image), whole
// numbers (corners exactly on pixels), and a mask with zeros in it
async function deformAgree(what, xs, ws, attrs, opts = {}) {
  const { bytes, shapes } = deform(xs, ws, attrs, opts);
  const feeds = {};
  for (const [k, s] of Object.entries(shapes)) {
    const n = s.reduce((a, d) => a * d, 1);
    let d = rand(n, k === 'off' ? opts.spread ?? 2 : 1);
    if (k === 'off' && opts.whole) d = d.map((v) => Math.round(v));
    if (k === 'm') d = d.map((v, i) => (i % 5 === 0 ? 0 : v));
    if (k === 'x' && opts.nonFinite) { d[0] = Infinity; d[d.length - 1] = NaN; }
    feeds[k] = [s, d];
  }
  const [got, ort] = await both(bytes, feeds);
  const spec = deformRef(feeds, attrs, !!opts.bias, !!opts.mask);
  // onnxruntime 1.30 reads pixel (0, 0) at weight 0 for points outside: with a non-finite pixel there, only the spec's answer
  const refs = opts.nonFinite ? [spec] : [ort, spec];
  for (const want of refs) checkClose(what, got, want);
}

function checkClose(what, got, want) {
  const max = Math.max(1e-30, ...[...want].filter(Number.isFinite).map(Math.abs));
  let r = 0, finite = 0;
  for (let i = 0; i < want.length; i++) {
    // a point outside the image reads no pixel: an Inf or NaN pixel reaches only the outputs that sample it
    if (!Number.isFinite(want[i])) { assert.ok(Object.is(got[i], want[i]) || (Number.isNaN(got[i]) && Number.isNaN(want[i])), `DeformConv ${what}: element ${i} is ${got[i]}, the reference's ${want[i]}`); continue; }
    finite++;
    r = Math.max(r, Math.abs(got[i] - want[i]) / max);
  }
  assert.ok(finite > 0, `${what}: some finite outputs`);
  assert.ok(r <= 1e-5, `DeformConv ${what}: max |diff| / max |ref| = ${r}`);
}

test('DeformConv: strides, pads, dilations, group, offset_group, bias, mask vs onnxruntime', async () => {
  const cases = [
    ['basic', [1, 1, 3, 3], [1, 1, 2, 2], {}],
    ['channels', [2, 3, 6, 5], [4, 3, 3, 3], {}, { bias: true }],
    ['strides pads', [1, 2, 7, 6], [3, 2, 3, 2], { strides: [2, 1], pads: [1, 0, 2, 1] }, { mask: true }],
    ['dilations', [1, 2, 8, 8], [2, 2, 3, 3], { dilations: [2, 3], pads: [1, 1, 1, 1] }, { bias: true, mask: true }],
    ['group 2', [2, 4, 5, 5], [6, 2, 2, 2], { group: 2 }, { bias: true }],
    ['offset_group 2', [1, 4, 5, 6], [3, 4, 3, 3], { offset_group: 2, pads: [1, 1, 1, 1] }, { mask: true }],
    ['group 2 x offset_group 4', [1, 8, 6, 6], [4, 4, 2, 3], { group: 2, offset_group: 4, strides: [2, 2] }, { bias: true, mask: true }],
    ['whole offsets', [1, 2, 5, 5], [2, 2, 3, 3], { pads: [1, 1, 1, 1] }, { whole: true }],
    ['far offsets', [1, 2, 4, 4], [1, 2, 2, 2], {}, { spread: 8 }],
    ['opset 22', [1, 2, 5, 5], [2, 2, 2, 2], { kernel_shape: [2, 2] }, { opset: 22, mask: true }],
    ['1x1', [1, 3, 4, 4], [2, 3, 1, 1], { strides: [2, 2] }],
    ['Inf and NaN pixels', [1, 1, 5, 5], [1, 1, 2, 2], {}, { spread: 3, nonFinite: true, mask: true }],
  ];
  for (const [what, xs, ws, attrs, opts] of cases) await deformAgree(what, xs, ws, attrs, opts);
  assert.is(cases.length, 12);
});

test('DeformConv: a symbolic batch dim', async () => {
  const { bytes } = deform([2, 2, 5, 5], [3, 2, 2, 2], {}, { mask: true });
  const b = new OnnxBuilder(19);
  b.input('x', FLOAT, ['N', 2, 5, 5]).input('w', FLOAT, [3, 2, 2, 2]).input('off', FLOAT, ['N', 8, 4, 4]).input('m', FLOAT, ['N', 4, 4, 4]);
  b.node('DeformConv', ['x', 'w', 'off', '', 'm'], ['y']).output('y', FLOAT, null);
  const feeds = { x: [[2, 2, 5, 5], rand(100)], w: [[3, 2, 2, 2], rand(24)], off: [[2, 8, 4, 4], rand(256, 2)], m: [[2, 4, 4, 4], rand(128)] };
  const [got, want] = await both(b.bytes(), feeds);
  const [ref] = await both(bytes, feeds);
  assert.equal([...got], [...ref], 'the symbolic and the static model give the same bytes');
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= 1e-5, `element ${i}`);
});

test('DeformConv: the forms it cannot take are refused by name', () => {
  const refuses = (bytes, re) => assert.throws(() => convert(bytes), re);
  const mk = (xs, ws, offs, attrs = {}) => {
    const b = new OnnxBuilder(19);
    b.input('x', FLOAT, xs).input('w', FLOAT, ws).input('off', FLOAT, offs);
    b.node('DeformConv', ['x', 'w', 'off'], ['y'], attrs).output('y', FLOAT, null);
    return b.bytes();
  };
  refuses(mk([1, 2, 5], [1, 2, 2], [1, 4, 4]), /DeformConv: X needs a known rank of 4 \(\[N, C, H, W\]; rank 3 is not supported\)/);
  refuses(mk([1, 3, 5, 5], [2, 2, 2, 2], [1, 8, 4, 4], { group: 2 }), /DeformConv: group 2 does not divide C = 3/);
  refuses(mk([1, 3, 5, 5], [2, 3, 2, 2], [1, 16, 4, 4], { offset_group: 2 }), /DeformConv: offset_group 2 does not divide C = 3/);
  refuses(mk([1, 2, 5, 5], [2, 2, 2, 2], [1, 6, 4, 4]), /DeformConv: offset must be \[N, 8, 4, 4\]/);
  refuses(mk([1, 2, 1, 1], [2, 2, 2, 2], [1, 8, 1, 1]), /DeformConv: the kernel \[2, 2\] does not fit the padded image \[1, 1\]/);
});

test.run();
