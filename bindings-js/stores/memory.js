// An in-memory WarmStore over a Map. Records are opaque bytes keyed by label.
// Bounded (maxBytes, maxEntries); a full store evicts the least recently used
// record (get and put both count as use), because in one process recency is
// known exactly and a memo hit is most likely to recur for recent inputs.
import { checkBytes, checkLabel, isLabel } from './label.js';
import { DEFAULT_MEMORY_MAX_BYTES, SizeIndex, readBounds } from './bounds.js';

export class MemoryWarmStore {
  #index;
  /**
   * @param {Map<string, Uint8Array>} [map] an existing map to share
   * @param {{maxBytes?: number, maxEntries?: number}} [options]
   */
  constructor(map = new Map(), options = {}) {
    this.map = map;
    this.#index = new SizeIndex(readBounds(options, DEFAULT_MEMORY_MAX_BYTES));
    this.evicted = 0;
    for (const [label, bytes] of map) this.#index.set(label, bytes.length);
    this.#shrink(0, 0);
  }
  get maxBytes() { return this.#index.maxBytes; }
  get maxEntries() { return this.#index.maxEntries; }
  get(label) {
    if (!isLabel(label)) return undefined;
    const v = this.map.get(label);
    if (v !== undefined) this.#index.touch(label);
    return v;
  }
  put(label, bytes) {
    checkLabel(label);
    checkBytes(bytes);
    if (bytes.length > this.#index.maxBytes) return; // a record larger than the cap is not kept
    this.#index.remove(label);
    this.map.delete(label);
    this.#shrink(bytes.length);
    this.map.set(label, bytes);
    this.#index.set(label, bytes.length);
  }
  #shrink(incoming, records = 1) {
    for (const victim of this.#index.victims(incoming, records)) {
      this.#index.remove(victim);
      this.map.delete(victim);
      this.evicted += 1;
    }
  }
  has(label) { return this.map.has(label); }
  delete(label) {
    this.#index.remove(label);
    return this.map.delete(label);
  }
  clear() {
    for (const label of [...this.map.keys()]) this.delete(label);
  }
  /** Number of records. */
  get size() { return this.map.size; }
  /** Total bytes of the records. */
  get bytes() { return this.#index.bytes; }
  keys() { return this.map.keys(); }
}

export function memoryStore(map, options) {
  return new MemoryWarmStore(map, options);
}
