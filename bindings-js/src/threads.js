// The worker pool of the threaded core module (hologram-simd128-threads.wasm;
// docs/decisions.md 14). The C side (bindings-js/src-c/threads.c) does the
// scheduling; this file only finds out whether the engine can run it, creates
// the shared memory, and starts / stops the worker instances.
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node);
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
    try { await import('node:worker_threads'); } catch { return 'node:worker_threads is unavailable'; }
  } else if (typeof Worker === 'undefined') return 'Web Workers are unavailable';
  return null;
}

/** The shared memory the threaded module imports (its limits are the build's). */
export function sharedMemory() {
  // --initial-memory=2 MiB (32 pages), --max-memory=2 GiB in wasm.mk.
  return new WebAssembly.Memory({ initial: 32, maximum: 32768, shared: true });
}

/**
 * Starts n - 1 workers (the calling thread is the n-th) on `module` sharing
 * `memory`. exports: the main instance's (holo_alloc, holo_pool_*).
 * Returns { workers, ready: Promise, dispose() }.
 */
export async function startPool(module, memory, exports, n) {
  const Ctor = isNode ? (await import('node:worker_threads')).Worker : Worker;
  const url = new URL('./threads-worker.js', import.meta.url);
  const workers = [];
  const errors = [];
  const readies = [];
  for (let i = 0; i < n - 1; i++) {
    const base = exports.holo_alloc(STACK, 16);
    if (!base) throw new Error('wasm heap exhausted allocating a worker stack');
    const data = { module, memory, stackTop: base + STACK };
    const w = isNode ? new Ctor(url, { workerData: data }) : new Ctor(url, { type: 'module' });
    if (!isNode) w.postMessage(data);
    readies.push(new Promise((resolve) => {
      const on = (m) => {
        const d = isNode ? m : m.data;
        if (d && d.ready) resolve(true);
        else if (d && d.error) { errors.push(d.error); resolve(false); }
      };
      if (isNode) { w.on('message', on); w.on('error', (e) => { errors.push(String(e && e.message)); resolve(false); }); }
      else { w.onmessage = on; w.onerror = (e) => { errors.push(String(e && e.message)); resolve(false); }; }
    }));
    workers.push(w);
  }
  // A window's main thread may not block in atomics.wait: there the caller spins.
  exports.holo_pool_config(isNode || typeof document === 'undefined' ? 1 : 0);
  let disposed = false;
  return {
    workers: workers.length,
    errors,
    // Resolves with the number of workers parked in holo_worker_main; from
    // then on a parked pool never keeps a Node process alive (unref).
    ready: Promise.all(readies).then(async (r) => {
      const ok = r.filter(Boolean).length;
      for (let i = 0; i < 200 && exports.holo_pool_stat(0) < ok; i++) await new Promise((res) => setTimeout(res, 5));
      if (isNode) for (const w of workers) w.unref();
      return exports.holo_pool_stat(0);
    }),
    dispose() {
      if (disposed) return;
      disposed = true;
      exports.holo_pool_quit();
      for (const w of workers) w.terminate();
    },
  };
}
