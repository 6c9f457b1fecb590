// session.generate(prompt, opts) over the gen-* fixtures (docs/generation.md):
// greedy equals a hand-driven execute loop, seeded sampling is deterministic,
// onToken can stop, a repeated generation dispatches nothing, bad options refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { load, HologramError } from '../../bindings-js/index.js';

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

test.run();
