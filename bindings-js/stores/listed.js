// The shared core of the WarmStores over a remote object store that can list
// its keys with sizes but cannot count them atomically (Cloudflare KV and R2:
// cloudflare-kv.js, cloudflare-r2.js). A backend supplies list/read/write/
// remove of one record; this keeps the record format opaque (the core
// verifies every record it gets), answers get() from a bounded memory cache
// filled by preload(labels), and writes through (await flush()).
//
// The bound is kept from a listing: refresh() (run at open) lists every
// record with its size and write time, oldest first, and evicts down to the
// caps; after that each put evicts from this instance's view. Several
// instances sharing the store each enforce the caps against their own view,
// so the store can exceed a cap by what the others wrote since their last
// refresh(); the next refresh() of any instance evicts it back down.
// Recency is the write time across instances (neither KV nor R2 can update a
// record's metadata without rewriting it), plus this instance's own reads.
import { checkBytes, checkLabel, fileName, isLabel } from './label.js';
import { SizeIndex, readBounds } from './bounds.js';
import { MemoryWarmStore } from './memory.js';

export const DEFAULT_CF_MAX_BYTES = 1024 * 1024 * 1024;
// Opening lists every record (1,000 keys per list call), so the default
// entry cap keeps an open at 10 list calls.
export const DEFAULT_CF_MAX_ENTRIES = 10_000;
export const DEFAULT_CF_MEMORY_BYTES = 16 * 1024 * 1024;
const READ_CONCURRENCY = 16;

const RECORD_RE = /^sha256-([0-9a-f]{64})\.hws$/;

/** The key of a label's record: PREFIX + the directory store's file name. */
export function recordKey(prefix, label) {
  return prefix + fileName(label);
}

/** The label a key names under `prefix`, or null (not a record of this store). */
export function labelOfKey(prefix, key) {
  if (typeof key !== 'string' || !key.startsWith(prefix)) return null;
  const m = RECORD_RE.exec(key.slice(prefix.length));
  return m ? `sha256:${m[1]}` : null;
}

export function readPrefix(options, who) {
  const prefix = options.prefix ?? 'holo/';
  if (typeof prefix !== 'string') throw new TypeError(`${who}: prefix must be a string`);
  return prefix;
}

let instances = 0;

