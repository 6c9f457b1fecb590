// A WarmStore for browsers and Web Workers over IndexedDB or the Cache API.
// Execution is synchronous, storage is not: open() preloads the records into
// memory, get() answers from memory, put() stores in memory at once and
// writes through asynchronously (await store.flush() to know it landed).
import { checkBytes, checkLabel, fileName, isLabel } from './label.js';

const OBJECT_STORE = 'records';
const CACHE_ORIGIN = 'https://hologram-exec.invalid/';

const req = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });

class IdbBackend {
  constructor(db) { this.db = db; }
  static async open(idb, name) {
    const r = idb.open(name, 1);
    r.onupgradeneeded = () => { if (!r.result.objectStoreNames.contains(OBJECT_STORE)) r.result.createObjectStore(OBJECT_STORE); };
    return new IdbBackend(await req(r));
  }
  async readAll(into, only) {
    const store = this.db.transaction(OBJECT_STORE, 'readonly').objectStore(OBJECT_STORE);
    if (only) {
      for (const label of only) { const v = await req(store.get(label)); if (v) into.set(label, new Uint8Array(v)); }
      return;
    }
    const [keys, values] = await Promise.all([req(store.getAllKeys()), req(store.getAll())]);
    keys.forEach((k, i) => { if (isLabel(k)) into.set(k, new Uint8Array(values[i])); });
  }
  async write(label, bytes) {
    const tx = this.db.transaction(OBJECT_STORE, 'readwrite');
    tx.objectStore(OBJECT_STORE).put(bytes, label);
    await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error); });
  }
  close() { this.db.close(); }
}

class CacheBackend {
  constructor(cache) { this.cache = cache; }
  static async open(caches, name) { return new CacheBackend(await caches.open(name)); }
  async readAll(into, only) {
    const urls = only ? only.map((l) => CACHE_ORIGIN + fileName(l)) : (await this.cache.keys()).map((r) => r.url);
    for (const url of urls) {
      const m = /sha256-([0-9a-f]{64})\.hws$/.exec(url);
      if (!m) continue;
      const res = await this.cache.match(url);
      if (res) into.set(`sha256:${m[1]}`, new Uint8Array(await res.arrayBuffer()));
    }
  }
  async write(label, bytes) {
    await this.cache.put(CACHE_ORIGIN + fileName(label), new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }));
  }
  close() {}
}

export class BrowserWarmStore {
  #backend; #pending = new Set(); #map = new Map();
  constructor(backend, kind, onError) {
    this.#backend = backend;
    this.kind = kind; // 'indexeddb' | 'cache'
    this.onError = onError ?? null;
    this.lastError = null;
  }
  get(label) { return this.#map.get(label); }
  put(label, bytes) {
    checkLabel(label);
    checkBytes(bytes);
    this.#map.set(label, bytes);
    const p = this.#backend.write(label, bytes).catch((e) => { this.lastError = e; if (this.onError) this.onError(e, label); });
    this.#pending.add(p);
    p.finally(() => this.#pending.delete(p));
  }
  get size() { return this.#map.size; }
  /** Loads these labels (or every record) from storage into memory. */
  async preload(labels) {
    if (labels) labels.forEach(checkLabel);
    await this.#backend.readAll(this.#map, labels);
  }
  /** Resolves when every put so far is written. */
  async flush() {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
  async close() {
    await this.flush();
    this.#backend.close();
  }
}

/**
 * Opens (creating if needed) a browser warm store.
 * options: { name = 'hologram-exec', backend = 'auto' | 'indexeddb' | 'cache',
 *            preload = true (every record; or an array of labels; or false),
 *            onError(err, label), indexedDB, caches (to inject implementations) }
 */
export async function openBrowserStore(options = {}) {
  const name = options.name ?? 'hologram-exec';
  const idb = options.indexedDB ?? globalThis.indexedDB;
  const cs = options.caches ?? globalThis.caches;
  let kind = options.backend ?? 'auto';
  if (kind === 'auto') kind = idb ? 'indexeddb' : cs ? 'cache' : null;
  let backend;
  if (kind === 'indexeddb' && idb) backend = await IdbBackend.open(idb, name);
  else if (kind === 'cache' && cs) backend = await CacheBackend.open(cs, name);
  else throw new Error(`openBrowserStore: no ${kind === null ? 'IndexedDB or Cache API' : kind} in this environment`);
  const store = new BrowserWarmStore(backend, kind, options.onError);
  const preload = options.preload ?? true;
  if (preload) await store.preload(Array.isArray(preload) ? preload : undefined);
  return store;
}
