// com.microsoft RotaryEmbedding (compiler/onnx-ops-msft-rotary.js) against
// onnxruntime-node's own CPU kernel: every output within 1e-5 * max|ref| of
// onnxruntime's, over 3-D [B, S, hidden] and 4-D [B, N, S, H] inputs (64 cases),
// position_ids as an offset [1] and as [B, S], interleaved or not, partial
// rotary, batch 1 and 2, sequence 1 and 5, and one model with symbolic batch
// and sequence run at two lengths. Mutations (interleaving flipped, the
// offset dropped, the partial width widened) must miss the bar: the test can fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, INT32, F, rand, msftDomain as msft } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const TOL = 1e-5;

const ortT = (v) => new ort.Tensor(v.type ?? 'float32', v.data, v.shape);
/** worst |diff| / max |ref| of hologram on `mine` vs onnxruntime on `bytes`. */
async function diff(what, feeds, bytes, mine = bytes) {
  const want = (await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, ortT(v)])))).y;
  const h = rt.load(convert(mine).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, { data: v.data, shape: v.shape }]))).y;
    assert.ok(got, `${what}: output missing`);
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    const max = Math.max(1e-30, ...[...want.data].map(Math.abs));
    return Math.max(...[...got.data].map((v, i) => Math.abs(v - want.data[i]) / max));
  } finally {
    h.dispose();
  }
}
const agree = async (what, ...a) => { const r = await diff(what, ...a); assert.ok(r <= TOL, `${what}: max |diff| / max |ref| = ${r}`); };
const differs = async (what, ...a) => { const r = await diff(what, ...a); assert.ok(r > 1e-3, `${what}: the mutation was not caught (${r})`); };
const refuses = (what, bytes, re) => assert.throws(() => convert(bytes), re, what);

/** One RotaryEmbedding node; xshape/pshape may hold symbols. */
function rope({ xshape, pshape, M, half, attrs = {}, pdt = INT64 }) {
  const b = new OnnxBuilder(17);
  b.input('x', FLOAT, xshape).input('p', pdt, pshape).input('c', FLOAT, [M, half]).input('s', FLOAT, [M, half]);
  const a = { ...attrs };
  if (a.scale !== undefined) a.scale = F(a.scale);
  b.node('RotaryEmbedding', ['x', 'p', 'c', 's'], ['y'], a);
  b.output('y', FLOAT, null);
  return msft(b, ['RotaryEmbedding']);
}

/** Feeds: x of xshape, positions (an offset or [B, S] ids < M), caches of real angles. */
function feeds(xshape, B, S, M, half, offset) {
  const numel = xshape.reduce((a, d) => a * d, 1);
  const ang = Float32Array.from({ length: M * half }, (_, i) => Math.floor(i / half) / 10000 ** ((i % half) / half));
  const p = offset !== undefined ? { type: 'int64', shape: [1], data: BigInt64Array.from([BigInt(offset)]) }
    : { type: 'int64', shape: [B, S], data: BigInt64Array.from({ length: B * S }, (_, i) => BigInt((i * 7 + 3) % M)) };
  return { x: { data: rand(numel, 2), shape: xshape }, p, c: { data: ang.map(Math.cos), shape: [M, half] }, s: { data: ang.map(Math.sin), shape: [M, half] } };
}

test('RotaryEmbedding: 3-D and 4-D, offset and [B, S] positions, interleaved, partial rotary vs onnxruntime', async () => {
  let cases = 0;
  const M = 16;
  for (const [B, S] of [[1, 1], [2, 5]])
    for (const four of [false, true])
      for (const offset of [undefined, 3])
        for (const interleaved of [0, 1])
          for (const [N, H, R] of [[2, 8, 0], [4, 6, 0], [2, 8, 4], [3, 10, 6]]) {
            const half = (R || H) / 2;
            const xshape = four ? [B, N, S, H] : [B, S, N * H];
            // R = 0 with the head size from the cache; num_heads then optional (given on 3-D half the time)
            const attrs = { interleaved, ...(R ? { rotary_embedding_dim: R, num_heads: N } : four || H === 6 ? {} : { num_heads: N }) };
            const c = { xshape, pshape: offset !== undefined ? [1] : [B, S], M, half, attrs };
            await agree(`RotaryEmbedding ${JSON.stringify(c)}`, feeds(xshape, B, S, M, half, offset), rope(c));
            cases++;
          }
  // scale is taken and unused (onnxruntime's CPU kernel only scales a cache update it does not implement)
  await agree('scale 0.5', feeds([1, 3, 16], 1, 3, M, 4, 2), rope({ xshape: [1, 3, 16], pshape: [1], M, half: 4, attrs: { scale: 0.5 } }));
  assert.is(cases, 64);
});

