// onToken(token, i, { prob, logprob, rawLogprob, topk }) and generator.logprobs()
// (docs/generation.md, "Log-probabilities") over the gen-bigram fixture:
// every number is checked against a direct double-precision log-softmax of
// the logits of a hand-driven execute loop (raw), and of the sampler's
// pipeline applied by hand (temperature, top-k, logit bias, mask) (drawn).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { load, HologramError } from '../../bindings-js/index.js';

const fixture = (n) => fs.readFileSync(new URL(`../fixtures/${n}.holo`, import.meta.url));
const TOL = 2e-5;

// ln softmax(l / t) at each token, over keep (all if null); -Infinity outside keep.
function logSoftmax(l, t = 1, keep = null) {
  let mx = -Infinity, sum = 0;
  for (let i = 0; i < l.length; i++) if ((!keep || keep[i]) && l[i] / t > mx) mx = l[i] / t;
  for (let i = 0; i < l.length; i++) if (!keep || keep[i]) sum += Math.exp(l[i] / t - mx);
  return Array.from(l, (v, i) => (!keep || keep[i] ? v / t - mx - Math.log(sum) : -Infinity));
}
const near = (got, want, what) => {
  if (want === -Infinity) return assert.is(got, -Infinity, what);
  assert.ok(Math.abs(got - want) <= TOL, `${what}: ${got} vs ${want}`);
};

// The logits after each prefix, by executing the step graph by hand.
async function logitsAlong(prompt, tokens) {
  const r = await load(fixture('gen-bigram'));
  let h = new Float32Array(32), logits;
  const feed = (t) => { const [l, h2] = r.execute([new BigInt64Array([BigInt(t)]), h]); logits = Array.from(l.data); h = h2.data; };
  prompt.forEach(feed);
  const out = [];
  for (const t of tokens) { out.push(logits); feed(t); }
  r.dispose();
  return out;
}

// The k best of keep by descending logit (ties: lower id).
const bestOf = (l, keep, k) => l.map((v, i) => i).filter((i) => !keep || keep[i]).sort((a, b) => l[b] - l[a] || a - b).slice(0, k);

test('temperature 0.8: logprob = log-softmax(l / T), rawLogprob = log-softmax(l), topk in order', async () => {
  const s = await load(fixture('gen-bigram'));
  const infos = [];
  const { tokens } = s.generate([1, 2, 3], { maxTokens: 24, seed: 4, topLogprobs: 5, sampler: { temperature: 0.8 }, onToken: (t, i, info) => { infos.push({ t, ...info }); } });
  const L = await logitsAlong([1, 2, 3], tokens);
  assert.is(infos.length, 24);
  infos.forEach((info, i) => {
    const raw = logSoftmax(L[i]), drawn = logSoftmax(L[i], 0.8);
    near(info.rawLogprob, raw[info.t], `raw ${i}`);
    near(info.logprob, drawn[info.t], `drawn ${i}`);
    near(info.prob, Math.exp(drawn[info.t]), `prob ${i}`);
    assert.equal(info.topk.map((e) => e.token), bestOf(L[i], null, 5), `topk order ${i}`);
    for (const e of info.topk) { near(e.logprob, drawn[e.token], `top drawn ${i}`); near(e.rawLogprob, raw[e.token], `top raw ${i}`); }
  });
  s.dispose();
});

test('top-k 4 with a logit bias and an allowed mask: the renormalised kept set; excluded tokens -Infinity', async () => {
  const s = await load(fixture('gen-bigram'));
  const bias = { 3: 2.5, 9: -1, 10: -Infinity };
  const b = Array.from({ length: 32 }, (_, i) => bias[i] ?? 0);
  const mask = (n) => Array.from({ length: 32 }, (_, i) => (i + n) % 3 !== 0);
  const infos = [];
  const { tokens } = s.generate([5], { maxTokens: 16, seed: 9, topLogprobs: 6, sampler: { topK: 4, logitBias: bias, allowed: (g) => mask(g.length) }, onToken: (t, i, info) => { infos.push({ t, ...info }); } });
  const L = await logitsAlong([5], tokens);
  infos.forEach((info, i) => {
    const allowed = mask(i);
    const lb = L[i].map((v, j) => (b[j] === -Infinity ? -Infinity : v + b[j]));
    const ok = allowed.map((a, j) => a && lb[j] !== -Infinity);
    const kept = bestOf(lb, ok, 4), keep = lb.map((_, j) => kept.includes(j));
    assert.ok(keep[info.t], `token ${info.t} at ${i} is outside the kept set ${kept}`);
    const drawn = logSoftmax(lb.map((v, j) => (keep[j] ? v : 0)), 1, keep), raw = logSoftmax(L[i]);
    near(info.logprob, drawn[info.t], `drawn ${i}`);
    near(info.rawLogprob, raw[info.t], `raw ${i}`);
    const rest = bestOf(L[i], keep.map((k) => !k), 2);
    assert.equal(info.topk.map((e) => e.token), [...kept, ...rest], `topk ${i}`);
    for (const e of info.topk) { near(e.logprob, drawn[e.token], `top drawn ${i}`); near(e.rawLogprob, raw[e.token], `top raw ${i}`); }
  });
  s.dispose();
});

test('greedy: logprob 0 (one-hot), rawLogprob from the model; the step API; bad options refused', async () => {
  const s = await load(fixture('gen-bigram'));
  const infos = [];
  const { tokens } = s.generate([1, 2], { maxTokens: 8, topLogprobs: 2, sampler: { kind: 'greedy' }, onToken: (t, i, info) => { infos.push(info); } });
  const L = await logitsAlong([1, 2], tokens);
  infos.forEach((info, i) => {
    assert.is(info.prob, 1);
    assert.is(info.logprob, 0);
    near(info.rawLogprob, logSoftmax(L[i])[tokens[i]], `raw ${i}`);
    assert.is(info.topk[0].token, tokens[i]);
    assert.is(info.topk[1].logprob, -Infinity);
  });
  // without topLogprobs the third argument still carries the chosen token's numbers
  s.generate([1, 2], { maxTokens: 2, sampler: { kind: 'greedy' }, onToken: (t, i, info) => { assert.is(info.topk.length, 0); near(info.rawLogprob, infos[i].rawLogprob, 'no topk'); } });
  const g = s.generator({ logprobs: 3, seed: 2 });
  g.prefill([1, 2]);
  assert.throws(() => g.logprobs(), (e) => e instanceof HologramError && e.code === 'STATE');
  const t = g.sample();
  const lp = g.logprobs();
  assert.is(lp.token, t);
  assert.is(lp.topk.length, 3);
  near(lp.rawLogprob, logSoftmax(L[0])[t], 'step API raw');
  g.free();
  const plain = s.generator({});
  plain.prefill([1]);
  plain.sample();
  assert.throws(() => plain.logprobs(), (e) => e.code === 'STATE' && /logprobs option/.test(e.message));
  plain.free();
  for (const v of [-1, 1.5, 65, 'x']) assert.throws(() => s.generate([1], { topLogprobs: v, onToken: () => {} }), (e) => e.code === 'ARG', `topLogprobs ${v}`);
  s.dispose();
});

test.run();
