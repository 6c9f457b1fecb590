// hologram-exec: the JS shim over the core wasm module. ESM, no dependencies.
// Execution is synchronous; only instantiating the module is a promise.

const DTYPES = { 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64' };
const ARRAYS = { 1: Float32Array, 2: Uint8Array, 3: Int8Array, 4: Uint16Array, 5: Int16Array, 6: Int32Array, 7: BigInt64Array, 9: Uint8Array, 10: Uint16Array, 11: Float64Array, 12: Uint32Array, 13: BigUint64Array };
const STATUS = ['OK', 'ARG', 'FORMAT', 'UNSUPPORTED', 'INPUT', 'MEMORY', 'BUDGET', 'STORE', 'KERNEL', 'STATE', 'LIMIT'];
const LAYOUT = { input: 16, view: 152, port: 144, counters: 96, error: 260 };
const COUNTERS = ['executions', 'dispatches', 'elided', 'memoHits', 'storeHits', 'storeMisses', 'storeCorrupt', 'storePuts', 'bytesHashed', 'evictions', 'peakLiveBytes', 'peakResidentBytes'];

/** Every failure of the library is a HologramError with a stable `code`. */
export class HologramError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'HologramError';
    this.code = code;
  }
}

const utf8 = new TextDecoder();
let defaultModule; // a compiled WebAssembly.Module, shared by instances

async function compileDefault() {
  if (!defaultModule) {
    const url = new URL('./dist/hologram-simd128.wasm', import.meta.url);
    let bytes;
    if (url.protocol === 'file:') {
      const { readFile } = await import('node:fs/promises');
      bytes = await readFile(url);
    } else {
      bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    }
    defaultModule = await WebAssembly.compile(bytes);
  }
  return defaultModule;
}

/**
 * Instantiates the core module. `wasm` may be a WebAssembly.Module (edge
 * runtimes that forbid compiling at run time), bytes, or a URL; by default the
 * module shipped in dist/ is used.
 */
export async function init(wasm) {
  let module;
  if (wasm instanceof WebAssembly.Module) module = wasm;
  else if (wasm instanceof URL || typeof wasm === 'string') {
    const r = await fetch(wasm);
    module = await WebAssembly.compile(new Uint8Array(await r.arrayBuffer()));
  } else if (wasm) module = await WebAssembly.compile(wasm);
  else module = await compileDefault();
  return new Runtime(module);
}

/** Convenience: instantiate (once per call) and load an archive. */
export async function load(holoBytes, options = {}) {
  const rt = await init(options.wasm);
  return rt.load(holoBytes, options);
}

class Runtime {
  constructor(module) {
    this.store = null; // the warm store of the call in progress
    const env = {
      holo_host_store_get: (labelPtr, bytesPP, lenP) => this.#storeGet(labelPtr, bytesPP, lenP),
      holo_host_store_put: (labelPtr, ptr, len) => this.#storePut(labelPtr, ptr, len),
    };
    this.instance = new WebAssembly.Instance(module, { env });
    this.x = this.instance.exports;
    for (const [k, i] of [['input', 0], ['view', 1], ['port', 2], ['counters', 3], ['error', 4]]) {
      if (this.x.holo_wasm_layout(i) !== LAYOUT[k]) throw new HologramError('ABI', `wasm layout of ${k} differs from the shim`);
    }
  }

  get mem() { return this.x.memory.buffer; }
  u32(p) { return new DataView(this.mem).getUint32(p, true); }
  cstr(p, n) {
    const b = new Uint8Array(this.mem, p);
    if (n === undefined) { n = 0; while (b[n]) n++; }
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
    return new HologramError(code, this.cstr(errPtr + 4) || `hologram-exec error ${code}`);
  }

