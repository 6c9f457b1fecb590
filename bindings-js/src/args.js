// Argument checks and conversions the modules share.
import { HologramError } from './errors.js';

export const isBuffer = (b) => b instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer);

/** A non-negative integer (number or bigint) below 2^64 as a bigint; undefined/null: 0n. */
export function toU64(v, what) {
  if (v === undefined || v === null) return 0n;
  const ok = typeof v === 'bigint' ? v >= 0n && v < 1n << 64n : Number.isSafeInteger(v) && v >= 0;
  if (!ok) throw new HologramError('ARG', `${what} must be a non-negative integer, got ${String(v)}`);
  return BigInt(v);
}

/** A u64 as the [low, high] u32 halves the exports take. */
export const halves = (b) => [Number(b & 0xffffffffn), Number(b >> 32n)];

const LOAD_OPTIONS = new Set(['warmStore', 'memoryBudget', 'retainBytes', 'memoRecords', 'environment', 'variant', 'trustStore', 'persistMemo', 'verifyConstants', 'warmCone', 'wasm', 'hostHash', 'threads', 'weightBudget', 'spillBudget']);

/** The options of load() / Runtime#load. */
export function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new HologramError('ARG', 'load: options must be an object');
  for (const k of Object.keys(options)) if (!LOAD_OPTIONS.has(k)) throw new HologramError('ARG', `load: unknown option '${k}' (known: ${[...LOAD_OPTIONS].join(', ')})`);
  const ws = options.warmStore;
  if (ws != null && (typeof ws.get !== 'function' || typeof ws.put !== 'function')) throw new HologramError('ARG', 'load: warmStore must have get(label) and put(label, bytes)');
}

/** A token id (u32). */
export const isToken = (t) => Number.isInteger(t) && t >= 0 && t <= 0xffffffff;
