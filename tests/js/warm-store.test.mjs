// Host warm stores: the memory and node-dir adapters across sessions, file
// sharing with the native program (same on-disk layout), corruption, the
// browser adapter over an injected Cache API, and label hygiene.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { load } from '../../bindings-js/index.js';
import { MemoryWarmStore } from '../../bindings-js/stores/memory.js';
import { NodeDirWarmStore } from '../../bindings-js/stores/node-dir.js';
import { openBrowserStore } from '../../bindings-js/stores/browser.js';
import { ROOT, fixture, inputsFor } from './helpers.mjs';

const HOLO = join(ROOT, 'build', 'native', 'holo');
const CONE = join(ROOT, 'tests', 'fixtures', 'cone.holo');
const tmp = (p) => mkdtempSync(join(tmpdir(), `holo-js-${p}-`));
const records = (dir) => readdirSync(dir).filter((f) => /^sha256-[0-9a-f]{64}\.hws$/.test(f));

function native(args) {
  if (!existsSync(HOLO)) assert.unreachable('build/native/holo is not built (make build)');
  const r = spawnSync(HOLO, args, { encoding: 'utf8', timeout: 30000 });
  if (r.error) throw r.error;
  assert.is(r.status, 0, `holo ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const num = (k) => { const m = r.stdout.match(new RegExp(`\\b${k}=(\\d+)`)); return m ? Number(m[1]) : null; };
  return { out: r.stdout, storeHits: num('store_hits'), storePuts: num('store_puts'), storeCorrupt: num('store_corrupt') };
}

async function coldThenWarm(store) {
  const a = await load(fixture('cone'), { warmStore: store });
  const ca = a.counters;
  assert.is(ca.dispatches, 1, 'the cold load computes the cone');
  assert.is(ca.storeMisses, 1);
  assert.is(ca.storePuts, 1);
  const b = await load(fixture('cone'), { warmStore: store });
  const cb = b.counters;
  assert.is(cb.storeHits, 1, 'the warm load takes the cone from the store');
  assert.is(cb.dispatches, 0, 'and dispatches nothing at load');
  assert.is(cb.storeCorrupt, 0);
  const ins = inputsFor(a);
  const ya = a.execute(ins)[0], yb = b.execute(ins)[0];
  assert.is(yb.label, ya.label);
  assert.equal(yb.data, ya.data);
  return { a, b };
}

test('memory adapter: the second session starts warm', async () => {
  const store = new MemoryWarmStore();
  await coldThenWarm(store);
  assert.is(store.size, 1);
  const [label] = store.keys();
  assert.match(label, /^sha256:[0-9a-f]{64}$/);
});

test('node-dir adapter: the second session starts warm; C FileWarmStore layout', async () => {
  const dir = tmp('dir');
  try {
    await coldThenWarm(new NodeDirWarmStore(dir));
    assert.is(records(dir).length, 1);
    assert.equal(readdirSync(dir).filter((f) => f.startsWith('.tmp-')), [], 'no temp files left');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('node-dir store shared with the native program: native writes, JS reads', async () => {
  const dir = tmp('n2j');
  try {
    const n = native(['run', CONE, '--warm-store', dir]);
    assert.is(n.storePuts, 1, n.out);
    assert.is(records(dir).length, 1);
    const s = await load(fixture('cone'), { warmStore: new NodeDirWarmStore(dir) });
    assert.is(s.counters.storeHits, 1);
    assert.is(s.counters.dispatches, 0);
    assert.is(s.counters.storeCorrupt, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('node-dir store shared with the native program: JS writes, native reads', async () => {
  const dir = tmp('j2n');
  try {
    const s = await load(fixture('cone'), { warmStore: new NodeDirWarmStore(dir) });
    assert.is(s.counters.storePuts, 1);
    const n = native(['run', CONE, '--warm-store', dir]);
    assert.is(n.storeHits, 1, n.out);
    assert.is(n.storeCorrupt, 0, n.out);
    assert.is(n.storePuts, 0, n.out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a corrupt store entry is detected (storeCorrupt 1) and recomputed', async () => {
  const dir = tmp('bad');
  try {
    const store = new NodeDirWarmStore(dir);
    const a = await load(fixture('cone'), { warmStore: store });
    const y = a.execute(inputsFor(a))[0];
    const [f] = records(dir);
    const bytes = readFileSync(join(dir, f));
    bytes[bytes.length - 5] ^= 0x40;
    writeFileSync(join(dir, f), bytes);
    const b = await load(fixture('cone'), { warmStore: store });
    assert.is(b.counters.storeCorrupt, 1);
    assert.is(b.counters.storeHits, 0);
    assert.is(b.counters.dispatches, 1, 'recomputed');
    const yb = b.execute(inputsFor(b))[0];
    assert.is(yb.label, y.label);
    assert.equal(yb.data, y.data);
    // the recomputed record replaced the corrupt one
    const c = await load(fixture('cone'), { warmStore: store });
    assert.is(c.counters.storeHits, 1);
    // a truncated record in the memory store, too
    const mem = new MemoryWarmStore();
    await load(fixture('cone'), { warmStore: mem });
    const [label] = mem.keys();
    mem.map.set(label, mem.get(label).slice(0, 10));
    const d = await load(fixture('cone'), { warmStore: mem });
    assert.is(d.counters.storeCorrupt, 1);
    assert.is(d.counters.dispatches, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a throwing store is a miss, not a trap; storeError keeps the exception', async () => {
  const boom = new Error('disk on fire');
  const store = { get() { throw boom; }, put() { throw boom; } };
  const s = await load(fixture('cone'), { warmStore: store });
  assert.is(s.counters.dispatches, 1);
  assert.is(s.counters.storeHits, 0);
  assert.is(s.execute(inputsFor(s)).length, 1);
  const t = await load(fixture('cone'), { warmStore: { get: () => 'nope', put() {} } });
  assert.is(t.counters.dispatches, 1);
});

test('labels are validated before they become paths', () => {
  const dir = tmp('lbl');
  try {
    const store = new NodeDirWarmStore(dir);
    const good = `sha256:${'ab'.repeat(32)}`;
    for (const bad of ['sha256:../../etc/passwd', `sha256:${'AB'.repeat(32)}`, `sha256:${'ab'.repeat(32)}/`, `sha256:${'ab'.repeat(31)}`, `md5:${'ab'.repeat(32)}`, 42]) {
      assert.throws(() => store.put(bad, new Uint8Array(1)), /not a label/);
      assert.is(store.get(bad), undefined);
      assert.throws(() => new MemoryWarmStore().put(bad, new Uint8Array(1)), /not a label/);
    }
    store.put(good, new Uint8Array([1, 2, 3]));
    assert.equal(Array.from(store.get(good)), [1, 2, 3]);
    assert.is(store.pathOf(good), join(dir, `sha256-${'ab'.repeat(32)}.hws`));
    assert.equal(store.labels(), [good]);
    assert.throws(() => store.put(good, 'bytes'), /Uint8Array/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A minimal Cache API (what a browser or worker provides), to test the adapter's logic in Node.
function fakeCaches() {
  const stores = new Map();
  return {
    stores,
    async open(name) {
      if (!stores.has(name)) stores.set(name, new Map());
      const m = stores.get(name);
      return {
        async keys() { return [...m.keys()].map((url) => ({ url })); },
        async match(url) { const b = m.get(String(url)); return b ? new Response(b.bytes.slice(), { headers: b.headers }) : undefined; },
        async put(url, res) { m.set(String(url), { headers: Object.fromEntries(res.headers), bytes: new Uint8Array(await res.arrayBuffer()) }); },
        async delete(url) { return m.delete(String(url)); },
      };
    },
  };
}

test('browser adapter (Cache API): preload makes get synchronous, puts flush asynchronously', async () => {
  const caches = fakeCaches();
  const s1 = await openBrowserStore({ backend: 'cache', caches, name: 't' });
  assert.is(s1.kind, 'cache');
  const a = await load(fixture('cone'), { warmStore: s1 });
  assert.is(a.counters.storePuts, 1);
  await s1.flush();
  const urls = [...caches.stores.get('t').keys()];
  assert.is(urls.filter((u) => /\/sha256-[0-9a-f]{64}\.hws$/.test(u)).length, 1);
  assert.ok(urls.some((u) => u.endsWith('/index.json')), 'the index is stored beside the records');
  const s2 = await openBrowserStore({ backend: 'cache', caches, name: 't', preload: true }); // a fresh page
  assert.is(s2.size, 1);
  assert.is(s2.cached, 1);
  const b = await load(fixture('cone'), { warmStore: s2 });
  assert.is(b.counters.storeHits, 1);
  assert.is(b.counters.dispatches, 0);
  const s3 = await openBrowserStore({ backend: 'cache', caches, name: 't' });
  assert.is(s3.size, 1, 'the index is read at open');
  assert.is(s3.cached, 0, 'the records are not');
  await s3.close();
  let failed = null;
  const s4 = await openBrowserStore({ backend: 'cache', caches: { open: async () => ({ keys: async () => [], match: async () => undefined, put: async () => { throw new Error('quota'); } }) }, onError: (e) => { failed = e; } });
  s4.put(`sha256:${'0'.repeat(64)}`, new Uint8Array(1));
  await s4.flush();
  assert.is(failed.message, 'quota');
  assert.is(s4.get(`sha256:${'0'.repeat(64)}`).length, 1, 'kept in memory');
  await assert.not.throws(async () => {});
  try { await openBrowserStore({ backend: 'indexeddb', indexedDB: null, caches: null }); assert.unreachable(); } catch (e) { assert.match(e.message, /no indexeddb/); }
});

test.run();
