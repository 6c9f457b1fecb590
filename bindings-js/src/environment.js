// Where the package runs, and the memory defaults that fit there. WebAssembly
// memory never shrinks, so what the defaults let the heap grow to is held
// for the life of the instance: an edge isolate (about 128 MB, shared by the
// requests it serves) gets a small dead-value cache and a transient budget
// with a hard ceiling on the module's linear memory; a browser a larger one;
// Node keeps the defaults it always had (speed unchanged, no ceiling).
// README "Memory" and index.d.ts (SessionLimits) document them.

const MiB = 1024 * 1024;

/**
 * Defaults per environment. retainBytes: dead values kept as a cache;
 * memoryBudget: the bound on transient bytes (0: none); memoRecords: the
 * graph memo's records (0: the core's default, 16384 for up to two
 * outputs); ceiling: whether the instance's linear memory gets a hard
 * ceiling derived from the budget (see ceiling.js).
 */
export const DEFAULTS = Object.freeze({
  node: Object.freeze({ retainBytes: 64 * MiB, memoryBudget: 0, memoRecords: 0, ceiling: false }),
  browser: Object.freeze({ retainBytes: 32 * MiB, memoryBudget: 256 * MiB, memoRecords: 0, ceiling: true }),
  workerd: Object.freeze({ retainBytes: 8 * MiB, memoryBudget: 16 * MiB, memoRecords: 4096, ceiling: true }),
  isolate: Object.freeze({ retainBytes: 8 * MiB, memoryBudget: 16 * MiB, memoRecords: 4096, ceiling: true }),
});

/**
 * 'workerd' (Cloudflare Workers: navigator.userAgent 'Cloudflare-Workers',
 * checked first since nodejs_compat gives workerd a `process`), 'node' (a
 * process with versions.node: Node, Bun, Deno's node compatibility),
 * 'browser' (a window with a document, or a dedicated/shared/service
 * worker), else 'isolate' (another edge runtime: no process, no document,
 * no Worker global scope). `g` is the global object (a parameter for tests).
 */
export function detectEnvironment(g = globalThis) {
  const ua = g.navigator && typeof g.navigator.userAgent === 'string' ? g.navigator.userAgent : '';
  if (ua === 'Cloudflare-Workers') return 'workerd';
  if (g.process && g.process.versions && typeof g.process.versions.node === 'string') return 'node';
  if (typeof g.document !== 'undefined' && typeof g.window !== 'undefined') return 'browser';
  if (typeof g.WorkerGlobalScope !== 'undefined' || typeof g.importScripts === 'function') return 'browser';
  return 'isolate';
}

let cached = null;
/** This process's environment (detected once). */
export const environment = () => (cached ??= detectEnvironment());
