// The com.microsoft attention contrib ops (compiler/onnx-ops-msft-attention.js)
// against onnxruntime-node's own CPU kernels: every output within 1e-5 *
// max|ref| of onnxruntime's, over batch 1 and 2, sequence 1 and 7, 2 and 4
// heads, each mask form. Mutations (the mask dropped, the scale wrong, the
// causal mask off) are converted too and must miss the bar: the test can fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, F, rand, msftDomain as msft } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const TOL = 1e-5;

/** Runs `bytes` in onnxruntime and `mine` (default: bytes) in hologram on `feeds`; returns worst |diff| / max |ref| over `outs`. */
async function diff(what, feeds, outs, bytes, mine = bytes) {
  const ofeeds = Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor(v.type ?? 'float32', v.data, v.shape)]));
  const want = await (await ort.InferenceSession.create(bytes)).run(ofeeds);
  const h = rt.load(convert(mine).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
    let r = 0;
    for (const o of outs) {
      const g = got[o], w = want[o];
      assert.ok(g, `${what}: output ${o} missing`);
      assert.equal([...g.shape], [...w.dims].map(Number), `${what}: ${o} shape`);
      const max = Math.max(1e-30, ...[...w.data].map(Math.abs));
      r = Math.max(r, ...[...g.data].map((v, i) => Math.abs(v - w.data[i]) / max));
    }
    return r;
  } finally {
    h.dispose();
  }
}
const agree = async (what, ...a) => { const r = await diff(what, ...a); assert.ok(r <= TOL, `${what}: max |diff| / max |ref| = ${r}`); };
const differs = async (what, ...a) => { const r = await diff(what, ...a); assert.ok(r > 1e-3, `${what}: the mutation was not caught (${r})`); };
const refuses = (what, bytes, re) => assert.throws(() => convert(bytes), re, what);

/** One Attention node: x [B, S, D], weights, bias, mask input 'm' of mshape (int32) when given. */
function attention({ B, S, D, N, hid = D, mshape, attrs = {}, bias = true, abias = false }, seedW) {
  const b = new OnnxBuilder(17);
  b.input('x', FLOAT, [B, S, D]);
  const H3 = attrs.qkv_hidden_sizes ? attrs.qkv_hidden_sizes.reduce((a, c) => a + c, 0) : 3 * hid;
  b.init('w', FLOAT, [D, H3], seedW.w.slice(0, D * H3)).init('bi', FLOAT, [H3], seedW.b.slice(0, H3));
  if (mshape) b.input('m', INT32, mshape);
  if (abias) b.input('ab', FLOAT, [1, N, S, S]);
  const ins = ['x', 'w', bias ? 'bi' : '', mshape ? 'm' : '', '', abias ? 'ab' : ''];
  while (!ins[ins.length - 1]) ins.pop();
  const a = { num_heads: N, ...attrs };
  if (a.scale !== undefined) a.scale = F(a.scale);
  if (a.mask_filter_value !== undefined) a.mask_filter_value = F(a.mask_filter_value);
  b.node('Attention', ins, ['y'], a);
  b.output('y', FLOAT, null);
  return msft(b, ['Attention']);
}

const W = { w: rand(64 * 3 * 64), b: rand(3 * 64) };

/** The mask feed of each form for batch B, sequence S: some keys masked in every row but the first. */
function maskFeed(form, B, S) {
  if (form === 'raw') return { type: 'int32', shape: [B, S], data: Int32Array.from({ length: B * S }, (_, i) => (i % S < S - (Math.floor(i / S) + 1) % S || i % S === 0 ? 1 : 0)) };
  if (form === 'len') return { type: 'int32', shape: [B], data: Int32Array.from({ length: B }, (_, i) => Math.max(1, S - 2 * i - (S > 1 ? 1 : 0))) };
  if (form === 'startend') return { type: 'int32', shape: [2 * B], data: Int32Array.from([...Array.from({ length: B }, () => S), ...Array.from({ length: B }, (_, i) => Math.min(i + (S > 2 ? 1 : 0), S - 1))]) };
  if (form === '3d') return { type: 'int32', shape: [B, S, S], data: Int32Array.from({ length: B * S * S }, (_, i) => (i % S === 0 || (i * 7) % 3 ? 1 : 0)) };
  return null;
}

