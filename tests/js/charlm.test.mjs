// The committed char-level LMs (models/charlm/) convert with the converter and
// run step by step through hologram-exec with logits within 1e-4 of PyTorch's
// and the same greedy continuation (check.mjs exits non-zero otherwise); the
// K-token sequence graph charlm-verify.onnx (export_verify.py) matches the
// reference chunk by chunk, through onnxruntime-node and hologram, and
// hologram's logits are bit-identical to the step graph's.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { load } from '../../bindings-js/index.js';
import { convert } from '../../compiler/convert.js';

for (const which of ['draft', 'main']) {
  test(`charlm ${which}: converts and matches the PyTorch reference step by step`, () => {
    const args = ['models/charlm/check.mjs', ...(which === 'draft' ? ['draft'] : [])];
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 300000 });
    assert.is(r.status, 0, `check.mjs ${which} failed:\n${r.stdout}\n${r.stderr}`);
  });
}

test('charlm-verify (K=4): chunked logits match PyTorch (onnxruntime-node, hologram) and the step graph bit for bit', async () => {
  const ref = JSON.parse(fs.readFileSync('models/charlm/reference.json', 'utf8'));
  const { layers, heads, d, ctx } = ref.config, K = 4, n = ref.greedy_ids.length - 1, ids = ref.greedy_ids;
  const cacheLen = heads * ctx * (d / heads), shape = [1, heads, ctx, d / heads];
  const onnx = fs.readFileSync('models/charlm/charlm-verify.onnx');
  const holo = await load(convert(onnx).holo);
  const step = await load(convert(fs.readFileSync('models/charlm/charlm.onnx')).holo);
  assert.equal(holo.inputs[0].shape, [1, K]);
  assert.equal(holo.outputs[0].shape, [1, K, 256]);
  const ort = createRequire(import.meta.url)('onnxruntime-node');
  const os = await ort.InferenceSession.create(onnx);
  let hc = Array.from({ length: 2 * layers }, () => new Float32Array(cacheLen)), oc = hc, sc = hc;
  let maxH = 0, maxO = 0, bitDiff = 0;
  for (let p = 0; p < n; p += K) {
    const used = Math.min(K, n - p);
    const tk = new BigInt64Array(K);
    for (let i = 0; i < used; i++) tk[i] = BigInt(ids[p + i]);
    const posT = BigInt64Array.of(BigInt(p));
    const [hl, ...hn] = holo.execute([tk, posT, ...hc]);
    hc = hn.map((t) => t.data);
    const feeds = { tokens: new ort.Tensor('int64', tk, [1, K]), pos: new ort.Tensor('int64', posT, [1]) };
    for (let l = 0; l < layers; l++) { feeds[`k_cache_${l}`] = new ort.Tensor('float32', oc[2 * l], shape); feeds[`v_cache_${l}`] = new ort.Tensor('float32', oc[2 * l + 1], shape); }
    const r = await os.run(feeds);
    oc = Array.from({ length: 2 * layers }, (_, k) => r[`${k % 2 ? 'v' : 'k'}_cache_${k >> 1}_out`].data);
    for (let i = 0; i < used; i++) {
      const want = ref.logits[String(p + i)];
      const [sl, ...sn] = step.execute([BigInt64Array.of(BigInt(ids[p + i])), BigInt64Array.of(BigInt(p + i)), ...sc]);
      sc = sn.map((t) => t.data);
      for (let j = 0; j < 256; j++) {
        maxH = Math.max(maxH, Math.abs(hl.data[i * 256 + j] - want[j]));
        maxO = Math.max(maxO, Math.abs(r.logits.data[i * 256 + j] - want[j]));
        if (hl.data[i * 256 + j] !== sl.data[j]) bitDiff++;
      }
    }
  }
  assert.ok(maxO < 1e-4, `onnxruntime max |diff| ${maxO}`);
  assert.ok(maxH < 1e-4, `hologram max |diff| ${maxH}`);
  assert.is(bitDiff, 0, 'hologram verify-graph logits differ from the step graph\'s');
  holo.dispose(); step.dispose();
});
test.run();
