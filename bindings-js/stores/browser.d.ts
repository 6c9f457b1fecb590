import type { WarmStore } from '../index.js';

export interface BrowserStoreOptions {
  /** IndexedDB database / Cache API cache name. Default 'hologram-exec'. */
  name?: string;
  /** Default 'auto': IndexedDB when present, else the Cache API. */
  backend?: 'auto' | 'indexeddb' | 'cache';
  /** Load every record (true, default), only these labels, or nothing into memory at open. */
  preload?: boolean | string[];
  /** Called when an asynchronous write fails (the record stays in memory). */
  onError?: (error: unknown, label: string) => void;
  /** Injected implementations (tests, workers with their own handles). */
  indexedDB?: IDBFactory;
  caches?: CacheStorage;
}

/** get() answers from memory; put() stores in memory and writes through asynchronously. */
export declare class BrowserWarmStore implements WarmStore {
  readonly kind: 'indexeddb' | 'cache';
  onError: ((error: unknown, label: string) => void) | null;
  lastError: unknown;
  readonly size: number;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  preload(labels?: string[]): Promise<void>;
  /** Resolves when every put so far is written. */
  flush(): Promise<void>;
  close(): Promise<void>;
}
export declare function openBrowserStore(options?: BrowserStoreOptions): Promise<BrowserWarmStore>;
