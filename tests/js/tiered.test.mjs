// tiered-exec from JS (docs/warm-store.md "Tiered execution"): load(..,
// { warmStore, memoryBudget, spillBudget }) spills the outputs the pool
// evicts to the store and answers a repeat from it with 0 dispatches and the
// same bytes; spillBudget bounds what is written; a tampered record is
// counted and recomputed; spillBudget without a store is an error value.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { load } from '../../bindings-js/index.js';
import { MemoryWarmStore } from '../../bindings-js/stores/memory.js';
import { fixture, inputsFor } from './helpers.mjs';

const MLP = fixture('mlp');
const BUDGET = 2048; // the mlp's two live activations: every execution evicts older outputs

async function pressure(s, others) {
  const first = s.execute(inputsFor(s, 0))[0].data;
  for (let k = 1; k <= others; k++) s.execute(inputsFor(s, k));
  const d = s.counters.dispatches;
  const again = s.execute(inputsFor(s, 0))[0].data;
  return { first, again, dispatches: s.counters.dispatches - d };
}

test('evicted outputs come back from the store: 0 dispatches, same bytes', async () => {
  const store = new MemoryWarmStore();
  const s = await load(MLP, { warmStore: store, memoryBudget: BUDGET, spillBudget: 1 << 20 });
  assert.is(s.spillBudget, 1 << 20);
  const r = await pressure(s, 20);
  assert.is(r.dispatches, 0);
  assert.equal([...r.again], [...r.first]);
  const c = s.counters;
  assert.ok(c.spills >= 20 && c.spills <= 22, `spills ${c.spills}: each evicted output once, no intermediate`);
  assert.ok(c.promotions >= 1);
  const plain = await load(MLP, { memoryBudget: BUDGET });
  const p = await pressure(plain, 20);
  assert.ok(p.dispatches > 0, 'without a spill budget the repeat recomputes');
  assert.equal([...p.first], [...r.first]);
  assert.is(plain.counters.spills, 0);
  s.dispose();
  plain.dispose();
});

test('spillBudget bounds the bytes written; 0 turns it off', async () => {
  const store = new MemoryWarmStore();
  const s = await load(MLP, { warmStore: store, memoryBudget: BUDGET, spillBudget: 3 * 40 });
  await pressure(s, 20);
  assert.is(s.counters.spills, 3);
  assert.is(store.size, 3);
  s.spillBudget = 0;
  const puts = s.counters.storePuts;
  for (let k = 30; k < 40; k++) s.execute(inputsFor(s, k));
  assert.is(s.counters.storePuts, puts);
  s.dispose();
});

test('a tampered spilled record is counted and recomputed, never returned', async () => {
  const store = new MemoryWarmStore();
  const s = await load(MLP, { warmStore: store, memoryBudget: BUDGET, spillBudget: 1 << 20 });
  const first = s.execute(inputsFor(s, 0))[0].data;
  for (let k = 1; k <= 20; k++) s.execute(inputsFor(s, k));
  for (const k of [...store.keys()]) {
    const b = Uint8Array.from(store.get(k));
    b[b.length - 1] ^= 0x40;
    store.put(k, b);
  }
  const d = s.counters.dispatches;
  const again = s.execute(inputsFor(s, 0))[0].data;
  assert.ok(s.counters.dispatches > d);
  assert.ok(s.counters.storeCorrupt >= 1);
  assert.is(s.counters.promotions, 0);
  assert.equal([...again], [...first]);
  s.dispose();
});

test('spillBudget needs a warmStore', async () => {
  let threw = null;
  try { await load(MLP, { spillBudget: 1024 }); } catch (e) { threw = e; }
  assert.ok(threw && threw.code === 'ARG' && /no warmStore/.test(threw.message), String(threw?.message));
  const s = await load(MLP);
  assert.throws(() => s.setSpillBudget(1), /no warmStore/);
  assert.throws(() => s.setSpillBudget(-1), /spillBudget/);
  s.execute(inputsFor(s, 1)); // still usable
  s.dispose();
});

test.run();
