// A decoder exported with past/present key-value tensors (tests/zoo/models/
// gpt_tiny_kv: input_ids [batch, seq], past_* [batch, 2, past, 32] ->
// logits [batch, seq, 128], present_* [batch, 2, past + seq, 32]) converted
// once with its dynamic axes and driven by the generator directly (issue 19
// item 5, docs/generation.md "Growing-state models"): the prompt in one
// execution, then one token a step, the cache one position longer each step.
// Greedy tokens and every step's log-probabilities are checked against onnxruntime-node
// driven by hand the same way; error paths are values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { load, HologramError } from '../../bindings-js/index.js';
import { NATIVE } from './cli-parity-lib.mjs';

const onnx = fs.readFileSync(new URL('../zoo/models/gpt_tiny_kv.op17.onnx', import.meta.url));
const holo = convert(onnx).holo;
const MODEL = { tokenInput: 'input_ids', logitsOutput: 'logits', vocab: 128 };
const argmax = (a) => a.reduce((b, v, i) => (v > a[b] ? i : b), 0);
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };

/** Greedy decoding on onnxruntime: every step's last logits row and the tokens. */
async function ortGreedy(prompt, n) {
  const s = await ort.InferenceSession.create(onnx);
  const past = s.inputNames.filter((k) => k.startsWith('past'));
  let cache = Object.fromEntries(past.map((k) => [k, new ort.Tensor('float32', new Float32Array(0), [1, 2, 0, 32])]));
  let ids = prompt, rows = [], tokens = [];
  for (let i = 0; i <= n; i++) {
    const out = await s.run({ input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]), ...cache });
    const l = out.logits.data, last = l.slice(l.length - 128);
    rows.push(last);
    assert.equal([...out.present_k_0.dims], [1, 2, prompt.length + i, 32]);
    cache = Object.fromEntries(past.map((k) => [k, out[k.replace('past', 'present')]]));
    if (i === n) break;
    const t = argmax(last);
    tokens.push(t);
    ids = [t];
  }
  return { rows, tokens };
}


test('greedy generation over a growing KV cache equals onnxruntime driven by hand', async () => {
  const s = await load(holo);
  const prompt = [5, 17, 99, 3];
  const ref = await ortGreedy(prompt, 10);
  const rows = [];
  const r = s.generate(prompt, { maxTokens: 10, model: MODEL, sampler: { kind: 'greedy' }, onToken: () => true });
  assert.equal(r.tokens, ref.tokens);
  assert.is(r.stats.steps, 1 + 10, 'the prompt in one execution, then one token a step');
  // the step API: logits after every feed
  const g = s.generator({ model: MODEL, sampler: { kind: 'greedy' } });
  g.prefill(prompt);
  for (let i = 0; i <= 10; i++) {
    const t = g.sample();
    rows.push(t);
    if (i < 10) g.feed(t);
  }
  assert.equal(rows.slice(0, 10), ref.tokens);
  assert.is(g.seq, 64);
  assert.is(g.position, prompt.length + 10);
  code(() => g.rewind(1), 'STATE', /growing-state model cannot rewind/);
  g.free();
  // a repeat is answered from the memo: nothing dispatched
  const again = s.generate(prompt, { maxTokens: 10, model: MODEL, sampler: { kind: 'greedy' } });
  assert.equal(again.tokens, ref.tokens);
  assert.is(again.stats.dispatches, 0);
  s.dispose();
});

test('each step\'s logits equal onnxruntime\'s (prompt fed token by token and all at once)', async () => {
  const s = await load(holo);
  const prompt = [1, 2, 3, 4, 5, 6, 7];
  const ref = await ortGreedy(prompt, 4);
  const seen = [];
  const inspect = (t, i, info) => { seen.push(info); return true; };
  const r = s.generate(prompt, { maxTokens: 5, model: MODEL, sampler: { kind: 'greedy' }, topLogprobs: 1, onToken: inspect });
  assert.equal(r.tokens.slice(0, 4), ref.tokens);
  // token-by-token prefill reaches the same state content as one execution
  const g = s.generator({ model: MODEL, sampler: { kind: 'greedy' } });
  for (const t of prompt) g.feed(t);
  const first = g.sample();
  assert.is(first, ref.tokens[0]);
  g.free();
  assert.is(seen.length, 5);
  ref.rows.forEach((row, i) => {
    const lp = seen[i].rawLogprob, want = row[ref.tokens[i] ?? argmax(row)];
    const m = Math.max(...row), z = Math.log(row.reduce((a, v) => a + Math.exp(v - m), 0)) + m;
    assert.ok(Math.abs(lp - (want - z)) < 1e-4, `step ${i}: logprob ${lp} vs ${want - z}`);
  });
  s.dispose();
});

test('a growing-state model without a known vocabulary, or a wrong one, is refused with a message', async () => {
  const s = await load(holo);
  code(() => s.generate([1], { maxTokens: 2, model: { tokenInput: 'input_ids', logitsOutput: 'logits' } }), 'UNSUPPORTED', /vocabulary/);
  code(() => s.generate([1], { maxTokens: 2, model: { ...MODEL, vocab: 100 } }), 'STATE', /not 1 rows of the vocabulary \(100\)/);
  code(() => s.generate([1], { maxTokens: 2, model: { ...MODEL, vocab: -3 } }), 'ARG', /model.vocab/);
  // the session stays usable
  const ok = s.generate([1, 2], { maxTokens: 3, model: MODEL, sampler: { kind: 'greedy' } });
  assert.is(ok.tokens.length, 3);
  s.dispose();
});

test('holo generate --vocab-size drives it from the command line (WASI and native agree with onnxruntime)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-grow-'));
  const file = path.join(dir, 'gpt.holo');
  fs.writeFileSync(file, holo);
  const ref = await ortGreedy([5, 17, 99, 3], 8);
  const args = ['generate', file, '--prompt-tokens', '5,17,99,3', '--vocab-size', '128', '--greedy', '--token-input', 'input_ids', '--logits-output', 'logits', '--max-tokens', '8', '--logprobs', '0'];
  const runs = [['node', [new URL('../../bindings-js/bin/holo.js', import.meta.url).pathname, ...args]], [NATIVE, args]];
  for (const [cmd, argv] of runs) {
    const r = spawnSync(cmd, argv, { encoding: 'utf8', timeout: 120_000 });
    assert.is(r.status, 0, `${cmd}: ${r.stderr}`);
    const tokens = r.stdout.split('\n').filter((l) => l.startsWith('{"index"')).map((l) => JSON.parse(l).token);
    assert.equal(tokens, ref.tokens, cmd);
  }
  const bad = spawnSync('node', [new URL('../../bindings-js/bin/holo.js', import.meta.url).pathname, ...args.filter((a, i) => a !== '--vocab-size' && args[i - 1] !== '--vocab-size')], { encoding: 'utf8', timeout: 120_000 });
  assert.is.not(bad.status, 0);
  assert.match(bad.stderr, /vocabulary/);
  fs.rmSync(dir, { recursive: true, force: true });
});

test.run();
