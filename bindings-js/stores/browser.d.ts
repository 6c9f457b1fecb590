import type { BoundedWarmStore } from '../index.js';

export interface BrowserStoreOptions {
  /** IndexedDB database / Cache API cache name. Default 'hologram-exec'. */
  name?: string;
  /** Default 'auto': IndexedDB when present, else the Cache API. */
  backend?: 'auto' | 'indexeddb' | 'cache';
  /** Caps on the stored records. Defaults 512 MiB and 100,000; a full store evicts the least recently used. */
  maxBytes?: number;
  maxEntries?: number;
  /** Cap on the records held in memory (what get() can answer). Default min(maxBytes, 64 MiB). */
  memoryBytes?: number;
  /**
   * At open: false (default) reads only the index; true also loads the most recently used records
   * that fit memoryBytes; an array loads those labels.
   */
  preload?: boolean | string[];
  /** Called when an asynchronous write fails (the record stays in memory). */
  onError?: (error: unknown, label: string) => void;
  /** Injected implementations (tests, workers with their own handles). */
  indexedDB?: IDBFactory;
  caches?: CacheStorage;
}

/** get() answers from memory; put() stores in memory and writes through asynchronously. */
export declare class BrowserWarmStore implements BoundedWarmStore {
  readonly kind: 'indexeddb' | 'cache';
  onError: ((error: unknown, label: string) => void) | null;
  lastError: unknown;
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly memoryBytes: number;
  /** Stored records (all of storage, per the index) and their bytes. */
  readonly size: number;
  readonly bytes: number;
  /** Records held in memory. */
  readonly cached: number;
  readonly evicted: number;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  has(label: string): boolean;
  delete(label: string): boolean;
  /** Loads these labels (or the most recent records that fit memoryBytes) into memory; resolves to how many were read. */
  preload(labels?: string[]): Promise<number>;
  /** Resolves when every put so far is written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
export declare function openBrowserStore(options?: BrowserStoreOptions): Promise<BrowserWarmStore>;
