import type { BoundedWarmStore } from '../index.js';

/** The options every store over a remote engine takes (Redis, Cloudflare KV and R2). */
export interface RemoteStoreOptions {
  /** Key prefix shared by every process or worker of one store. */
  prefix?: string;
  /** Caps on the records in the remote store (one cap for all its clients). */
  maxBytes?: number;
  maxEntries?: number;
  /** Cap on the records held in memory (what get() can answer). */
  memoryBytes?: number;
  onError?: (error: unknown, label: string) => void;
}

/** get() answers from memory (preload first); put() writes through asynchronously (flush()). */
export interface RemoteWarmStore extends BoundedWarmStore {
  readonly prefix: string;
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly memoryBytes: number;
  /** Records in the remote store and their bytes, as this instance last saw them (refresh() re-lists). */
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
  /** Rebuilds this instance's view of the store and evicts down to the caps. */
  refresh(): Promise<{ size: number; bytes: number }>;
  flush(): Promise<void>;
  close(): Promise<void>;
}
