// sampler.regex from JS (docs/generation.md, "Regex constraints"): the C
// regex constraint (generation/regex.c) over a token -> byte table, on the
// gen-bigram fixture (32 tokens: 'a'..'z', ' ', '.', ',', '!', '?', ';').
// A fast-check property over random patterns (literals, classes, groups,
// alternation, * + ?): whenever generation ends on the end token, the text
// matches the pattern in full by JS's own RegExp; every text is a prefix the
// constraint could still complete. Errors are values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import fc from 'fast-check';
import { load, HologramError } from '../../bindings-js/index.js';

const fixture = (n) => fs.readFileSync(new URL(`../fixtures/${n}.holo`, import.meta.url));
const VOCAB = 'abcdefghijklmnopqrstuvwxyz .,!?;';
const EOS = VOCAB.indexOf(';');
const text = (tokens) => tokens.map((t) => VOCAB[t]).join('');
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };

// Patterns over a-h and ' ' only (the end token ';' never matches a character).
const atom = fc.oneof(
  fc.constantFrom(...'abcdefgh '.split('')),
  fc.constantFrom('[a-d]', '[efg ]', '[b-h]', '[ace]'),
);
const pattern = fc.letrec((tie) => ({
  piece: fc.tuple(fc.oneof({ depthSize: 'small', withCrossShrink: true }, atom, tie('group')), fc.constantFrom('', '', '*', '+', '?')).map(([a, q]) => a + q),
  seq: fc.array(tie('piece'), { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
  alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((p) => p.join('|')),
  group: tie('alt').map((a) => `(${a})`),
})).alt.filter((p) => p.length <= 48); // the subset holds at most 63 atoms

test('property: a generation that ends on the end token matches the pattern in full (random patterns)', async () => {
  const s = await load(fixture('gen-bigram'));
  let ended = 0, runs = 0;
  fc.assert(fc.property(pattern, fc.integer({ min: 0, max: 10000 }), fc.double({ min: 0.3, max: 2, noNaN: true }), (pat, seed, temperature) => {
    const re = new RegExp(`^(?:${pat})$`);
    const r = s.generate([0], { maxTokens: 24, seed, stopToken: EOS, sampler: { temperature, regex: { pattern: pat, tokenBytes: VOCAB, eos: EOS }, logitBias: { [EOS]: 4 } } });
    runs++;
    const t = text(r.tokens);
    for (const ch of t) assert.ok('abcdefgh '.includes(ch), `'${pat}': emitted '${ch}' (in '${t}')`);
    if (r.tokens.length < 24) { ended++; assert.ok(re.test(t), `'${pat}': ended on the end token with '${t}', which does not match`); }
  }), { numRuns: 150, seed: 23 });
  assert.ok(ended > runs / 3, `only ${ended} of ${runs} generations reached the end token`);
  s.dispose();
});

test('groups and alternation constrain exactly; a bare string pattern defaults token i = byte i', async () => {
  const s = await load(fixture('gen-bigram'));
  for (let seed = 0; seed < 20; seed++) {
    const r = s.generate([3], { maxTokens: 12, seed, stopToken: EOS, sampler: { temperature: 1.5, regex: { pattern: '(ab|cd)+ (e|f)', tokenBytes: VOCAB, eos: EOS }, logitBias: { [EOS]: 6 } } });
    const t = text(r.tokens);
    assert.ok(/^(?:ab|cd)*(?:a|c)?$|^(?:ab|cd)+ (?:e|f)?$/.test(t), `'${t}' is not a prefix of (ab|cd)+ (e|f)`);
  }
  // token i = byte i: over 32 tokens, bytes 0..31, a class of control bytes
  const r = s.generate([0], { maxTokens: 6, seed: 1, sampler: { regex: '[\u0001-\u0003]+' } });
  for (const t of r.tokens) assert.ok(t >= 1 && t <= 3, `token ${t} outside [1, 3]`);
  s.dispose();
});

test('bad patterns and options are error values; the session stays usable', async () => {
  const s = await load(fixture('gen-bigram'));
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: '(ab' } }), 'ARG');
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: { pattern: 'a', tokenBytes: 'abc' } } }), 'ARG', /32 bytes/);
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: { pattern: 'a', eos: 99 } } }), 'ARG', /eos/);
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: 42 } }), 'ARG', /pattern string/);
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: 'a', allowed: () => new Array(32).fill(1) } }), 'ARG', /give one/);
  const ok = s.generate([0], { maxTokens: 5, seed: 2, sampler: { regex: { pattern: 'b+', tokenBytes: VOCAB } } });
  assert.equal(text(ok.tokens), 'bbbbb');
  s.dispose();
});

test.run();
