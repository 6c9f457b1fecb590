// One of the processes sharing a Redis in store-redis.test.mjs: loads a
// fixture with a Redis warm store and persistMemo, optionally preloads the
// execution's records, executes once and prints what it saw as JSON.
// Not a test file.
import { createHash } from 'node:crypto';
import { load } from '../../bindings-js/index.js';
import { openRedisStore } from '../../bindings-js/stores/redis.js';
import { preloadExecution } from '../../bindings-js/stores/preload.js';
import { fixture, inputsFor } from './helpers.mjs';

const [url, name, preload] = process.argv.slice(2);
const store = await openRedisStore({ url });
const s = await load(fixture(name), { warmStore: store, persistMemo: true });
const ins = inputsFor(s, 7);
const pre = preload === 'preload' ? await preloadExecution(store, s, ins) : null;
const before = s.counters;
const outs = s.execute(ins);
const after = s.counters;
await store.flush();
await store.close();
const digest = (o) => createHash('sha256').update(new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength)).digest('hex');
console.log(JSON.stringify({
  ready: pre ? pre.ready : null,
  dispatches: after.dispatches - before.dispatches,
  memoHits: after.memoHits - before.memoHits,
  storeCorrupt: after.storeCorrupt,
  labels: outs.map((o) => o.label),
  bytes: outs.map(digest),
  lastError: store.lastError ? String(store.lastError) : null,
}));
