import type { BoundedWarmStore } from '../index.js';

/** An in-memory WarmStore over a Map (records are opaque bytes keyed by label). */
export declare class MemoryWarmStore implements BoundedWarmStore {
  /** Bounded: maxBytes (default 256 MiB), maxEntries (default 100,000); evicts least recently used. */
  constructor(map?: Map<string, Uint8Array>, options?: { maxBytes?: number; maxEntries?: number });
  readonly maxBytes: number;
  readonly maxEntries: number;
  /** Records evicted so far to stay within the caps. */
  readonly evicted: number;
  /** Total bytes of the records. */
  readonly bytes: number;
  readonly map: Map<string, Uint8Array>;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  has(label: string): boolean;
  delete(label: string): boolean;
  clear(): void;
  readonly size: number;
  keys(): IterableIterator<string>;
}
export declare function memoryStore(map?: Map<string, Uint8Array>, options?: { maxBytes?: number; maxEntries?: number }): MemoryWarmStore;
