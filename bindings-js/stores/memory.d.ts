import type { WarmStore } from '../index.js';

/** An in-memory WarmStore over a Map (records are opaque bytes keyed by label). */
export declare class MemoryWarmStore implements WarmStore {
  constructor(map?: Map<string, Uint8Array>);
  readonly map: Map<string, Uint8Array>;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  has(label: string): boolean;
  delete(label: string): boolean;
  clear(): void;
  readonly size: number;
  keys(): IterableIterator<string>;
}
export declare function memoryStore(map?: Map<string, Uint8Array>): MemoryWarmStore;
