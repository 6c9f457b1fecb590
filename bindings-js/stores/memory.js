// An in-memory WarmStore over a Map. Records are opaque bytes keyed by label.
import { checkBytes, checkLabel, isLabel } from './label.js';

export class MemoryWarmStore {
  /** @param {Map<string, Uint8Array>} [map] an existing map to share */
  constructor(map = new Map()) {
    this.map = map;
  }
  get(label) {
    return isLabel(label) ? this.map.get(label) : undefined;
  }
  put(label, bytes) {
    checkLabel(label);
    checkBytes(bytes);
    this.map.set(label, bytes);
  }
  has(label) { return this.map.has(label); }
  delete(label) { return this.map.delete(label); }
  clear() { this.map.clear(); }
  get size() { return this.map.size; }
  keys() { return this.map.keys(); }
}

export function memoryStore(map) {
  return new MemoryWarmStore(map);
}
