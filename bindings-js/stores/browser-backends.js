// The persistent halves of the browser store: IndexedDB and the Cache API.
// Each keeps an index (label -> byte length, in recency order) beside the
// records, so a store opens by reading the index, never every record.
// A backend applies a batch of operations ({ op: 'put' | 'delete' | 'touch',
// label, bytes?, n, t }) in order; `t` is the store's use clock.
import { fileName, isLabel } from './label.js';

const RECORDS = 'records';
const INDEX = 'index';
const CACHE_ORIGIN = 'https://hologram-exec.invalid/';
const CACHE_INDEX = CACHE_ORIGIN + 'index.json';
const LENGTH_HEADER = 'x-holo-bytes';

const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
const done = (tx) => new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error); });

// Version 1 held records only; the upgrade builds the index from them once
// (the one time every record is read).
function upgrade(r, oldVersion) {
  const db = r.result;
  if (!db.objectStoreNames.contains(RECORDS)) db.createObjectStore(RECORDS);
  if (db.objectStoreNames.contains(INDEX)) return;
  const index = db.createObjectStore(INDEX);
  if (oldVersion < 1) return;
  let t = 0;
  const cur = r.transaction.objectStore(RECORDS).openCursor();
  cur.onsuccess = () => {
    const c = cur.result;
    if (!c) return;
    if (isLabel(c.key)) index.put({ n: c.value.byteLength, t: t++ }, c.key);
    c.continue();
  };
}

export class IdbBackend {
  constructor(db) { this.db = db; }
  static async open(idb, name) {
    const r = idb.open(name, 2);
    r.onupgradeneeded = (e) => upgrade(r, e.oldVersion);
    return new IdbBackend(await req(r));
  }
  /** [[label, length, t]] oldest use first. */
  async readIndex() {
    const s = this.db.transaction(INDEX, 'readonly').objectStore(INDEX);
    const [keys, vals] = await Promise.all([req(s.getAllKeys()), req(s.getAll())]);
    return keys.map((k, i) => [k, vals[i].n, vals[i].t]).filter((e) => isLabel(e[0])).sort((a, b) => a[2] - b[2]);
  }
  /** Map of label -> bytes for those of `labels` that are stored. */
  async read(labels) {
    const s = this.db.transaction(RECORDS, 'readonly').objectStore(RECORDS);
    const vals = await Promise.all(labels.map((l) => req(s.get(l))));
    const out = new Map();
    labels.forEach((l, i) => { if (vals[i]) out.set(l, new Uint8Array(vals[i])); });
    return out;
  }
  /** One transaction: records and index change together or not at all. */
  async apply(ops) {
    const tx = this.db.transaction([RECORDS, INDEX], 'readwrite');
    const recs = tx.objectStore(RECORDS), index = tx.objectStore(INDEX);
    for (const o of ops) {
      if (o.op === 'put') { recs.put(o.bytes, o.label); index.put({ n: o.n, t: o.t }, o.label); }
      else if (o.op === 'delete') { recs.delete(o.label); index.delete(o.label); }
      else index.put({ n: o.n, t: o.t }, o.label);
    }
    await done(tx);
  }
  close() { this.db.close(); }
}

const urlOf = (label) => CACHE_ORIGIN + fileName(label);
const labelOf = (url) => { const m = /\/sha256-([0-9a-f]{64})\.hws$/.exec(url); return m ? `sha256:${m[1]}` : null; };

/**
 * The Cache API has no transactions: the index is one JSON entry written
 * after each batch's records. Opening reconciles it with cache.keys() (which
 * lists without reading bodies): an index entry without a record is dropped,
 * a record without an entry (a page closed between the two writes) is
 * adopted with the length from its header.
 */
export class CacheBackend {
  constructor(cache) { this.cache = cache; this.order = new Map(); }
  static async open(caches, name) { return new CacheBackend(await caches.open(name)); }
  async readIndex() {
    let saved = [];
    try {
      const res = await this.cache.match(CACHE_INDEX);
      if (res) saved = (await res.json()).records ?? [];
    } catch { saved = []; } // an unreadable index is rebuilt from the keys
    const present = new Set((await this.cache.keys()).map((r) => labelOf(r.url)).filter(Boolean));
    const out = [];
    for (const [label, n, t] of saved) {
      if (present.delete(label) && Number.isInteger(n) && Number.isInteger(t)) out.push([label, n, t]);
    }
    let t = out.reduce((m, e) => Math.max(m, e[2]), -1);
    for (const label of present) {
      const res = await this.cache.match(urlOf(label));
      const n = Number(res?.headers.get(LENGTH_HEADER));
      if (Number.isInteger(n) && n >= 0) out.push([label, n, ++t]);
    }
    out.sort((a, b) => a[2] - b[2]);
    for (const [label, n, tt] of out) this.order.set(label, [n, tt]);
    return out;
  }
  async read(labels) {
    const out = new Map();
    for (const l of labels) {
      const res = await this.cache.match(urlOf(l));
      if (res) out.set(l, new Uint8Array(await res.arrayBuffer()));
    }
    return out;
  }
  // A batch holds at most one operation per label (the store coalesces), so
  // its operations are independent and run concurrently.
  async apply(ops) {
    await Promise.all(ops.map(async (o) => {
      if (o.op === 'put') {
        const headers = { 'content-type': 'application/octet-stream', [LENGTH_HEADER]: String(o.n) };
        await this.cache.put(urlOf(o.label), new Response(o.bytes, { headers }));
        this.order.set(o.label, [o.n, o.t]);
      } else if (o.op === 'delete') {
        this.order.delete(o.label);
        await this.cache.delete(urlOf(o.label));
      } else if (this.order.has(o.label)) this.order.set(o.label, [o.n, o.t]);
    }));
    const records = [...this.order].map(([l, [n, t]]) => [l, n, t]);
    await this.cache.put(CACHE_INDEX, new Response(JSON.stringify({ v: 1, records }), { headers: { 'content-type': 'application/json' } }));
  }
  close() {}
}
