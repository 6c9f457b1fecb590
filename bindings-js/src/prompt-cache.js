// A session's prompt cache (docs/generation.md, "Prompt cache"): created,
// dropped and read back through its wasm_pcache handle (h.pcache).
import { HologramError } from './errors.js';
import { halves, toU64 } from './args.js';
import { Struct } from './layout.js';
import { live } from './handle.js';

const STATS = new Struct('wasm_pcache_stats', ['lookups', 'hits', 'misses', 'tokens_reused', 'inserts', 'evictions', 'store_hits', 'store_puts', 'bytes', 'entries', 'max_bytes', 'store_corrupt']);
const OPTIONS = new Set(['maxBytes', 'maxEntries']);
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024, DEFAULT_MAX_ENTRIES = 64, MAX_ENTRIES = 1 << 20;

/** Frees the session's prompt cache, if any (before the session: its entries hold values in it). */
export function dropPromptCache(h) {
  const p = h.pcache;
  if (!p) return;
  h.pcache = 0;
  if (h.w && !h.rt.poisoned) h.rt.x.holo_wasm_pcache_free(p);
}

/** Replaces the prompt cache with a new one of opts { maxBytes, maxEntries }; null: none. */
export function setPromptCache(h, opts) {
  const rt = live(h);
  dropPromptCache(h);
  if (opts === null) return;
  if (typeof opts !== 'object') throw new HologramError('ARG', 'setPromptCache: options must be an object { maxBytes, maxEntries } or null');
  for (const k of Object.keys(opts)) if (!OPTIONS.has(k)) throw new HologramError('ARG', `setPromptCache: unknown option '${k}'`);
  if (typeof rt.x.holo_wasm_pcache_new !== 'function') throw new HologramError('UNSUPPORTED', 'the prompt cache is not compiled into this core module');
  const maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > MAX_ENTRIES) throw new HologramError('ARG', 'setPromptCache: maxEntries must be an integer from 1 to 1048576');
  const b = toU64(opts.maxBytes ?? DEFAULT_MAX_BYTES, 'maxBytes');
  if (b === 0n) throw new HologramError('ARG', 'setPromptCache: maxBytes must be positive');
  const p = rt.x.holo_wasm_pcache_new(maxEntries, ...halves(b), h.store ? 1 : 0, h.err);
  if (!p) throw rt.failure(h.err);
  h.pcache = p;
}

/** The prompt cache's counters, or null without one. */
export function promptCacheStats(h) {
  const rt = live(h);
  if (!h.pcache) return null;
  const o = rt.alloc(STATS.sizeof, STATS.alignof);
  try {
    rt.x.holo_wasm_pcache_stats(h.pcache, o);
    const dv = rt.dv();
    const n = (k) => STATS.num(dv, o, k);
    return {
      lookups: n('lookups'), hits: n('hits'), misses: n('misses'), tokensReused: n('tokens_reused'), inserts: n('inserts'),
      evictions: n('evictions'), storeHits: n('store_hits'), storePuts: n('store_puts'), storeCorrupt: n('store_corrupt'),
      bytes: n('bytes'), entries: n('entries'), maxBytes: n('max_bytes'),
    };
  } finally {
    if (!rt.poisoned) rt.x.holo_free(o);
  }
}
