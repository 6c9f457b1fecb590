// The caps every JS WarmStore shares. A store that grows without bound is a
// slow memory (or disk) leak in a long-lived host, so each one has a cap on
// bytes and on entries, with defaults large enough that a single model's
// intermediates fit and small enough that a forgotten store does not fill a disk.
export const DEFAULT_MEMORY_MAX_BYTES = 256 * 1024 * 1024;
export const DEFAULT_DIR_MAX_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_MAX_ENTRIES = 100_000;

function positive(name, v, dflt) {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new RangeError(`warm store: ${name} must be a positive integer, got ${String(v)}`);
  return v;
}

/** Reads { maxBytes, maxEntries } with the given byte default. */
export function readBounds(options, defaultMaxBytes) {
  const o = options ?? {};
  return {
    maxBytes: positive('maxBytes', o.maxBytes, defaultMaxBytes),
    maxEntries: positive('maxEntries', o.maxEntries, DEFAULT_MAX_ENTRIES),
  };
}

/**
 * An insertion/recency-ordered index of label -> byte length. Map iteration
 * order is insertion order, so re-inserting on touch makes the first key the
 * least recently used one.
 */
export class SizeIndex {
  constructor(bounds) {
    this.maxBytes = bounds.maxBytes;
    this.maxEntries = bounds.maxEntries;
    this.lengths = new Map();
    this.bytes = 0;
  }
  get entries() { return this.lengths.size; }
  has(label) { return this.lengths.has(label); }
  touch(label) {
    const n = this.lengths.get(label);
    if (n === undefined) return;
    this.lengths.delete(label);
    this.lengths.set(label, n);
  }
  set(label, length) {
    this.remove(label);
    this.lengths.set(label, length);
    this.bytes += length;
  }
  remove(label) {
    const n = this.lengths.get(label);
    if (n === undefined) return false;
    this.lengths.delete(label);
    this.bytes -= n;
    return true;
  }
  /**
   * Labels to evict, oldest first, so that `records` more records (one by
   * default; 0 to fit the caps as they are) of `incoming` bytes fit.
   */
  victims(incoming, records = 1) {
    const out = [];
    let bytes = this.bytes + incoming;
    let entries = this.lengths.size + records;
    for (const [label, n] of this.lengths) {
      if (bytes <= this.maxBytes && entries <= this.maxEntries) break;
      out.push(label);
      bytes -= n;
      entries -= 1;
    }
    return out;
  }
}
