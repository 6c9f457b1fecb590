// One archive per model serves every batch size and sequence length its ONNX
// export allows (issue 19 item 1, targets: "the zoo's BERT-style and
// GPT-style models at three sequence lengths and two batch sizes"). Each of
// tests/zoo/models' dynamic-axis exports is converted ONCE, with no --shape,
// and run at 2 batch sizes x 3 sequence lengths (and, for the decoder, three
// past lengths) against onnxruntime-node: max |a - b| <= 1e-4 * max |ref|
// (docs/zoo.md's rule). The runs alternate shapes on one session, so a
// shape-keyed memo or a plan cached from the previous shape would show here.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { load } from '../../bindings-js/index.js';

const model = (f) => fs.readFileSync(new URL(`../zoo/models/${f}`, import.meta.url));

/** Deterministic values: ids in [0, 128), a mask with trailing zeros per row, floats in [-1, 1). */
function lcg(seed) { let x = seed >>> 0; return () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32); }
const ids = (n, r) => BigInt64Array.from({ length: n }, () => BigInt(Math.floor(r() * 128)));
const floats = (n, r) => Float32Array.from({ length: n }, () => r() * 2 - 1);
function mask(b, s) {
  const m = new BigInt64Array(b * s);
  for (let i = 0; i < b; i++) for (let j = 0; j < s; j++) m[i * s + j] = j < s - i ? 1n : 0n;
  return m;
}

async function compare(onnx, feeds, what, hs) {
  const os = await ort.InferenceSession.create(onnx);
  const want = await os.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor(v.type, v.data, v.shape)])));
  const got = hs.execute(os.inputNames.map((k) => ({ data: feeds[k].data, shape: feeds[k].shape })));
  os.outputNames.forEach((n, k) => {
    const w = want[n], g = got[k];
    assert.equal(g.shape, [...w.dims], `${what} ${n}: shape`);
    let worst = 0, scale = 0;
    for (let i = 0; i < w.data.length; i++) {
      worst = Math.max(worst, Math.abs(g.data[i] - w.data[i]));
      scale = Math.max(scale, Math.abs(w.data[i]));
    }
    assert.ok(worst <= 1e-4 * scale, `${what} ${n}: max |diff| ${worst} > 1e-4 * ${scale}`);
  });
}

for (const op of [13, 17]) {
  test(`bert_tiny@${op}: one archive at batch 1, 2 x seq 1, 7, 16`, async () => {
    const onnx = model(`bert_tiny.op${op}.onnx`);
    const hs = await load(convert(onnx).holo);
    const r = lcg(op);
    for (const s of [7, 1, 16]) for (const b of [2, 1]) {
      const n = b * s;
      await compare(onnx, { input_ids: { type: 'int64', data: ids(n, r), shape: [b, s] }, attention_mask: { type: 'int64', data: mask(b, s), shape: [b, s] } }, `batch ${b} seq ${s}`, hs);
    }
    hs.dispose();
  });

  test(`gpt_tiny_kv@${op}: one archive at batch 1, 2 x seq 1, 4, 9 x past 0, 5, 12`, async () => {
    const onnx = model(`gpt_tiny_kv.op${op}.onnx`);
    const hs = await load(convert(onnx).holo);
    const r = lcg(100 + op);
    for (const [s, p] of [[4, 0], [1, 12], [9, 5], [1, 0]]) for (const b of [1, 2]) {
      const past = (k) => ({ type: 'float32', data: floats(b * 2 * p * 32, r), shape: [b, 2, p, 32] });
      await compare(onnx, { input_ids: { type: 'int64', data: ids(b * s, r), shape: [b, s] }, past_k_0: past(), past_v_0: past(), past_k_1: past(), past_v_1: past() }, `batch ${b} seq ${s} past ${p}`, hs);
    }
    hs.dispose();
  });
}

test.run();
