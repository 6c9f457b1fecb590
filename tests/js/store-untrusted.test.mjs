// A store is untrusted: with persistMemo, a poisoned record — bytes that do
// not match their digest, a record filed under another label, a truncated
// record, a replayed memo record of another input, a replayed record of an
// older format — is detected (storeCorrupt), recomputed, never returned, and
// replaced by a good record. Each case for the memory, directory, browser
// (Cache API, injected) and Redis stores. Fails if the core stops checking
// the label, the key or the digest, or if the fallback stops recomputing.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from '../../bindings-js/index.js';
import { MemoryWarmStore } from '../../bindings-js/stores/memory.js';
import { NodeDirWarmStore } from '../../bindings-js/stores/node-dir.js';
import { openBrowserStore } from '../../bindings-js/stores/browser.js';
import { memoRecordOutputs, preloadExecution } from '../../bindings-js/stores/preload.js';
import { fixture, inputsFor } from './helpers.mjs';

const MLP = fixture('mlp');
const A = (s) => inputsFor(s, 3), B = (s) => inputsFor(s, 4);
const bytesOf = (o) => Array.from(new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength));

function fakeCaches() {
  const stores = new Map();
  return {
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

// Each kind: open() -> a store as a new process would see it; before(store,
// session, inputs) -> what a host does before execute (async stores preload);
// raw get/set of one record as stored.
const KINDS = {
  memory: () => {
    const m = new MemoryWarmStore();
    return { open: async () => m, before: async () => {}, get: async (l) => m.map.get(l), set: async (l, b) => m.map.set(l, b), done() {} };
  },
  'node-dir': () => {
    const dir = mkdtempSync(join(tmpdir(), 'holo-untrusted-'));
    const d = new NodeDirWarmStore(dir);
    return {
      open: async () => new NodeDirWarmStore(dir), before: async () => {},
      get: async (l) => new Uint8Array(readFileSync(d.pathOf(l))), set: async (l, b) => writeFileSync(d.pathOf(l), b),
      done: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  'browser (Cache API)': () => {
    const caches = fakeCaches();
    const open = () => openBrowserStore({ backend: 'cache', caches, name: 'u' });
    return {
      open, before: (st, s, ins) => preloadExecution(st, s, ins),
      get: async (l) => { const st = await open(); await st.preload([l]); return st.get(l); },
      set: async (l, b) => { const st = await open(); st.put(l, b); await st.close(); },
      done() {},
    };
  },
};

async function redisKind() {
  if (spawnSync('redis-server', ['--version']).error) return null;
  try { import.meta.resolve('redis'); } catch { return null; }
  const port = await new Promise((resolve) => { const s = createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
    proc.stdout.on('data', (d) => { out += d; if (/Ready to accept/.test(out)) { clearTimeout(t); proc.stdout.resume(); resolve(); } });
  });
  const { openRedisStore } = await import('../../bindings-js/stores/redis.js');
  const url = `redis://127.0.0.1:${port}`;
  const opened = [];
  const open = async () => { const s = await openRedisStore({ url }); opened.push(s); return s; };
  return () => ({
    open, before: async (st, s, ins) => { await preloadExecution(st, s, ins); },
    get: async (l) => { const st = await open(); await st.preload([l]); return st.get(l); },
    set: async (l, b) => { const st = await open(); st.put(l, b); await st.flush(); },
    done: async () => { for (const s of opened) await s.close(); proc.kill('SIGTERM'); },
  });
}

// One execute of input `which` in a new session over a freshly opened store.
async function fresh(kit, which) {
  const store = await kit.open();
  const s = await load(MLP, { warmStore: store, persistMemo: true });
  const ins = which(s);
  await kit.before(store, s, ins);
  const c0 = s.counters;
  const [y] = s.execute(ins);
  const c1 = s.counters;
  if (store.flush) await store.flush();
  const key = s.memoKey(ins);
  s.dispose();
  return { y, key, dispatches: c1.dispatches - c0.dispatches, corrupt: c1.storeCorrupt - c0.storeCorrupt, memoHits: c1.memoHits - c0.memoHits };
}

const POISONS = {
  'bytes that do not match the digest': async (k, r) => { const b = (await k.get(r.outA)).slice(); b[b.length - 3] ^= 0x40; await k.set(r.outA, b); },
  'a record under the wrong label': async (k, r) => k.set(r.outA, await k.get(r.outB)),
  'a truncated value record': async (k, r) => k.set(r.outA, (await k.get(r.outA)).slice(0, -7)),
  'a truncated memo record': async (k, r) => k.set(r.keyA, (await k.get(r.keyA)).slice(0, -1)),
  "a replayed memo record (another input's)": async (k, r) => k.set(r.keyA, await k.get(r.keyB)),
  'a replayed record of an older format (HOLOWS1)': async (k, r) => { const b = (await k.get(r.outA)).slice(); b[6] = 0x31; await k.set(r.outA, b); },
};

async function check(kit) {
  const a = await fresh(kit, A);
  assert.ok(a.dispatches > 0, 'the first session computes');
  const b = await fresh(kit, B);
  const hit = await fresh(kit, A);
  assert.is(hit.dispatches, 0, 'a clean record answers a new session');
  assert.is(hit.corrupt, 0);
  assert.is(hit.y.label, a.y.label);
  const r = { keyA: a.key, keyB: b.key, outA: a.y.label, outB: b.y.label };
  assert.equal(memoRecordOutputs(await kit.get(r.keyA), r.keyA), [r.outA], 'the memo record names the output');
  const clean = { out: await kit.get(r.outA), key: await kit.get(r.keyA) };
  for (const [name, poison] of Object.entries(POISONS)) {
    await poison(kit, r);
    const p = await fresh(kit, A);
    assert.ok(p.corrupt >= 1, `${name}: detected and counted (storeCorrupt ${p.corrupt})`);
    assert.ok(p.dispatches > 0, `${name}: recomputed`);
    assert.is(p.y.label, a.y.label, `${name}: the right label`);
    assert.equal(bytesOf(p.y), bytesOf(a.y), `${name}: the right bytes, not the poisoned ones`);
    const again = await fresh(kit, A);
    assert.is(again.corrupt, 0, `${name}: the recomputed record replaced the poisoned one`);
    assert.is(again.dispatches, 0, `${name}: and answers the next session`);
    await kit.set(r.outA, clean.out);
    await kit.set(r.keyA, clean.key);
  }
}

for (const [name, make] of Object.entries(KINDS)) {
  test(`${name} store: poisoned records are detected, counted and recomputed`, async () => {
    const kit = make();
    try { await check(kit); } finally { await kit.done(); }
  });
}

const redis = await redisKind();
if (redis) {
  test('redis store: poisoned records are detected, counted and recomputed', async () => {
    const kit = redis();
    try { await check(kit); } finally { await kit.done(); }
  });
} else console.log('note: redis-server or the npm redis package missing; the Redis case is in store-redis.test.mjs');

test.run();
