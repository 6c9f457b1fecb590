// com.microsoft GroupQueryAttention (compiler/onnx-ops-msft-gqa.js) against
// onnxruntime-node's own CPU kernel: output and present_key/present_value
// within 1e-5 * max|ref| of onnxruntime's. Prompts (right-padded per
// seqlens_k, packed and separate QKV, grouped heads), decode steps over a
// growing past and over a fixed max-length past buffer (genai's layout),
// rotary (partial, interleaved), softcap, smooth_softmax, local windows,
// scale; one model with symbolic batch/sequence/past run as a prompt then
// decode steps, each step's present fed back as past. The output rows of
// padded tokens of a first prompt (s >= seqlens_k + 1) are padding and not
// compared (they agree without a local window, not with one). Mutations
// must miss the bar: the test can fail.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, F, rand, msftDomain as msft } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const TOL = 1e-5;

/** One GQA node. c: { B, S, N, Nk, H, P (past length, or null), packed, rot (cache width), M, attrs, sym } */
function gqa(c) {
  const { B, S, N, Nk, H, P = null, packed = false, rot = 0, M = 32, attrs = {}, sym = false } = c;
  const b = new OnnxBuilder(17);
  const Bd = sym ? 'B' : B, Sd = sym ? 'S' : S, Pd = sym ? 'P' : P;
  b.input('q', FLOAT, [Bd, Sd, packed ? (N + 2 * Nk) * H : N * H]);
  if (!packed) b.input('k', FLOAT, [Bd, Sd, Nk * H]).input('v', FLOAT, [Bd, Sd, Nk * H]);
  if (P !== null) b.input('pk', FLOAT, [Bd, Nk, Pd, H]).input('pv', FLOAT, [Bd, Nk, Pd, H]);
  b.input('sl', INT32, [Bd]).input('tot', INT32, [1]);
  if (rot) b.input('cos', FLOAT, [M, rot]).input('sin', FLOAT, [M, rot]);
  const ins = ['q', packed ? '' : 'k', packed ? '' : 'v', P !== null ? 'pk' : '', P !== null ? 'pv' : '', 'sl', 'tot', rot ? 'cos' : '', rot ? 'sin' : ''];
  while (!ins[ins.length - 1]) ins.pop();
  const a = { num_heads: N, kv_num_heads: Nk, ...attrs, ...(rot ? { do_rotary: 1 } : {}) };
  for (const f of ['scale', 'softcap']) if (a[f] !== undefined) a[f] = F(a[f]);
  b.node('GroupQueryAttention', ins, ['y', 'pko', 'pvo'], a);
  b.output('y', FLOAT, null).output('pko', FLOAT, null).output('pvo', FLOAT, null);
  return msft(b);
}

/** Feeds for c with row lengths `lens` (each row's total length) and total_sequence_length T. */
function feeds(c, lens, T) {
  const { B, S, N, Nk, H, P = null, packed = false, rot = 0, M = 32 } = c;
  const f = {};
  f.q = { data: rand(B * S * (packed ? N + 2 * Nk : N) * H, 1.5), shape: [B, S, (packed ? N + 2 * Nk : N) * H] };
  if (!packed) { f.k = { data: rand(B * S * Nk * H, 1.5), shape: [B, S, Nk * H] }; f.v = { data: rand(B * S * Nk * H), shape: [B, S, Nk * H] }; }
  if (P !== null) { f.pk = { data: rand(B * Nk * P * H, 1.5), shape: [B, Nk, P, H] }; f.pv = { data: rand(B * Nk * P * H), shape: [B, Nk, P, H] }; }
  f.sl = { type: 'int32', data: Int32Array.from(lens.map((l) => l - 1)), shape: [B] };
  f.tot = { type: 'int32', data: Int32Array.from([T]), shape: [1] };
  if (rot) {
    const ang = Float32Array.from({ length: M * rot }, (_, i) => Math.floor(i / rot) / 10000 ** ((i % rot) / rot));
    f.cos = { data: ang.map(Math.cos), shape: [M, rot] };
    f.sin = { data: ang.map(Math.sin), shape: [M, rot] };
  }
  return f;
}

const ortT = (v) => new ort.Tensor(v.type ?? 'float32', v.data, v.shape);
const ortRun = async (bytes, f) => (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, ortT(v)])));
const holoRun = (bytes, f) => {
  const h = rt.load(convert(bytes).holo);
  try { return h.run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, { data: v.data, shape: v.shape }]))); } finally { h.dispose(); }
};

