// One instance of the core module: instantiation (env imports, every export
// guarded so a trap becomes an error), the layout check, memory access for
// the other modules, the threaded module's pool, and loading archives.
import { HologramError, statusCode, MEMORY_STATUS } from './errors.js';
import { checkOptions, halves, isBuffer, toU64 } from './args.js';
import { checkLayout, CONST, Struct } from './layout.js';
import { hostImports } from './host.js';
import { Session } from './session.js';
import { DEFAULTS, environment } from './environment.js';
import { admit, beginLoad } from './ceiling.js';
import { asSource } from './source.js';

const ERROR = new Struct('holo_error', ['status', 'message']);
const POINTER_RESULTS = ['holo_alloc', 'holo_session_archive_label', 'holo_wasm_load', 'holo_wasm_session', 'holo_wasm_backend_identity', 'holo_wasm_gen_new', 'holo_wasm_gen_mask', 'holo_wasm_gen_logprobs', 'holo_wasm_pcache_new', 'holo_status_name'];
const REQUIRED = ['holo_alloc', 'holo_free', 'holo_wasm_load', 'holo_wasm_execute'];
// holo_wasm_load's flags (holo_options.flags) and host bits.
const LOAD_FLAGS = { trustStore: CONST.HOLO_OPT_TRUST_STORE, verifyConstants: CONST.HOLO_OPT_VERIFY_CONSTANTS, noWarmCone: CONST.HOLO_OPT_NO_WARM_CONE, persistMemo: CONST.HOLO_OPT_STORE_MEMO };
const HOST_BITS = { store: CONST.WASM_HOST_STORE, sha256: CONST.WASM_HOST_SHA256 };
const utf8 = new TextDecoder();

