// session.generate(prompt, opts) over the gen-* fixtures (docs/generation.md):
// greedy equals a hand-driven execute loop, seeded sampling is deterministic,
// onToken can stop, a repeated generation dispatches nothing, bad options refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { load, init, HologramError } from '../../bindings-js/index.js';
import { NodeDirWarmStore } from '../../bindings-js/stores/node-dir.js';

const fixture = (n) => fs.readFileSync(new URL(`../fixtures/${n}.holo`, import.meta.url));
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };
const argmax = (a) => a.reduce((b, v, i) => (v > a[b] ? i : b), 0);

test('greedy generation equals a hand-driven execute loop', async () => {
  const s = await load(fixture('gen-bigram'));
  const prompt = [1, 2, 3];
  const { tokens, stats } = s.generate(prompt, { maxTokens: 12, sampler: { kind: 'greedy' } });
  assert.is(tokens.length, 12);
  assert.is(stats.steps, 15);
  const r = await load(fixture('gen-bigram'));
  let h = new Float32Array(32), logits, ref = [];
  const feed = (t) => { const [l, h2] = r.execute([new BigInt64Array([BigInt(t)]), h]); logits = l.data; h = h2.data; };
  prompt.forEach(feed);
  for (let i = 0; i < 12; i++) { const t = argmax(logits); ref.push(t); feed(t); }
  assert.equal(tokens, ref);
  // a repeat is answered from the memo: nothing dispatched
  const again = s.generate(prompt, { maxTokens: 12, sampler: { kind: 'greedy' } });
  assert.equal(again.tokens, ref);
  assert.is(again.stats.dispatches, 0);
  assert.is(again.stats.memoHits, 15);
  s.dispose(); r.dispose();
});

test('seeded sampling is deterministic; onToken streams and stops', async () => {
  const s = await load(fixture('gen-bigram'));
  const opts = { maxTokens: 20, seed: 7, sampler: { temperature: 1.5, topK: 8, topP: 0.9 } };
  const a = s.generate([5], opts).tokens, b = s.generate([5], opts).tokens;
  assert.equal(a, b);
  const c = s.generate([5], { ...opts, seed: 8 }).tokens;
  assert.not.equal(a, c);
  const seen = [];
  const d = s.generate([5], { ...opts, onToken: (t, i) => { seen.push(t); return i < 4; } });
  assert.is(d.tokens.length, 5);
  assert.equal(seen, a.slice(0, 5));
  const m = s.generate([5], { maxTokens: 30, seed: 1, sampler: { kind: 'mirostat', tau: 2, eta: 0.2 } });
  assert.is(m.tokens.length, 30);
  const stop = s.generate([1, 2, 3], { maxTokens: 12, sampler: { kind: 'greedy' } }).tokens;
  const cut = s.generate([1, 2, 3], { maxTokens: 12, stopToken: stop[3], sampler: { kind: 'greedy' } }).tokens;
  assert.equal(cut, stop.slice(0, stop.indexOf(stop[3])));
  s.dispose();
});

test('position input by name; bad options refused', async () => {
  const p = await load(fixture('gen-pos'));
  const { tokens } = p.generate([3, 4], { maxTokens: 5, model: { positionInput: 'pos' }, sampler: { kind: 'greedy' } });
  assert.is(tokens.length, 5);
  code(() => p.generate([3], { model: { positionInput: 'nope' } }), 'ARG', /no input named/);
  code(() => p.generate([3], { sampler: { topP: 0 }, model: { positionInput: 1 } }), 'ARG', /SamplingConfigurationError: top_p must be in \(0, 1\]/);
  code(() => p.generate([3], { model: { positionInput: 1 }, bogus: 1 }), 'ARG', /unknown option/);
  code(() => p.generate([], {}), 'ARG', /at least one token/);
  code(() => p.generate([99], { model: { positionInput: 1 } }), 'ARG', /outside the vocabulary/);
  code(() => p.generate([3]), 'STATE', /neither token, position nor state/);
  p.dispose();
});

