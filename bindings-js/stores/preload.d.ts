import type { Input, Session, WarmStore } from '../index.js';

/** The output labels a memo record names, or null when the bytes are not a memo record for this key. */
export declare function memoRecordOutputs(bytes: Uint8Array | undefined | null, key: string): string[] | null;

/** Fetches the memo record of session.execute(inputs) and the outputs it names into an async-backed store. */
export declare function preloadExecution(
  store: WarmStore & { preload(labels: string[]): Promise<unknown> },
  session: Session,
  inputs: ReadonlyArray<Input> | Record<string, Input>,
): Promise<{ key: string; outputs: string[] | null; ready: boolean }>;