test('Attention: packed QKV, bias, masks (none, raw 2-D, 1-D lengths, 1-D end/start, 3-D), unidirectional, scale vs onnxruntime', async () => {
  let cases = 0;
  for (const [B, S] of [[1, 1], [1, 7], [2, 7], [2, 1]])
    for (const N of [2, 4])
      for (const form of [null, 'raw', 'len', 'startend', '3d'])
        for (const uni of [0, 1]) {
          const D = 16, m = maskFeed(form, B, S);
          const c = { B, S, D, N, mshape: m?.shape, attrs: { unidirectional: uni } };
          const feeds = { x: { data: rand(B * S * D, 2), shape: [B, S, D] }, ...(m ? { m } : {}) };
          await agree(`Attention ${JSON.stringify(c)}`, feeds, ['y'], attention(c, W));
          cases++;
        }
  // scale, mask_filter_value, no bias, qkv_hidden_sizes with a wider V, attention_bias
  const B = 2, S = 7, D = 8, N = 2, feeds = { x: { data: rand(B * S * D, 2), shape: [B, S, D] }, m: maskFeed('raw', B, S) };
  await agree('scale 0.3', feeds, ['y'], attention({ B, S, D, N, mshape: [B, S], attrs: { scale: 0.3 } }, W));
  await agree('mask_filter_value -50', feeds, ['y'], attention({ B, S, D, N, mshape: [B, S], attrs: { mask_filter_value: -50 } }, W));
  // no bias: onnxruntime-node 1.30's CPU Attention kernel crashes (SIGSEGV) without one, so there is no reference; refused
  await agree('qkv_hidden_sizes 8,8,12', feeds, ['y'], attention({ B, S, D, N, mshape: [B, S], attrs: { qkv_hidden_sizes: [8, 8, 12] } }, W));
  const ab = { ...feeds, ab: { data: rand(N * S * S, 3), shape: [1, N, S, S] } };
  await agree('attention_bias', ab, ['y'], attention({ B, S, D, N, mshape: [B, S], abias: true }, W));
  assert.ok(cases === 80);
});

test('Attention mutations miss the bar: the mask dropped, the scale wrong, the causal mask off', async () => {
  const B = 2, S = 7, D = 16, N = 4, feeds = { x: { data: rand(B * S * D, 2), shape: [B, S, D] }, m: maskFeed('raw', B, S) };
  const base = { B, S, D, N, mshape: [B, S] };
  // the mask dropped: onnxruntime with the mask vs hologram without (a mask-less model fed only x)
  const ref = await (await ort.InferenceSession.create(attention(base, W))).run({ x: new ort.Tensor('float32', feeds.x.data, feeds.x.shape), m: new ort.Tensor('int32', feeds.m.data, feeds.m.shape) });
  const h = rt.load(convert(attention({ ...base, mshape: undefined }, W)).holo);
  const got = h.run({ x: feeds.x });
  h.dispose();
  const max = Math.max(...[...ref.y.data].map(Math.abs));
  assert.ok(Math.max(...[...got.y.data].map((v, i) => Math.abs(v - ref.y.data[i]))) / max > 1e-3, 'mask dropped was not caught');
  await differs('scale wrong', feeds, ['y'], attention(base, W), attention({ ...base, attrs: { scale: 0.25 * 1.1 } }, W));
  await differs('causal off', feeds, ['y'], attention({ ...base, attrs: { unidirectional: 1 } }, W), attention(base, W));
  await differs('filter -inf-ish vs -10000', feeds, ['y'], attention({ ...base, attrs: { mask_filter_value: -2 } }, W), attention(base, W));
});

test('Attention refuses past/present, 4-D masks, q != k hidden sizes, other dtypes by name', () => {
  const b = new OnnxBuilder(17);
  b.input('x', FLOAT, [1, 3, 8]).input('past', FLOAT, [2, 1, 2, 0, 4]).init('w', FLOAT, [8, 24], rand(192));
  b.node('Attention', ['x', 'w', '', '', 'past'], ['y', 'present'], { num_heads: 2 }).output('y', FLOAT, null).output('present', FLOAT, null);
  refuses('past', msft(b, ['Attention']), /past \(the KV cache\) is not supported/);
  refuses('no bias', attention({ B: 1, S: 3, D: 8, N: 2, bias: false }, W), /a missing bias is not supported/);
  refuses('4-D mask', attention({ B: 1, S: 3, D: 8, N: 2, mshape: [1, 1, 3, 3] }, W), /a 4-D mask_index is not supported/);
  refuses('q != k', attention({ B: 1, S: 3, D: 8, N: 2, attrs: { qkv_hidden_sizes: [8, 4, 8] } }, W), /qkv_hidden_sizes with q \(8\) != k \(4\)/);
});

test('default-domain SimplifiedLayerNormalization (onnxruntime\'s BERT/T5 optimizer output) agrees with onnxruntime', async () => {
  for (const [xs, axis, eps] of [[[2, 4, 8], -1, 1e-3], [[1, 7, 16], -1, undefined], [[2, 3, 4], 1, 0.05]]) {
    const ss = xs.slice(axis < 0 ? axis + xs.length : axis);
    const b = new OnnxBuilder(17);
    b.input('x', FLOAT, xs).init('s', FLOAT, ss, rand(numel(ss)));
    b.node('SimplifiedLayerNormalization', ['x', 's'], ['y', 'iv'], { axis, ...(eps === undefined ? {} : { epsilon: F(eps) }) });
    b.output('y', FLOAT, null).output('iv', FLOAT, null);
    await agree(`SimplifiedLayerNormalization ${xs} axis=${axis}`, { x: { data: rand(numel(xs), eps === 0.05 ? 0.2 : 3), shape: xs } }, ['y', 'iv'], b.bytes());
  }
});

test.run();