// The trained draft char-LM (models/charlm/draft.onnx, 1x64): a repeated prompt is
// answered from the memo while the session retains the step values (the default
// 64 MiB holds the draft's ~64 KiB of state per step); with a retain cache too small
// for them the repeat recomputes (docs/generation.md, "Prompt cache").
test('draft char-LM: repeated prompt from the memo, bounded by retainBytes', async () => {
  const { convert } = await import('../../compiler/convert.js');
  const holo = convert(fs.readFileSync(new URL('../../models/charlm/draft.onnx', import.meta.url))).holo;
  const prompt = Array.from(Buffer.from('And God said, Let there be light: and there was light. And God saw the light, th'));
  const opts = { maxTokens: 8, sampler: { kind: 'greedy' }, model: { positionInput: 'pos' } };
  const s = await load(holo);
  const a = s.generate(prompt, opts), b = s.generate(prompt, opts);
  assert.equal(b.tokens, a.tokens);
  assert.ok(a.stats.dispatches > 0);
  assert.is(b.stats.dispatches, 0);
  assert.is(b.stats.memoHits, prompt.length + 8);
  // the step API drives the same chain: all memo hits
  const g = s.generator(opts);
  for (const t of prompt) g.feed(t);
  assert.is(g.sample(), a.tokens[0]);
  assert.is(g.stats.dispatches, 0);
  g.free();
  s.dispose();
  const small = await load(holo);
  small.retainBytes = 256 * 1024;
  small.generate(prompt, opts);
  const c = small.generate(prompt, opts);
  assert.equal(c.tokens, a.tokens);
  assert.ok(c.stats.dispatches > 0 && c.stats.memoHits < prompt.length);
  small.dispose();
});

// ---- the prompt cache (session.setPromptCache / generate({ promptCache })) ----
const GREEDY = { maxTokens: 6, sampler: { kind: 'greedy' } };

test('prompt cache: a shared prefix is restored, not recomputed (counters)', async () => {
  const s = await load(fixture('gen-bigram'));
  const plain = s.generate([1, 2, 3, 4, 5, 6, 7], GREEDY).tokens;
  const ext = s.generate([1, 2, 3, 4, 5, 6, 7, 8, 9], GREEDY).tokens;
  const c = await load(fixture('gen-bigram'));
  c.retainBytes = 0; // no help from the memo: only the prompt cache can skip work
  const cold = c.generate([1, 2, 3, 4, 5, 6, 7], { ...GREEDY, promptCache: true });
  assert.equal(cold.tokens, plain);
  assert.is(cold.stats.prefillComputed, 7);
  assert.is(cold.stats.prefillReused, 0);
  const hit = c.generate([1, 2, 3, 4, 5, 6, 7], { ...GREEDY, promptCache: true });
  assert.equal(hit.tokens, plain);
  assert.is(hit.stats.prefillReused, 7);
  assert.is(hit.stats.prefillComputed, 0);
  assert.is(hit.stats.steps, 6); // only the decode steps ran
  const longer = c.generate([1, 2, 3, 4, 5, 6, 7, 8, 9], { ...GREEDY, promptCache: true });
  assert.equal(longer.tokens, ext);
  assert.is(longer.stats.prefillReused, 7);
  assert.is(longer.stats.prefillComputed, 2);
  const pc = c.promptCache;
  assert.is(pc.lookups, 3); assert.is(pc.hits, 2); assert.is(pc.misses, 1);
  assert.is(pc.tokensReused, 14); assert.is(pc.entries, 2);
  assert.is(pc.bytes, 2 * (32 * 4 + 32 * 4)); // state h [1,32] + logits [32], f32
  // the step API: prefill with the cache
  const g = c.generator({ sampler: { kind: 'greedy' } });
  assert.equal(g.prefill([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], { promptCache: true }), { reused: 9, computed: 1 });
  g.free();
  c.setPromptCache(null);
  assert.is(c.promptCache, null);
  code(() => c.setPromptCache({ maxBytes: 0 }), 'ARG', /maxBytes must be positive/);
  code(() => c.setPromptCache({ bogus: 1 }), 'ARG', /unknown option/);
  s.dispose(); c.dispose();
});

