import type { WarmStore } from '../index.js';

/**
 * A WarmStore over a directory, in the C FileWarmStore's layout
 * (DIR/sha256-<64 hex>.hws, written to a temporary name then renamed). Node only.
 */
export declare class NodeDirWarmStore implements WarmStore {
  /** The directory is created (recursively) when missing. */
  constructor(dir: string);
  readonly dir: string;
  /** The file a label is stored in; throws TypeError unless label matches ^sha256:[0-9a-f]{64}$. */
  pathOf(label: string): string;
  get(label: string): Uint8Array | undefined;
  put(label: string, bytes: Uint8Array): void;
  labels(): string[];
}
export declare function nodeDirStore(dir: string): NodeDirWarmStore;
