// com.microsoft MultiHeadAttention (compiler/onnx-ops-msft-attention.js,
// sharing Attention's mask and attend helpers) against onnxruntime-node's
// own CPU kernel: output and present_key/present_value within 1e-5 *
// max|ref|, over self- and cross-attention (kv sequence != sequence), the
// q/k/v bias, key_padding_mask (none, 2-D raw, 1-D key lengths), causal,
// past_key/past_value with presents, attention_bias, scale,
// mask_filter_value and BNSH key/value. Mutations must miss the bar.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, F, rand, msftDomain as msft } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const TOL = 1e-5;

/** One MHA node. c: { B, S, L, N, H, Hv, bias, mask ('raw' | 'len'), P, abias, bnsh, attrs } */
function mha(c) {
  const { B, S, L, N, H, Hv = H, bias = false, mask = null, P = null, abias = false, bnsh = false, attrs = {} } = c;
  const b = new OnnxBuilder(17), T = L + (P ?? 0);
  b.input('q', FLOAT, [B, S, N * H]);
  if (bnsh) b.input('k', FLOAT, [B, N, L, H]).input('v', FLOAT, [B, N, L, Hv]);
  else b.input('k', FLOAT, [B, L, N * H]).input('v', FLOAT, [B, L, N * Hv]);
  if (bias) b.input('bi', FLOAT, [N * (2 * H + Hv)]);
  if (mask) b.input('m', INT32, mask === 'raw' ? [B, T] : [B]);
  if (abias) b.input('ab', FLOAT, [1, N, S, T]);
  if (P !== null) b.input('pk', FLOAT, [B, N, P, H]).input('pv', FLOAT, [B, N, P, Hv]);
  const ins = ['q', 'k', 'v', bias ? 'bi' : '', mask ? 'm' : '', abias ? 'ab' : '', P !== null ? 'pk' : '', P !== null ? 'pv' : ''];
  while (!ins[ins.length - 1]) ins.pop();
  const a = { num_heads: N, ...attrs };
  for (const f of ['scale', 'mask_filter_value']) if (a[f] !== undefined) a[f] = F(a[f]);
  const outs = P !== null ? ['y', 'pko', 'pvo'] : ['y'];
  b.node('MultiHeadAttention', ins, outs, a);
  for (const o of outs) b.output(o, FLOAT, null);
  return msft(b);
}

function feeds(c) {
  const { B, S, L, N, H, Hv = H, bias = false, mask = null, P = null, abias = false, bnsh = false } = c, T = L + (P ?? 0);
  const f = { q: { data: rand(B * S * N * H, 1.5), shape: [B, S, N * H] } };
  f.k = { data: rand(B * L * N * H, 1.5), shape: bnsh ? [B, N, L, H] : [B, L, N * H] };
  f.v = { data: rand(B * L * N * Hv), shape: bnsh ? [B, N, L, Hv] : [B, L, N * Hv] };
  if (bias) f.bi = { data: rand(N * (2 * H + Hv)), shape: [N * (2 * H + Hv)] };
  if (mask === 'raw') f.m = { type: 'int32', shape: [B, T], data: Int32Array.from({ length: B * T }, (_, i) => (i % T === 0 || (i * 5) % 3 ? 1 : 0)) };
  if (mask === 'len') f.m = { type: 'int32', shape: [B], data: Int32Array.from({ length: B }, (_, i) => Math.max(1, T - 2 * i - 1)) };
  if (abias) f.ab = { data: rand(N * S * T, 2), shape: [1, N, S, T] };
  if (P !== null) { f.pk = { data: rand(B * N * P * H, 1.5), shape: [B, N, P, H] }; f.pv = { data: rand(B * N * P * Hv), shape: [B, N, P, Hv] }; }
  return f;
}

