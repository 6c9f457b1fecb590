// sampler.logitBias and sampler.allowed(generated) -> mask (docs/generation.md,
// "Logit bias and allowed masks"), over the gen-bigram fixture (32 tokens):
// a fast-check property that no emitted token is ever outside the mask of its
// step, under random masks, biases and samplers; -Infinity bans; an all-false
// mask, a mask of the wrong size, a bad bias are error values and the session
// stays usable; speculative decoding refuses constraints it would not apply.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import fc from 'fast-check';
import { load, init, HologramError } from '../../bindings-js/index.js';

const fixture = (n) => fs.readFileSync(new URL(`../fixtures/${n}.holo`, import.meta.url));
const V = 32;
const bits = (m) => Array.from({ length: V }, (_, i) => ((m >>> i) & 1) === 1);
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };

test('property: every emitted token is allowed by its step mask (random masks, biases, samplers)', async () => {
  const s = await load(fixture('gen-bigram'));
  const sampler = fc.oneof(
    fc.constant({ kind: 'greedy' }),
    fc.record({ temperature: fc.double({ min: 0.05, max: 3, noNaN: true }), topK: fc.integer({ min: 0, max: V }), topP: fc.double({ min: 0.05, max: 1, noNaN: true }), minP: fc.double({ min: 0, max: 0.5, noNaN: true }) }),
    fc.record({ kind: fc.constant('mirostat'), tau: fc.double({ min: 0.5, max: 6, noNaN: true }), eta: fc.double({ min: 0.05, max: 1, noNaN: true }) }),
  );
  const bias = fc.dictionary(fc.integer({ min: 0, max: V - 1 }).map(String), fc.oneof(fc.double({ min: -20, max: 20, noNaN: true }), fc.constant(-Infinity)), { maxKeys: 8 });
  let runs = 0;
  fc.assert(fc.property(
    fc.array(fc.integer({ min: 1, max: 0xffffffff }), { minLength: 12, maxLength: 12 }), bias, sampler, fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: V - 1 }),
    (masks, logitBias, sm, seed, first) => {
      // a step's mask minus the banned tokens must leave something, else the draw is an error (tested below)
      const banned = Object.entries(logitBias).filter(([, v]) => v === -Infinity).map(([k]) => Number(k));
      const ms = masks.map((m) => { const b = bits(m); const live = b.some((a, i) => a && !banned.includes(i)); return live ? b : b.map((_, i) => !banned.includes(i) && i === banned.reduce((x, y) => (x === y ? x + 1 : x), 0) % V); });
      const seen = [];
      const { tokens } = s.generate([first], { maxTokens: 12, seed, sampler: { ...sm, logitBias, allowed: (g) => { seen.push(g.slice()); return ms[g.length]; } } });
      runs++;
      assert.is(tokens.length, 12);
      tokens.forEach((t, i) => {
        assert.ok(ms[i][t], `token ${t} at step ${i} is outside its mask`);
        assert.not.ok(banned.includes(t), `banned token ${t} emitted`);
        assert.equal(seen[i], tokens.slice(0, i), 'allowed() sees the tokens generated so far');
      });
    }), { numRuns: 150, seed: 23 });
  assert.is(runs, 150);
  s.dispose();
});

test('an all-false mask, a bad mask, a throwing callback, a bad bias: errors, and the session stays usable', async () => {
  const s = await load(fixture('gen-bigram'));
  const none = new Uint8Array(V);
  code(() => s.generate([1], { maxTokens: 8, sampler: { allowed: (g) => (g.length === 3 ? none : new Uint8Array(V).fill(1)) } }), 'STATE', /no token is allowed after 3 tokens/);
  code(() => s.generate([1], { sampler: { kind: 'greedy', allowed: () => none } }), 'STATE', /no token is allowed/);
  code(() => s.generate([1], { sampler: { allowed: () => new Uint8Array(V - 1) } }), 'ARG', /32 entries/);
  code(() => s.generate([1], { sampler: { allowed: () => 7 } }), 'ARG', /mask of 32/);
  code(() => s.generate([1], { sampler: { allowed: 'x' } }), 'ARG', /function/);
  assert.throws(() => s.generate([1], { sampler: { allowed: () => { throw new RangeError('mine'); } } }), (e) => e instanceof RangeError);
  const all = Object.fromEntries(Array.from({ length: V }, (_, i) => [i, -Infinity]));
  code(() => s.generate([1], { sampler: { logitBias: all } }), 'STATE', /-inf/);
  code(() => s.generate([1], { sampler: { kind: 'greedy', logitBias: all } }), 'STATE', /-inf/);
  code(() => s.generate([1], { sampler: { logitBias: { 32: 1 } } }), 'ARG', /outside the vocabulary/);
  code(() => s.generate([1], { sampler: { logitBias: { 3: NaN } } }), 'ARG', /finite number or -Infinity/);
  code(() => s.generate([1], { sampler: { logitBias: { 3: Infinity } } }), 'ARG', /finite/);
  code(() => s.generate([1], { sampler: { logitBias: [1, 2] } }), 'ARG', /object/);
  // a Map works, and a large bias forces its token under greedy
  assert.equal(s.generate([1], { maxTokens: 5, sampler: { kind: 'greedy', logitBias: new Map([[17, 1e3]]) } }).tokens, [17, 17, 17, 17, 17]);
  const again = s.generate([1, 2, 3], { maxTokens: 6, sampler: { kind: 'greedy' } });
  assert.is(again.tokens.length, 6);
  s.dispose();
});

test('the step API: allowed() sees what was fed since prefill; rewind forgets; speculative refuses constraints', async () => {
  const rt = await init();
  const s = rt.load(fixture('gen-seq')), d = rt.load(fixture('gen-seq-draft'));
  const seen = [];
  const md = { positionInput: 'pos' };
  const g = s.generator({ model: md, sampler: { kind: 'greedy', allowed: (gen) => { seen.push(gen); return Array.from({ length: g.vocab }, (_, i) => i % 2 === 1); } } });
  g.prefill([1, 2, 3]);
  const a = g.sample();
  assert.is(a % 2, 1);
  g.feed(a);
  const b = g.sample();
  g.feed(b);
  g.rewind(1);
  g.sample();
  assert.equal(seen, [[], [a], [a]]);
  const dg = d.generator({ model: md, sampler: { kind: 'greedy' } });
  dg.prefill([1, 2, 3]);
  code(() => g.speculate(dg, { k: 2, maxTokens: 4 }), 'UNSUPPORTED', /logitBias, sampler.allowed and sampler.regex/);
  g.free(); dg.free();
  code(() => s.generate([1, 2], { maxTokens: 4, model: md, sampler: { logitBias: { 1: 1 } }, speculative: { draft: d, model: md } }), 'UNSUPPORTED', /not applied by speculative/);
  code(() => s.generate([1, 2], { maxTokens: 4, model: md, topLogprobs: 2, onToken: () => {}, speculative: { draft: d, model: md } }), 'UNSUPPORTED', /topLogprobs/);
  s.dispose(); d.dispose(); rt.dispose();
});

test.run();
