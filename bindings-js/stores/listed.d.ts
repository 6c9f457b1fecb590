import type { BoundedWarmStore } from '../index.js';

export declare const DEFAULT_CF_MAX_BYTES: number;
export declare const DEFAULT_CF_MAX_ENTRIES: number;
export declare const DEFAULT_CF_MEMORY_BYTES: number;

export interface ListedStoreOptions {
  /** Key prefix shared by every worker of one store. Default 'holo/'. */
  prefix?: string;
  /** Caps on the records in the store, kept from a listing (docs/warm-store.md). Defaults 1 GiB and 10,000. */
  maxBytes?: number;
  maxEntries?: number;
  /** Cap on the records held in memory (what get() can answer). Default min(maxBytes, 16 MiB). */
  memoryBytes?: number;
  onError?: (error: unknown, label: string) => void;
}

/** The key of a label's record: prefix + 'sha256-<64 hex>.hws'. */
export declare function recordKey(prefix: string, label: string): string;
export declare function labelOfKey(prefix: string, key: string): string | null;

/** get() answers from memory (preload first); put() writes through asynchronously (flush()). */
export declare class ListedWarmStore implements BoundedWarmStore {
  readonly prefix: string;
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly memoryBytes: number;
  /** Records in the store and their bytes, as this instance sees them (refresh() re-lists). */
  readonly size: number;
  readonly bytes: number;
  readonly evicted: number;
  /** Records held in memory. */
  readonly cached: number;
  onError: ((error: unknown, label: string) => void) | null;
  lastError: unknown;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  has(label: string): boolean;
  delete(label: string): boolean;
  /** Loads these labels into memory; resolves to how many the store held. */
  preload(labels: string[]): Promise<number>;
  /** Lists the store, rebuilds this instance's view and evicts down to the caps. */
  refresh(): Promise<{ size: number; bytes: number }>;
  flush(): Promise<void>;
  close(): Promise<void>;
}
