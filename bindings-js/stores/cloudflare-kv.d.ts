import { ListedWarmStore, type ListedStoreOptions } from './listed.js';

/** Workers KV's largest value; a larger record is not kept. */
export declare const KV_MAX_VALUE_BYTES: number;

/** The part of a Workers KV namespace binding the store uses. */
export interface KVNamespaceLike {
  get(key: string, options: { type: 'arrayBuffer' }): Promise<ArrayBuffer | null>;
  put(key: string, value: Uint8Array, options?: { metadata?: unknown }): Promise<void>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; cursor?: string }): Promise<{ keys: { name: string; metadata?: unknown }[]; list_complete: boolean; cursor?: string }>;
}

export declare class KVWarmStore extends ListedWarmStore {
  constructor(kv: KVNamespaceLike, options?: ListedStoreOptions);
}
/** Lists the namespace's records under the prefix and evicts down to the caps. */
export declare function openKVStore(kv: KVNamespaceLike, options?: ListedStoreOptions): Promise<KVWarmStore>;
export type { ListedStoreOptions };
