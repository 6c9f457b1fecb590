import type { RemoteStoreOptions, RemoteWarmStore } from './remote.js';

export declare const DEFAULT_CF_MAX_BYTES: number;
export declare const DEFAULT_CF_MAX_ENTRIES: number;
export declare const DEFAULT_CF_MEMORY_BYTES: number;

/** Defaults: prefix 'holo/', caps 1 GiB and 10,000 kept from a listing (docs/warm-store.md), memory min(maxBytes, 16 MiB). */
export type ListedStoreOptions = RemoteStoreOptions;

/** The key of a label's record: prefix + 'sha256-<64 hex>.hws'. */
export declare function recordKey(prefix: string, label: string): string;
export declare function labelOfKey(prefix: string, key: string): string | null;

export interface ListedWarmStore extends RemoteWarmStore {}
/** A store over a key-value engine that can list its keys (KV, R2). */
export declare class ListedWarmStore {}
