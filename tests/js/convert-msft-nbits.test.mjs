// com.microsoft MatMulNBits with bits = 2 and 8 (compiler/onnx-ops-msft-nbits.js)
// against a float64 reference of the documented dequantization (the weight
// (q - zp) * scale rounded to f32 once) at 1e-5 of max|ref|, and against
// onnxruntime-node at 1e-4 of max|ref| (its fp32 kernels sum in another
// order): block sizes 16..128, a padded last block, k_blocks not a multiple
// of the 2-bit zero point's 4 per byte, zero points packed or absent
// (2^(bits-1)), bias, batched A. A large weight stays packed in the archive
// (the archive is smaller than its f32 copy); g_idx and bits 3 are refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, msftDomain } from './onnx-build.mjs';

const U8 = 2;
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const f32 = Math.fround;
let seed = 11;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const bytes8 = (n) => Uint8Array.from({ length: n }, () => next() >>> 24);
const floats = (n, s = 2) => Float32Array.from({ length: n }, () => ((next() >>> 8) / 2 ** 24 - 0.5) * s);

/** code i of a row of bytes packed `bits` per code, low bits first */
const code = (row, i, bits) => (row[Math.floor((i * bits) / 8)] >> ((i * bits) % 8)) & ((1 << bits) - 1);

function ref(c, a, M, B, S, Z, bias) {
  const { K, N, bs, bits } = c, kb = Math.ceil(K / bs), blob = (bs * bits) / 8, zrow = Math.ceil((kb * bits) / 8);
  const y = new Float64Array(M * N);
  for (let n = 0; n < N; n++)
    for (let k = 0; k < K; k++) {
      const blk = Math.floor(k / bs);
      const q = code(B.subarray((n * kb + blk) * blob), k % bs, bits);
      const z = Z ? code(Z.subarray(n * zrow), blk, bits) : 2 ** (bits - 1);
      const w = f32((q - z) * S[n * kb + blk]);
      for (let m = 0; m < M; m++) y[m * N + n] += a[m * K + k] * w;
    }
  if (bias) for (let m = 0; m < M; m++) for (let n = 0; n < N; n++) y[m * N + n] += bias[n];
  return y;
}

function model(c) {
  const { K, N, bs, bits } = c, kb = Math.ceil(K / bs), zrow = Math.ceil((kb * bits) / 8);
  const B = bytes8(N * kb * ((bs * bits) / 8));
  const S = Float32Array.from({ length: N * kb }, () => f32(0.005 + (next() >>> 8) / 2 ** 24 * 0.05));
  const Z = c.z ? bytes8(N * zrow) : null, bias = c.bias ? floats(N) : null;
  const b = new OnnxBuilder(13);
  b.input('a', FLOAT, c.as).init('B', U8, [N, kb, (bs * bits) / 8], B).init('S', FLOAT, [N * kb], S);
  const ins = ['a', 'B', 'S', c.z ? 'Z' : ''];
  if (Z) b.init('Z', U8, [Z.length], Z);
  if (c.gidx) { b.init('G', 6, [K], Array.from({ length: K }, (_, k) => Math.floor(k / bs))); ins[4] = 'G'; }
  if (bias) { b.init('bias', FLOAT, [N], bias); ins[4] = ins[4] || ''; ins[5] = 'bias'; }
  b.node('MatMulNBits', ins, ['y'], { K, N, bits, block_size: bs }).output('y', FLOAT, null);
  return { bytes: msftDomain(b), B, S, Z, bias };
}

async function check(c) {
  const { bytes, B, S, Z, bias } = model(c);
  const K = c.K, M = numel(c.as) / K, a = floats(numel(c.as));
  const what = `MatMulNBits ${JSON.stringify(c)}`;
  const { holo } = convert(bytes);
  const h = rt.load(holo);
  let got;
  try { got = h.run({ a: { data: a, shape: c.as } }).y; } finally { h.dispose(); }
  const own = (await (await ort.InferenceSession.create(bytes)).run({ a: new ort.Tensor('float32', a, c.as) })).y;
  const want = ref(c, a, M, B, S, Z, bias);
  assert.equal([...got.shape], [...c.as.slice(0, -1), c.N], `${what}: shape`);
  assert.equal([...got.shape], [...own.dims].map(Number), `${what}: shape vs onnxruntime`);
  const max = Math.max(...[...want].map(Math.abs));
  const d = (x) => Math.max(...[...x].map((v, i) => Math.abs(v - want[i]))) / max;
  assert.ok(d(got.data) <= 1e-5, `${what}: vs the float64 reference ${d(got.data)}`);
  assert.ok(d(own.data) <= 1e-4, `${what}: onnxruntime vs the float64 reference ${d(own.data)}`);
  return { holo, B };
}

const CASES = [
  { as: [3, 64], N: 8, bs: 32, z: true },
  { as: [2, 3, 50], N: 5, bs: 16, z: true, bias: true },
  { as: [4, 80], N: 12, bs: 16, z: false },
  { as: [1, 300], N: 7, bs: 128, z: true, bias: true },
  { as: [2, 200], N: 9, bs: 64, z: true },
  { as: [5, 16], N: 3, bs: 16, z: false, bias: true },
];

for (const bits of [8, 2])
  test(`MatMulNBits bits = ${bits}: block sizes 16-128, padded last block, zero points packed or absent, bias, batched A`, async () => {
    for (const c of CASES) await check({ ...c, K: c.as[c.as.length - 1], bits });
  });

test('MatMulNBits bits 8 and 2: a large weight stays packed in the archive (not an f32 copy)', async () => {
  for (const bits of [8, 2]) {
    const { holo, B } = await check({ as: [2, 512], K: 512, N: 256, bs: 32, z: true, bits });
    const f32Bytes = 512 * 256 * 4;
    assert.ok(holo.length < B.length + f32Bytes / 8, `bits ${bits}: archive ${holo.length} bytes for ${B.length} packed (f32 copy ${f32Bytes})`);
  }
});

test('MatMulNBits: g_idx and bits 3 are refused by name', () => {
  const base = { as: [2, 64], K: 64, N: 4, bs: 32, z: true };
  assert.throws(() => convert(model({ ...base, bits: 8, gidx: true }).bytes), /g_idx/);
  const b = new OnnxBuilder(13);
  b.input('a', FLOAT, [2, 64]).init('B', U8, [4, 2, 12], bytes8(96)).init('S', FLOAT, [8], floats(8));
  b.node('MatMulNBits', ['a', 'B', 'S'], ['y'], { K: 64, N: 4, bits: 3, block_size: 32 }).output('y', FLOAT, null);
  assert.throws(() => convert(msftDomain(b)), /bits = 3 is not supported/);
});

test.run();
