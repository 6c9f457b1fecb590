// What the host gives a core module instance: the env imports the core
// calls back into (the warm store's get/put, the host's SHA-256), and
// finding that SHA-256. A callback never lets an exception unwind through
// wasm frames: it reports failure and the core carries on (a miss, a failed
// put, the core hashing itself).
import { CONST, Struct } from './layout.js';
import { builtin, isNode } from './builtin.js';

const SPAN = new Struct('holo_span', ['data', 'len']);
const DIGEST_BYTES = 32;

// The host's synchronous SHA-256 (node:crypto: Node, Deno, Bun), used by the
// core for large input labels (docs/decisions.md, host SHA-256). Browsers and workerd
// without node:crypto have none: the core hashes. Checked once on 'abc'.
let hostSha256P = null; // Promise<createHash | null>
const isAbc = (d) => d?.length === DIGEST_BYTES && d[0] === 0xba && d[DIGEST_BYTES - 1] === 0xad;
// node:crypto's one-shot hash(alg, data) where it has one (Node >= 20.12,
// 21.7), beside the createHash it came with: ~1 µs less per input than
// createHash + update + digest, a third of a 2 KiB input's hashing.
const oneShot = { of: null, fn: null };
function hostSha256() {
  hostSha256P ??= (async () => {
    if (!isNode && !globalThis.Deno && !globalThis.Bun) return null;
    try {
      const { createHash, hash } = await builtin('node:crypto');
      if (!isAbc(createHash('sha256').update(new Uint8Array([97, 98, 99])).digest())) return null;
      try {
        if (typeof hash === 'function' && isAbc(hash('sha256', new Uint8Array([97, 98, 99]), 'buffer'))) Object.assign(oneShot, { of: createHash, fn: hash });
      } catch {
        // no usable one-shot: createHash for every input
      }
      return createHash;
    } catch {
      return null;
    }
  })();
  return hostSha256P;
}

/** What the shim hands a core instance from the host (options.hostHash: false declines). */
export async function hostOf(options) {
  return { sha256: options.hostHash === false ? null : await hostSha256() };
}

// The 64-byte block that starts every tree-label leaf (holo/content-leaf/v1, NUL-padded).
const LEAF = new Uint8Array(64);
LEAF.set(new TextEncoder().encode('holo/content-leaf/v1'));
function isLeafBlock(b) {
  for (let i = 0; i < LEAF.length; i++) if (b[i] !== LEAF[i]) return false;
  return true;
}

// The parts of a small message copied into one scratch array for the
// one-shot hash (a copy of <= 64 KiB is a small fraction of hashing it);
// null: hash them part by part.
const SCRATCH_MAX = 64 << 10;
let scratch = new Uint8Array(0);
function concatParts(mem, dv, partsPtr, n) {
  let total = 0;
  for (let i = 0; i < n; i++) total += SPAN.get(dv, partsPtr + SPAN.sizeof * i, 'len');
  if (total > SCRATCH_MAX) return null;
  if (scratch.length < total) scratch = new Uint8Array(Math.max(total, 4096));
  for (let i = 0, at = 0; i < n; i++) {
    const p = partsPtr + SPAN.sizeof * i, len = SPAN.get(dv, p, 'len');
    scratch.set(new Uint8Array(mem, SPAN.get(dv, p, 'data'), len), at);
    at += len;
  }
  return scratch.subarray(0, total);
}

/**
 * The env imports of one Runtime. rt: its store / storeError / mem / cstr;
 * alloc(n): the module heap, unguarded (a callback runs inside a wasm call);
 * sha256(): createHash or null, asked at each call.
 */
export function hostImports(rt, alloc, sha256) {
  let leaf = { of: null, base: null }; // the leaf block's hash, per createHash
  return {
    holo_host_store_get(labelPtr, bytesPP, lenP) {
      if (!rt.store) return 1;
      try {
        let got = rt.store.get(rt.cstr(labelPtr, CONST.HOLO_LABEL_LEN));
        if (got == null) return 1;
        if (got instanceof ArrayBuffer) got = new Uint8Array(got);
        if (!(got instanceof Uint8Array)) throw new TypeError('warmStore.get must return a Uint8Array or undefined');
        const p = alloc(Math.max(got.byteLength, 1), 16);
        if (!p) return 1;
        new Uint8Array(rt.mem, p, got.byteLength).set(got);
        const dv = rt.dv();
        dv.setUint32(bytesPP, p, true);
        dv.setUint32(lenP, got.byteLength, true);
        return 0;
      } catch (e) {
        rt.storeError = e;
        return 1;
      }
    },
    // Bytes [offset, +len) of source `id` (Runtime#sources) into wasm memory; 0 = ok.
    // A throw is a failed read: the core reports IO, never uses the bytes.
    holo_host_source_read(id, offLo, offHi, dst, len) {
      const src = rt.sources.get(id);
      if (!src) return 1;
      try {
        src.read(new Uint8Array(rt.mem, dst, len), offHi * 2 ** 32 + (offLo >>> 0));
        return 0;
      } catch (e) {
        rt.storeError = e;
        return 1;
      }
    },
    holo_host_clock_ms() {
      return typeof performance !== 'undefined' ? performance.now() : Date.now();
    },
    holo_host_store_put(labelPtr, ptr, len) {
      if (!rt.store) return 1;
      try {
        rt.store.put(rt.cstr(labelPtr, CONST.HOLO_LABEL_LEN), new Uint8Array(rt.mem, ptr, len).slice());
        return 0;
      } catch (e) {
        rt.storeError = e;
        return 1;
      }
    },
    // SHA-256 of the holo_span parts straight out of wasm memory; 0 = ok.
    // A tree label's leaf (two parts, the first the 64-byte leaf block of
    // docs/holo-format.md §5) continues a copy of a hash already fed that
    // block: node:crypto's per-hash setup is most of a 64 KiB leaf's cost.
    holo_host_sha256(partsPtr, n, outPtr) {
      const createHash = sha256();
      if (!createHash) return 1;
      const put = (d) => {
        if (d.length !== DIGEST_BYTES) return 1;
        new Uint8Array(rt.mem, outPtr, DIGEST_BYTES).set(d);
        return 0;
      };
      try {
        let d = null;
        const mem = rt.mem, dv = new DataView(mem);
        const span = (i) => [SPAN.get(dv, partsPtr + SPAN.sizeof * i, 'data'), SPAN.get(dv, partsPtr + SPAN.sizeof * i, 'len')];
        let h = null, i = 0;
        const [first, firstLen] = n === 2 ? span(0) : [0, 0];
        if (firstLen === LEAF.length && isLeafBlock(new Uint8Array(mem, first, firstLen))) {
          if (leaf.of !== createHash) leaf = { of: createHash, base: createHash('sha256').update(LEAF) };
          if (typeof leaf.base?.copy === 'function') (h = leaf.base.copy()), (i = 1);
        }
        if (!h && oneShot.of === createHash && (d = concatParts(mem, dv, partsPtr, n))) return put(oneShot.fn('sha256', d, 'buffer'));
        h ??= createHash('sha256');
        for (; i < n; i++) {
          const [data, len] = span(i);
          if (len) h.update(new Uint8Array(mem, data, len));
        }
        return put(h.digest());
      } catch {
        return 1; // the core hashes instead
      }
    },
  };
}
