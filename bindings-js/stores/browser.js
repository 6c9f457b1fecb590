// A WarmStore for browsers and Web Workers over IndexedDB or the Cache API.
// Execution is synchronous, storage is not. open() reads the index (labels,
// lengths, recency), not the records; get() answers from a bounded memory
// cache of records, filled by preload(labels) (or preload: true at open: the
// most recently used records that fit the cache); put() stores in memory at
// once and writes through asynchronously (await store.flush() to know it
// landed). The persistent records are bounded (maxBytes, maxEntries): a full
// store evicts the least recently used, in storage as in memory.
import { checkBytes, checkLabel, isLabel } from './label.js';
import { DEFAULT_MAX_ENTRIES, SizeIndex, readBounds } from './bounds.js';
import { MemoryWarmStore } from './memory.js';
import { CacheBackend, IdbBackend } from './browser-backends.js';

export const DEFAULT_BROWSER_MAX_BYTES = 512 * 1024 * 1024;
export const DEFAULT_BROWSER_MEMORY_BYTES = 64 * 1024 * 1024;

export class BrowserWarmStore {
  #backend; #index; #memory; #clock = 0; #queue = new Map(); #draining = null;
  constructor(backend, kind, options = {}) {
    this.#backend = backend;
    this.kind = kind; // 'indexeddb' | 'cache'
    this.onError = options.onError ?? null;
    this.lastError = null;
    this.evicted = 0;
    this.#index = new SizeIndex(readBounds(options, DEFAULT_BROWSER_MAX_BYTES));
    const memoryBytes = readBounds({ maxBytes: options.memoryBytes }, Math.min(this.#index.maxBytes, DEFAULT_BROWSER_MEMORY_BYTES)).maxBytes;
    this.#memory = new MemoryWarmStore(new Map(), { maxBytes: memoryBytes, maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES });
  }
  get maxBytes() { return this.#index.maxBytes; }
  get maxEntries() { return this.#index.maxEntries; }
  get memoryBytes() { return this.#memory.maxBytes; }
  /** Number of stored records (persistent, not only those in memory) and their total bytes. */
  get size() { return this.#index.entries; }
  get bytes() { return this.#index.bytes; }
  /** Records (and bytes) held in memory, answerable by get(). */
  get cached() { return this.#memory.size; }
  has(label) { return isLabel(label) && this.#index.has(label); }

  /** A store over an opened backend, its index read. */
  static async over(backend, kind, options) {
    const s = new BrowserWarmStore(backend, kind, options);
    await s.#openIndex();
    return s;
  }
  /** Reads the index; evicts down to the caps (they may be smaller than last time). */
  async #openIndex() {
    for (const [label, n, t] of await this.#backend.readIndex()) {
      this.#index.set(label, n);
      this.#clock = Math.max(this.#clock, t + 1);
    }
    for (const victim of this.#index.victims(0, 0)) this.#evict(victim);
  }
  get(label) {
    const v = this.#memory.get(label);
    if (v !== undefined && this.#index.has(label)) {
      this.#index.touch(label);
      this.#enqueue({ op: 'touch', label, n: v.length, t: this.#clock++ });
    }
    return v;
  }
  put(label, bytes) {
    checkLabel(label);
    checkBytes(bytes);
    if (bytes.length > this.#index.maxBytes) return; // a record larger than the cap is not kept
    const had = this.#index.remove(label);
    for (const victim of this.#index.victims(bytes.length)) this.#evict(victim);
    this.#index.set(label, bytes.length);
    this.#memory.put(label, bytes);
    // fresh: storage does not hold this label yet (so evicting it before the
    // write lands needs no storage delete)
    this.#enqueue({ op: 'put', label, bytes, n: bytes.length, t: this.#clock++, fresh: !had });
  }
  delete(label) {
    if (!isLabel(label) || !this.#index.remove(label)) return false;
    this.#memory.delete(label);
    this.#enqueue({ op: 'delete', label });
    return true;
  }
  #evict(label) {
    this.#index.remove(label);
    this.#memory.delete(label);
    this.#enqueue({ op: 'delete', label });
    this.evicted += 1;
  }
  // Operations are batched per task (one IndexedDB transaction for a burst
  // of puts, not one each) and coalesced to the last per label: a record put
  // and evicted within one batch costs no storage write.
  #enqueue(op) {
    const prev = this.#queue.get(op.label);
    if (op.op === 'touch' && prev && prev.op !== 'delete') prev.t = op.t;
    else if (op.op === 'delete' && prev && prev.op === 'put' && prev.fresh) this.#queue.delete(op.label);
    else {
      if (op.op === 'put' && prev) op.fresh = prev.op === 'put' && prev.fresh;
      this.#queue.delete(op.label);
      this.#queue.set(op.label, op);
    }
    if (!this.#draining) this.#draining = Promise.resolve().then(() => this.#drain());
  }
  async #drain() {
    while (this.#queue.size) {
      const ops = [...this.#queue.values()];
      this.#queue = new Map();
      try {
        await this.#backend.apply(ops);
      } catch (e) {
        this.lastError = e;
        const put = ops.find((o) => o.op === 'put');
        if (this.onError) this.onError(e, put ? put.label : ops[0].label);
      }
    }
    this.#draining = null;
  }
  /**
   * Loads these labels (or, with none, the most recently used records that fit
   * the memory cache) from storage into memory, so get() answers them.
   */
  async preload(labels) {
    if (labels) labels.forEach(checkLabel);
    await this.flush();
    let want = labels;
    if (!want) {
      want = [];
      let room = this.#memory.maxBytes;
      for (const [label, n] of [...this.#index.lengths].reverse()) {
        if (n > room || want.length >= this.#memory.maxEntries) break;
        want.push(label);
        room -= n;
      }
      want.reverse(); // oldest first, so the memory cache keeps the same recency
    }
    const missing = want.filter((l) => this.#memory.get(l) === undefined);
    const got = await this.#backend.read(missing);
    for (const l of missing) {
      const b = got.get(l);
      if (b) {
        if (!this.#index.has(l)) this.#index.set(l, b.length); // written by another tab since open
        this.#memory.put(l, b);
      } else this.#index.remove(l); // evicted by another tab
    }
    return got.size;
  }
  /** Resolves when every put so far is written. */
  async flush() {
    while (this.#draining) await this.#draining;
  }
  async close() {
    await this.flush();
    this.#backend.close();
  }
}

/**
 * Opens (creating if needed) a browser warm store.
 * options: { name = 'hologram-exec', backend = 'auto' | 'indexeddb' | 'cache',
 *            maxBytes (default 512 MiB), maxEntries (default 100,000), memoryBytes (default 64 MiB),
 *            preload = false (the index only; true: the most recent records that fit memoryBytes;
 *            or an array of labels), onError(err, label), indexedDB, caches (to inject implementations) }
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
  const store = await BrowserWarmStore.over(backend, kind, options);
  const preload = options.preload ?? false;
  if (preload) await store.preload(Array.isArray(preload) ? preload : undefined);
  return store;
}
