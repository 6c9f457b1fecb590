import type { RemoteStoreOptions, RemoteWarmStore } from './remote.js';

/** Defaults: prefix 'holo:', caps 1 GiB and 100,000 (one cap for all processes), memory min(maxBytes, 64 MiB). */
export interface RedisStoreOptions extends RemoteStoreOptions {
  /** redis://host:port, when the store opens its own connection (needs the npm package 'redis'). */
  url?: string;
  /** A connected node-redis client to use instead (used through withTypeMapping: bulk strings as bytes). */
  client?: unknown;
}

export interface RedisWarmStore extends RemoteWarmStore {}
/** Records in Redis; size and bytes as of the last write or refresh(). */
export declare class RedisWarmStore {}
export declare function openRedisStore(options?: RedisStoreOptions): Promise<RedisWarmStore>;