test('prompt cache: bounded by bytes, least recently used evicted', async () => {
  const s = await load(fixture('gen-bigram'));
  s.retainBytes = 0;
  s.setPromptCache({ maxBytes: 600 }); // two entries of 256 bytes
  const run = (p) => s.generate(p, { ...GREEDY, promptCache: true }).stats;
  run([1, 2, 3]); run([4, 5, 6]);
  assert.is(s.promptCache.entries, 2);
  assert.is(run([1, 2, 3]).prefillReused, 3); // [1,2,3] now most recent
  run([7, 8, 9]); // evicts [4,5,6]
  let pc = s.promptCache;
  assert.is(pc.evictions, 1); assert.is(pc.entries, 2); assert.ok(pc.bytes <= 600);
  assert.is(run([4, 5, 6]).prefillComputed, 3); // gone: recomputed (and evicts [1,2,3])
  assert.is(run([7, 8, 9]).prefillReused, 3);
  assert.is(s.promptCache.evictions, 2);
  // an entry larger than the bound is not kept
  s.setPromptCache({ maxBytes: 100 });
  run([1, 2]); run([1, 2]);
  pc = s.promptCache;
  assert.is(pc.entries, 0); assert.is(pc.hits, 0); assert.is(pc.inserts, 0);
  s.dispose();
});

test('prompt cache: persisted through a node-dir WarmStore, a new process starts warm', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-pc-'));
  try {
    const prompt = [3, 1, 4, 1, 5, 9, 2, 6];
    const s = await load(fixture('gen-bigram'), { warmStore: new NodeDirWarmStore(dir) });
    const a = s.generate(prompt, { ...GREEDY, promptCache: true });
    assert.is(a.stats.prefillComputed, 8);
    assert.ok(s.promptCache.storePuts >= 2); // the state value + the manifest
    s.dispose();
    // a second session on a fresh module instance, same directory
    const s2 = await load(fixture('gen-bigram'), { warmStore: new NodeDirWarmStore(dir) });
    const b = s2.generate(prompt, { ...GREEDY, promptCache: true });
    assert.equal(b.tokens, a.tokens);
    assert.is(b.stats.prefillReused, 8);
    assert.is(b.stats.prefillComputed, 0);
    assert.is(s2.promptCache.storeHits, 1);
    s2.dispose();
    // a second process
    const url = new URL('../../bindings-js/index.js', import.meta.url).href;
    const store = new URL('../../bindings-js/stores/node-dir.js', import.meta.url).href;
    const src = `import { load } from ${JSON.stringify(url)}; import { NodeDirWarmStore } from ${JSON.stringify(store)}; import fs from 'node:fs';
      const s = await load(fs.readFileSync(${JSON.stringify(new URL('../fixtures/gen-bigram.holo', import.meta.url).pathname)}), { warmStore: new NodeDirWarmStore(${JSON.stringify(dir)}) });
      const r = s.generate(${JSON.stringify(prompt)}, { maxTokens: 6, sampler: { kind: 'greedy' }, promptCache: true });
      console.log(JSON.stringify({ tokens: r.tokens, stats: r.stats, pc: s.promptCache }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', src], { encoding: 'utf8' });
    assert.is(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.tokens, a.tokens);
    assert.is(out.stats.prefillReused, 8);
    assert.is(out.stats.prefillComputed, 0);
    assert.is(out.stats.steps, a.stats.steps - 8, 'decode steps only: the prefill came from the store');
    assert.is(out.stats.dispatches, b.stats.dispatches, 'the same work as the warm second session');
    assert.ok(out.stats.dispatches < a.stats.dispatches);
    assert.is(out.pc.storeHits, 1);
    // a corrupted state record is refused (re-hashed against its label): recomputed
    for (const f of fs.readdirSync(dir)) {
      const p = path.join(dir, f), b2 = fs.readFileSync(p);
      if (b2.subarray(0, 7).toString() === 'HOLOWS1') { b2[b2.length - 1] ^= 1; fs.writeFileSync(p, b2); }
    }
    const s3 = await load(fixture('gen-bigram'), { warmStore: new NodeDirWarmStore(dir) });
    const c = s3.generate(prompt, { ...GREEDY, promptCache: true });
    assert.equal(c.tokens, a.tokens);
    assert.is(c.stats.prefillComputed, 8);
    assert.is(s3.promptCache.storeHits, 0);
    assert.is(s3.promptCache.storeCorrupt, 1, 'the manifest named a state record that is not what it names');
    s3.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// The prompt-cache manifest (HOLOPC2: head, state labels, logits, SHA-256 of
// all that) is verified on read: a refused one is a miss, counted in
// storeCorrupt, and the prefix is recomputed, written again and hit next time.
test('prompt cache: a corrupted manifest in a JS warm store is counted in storeCorrupt, recomputed as cold', async () => {
  const { MemoryWarmStore } = await import('../../bindings-js/stores/memory.js');
  const prompt = [3, 1, 4, 1, 5, 9, 2, 6], V = 32;
  const map = new Map();
  const open = async () => load(fixture('gen-bigram'), { warmStore: new MemoryWarmStore(map) });
  const s = await open();
  const cold = s.generate(prompt, { ...GREEDY, promptCache: true });
  assert.is(s.promptCache.storeCorrupt, 0);
  s.dispose();
  const manifests = [...map].filter(([, b]) => Buffer.from(b.subarray(0, 8)).toString('latin1') === 'HOLOPC2\0');
  assert.is(manifests.length, 1, 'one prefix stored: one manifest');
  const [label, good] = manifests[0];
  // Logits that, if believed, start generation elsewhere: a huge logit on a
  // token the cold run did not pick first.
  const other = (cold.tokens[0] + 1) % V;
  const liar = new Uint8Array(good);
  new DataView(liar.buffer).setFloat32(good.length - 32 - 4 * V + 4 * other, 1e30, true);
  const cases = [
    ['a logit changed (digest)', liar],
    ['one digest byte flipped', Uint8Array.from(good, (v, i) => (i === good.length - 1 ? v ^ 1 : v))],
    ['truncated', good.slice(0, good.length - 1)],
    ['empty', new Uint8Array(0)],
  ];
  for (const [what, bad] of cases) {
    map.set(label, bad);
    const s2 = await open();
    const r = s2.generate(prompt, { ...GREEDY, promptCache: true });
    assert.equal(r.tokens, cold.tokens, `${what}: the result is a cold run's`);
    assert.is(r.stats.prefillReused, 0, what);
    assert.is(r.stats.prefillComputed, prompt.length, what);
    const pc = s2.promptCache;
    assert.is(pc.storeCorrupt, 1, `${what}: storeCorrupt`);
    assert.is(pc.storeHits, 0, what);
    assert.is(pc.misses, 1, what);
    s2.dispose();
    assert.equal(map.get(label), good, `${what}: the recomputed prefix is written again`);
    const s3 = await open();
    const again = s3.generate(prompt, { ...GREEDY, promptCache: true });
    assert.equal(again.tokens, cold.tokens);
    assert.is(again.stats.prefillReused, prompt.length, `${what}: a hit after the rewrite`);
    assert.is(s3.promptCache.storeCorrupt, 0);
    assert.is(s3.promptCache.storeHits, 1);
    s3.dispose();
  }
});

