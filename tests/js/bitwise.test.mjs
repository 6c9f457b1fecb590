// BitwiseAnd/Or/Xor/Not (opset 18) on every integer dtype, broadcast, run
// through hologram-exec and onnxruntime-node; bytes must be equal. The ops
// are exact, so any difference is a bug.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();

// ONNX dtype code, ORT tensor type, typed-array constructor
const DTYPES = [
  [3, 'int8', Int8Array], [2, 'uint8', Uint8Array], [5, 'int16', Int16Array], [4, 'uint16', Uint16Array],
  [6, 'int32', Int32Array], [12, 'uint32', Uint32Array], [7, 'int64', BigInt64Array], [13, 'uint64', BigUint64Array],
];

let seed = 99;
function randBytes(n) {
  const u = new Uint8Array(n);
  for (let i = 0; i < n; i++) u[i] = (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 24;
  return u;
}
const typed = (C, n) => new C(randBytes(n * C.BYTES_PER_ELEMENT).buffer);
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(op, dt, as, bs) {
  const b = new OnnxBuilder(18).input('a', dt, as);
  if (bs) b.input('b', dt, bs);
  b.node(op, bs ? ['a', 'b'] : ['a'], ['y']);
  return b.output('y', dt, null).bytes();
}

async function agree(op, [code, type, C], as, bs) {
  const bytes = model(op, code, as, bs);
  const a = typed(C, numel(as)), b = bs && typed(C, numel(bs));
  const feeds = { a: new ort.Tensor(type, a, as) };
  if (bs) feeds.b = new ort.Tensor(type, b, bs);
  const want = (await (await ort.InferenceSession.create(bytes)).run(feeds)).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const ins = { a: { data: a, shape: as } };
    if (bs) ins.b = { data: b, shape: bs };
    const got = h.run(ins).y;
    const what = `${op} ${type} ${as} ${bs ?? ''}`;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.is(got.data.constructor, C, `${what}: dtype`);
    assert.equal(new Uint8Array(got.data.buffer, got.data.byteOffset, got.data.byteLength),
      new Uint8Array(want.data.buffer, want.data.byteOffset, want.data.byteLength), `${what}: bytes`);
  } finally {
    h.dispose();
  }
}

test('BitwiseAnd, BitwiseOr, BitwiseXor agree with onnxruntime-node on every integer dtype, broadcast', async () => {
  for (const op of ['BitwiseAnd', 'BitwiseOr', 'BitwiseXor'])
    for (const d of DTYPES) {
      await agree(op, d, [3, 4], [3, 4]);
      await agree(op, d, [2, 3, 4], [4]);
      await agree(op, d, [2, 1, 5], [3, 1]);
    }
});

test('BitwiseNot agrees with onnxruntime-node on every integer dtype', async () => {
  for (const d of DTYPES) {
    await agree('BitwiseNot', d, [7]);
    await agree('BitwiseNot', d, [2, 3, 5]);
  }
});

test('Bitwise ops refuse float and bool operands with a message, and the session stays usable', () => {
  for (const [op, dt, C] of [['BitwiseAnd', 1, Float32Array], ['BitwiseNot', 9, Uint8Array], ['BitwiseOr', 11, Float64Array]]) {
    const unary = op === 'BitwiseNot';
    const h = rt.load(convert(model(op, dt, [3], unary ? null : [3])).holo);
    const ins = { a: { data: new C(3), shape: [3], ...(dt === 9 ? { dtype: 'bool' } : {}) } };
    if (!unary) ins.b = { data: new C(3), shape: [3] };
    assert.throws(() => h.run(ins), new RegExp(`${op}: input 0 must be an integer, got (f32|bool|f64)`), op);
    assert.throws(() => h.run(ins), new RegExp(op), `${op} again`);
    h.dispose();
  }
});

test.run();
