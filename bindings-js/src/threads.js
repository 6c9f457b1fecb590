// The worker pool of the threaded core module (hologram-simd128-threads.wasm;
// docs/decisions.md 14). The C side (bindings-js/src-c/threads.c) does the
// scheduling; this file only finds out whether the engine can run it, creates
// the shared memory, and starts / stops the pool (through its supervisor).
import { builtin, isNode } from './builtin.js';
import { movedByVite } from './variants.js';

const STACK = 256 * 1024; // per worker: kernel tasks only (GEMM blocks)

// (memory 1 1 shared) + (func i32.const 0 i32.const 0 i32.atomic.rmw.add drop):
// validates only where shared memory and atomics are on.
const PROBE_THREADS = [0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 4, 1, 3, 1, 1,
  10, 13, 1, 11, 0, 65, 0, 65, 0, 254, 30, 2, 0, 26, 11];

/** Why threads cannot run here, or null. */
export async function threadsUnavailable() {
  if (typeof SharedArrayBuffer === 'undefined') return 'SharedArrayBuffer is unavailable (browsers: the page must be cross-origin isolated, COOP/COEP)';
  if (!isNode && globalThis.crossOriginIsolated === false) return 'the page is not cross-origin isolated (COOP/COEP)';
  if (!WebAssembly.validate(new Uint8Array(PROBE_THREADS))) return 'this engine lacks WebAssembly threads (shared memory, atomics)';
  if (isNode) {
    try { await builtin('node:worker_threads'); } catch { return 'node:worker_threads is unavailable'; }
  } else if (typeof Worker === 'undefined') return 'Web Workers are unavailable';
  return null;
}

/** The shared memory the threaded module imports (its limits are the build's). */
export function sharedMemory() {
  // --initial-memory=2 MiB (32 pages), --max-memory=2 GiB in wasm.mk.
  return new WebAssembly.Memory({ initial: 32, maximum: 32768, shared: true });
}

// The pool's scripts. For browsers, the supervisor is started by the one
// pattern bundlers (Vite, webpack, Parcel) turn into a worker entry: new
// Worker(new URL(literal, import.meta.url), { type: 'module' }), written out
// in full; the workers' script is a plain new URL(literal, import.meta.url),
// which bundlers emit as an asset (it has no imports: it runs as it is),
// handed to the supervisor, which starts the workers from it. Node's URLs
// are built from a copy of import.meta.url so that a bundler does not emit
// the scripts a second time. Under Vite 6/7's dev server both come from
// node_modules/hologram-exec/ (movedByVite, src/variants.js).
const webSupervisor = () => {
  const moved = movedByVite('src/threads-supervisor.js');
  return moved ? new Worker(moved, { type: 'module' }) : new Worker(new URL('./threads-supervisor.js', import.meta.url), { type: 'module' });
};
const webWorkerUrl = () => (movedByVite('src/threads-worker.js') ?? new URL('./threads-worker.js', import.meta.url)).href;
const HERE = import.meta.url;
const nodeSupervisorUrl = () => new URL('./threads-supervisor.js', HERE);
const nodeWorkerUrl = () => new URL('./threads-worker.js', HERE).href;

/**
 * Why a worker failed to start, from its 'error' event or Error. A browser
 * reports a script that did not load (404, an HTML page, a refused MIME
 * type, a blocked cross-origin script) as a bare Event with no message.
 */
export function workerErrorText(e, script = 'threads-worker.js') {
  if (e && typeof e.message === 'string' && e.message) {
    const at = e.filename ? ` (${e.filename}${e.lineno ? `:${e.lineno}` : ''})` : '';
    return `${e.message}${at}`;
  }
  if (e instanceof Error) return String(e);
  return `the worker script ${script} did not load or evaluate (the browser gives no reason: check that it is served, as JavaScript, ` +
    'from the URL the bundle asks for - the network panel shows it; on a cross-origin-isolated page it needs the same COEP-compatible headers)';
}

/**
 * Starts n - 1 workers (the calling thread is the n-th) on `module` sharing
 * `memory`, under one supervisor worker (threads-supervisor.js) that marks
 * a worker dead in shared memory when it ends mid-call: the calling thread
 * is blocked in the call and cannot see the worker's events itself
 * (docs/decisions.md 40). exports: the main instance's (holo_alloc,
 * holo_pool_*). Returns { workers, errors, deaths, at, ready: Promise,
 * testFault(), dispose() }.
 */
export async function startPool(module, memory, exports, n) {
  const NodeWorker = isNode ? (await builtin('node:worker_threads')).Worker : null;
  const stacks = [];
  for (let i = 0; i < n - 1; i++) {
    const base = exports.holo_alloc(STACK, 16);
    if (!base) throw new Error('wasm heap exhausted allocating a worker stack');
    stacks.push(base + STACK);
  }
  const at = { dead: exports.holo_pool_addr(0) >>> 0, done: exports.holo_pool_addr(1) >>> 0 };
  const data = { module, memory, stacks, at, workerUrl: isNode ? nodeWorkerUrl() : webWorkerUrl() };
  const sup = isNode ? new NodeWorker(nodeSupervisorUrl(), { workerData: data }) : webSupervisor();
  if (!isNode) sup.postMessage(data);
  const errors = []; // why workers did not start
  const deaths = []; // why workers died after starting (their own words, when the event loop got them)
  let pending = n - 1, ok = 0, settle;
  const started = new Promise((res) => { settle = res; if (pending === 0) res(0); });
  const seen = new Set();
  const onMessage = (d) => {
    if (!d) return;
    if (d.died) deaths.push(`worker ${d.id} ${d.died}`);
    if (seen.has(d.id) || !(d.ready || d.error)) return;
    seen.add(d.id);
    if (d.ready) ok++; else errors.push(d.error);
    if (--pending === 0) settle(ok);
  };
  const onError = (e) => { errors.push(`the pool supervisor did not start: ${workerErrorText(e, 'threads-supervisor.js')}`); settle(ok); };
  if (isNode) { sup.on('message', onMessage); sup.on('error', onError); }
  else { sup.onmessage = (ev) => onMessage(ev.data); sup.onerror = onError; }
  // A window's main thread may not block in atomics.wait: there the caller spins.
  exports.holo_pool_config(isNode || typeof document === 'undefined' ? 1 : 0);
  let disposed = false;
  return {
    workers: n - 1,
    errors,
    deaths,
    at,
    // Resolves with the number of workers parked in holo_worker_main; from
    // then on a parked pool never keeps a Node process alive (unref).
    ready: started.then(async (r) => {
      for (let i = 0; i < 200 && exports.holo_pool_stat(0) < r; i++) await new Promise((res) => setTimeout(res, 5));
      if (isNode) sup.unref();
      return exports.holo_pool_stat(0);
    }),
    /**
     * For tests only (Runtime[Symbol.for('hologram.testFault')]): worker k
     * traps, throws or is terminated ('trap' | 'throw' | 'terminate') at its
     * atTask-th task from now, or is terminated afterMs from now.
     */
    testFault(k, kind, { atTask, afterMs } = {}) {
      if (afterMs !== undefined) { sup.postMessage({ terminate: k, afterMs }); return; }
      const code = { trap: 1, throw: 2, terminate: 3 }[kind];
      if (!code || exports.holo_pool_test_fault(k, code, atTask ?? 1) !== 0) throw new Error(`testFault: no fault '${kind}' for worker ${k} at task ${atTask}`);
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      exports.holo_pool_quit();
      sup.postMessage({ quit: true }); // it terminates the workers, then itself
    },
  };
}
