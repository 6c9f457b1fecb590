// hologram-exec: the JS shim over the core wasm module. ESM, no dependencies,
// no platform APIs at module evaluation (Node, browsers, Web Workers, workerd).
// Execution is synchronous; only obtaining and compiling the module is a promise.

const DTYPES = { 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64' };
const ARRAYS = { 1: Float32Array, 2: Uint8Array, 3: Int8Array, 4: Uint16Array, 5: Int16Array, 6: Int32Array, 7: BigInt64Array, 9: Uint8Array, 10: Uint16Array, 11: Float64Array, 12: Uint32Array, 13: BigUint64Array };
const STATUS = ['OK', 'ARG', 'FORMAT', 'UNSUPPORTED', 'INPUT', 'MEMORY', 'BUDGET', 'STORE', 'KERNEL', 'STATE', 'LIMIT'];
const LAYOUT = { input: 16, view: 152, port: 144, counters: 96, error: 260, refineReport: 4672, refineReportU64: 4624, refineArgs: 536 };
const COUNTERS = ['executions', 'dispatches', 'elided', 'memoHits', 'storeHits', 'storeMisses', 'storeCorrupt', 'storePuts', 'bytesHashed', 'evictions', 'peakLiveBytes', 'peakResidentBytes'];
const REFINE_STATUS = ['converged', 'budgetExhausted', 'repaired', 'failed'];
const VALIDATORS = { stableLabels: 1, stableBytes: 2 };
const MAX_STATE = 64, MAX_RANK = 8, LABEL_LEN = 71;
const POINTER_RESULTS = ['holo_alloc', 'holo_session_archive_label', 'holo_wasm_load', 'holo_wasm_session', 'holo_wasm_backend_identity', 'holo_wasm_gen_new', 'holo_wasm_pcache_new', 'holo_status_name'];
const LOAD_OPTIONS = new Set(['warmStore', 'memoryBudget', 'variant', 'trustStore', 'verifyConstants', 'warmCone', 'wasm', 'hostHash', 'threads']);

/** The core module variants, best first, and the dist/ file of each. */
export const VARIANTS = Object.freeze(['relaxed', 'simd128', 'scalar']);
const FILES = { relaxed: 'hologram-relaxed.wasm', simd128: 'hologram-simd128.wasm', scalar: 'hologram-scalar.wasm', 'simd128-threads': 'hologram-simd128-threads.wasm' };
/** The opt-in threaded module (feature `parallel`): same kernels and bytes as simd128, plus a worker pool on shared memory. */
export const THREADED_VARIANT = 'simd128-threads';
// (func (result v128) i32.const 0 i8x16.splat) and the same + i8x16.relaxed_swizzle.
const PROBE_SIMD = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11];
const PROBE_RELAXED = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11];

/**
 * Every failure of the library is a HologramError with a stable `code`:
 * the core's statuses (ARG FORMAT UNSUPPORTED INPUT MEMORY BUDGET STORE KERNEL
 * STATE LIMIT) and the shim's own (DISPOSED TRAP ABI).
 */
export class HologramError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.name = 'HologramError';
    this.code = code;
  }
}

/** What this engine supports, by WebAssembly.validate on tiny probe modules. */
export function features() {
  return { simd: WebAssembly.validate(new Uint8Array(PROBE_SIMD)), relaxedSimd: WebAssembly.validate(new Uint8Array(PROBE_RELAXED)) };
}

function supported(variant, f = features()) {
  return variant === 'scalar' || (variant === 'simd128' && f.simd) || (variant === 'relaxed' && f.relaxedSimd);
}

const utf8 = new TextDecoder();
const isBuffer = (b) => b instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && b instanceof SharedArrayBuffer);
const compiled = new Map(); // variant -> Promise<WebAssembly.Module | null> (null: not shipped)

// The host's synchronous SHA-256 (node:crypto: Node, Deno, Bun), used by the
// core for large input labels (docs/decisions.md, host SHA-256). Browsers and workerd
// without node:crypto have none: the core hashes. Checked once on 'abc'.
let hostSha256P = null; // Promise<createHash | null>
function hostSha256() {
  hostSha256P ??= (async () => {
    if (typeof globalThis.process?.versions?.node !== 'string' && !globalThis.Deno && !globalThis.Bun) return null;
    try {
      const { createHash } = await import('node:crypto');
      const d = createHash('sha256').update(new Uint8Array([97, 98, 99])).digest();
      return d.length === 32 && d[0] === 0xba && d[31] === 0xad ? createHash : null;
    } catch {
      return null;
    }
  })();
  return hostSha256P;
}

/** What the shim hands a core instance from the host (options.hostHash: false declines). */
async function hostOf(options) {
  return { sha256: options.hostHash === false ? null : await hostSha256() };
}

async function readBytes(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(url);
    } catch (e) {
      if (e && e.code === 'ENOENT') return null;
      throw e;
    }
  }
  const r = await fetch(url);
  if (!r.ok) return null;
  return new Uint8Array(await r.arrayBuffer());
}

async function compile(bytes, what) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    throw new HologramError('UNSUPPORTED', `cannot compile ${what}: ${e && e.message}`, { cause: e });
  }
}

function shipped(variant) {
  if (!compiled.has(variant)) {
    const p = (async () => {
      const bytes = await readBytes(new URL(`./dist/${FILES[variant]}`, import.meta.url));
      return bytes ? compile(bytes, `dist/${FILES[variant]}`) : null;
    })();
    p.catch(() => compiled.delete(variant)); // a failed fetch may be retried
    compiled.set(variant, p);
  }
  return compiled.get(variant);
}

async function toModule(wasm) {
  if (wasm instanceof WebAssembly.Module) return wasm;
  if (typeof Response !== 'undefined' && wasm instanceof Response) return compile(new Uint8Array(await wasm.arrayBuffer()), wasm.url || 'response');
  if (wasm instanceof URL || typeof wasm === 'string') {
    const bytes = await readBytes(new URL(wasm, import.meta.url));
    if (!bytes) throw new HologramError('ARG', `core module not found: ${wasm}`);
    return compile(bytes, String(wasm));
  }
  if (isBuffer(wasm) || ArrayBuffer.isView(wasm)) return compile(wasm, 'the given bytes');
  throw new HologramError('ARG', 'init: wasm must be a WebAssembly.Module, bytes, a URL or a Response');
}

/**
 * Instantiates the core module and returns a Runtime (one module instance:
 * one linear memory shared by the sessions it loads).
 *  - init()                          the best shipped variant this engine runs
 *  - init(undefined, { variant })    that shipped variant
 *  - init(moduleOrBytesOrUrl, { variant? })  a given module; `variant` only names it
 * options.hostHash: false makes the core compute every input label itself
 * (default: the host's SHA-256 for large inputs where it has a synchronous
 * one, node:crypto; labels are identical either way).
 */
