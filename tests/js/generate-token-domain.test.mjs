// sampler.regex over a TokenDomain (issue 23, item 1): multi-byte tokens on
// the gen-bigram fixture's 32 ids, each standing for a byte string (JSON
// pieces, digits and digit runs, a two-byte UTF-8 letter, a special token of
// no bytes). A generation that ends on the end token decodes to a text the
// pattern matches in full by JS's own RegExp; every draw is a token from
// which the match can still be completed (the run never hits an all-false
// mask, which is a STATE error); bad domains are error values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import fc from 'fast-check';
import { load, HologramError, TokenDomain } from '../../bindings-js/index.js';

const fixture = (n) => fs.readFileSync(new URL(`../fixtures/${n}.holo`, import.meta.url));
const TOKENS = ['{', '}', '{"', '"', 'n', 'name', '":', ' ', ': ', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '12',
  '345', '"}', 'a', 'b', 'ab', 'ba', 'é', '', 'ca', ', ', '",', ';'];
const EOS = TOKENS.length - 1;
const dom = new TokenDomain(TOKENS);
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };

test('TokenDomain: offsets then bytes, UTF-8, decode', () => {
  assert.is(dom.vocab, 32);
  assert.equal([...dom.bytesOf(26)], [0xc3, 0xa9]);
  assert.is(dom.bytesOf(27).length, 0);
  assert.is(dom.decode([2, 5, 6, 19, 1]), '{"name":12}');
  code(() => new TokenDomain([]), 'ARG');
  code(() => new TokenDomain(['a', 3]), 'ARG', /token 1/);
  code(() => dom.bytesOf(32), 'ARG');
});

test('a JSON-shaped pattern over multi-byte tokens: every ended text matches in full', async () => {
  const s = await load(fixture('gen-bigram'));
  const pattern = '\\{"(name|n)": ?[0-9]+(, "n": ?[0-9]+)?\\}';
  const re = /^\{"(?:name|n)": ?[0-9]+(?:, "n": ?[0-9]+)?\}$/;
  let ended = 0;
  for (let seed = 0; seed < 40; seed++) {
    const r = s.generate([0], { maxTokens: 60, seed, stopToken: EOS, sampler: { temperature: 1.2, regex: { pattern, tokens: dom, eos: EOS }, logitBias: { [EOS]: 5 } } });
    const t = dom.decode(r.tokens.filter((x) => x !== EOS));
    assert.ok(r.tokens.every((x) => x !== 27), 'the special token (no bytes) was drawn');
    if (r.tokens.length < 60) { ended++; assert.ok(re.test(t), `ended with '${t}', which the pattern does not match`); }
  }
  assert.ok(ended >= 20, `only ${ended} of 40 generations reached the end token`);
  s.dispose();
});

// Patterns over a, b, c, é (the two-byte letter), spaces and digits.
const atom = fc.oneof(fc.constantFrom('a', 'b', 'c', ' ', '1', '2', 'é'), fc.constantFrom('[ab]', '[0-9]', '[a-c ]'));
const pattern = fc.letrec((tie) => ({
  piece: fc.tuple(fc.oneof({ depthSize: 'small', withCrossShrink: true }, atom, tie('group')), fc.constantFrom('', '', '*', '+', '?')).map(([a, q]) => a + q),
  seq: fc.array(tie('piece'), { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
  alt: fc.array(tie('seq'), { minLength: 1, maxLength: 3 }).map((p) => p.join('|')),
  group: tie('alt').map((a) => `(${a})`),
})).alt.filter((p) => new TextEncoder().encode(p).length <= 40);

test('property: random patterns, tokens that cross atoms; ended texts match, no dead end is ever drawn', async () => {
  const s = await load(fixture('gen-bigram'));
  let ended = 0, runs = 0;
  fc.assert(fc.property(pattern, fc.integer({ min: 0, max: 10000 }), fc.double({ min: 0.3, max: 2, noNaN: true }), (pat, seed, temperature) => {
    // JS's RegExp over the UTF-8 bytes as latin1 characters: the C side matches bytes.
    const bytesPat = Buffer.from(pat, 'utf8').toString('latin1').replace(/\u00c3\u00a9/g, '(?:\u00c3\u00a9)');
    const re = new RegExp(`^(?:${bytesPat})$`);
    let r;
    try {
      r = s.generate([0], { maxTokens: 16, seed, stopToken: EOS, sampler: { temperature, regex: { pattern: pat, tokens: TOKENS, eos: EOS }, logitBias: { [EOS]: 4 } } });
    } catch (e) {
      // the only refusal allowed: a pattern no token sequence can match at all (the first mask is empty)
      assert.is(e.code, 'STATE', `'${pat}': ${e.message}`);
      return;
    }
    runs++;
    const t = Buffer.from(dom.decode(r.tokens.filter((x) => x !== EOS)), 'utf8').toString('latin1');
    if (r.tokens.length < 16) { ended++; assert.ok(re.test(t), `'${pat}': ended on the end token with '${t}', which does not match`); }
  }), { numRuns: 150, seed: 29 });
  assert.ok(ended > runs / 3, `only ${ended} of ${runs} generations reached the end token`);
  s.dispose();
});

test('bad token domains are error values; the session stays usable', async () => {
  const s = await load(fixture('gen-bigram'));
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: { pattern: 'a', tokens: ['a', 'b'] } } }), 'ARG', /2 tokens, the model 32/);
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: { pattern: 'a', tokens: dom, tokenBytes: 'x'.repeat(32) } } }), 'ARG', /not both/);
  code(() => s.generate([0], { maxTokens: 2, sampler: { regex: { pattern: '(a', tokens: dom } } }), 'ARG');
  const ok = s.generate([0], { maxTokens: 3, seed: 2, sampler: { regex: { pattern: '(ab)+', tokens: dom } } });
  assert.ok(/^(ab)+$/.test(dom.decode(ok.tokens)) || /^(ab)*a$/.test(dom.decode(ok.tokens)), dom.decode(ok.tokens));
  s.dispose();
});

test.run();
