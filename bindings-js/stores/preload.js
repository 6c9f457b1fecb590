// Preloading an asynchronous store for one synchronous execute. With
// persistMemo, an execute looks up exactly two kinds of record: its memo
// record (under session.memoKey(inputs)) and the output values that record
// names. A host with an async store (Redis, KV, IndexedDB) fetches both
// here, then calls execute, which answers from memory with 0 dispatches.
import { isLabel } from './label.js';

const MAGIC = [0x48, 0x4f, 0x4c, 0x4f, 0x4d, 0x4b, 0x31, 0x00]; // "HOLOMK1\0"
const LABEL_LEN = 71;
const dec = new TextDecoder();

/**
 * The output labels a memo record names, or null when the bytes are not a
 * record for this key (docs/warm-store.md "Memo records"). The core checks
 * the same, and verifies each output value by its digest; this only decides
 * what to fetch.
 */
export function memoRecordOutputs(bytes, key) {
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 + LABEL_LEN + 4) return null;
  if (MAGIC.some((b, i) => bytes[i] !== b)) return null;
  if (dec.decode(bytes.subarray(8, 8 + LABEL_LEN)) !== key) return null;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = dv.getUint32(8 + LABEL_LEN, true), at = 8 + LABEL_LEN + 4;
  if (bytes.length !== at + n * LABEL_LEN) return null;
  const out = [];
  for (let k = 0; k < n; k++) {
    const l = dec.decode(bytes.subarray(at + k * LABEL_LEN, at + (k + 1) * LABEL_LEN));
    if (!isLabel(l)) return null;
    out.push(l);
  }
  return out;
}

/**
 * Fetches the memo record of session.execute(inputs) and the outputs it
 * names into `store` (anything with async preload(labels) and get(label)).
 * Resolves to { key, outputs (labels, or null: no usable record), ready
 * (every output now in memory) }.
 */
export async function preloadExecution(store, session, inputs) {
  const key = session.memoKey(inputs);
  await store.preload([key]);
  const outputs = memoRecordOutputs(store.get(key), key);
  if (!outputs) return { key, outputs: null, ready: false };
  await store.preload(outputs);
  return { key, outputs, ready: outputs.every((l) => store.get(l) !== undefined) };
}
