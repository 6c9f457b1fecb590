// The entry points: init() picks and instantiates a core module variant (a
// Runtime), load() does that and loads an archive into the fresh instance.
import { sourceOf } from './source.js';
import { HologramError } from './errors.js';
import { checkOptions } from './args.js';
import { FILES, THREADED_VARIANT, VARIANTS, features, importsMemory, shipped, supported, toModule } from './variants.js';
import { hostOf } from './host.js';
import { Runtime } from './runtime.js';
// Static, not import(): a dynamic import splits every bundle, which Vite 6/7
// cannot do for a worker in their default (iife) worker format.
import { threadsUnavailable, sharedMemory, startPool } from './threads.js';

const MAX_THREADS = 64;

/**
 * Instantiates the core module and returns a Runtime (one module instance:
 * one linear memory shared by the sessions it loads).
 *  - init()                          the best shipped variant this engine runs
 *  - init(undefined, { variant })    that shipped variant
 *  - init(moduleOrBytesOrUrl, { variant? })  a given module; `variant` only names it
 *  - init(threadedModule, { threads })      the given threaded build (hologram-simd128-threads.wasm)
 * options.hostHash: false makes the core compute every input label itself
 * (default: the host's SHA-256 for large inputs where it has a synchronous
 * one, node:crypto; labels are identical either way).
 */
export async function init(wasm, options = {}) {
  const variant = options.variant;
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) throw new HologramError('ARG', `threads must be an integer from 1 to 64, got ${String(options.threads)}`);
  const given = wasm !== undefined && wasm !== null;
  if (variant === THREADED_VARIANT || (threads > 1 && variant === undefined)) {
    return initThreaded(variant === THREADED_VARIANT, threads, options, given ? wasm : null);
  }
  if (variant !== undefined && !VARIANTS.includes(variant)) throw new HologramError('ARG', `unknown variant '${variant}' (one of ${VARIANTS.join(', ')})`);
  if (options.hostHash !== undefined && typeof options.hostHash !== 'boolean') throw new HologramError('ARG', 'hostHash must be a boolean');
  const host = await hostOf(options);
  if (given) return new Runtime(await toModule(wasm), variant ?? 'custom', host);
  if (variant) {
    if (!supported(variant)) throw new HologramError('UNSUPPORTED', `variant '${variant}' needs ${variant === 'relaxed' ? 'relaxed SIMD' : 'SIMD128'}, which this engine lacks`);
    const m = await shipped(variant);
    if (!m) throw new HologramError('ARG', `variant '${variant}' is not shipped (dist/${FILES[variant]} missing)`);
    return new Runtime(m, variant, host);
  }
  const f = features(), tried = [];
  for (const v of VARIANTS) {
    if (!supported(v, f)) continue;
    const m = await shipped(v);
    if (m) return new Runtime(m, v, host);
    tried.push(FILES[v]);
  }
  // A bundler or dev server that moved this module without dist/ is the usual cause in a browser.
  throw new HologramError('UNSUPPORTED', `no core module this engine can run is shipped (looked for ${tried.join(', ') || 'nothing'} in ../dist/ from this module); ` +
    'a bundle must emit them (see "Using with a bundler" in the hologram-exec README), or pass { wasm }');
}

// threads > 1 (or the threaded variant by name): the threaded module where
// the engine can run it; where it cannot, an explicit variant is an error
// and a bare thread count falls back to one thread (rt.threads says 1 and
// rt.threadsUnavailable why) - the single-thread modules never need
// SharedArrayBuffer or cross-origin isolation. A given `wasm` is used when it
// is the threaded build (it imports its shared memory); a single-thread
// module given with a bare thread count runs on one thread.
async function initThreaded(explicit, threads, options, wasm) {
  // A given module is looked at first: a single-thread one runs wherever
  // (workerd, a page without isolation) - never replaced by a shipped one.
  const given = wasm ? await toModule(wasm) : null;
  if (given && !importsMemory(given)) {
    const reason = `the given module is not the threaded build (${FILES[THREADED_VARIANT]})`;
    if (explicit) throw new HologramError('ARG', `variant '${THREADED_VARIANT}': ${reason}`);
    const rt = new Runtime(given, 'custom', await hostOf(options));
    rt.threadsUnavailable = reason;
    return rt;
  }
  let reason = (await threadsUnavailable()) ?? (supported('simd128') ? null : 'this engine lacks SIMD128');
  const m = reason ? null : given ?? (await shipped(THREADED_VARIANT));
  if (!reason && !m) reason = `dist/${FILES[THREADED_VARIANT]} is not shipped`;
  if (reason) {
    if (explicit) throw new HologramError('UNSUPPORTED', `variant '${THREADED_VARIANT}' cannot run here: ${reason}`);
    const rt = await init(undefined, { hostHash: options.hostHash });
    rt.threadsUnavailable = reason;
    return rt;
  }
  const memory = sharedMemory();
  const rt = new Runtime(m, THREADED_VARIANT, { ...(await hostOf(options)), memory });
  await rt.startThreads(threads, startPool);
  return rt;
}

/**
 * Instantiates a fresh module instance for this session and loads the archive
 * into it (see Runtime#load for the options). Sessions from separate load()
 * calls share no memory.
 */
export async function load(holoBytes, options = {}) {
  checkOptions(options);
  const source = await sourceOf(holoBytes, options); // { fd } needs node:fs, found asynchronously
  const rt = await init(options.wasm, { variant: options.variant, hostHash: options.hostHash, threads: options.threads });
  return rt.load(source ?? holoBytes, options, true);
}