/** One instance of the core module. Prefer load(); use init() + rt.load() to share one instance. */
export class Runtime {
  #poisoned = null;
  #pool = null;
  #deathsReported = 0; // pool deaths already reported by a THREADS error
  #rerunReported = 0;
  #module;
  #dv = null; // dv()'s view of the current memory buffer
  #sha256 = null; // node:crypto's createHash when the host hashes large inputs
  constructor(module, variant = 'custom', host = {}) {
    this.variant = variant;
    this.#module = module;
    this.store = null; // the warm store of the call in progress
    this.sources = new Map(); // id -> the archive source of a session loaded with weightBudget
    this.nextSource = 1;
    this.storeError = null; // the last exception a warm store threw, if any
    let raw = null;
    const env = hostImports(this, (n, align) => raw.holo_alloc(n, align) >>> 0, () => this.#sha256);
    if (host.memory) {
      env.memory = host.memory; // the threaded module imports its shared memory
      env.holo_pool_signal = () => {}; // test faults: only worker instances call it (threads-worker.js)
    }
    this.threads = 1;
    let instance;
    try {
      instance = new WebAssembly.Instance(module, { env });
    } catch (e) {
      throw new HologramError('ABI', `cannot instantiate the core module: ${e && e.message}`, { cause: e });
    }
    raw = instance.exports;
    this.x = this.#guarded(raw, host.memory);
    for (const f of REQUIRED) if (typeof this.x[f] !== 'function') throw new HologramError('ABI', `the core module lacks the export ${f}`);
    checkLayout(this.x, () => this.mem);
    this.hasRefine = typeof this.x.holo_wasm_has_refine === 'function' && this.x.holo_wasm_has_refine() === 1;
    // Host hashing only with a module that imports it (older builds do not).
    if (host && typeof host.sha256 === 'function' &&
        WebAssembly.Module.imports(module).some((i) => i.module === 'env' && i.name === 'holo_host_sha256')) this.#sha256 = host.sha256;
    /** true: input labels of >= 2 KiB (HOLO_HASHER_MIN_BYTES) are hashed by the host's SHA-256 (same labels). */
    this.hostHash = this.#sha256 !== null;
  }

  // Every export goes through a guard: a trap becomes HologramError('TRAP').
  // wasm32 pointers come back as signed i32: above 2 GiB they would read as
  // negative offsets. The exports that return pointers are made unsigned.
  #guarded(raw, memory) {
    const x = { memory: raw.memory ?? memory };
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'function') x[k] = this.#guard(k, v);
    for (const k of POINTER_RESULTS) if (x[k]) { const f = x[k]; x[k] = (...a) => f(...a) >>> 0; }
    return x;
  }

  /** Starts the worker pool of the threaded module: n threads in all (this one included). */
  async startThreads(n, startPool) {
    if (n <= 1) return;
    this.#pool = await startPool(this.#module, this.x.memory, this.x, n);
    this.threads = 1 + (await this.#pool.ready);
    if (this.threads < n) this.threadsUnavailable = `${n - this.threads} of ${n - 1} workers did not start: ${this.#pool.errors.join('; ') || 'unknown'}`;
  }

  /** Pool statistics of the threaded module: workers started, tasks they ran, parallel jobs, deaths, tasks re-run. */
  get poolStats() {
    if (typeof this.x.holo_pool_stat !== 'function') return null;
    const p = this.#pool;
    return { started: this.x.holo_pool_stat(0), workerTasks: this.x.holo_pool_stat(1), jobs: this.x.holo_pool_stat(2), dead: this.x.holo_pool_stat(3), rerun: this.x.holo_pool_stat(4), errors: p ? p.errors : [], deaths: p ? p.deaths : [] };
  }

  /**
   * The THREADS error for pool workers that died since the last one was
   * reported, or null. Called at the end of a call (session.js): each
   * death fails exactly one call. The dead worker's task was re-run by the
   * calling thread (threads.c), so every value the call computed is whole;
   * the pool goes on with the workers left.
   */
  threadsFault() {
    if (!this.#pool) return null;
    const x = this.x, deaths = x.holo_pool_stat(3);
    if (deaths === this.#deathsReported) return null;
    const rerun = x.holo_pool_stat(4), dead = new Int32Array(this.mem, this.#pool.at.dead, 64);
    const how = ['', 'trapped', 'threw an exception', 'exited or was terminated'];
    const which = [];
    for (let k = 1; k < 64; k++) if (dead[k]) which.push(`worker ${k} ${how[dead[k]] ?? 'died'}`);
    this.threads = Math.max(1, 1 + x.holo_pool_stat(0) - deaths);
    const e = new HologramError('THREADS', `a thread pool worker died inside a task (${which.join(', ')}; ${deaths - this.#deathsReported} new); ` +
      `the calling thread re-ran ${rerun - this.#rerunReported} unfinished task(s), so no value was left half-written, but this call's results are not returned; ` +
      `the session stays usable on ${this.threads} thread(s) (rt.threads): call again`);
    this.#deathsReported = deaths;
    this.#rerunReported = rerun;
    return e;
  }

  /** For tests only (Symbol.for('hologram.testFault')): makes pool worker k trap, throw or be terminated mid-task. */
  [Symbol.for('hologram.testFault')](k, kind, options) {
    if (!this.#pool) throw new HologramError('STATE', 'testFault: this Runtime has no thread pool');
    this.#pool.testFault(k, kind, options);
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

  /** The module instance's linear memory in bytes (memory.buffer.byteLength: it never shrinks). */
  get memoryBytes() { return this.x.memory.buffer.byteLength; }

  /**
   * The heap's figures in bytes: used (in allocated blocks), peak (most
   * used), grown (taken from memory.grow), free (in free lists, reusable),
   * limit (the most it may grow to; 0: none).
   */
  get heapStats() {
    const st = this.x.holo_heap_stat;
    if (typeof st !== 'function') return { used: this.x.holo_heap_used ? this.x.holo_heap_used() >>> 0 : 0, peak: 0, grown: 0, free: 0, limit: 0 };
    return { used: st(0) >>> 0, peak: st(1) >>> 0, grown: st(2) >>> 0, free: st(3) >>> 0, limit: st(4) >>> 0 };
  }

  get mem() { return this.x.memory.buffer; }
  // One DataView per memory buffer (a grow detaches the old buffer and
  // makes a new one): an execute reads and writes its records through a
  // dozen of these, each a new object before.
  dv() {
    const buf = this.x.memory.buffer;
    if (this.#dv?.buffer !== buf) this.#dv = new DataView(buf);
    return this.#dv;
  }
  u32(p) { return this.dv().getUint32(p, true); }
  cstr(p, n) {
    const b = new Uint8Array(this.mem, p);
    if (n === undefined) { n = 0; while (n < b.length && b[n]) n++; }
    // labels and most names are ASCII: built here without TextDecoder's
    // call into the engine (~1 µs for a 71-byte label)
    if (n <= 128) {
      let ascii = '';
      for (let i = 0; i < n; i++) {
        const c = b[i];
        if (c > 0x7f) { ascii = null; break; }
        ascii += String.fromCharCode(c);
      }
      if (ascii !== null) return ascii;
    }
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
  /** The HologramError of a holo_error at errPtr that reported `status`. */
  error(errPtr, status) {
    const code = statusCode(status);
    const e = new HologramError(code, this.cstr(errPtr + ERROR.offset('message')) || `hologram-exec error ${code}`);
    e.status = status;
    return e;
  }
  /** The error of a call that returned no object: its holo_error's status (MEMORY if it set none). */
  failure(errPtr) {
    return this.error(errPtr, ERROR.get(this.dv(), errPtr, 'status') || MEMORY_STATUS);
  }

  /**
   * Loads a .holo archive into this instance. options: { memoryBudget,
   * retainBytes, memoRecords, warmStore, trustStore, persistMemo, verifyConstants,
   * warmCone }. The archive is copied into wasm memory (64-aligned) and its
   * constants are used in place there. memoryBudget, retainBytes and
   * memoRecords default by environment (session.limits, environment.js);
   * options.environment ('node', 'browser', 'workerd', 'isolate') picks
   * another's defaults (e.g. workerd's, to size a worker in Node).
   * With weightBudget (bytes; 0 = never evict), or given a source
   * { size, read(dst, offset) } instead of bytes, only the archive's tables
   * are copied in: constants are read by range as nodes need them, verified
   * against their labels, at most weightBudget bytes of them (and of their
   * packed forms) resident (docs/decisions.md 60).
   */
  load(holoBytes, options = {}, owned = false) {
    checkOptions(options);
    if (this.#poisoned) throw new HologramError('TRAP', `the module instance is unusable after an earlier trap (${this.#poisoned})`);
    const source = asSource(holoBytes, options);
    if (source) return this.#loadSource(source, options, owned);
    let bytes;
    if (holoBytes instanceof Uint8Array) bytes = holoBytes;
    else if (isBuffer(holoBytes)) bytes = new Uint8Array(holoBytes);
    else if (ArrayBuffer.isView(holoBytes)) bytes = new Uint8Array(holoBytes.buffer, holoBytes.byteOffset, holoBytes.byteLength);
    else throw new HologramError('ARG', 'load: the archive must be bytes (Uint8Array, ArrayBuffer or a typed array)');
    const env = options.environment ?? environment(), defaults = DEFAULTS[env];
    if (!Object.hasOwn(DEFAULTS, env)) throw new HologramError('ARG', `environment must be one of ${Object.keys(DEFAULTS).join(', ')}, got ${String(env)}`);
    const budget = toU64(options.memoryBudget ?? defaults.memoryBudget, 'memoryBudget');
    const retain = options.retainBytes ?? defaults.retainBytes;
    if (retain !== Infinity) toU64(retain, 'retainBytes');
    const memoRecords = options.memoRecords ?? defaults.memoRecords;
    if (!Number.isInteger(memoRecords) || memoRecords < 0 || memoRecords > 0xffffffff) throw new HologramError('ARG', `memoRecords must be an integer from 0 to 2^32-1, got ${String(memoRecords)}`);
    const usedBefore = beginLoad(this);
    const flags = (options.trustStore ? LOAD_FLAGS.trustStore : 0) | (options.verifyConstants ? LOAD_FLAGS.verifyConstants : 0) | (options.warmCone === false ? LOAD_FLAGS.noWarmCone : 0) | (options.persistMemo ? LOAD_FLAGS.persistMemo : 0);
    const store = options.warmStore ?? null;
    let arch, err;
    try {
      arch = this.copyIn(bytes, 64);
      err = this.alloc(ERROR.sizeof);
    } catch (e) {
      if (arch) this.x.holo_free(arch);
      admit(this, null);
      throw e;
    }
    this.store = store;
    let w;
    try {
      w = this.x.holo_wasm_load(arch, bytes.byteLength, ...halves(budget), flags, (store ? HOST_BITS.store : 0) | (this.hostHash ? HOST_BITS.sha256 : 0), err);
    } finally {
      this.store = null;
    }
    if (!w) {
      const e = this.failure(err);
      this.x.holo_free(err);
      this.x.holo_free(arch);
      admit(this, null);
      throw e;
    }
    return this.#admitted(new Session(this, w, arch, err, store, budget, owned, env), retain, memoRecords, usedBefore, budget, defaults, options.spillBudget);
  }

  // A loaded session's retain cache and memo set, then admitted (or disposed).
  #admitted(s, retain, memoRecords, usedBefore, budget, defaults, spillBudget) {
    try {
      s.setRetainBytes(retain);
      if (memoRecords) s.setMemoRecords(memoRecords);
      if (spillBudget) s.setSpillBudget(spillBudget);
    } catch (e) {
      s.dispose();
      admit(this, null);
      throw e;
    }
    admit(this, s, usedBefore, Number(budget), defaults.ceiling);
    return s;
  }

  // load() over a source: holo_wasm_load_source, the source registered
  // under an id the core's reads name until the session is disposed.
  #loadSource(source, options, owned) {
    if (typeof this.x.holo_wasm_load_source !== 'function') throw new HologramError('UNSUPPORTED', 'this core module cannot read an archive by range (rebuild it)');
    const env = options.environment ?? environment(), defaults = DEFAULTS[env];
    if (!Object.hasOwn(DEFAULTS, env)) throw new HologramError('ARG', `environment must be one of ${Object.keys(DEFAULTS).join(', ')}, got ${String(env)}`);
    const budget = toU64(options.memoryBudget ?? defaults.memoryBudget, 'memoryBudget');
    const weightBudget = toU64(options.weightBudget, 'weightBudget');
    const retain = options.retainBytes ?? defaults.retainBytes;
    if (retain !== Infinity) toU64(retain, 'retainBytes');
    const memoRecords = options.memoRecords ?? defaults.memoRecords;
    if (!Number.isInteger(memoRecords) || memoRecords < 0 || memoRecords > 0xffffffff) throw new HologramError('ARG', `memoRecords must be an integer from 0 to 2^32-1, got ${String(memoRecords)}`);
    const usedBefore = beginLoad(this);
    const flags = (options.trustStore ? LOAD_FLAGS.trustStore : 0) | (options.verifyConstants ? LOAD_FLAGS.verifyConstants : 0) | (options.persistMemo ? LOAD_FLAGS.persistMemo : 0);
    const store = options.warmStore ?? null;
    const id = this.nextSource++;
    this.sources.set(id, source);
    let err, w;
    try {
      err = this.alloc(ERROR.sizeof);
    } catch (e) {
      this.sources.delete(id);
      admit(this, null);
      throw e;
    }
    this.store = store;
    this.storeError = null;
    try {
      w = this.x.holo_wasm_load_source(id, ...halves(BigInt(source.size)), ...halves(weightBudget), ...halves(budget), flags, (store ? HOST_BITS.store : 0) | (this.hostHash ? HOST_BITS.sha256 : 0), err);
    } finally {
      this.store = null;
    }
    if (!w) {
      const e = this.failure(err);
      this.x.holo_free(err);
      this.sources.delete(id);
      admit(this, null);
      throw e;
    }
    return this.#admitted(new Session(this, w, 0, err, store, budget, owned, env, id), retain, memoRecords, usedBefore, budget, defaults, options.spillBudget);
  }
}