// ---- the trained char-LM: prompt cache at the default retain, K-token verify graph ----
const { convert } = await import('../../compiler/convert.js');
const charlm = (name) => convert(fs.readFileSync(new URL(`../../models/charlm/${name}.onnx`, import.meta.url))).holo;
const M = { positionInput: 'pos' };
const LONG = Array.from(Buffer.from('And God said, Let there be light: and there was light. And God saw'));

test('charlm: a repeated long prompt is a prompt-cache hit whatever the retain cache keeps', async () => {
  const s = await load(charlm('charlm'));
  s.retainBytes = 4 << 20; // memory pressure: the memo alone cannot keep 70 steps of KV cache
  const a = s.generate(LONG, { maxTokens: 4, sampler: { kind: 'greedy' }, model: M });
  const b = s.generate(LONG, { maxTokens: 4, sampler: { kind: 'greedy' }, model: M });
  assert.ok(b.stats.dispatches > 0 && b.stats.memoHits < LONG.length);
  const c = s.generate(LONG, { maxTokens: 4, sampler: { kind: 'greedy' }, model: M, promptCache: true });
  const d = s.generate(LONG, { maxTokens: 4, sampler: { kind: 'greedy' }, model: M, promptCache: true });
  for (const r of [b, c, d]) assert.equal(r.tokens, a.tokens);
  assert.is(d.stats.prefillComputed, 0);
  assert.is(d.stats.prefillReused, LONG.length);
  assert.is(d.stats.steps, 4);
  assert.is(s.promptCache.bytes, 8 * 4 * 128 * 32 * 4 + 256 * 4);
  s.dispose();
});

