// Prompt-cache checkpoints (docs/generation.md, "Checkpoints"):
// generate(prompt, { checkpoints: [n] }) records the prefix of n tokens as well
// as the whole prompt, so a chat of three questions over one system prompt
// prefills the system prompt once (prefill and dispatch counters, the memo off),
// with the tokens of uncached generation; the checkpoint persists through a
// node-dir WarmStore into a new session; bad checkpoints are error values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, HologramError } from '../../bindings-js/index.js';
import { NodeDirWarmStore } from '../../bindings-js/stores/node-dir.js';

const fixture = (n) => fs.readFileSync(new URL(`../fixtures/${n}.holo`, import.meta.url));
const code = (fn, c, re) => { try { fn(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, c, e.message); if (re) assert.match(e.message, re); return; } assert.unreachable(c); };
const SYS = [3, 14, 15, 9, 26, 5, 3, 5, 8, 9]; // 10 tokens: gen-seq runs 4 + 4 + 2
const QS = [[1, 2, 3, 4, 5], [7, 7, 1, 2, 8], [30, 29, 28, 27, 26]];
const OPTS = { maxTokens: 6, seed: 3, sampler: { temperature: 0.9 }, model: { positionInput: 'pos' } };
const dispatched = (s, f) => { const d0 = s.counters.dispatches; const r = f(); return { r, d: s.counters.dispatches - d0 }; };

test('a 3-question chat prefills the system prompt once', async () => {
  const ref = await load(fixture('gen-seq'));
  ref.retainBytes = 0;
  const want = QS.map((q) => ref.generate([...SYS, ...q], OPTS).tokens);
  const sysOnly = dispatched(ref, () => ref.generate(SYS, { ...OPTS, maxTokens: 0 })).d;
  assert.ok(sysOnly > 0);
  const s = await load(fixture('gen-seq'));
  s.retainBytes = 0; // no help from the memo: only the prompt cache can skip work
  const runs = QS.map((q) => dispatched(s, () => s.generate([...SYS, ...q], { ...OPTS, checkpoints: [SYS.length] })));
  runs.forEach(({ r }, i) => {
    assert.equal(r.tokens, want[i], `question ${i}: the tokens of uncached generation`);
    assert.is(r.stats.prefillReused, i ? SYS.length : 0);
    assert.is(r.stats.prefillComputed, i ? QS[i].length : SYS.length + QS[i].length);
  });
  assert.is(runs[1].d, runs[2].d);
  assert.is(runs[0].d - runs[1].d, sysOnly, 'the first question alone paid for the system prompt');
  const pc = s.promptCache;
  assert.is(pc.inserts, 4); // the system prompt + three whole prompts
  assert.is(pc.hits, 2); assert.is(pc.tokensReused, 2 * SYS.length);
  // without the checkpoint nothing is shared (only whole prompts are recorded)
  const t = await load(fixture('gen-seq'));
  t.retainBytes = 0;
  assert.is(t.generate([...SYS, ...QS[0]], { ...OPTS, promptCache: true }).stats.prefillReused, 0);
  assert.is(t.generate([...SYS, ...QS[1]], { ...OPTS, promptCache: true }).stats.prefillReused, 0);
  ref.dispose(); s.dispose(); t.dispose();
});

test('the step API takes checkpoints; they persist through a node-dir WarmStore', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-cp-'));
  try {
    const a = await load(fixture('gen-seq'), { warmStore: new NodeDirWarmStore(dir) });
    const g = a.generator({ model: OPTS.model });
    assert.equal(g.prefill([...SYS, ...QS[0]], { checkpoints: [4, SYS.length] }), { reused: 0, computed: SYS.length + QS[0].length });
    g.free();
    assert.is(a.promptCache.inserts, 3);
    a.dispose();
    const b = await load(fixture('gen-seq'), { warmStore: new NodeDirWarmStore(dir) });
    b.retainBytes = 0;
    const r = b.generate([...SYS, ...QS[1]], { ...OPTS, promptCache: true });
    assert.is(r.stats.prefillReused, SYS.length, 'a new session restores the system prompt from the store');
    assert.is(b.promptCache.storeHits, 1);
    const ref = await load(fixture('gen-seq'));
    assert.equal(r.tokens, ref.generate([...SYS, ...QS[1]], OPTS).tokens);
    b.dispose(); ref.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('bad checkpoints are error values', async () => {
  const s = await load(fixture('gen-seq'));
  const p = [...SYS, ...QS[0]];
  code(() => s.generate(p, { ...OPTS, checkpoints: [0] }), 'ARG', /checkpoint 0 is not a prefix length in 1\.\.15/);
  code(() => s.generate(p, { ...OPTS, checkpoints: [16] }), 'ARG', /checkpoint 16/);
  code(() => s.generate(p, { ...OPTS, checkpoints: [2.5] }), 'ARG', /checkpoint 2\.5/);
  code(() => s.generate(p, { ...OPTS, checkpoints: 4 }), 'ARG', /array of prefix lengths/);
  code(() => s.generate(p, { ...OPTS, promptCache: false, checkpoints: [4] }), 'ARG', /contradicts/);
  // unordered and repeated checkpoints are sorted and merged
  s.retainBytes = 0;
  assert.is(s.generate(p, { ...OPTS, checkpoints: [10, 4, 10] }).stats.prefillComputed, 15);
  assert.is(s.promptCache.inserts, 3);
  assert.is(s.generate([...SYS.slice(0, 4), 9, 9], { ...OPTS, promptCache: true }).stats.prefillReused, 4);
  s.dispose();
});

test.run();
