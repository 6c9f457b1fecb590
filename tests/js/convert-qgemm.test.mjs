// The integer GEMM family (compiler/onnx-ops-qgemm.js) against
// onnxruntime-node, exact: MatMulInteger over u8/i8 operands, scalar,
// per-row and per-column zero points, batched and K not a multiple of 4/8/16.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, INT32 } from './onnx-build.mjs';

const U8 = 2, I8 = 3;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
let seed = 7;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const ints = (dt, n) => (dt === U8 ? Uint8Array.from({ length: n }, () => next() >>> 24) : Int8Array.from({ length: n }, () => (next() >>> 24) - 128));
const ORT = { [U8]: 'uint8', [I8]: 'int8' };

// The same product in float32 (Cast, Sub the zero points, MatMul, Cast to
// int32) is onnxruntime's exact reference: every partial sum is an integer
// below 2^24 (|product| <= 255*256, K <= 64 here), exact in any order.
// onnxruntime's own MatMulInteger is not exact on x86-64 without AVX-VNNI:
// its mixed-sign (u8 x s8) kernels sum pairs of products in saturating int16
// (vpmaddubsw; measured on an AVX2 AMD EPYC). It is still run, and where it
// disagrees with its float path the count is printed; the float path is the bar.
function floatTwin(b) {
  const FLOAT = 1;
  const t = new OnnxBuilder(13);
  t.inputs = b.inputs; t.inits = [...b.inits];
  const mm = b.nodes.find((n) => n.opType === 'MatMulInteger');
  const [a, w, za, zb] = mm.input;
  const side = (x, z, tag) => {
    t.node('Cast', [x], [`${tag}f`], { to: FLOAT });
    if (!z) return `${tag}f`;
    t.node('Cast', [z], [`${tag}zf`], { to: FLOAT }).node('Sub', [`${tag}f`, `${tag}zf`], [`${tag}s`], {});
    return `${tag}s`;
  };
  t.node('MatMul', [side(a, za, 'a'), side(w, zb, 'b')], ['yf'], {}).node('Cast', ['yf'], ['y'], { to: INT32 }).output('y', INT32, null);
  return t.bytes();
}

const ortRun = async (bytes, feeds) => (await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, [t, d, s]]) => [k, new ort.Tensor(ORT[t], d, s)])))).y;

async function agree(b, feeds, what) {
  const bytes = b.bytes();
  const want = { y: await ortRun(floatTwin(b), feeds) };
  const direct = await ortRun(bytes, feeds);
  const off = [...direct.data].filter((v, i) => v !== want.y.data[i]).length;
  if (off) console.log(`# onnxruntime's MatMulInteger differs from its exact float path in ${off}/${direct.data.length} outputs: ${what}`);
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, [, data, shape]]) => [k, { data, shape }])));
    assert.equal([...got.y.shape], [...want.y.dims].map(Number), `${what}: shape`);
    assert.equal([...got.y.data], [...want.y.data], `${what}: values`);
  } finally {
    h.dispose();
  }
}

test('MatMulInteger: u8/i8 operands, zero points absent, scalar, per column (onnxruntime refuses per-row A zero points), batched, odd K', async () => {
  const cases = [
    [U8, U8, [3, 5], [5, 4], null, null],
    [U8, I8, [2, 17], [17, 9], 's', 's'],
    [I8, I8, [4, 33], [33, 3], 's', 'c'],
    [U8, U8, [2, 3, 7], [7, 5], 's', 'c'],
    [I8, U8, [2, 1, 3, 10], [3, 10, 2], 's', null],
    [U8, I8, [19], [19, 6], 's', 'c'],
    [U8, U8, [5, 64], [64], null, 's'],
  ];
  for (const [ta, tb, as, bs, za, zb] of cases) {
    const M = as.length >= 2 ? as[as.length - 2] : 1, N = bs.length >= 2 ? bs[bs.length - 1] : 1;
    const b = new OnnxBuilder(13);
    const ins = ['a', 'b'];
    const feeds = { a: [ta, ints(ta, numel(as)), as], b: [tb, ints(tb, numel(bs)), bs] };
    b.input('a', ta, as).input('b', tb, bs);
    if (za || zb) {
      const zs = za === 'r' ? [M] : [];
      b.input('za', ta, zs);
      feeds.za = [ta, za ? ints(ta, numel(zs)) : new (ta === U8 ? Uint8Array : Int8Array)(1), zs];
      ins.push('za');
    }
    if (zb) {
      const zs = zb === 'c' ? [N] : [];
      b.input('zb', tb, zs);
      feeds.zb = [tb, ints(tb, numel(zs)), zs];
      ins.push('zb');
    }
    b.node('MatMulInteger', ins, ['y'], {}).output('y', INT32, null);
    await agree(b, feeds, `MatMulInteger ${JSON.stringify([ta, tb, as, bs, za, zb])}`);
  }
});

test('MatMulInteger: a constant B (packed once) with per-column zero points, and a batched constant B (scalar zero point)', async () => {
  for (const [ta, tb, as, bs] of [[U8, I8, [6, 37], [37, 21]], [I8, U8, [2, 5, 9], [2, 9, 11]], [U8, U8, [3, 1, 64], [1, 64, 8]]]) {
    const N = bs[bs.length - 1];
    const b = new OnnxBuilder(13);
    b.input('a', ta, as).init('b', tb, bs, ints(tb, numel(bs))).init('za', ta, [], ints(ta, 1)).init('zb', tb, bs.length === 2 ? [N] : [], ints(tb, bs.length === 2 ? N : 1)); // onnxruntime: per-column only for a 2-D B
    b.node('MatMulInteger', ['a', 'b', 'za', 'zb'], ['y'], {}).output('y', INT32, null);
    await agree(b, { a: [ta, ints(ta, numel(as)), as] }, `MatMulInteger const B ${JSON.stringify([ta, tb, as, bs])}`);
  }
});

test.run();