export async function init(wasm, options = {}) {
  const variant = options.variant;
  const threads = options.threads ?? 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > 64) throw new HologramError('ARG', `threads must be an integer from 1 to 64, got ${String(options.threads)}`);
  if (variant === THREADED_VARIANT || (threads > 1 && variant === undefined && (wasm === undefined || wasm === null))) {
    return initThreaded(variant === THREADED_VARIANT, threads, options);
  }
  if (variant !== undefined && !VARIANTS.includes(variant)) throw new HologramError('ARG', `unknown variant '${variant}' (one of ${VARIANTS.join(', ')})`);
  if (options.hostHash !== undefined && typeof options.hostHash !== 'boolean') throw new HologramError('ARG', 'hostHash must be a boolean');
  const host = await hostOf(options);
  if (wasm !== undefined && wasm !== null) return new Runtime(await toModule(wasm), variant ?? 'custom', host);
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
  throw new HologramError('UNSUPPORTED', `no core module this engine can run is shipped (looked for ${tried.join(', ') || 'nothing'})`);
}

// threads > 1 (or the threaded variant by name): the threaded module where
// the engine can run it; where it cannot, an explicit variant is an error
// and a bare thread count falls back to one thread (rt.threads says 1 and
// rt.threadsUnavailable why) - the single-thread modules never need
// SharedArrayBuffer or cross-origin isolation.
async function initThreaded(explicit, threads, options) {
  const { threadsUnavailable, sharedMemory, startPool } = await import('./threads.js');
  const why = (await threadsUnavailable()) ?? (supported('simd128') ? null : 'this engine lacks SIMD128');
  const m = why ? null : await shipped(THREADED_VARIANT);
  if (!m) {
    const reason = why ?? `dist/${FILES[THREADED_VARIANT]} is not shipped`;
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
  const rt = await init(options.wasm, { variant: options.variant, hostHash: options.hostHash, threads: options.threads });
  return rt.load(holoBytes, options, true);
}

function checkOptions(options) {
  if (options === null || typeof options !== 'object') throw new HologramError('ARG', 'load: options must be an object');
  for (const k of Object.keys(options)) if (!LOAD_OPTIONS.has(k)) throw new HologramError('ARG', `load: unknown option '${k}' (known: ${[...LOAD_OPTIONS].join(', ')})`);
  const ws = options.warmStore;
  if (ws != null && (typeof ws.get !== 'function' || typeof ws.put !== 'function')) throw new HologramError('ARG', 'load: warmStore must have get(label) and put(label, bytes)');
}

function toU64(v, what) {
  if (v === undefined || v === null) return 0n;
  const ok = typeof v === 'bigint' ? v >= 0n && v < 1n << 64n : Number.isSafeInteger(v) && v >= 0;
  if (!ok) throw new HologramError('ARG', `${what} must be a non-negative integer, got ${String(v)}`);
  return BigInt(v);
}

/** One instance of the core module. Prefer load(); use init() + rt.load() to share one instance. */
export class Runtime {
  #poisoned = null;
  #raw;
  #pool = null;
  #module;
  #sha256 = null; // node:crypto's createHash when the host hashes large inputs
  constructor(module, variant = 'custom', host = {}) {
    this.variant = variant;
    this.#module = module;
    this.store = null; // the warm store of the call in progress
    this.storeError = null; // the last exception a warm store threw, if any
    const env = {
      holo_host_store_get: (labelPtr, bytesPP, lenP) => this.#storeGet(labelPtr, bytesPP, lenP),
      holo_host_store_put: (labelPtr, ptr, len) => this.#storePut(labelPtr, ptr, len),
      holo_host_sha256: (partsPtr, n, outPtr) => this.#hostSha256(partsPtr, n, outPtr),
    };
    if (host.memory) env.memory = host.memory; // the threaded module imports its shared memory
    this.threads = 1;
    let instance;
    try {
      instance = new WebAssembly.Instance(module, { env });
    } catch (e) {
      throw new HologramError('ABI', `cannot instantiate the core module: ${e && e.message}`, { cause: e });
    }
    this.#raw = instance.exports;
    // Every export goes through a guard: a trap becomes HologramError('TRAP').
    const x = { memory: this.#raw.memory ?? host.memory };
    for (const [k, v] of Object.entries(this.#raw)) if (typeof v === 'function') x[k] = this.#guard(k, v);
    // wasm32 pointers come back as signed i32: above 2 GiB they would read as
    // negative offsets. The exports that return pointers are made unsigned.
    for (const k of POINTER_RESULTS) if (x[k]) { const f = x[k]; x[k] = (...a) => f(...a) >>> 0; }
    this.x = x;
    for (const f of ['holo_alloc', 'holo_free', 'holo_wasm_load', 'holo_wasm_execute', 'holo_wasm_layout']) {
      if (typeof x[f] !== 'function') throw new HologramError('ABI', `the core module lacks the export ${f}`);
    }
    for (const [k, i] of [['input', 0], ['view', 1], ['port', 2], ['counters', 3], ['error', 4]]) {
      if (x.holo_wasm_layout(i) !== LAYOUT[k]) throw new HologramError('ABI', `wasm layout of ${k} differs from the shim`);
    }
    this.hasRefine = typeof x.holo_wasm_has_refine === 'function' && x.holo_wasm_has_refine() === 1;
    // Host hashing only with a module that imports it (older builds do not) and agrees on holo_span.
    if (host && typeof host.sha256 === 'function' && x.holo_wasm_layout(8) === 8 &&
        WebAssembly.Module.imports(module).some((i) => i.module === 'env' && i.name === 'holo_host_sha256')) this.#sha256 = host.sha256;
    /** true: input labels of >= 2 KiB (HOLO_HASHER_MIN_BYTES) are hashed by the host's SHA-256 (same labels). */
    this.hostHash = this.#sha256 !== null;
    if (this.hasRefine) {
      for (const [k, i] of [['refineReport', 5], ['refineReportU64', 6], ['refineArgs', 7]]) {
        if (x.holo_wasm_layout(i) !== LAYOUT[k]) throw new HologramError('ABI', `wasm layout of ${k} differs from the shim`);
      }
    }
  }

  /** Starts the worker pool of the threaded module: n threads in all (this one included). */
  async startThreads(n, startPool) {
    if (n <= 1) return;
    this.#pool = await startPool(this.#module, this.x.memory, this.x, n);
    this.threads = 1 + (await this.#pool.ready);
    if (this.threads < n) this.threadsUnavailable = `${n - this.threads} of ${n - 1} workers did not start: ${this.#pool.errors.join('; ') || 'unknown'}`;
  }

  /** Pool statistics of the threaded module: workers started, tasks they ran, parallel jobs. */
  get poolStats() {
    if (typeof this.x.holo_pool_stat !== 'function') return null;
    return { started: this.x.holo_pool_stat(0), workerTasks: this.x.holo_pool_stat(1), jobs: this.x.holo_pool_stat(2), errors: this.#pool ? this.#pool.errors : [] };
  }

  /** Stops the worker pool (idempotent). Sessions keep working on one thread. */
  dispose() {
    if (this.#pool) this.#pool.dispose();
    this.#pool = null;
    this.threads = 1;
  }

  /** null, or why this instance is unusable (a trap left its state undefined). */
  get poisoned() { return this.#poisoned; }

  #guard(name, fn) {
    return (...args) => {
      if (this.#poisoned) throw new HologramError('TRAP', `the module instance is unusable after an earlier trap (${this.#poisoned}); load the archive again`);
      try {
        return fn(...args);
      } catch (e) {
        if (e instanceof HologramError) throw e;
        this.#poisoned = `${name}: ${e && e.message}`;
        throw new HologramError('TRAP', `wasm trap in ${name}: ${e && e.message}; this module instance is no longer usable`, { cause: e });
      }
    };
  }

  get mem() { return this.x.memory.buffer; }
  dv() { return new DataView(this.x.memory.buffer); }
  u32(p) { return this.dv().getUint32(p, true); }
  cstr(p, n) {
    const b = new Uint8Array(this.mem, p);
    if (n === undefined) { n = 0; while (n < b.length && b[n]) n++; }
    return utf8.decode(b.slice(0, n));
  }
  alloc(n, align = 16) {
    const p = this.x.holo_alloc(Math.max(n, 1), align);
    if (!p) throw new HologramError('MEMORY', `wasm heap exhausted allocating ${n} bytes`);
    return p;
  }
  copyIn(bytes, align = 64) {
    const p = this.alloc(bytes.byteLength, align);
    new Uint8Array(this.mem, p, bytes.byteLength).set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return p;
  }
  error(errPtr, status) {
    const code = STATUS[status] ?? 'UNKNOWN';
    const e = new HologramError(code, this.cstr(errPtr + 4) || `hologram-exec error ${code}`);
    e.status = status;
    return e;
  }

  // Host callbacks: never let an exception unwind through wasm frames.
  #storeGet(labelPtr, bytesPP, lenP) {
    if (!this.store) return 1;
    try {
      let got = this.store.get(this.cstr(labelPtr, LABEL_LEN));
      if (got == null) return 1;
      if (got instanceof ArrayBuffer) got = new Uint8Array(got);
      if (!(got instanceof Uint8Array)) throw new TypeError('warmStore.get must return a Uint8Array or undefined');
      const p = this.#raw.holo_alloc(Math.max(got.byteLength, 1), 16);
      if (!p) return 1;
      new Uint8Array(this.mem, p, got.byteLength).set(got);
      const dv = this.dv();
      dv.setUint32(bytesPP, p, true);
      dv.setUint32(lenP, got.byteLength, true);
      return 0;
    } catch (e) {
      this.storeError = e;
      return 1;
    }
  }
  // SHA-256 of the holo_span parts [{u32 ptr, u32 len}] straight out of wasm memory; 0 = ok.
  #hostSha256(partsPtr, n, outPtr) {
    if (!this.#sha256) return 1;
    try {
      const mem = this.mem, dv = new DataView(mem), h = this.#sha256('sha256');
      for (let i = 0; i < n; i++) {
        const len = dv.getUint32(partsPtr + 8 * i + 4, true);
        if (len) h.update(new Uint8Array(mem, dv.getUint32(partsPtr + 8 * i, true), len));
      }
      const d = h.digest();
      if (d.length !== 32) return 1;
      new Uint8Array(mem, outPtr, 32).set(d);
      return 0;
    } catch {
      return 1; // the core hashes instead
    }
  }
  #storePut(labelPtr, ptr, len) {
    if (!this.store) return 1;
    try {
      this.store.put(this.cstr(labelPtr, LABEL_LEN), new Uint8Array(this.mem, ptr, len).slice());
      return 0;
    } catch (e) {
      this.storeError = e;
      return 1;
    }
  }

  /**
   * Loads a .holo archive into this instance. options: { memoryBudget,
   * warmStore, trustStore, verifyConstants, warmCone }. The archive is copied
   * into wasm memory (64-aligned) and its constants are used in place there.
   */
  load(holoBytes, options = {}, owned = false) {
    checkOptions(options);
    if (this.#poisoned) throw new HologramError('TRAP', `the module instance is unusable after an earlier trap (${this.#poisoned})`);
    let bytes;
    if (holoBytes instanceof Uint8Array) bytes = holoBytes;
    else if (isBuffer(holoBytes)) bytes = new Uint8Array(holoBytes);
    else if (ArrayBuffer.isView(holoBytes)) bytes = new Uint8Array(holoBytes.buffer, holoBytes.byteOffset, holoBytes.byteLength);
    else throw new HologramError('ARG', 'load: the archive must be bytes (Uint8Array, ArrayBuffer or a typed array)');
    const budget = toU64(options.memoryBudget, 'memoryBudget');
    const flags = (options.trustStore ? 1 : 0) | (options.verifyConstants ? 2 : 0) | (options.warmCone === false ? 4 : 0);
    const store = options.warmStore ?? null;
    const arch = this.copyIn(bytes, 64);
    let err;
    try {
      err = this.alloc(LAYOUT.error);
    } catch (e) {
      this.x.holo_free(arch);
      throw e;
    }
    this.store = store;
    let w;
    try {
      w = this.x.holo_wasm_load(arch, bytes.byteLength, Number(budget & 0xffffffffn), Number(budget >> 32n), flags, (store ? 1 : 0) | (this.hostHash ? 2 : 0), err);
    } finally {
      this.store = null;
    }
    if (!w) {
      const e = this.error(err, this.u32(err) || 5);
      this.x.holo_free(err);
      this.x.holo_free(arch);
      throw e;
    }
    return new Session(this, w, arch, err, store, budget, owned);
  }
}

const isTensorObject = (t) => t !== null && typeof t === 'object' && !ArrayBuffer.isView(t) && !isBuffer(t) && !Array.isArray(t) && 'data' in t;

function arrayName(A) { return A === Uint8Array ? 'Uint8Array' : A.name; }

/** Bytes of one input, checked against its port. */
function inputBytes(t, port, i) {
  const where = `input ${i} (${port.name})`;
  if (t === undefined || t === null) throw new HologramError('INPUT', `${where}: missing`);
  let data = t, shape, dtype;
  if (isTensorObject(t)) {
    data = t.data;
    shape = t.shape ?? t.dims;
    dtype = t.dtype;
    if (dtype !== undefined && dtype !== port.dtype) throw new HologramError('INPUT', `${where}: dtype '${dtype}' does not match the port's dtype '${port.dtype}'`);
  }
  const A = ARRAYS[port.dtypeCode];
  let bytes;
  if (isBuffer(data)) bytes = new Uint8Array(data);
  else if (data instanceof Uint8Array || data instanceof DataView) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else if (ArrayBuffer.isView(data)) {
    const ok = data.constructor === A || (port.dtype === 'float16' && typeof Float16Array !== 'undefined' && data instanceof Float16Array) || (port.dtypeCode === 2 && data instanceof Uint8ClampedArray);
    if (!ok) throw new HologramError('INPUT', `${where}: a ${data.constructor.name} does not match dtype ${port.dtype} (pass a ${arrayName(A)}, or raw bytes as a Uint8Array)`);
    bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else if (Array.isArray(data)) {
    if (!A || port.dtype === 'float16') throw new HologramError('INPUT', `${where}: a plain array cannot be converted to dtype ${port.dtype}; pass bytes`);
    try {
      const big = A === BigInt64Array || A === BigUint64Array;
      bytes = new Uint8Array(A.from(data, big ? (v) => BigInt(v) : Number).buffer);
    } catch (e) {
      throw new HologramError('INPUT', `${where}: cannot convert the array to ${port.dtype}: ${e.message}`);
    }
  } else {
    throw new HologramError('INPUT', `${where}: expected bytes, a typed array, an array or { data, shape }`);
  }
  if (shape !== undefined && shape !== null) {
    if (!Array.isArray(shape) && !ArrayBuffer.isView(shape)) throw new HologramError('INPUT', `${where}: shape must be an array`);
    shape = Array.from(shape);
    if (shape.length > MAX_RANK) throw new HologramError('INPUT', `${where}: rank ${shape.length} exceeds ${MAX_RANK}`);
    for (const d of shape) {
      const ok = typeof d === 'bigint' ? d >= 0n : Number.isSafeInteger(d) && d >= 0;
      if (!ok) throw new HologramError('INPUT', `${where}: shape [${shape}] has an invalid dimension ${String(d)}`);
    }
  } else shape = undefined;
  return { bytes, shape };
}

function tensorOf(rt, r, copy) {
  const A = ARRAYS[r.dtypeCode] ?? Uint8Array;
  const dtype = DTYPES[r.dtypeCode] ?? String(r.dtypeCode);
  let data;
  if (!copy && r.ptr % A.BYTES_PER_ELEMENT === 0 && r.byteLength % A.BYTES_PER_ELEMENT === 0) data = new A(rt.mem, r.ptr, r.byteLength / A.BYTES_PER_ELEMENT);
  else {
    const c = new Uint8Array(rt.mem, r.ptr, r.byteLength).slice();
    data = c.byteLength % A.BYTES_PER_ELEMENT === 0 ? new A(c.buffer) : c;
  }
  return { data, dtype, shape: r.shape, label: r.label };
}

function readReport(rt, p) {
  const dv = rt.dv();
  const status = dv.getUint32(p, true);
  const nState = Math.min(dv.getUint32(p + 12, true), MAX_STATE);
  const q = p + LAYOUT.refineReportU64;
  const u64 = (k) => Number(dv.getBigUint64(q + 8 * k, true));
  return {
    status: REFINE_STATUS[status] ?? String(status),
    converged: status === 0 || status === 2,
    passes: dv.getUint32(p + 4, true),
    extraPassesUsed: dv.getUint32(p + 8, true),
    stateLabels: Array.from({ length: nState }, (_, k) => rt.cstr(p + 16 + (LABEL_LEN + 1) * k, LABEL_LEN)),
    dispatches: u64(0), elided: u64(1), memoHits: u64(2), bytesCompared: u64(3),
    residentBytes: u64(4), residentCount: dv.getUint32(q + 40, true),
    outputs: [],
  };
}

// Generation: session -> prompt-cache pointer; generator object -> { rt, ptr() }.
const PCACHE = new WeakMap();
const GENS = new WeakMap();

/** A loaded archive. Not constructed directly: see load(). */
class Session {
  #rt; #w; #arch; #err; #store; #s; #budget; #owned; #retain = 64 * 1024 * 1024;
  constructor(rt, w, arch, err, store, budget, owned) {
    this.#rt = rt; this.#w = w; this.#arch = arch; this.#err = err; this.#store = store; this.#budget = budget; this.#owned = owned;
    this.#s = rt.x.holo_wasm_session(w);
    this.inputs = Object.freeze(this.#ports(true));
    this.outputs = Object.freeze(this.#ports(false));
    this.backend = rt.variant;
    this.backendIdentity = rt.cstr(rt.x.holo_wasm_backend_identity(w));
    this.archiveLabel = rt.cstr(rt.x.holo_session_archive_label(this.#s), LABEL_LEN);
  }

  #live() {
    if (!this.#w) throw new HologramError('DISPOSED', 'the session is disposed');
    const rt = this.#rt;
    if (rt.poisoned) throw new HologramError('TRAP', `the session is unusable after a trap in its module instance (${rt.poisoned}); load the archive again`);
    return rt;
  }

  #ports(input) {
    const rt = this.#rt, x = rt.x;
    const n = input ? x.holo_session_input_count(this.#s) : x.holo_session_output_count(this.#s);
    const info = rt.alloc(LAYOUT.port);
    const out = [];
    try {
      for (let i = 0; i < n; i++) {
        (input ? x.holo_session_input_info : x.holo_session_output_info)(this.#s, i, info);
        const dv = rt.dv();
        const rank = dv.getUint32(info + 12, true);
        const shape = rank === 255 ? null : Object.freeze(Array.from({ length: rank }, (_, d) => {
          const v = Number(dv.getBigInt64(info + 16 + 8 * d, true));
          return v < 0 ? rt.cstr(dv.getUint32(info + 80 + 4 * d, true), dv.getUint32(info + 112 + 4 * d, true)) : v;
        }));
        const dtypeCode = dv.getUint32(info + 8, true);
        out.push(Object.freeze({ name: rt.cstr(dv.getUint32(info, true), dv.getUint32(info + 4, true)), dtype: DTYPES[dtypeCode] ?? String(dtypeCode), dtypeCode, shape }));
      }
    } finally {
      x.holo_free(info);
    }
    return out;
  }

  #ordered(inputs, what) {
    if (Array.isArray(inputs)) return inputs;
    if (inputs !== null && typeof inputs === 'object' && !ArrayBuffer.isView(inputs)) return this.#byName(inputs, what);
    throw new HologramError('INPUT', `${what}: inputs must be an array in port order or an object of named feeds`);
  }

  #byName(feeds, what) {
    if (feeds === null || typeof feeds !== 'object' || Array.isArray(feeds)) throw new HologramError('INPUT', `${what}: feeds must be an object { inputName: tensor }`);
    const get = feeds instanceof Map ? (k) => feeds.get(k) : (k) => (Object.prototype.hasOwnProperty.call(feeds, k) ? feeds[k] : undefined);
    const keys = feeds instanceof Map ? [...feeds.keys()] : Object.keys(feeds);
    for (const k of keys) if (!this.inputs.some((p) => p.name === k)) throw new HologramError('INPUT', `${what}: unknown input '${k}' (inputs: ${this.inputs.map((p) => p.name).join(', ')})`);
    return this.inputs.map((p) => {
      const t = get(p.name);
      if (t === undefined) throw new HologramError('INPUT', `${what}: missing feed for input '${p.name}'`);
      return t;
    });
  }

  /** Writes holo_input[] for `inputs`; returns [array pointer, pointers to free]. */
  #marshal(rt, inputs, what) {
    const ports = this.inputs;
    if (inputs.length !== ports.length) throw new HologramError('INPUT', `${what}: expected ${ports.length} input${ports.length === 1 ? '' : 's'} (${ports.map((p) => p.name).join(', ')}), got ${inputs.length}`);
    const prepared = inputs.map((t, i) => inputBytes(t, ports[i], i));
    const owned = [];
    try {
      const inArr = rt.alloc(LAYOUT.input * Math.max(prepared.length, 1));
      owned.push(inArr);
      prepared.forEach(({ bytes, shape }, i) => {
        const p = rt.copyIn(bytes, 64); owned.push(p);
        let shapePtr = 0;
        if (shape) {
          shapePtr = rt.alloc(8 * Math.max(shape.length, 1), 8); owned.push(shapePtr);
          const dv = rt.dv();
          shape.forEach((d, k) => dv.setBigInt64(shapePtr + 8 * k, BigInt(d), true));
        }
        const dv = rt.dv();
        dv.setUint32(inArr + 16 * i, p, true);
        dv.setUint32(inArr + 16 * i + 4, bytes.byteLength, true);
        dv.setUint32(inArr + 16 * i + 8, shapePtr, true);
        dv.setUint32(inArr + 16 * i + 12, shape ? shape.length : 0, true);
      });
      return [inArr, owned];
    } catch (e) {
      if (!rt.poisoned) for (const p of owned) rt.x.holo_free(p);
      throw e;
    }
  }

  #views(rt, views, n) {
    const dv = rt.dv();
    const res = [];
    for (let k = 0; k < n; k++) {
      const v = views + LAYOUT.view * k;
      const rank = dv.getUint32(v + 84, true);
      res.push({
        label: rt.cstr(v, LABEL_LEN),
        ptr: dv.getUint32(v + 72, true),
        byteLength: dv.getUint32(v + 76, true),
        dtypeCode: dv.getUint32(v + 80, true),
        shape: Array.from({ length: rank }, (_, d) => Number(dv.getBigInt64(v + 88 + 8 * d, true))),
      });
    }
    return res;
  }

  /** Runs `call(inArr, nIn, views, nOut, extra)` with the warm store attached; frees its scratch. */
  #call(inputs, what, call, extraBytes = 0, copy = true, after = null) {
    const rt = this.#live(), x = rt.x;
    const [inArr, owned] = this.#marshal(rt, inputs, what);
    const nOut = this.outputs.length;
    try {
      const views = rt.alloc(LAYOUT.view * Math.max(nOut, 1)); owned.push(views);
      const extra = extraBytes ? rt.alloc(extraBytes, 16) : 0; if (extra) owned.push(extra);
      rt.store = this.#store;
      rt.storeError = null;
      let st;
      try {
        st = call(inArr, inputs.length, views, nOut, extra);
      } finally {
        rt.store = null;
      }
      if (st !== 0) throw rt.error(this.#err, st);
      if (after) after(extra);
      return { outs: this.#views(rt, views, nOut).map((r) => tensorOf(rt, r, copy)) };
    } finally {
      if (!rt.poisoned) for (const p of owned) x.holo_free(p);
    }
  }

  /** Executes with inputs in port order; returns owned outputs { data, dtype, shape, label }. */
  execute(inputs) {
    return this.#call(this.#ordered(inputs, 'execute'), 'execute', (i, n, v, m) => this.#rt.x.holo_wasm_execute(this.#w, i, n, v, m, this.#err)).outs;
  }

  /**
   * Executes and returns labels with zero-copy views into wasm memory. A view
   * is valid until the next call into this session's module instance (any
   * execute, run, refine, load or dispose on it, which may reuse the buffer or
   * grow memory, detaching the view); copy it to keep it.
   */
  executeAddressed(inputs) {
    return this.#call(this.#ordered(inputs, 'executeAddressed'), 'executeAddressed', (i, n, v, m) => this.#rt.x.holo_wasm_execute(this.#w, i, n, v, m, this.#err), 0, false).outs;
  }

  /** Named feeds, as in ONNX Runtime: run({ x: { data, shape } }) -> { y: { data, dtype, shape, label } }. */
  run(feeds) {
    this.#live();
    const outs = this.execute(this.#byName(feeds, 'run'));
    return Object.fromEntries(this.outputs.map((p, i) => [p.name, outs[i]]));
  }

  /**
   * Iterates the archive to a fixed point: each pass's state outputs become
   * the next pass's state inputs. `state` holds every input (port order or
   * named), state inputs carrying the initial state. Returns the report.
   */
  refine(plan, state) {
    const rt = this.#live();
    if (!rt.hasRefine) throw new HologramError('UNSUPPORTED', 'refinement is not compiled into this core module');
    const a = this.#plan(plan);
    const reportOff = LAYOUT.refineArgs + ((16 - (LAYOUT.refineArgs % 16)) % 16);
    let report;
    const { outs } = this.#call(this.#ordered(state, 'refine'), 'refine', (i, n, v, m, extra) => {
      const dv = rt.dv();
      new Uint8Array(rt.mem, extra, reportOff + LAYOUT.refineReport).fill(0);
      const head = [a.passBudget, a.validators, a.repair, a.extraPasses, a.contract ? 1 : 0, a.contract ? a.contract.inputs.length : 0];
      head.forEach((v, k) => dv.setUint32(extra + 4 * k, v, true));
      if (a.contract) {
        a.contract.inputs.forEach((p, k) => dv.setUint32(extra + 24 + 4 * k, p, true));
        a.contract.outputs.forEach((p, k) => dv.setUint32(extra + 24 + 4 * MAX_STATE + 4 * k, p, true));
      }
      return rt.x.holo_wasm_refine(this.#w, extra, i, n, extra + reportOff, v, m, this.#err);
    }, reportOff + LAYOUT.refineReport, true, (extra) => { report = readReport(rt, extra + reportOff); });
    report.outputs = outs;
    return report;
  }

  #plan(plan) {
    if (plan === null || typeof plan !== 'object') throw new HologramError('ARG', 'refine: plan must be an object { passBudget, validators?, repair?, contract? }');
    const known = new Set(['passBudget', 'validators', 'repair', 'contract']);
    for (const k of Object.keys(plan)) if (!known.has(k)) throw new HologramError('ARG', `refine: unknown plan field '${k}'`);
    const passBudget = plan.passBudget;
    if (!Number.isInteger(passBudget) || passBudget < 1 || passBudget > 0xffffffff) throw new HologramError('ARG', `refine: passBudget must be a positive integer, got ${String(passBudget)}`);
    let validators = 0;
    for (const v of plan.validators ?? ['stableLabels']) {
      if (!(v in VALIDATORS)) throw new HologramError('ARG', `refine: unknown validator '${v}' (stableLabels, stableBytes)`);
      validators |= VALIDATORS[v];
    }
    let repair = 0, extraPasses = 0;
    const r = plan.repair ?? 'none';
    if (r !== 'none') {
      const n = r && typeof r === 'object' ? r.retryPass : undefined;
      if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new HologramError('ARG', "refine: repair must be 'none' or { retryPass: n } with n a non-negative integer");
      repair = 1; extraPasses = n;
    }
    let contract = null;
    if (plan.contract !== undefined) {
      const c = plan.contract;
      if (!c || !Array.isArray(c.inputs) || !Array.isArray(c.outputs) || c.inputs.length !== c.outputs.length || c.inputs.length > MAX_STATE) {
        throw new HologramError('ARG', `refine: contract must be { inputs: [...], outputs: [...] } of equal length (at most ${MAX_STATE})`);
      }
      const idx = (list, ports, kind) => list.map((p) => {
        const i = typeof p === 'string' ? ports.findIndex((q) => q.name === p) : p;
        if (!Number.isInteger(i) || i < 0 || i >= ports.length) throw new HologramError('ARG', `refine: contract names no ${kind} ${JSON.stringify(p)}`);
        return i;
      });
      contract = { inputs: idx(c.inputs, this.inputs, 'input'), outputs: idx(c.outputs, this.outputs, 'output') };
    }
    return { passBudget, validators, repair, extraPasses, contract };
  }

  get inputCount() { this.#live(); return this.inputs.length; }
  get outputCount() { this.#live(); return this.outputs.length; }
  get kernelCount() { return this.#live().x.holo_session_kernel_count(this.#s); }
  get residentBytes() { return Number(this.#live().x.holo_session_resident_bytes(this.#s)); }
  get residentCount() { return this.#live().x.holo_session_resident_count(this.#s); }
  get contentStoreLen() { return this.#live().x.holo_session_content_store_len(this.#s); }
  /** The last exception the warm store threw during a call (treated as a miss / failed put), or null. */
  get storeError() { return this.#live().storeError; }
  get counters() {
    const rt = this.#live();
    const p = rt.alloc(LAYOUT.counters, 8);
    try {
      rt.x.holo_session_counters(this.#s, p);
      const dv = rt.dv();
      return Object.fromEntries(COUNTERS.map((k, i) => [k, Number(dv.getBigUint64(p + 8 * i, true))]));
    } finally {
      if (!rt.poisoned) rt.x.holo_free(p);
    }
  }

  /** The bound on transient bytes (0: unbounded). */
  get memoryBudget() { this.#live(); return Number(this.#budget); }
  set memoryBudget(bytes) { this.setMemoryBudget(bytes); }
  setMemoryBudget(bytes) {
    const rt = this.#live();
    const b = toU64(bytes, 'memoryBudget');
    const st = rt.x.holo_wasm_set_memory_budget(this.#w, Number(b & 0xffffffffn), Number(b >> 32n));
    if (st !== 0) throw new HologramError(STATUS[st] ?? 'UNKNOWN', `setMemoryBudget(${b}) failed`);
    this.#budget = b;
  }

  /**
   * Bytes of dead values kept resident as a cache for elision and memo hits
   * (least recently used evicted first). Default 64 MiB; Infinity keeps all
   * the memory budget allows; 0 keeps none (repeats then recompute).
   */
  get retainBytes() { this.#live(); return this.#retain; }
  set retainBytes(bytes) { this.setRetainBytes(bytes); }
  setRetainBytes(bytes) {
    const rt = this.#live();
    if (typeof rt.x.holo_wasm_set_retain_bytes !== 'function') throw new HologramError('UNSUPPORTED', 'this core module cannot change the retained bytes (rebuild it)');
    const b = bytes === Infinity ? (1n << 64n) - 1n : toU64(bytes, 'retainBytes');
    const st = rt.x.holo_wasm_set_retain_bytes(this.#w, Number(b & 0xffffffffn), Number(b >> 32n));
    if (st !== 0) throw new HologramError(STATUS[st] ?? 'UNKNOWN', `setRetainBytes(${b}) failed`);
    this.#retain = bytes === Infinity ? Infinity : Number(b);
  }

  /** Re-hashes every constant against its stored label; FORMAT error on a mismatch. */
  verify() {
    const rt = this.#live();
    const st = rt.x.holo_session_verify_constants(this.#s, this.#err);
    if (st !== 0) throw rt.error(this.#err, st);
    return true;
  }

  /**
   * Autoregressive generation over a causal step graph (docs/generation.md):
   * the prompt is prefilled (K tokens per execution for a K-token sequence
   * model), then up to maxTokens are sampled.
   * opts: { maxTokens, stopToken, seed, sampler: { kind: 'greedy'|'default'|'mirostat',
   * temperature, topK, topP, minP, repetitionPenalty, frequencyPenalty, presencePenalty,
   * penaltyWindow, tau, eta }, model: { tokenInput, positionInput, logitsOutput, maskedState,
   * contentState }, (maskedState: the state's rows past the position are masked, so the
   * generator may rewind; contentState: label each state by a SHA-256 of its bytes),
   * onToken, promptCache, speculative }.
   * onToken(token, index) returning false stops. promptCache: true (or
   * { maxBytes, maxEntries } for the first use) restores the longest cached
   * prefix of the prompt from this session's prompt cache (setPromptCache) and
   * records the prompt. speculative: { draft: Session (same module instance,
   * see init()), k, model } — greedy speculative decoding, output identical to
   * greedy; onToken is then called after the run. Returns { tokens, stats
   * (+ prefillTokens, prefillReused, prefillComputed), speculative? }.
   */
  generate(prompt, opts = {}) {
    const toks = this.#genPrompt(prompt, 'generate');
    const known = new Set(['maxTokens', 'stopToken', 'seed', 'sampler', 'model', 'onToken', 'promptCache', 'speculative']);
    for (const k of Object.keys(opts)) if (!known.has(k)) throw new HologramError('ARG', `generate: unknown option '${k}'`);
    const maxTokens = opts.maxTokens ?? 16;
    if (!Number.isInteger(maxTokens) || maxTokens < 0) throw new HologramError('ARG', 'generate: maxTokens must be a non-negative integer');
    const stop = opts.stopToken ?? -1;
    const sp = opts.speculative;
    if (sp !== undefined && sp !== null) {
      if (typeof sp !== 'object' || !(sp.draft instanceof Session)) throw new HologramError('ARG', 'generate: speculative must be { draft: Session, k?, model? }');
      if ((opts.sampler?.kind ?? 'greedy') !== 'greedy') throw new HologramError('ARG', "generate: speculative decoding is greedy (sampler kind 'greedy')");
    }
    const g = this.generator(opts);
    let d = null;
    try {
      const pre = g.prefill(toks, { promptCache: opts.promptCache ?? false });
      const tokens = [];
      let spec;
      if (sp) {
        d = sp.draft.generator({ sampler: { kind: 'greedy' }, model: sp.model ?? opts.model });
        d.prefill(toks);
        spec = g.speculate(d, { k: sp.k, maxTokens, stopToken: stop });
        for (let i = 0; i < spec.tokens.length; i++) {
          tokens.push(spec.tokens[i]);
          if (opts.onToken && opts.onToken(spec.tokens[i], i) === false) break;
        }
        delete spec.tokens;
      } else {
        for (let i = 0; i < maxTokens; i++) {
          const t = g.sample();
          if (t === stop) break;
          g.feed(t);
          tokens.push(t);
          if (opts.onToken && opts.onToken(t, i) === false) break;
        }
      }
      const stats = { ...g.stats, prefillTokens: toks.length, prefillReused: pre.reused, prefillComputed: pre.computed };
      return spec ? { tokens, stats, speculative: spec } : { tokens, stats };
    } finally {
      g.free();
      if (d) d.free();
    }
  }

  /**
   * The session's prompt cache (docs/generation.md, "Prompt cache"): prompt
   * prefix -> state labels + logits, held in this session (immune to the
   * retain cache's eviction), bounded by maxBytes (state + logits bytes; least
   * recently used prefixes evicted first) and maxEntries, and written through
   * the session's warmStore (if any) so that a new process starts warm.
   * null drops it. Defaults: maxBytes 64 MiB, maxEntries 64.
   */
  setPromptCache(opts = {}) {
    const rt = this.#live();
    this.#dropPromptCache();
    if (opts === null) return;
    if (typeof opts !== 'object') throw new HologramError('ARG', 'setPromptCache: options must be an object { maxBytes, maxEntries } or null');
    for (const k of Object.keys(opts)) if (k !== 'maxBytes' && k !== 'maxEntries') throw new HologramError('ARG', `setPromptCache: unknown option '${k}'`);
    if (typeof rt.x.holo_wasm_pcache_new !== 'function') throw new HologramError('UNSUPPORTED', 'the prompt cache is not compiled into this core module');
    const maxEntries = opts.maxEntries ?? 64;
    if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > 1 << 20) throw new HologramError('ARG', 'setPromptCache: maxEntries must be an integer from 1 to 1048576');
    const b = toU64(opts.maxBytes ?? 64 * 1024 * 1024, 'maxBytes');
    if (b === 0n) throw new HologramError('ARG', 'setPromptCache: maxBytes must be positive');
    const p = rt.x.holo_wasm_pcache_new(maxEntries, Number(b & 0xffffffffn), Number(b >> 32n), this.#store ? 1 : 0, this.#err);
    if (!p) throw rt.error(this.#err, rt.u32(this.#err) || 5);
    PCACHE.set(this, p);
  }

  /**
   * Prompt-cache counters ({ lookups, hits, misses, tokensReused, inserts, evictions, storeHits, storePuts,
   * storeCorrupt, bytes, entries, maxBytes }) or null. storeCorrupt: prefixes found in the warm store and
   * refused (a manifest with a bad digest or structure, or a state record it names missing or not what it
   * names); each is also a miss, recomputed.
   */
  get promptCache() {
    const rt = this.#live();
    const p = PCACHE.get(this);
    if (!p) return null;
    const o = rt.alloc(96, 8);
    try {
      rt.x.holo_wasm_pcache_stats(p, o);
      const dv = rt.dv();
      // the export's slot order (gen-exports.c: storeCorrupt was appended)
      const K = ['lookups', 'hits', 'misses', 'tokensReused', 'inserts', 'evictions', 'storeHits', 'storePuts', 'bytes', 'entries', 'maxBytes', 'storeCorrupt'];
      const v = Object.fromEntries(K.map((k, i) => [k, Number(dv.getBigUint64(o + 8 * i, true))]));
      const { bytes, entries, maxBytes, storeCorrupt, ...counts } = v;
      return { ...counts, storeCorrupt, bytes, entries, maxBytes };
    } finally {
      if (!rt.poisoned) rt.x.holo_free(o);
    }
  }

  #dropPromptCache() {
    const p = PCACHE.get(this);
    if (!p) return;
    PCACHE.delete(this);
    if (this.#w && !this.#rt.poisoned) this.#rt.x.holo_wasm_pcache_free(p);
  }

  /** Runs fn with this session's warm store attached (prompt-cache reads and writes). */
  #withStore(fn) {
    const rt = this.#rt;
    rt.store = this.#store;
    rt.storeError = null;
    try {
      return fn();
    } finally {
      rt.store = null;
    }
  }

  #genPrompt(prompt, what) {
    this.#live();
    if (!Array.isArray(prompt) && !ArrayBuffer.isView(prompt)) throw new HologramError('ARG', `${what}: prompt must be an array of token ids`);
    const toks = Array.from(prompt, Number);
    if (!toks.length) throw new HologramError('ARG', `${what}: the prompt needs at least one token`);
    for (const t of toks) if (!Number.isInteger(t) || t < 0 || t > 0xffffffff) throw new HologramError('ARG', `${what}: bad token ${t}`);
    return toks;
  }

  /**
   * The step API under generate(): a generator over this session with its own
   * sampler (opts: seed, sampler, model as for generate). Returns
   * { feed(token), sample() -> token (not fed), mark(), stats, vocab, free() };
   * one synchronous step per call, so a page can drive it from its event loop.
   * free() it (generate() does); a freed or disposed-session generator throws.
   */
  generator(opts = {}) {
    const rt = this.#live();
    const x = rt.x;
    if (typeof x.holo_wasm_gen_new !== 'function') throw new HologramError('UNSUPPORTED', 'generation is not compiled into this core module');
    const sm = opts.sampler ?? {};
    const KINDS = { greedy: 0, default: 1, mirostat: 2 };
    const kind = sm.kind ?? (sm.tau !== undefined ? 'mirostat' : 'default');
    if (!(kind in KINDS)) throw new HologramError('ARG', `generate: unknown sampler kind '${kind}' (greedy, default, mirostat)`);
    const md = opts.model ?? {};
    const port = (v, def, list, what) => {
      if (v === undefined) return def;
      if (typeof v === 'string') {
        const i = list.findIndex((p) => p.name === v);
        if (i < 0) throw new HologramError('ARG', `generate: no ${what} named ${JSON.stringify(v)}`);
        return i;
      }
      return v;
    };
    const seed = toU64(opts.seed ?? 0, 'seed');
    const args = rt.alloc(64);
    const outp = rt.alloc(64);
    const err = this.#err;
    let g = 0;
    const freeBufs = () => { if (!rt.poisoned) { x.holo_free(args); x.holo_free(outp); } };
    try {
      const dv = rt.dv();
      dv.setUint32(args, port(md.tokenInput, 0, this.inputs, 'input'), true);
      dv.setInt32(args + 4, md.positionInput === undefined || md.positionInput === null ? -1 : port(md.positionInput, -1, this.inputs, 'input'), true);
      dv.setUint32(args + 8, port(md.logitsOutput, 0, this.outputs, 'output'), true);
      dv.setUint32(args + 12, KINDS[kind], true);
      dv.setFloat32(args + 16, sm.temperature ?? 1, true);
      dv.setUint32(args + 20, sm.topK ?? 0, true);
      dv.setFloat32(args + 24, sm.topP ?? 1, true);
      dv.setFloat32(args + 28, sm.minP ?? 0, true);
      dv.setFloat32(args + 32, sm.repetitionPenalty ?? 1, true);
      dv.setFloat32(args + 36, sm.frequencyPenalty ?? 0, true);
      dv.setFloat32(args + 40, sm.presencePenalty ?? 0, true);
      dv.setUint32(args + 44, sm.penaltyWindow ?? 64, true);
      dv.setFloat32(args + 48, sm.tau ?? 5, true);
      dv.setFloat32(args + 52, sm.eta ?? 0.1, true);
      dv.setUint32(args + 56, Number(seed & 0xffffffffn), true);
      dv.setUint32(args + 60, Number(seed >> 32n), true);
      g = x.holo_wasm_gen_new(this.#w, args, err);
      if (!g) throw rt.error(err, rt.dv().getUint32(err, true) || 5);
      if (md.maskedState) {
        if (typeof x.holo_wasm_gen_set_masked !== 'function') throw new HologramError('UNSUPPORTED', 'maskedState needs a newer core module');
        x.holo_wasm_gen_set_masked(g, 1);
      }
      if (md.contentState) {
        if (typeof x.holo_wasm_gen_set_content !== 'function') throw new HologramError('UNSUPPORTED', 'contentState needs a newer core module');
        x.holo_wasm_gen_set_content(g, 1);
      }
    } catch (e) {
      if (g && !rt.poisoned) x.holo_wasm_gen_free(g);
      freeBufs();
      throw e;
    }
    const live = () => { this.#live(); if (!g) throw new HologramError('DISPOSED', 'generator was freed'); };
    const check = (st) => { if (st !== 0) throw rt.error(err, st); };
    const session = this;
    const api = {
      feed(t) {
        live();
        if (!Number.isInteger(t) || t < 0 || t > 0xffffffff) throw new HologramError('ARG', `generate: bad token ${t}`);
        check(x.holo_wasm_gen_feed(g, t, err));
      },
      sample() { live(); check(x.holo_wasm_gen_sample(g, outp, err)); return rt.dv().getUint32(outp, true); },
      mark() { live(); x.holo_wasm_gen_mark(g); },
      get vocab() { live(); return x.holo_wasm_gen_vocab(g); },
      /** Tokens per execution (K for a K-token sequence model, else 1). */
      get seq() { live(); return typeof x.holo_wasm_gen_seq === 'function' ? x.holo_wasm_gen_seq(g) : 1; },
      /** Tokens fed so far (the next token's position). */
      get position() { live(); return x.holo_wasm_gen_pos(g); },
      get stats() {
        live();
        const two = typeof x.holo_wasm_gen_stats2 === 'function';
        (two ? x.holo_wasm_gen_stats2 : x.holo_wasm_gen_stats)(g, outp);
        const d2 = rt.dv();
        const u = (k) => Number(d2.getBigUint64(outp + 8 * k, true));
        const r = { steps: u(0), dispatches: u(1), memoHits: u(2), elided: u(3) };
        if (two) r.tokens = u(4);
        return r;
      },
      /**
       * Feeds the prompt (K tokens per execution for a sequence model) and marks
       * where generation starts. { promptCache: true | { maxBytes, maxEntries } }
       * restores the longest cached prefix first (the session's prompt cache,
       * created on first use) and records the prompt.
       * Returns { reused, computed } (tokens restored / fed through the model).
       */
      prefill(tokens, o = {}) {
        live();
        const toks = session.#genPrompt(tokens, 'prefill');
        const pc = o.promptCache ?? false;
        if (pc && !PCACHE.get(session)) session.setPromptCache(pc === true ? {} : pc);
        if (typeof x.holo_wasm_gen_prefill !== 'function') {
          if (pc) throw new HologramError('UNSUPPORTED', 'the prompt cache is not compiled into this core module');
          for (const t of toks) this.feed(t);
          this.mark();
          return { reused: 0, computed: toks.length };
        }
        const p = rt.alloc(4 * toks.length + 8);
        try {
          new Uint32Array(rt.mem, p, toks.length).set(toks);
          const rp = p + 4 * toks.length;
          rt.dv().setUint32(rp, 0, true);
          if (pc) check(session.#withStore(() => x.holo_wasm_gen_prefill_cached(g, PCACHE.get(session), p, toks.length, rp, err)));
          else check(x.holo_wasm_gen_prefill(g, p, toks.length, err));
          const reused = rt.dv().getUint32(rp, true);
          return { reused, computed: toks.length - reused };
        } finally {
          if (!rt.poisoned) x.holo_free(p);
        }
      },
      /** Forgets the last n fed tokens, keeping the state (sequence models, or model.maskedState). */
      rewind(n) {
        live();
        if (!Number.isInteger(n) || n < 0) throw new HologramError('ARG', 'rewind: n must be a non-negative integer');
        check(x.holo_wasm_gen_rewind(g, n, err));
      },
      /**
       * Greedy speculative decoding with `draft` (a generator of a session in the
       * same module instance, prefilled with the same prompt): up to k proposals
       * per round; a sequence-model target verifies them in one execution.
       * Returns { tokens, proposed, accepted, acceptance, rounds, targetSteps, draftSteps }.
       */
      speculate(draft, o = {}) {
        live();
        const dp = GENS.get(draft);
        if (!dp || dp.rt !== rt) throw new HologramError('ARG', 'speculate: the draft must be a live generator of a session in the same module instance (load both with one init())');
        const dg = dp.ptr();
        if (!dg) throw new HologramError('DISPOSED', 'the draft generator was freed');
        const k = o.k ?? 4, maxTokens = o.maxTokens ?? 16, stop = o.stopToken ?? -1;
        if (!Number.isInteger(k) || k < 1 || k > 64) throw new HologramError('ARG', 'speculate: k must be an integer from 1 to 64');
        if (!Number.isInteger(maxTokens) || maxTokens < 0 || maxTokens > 1 << 24) throw new HologramError('ARG', 'speculate: maxTokens must be a non-negative integer');
        if (!Number.isInteger(stop) || stop < -1 || stop > 0x7fffffff) throw new HologramError('ARG', 'speculate: stopToken must be a token id or -1');
        const buf = rt.alloc(4 * maxTokens + 64, 8);
        try {
          const rep = buf + 8, nOut = buf, out = buf + 48;
          check(x.holo_wasm_gen_speculative(g, dg, k, maxTokens, stop, out, maxTokens, nOut, rep, err));
          const dv = rt.dv();
          const n = Math.min(dv.getUint32(nOut, true), maxTokens);
          const u = (i) => Number(dv.getBigUint64(rep + 8 * i, true));
          const proposed = u(0), accepted = u(1);
          return { tokens: Array.from(new Uint32Array(rt.mem, out, n)), proposed, accepted, acceptance: proposed ? accepted / proposed : 0, rounds: u(2), targetSteps: u(3), draftSteps: u(4) };
        } finally {
          if (!rt.poisoned) x.holo_free(buf);
        }
      },
      free() {
        if (!g) return;
        if (!session.disposed && !rt.poisoned) x.holo_wasm_gen_free(g);
        freeBufs();
        g = 0;
      },
    };
    GENS.set(api, { rt, ptr: () => (session.disposed ? 0 : g) });
    return api;
  }

  get disposed() { return !this.#w; }

  /** Frees the session (idempotent). Later calls throw DISPOSED. */
  dispose() {
    if (!this.#w) return;
    const rt = this.#rt;
    this.#dropPromptCache(); // its entries hold values in the session
    if (!rt.poisoned) {
      rt.x.holo_wasm_free_session(this.#w);
      rt.x.holo_free(this.#arch);
      rt.x.holo_free(this.#err);
    }
    this.#w = 0;
    this.#store = null;
    if (this.#owned) rt.dispose(); // load()'s own instance: stop its workers
  }
}
if (typeof Symbol.dispose === 'symbol') Session.prototype[Symbol.dispose] = Session.prototype.dispose;
