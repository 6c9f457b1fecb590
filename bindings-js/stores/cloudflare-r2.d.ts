import { ListedWarmStore, type ListedStoreOptions } from './listed.js';

/** The part of an R2 bucket binding the store uses. */
export interface R2BucketLike {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
  put(key: string, value: Uint8Array, options?: { customMetadata?: Record<string, string> }): Promise<unknown>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string; cursor?: string; include?: ('customMetadata' | 'httpMetadata')[] }): Promise<{
    objects: { key: string; size: number; uploaded?: Date; customMetadata?: Record<string, string> }[];
    truncated: boolean;
    cursor?: string;
  }>;
}

export declare class R2WarmStore extends ListedWarmStore {
  constructor(bucket: R2BucketLike, options?: ListedStoreOptions);
}
/** Lists the bucket's records under the prefix and evicts down to the caps. */
export declare function openR2Store(bucket: R2BucketLike, options?: ListedStoreOptions): Promise<R2WarmStore>;
export type { ListedStoreOptions };
