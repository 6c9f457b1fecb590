// A WarmStore over a Cloudflare R2 bucket (`env.MY_BUCKET`), shared by every
// worker bound to it. Objects are `PREFIX sha256-<hex>.hws` (the directory
// store's names, so a bucket can be filled from a `holo --warm-store DIR`
// directory) holding the record bytes, with custom metadata { t: write time,
// s: sequence }; R2's listing carries each object's size. The bound, the
// memory cache and the write-through are listed.js's.
//
// R2 reads and listings are strongly consistent: refresh() sees every write
// that landed before it. See docs/warm-store.md "Cloudflare KV and R2".
import { ListedWarmStore, labelOfKey, readPrefix, recordKey } from './listed.js';

const num = (v) => { const n = Number(v); return Number.isSafeInteger(n) && n >= 0 ? n : 0; };

function r2Backend(bucket, prefix) {
  return {
    prefix,
    maxRecordBytes: Infinity,
    async list() {
      const out = [];
      let cursor;
      do {
        const page = await bucket.list({ prefix, cursor, include: ['customMetadata'] });
        for (const o of page.objects) {
          const label = labelOfKey(prefix, o.key);
          if (!label) continue;
          const m = o.customMetadata ?? {};
          const t = m.t !== undefined ? num(m.t) : (o.uploaded ? new Date(o.uploaded).getTime() : 0);
          out.push({ label, size: o.size, t, s: num(m.s) });
        }
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return out;
    },
    async read(label) {
      const o = await bucket.get(recordKey(prefix, label));
      return o ? new Uint8Array(await o.arrayBuffer()) : null;
    },
    write: (label, bytes, meta) => bucket.put(recordKey(prefix, label), bytes, { customMetadata: { t: String(meta.t), s: String(meta.s) } }),
    remove: (label) => bucket.delete(recordKey(prefix, label)),
  };
}

export class R2WarmStore extends ListedWarmStore {
  /** @param bucket an R2 bucket binding (get/put/delete/list) */
  constructor(bucket, options = {}) {
    if (!bucket || typeof bucket.get !== 'function' || typeof bucket.list !== 'function') throw new TypeError('R2WarmStore: needs an R2 bucket binding (env.MY_BUCKET)');
    super(r2Backend(bucket, readPrefix(options, 'R2WarmStore')), options);
  }
}

/**
 * Opens an R2 warm store: lists the bucket's records under the prefix and
 * evicts down to the caps. options: { prefix = 'holo/', maxBytes (1 GiB),
 * maxEntries (10,000), memoryBytes (16 MiB), onError(err, label) }.
 */
export async function openR2Store(bucket, options = {}) {
  const store = new R2WarmStore(bucket, options);
  await store.refresh();
  return store;
}
