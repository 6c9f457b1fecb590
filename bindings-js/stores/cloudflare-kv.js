// A WarmStore over a Cloudflare Workers KV namespace (`env.MY_KV`), shared
// by every worker bound to it. Records are `PREFIX sha256-<hex>.hws` (the
// directory store's names) holding the record bytes as stored by the core,
// with KV metadata { n: bytes, t: write time, s: sequence } so a listing
// carries sizes without reading values. The bound, the memory cache and the
// write-through are listed.js's.
//
// KV is eventually consistent: a write reaches other locations within about
// 60 s, and a listing may lag further. A record not yet visible is a miss
// (recomputed); a stale record is still verified by the core. See
// docs/warm-store.md "Cloudflare KV and R2".
import { ListedWarmStore, labelOfKey, readPrefix, recordKey } from './listed.js';

// Workers KV's largest value.
export const KV_MAX_VALUE_BYTES = 25 * 1024 * 1024;

const int = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

function kvBackend(kv, prefix) {
  return {
    prefix,
    maxRecordBytes: KV_MAX_VALUE_BYTES,
    async list() {
      const out = [];
      let cursor;
      do {
        const page = await kv.list({ prefix, cursor });
        for (const k of page.keys) {
          const label = labelOfKey(prefix, k.name);
          if (!label) continue;
          const m = k.metadata ?? {};
          out.push({ label, size: int(m.n), t: int(m.t) ?? 0, s: int(m.s) ?? 0 });
        }
        cursor = page.list_complete ? undefined : page.cursor;
      } while (cursor);
      return out;
    },
    async read(label) {
      const v = await kv.get(recordKey(prefix, label), { type: 'arrayBuffer' });
      return v ? new Uint8Array(v) : null;
    },
    write: (label, bytes, meta) => kv.put(recordKey(prefix, label), bytes, { metadata: meta }),
    remove: (label) => kv.delete(recordKey(prefix, label)),
  };
}

export class KVWarmStore extends ListedWarmStore {
  /** @param kv a KV namespace binding (get/put/delete/list) */
  constructor(kv, options = {}) {
    if (!kv || typeof kv.get !== 'function' || typeof kv.list !== 'function') throw new TypeError('KVWarmStore: needs a KV namespace binding (env.MY_KV)');
    super(kvBackend(kv, readPrefix(options, 'KVWarmStore')), options);
  }
}

/**
 * Opens a KV warm store: lists the namespace's records under the prefix and
 * evicts down to the caps. options: { prefix = 'holo/', maxBytes (1 GiB),
 * maxEntries (10,000), memoryBytes (16 MiB), onError(err, label) }.
 */
export async function openKVStore(kv, options = {}) {
  const store = new KVWarmStore(kv, options);
  await store.refresh();
  return store;
}
