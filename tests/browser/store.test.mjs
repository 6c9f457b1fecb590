// The browser warm store in headless Chromium over real IndexedDB and the
// Cache API: bounded under 10,000 distinct puts (in storage, not only in
// memory), opening reads the index and not the records, and a preload reads
// exactly the labels asked for. Fails if eviction or the index is removed.
//
//   node tests/browser/store.test.mjs      last line: "browser-store: N passed, N failed"
import path from 'node:path';
import { ROOT, assert, suite, startServer, launch, finish } from './harness.mjs';

const STEP_MS = 30_000;
const S = suite('browser-store', 90_000);

const PAGE = `<!doctype html><meta charset="utf-8"><title>holo store</title>
<script type="module">
  import { openBrowserStore } from '/bindings-js/stores/browser.js';
  // Count every read of a record: IDB gets/cursors on the records object
  // store, Cache API matches of record URLs.
  const reads = { n: 0 };
  for (const m of ['get', 'getAll', 'openCursor']) {
    const f = IDBObjectStore.prototype[m];
    IDBObjectStore.prototype[m] = function (...a) { if (this.name === 'records') reads.n++; return f.apply(this, a); };
  }
  const match = Cache.prototype.match;
  Cache.prototype.match = function (u, ...a) { if (/\\.hws$/.test(String(u.url ?? u))) reads.n++; return match.call(this, u, ...a); };
  const label = (i) => 'sha256:' + i.toString(16).padStart(64, '0');
  globalThis.bounded = async (backend) => {
    const name = 'cap-' + backend;
    const caps = { maxEntries: 300, maxBytes: 30000 };
    const s = await openBrowserStore({ backend, name, ...caps });
    const labels = [];
    const t0 = performance.now();
    for (let i = 0; i < 10000; i++) labels.push(label(i));
    const t1 = performance.now();
    let worst = { entries: 0, bytes: 0 };
    for (let i = 0; i < 10000; i++) {
      s.put(labels[i], new Uint8Array(1 + (i % 200)).fill(i & 255));
      worst = { entries: Math.max(worst.entries, s.size), bytes: Math.max(worst.bytes, s.bytes) };
      if (i % 1000 === 999) await s.flush();
    }
    await s.flush();
    const r = { ms: [t1 - t0, performance.now() - t1], worst, evicted: s.evicted, size: s.size, bytes: s.bytes, lastError: s.lastError && String(s.lastError) };
    await s.close();
    // what storage holds, counted directly
    if (backend === 'indexeddb') {
      const db = await new Promise((res, rej) => { const q = indexedDB.open(name); q.onsuccess = () => res(q.result); q.onerror = () => rej(q.error); });
      const st = db.transaction('records').objectStore('records');
      const all = await new Promise((res) => { const q = st.getAll(); q.onsuccess = () => res(q.result); });
      r.stored = { entries: all.length, bytes: all.reduce((n, b) => n + b.byteLength, 0) };
      db.close();
    } else {
      const c = await caches.open(name);
      const keys = (await c.keys()).filter((k) => k.url.endsWith('.hws'));
      let bytes = 0;
      for (const k of keys) bytes += (await (await match.call(c, k)).arrayBuffer()).byteLength;
      r.stored = { entries: keys.length, bytes };
    }
    reads.n = 0;
    const t = await openBrowserStore({ backend, name, ...caps });
    r.ms.push(performance.now() - t0);
    r.reopen = { size: t.size, bytes: t.bytes, cached: t.cached, reads: reads.n };
    const latest = labels[9999], oldest = labels[0];
    reads.n = 0;
    r.preloaded = await t.preload([latest, oldest]);
    r.preloadReads = reads.n;
    r.latest = Array.from(t.get(latest) ?? []).slice(0, 3);
    r.oldest = t.get(oldest) === undefined;
    await t.close();
    return r;
  };
  document.body.dataset.ready = '1';
</script><body></body>`;

let server = null, browser = null;
async function main() {
  server = await startServer({ routes: { '/': ['text/html; charset=utf-8', PAGE] }, mounts: [['/bindings-js/', path.join(ROOT, 'bindings-js')]] });
  browser = await launch(STEP_MS);
  const { page, problems } = browser;
  await page.goto(server.url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: STEP_MS });
  for (const backend of ['indexeddb', 'cache']) {
    await S.check(`${backend}: 10,000 distinct puts stay within maxEntries 300 / maxBytes 30000, in storage too`, async () => {
      const r = await page.evaluate((b) => globalThis.bounded(b), backend);
      assert(!r.lastError, `write error: ${r.lastError}`);
      assert(r.worst.entries <= 300 && r.worst.bytes <= 30000, `view exceeded the caps: ${JSON.stringify(r.worst)}`);
      assert(r.stored.entries <= 300 && r.stored.bytes <= 30000, `storage exceeded the caps: ${JSON.stringify(r.stored)}`);
      assert(r.stored.entries === r.size && r.stored.bytes === r.bytes, `index ${r.size}/${r.bytes} vs storage ${JSON.stringify(r.stored)}`);
      assert(r.evicted >= 9000, `evicted ${r.evicted}`);
      assert(r.reopen.size === r.size && r.reopen.bytes === r.bytes, `reopened index ${JSON.stringify(r.reopen)}`);
      assert(r.reopen.reads === 0 && r.reopen.cached === 0, `opening read ${r.reopen.reads} records`);
      assert(r.preloaded === 1 && r.preloadReads <= 2, `preload of 2 labels (1 stored) read ${r.preloadReads}, loaded ${r.preloaded}`);
      assert(r.latest[0] === (9999 & 255) && r.oldest, `latest ${r.latest}, oldest gone ${r.oldest}`);
      return `${r.ms.map(Math.round)} ms; stored ${r.stored.entries} records / ${r.stored.bytes} B, evicted ${r.evicted}`;
    });
  }
  await S.check('no page errors, console errors or failed requests', async () => {
    assert(problems.length === 0, problems.join('\n'));
  });
}

try {
  await main();
} catch (e) {
  S.failed++;
  console.log(`FAIL setup: ${e && e.message ? e.message.split('\n')[0] : e}`);
}
await finish(S, { browser, server });
