// No leaks across many executions: 10,000 executions of mlp.holo, alternating
// a few repeated inputs (memo hits) with fresh ones, leave the wasm memory at
// its post-warm-up size and the JS heap (after GC) where it was. Runs in a
// child `node --expose-gc` so GC can be forced. The runtime keeps dead values
// as a cache up to session.retainBytes (64 MiB by default in Node), so the
// wasm memory grows until that cache is full and then stays: with
// retainBytes = 1 MiB the plateau comes within the warm-up; with the default
// after ~27,000 fresh executions of this model.
// Then (issue 24): the defaults per environment and session.limits, a heap
// at its limit evicting instead of growing, and 100 load/execute/dispose
// cycles of different models in one Runtime ending at the memory size of the
// first cycle (the coalescing heap, bindings-js/src-c/heap.c).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { PKG, ROOT, fixture, inputsFor } from './helpers.mjs';
import { init, HologramError as HE } from '../../bindings-js/index.js';
import { detectEnvironment, DEFAULTS } from '../../bindings-js/src/environment.js';
import { convert } from '../../compiler/convert.js';

function child(retain, n = 10000, warm = 5000, freshEvery = 2) {
  const code = `
    import { init } from ${JSON.stringify(join(PKG, 'index.js'))};
    import fs from 'node:fs';
    const rt = await init();
    const s = rt.load(fs.readFileSync(${JSON.stringify(join(ROOT, 'tests/fixtures/mlp.holo'))}));
    ${retain === null ? '' : `s.retainBytes = ${retain};`}
    const few = [1, 2, 3].map((k) => Float32Array.from({ length: 64 }, (_, j) => Math.sin(j * 0.1 * k)));
    const fresh = new Float32Array(64);
    const mem = () => rt.x.memory.buffer.byteLength;
    const heap = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
    const t0 = performance.now();
    let wasmWarm = 0, heapWarm = 0, addressed = 0;
    for (let i = 0; i < ${n}; i++) {
      if (i === ${warm}) { wasmWarm = mem(); heapWarm = heap(); }
      let x;
      if (i % ${freshEvery} !== ${freshEvery} - 1) x = few[i % 3];
      else { fresh.fill(0); fresh[0] = i; fresh[1] = i * 0.5; x = fresh; }
      if (i % 10 === 9) { const [v] = s.executeAddressed([x]); addressed += v.data.length; } // views: nothing to free
      else { const [y] = s.execute([x]); if (y.data.length !== 10) throw new Error('bad output'); }
    }
    const c = s.counters;
    const out = { ms: performance.now() - t0, wasmStart: 0, wasmWarm, wasmEnd: mem(), heapWarm, heapEnd: heap(),
      executions: c.executions, memoHits: c.memoHits, evictions: c.evictions, resident: s.residentBytes, heapUsed: rt.x.holo_heap_used(), addressed };
    s.dispose();
    out.heapUsedAfterDispose = rt.x.holo_heap_used();
    console.log(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60000 });
  assert.is(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('20,000 executions with retainBytes = 1 MiB: wasm memory and JS heap flat after warm-up', () => {
  const m = child(1 << 20, 20000, 12000); // the entry count settles after ~10,000 (docs: retained outputs are small)
  assert.is(m.executions, 20000);
  assert.ok(m.memoHits >= 4000, `repeated inputs are memo hits (${m.memoHits})`);
  assert.ok(m.evictions > 0, 'the cache evicted dead values');
  assert.is(m.wasmEnd, m.wasmWarm, `wasm memory grew after warm-up: ${m.wasmWarm} -> ${m.wasmEnd}`);
  assert.ok(m.resident < 2 * (1 << 20) + 300000, `resident ${m.resident}`);
  const growth = m.heapEnd - m.heapWarm;
  assert.ok(growth < 1 << 20, `JS heap grew by ${growth} bytes over 8,000 executions`);
  assert.ok(m.heapUsedAfterDispose < 4096, `the wasm heap is empty after dispose (${m.heapUsedAfterDispose} bytes in use)`);
  assert.ok(m.ms < 15000, `${m.ms} ms`);
});

test('default 64 MiB retention: 40,000 fresh inputs stay within the cache bound; JS heap flat', () => {
  // each fresh execution leaves ~2.5 KB of dead values: the cache fills after ~27,000
  const m = child(null, 40000, 30000, 1);
  assert.is(m.executions, 40000);
  assert.ok(m.evictions > 0, 'the cache is full and evicting');
  assert.ok(m.wasmEnd <= 160 << 20, `wasm memory ${m.wasmEnd} bytes for a 64 MiB cache`);
  assert.ok(m.resident <= (64 << 20) + 300000, `resident ${m.resident}`);
  const growth = m.heapEnd - m.heapWarm;
  assert.ok(growth < 1 << 20, `JS heap grew by ${growth} bytes`);
  assert.ok(m.heapUsedAfterDispose < 4096, `wasm heap in use after dispose: ${m.heapUsedAfterDispose}`);
});

test('retainBytes: readable, settable, validated; 0 keeps nothing dead', async () => {
  const { load, HologramError } = await import('../../bindings-js/index.js');
  const { fixture } = await import('./helpers.mjs');
  const s = await load(fixture('mlp'));
  assert.is(s.retainBytes, 64 * 1024 * 1024);
  s.retainBytes = 0;
  assert.is(s.retainBytes, 0);
  const x = new Float32Array(64).fill(0.25);
  s.execute([x]);
  const before = s.counters.dispatches;
  s.execute([x]);
  assert.ok(s.counters.dispatches >= before, 'still executes');
  s.retainBytes = Infinity;
  assert.is(s.retainBytes, Infinity);
  try { s.retainBytes = -1; assert.unreachable(); } catch (e) { assert.instance(e, HologramError); assert.is(e.code, 'ARG'); }
  s.dispose();
});

test('environments: detection and their defaults; Node keeps today\'s values', async () => {
  assert.is(detectEnvironment({ navigator: { userAgent: 'Cloudflare-Workers' }, process: { versions: { node: '20.0.0' } } }), 'workerd');
  assert.is(detectEnvironment({ process: { versions: { node: '22.1.0' } } }), 'node');
  assert.is(detectEnvironment({ window: {}, document: {}, navigator: { userAgent: 'Mozilla/5.0' } }), 'browser');
  assert.is(detectEnvironment({ WorkerGlobalScope: function () {}, importScripts() {} }), 'browser');
  assert.is(detectEnvironment({ navigator: { userAgent: 'Vercel-Edge' } }), 'isolate');
  assert.is(detectEnvironment(), 'node');
  const rt = await init();
  const s = rt.load(fixture('mlp'));
  const l = s.limits;
  assert.ok(Object.isFrozen(l));
  assert.equal(l, { environment: 'node', retainBytes: 64 << 20, memoryBudget: 0, memoRecords: 16384, ceilingBytes: null });
  const w = rt.load(fixture('mlp'), { environment: 'workerd' });
  assert.equal({ ...w.limits, ceilingBytes: typeof w.limits.ceilingBytes }, { environment: 'workerd', retainBytes: 8 << 20, memoryBudget: 16 << 20, memoRecords: 4096, ceilingBytes: 'object' }, 'a Node session in the Runtime: no ceiling for the instance');
  s.dispose();
  const c = w.limits.ceilingBytes;
  assert.ok(c > rt.memoryBytes && c < rt.memoryBytes + (40 << 20), `workerd ceiling ${c} once only workerd sessions remain`);
  assert.is(rt.heapStats.limit, c - (rt.memoryBytes - rt.heapStats.grown), 'the heap\'s limit is the ceiling less the memory below the heap');
  const r = rt.load(fixture('mlp'), { environment: 'workerd', memoryBudget: 64 << 20, retainBytes: 32 << 20, memoRecords: 1000 });
  assert.equal([r.limits.memoryBudget, r.limits.retainBytes, r.limits.memoRecords], [64 << 20, 32 << 20, 512], 'raised by the load options (records: a power of two)');
  assert.ok(r.limits.ceilingBytes >= c + (80 << 20), 'the ceiling follows the budgets');
  r.memoryBudget = 0;
  assert.is(r.limits.ceilingBytes, null, 'memoryBudget 0 lifts the ceiling');
  assert.is(rt.heapStats.limit, 0);
  for (const bad of [{ environment: 'mars' }, { memoRecords: -1 }, { memoRecords: 1.5 }, { retainBytes: -1 }]) {
    try { rt.load(fixture('mlp'), bad); assert.unreachable(JSON.stringify(bad)); } catch (e) { assert.instance(e, HE); assert.is(e.code, 'ARG', e.message); }
  }
  w.dispose(); r.dispose();
  assert.is(rt.heapStats.used, 0, 'every byte back after dispose');
});

test('a heap at its limit evicts cached values instead of growing; repeats still memo hits', async () => {
  const rt = await init();
  const s = rt.load(fixture('mlp'), { retainBytes: Infinity });
  const fresh = new Float32Array(64);
  for (let i = 0; i < 200; i++) { fresh[0] = i; s.execute([fresh]); }
  rt.x.holo_heap_set_limit(rt.heapStats.grown); // no more growth
  const mem = rt.memoryBytes, ev0 = s.counters.evictions;
  const few = [1, 2].map((k) => Float32Array.from({ length: 64 }, (_, j) => Math.cos(j * k)));
  for (let i = 0; i < 20000; i++) { fresh[0] = 1000 + i; s.execute([i % 10 ? fresh : few[(i / 10) & 1]]); }
  assert.is(rt.memoryBytes, mem, 'linear memory did not grow');
  assert.ok(s.counters.evictions > ev0 + 1000, `evicted (${s.counters.evictions - ev0})`);
  const hits = s.counters.memoHits;
  s.execute([few[0]]);
  assert.is(s.counters.memoHits, hits + 1, 'a repeated input is still a memo hit');
  s.dispose();
  assert.is(rt.heapStats.used, 0);
});

// Different models: fixtures, the digit model of `make run` and zoo models
// (converted once), every input float32.
function models() {
  const out = ['mlp', 'cnn', 'cone', 'cse', 'shared'].map((n) => [n, fixture(n)]);
  out.push(['digits', new Uint8Array(readFileSync(join(ROOT, 'web-demo/model/digits.holo')))]);
  for (const z of ['mobilenet_v2_w025.op17', 'mobilenet_v3_small_w025.op17', 'autoencoder.op17', 'vit_tiny.op17'])
    out.push([z, convert(new Uint8Array(readFileSync(join(ROOT, 'tests/zoo/models', `${z}.onnx`)))).holo]);
  return out;
}

test('100 load/execute/dispose cycles of 10 different models in one Runtime: memory after cycle 100 = after cycle 1', async () => {
  const ms = models();
  const rt = await init();
  const sizes = [];
  const t0 = performance.now();
  for (let c = 1; c <= 100; c++) {
    // overlapping lifetimes: each session is disposed after the next one loaded
    let prev = null;
    for (let k = 0; k < ms.length; k++) {
      const [name, bytes] = ms[(k + c) % ms.length];
      const s = rt.load(bytes);
      const outs = s.execute(inputsFor(s, c));
      if (!outs.length || !outs[0].label) throw new Error(`${name}: no output`);
      if (prev) prev.dispose();
      prev = s;
    }
    prev.dispose();
    assert.is(rt.heapStats.used, 0, `cycle ${c}: every byte back after the last dispose`);
    sizes.push(rt.memoryBytes);
  }
  const ms100 = performance.now() - t0;
  console.log(`cycles: memory after cycle 1 ${sizes[0]} B, max ${Math.max(...sizes)}, after 100 ${sizes[99]}; ${Math.round(ms100)} ms`);
  assert.is(sizes[99], sizes[0], `linear memory after cycle 100 (${sizes[99]}) = after cycle 1 (${sizes[0]})`);
  assert.is(Math.max(...sizes), sizes[0], 'and never above it in between');
});

test.run();