/** worst |diff| / max|ref| over y (rows of padded prompt tokens skipped), pko, pvo. */
function worst(what, got, want, c, lens, first) {
  let r = 0;
  for (const o of ['y', 'pko', 'pvo']) {
    const g = got[o], w = want[o];
    assert.ok(g, `${what}: ${o} missing`);
    assert.equal([...g.shape], [...w.dims].map(Number), `${what}: ${o} shape`);
    const keep = (i) => {
      if (o !== "y" || !first) return true;
      const row = Math.floor(i / (c.N * c.H)), b = Math.floor(row / c.S), s = row % c.S;
      return s < lens[b];
    };
    const max = Math.max(1e-30, ...[...w.data].map(Math.abs));
    for (let i = 0; i < g.data.length; i++) if (keep(i)) r = Math.max(r, Math.abs(g.data[i] - w.data[i]) / max);
  }
  return r;
}
async function agree(what, c, lens, T, mine) {
  const f = feeds(c, lens, T), want = await ortRun(gqa(c), f), got = holoRun(mine ?? gqa(c), f);
  const r = worst(what, got, want, c, lens, c.S === T);
  assert.ok(r <= TOL, `${what}: max |diff| / max |ref| = ${r}`);
}
async function differs(what, c, lens, T, mine) {
  const f = feeds(c, lens, T), want = await ortRun(gqa(c), f), got = holoRun(mine, f);
  const r = worst(what, got, want, c, lens, c.S === T);
  assert.ok(r > 1e-3, `${what}: the mutation was not caught (${r})`);
}

test('GroupQueryAttention prompts: packed / separate QKV, grouped heads, right padding, rotary vs onnxruntime', async () => {
  let cases = 0;
  for (const [B, S, lens] of [[1, 1, [1]], [1, 5, [5]], [2, 5, [5, 3]]])
    for (const [N, Nk] of [[4, 2], [2, 2], [4, 1]])
      for (const packed of [false, true])
        for (const rot of [0, 8]) {
          const c = { B, S, N, Nk, H: 16, packed, rot, attrs: rot ? { rotary_interleaved: cases % 2 } : {} };
          await agree(`prompt ${JSON.stringify(c)} lens ${lens}`, c, lens, S);
          // the same prompt with an empty past (genai's first step)
          if (!packed && N === 4 && Nk === 2) await agree(`prompt, empty past ${JSON.stringify(c)}`, { ...c, P: 0 }, lens, S);
          cases++;
        }
  assert.is(cases, 36);
});

test('GroupQueryAttention decode: growing past, max-length past buffer, padding, rotary, softcap, smooth softmax, window, scale', async () => {
  const base = { B: 2, S: 1, N: 4, Nk: 2, H: 16 };
  // growing past (non-shared): P = 4, T = 5, rows of 5 and 4 tokens
  await agree('decode P=4', { ...base, P: 4 }, [5, 4], 5);
  await agree('decode P=4 rotary partial (H 32, cache width 8)', { ...base, H: 32, P: 4, rot: 8 }, [5, 3], 5);
  await agree('decode P=4 rotary interleaved', { ...base, P: 4, rot: 8, attrs: { rotary_interleaved: 1 } }, [5, 5], 5);
  // genai's max-length buffer: past P = 8, T = 6 <= P, present stays [B, Nk, 8, H]
  await agree('decode max-length buffer', { ...base, P: 8, rot: 8 }, [6, 4], 6);
  await agree('packed decode', { ...base, P: 4, packed: true }, [5, 2], 5);
  for (const attrs of [{ softcap: 2.5 }, { smooth_softmax: 1 }, { local_window_size: 2 }, { scale: 0.3 }, { softcap: 1.5, smooth_softmax: 1, local_window_size: 1 }]) {
    await agree(`decode ${JSON.stringify(attrs)}`, { ...base, P: 6, attrs }, [7, 5], 7);
    await agree(`prompt ${JSON.stringify(attrs)}`, { ...base, S: 6, attrs }, [6, 4], 6);
  }
  // a second prompt chunk on a past (interactive decoding: batch 1, S > 1, S != T)
  await agree('subsequent prompt', { B: 1, S: 3, N: 4, Nk: 2, H: 16, P: 4, rot: 8 }, [7], 7);
});

test('GroupQueryAttention with symbolic batch, sequence and past: one conversion, a prompt then decode steps', async () => {
  const c = { B: 1, S: 4, N: 4, Nk: 2, H: 16, P: 0, rot: 8, sym: true, M: 32 };
  const bytes = gqa(c), holo = convert(bytes).holo;
  const h = rt.load(holo), sess = await ort.InferenceSession.create(bytes);
  try {
    let past = null, len = 0;
    for (const S of [4, 1, 1, 1]) {
      const cc = { ...c, S, P: len };
      const f = feeds(cc, [len + S], len + S);
      if (past) { f.pk = past.pk; f.pv = past.pv; }
      const want = await sess.run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, ortT(v)])));
      const got = h.run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
      const r = worst(`step S=${S} past ${len}`, got, want, cc, [len + S], len === 0);
      assert.ok(r <= TOL, `step S=${S} past ${len}: ${r}`);
      past = { pk: { data: got.pko.data, shape: [...got.pko.shape] }, pv: { data: got.pvo.data, shape: [...got.pvo.shape] } };
      len += S;
    }
  } finally {
    h.dispose();
  }
});

