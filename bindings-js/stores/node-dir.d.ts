import type { BoundedWarmStore } from '../index.js';

export interface NodeDirStoreOptions {
  /** Cap on the records' total bytes. Default 1 GiB. */
  maxBytes?: number;
  /** Cap on the number of records. Default 100,000. */
  maxEntries?: number;
  /** fsync each record before its rename (survives power loss, not only a killed process). Default false. */
  durable?: boolean;
}

/**
 * A WarmStore over a directory, in the C FileWarmStore's layout
 * (DIR/sha256-<64 hex>.hws, written to a temporary name then renamed). Node only.
 * Bounded: a full store evicts its least recently used records (a get counts as use).
 */
export declare class NodeDirWarmStore implements BoundedWarmStore {
  /** The directory is created (recursively) when missing. */
  constructor(dir: string, options?: NodeDirStoreOptions);
  readonly dir: string;
  readonly durable: boolean;
  readonly maxBytes: number;
  readonly maxEntries: number;
  /** Records evicted so far by this process to stay within the caps. */
  readonly evicted: number;
  /** Number of records and their total bytes, as this process sees the directory. */
  readonly size: number;
  readonly bytes: number;
  /** Re-reads the directory (sizes, recency), removes dead writers' temporary files, evicts to the caps. */
  refresh(): void;
  /** The file a label is stored in; throws TypeError unless label matches ^sha256:[0-9a-f]{64}$. */
  pathOf(label: string): string;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  has(label: string): boolean;
  delete(label: string): boolean;
  clear(): void;
  labels(): string[];
}
export declare function nodeDirStore(dir: string, options?: NodeDirStoreOptions): NodeDirWarmStore;