  #storeGet(labelPtr, bytesPP, lenP) {
    if (!this.store) return 1;
    const got = this.store.get(this.cstr(labelPtr, 71));
    if (!got) return 1;
    const p = this.copyIn(got, 16);
    const dv = new DataView(this.mem);
    dv.setUint32(bytesPP, p, true);
    dv.setUint32(lenP, got.byteLength, true);
    return 0;
  }
  #storePut(labelPtr, ptr, len) {
    if (!this.store) return 1;
    try {
      this.store.put(this.cstr(labelPtr, 71), new Uint8Array(this.mem, ptr, len).slice());
      return 0;
    } catch {
      return 1;
    }
  }

  /**
   * Loads a .holo archive. options: { memoryBudget, warmStore, trustStore,
   * verifyConstants }. The archive is copied into wasm memory (64-aligned) and
   * its constants are used in place there.
   */
  load(holoBytes, options = {}) {
    if (!(holoBytes instanceof Uint8Array)) throw new HologramError('ARG', 'load: archive must be a Uint8Array');
    const arch = this.copyIn(holoBytes, 64);
    const err = this.alloc(LAYOUT.error);
    const budget = BigInt(options.memoryBudget ?? 0);
    const flags = (options.trustStore ? 1 : 0) | (options.verifyConstants ? 2 : 0);
    this.store = options.warmStore ?? null;
    let w;
    try {
      w = this.x.holo_wasm_load(arch, holoBytes.byteLength, Number(budget & 0xffffffffn), Number(budget >> 32n), flags, this.store ? 1 : 0, err);
    } finally {
      this.store = null;
    }
    if (!w) {
      const e = this.error(err, this.u32(err));
      this.x.holo_free(err);
      this.x.holo_free(arch);
      throw e;
    }
    return new Session(this, w, arch, err, options.warmStore ?? null);
  }
}

function toBytes(t) {
  if (t instanceof Uint8Array) return t;
  if (ArrayBuffer.isView(t)) return new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
  if (t instanceof ArrayBuffer) return new Uint8Array(t);
  throw new HologramError('INPUT', 'an input must be bytes or a typed array (optionally { data, shape })');
}