async function diff(what, c, mine) {
  const f = feeds(c), bytes = mha(c);
  const want = await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.type ?? 'float32', v.data, v.shape)])));
  const h = rt.load(convert(mine ?? bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
    let r = 0;
    for (const o of Object.keys(want)) {
      assert.ok(got[o], `${what}: ${o} missing`);
      assert.equal([...got[o].shape], [...want[o].dims].map(Number), `${what}: ${o} shape`);
      const max = Math.max(1e-30, ...[...want[o].data].map(Math.abs));
      r = Math.max(r, ...[...got[o].data].map((x, i) => Math.abs(x - want[o].data[i]) / max));
    }
    return r;
  } finally {
    h.dispose();
  }
}
const agree = async (what, c) => { const r = await diff(what, c); assert.ok(r <= TOL, `${what}: max |diff| / max |ref| = ${r}`); };
const differs = async (what, c, mine) => { const r = await diff(what, c, mine); assert.ok(r > 1e-3, `${what}: the mutation was not caught (${r})`); };

test('MultiHeadAttention: self and cross attention, bias, key_padding_mask, causal, past/present vs onnxruntime', async () => {
  let cases = 0;
  for (const [B, S, L] of [[1, 1, 1], [2, 4, 4], [2, 3, 5]])
    for (const N of [2, 4])
      for (const bias of [false, true])
        for (const mask of [null, 'raw', 'len'])
          for (const uni of S === L ? [0, 1] : [0]) {
            const c = { B, S, L, N, H: 8, bias, mask, attrs: { unidirectional: uni } };
            await agree(`MHA ${JSON.stringify(c)}`, c);
            if (mask !== 'len') await agree(`MHA past ${JSON.stringify(c)}`, { ...c, P: 3 });
            cases++;
          }
  assert.is(cases, 60);
  const c = { B: 2, S: 3, L: 4, N: 2, H: 8, mask: 'raw' };
  await agree('scale', { ...c, attrs: { scale: 0.2 } });
  await agree('mask_filter_value', { ...c, attrs: { mask_filter_value: -30 } });
  await agree('attention_bias', { ...c, abias: true, bias: true });
  await agree('attention_bias + past', { ...c, abias: true, P: 2 });
  await agree('value head 12', { ...c, Hv: 12, bias: true });
  await agree('BNSH key/value', { ...c, bnsh: true });
});

test('MultiHeadAttention mutations miss the bar: bias, causal, mask, scale', async () => {
  const c = { B: 2, S: 4, L: 4, N: 2, H: 8, mask: 'raw', bias: true, attrs: { unidirectional: 1 } };
  await differs('causal off', c, mha({ ...c, attrs: {} }));
  await differs('scale', c, mha({ ...c, attrs: { unidirectional: 1, scale: 0.1 } }));
  await differs('filter', { ...c, attrs: { mask_filter_value: -3 } }, mha({ ...c, attrs: {} }));
});

test('MultiHeadAttention refuses packed QKV, DecoderMasked inputs, a bias with BNSH key/value by name', () => {
  const refuses = (what, bytes, re) => assert.throws(() => convert(bytes), re, what);
  const b = new OnnxBuilder(17);
  b.input('q', FLOAT, [1, 2, 16]);
  b.node('MultiHeadAttention', ['q'], ['y'], { num_heads: 2 }).output('y', FLOAT, null);
  refuses('packed', msft(b), /separate key and value are required/);
  const b2 = new OnnxBuilder(17);
  b2.input('q', FLOAT, [1, 1, 16]).input('k', FLOAT, [1, 1, 16]).input('v', FLOAT, [1, 1, 16]).input('pl', INT32, [1]);
  b2.node('MultiHeadAttention', ['q', 'k', 'v', '', '', '', '', '', 'pl'], ['y'], { num_heads: 2 }).output('y', FLOAT, null);
  refuses('past_sequence_length', msft(b2), /past_sequence_length and cache_indirection/);
  refuses('causal cross', mha({ B: 1, S: 2, L: 3, N: 2, H: 8, attrs: { unidirectional: 1 } }), /unidirectional with a kv sequence \(3\) other than the sequence \(2\) is not supported/);
  refuses('bnsh + bias', mha({ B: 1, S: 2, L: 2, N: 2, H: 8, bnsh: true, bias: true }), /4-D \(BNSH\) key and value take no bias and no past/);
});

test.run();