// genai's layout puts a SkipSimplifiedLayerNormalization right after each
// GQA: over symbolic dims that needs y's shape [B, S, N*H], which the
// cache's length max(T, P) had hidden ("input needs a known rank").
test('GroupQueryAttention output feeds SkipSimplifiedLayerNormalization over symbolic batch and sequence', async () => {
  const c = { B: 2, S: 5, N: 4, Nk: 2, H: 8, P: null, sym: true };
  const b = new OnnxBuilder(17);
  b.input('q', FLOAT, ['B', 'S', 32]).input('k', FLOAT, ['B', 'S', 16]).input('v', FLOAT, ['B', 'S', 16]);
  b.input('sl', INT32, ['B']).input('tot', INT32, [1]).input('skip', FLOAT, ['B', 'S', 32]);
  b.init('g', FLOAT, [32], rand(32, 1));
  b.node('GroupQueryAttention', ['q', 'k', 'v', '', '', 'sl', 'tot'], ['y', 'pko', 'pvo'], { num_heads: 4, kv_num_heads: 2 });
  b.node('SkipSimplifiedLayerNormalization', ['y', 'skip', 'g'], ['out'], { epsilon: F(1e-5) });
  b.output('out', FLOAT, null);
  const bytes = msft(b, ['GroupQueryAttention', 'SkipSimplifiedLayerNormalization']);
  const holo = convert(bytes).holo;
  for (const [B, S] of [[2, 5], [1, 3]]) {
    const f = feeds({ ...c, B, S }, Array(B).fill(S), S);
    f.skip = { data: rand(B * S * 32, 1), shape: [B, S, 32] };
    const want = (await ortRun(bytes, f)).out;
    const h = rt.load(holo);
    let got;
    try { got = h.run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, { data: v.data, shape: v.shape }]))).out; } finally { h.dispose(); }
    assert.equal([...got.shape], [B, S, 32]);
    let d = 0, m = 0;
    for (let i = 0; i < want.data.length; i++) { d = Math.max(d, Math.abs(got.data[i] - want.data[i])); m = Math.max(m, Math.abs(want.data[i])); }
    assert.ok(d <= 1e-5 * m, `B ${B} S ${S}: ${d} vs max ${m}`);
  }
});

test('GroupQueryAttention mutations miss the bar: softcap, window, smooth softmax, rotary interleaving, padding', async () => {
  const base = { B: 2, S: 1, N: 4, Nk: 2, H: 16, P: 6 };
  await differs('softcap dropped', { ...base, attrs: { softcap: 0.5 } }, [7, 5], 7, gqa(base));
  await differs('window dropped', { ...base, attrs: { local_window_size: 1 } }, [7, 5], 7, gqa(base));
  await differs('smooth dropped', { ...base, attrs: { smooth_softmax: 1 } }, [7, 5], 7, gqa(base));
  await differs('interleaving flipped', { ...base, rot: 8 }, [7, 5], 7, gqa({ ...base, rot: 8, attrs: { rotary_interleaved: 1 } }));
  await differs('scale wrong', { ...base, attrs: { scale: 0.3 } }, [7, 5], 7, gqa(base));
});

test('GroupQueryAttention refuses the custom-attention inputs, mismatched pairs, other dtypes by name', () => {
  const refuses = (what, bytes, re) => assert.throws(() => convert(bytes), re, what);
  const b = new OnnxBuilder(17);
  b.input('q', FLOAT, [1, 2, 64]).input('sl', INT32, [1]).input('tot', INT32, [1]).input('pid', 7, [1, 2]);
  b.node('GroupQueryAttention', ['q', '', '', '', '', 'sl', 'tot', '', '', 'pid'], ['y', 'pk', 'pv'], { num_heads: 2, kv_num_heads: 1 });
  b.output('y', FLOAT, null).output('pk', FLOAT, null).output('pv', FLOAT, null);
  refuses('position_ids', msft(b), /the position_ids, attention_bias and head_sink inputs are not supported/);
  const b2 = new OnnxBuilder(17);
  b2.input('q', FLOAT, [1, 2, 64]).input('sl', 7, [1]).input('tot', INT32, [1]);
  b2.node('GroupQueryAttention', ['q', '', '', '', '', 'sl', 'tot'], ['y', 'pk', 'pv'], { num_heads: 2, kv_num_heads: 1 });
  b2.output('y', FLOAT, null).output('pk', FLOAT, null).output('pv', FLOAT, null);
  refuses('int64 seqlens', msft(b2), /seqlens_k of int64 is not supported/);
  const b3 = new OnnxBuilder(17);
  b3.input('q', FLOAT, [1, 2, 64]).input('sl', INT32, [1]).input('tot', INT32, [1]);
  b3.node('GroupQueryAttention', ['q', '', '', '', '', 'sl', 'tot'], ['y', 'pk', 'pv'], { num_heads: 3, kv_num_heads: 2 });
  b3.output('y', FLOAT, null).output('pk', FLOAT, null).output('pv', FLOAT, null);
  refuses('heads', msft(b3), /num_heads 3 is not a multiple of kv_num_heads 2/);
  refuses('rotary without caches', gqa({ B: 1, S: 2, N: 2, Nk: 1, H: 16, attrs: { do_rotary: 1 } }), /do_rotary needs cos_cache and sin_cache/);
});

test.run();