class Session {
  #rt; #w; #arch; #err; #store; #s;
  constructor(rt, w, arch, err, store) {
    this.#rt = rt; this.#w = w; this.#arch = arch; this.#err = err; this.#store = store;
    this.#s = rt.x.holo_wasm_session(w);
    this.inputs = this.#ports(true);
    this.outputs = this.#ports(false);
    this.backend = rt.cstr(rt.x.holo_wasm_backend_identity(w));
    this.archiveLabel = rt.cstr(rt.x.holo_session_archive_label(this.#s), 71);
  }

  #live() {
    if (!this.#w) throw new HologramError('DISPOSED', 'session is disposed');
    return this.#rt;
  }

  #ports(input) {
    const rt = this.#rt, x = rt.x;
    const n = input ? x.holo_session_input_count(this.#s) : x.holo_session_output_count(this.#s);
    const info = rt.alloc(LAYOUT.port);
    const out = [];
    for (let i = 0; i < n; i++) {
      (input ? x.holo_session_input_info : x.holo_session_output_info)(this.#s, i, info);
      const dv = new DataView(rt.mem);
      const rank = dv.getUint32(info + 12, true);
      const shape = rank === 255 ? null : Array.from({ length: rank }, (_, d) => {
        const v = Number(dv.getBigInt64(info + 16 + 8 * d, true));
        return v < 0 ? rt.cstr(dv.getUint32(info + 80 + 4 * d, true), dv.getUint32(info + 112 + 4 * d, true)) : v;
      });
      const dtypeCode = dv.getUint32(info + 8, true);
      out.push({ name: rt.cstr(dv.getUint32(info, true), dv.getUint32(info + 4, true)), dtype: DTYPES[dtypeCode] ?? String(dtypeCode), dtypeCode, shape });
    }
    x.holo_free(info);
    return out;
  }

  #run(inputs) {
    const rt = this.#live(), x = rt.x;
    if (!Array.isArray(inputs)) throw new HologramError('INPUT', 'execute: inputs must be an array in port order (use run() for named feeds)');
    const nIn = inputs.length, nOut = this.outputs.length;
    const inArr = rt.alloc(LAYOUT.input * Math.max(nIn, 1));
    const views = rt.alloc(LAYOUT.view * Math.max(nOut, 1));
    const owned = [];
    try {
      for (let i = 0; i < nIn; i++) {
        const t = inputs[i];
        const isObj = t && !ArrayBuffer.isView(t) && !(t instanceof ArrayBuffer) && 'data' in t;
        const bytes = toBytes(isObj ? t.data : t);
        const p = rt.copyIn(bytes, 64); owned.push(p);
        let shapePtr = 0, rank = 0;
        const shape = isObj ? t.shape ?? t.dims : undefined;
        if (shape) {
          rank = shape.length;
          shapePtr = rt.alloc(8 * Math.max(rank, 1), 8); owned.push(shapePtr);
          const dv = new DataView(rt.mem);
          shape.forEach((d, k) => dv.setBigInt64(shapePtr + 8 * k, BigInt(d), true));
        }
        const dv = new DataView(rt.mem);
        dv.setUint32(inArr + 16 * i, p, true);
        dv.setUint32(inArr + 16 * i + 4, bytes.byteLength, true);
        dv.setUint32(inArr + 16 * i + 8, shapePtr, true);
        dv.setUint32(inArr + 16 * i + 12, rank, true);
      }
      rt.store = this.#store;
      let st;
      try {
        st = x.holo_wasm_execute(this.#w, inArr, nIn, views, nOut, this.#err);
      } finally {
        rt.store = null;
      }
      if (st !== 0) throw rt.error(this.#err, st);
      const dv = new DataView(rt.mem);
      const res = [];
      for (let k = 0; k < nOut; k++) {
        const v = views + LAYOUT.view * k;
        const rank = dv.getUint32(v + 84, true);
        res.push({
          label: rt.cstr(v, 71),
          ptr: dv.getUint32(v + 72, true),
          byteLength: dv.getUint32(v + 76, true),
          dtypeCode: dv.getUint32(v + 80, true),
          shape: Array.from({ length: rank }, (_, d) => Number(dv.getBigInt64(v + 88 + 8 * d, true))),
        });
      }
      return res;
    } finally {
      for (const p of owned) x.holo_free(p);
      x.holo_free(inArr);
      x.holo_free(views);
    }
  }

  /** Executes with inputs in port order; returns owned outputs { data, dtype, shape, label }. */
  execute(inputs) {
    return this.#run(inputs).map((r) => {
      const A = ARRAYS[r.dtypeCode] ?? Uint8Array;
      const copy = new Uint8Array(this.#rt.mem, r.ptr, r.byteLength).slice();
      return { data: new A(copy.buffer), dtype: DTYPES[r.dtypeCode], shape: r.shape, label: r.label };
    });
  }

  /**
   * Executes and returns labels with zero-copy views into wasm memory. A view
   * is valid until the next call on this session (or any call that may grow
   * memory); copy it to keep it.
   */
  executeAddressed(inputs) {
    return this.#run(inputs).map((r) => {
      const A = ARRAYS[r.dtypeCode] ?? Uint8Array;
      return { label: r.label, dtype: DTYPES[r.dtypeCode], shape: r.shape, data: new A(this.#rt.mem, r.ptr, r.byteLength / (A.BYTES_PER_ELEMENT)) };
    });
  }

  /** Named feeds, as in ONNX Runtime: run({ x: { data, shape } }) -> { y: {...} }. */
  run(feeds) {
    const ordered = this.inputs.map((p) => {
      if (!(p.name in feeds)) throw new HologramError('INPUT', `run: missing feed for input '${p.name}'`);
      return feeds[p.name];
    });
    for (const k of Object.keys(feeds)) if (!this.inputs.some((p) => p.name === k)) throw new HologramError('INPUT', `run: unknown input '${k}'`);
    const outs = this.execute(ordered);
    return Object.fromEntries(this.outputs.map((p, i) => [p.name, outs[i]]));
  }

  get inputCount() { this.#live(); return this.inputs.length; }
  get outputCount() { this.#live(); return this.outputs.length; }
  get kernelCount() { return this.#live().x.holo_session_kernel_count(this.#s); }
  get residentBytes() { return Number(this.#live().x.holo_session_resident_bytes(this.#s)); }
  get residentCount() { return this.#live().x.holo_session_resident_count(this.#s); }
  get contentStoreLen() { return this.#live().x.holo_session_content_store_len(this.#s); }
  get counters() {
    const rt = this.#live();
    const p = rt.alloc(LAYOUT.counters, 8);
    rt.x.holo_session_counters(this.#s, p);
    const dv = new DataView(rt.mem);
    const c = Object.fromEntries(COUNTERS.map((k, i) => [k, Number(dv.getBigUint64(p + 8 * i, true))]));
    rt.x.holo_free(p);
    return c;
  }

  /** Re-hashes every constant against its stored label. */
  verify() {
    const rt = this.#live();
    const st = rt.x.holo_session_verify_constants(this.#s, this.#err);
    if (st !== 0) throw rt.error(this.#err, st);
    return true;
  }

  dispose() {
    if (!this.#w) return;
    const x = this.#rt.x;
    x.holo_wasm_free_session(this.#w);
    x.holo_free(this.#arch);
    x.holo_free(this.#err);
    this.#w = 0;
  }
}