test('RotaryEmbedding with symbolic batch and sequence: one conversion, several lengths', async () => {
  const M = 32, half = 4;
  for (const [four, pshape] of [[false, [1]], [false, ['B', 'S']], [true, [1]]]) {
    const xshape = four ? ['B', 2, 'S', 8] : ['B', 'S', 16];
    const bytes = rope({ xshape, pshape, M, half, attrs: { interleaved: four ? 1 : 0 } });
    for (const [B, S, off] of [[1, 7, 0], [2, 1, 9], [1, 3, 20]]) {
      const xs = four ? [B, 2, S, 8] : [B, S, 16];
      await agree(`symbolic ${xshape} ${pshape} at B=${B} S=${S}`, feeds(xs, B, S, M, half, pshape.length === 1 ? off : undefined), bytes);
    }
  }
});

test('RotaryEmbedding mutations miss the bar: interleaving flipped, the offset dropped, partial rotary widened', async () => {
  const M = 16, f = feeds([2, 5, 16], 2, 5, M, 4, 3);
  const base = { xshape: [2, 5, 16], pshape: [1], M, half: 4, attrs: { num_heads: 2 } };
  await differs('interleaved flipped', f, rope(base), rope({ ...base, attrs: { num_heads: 2, interleaved: 1 } }));
  const f0 = { ...f, p: { ...f.p, data: BigInt64Array.from([0n]) } };
  const ref = await (await ort.InferenceSession.create(rope(base))).run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, ortT(v)])));
  const h = rt.load(convert(rope(base)).holo);
  const got = h.run(Object.fromEntries(Object.entries(f0).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
  h.dispose();
  const max = Math.max(...[...ref.y.data].map(Math.abs));
  assert.ok(Math.max(...[...got.y.data].map((v, i) => Math.abs(v - ref.y.data[i]))) / max > 1e-3, 'offset dropped was not caught');
  // partial: rotary_embedding_dim 4 of head 8 (caches [M, 2]) vs the whole head rotated with the same angles repeated
  const fp = feeds([1, 3, 16], 1, 3, M, 2, 1);
  const partial = rope({ xshape: [1, 3, 16], pshape: [1], M, half: 2, attrs: { num_heads: 2, rotary_embedding_dim: 4 } });
  const wide = { ...fp, c: { data: Float32Array.from({ length: M * 4 }, (_, i) => fp.c.data[Math.floor(i / 4) * 2 + (i % 2)]), shape: [M, 4] } };
  wide.s = { data: Float32Array.from({ length: M * 4 }, (_, i) => fp.s.data[Math.floor(i / 4) * 2 + (i % 2)]), shape: [M, 4] };
  const r2 = await (await ort.InferenceSession.create(partial)).run(Object.fromEntries(Object.entries(fp).map(([k, v]) => [k, ortT(v)])));
  const h2 = rt.load(convert(rope({ xshape: [1, 3, 16], pshape: [1], M, half: 4, attrs: { num_heads: 2 } })).holo);
  const g2 = h2.run(Object.fromEntries(Object.entries(wide).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
  h2.dispose();
  const m2 = Math.max(...[...r2.y.data].map(Math.abs));
  assert.ok(Math.max(...[...g2.y.data].map((v, i) => Math.abs(v - r2.y.data[i]))) / m2 > 1e-3, 'partial widened was not caught');
});

test('RotaryEmbedding refuses packed batching, a sequence past the caches, other dtypes, bad widths by name', () => {
  const base = { xshape: [1, 3, 16], pshape: [1], M: 8, half: 4, attrs: { num_heads: 2 } };
  refuses('packed', rope({ ...base, attrs: { is_packed_batching: 1 } }), /is_packed_batching is not supported/);
  refuses('too long', rope({ ...base, M: 2 }), /a sequence of 3 is longer than the caches \(2\)/);
  refuses('int32 ids', rope({ ...base, pdt: INT32 }), /position_ids of int32 is not supported/);
  refuses('R > H', rope({ ...base, half: 5, attrs: { num_heads: 2, rotary_embedding_dim: 10 } }), /rotary_embedding_dim 10 must be even and at most the head size 8/);
  refuses('cache width', rope({ ...base, half: 3, attrs: { num_heads: 2, rotary_embedding_dim: 4 } }), /the caches' width 3 is not rotary_embedding_dim \/ 2 = 2/);
  refuses('R without heads', rope({ ...base, half: 2, attrs: { rotary_embedding_dim: 4 } }), /num_heads must be provided if rotary_embedding_dim is specified/);
  refuses('4-D heads', rope({ ...base, xshape: [1, 2, 3, 6], half: 4, attrs: {} }), /a 4-D input \[1,2,3,6\] needs 1 heads of 8|is not num_heads x head_size/);
  refuses('positions [B, S]', rope({ ...base, pshape: [1, 4] }), /position_ids \[1,4\] is not \[batch, sequence\] = \[1, 3\]/);
});

test('the default domain\'s RotaryEmbedding (opset 23): 3-D / 4-D, position_ids or per-token caches, interleaved, partial vs onnxruntime', async () => {
  let cases = 0;
  const M = 12;
  for (const [B, S] of [[1, 1], [2, 5]])
    for (const four of [false, true])
      for (const withPos of [true, false])
        for (const interleaved of [0, 1])
          for (const [N, H, R] of [[2, 8, 0], [3, 10, 6]]) {
            const half = (R || H) / 2, xshape = four ? [B, N, S, H] : [B, S, N * H];
            const b = new OnnxBuilder(23);
            b.input('x', FLOAT, xshape).input('c', FLOAT, withPos ? [M, half] : [B, S, half]).input('s', FLOAT, withPos ? [M, half] : [B, S, half]);
            if (withPos) b.input('p', INT64, [B, S]);
            b.node('RotaryEmbedding', withPos ? ['x', 'c', 's', 'p'] : ['x', 'c', 's'], ['y'], { interleaved, ...(four ? {} : { num_heads: N }), ...(R ? { rotary_embedding_dim: R } : {}) });
            b.output('y', FLOAT, null);
            const rows = withPos ? M : B * S;
            const ang = Float32Array.from({ length: rows * half }, (_, i) => (Math.floor(i / half) + 1) / 10000 ** ((i % half) / half));
            const f = { x: { data: rand(xshape.reduce((a, d) => a * d, 1), 2), shape: xshape }, c: { data: ang.map(Math.cos), shape: withPos ? [M, half] : [B, S, half] }, s: { data: ang.map(Math.sin), shape: withPos ? [M, half] : [B, S, half] } };
            if (withPos) f.p = { type: 'int64', shape: [B, S], data: BigInt64Array.from({ length: B * S }, (_, i) => BigInt((i * 5 + 2) % M)) };
            await agree(`RotaryEmbedding-23 ${JSON.stringify({ B, S, four, withPos, interleaved, N, H, R })}`, f, b.bytes());
            cases++;
          }
  assert.is(cases, 32);
  const b = new OnnxBuilder(23);
  b.input('x', FLOAT, [1, 2, 16]).input('c', FLOAT, [1, 2, 4]).input('s', FLOAT, [1, 2, 4]);
  b.node('RotaryEmbedding', ['x', 'c', 's'], ['y'], {}).output('y', FLOAT, null);
  refuses('3-D without num_heads', b.bytes(), /a 3-D X needs num_heads/);
});

test.run();
