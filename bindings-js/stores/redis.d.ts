import type { BoundedWarmStore } from '../index.js';

export interface RedisStoreOptions {
  /** redis://host:port, when the store opens its own connection (needs the npm package 'redis'). */
  url?: string;
  /** A connected node-redis client to use instead (used through withTypeMapping: bulk strings as bytes). */
  client?: unknown;
  /** Key prefix shared by every process of one store. Default 'holo:'. */
  prefix?: string;
  /** Caps on the records in Redis (one cap for all processes). Defaults 1 GiB and 100,000. */
  maxBytes?: number;
  maxEntries?: number;
  /** Cap on the records held in memory (what get() can answer). Default min(maxBytes, 64 MiB). */
  memoryBytes?: number;
  onError?: (error: unknown, label: string) => void;
}

/** get() answers from memory (preload first); put() writes through to Redis asynchronously. */
export declare class RedisWarmStore implements BoundedWarmStore {
  readonly prefix: string;
  readonly maxBytes: number;
  readonly maxEntries: number;
  readonly memoryBytes: number;
  /** Records in Redis and their bytes, as of the last write or refresh(). */
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
  /** Loads these labels into memory; resolves to how many Redis held. */
  preload(labels: string[]): Promise<number>;
  refresh(): Promise<{ size: number; bytes: number }>;
  flush(): Promise<void>;
  close(): Promise<void>;
}
export declare function openRedisStore(options?: RedisStoreOptions): Promise<RedisWarmStore>;