export class ListedWarmStore {
  #backend; #memory; #index; #pending = new Set(); #queued = new Map(); #inflight = new Map(); #seq = 0; #id;
  /**
   * @param backend { list() -> [{ label, size (null: unknown), t, s }], read(label) -> bytes | null,
   *   write(label, bytes, { n, t, s }), remove(label), maxRecordBytes }
   */
  constructor(backend, options = {}) {
    this.#backend = backend;
    this.prefix = backend.prefix;
    const b = readBounds({ maxBytes: options.maxBytes, maxEntries: options.maxEntries ?? DEFAULT_CF_MAX_ENTRIES }, DEFAULT_CF_MAX_BYTES);
    this.#index = new SizeIndex(b);
    const memoryBytes = readBounds({ maxBytes: options.memoryBytes }, Math.min(b.maxBytes, DEFAULT_CF_MEMORY_BYTES)).maxBytes;
    this.#memory = new MemoryWarmStore(new Map(), { maxBytes: memoryBytes, maxEntries: b.maxEntries });
    this.#id = ++instances;
    this.onError = options.onError ?? null;
    this.lastError = null;
    this.evicted = 0;
  }
  get maxBytes() { return this.#index.maxBytes; }
  get maxEntries() { return this.#index.maxEntries; }
  get memoryBytes() { return this.#memory.maxBytes; }
  /** Records in the store and their bytes, as this instance sees them. */
  get size() { return this.#index.entries; }
  get bytes() { return this.#index.bytes; }
  /** Records held in memory, answerable by get(). */
  get cached() { return this.#memory.size; }
  get(label) {
    const v = this.#memory.get(label);
    if (v !== undefined) this.#index.touch(label);
    return v;
  }
  has(label) { return this.#memory.has(label); }
  put(label, bytes) {
    checkLabel(label);
    checkBytes(bytes);
    if (bytes.length > this.maxBytes || bytes.length > this.#backend.maxRecordBytes) return; // not kept
    const fresh = !this.#index.has(label) && !this.#inflight.has(label);
    this.#memory.put(label, bytes);
    this.#index.remove(label);
    this.#evict(this.#index.victims(bytes.length));
    this.#index.set(label, bytes.length);
    const meta = { n: bytes.length, t: Date.now(), s: this.#id * 2 ** 32 + ++this.#seq };
    this.#enqueue(label, { fresh, run: () => this.#backend.write(label, bytes, meta) });
  }
  delete(label) {
    if (!isLabel(label)) return false;
    const inMemory = this.#memory.delete(label);
    const listed = this.#index.remove(label);
    this.#enqueue(label, { run: () => this.#backend.remove(label) });
    return inMemory || listed;
  }
  #evict(victims) {
    for (const v of victims) {
      this.#index.remove(v);
      this.evicted += 1;
      const q = this.#queued.get(v);
      // A record put and evicted before its write started was never stored: no remote op at all.
      if (q && q.fresh) this.#queued.delete(v);
      else this.#enqueue(v, { run: () => this.#backend.remove(v) });
    }
  }
  // One remote op per label at a time, in order; a job queued behind a
  // running one is replaced by a later job for the same label (KV allows one
  // write per key per second, and only the last job's effect matters).
  #enqueue(label, job) {
    const waiting = this.#queued.has(label);
    this.#queued.set(label, job);
    if (waiting) return;
    const prev = this.#inflight.get(label) ?? Promise.resolve();
    const p = prev.then(() => {
      const j = this.#queued.get(label);
      this.#queued.delete(label);
      return j ? j.run() : undefined;
    }).then(() => {}, (e) => { this.lastError = e; if (this.onError) this.onError(e, label); });
    this.#inflight.set(label, p);
    this.#pending.add(p);
    p.finally(() => {
      this.#pending.delete(p);
      if (this.#inflight.get(label) === p) this.#inflight.delete(label);
    });
  }
  /** Loads these labels from the store into memory; resolves to how many were found. */
  async preload(labels) {
    labels.forEach(checkLabel);
    const want = labels.filter((l) => !this.#memory.has(l));
    let next = 0;
    const worker = async () => {
      while (next < want.length) {
        const l = want[next++];
        const b = await this.#backend.read(l);
        if (!b || b.length > this.#memory.maxBytes) continue;
        this.#memory.put(l, b);
        // A record another instance wrote since our listing joins the view.
        if (this.#index.has(l)) this.#index.touch(l);
        else { this.#evict(this.#index.victims(b.length)); this.#index.set(l, b.length); }
      }
    };
    await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, want.length) }, worker));
    return labels.filter((l) => this.#memory.has(l)).length;
  }
  /**
   * Lists the store (after this instance's writes land), rebuilds the view
   * oldest write first and evicts down to the caps. A record listed without
   * its size (written by something else) is read once to learn it.
   */
  async refresh() {
    await this.flush();
    const listed = await this.#backend.list();
    for (const r of listed) {
      if (r.size !== null) continue;
      const b = await this.#backend.read(r.label);
      r.size = b ? b.length : -1;
    }
    const live = listed.filter((r) => r.size >= 0).sort((a, b) => a.t - b.t || a.s - b.s);
    this.#index = new SizeIndex({ maxBytes: this.maxBytes, maxEntries: this.maxEntries });
    for (const r of live) this.#index.set(r.label, r.size);
    this.#evict(this.#index.victims(0, 0));
    await this.flush();
    return { size: this.size, bytes: this.bytes };
  }
  /** Resolves when every write and delete so far has landed (or failed: lastError). */
  async flush() {
    while (this.#pending.size) await Promise.all([...this.#pending]);
  }
  async close() { await this.flush(); }
}
