// com.microsoft EmbedLayerNormalization (compiler/onnx-ops-msft-embed.js)
// against onnxruntime-node's own CPU kernel: output, mask_index and
// embedding_sum within 1e-5 * max|ref| (mask_index exactly), with and
// without segments, mask, position_ids, epsilon; and a symbolic
// batch/sequence model at two shapes. Mutations must miss the bar.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT32, INT64, F, rand, msftDomain as msft } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const TOL = 1e-5, V = 20, P = 16, G = 2, D = 16;
const W = { w: rand(V * D), p: rand(P * D), s: rand(G * D), g: rand(D, 1.5), b: rand(D) };

/** c: { B, S, seg, mask, pos (position_ids dtype), eps, sym, outs } */
function eln(c) {
  const { B, S, seg = true, mask = true, pos = null, eps, sym = false, outs = ['y', 'mi', 'es'] } = c;
  const d = sym ? ['B', 'S'] : [B, S];
  const b = new OnnxBuilder(17);
  b.input('ids', INT32, d);
  if (seg) b.input('seg', INT32, d);
  if (mask) b.input('m', INT32, d);
  if (pos) b.input('pid', pos, d);
  b.init('we', FLOAT, [V, D], W.w).init('pe', FLOAT, [P, D], W.p).init('ga', FLOAT, [D], W.g).init('be', FLOAT, [D], W.b);
  if (seg) b.init('se', FLOAT, [G, D], W.s);
  b.node('EmbedLayerNormalization', ['ids', seg ? 'seg' : '', 'we', 'pe', seg ? 'se' : '', 'ga', 'be', mask ? 'm' : '', pos ? 'pid' : ''].filter((x, i, a) => a.slice(i).some(Boolean)), outs, eps === undefined ? {} : { epsilon: F(eps) });
  for (const o of outs) if (o) b.output(o, o === 'mi' ? INT32 : FLOAT, null);
  return msft(b);
}

function feeds({ B, S, seg = true, mask = true, pos = null }) {
  const f = { ids: { type: 'int32', shape: [B, S], data: Int32Array.from({ length: B * S }, (_, i) => (i * 7 + 3) % V) } };
  if (seg) f.seg = { type: 'int32', shape: [B, S], data: Int32Array.from({ length: B * S }, (_, i) => (i % S >= S / 2 ? 1 : 0)) };
  if (mask) f.m = { type: 'int32', shape: [B, S], data: Int32Array.from({ length: B * S }, (_, i) => (i % S < S - Math.floor(i / S) ? 1 : i % 3 === 0 ? 2 : 0)) };
  if (pos) {
    const vals = Array.from({ length: B * S }, (_, i) => (i * 5 + 1) % P);
    f.pid = pos === INT64 ? { type: 'int64', shape: [B, S], data: BigInt64Array.from(vals.map(BigInt)) } : { type: 'int32', shape: [B, S], data: Int32Array.from(vals) };
  }
  return f;
}

async function diff(what, c, mine, fc = c) {
  const f = feeds(fc), bytes = eln(c);
  const want = await (await ort.InferenceSession.create(bytes)).run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.type, v.data, v.shape)])));
  const h = rt.load(convert(mine ?? bytes).holo);
  try {
    const got = h.run(Object.fromEntries(Object.entries(f).map(([k, v]) => [k, { data: v.data, shape: v.shape }])));
    let r = 0;
    for (const o of Object.keys(want)) {
      assert.ok(got[o], `${what}: ${o} missing`);
      assert.equal([...got[o].shape], [...want[o].dims].map(Number), `${what}: ${o} shape`);
      if (o === 'mi') { assert.equal([...got[o].data], [...want[o].data], `${what}: mask_index`); continue; }
      const max = Math.max(1e-30, ...[...want[o].data].map(Math.abs));
      r = Math.max(r, ...[...got[o].data].map((x, i) => Math.abs(x - want[o].data[i]) / max));
    }
    return r;
  } finally {
    h.dispose();
  }
}
const agree = async (what, c) => { if (process.env.DBG) console.error(what); const r = await diff(what, c); assert.ok(r <= TOL, `${what}: max |diff| / max |ref| = ${r}`); };

test('EmbedLayerNormalization: segments, mask, position_ids, epsilon vs onnxruntime', async () => {
  let cases = 0;
  for (const [B, S] of [[1, 1], [2, 7]])
    for (const seg of [true, false])
      for (const mask of [true, false])
        for (const pos of [null, INT32])
          for (const eps of [undefined, 1e-3]) {
            await agree(`ELN ${JSON.stringify({ B, S, seg, mask, pos, eps })}`, { B, S, seg, mask, pos, eps });
            cases++;
          }
  assert.is(cases, 32);
  await agree('no embedding_sum', { B: 2, S: 5, outs: ['y', 'mi'] });
});

test('EmbedLayerNormalization with symbolic batch and sequence', async () => {
  for (const [B, S] of [[1, 9], [3, 4]]) await agree(`symbolic at ${B}x${S}`, { B, S, sym: true });
});

test('EmbedLayerNormalization mutations miss the bar: epsilon', async () => {
  const differs = async (what, c, mine) => { const r = await diff(what, c, mine); assert.ok(r > 1e-3, `${what}: not caught (${r})`); };
  await differs('epsilon', { B: 2, S: 5, eps: 0.5 }, eln({ B: 2, S: 5 }));
});

test('EmbedLayerNormalization refuses other dtypes and a lone segment input by name', () => {
  const b = new OnnxBuilder(17);
  b.input('ids', INT64, [1, 3]).init('we', FLOAT, [V, D], W.w).init('pe', FLOAT, [P, D], W.p).init('ga', FLOAT, [D], W.g).init('be', FLOAT, [D], W.b);
  b.node('EmbedLayerNormalization', ['ids', '', 'we', 'pe', '', 'ga', 'be'], ['y']).output('y', FLOAT, null);
  assert.throws(() => convert(msft(b)), /input_ids of int64 is not supported/);
  const b2 = new OnnxBuilder(17);
  b2.input('ids', INT32, [1, 3]).input('seg', INT32, [1, 3]).init('we', FLOAT, [V, D], W.w).init('pe', FLOAT, [P, D], W.p).init('ga', FLOAT, [D], W.g).init('be', FLOAT, [D], W.b);
  b2.node('EmbedLayerNormalization', ['ids', 'seg', 'we', 'pe', '', 'ga', 'be'], ['y']).output('y', FLOAT, null);
  assert.throws(() => convert(msft(b2)), /segment_ids and segment_embedding must be both present or both absent/);
});

test.run();