test('charlm-verify (K=4): batched prefill and speculative decoding equal step-graph greedy', async () => {
  const rt = await init();
  const step = rt.load(charlm('charlm')), ver = rt.load(charlm('charlm-verify')), draft = rt.load(charlm('draft'));
  const prompts = [LONG.slice(0, 43), Array.from(Buffer.from('In the beginning')), Array.from(Buffer.from('\n'))];
  for (const p of prompts) {
    const ref = step.generate(p, { maxTokens: 40, sampler: { kind: 'greedy' }, model: M });
    const v = ver.generate(p, { maxTokens: 40, sampler: { kind: 'greedy' }, model: M });
    assert.equal(v.tokens, ref.tokens, 'verify graph, one token per pass');
    assert.is(v.stats.steps, Math.ceil(p.length / 4) + 40); // prefill: 4 tokens per execution
    for (const k of [1, 3]) {
      for (const masked of [true, false]) {
        const r = ver.generate(p, { maxTokens: 40, sampler: { kind: 'greedy' }, model: M, speculative: { draft, k, model: { ...M, maskedState: masked } } });
        assert.equal(r.tokens, ref.tokens, `speculative k=${k} masked=${masked}`);
        const sp = r.speculative;
        assert.ok(sp.accepted <= sp.proposed && sp.acceptance >= 0 && sp.acceptance <= 1);
        assert.ok(sp.targetSteps < 40, `${sp.targetSteps} target executions for 40 tokens`);
      }
    }
    // stop token and maxTokens edge cases match greedy too
    const stop = ref.tokens[5];
    const cut = step.generate(p, { maxTokens: 40, stopToken: stop, sampler: { kind: 'greedy' }, model: M }).tokens;
    const spc = ver.generate(p, { maxTokens: 40, stopToken: stop, sampler: { kind: 'greedy' }, model: M, speculative: { draft, k: 3, model: { ...M, maskedState: true } } });
    assert.equal(spc.tokens, cut);
    for (const n of [0, 1, 2, 5]) {
      const r = ver.generate(p, { maxTokens: n, sampler: { kind: 'greedy' }, model: M, speculative: { draft, k: 3, model: M } });
      assert.equal(r.tokens, ref.tokens.slice(0, n));
    }
  }
  // the generator after speculate holds every emitted token (as after a greedy loop)
  const g = ver.generator({ sampler: { kind: 'greedy' }, model: M }), d = draft.generator({ sampler: { kind: 'greedy' }, model: M });
  g.prefill(prompts[0]); d.prefill(prompts[0]);
  assert.is(g.seq, 4); assert.is(d.seq, 1);
  const sp = g.speculate(d, { k: 3, maxTokens: 10 });
  assert.is(g.position, 43 + 10);
  const ref = step.generate(prompts[0], { maxTokens: 11, sampler: { kind: 'greedy' }, model: M }).tokens;
  assert.equal(sp.tokens, ref.slice(0, 10));
  assert.is(g.sample(), ref[10]);
  g.rewind(3); // past the last execution's rows: no logits until the next feed
  assert.is(g.position, 50);
  code(() => g.sample(), 'STATE', /no logits/);
  g.feed(ref[7]);
  assert.is(g.sample(), ref[8]);
  code(() => d.rewind(1), 'STATE', /masked/);
  g.free(); d.free();
  // errors: a draft of another module instance, a non-greedy sampler
  const other = await load(charlm('draft'));
  code(() => ver.generate(prompts[1], { model: M, speculative: { draft: other } }), 'ARG', /same module instance/);
  // sampled speculative decoding (the law is tested in C: test_gen_spec_sample): a seed names one
  // output, every token is emitted and fed, fewer target executions than tokens; Mirostat refused
  const hot = { sampler: { kind: 'default', temperature: 0.8 }, seed: 9, model: M, maxTokens: 40 };
  const s1 = ver.generate(prompts[0], { ...hot, speculative: { draft, k: 3, model: { ...M, maskedState: true } } });
  const s2 = ver.generate(prompts[0], { ...hot, speculative: { draft, k: 3, model: M } });
  assert.is(s1.tokens.length, 40);
  assert.equal(s2.tokens, s1.tokens, 'the draft rolled back by rewind or by snapshot: same draws');
  assert.ok(s1.speculative.accepted > 0 && s1.speculative.targetSteps < 40, JSON.stringify(s1.speculative));
  code(() => ver.generate(prompts[1], { model: M, sampler: { kind: 'mirostat', tau: 5 }, speculative: { draft } }), 'ARG', /Mirostat/);
  code(() => ver.generate(prompts[1], { model: M, speculative: {} }), 'ARG', /speculative must be/);
  other.dispose(); step.dispose(); ver.dispose(); draft.dispose();
});

test.run();
