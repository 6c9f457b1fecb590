// No leaks across many executions: 10,000 executions of mlp.holo, alternating
// a few repeated inputs (memo hits) with fresh ones, leave the wasm memory at
// its post-warm-up size and the JS heap (after GC) where it was. Runs in a
// child `node --expose-gc` so GC can be forced. The runtime keeps dead values
// as a cache up to session.retainBytes (64 MiB by default), so the wasm
// memory grows until that cache is full and then stays: with retainBytes =
// 1 MiB the plateau comes within the warm-up; with the default after ~27,000
// fresh executions of this model (at ~130 MiB of linear memory: the first-fit
// heap holds the 64 MiB of cached values plus the free space between them).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { PKG, ROOT } from './helpers.mjs';

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

test.run();
