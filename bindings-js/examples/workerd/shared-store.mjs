// A Cloudflare Worker whose results are shared by every worker bound to the
// same KV namespace (HOLO_KV) or R2 bucket (HOLO_BUCKET): before a
// synchronous execute it preloads the execution's memo record and outputs
// (preloadExecution), so an input any worker computed before is answered
// with 0 dispatches. tests/js/store-cloudflare.test.mjs runs it under
// miniflare with two instances sharing persisted KV and R2.
//   GET /run?kind=kv|r2&seed=N[&fresh=1]   one execute; counters of that execute
//   GET /bound?kind=kv|r2&n=N&from=K&maxEntries=E&maxBytes=B[&prefix=P]   N distinct puts under caps, then refresh()
import { load } from './index.js';
import { openKVStore } from './stores/cloudflare-kv.js';
import { openR2Store } from './stores/cloudflare-r2.js';
import { preloadExecution } from './stores/preload.js';
import core from './hologram-simd128.wasm';
import mlp from './mlp.holo';

// One store per isolate: opening lists the records, so a worker opens once
// and keeps the store (and its memory cache) across requests.
const stores = new Map();
const open = (kind, env, options) => (kind === 'r2' ? openR2Store(env.HOLO_BUCKET, options) : openKVStore(env.HOLO_KV, options));

function inputs(session, seed) {
  return session.inputs.map((p, i) => {
    const shape = p.shape.map((d) => (typeof d === 'number' ? d : 2));
    const n = shape.reduce((a, b) => a * b, 1);
    return { data: Float32Array.from({ length: n }, (_, k) => Math.sin((k + 1) * 0.37 * (i + 1) + seed)), shape };
  });
}

async function run(kind, env, seed, fresh) {
  // fresh: a new store and cache, as a newly started worker has (the test's poison rounds).
  if (fresh || !stores.has(kind)) stores.set(kind, await open(kind, env, {}));
  const store = stores.get(kind);
  const s = await load(new Uint8Array(mlp), { wasm: core, variant: 'simd128', warmStore: store, persistMemo: true });
  try {
    const ins = inputs(s, seed);
    const pre = await preloadExecution(store, s, ins);
    const c0 = s.counters;
    const outs = s.execute(ins);
    const c1 = s.counters;
    await store.flush();
    const d = (k) => c1[k] - c0[k];
    return {
      ready: pre.ready, key: s.memoKey(ins), dispatches: d('dispatches'), memoHits: d('memoHits'),
      storeHits: d('storeHits'), storeCorrupt: d('storeCorrupt'),
      labels: outs.map((o) => o.label), data: outs.map((o) => Array.from(new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength))),
      lastError: store.lastError ? String(store.lastError) : null,
    };
  } finally {
    s.dispose();
  }
}

// n distinct records of 1..200 bytes, flushed every 100 puts; the instance's
// view after each flush is reported so the test sees the worst one.
async function bound(kind, env, q) {
  const options = { prefix: q.get('prefix') ?? 'cap/', maxEntries: +q.get('maxEntries'), maxBytes: +q.get('maxBytes') };
  const store = await open(kind, env, options);
  const from = +q.get('from'), n = +q.get('n');
  let worstSize = 0, worstBytes = 0;
  for (let i = from; i < from + n; i++) {
    store.put('sha256:' + i.toString(16).padStart(64, '0'), new Uint8Array(1 + (i % 200)).fill(i & 0xff));
    if ((i - from) % 100 === 99) {
      await store.flush();
      worstSize = Math.max(worstSize, store.size);
      worstBytes = Math.max(worstBytes, store.bytes);
    }
  }
  await store.flush();
  const after = await store.refresh();
  return { worstSize, worstBytes, ...after, evicted: store.evicted, lastError: store.lastError ? String(store.lastError) : null };
}

export default {
  async fetch(request, env) {
    const q = new URL(request.url).searchParams;
    const kind = q.get('kind') === 'r2' ? 'r2' : 'kv';
    try {
      const path = new URL(request.url).pathname;
      if (path === '/run') return Response.json(await run(kind, env, +(q.get('seed') ?? 1), q.get('fresh') === '1'));
      if (path === '/bound') return Response.json(await bound(kind, env, q));
      return Response.json({ error: 'not found' }, { status: 404 });
    } catch (e) {
      return Response.json({ error: e.code ?? e.name, message: e.message, stack: e.stack }, { status: 500 });
    }
  },
};
