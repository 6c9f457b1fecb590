#!/usr/bin/env node
// holo — the hologram-exec Node CLI, shipped in the npm package
// (`npx hologram-exec VERB …`, or `holo VERB …` once installed).
//
//   holo convert model.onnx -o model.holo [--shape name=1,3,224,224]... [--no-fold] [--no-fuse] [--progress]
//   holo info model.holo
//   holo run model.holo [--input [PORT=]FILE]... [--dtype D] [--shape D0,D1] [-o DIR] [--output [PORT=]FILE] [--print]
//   holo bench model.holo [--repeat N]
//
// Inputs, outputs and .npy files follow the C program's conventions
// (docs/cli.md). Exit codes: 0 ok, 1 usage, 2 bad archive or model, 3 bad
// input, 4 resource. Every failure is one stderr line `holo: <file>: <cause>`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXIT = { ok: 0, usage: 1, archive: 2, input: 3, resource: 4 };

const USAGE = `usage: holo VERB [options]          (npx hologram-exec VERB …)
verbs:
  convert MODEL.onnx -o FILE.holo   convert an ONNX model (needs the optional package onnx-proto)
  info FILE.holo                    ports, dtypes, shapes, kernels, archive label, variant, identity, metadata
  run FILE.holo                     execute once; inputs from .npy or raw files (default: a generated pattern)
  bench FILE.holo                   median of N full executions (fresh inputs) and of N memo hits, as JSON
'holo VERB --help' describes a verb.
exit codes: 0 ok, 1 usage, 2 bad archive or model, 3 bad input, 4 resource limit`;

const SESSION_HELP = `session:
  --variant relaxed|simd128|scalar  force a shipped core module (default: the best this engine runs)
  --memory-budget BYTES         bound on transient memory (suffix k, m, g: KiB, MiB, GiB)
  --warm-store DIR              a directory warm store (DIR/sha256-<hex>.hws, shared with the C holo)
  --trust-store                 take warm-store records without re-hashing them`;

const IO_HELP = `inputs and outputs (PORT is a port name or index; without PORT=, --input and --output
go in port order and --dtype/--shape apply to the latest --input):
  -i, --input [PORT=]FILE       a .npy file (v1-3, little-endian, C order) or raw little-endian bytes
  --dtype [PORT=]DTYPE          raw files: must name the port's dtype (float32 … bool, or f4 i8 u1 b1 …)
                                (also --input-dtype)
  --shape [PORT=]D0,D1,...      raw files and generated inputs: the shape (binds symbolic dims)`;

const HELP = {
  convert: `usage: holo convert MODEL.onnx -o FILE.holo [--shape NAME=D0,D1,...]... [--no-fold] [--no-fuse] [--progress]
Converts an ONNX model (opsets 6..18) to a .holo archive.
  -o, --output FILE             the archive to write
  --shape NAME=D0,D1,...        specialise an input's symbolic dims (repeatable)
  --no-fold                     do not fold constant sub-graphs through the runtime
  --no-fuse                     emit the op-for-op graph (no bias/Relu fusion, no weight packing)
  --progress                    report progress on stderr (default: only when stderr is a terminal)
Needs the package onnx-proto (npm install onnx-proto); without it the verb explains and exits 4.
A model the converter refuses (unsupported op, opset, dtype…) exits 2.`,
  info: `usage: holo info FILE.holo [--variant V]
Loads the archive and prints its label, variant (the core module that runs), identity
(the backend identity that enters computed labels), kernel count, resident constants,
ports (symbolic dims by name, [?] for an unknown rank), node counts by op and metadata.`,
  run: `usage: holo run FILE.holo [options]
Executes once and prints load_ms, the load: counters, one line per input and output,
execute_ms and the counters.
${IO_HELP}
  --output [PORT=]FILE          write that output as .npy
  -o, --output-dir DIR          write every output as DIR/<output name>.npy
  --print                       print every output value (default: the first 16)
${SESSION_HELP}`,
  bench: `usage: holo bench FILE.holo [--repeat N] [input options]
One untimed warm-up, then N rounds (default 20): each times a full execution on inputs no
earlier round used (the lowest bit of the first up to 32 elements of every input flipped by
the bits of the round number, so the memo cannot answer), then the same inputs again (a
memo hit). Prints one JSON object: median_ms (full executions), memo_hit_median_ms, …
  --repeat N                    rounds (default 20)
${IO_HELP}
${SESSION_HELP}`,
};

class CliError extends Error {
  constructor(code, message) {
    super(message);
    this.exit = code;
  }
}
const usage = (msg) => new CliError(EXIT.usage, msg);
const fail = (code, file, cause) => new CliError(code, file ? `${file}: ${cause}` : cause);

// HologramError codes -> exit codes.
const CODE_EXIT = {
  ARG: EXIT.usage, FORMAT: EXIT.archive, UNSUPPORTED: EXIT.archive, ABI: EXIT.archive, TRAP: EXIT.archive,
  INPUT: EXIT.input, KERNEL: EXIT.input, STATE: EXIT.input, STORE: EXIT.input, DISPOSED: EXIT.input,
  MEMORY: EXIT.resource, BUDGET: EXIT.resource, LIMIT: EXIT.resource,
};
const fromHologram = (e, file) => fail(CODE_EXIT[e.code] ?? EXIT.archive, file, e.message);

function ioCause(e) {
  switch (e && e.code) {
    case 'ENOENT': return 'no such file or directory';
    case 'EISDIR': return 'is a directory, not a file';
    case 'ENOTDIR': return 'a component of the path is not a directory';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ENOSPC': return 'no space left on device';
    default: return (e && e.message) || String(e);
  }
}
function readFile(file, code) {
  try {
    return new Uint8Array(fs.readFileSync(file));
  } catch (e) {
    throw fail(e && (e.code === 'ENOMEM' || e.code === 'ERR_FS_FILE_TOO_LARGE') ? EXIT.resource : code, file, `cannot read: ${ioCause(e)}`);
  }
}
function writeFile(file, bytes) {
  try {
    fs.writeFileSync(file, bytes);
  } catch (e) {
    throw fail(e && e.code === 'ENOSPC' ? EXIT.resource : EXIT.input, file, `cannot write: ${ioCause(e)}`);
  }
}

// ---------------------------------------------------------------- argv

/** Splits argv by a spec { '--flag': 'value' | 'bool' }, accepting --flag=value; aliases map to a canonical name. */
function parseArgs(args, spec, aliases = {}) {
  const opts = { _: [], list: [] };
  for (let i = 0; i < args.length; i++) {
    let a = args[i], val;
    if (a === '--') { opts._.push(...args.slice(i + 1)); break; }
    if (!a.startsWith('-') || a === '-') { opts._.push(a); continue; }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) { val = a.slice(eq + 1); a = a.slice(0, eq); }
    const name = aliases[a] ?? a;
    const kind = spec[name];
    if (!kind) throw usage(`unknown option '${a}'`);
    if (kind === 'bool') {
      if (val !== undefined) throw usage(`${a} takes no value`);
      opts[name] = true;
      continue;
    }
    if (val === undefined) {
      if (i + 1 >= args.length) throw usage(`${a} needs a value`);
      val = args[++i];
    }
    opts.list.push([name, val]);
    opts[name] = val;
  }
  return opts;
}

function parseBytes(s, what) {
  const m = /^([0-9]+)([kmg]?)$/i.exec(String(s).trim());
  if (!m) throw usage(`${what} ${s}: expected a byte count (suffix k, m, g)`);
  return Number(m[1]) * { '': 1, k: 1024, m: 1 << 20, g: 1 << 30 }[m[2].toLowerCase()];
}
function parseCount(s, what, min = 1) {
  if (!/^[0-9]+$/.test(String(s)) || Number(s) < min || !Number.isSafeInteger(Number(s))) throw usage(`${what} ${s}: expected an integer >= ${min}`);
  return Number(s);
}
function parseDims(s, what) {
  if (s === '' || s === '()' || s === 'scalar') return [];
  const parts = s.split(/[,x]/);
  if (!parts.every((d) => /^[0-9]+$/.test(d.trim()))) throw usage(`${what} ${s}: expected dims like 1,3,224,224`);
  return parts.map((d) => Number(d.trim()));
}

// ---------------------------------------------------------------- dtypes and .npy

const DT = {
  float32: { size: 4, code: 'f4' }, float64: { size: 8, code: 'f8' }, float16: { size: 2, code: 'f2' },
  int8: { size: 1, code: 'i1' }, int16: { size: 2, code: 'i2' }, int32: { size: 4, code: 'i4' }, int64: { size: 8, code: 'i8' },
  uint8: { size: 1, code: 'u1' }, uint16: { size: 2, code: 'u2' }, uint32: { size: 4, code: 'u4' }, uint64: { size: 8, code: 'u8' },
  bool: { size: 1, code: 'b1' },
};
const dtypeSize = (dt) => DT[dt]?.size ?? 0;

/** A dtype name or NumPy code (optionally prefixed by <, | or =), as the C CLI accepts; null if unknown. */
export function parseDtype(s) {
  if (!s) return null;
  const prefixed = /^[<|=]/.test(s);
  const t = prefixed ? s.slice(1) : s;
  for (const [name, d] of Object.entries(DT)) if ((!prefixed && t === name) || t === d.code) return name;
  if (!prefixed && t === 'bool_') return 'bool';
  return null;
}

const latin1 = new TextDecoder('latin1');
const isNpy = (b) => b.length >= 6 && b[0] === 0x93 && latin1.decode(b.subarray(1, 6)) === 'NUMPY';

/** Parses a .npy file (formats 1.0-3.0, little-endian, C order) -> { dtype, descr, shape, data } or throws Error(why). */
export function parseNpy(b) {
  if (!isNpy(b) || b.length < 10) throw new Error('not a .npy file (bad magic)');
  const major = b[6];
  let hstart, hlen;
  if (major === 1) { hstart = 10; hlen = b[8] | (b[9] << 8); }
  else if (major === 2 || major === 3) {
    if (b.length < 12) throw new Error('.npy header truncated');
    hstart = 12; hlen = (b[8] | (b[9] << 8) | (b[10] << 16)) + b[11] * 2 ** 24;
  } else throw new Error(`.npy format version ${b[6]}.${b[7]} is not supported (1.0, 2.0, 3.0 are)`);
  if (hlen > b.length - hstart) throw new Error(`.npy header length ${hlen} exceeds the file`);
  const h = latin1.decode(b.subarray(hstart, hstart + hlen));
  let p = 0;
  const ws = () => { while (p < h.length && ' \t\n\r'.includes(h[p])) p++; };
  const lit = (c) => { ws(); if (h[p] === c) { p++; return true; } return false; };
  const str = () => {
    ws();
    const q = h[p];
    if (q !== "'" && q !== '"') return null;
    const end = h.indexOf(q, p + 1);
    if (end < 0) return null;
    const s = h.slice(p + 1, end);
    p = end + 1;
    return s;
  };
  const word = (w) => { ws(); if (h.startsWith(w, p)) { p += w.length; return true; } return false; };
  const integer = () => {
    ws();
    const m = /^[0-9]+L?/.exec(h.slice(p, p + 32));
    if (!m) return null;
    p += m[0].length;
    return Number(m[0].replace('L', ''));
  };
  let descr = null, fortran = null, shape = null;
  if (!lit('{')) throw new Error('.npy header is not a dict');
  while (!lit('}')) {
    const key = str();
    if (key === null || !lit(':')) throw new Error('.npy header: malformed dict');
    if (key === 'descr') {
      descr = str();
      if (descr === null) throw new Error('.npy dtype is not a simple type (structured arrays are not supported)');
    } else if (key === 'fortran_order') {
      if (word('True')) fortran = true;
      else if (word('False')) fortran = false;
      else throw new Error('.npy header: fortran_order is not True or False');
    } else if (key === 'shape') {
      if (!lit('(')) throw new Error('.npy header: shape is not a tuple');
      shape = [];
      while (!lit(')')) {
        if (shape.length >= 8) throw new Error('.npy rank exceeds 8');
        const d = integer();
        if (d === null) throw new Error('.npy header: shape holds a non-integer');
        shape.push(d);
        if (!lit(',')) { if (!lit(')')) throw new Error('.npy header: malformed shape tuple'); break; }
      }
    } else throw new Error(`.npy header: unknown key '${key}'`);
    if (!lit(',')) { if (!lit('}')) throw new Error('.npy header: malformed dict'); break; }
  }
  if (descr === null || fortran === null || shape === null) throw new Error('.npy header lacks descr, fortran_order or shape');
  let code = descr, order = '=';
  if ('<>|='.includes(code[0])) { order = code[0]; code = code.slice(1); }
  let dtype = Object.entries(DT).find(([, d]) => d.code === code)?.[0] ?? { '?': 'bool', B: 'uint8', b: 'int8' }[code] ?? null;
  if (!dtype) throw new Error(`.npy dtype '${descr}' is not supported (f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 b1 are)`);
  if (order === '>' && dtypeSize(dtype) > 1) throw new Error(`.npy dtype '${descr}' is big-endian; only little-endian data is read`);
  if (fortran && shape.filter((d) => d > 1).length > 1) throw new Error('.npy array is in Fortran order; save it in C order (np.ascontiguousarray)');
  const need = shape.reduce((a, d) => a * d, dtypeSize(dtype));
  if (!Number.isSafeInteger(need)) throw new Error('.npy shape is too large for this build');
  const have = b.length - hstart - hlen;
  if (have !== need) throw new Error(`.npy data is ${have} bytes; dtype ${descr} and the shape need ${need}`);
  return { dtype, descr, shape, data: b.subarray(hstart + hlen) };
}

/** A .npy file, format 1.0, with exactly the header NumPy (>= 1.23) writes (as wasi/cli-npy.c). */
export function npyBytes(dtype, shape, data) {
  const d = DT[dtype];
  if (!d) throw new Error(`dtype ${dtype} cannot be written as .npy`);
  let dict = `{'descr': '${d.size === 1 ? '|' : '<'}${d.code}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  if (shape.length > 0) dict += ' '.repeat(Math.max(0, 21 - String(shape[0]).length));
  const unpadded = 10 + dict.length + 1, total = unpadded + 64 - (unpadded % 64), hlen = total - 10;
  const head = new Uint8Array(total);
  head.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, hlen & 0xff, hlen >> 8]);
  for (let i = 0; i < dict.length; i++) head[10 + i] = dict.charCodeAt(i);
  head.fill(0x20, 10 + dict.length, total - 1);
  head[total - 1] = 0x0a;
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(total + bytes.byteLength);
  out.set(head);
  out.set(bytes, total);
  return out;
}

// ---------------------------------------------------------------- value formatting (C's printf)

/** printf("%.<p>g") */
export function fmtG(x, p) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x < 0 ? '-inf' : 'inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const exp = x.toExponential(p - 1);
  const e = Number(exp.slice(exp.indexOf('e') + 1));
  const strip = (s) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (e < -4 || e >= p) {
    const m = strip(exp.slice(0, exp.indexOf('e')));
    return `${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  return strip(x.toFixed(p - 1 - e));
}

function halfToFloat(h) {
  const s = h >> 15 ? -1 : 1, e = (h >> 10) & 31, m = h & 1023;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

function formatValues(dtype, bytes, limit) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const es = dtypeSize(dtype) || 1, n = Math.floor(bytes.byteLength / es);
  const get = {
    float32: (k) => fmtG(dv.getFloat32(4 * k, true), 9), float64: (k) => fmtG(dv.getFloat64(8 * k, true), 17),
    float16: (k) => fmtG(halfToFloat(dv.getUint16(2 * k, true)), 5),
    int8: (k) => String(dv.getInt8(k)), uint8: (k) => String(dv.getUint8(k)), bool: (k) => String(dv.getUint8(k)),
    int16: (k) => String(dv.getInt16(2 * k, true)), uint16: (k) => String(dv.getUint16(2 * k, true)),
    int32: (k) => String(dv.getInt32(4 * k, true)), uint32: (k) => String(dv.getUint32(4 * k, true)),
    int64: (k) => String(dv.getBigInt64(8 * k, true)), uint64: (k) => String(dv.getBigUint64(8 * k, true)),
  }[dtype] ?? (() => '?');
  const parts = [];
  for (let k = 0; k < n && k < limit; k++) parts.push(get(k));
  return parts.join(' ') + (n > limit ? ` ... (${n} values; --print shows all)` : '');
}

const fmtShape = (sh) => (sh ? `[${sh.join(',')}]` : '[?]');
const ms = (t) => Number(t.toFixed(3));

function countersLine(s) {
  const c = s.counters;
  return [
    ['executions', c.executions], ['dispatches', c.dispatches], ['elided', c.elided], ['memo_hits', c.memoHits],
    ['store_hits', c.storeHits], ['store_misses', c.storeMisses], ['store_corrupt', c.storeCorrupt], ['store_puts', c.storePuts],
    ['bytes_hashed', c.bytesHashed], ['evictions', c.evictions], ['resident_bytes', s.residentBytes], ['resident_count', s.residentCount],
    ['content_store_len', s.contentStoreLen], ['peak_live_bytes', c.peakLiveBytes],
  ].map(([k, v]) => `${k}=${v}`).join(' ');
}

// ---------------------------------------------------------------- sessions

const SESSION_SPEC = { '--variant': 'value', '--memory-budget': 'value', '--warm-store': 'value', '--trust-store': 'bool' };
const IO_SPEC = { '--input': 'value', '--dtype': 'value', '--shape': 'value' };
const IO_ALIASES = { '-i': '--input', '--input-dtype': '--dtype' };

async function openSession(file, opts) {
  if (opts['--variant'] && !['relaxed', 'simd128', 'scalar'].includes(opts['--variant'])) throw usage(`--variant ${opts['--variant']}: one of relaxed, simd128, scalar`);
  const budget = opts['--memory-budget'] !== undefined ? parseBytes(opts['--memory-budget'], '--memory-budget') : undefined;
  const bytes = readFile(file, EXIT.archive);
  const { init, HologramError } = await import('../index.js');
  let warmStore;
  if (opts['--warm-store']) {
    const dir = opts['--warm-store'];
    try {
      fs.mkdirSync(dir, { recursive: true });
      if (!fs.statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    } catch (e) {
      throw fail(EXIT.input, dir, `cannot use as a warm store: ${ioCause(e)}`);
    }
    const { NodeDirWarmStore } = await import('../stores/node-dir.js');
    warmStore = new NodeDirWarmStore(dir);
  }
  const t0 = performance.now();
  try {
    const rt = await init(undefined, opts['--variant'] ? { variant: opts['--variant'] } : {});
    const s = rt.load(bytes, { memoryBudget: budget, warmStore, trustStore: !!opts['--trust-store'] });
    return { s, bytes, loadMs: performance.now() - t0, HologramError };
  } catch (e) {
    if (e instanceof HologramError) throw fromHologram(e, file);
    throw e;
  }
}

/** Resolves a PORT (name or index) among ports, or -1. */
function portIndex(ports, key) {
  if (/^[0-9]+$/.test(key) && Number(key) < ports.length) return Number(key);
  return ports.findIndex((p) => p.name === key);
}
const portList = (ports) => ports.map((p, i) => `${i} '${p.name}'`).join(', ');

/**
 * Applies the [PORT=]VALUE rules of docs/cli.md: files without PORT= go to the
 * ports not named explicitly, in order; --dtype/--shape without PORT= apply to
 * the port of the latest --input before them (port 0 if none).
 */
function assignSpecs(list, ports, fileFlags, kind) {
  const files = [], attrs = [];
  for (const [flag, raw] of list) {
    const isFile = fileFlags.includes(flag);
    if (!isFile && !['--dtype', '--shape'].includes(flag)) continue;
    const eq = raw.indexOf('=');
    let port = -1, value = raw;
    if (eq > 0) {
      const k = portIndex(ports, raw.slice(0, eq));
      if (k >= 0) { port = k; value = raw.slice(eq + 1); }
      else if (!isFile) throw usage(`${flag} ${raw}: no ${kind} port '${raw.slice(0, eq)}' (ports: ${portList(ports)})`);
    }
    if (isFile) files.push({ flag, raw, port, value });
    else attrs.push({ flag, raw, port, value, after: files.length - 1 });
  }
  const byPort = new Map();
  for (const f of files) if (f.port >= 0) {
    if (byPort.has(f.port)) throw usage(`${f.flag} ${f.raw}: ${kind} port ${f.port} '${ports[f.port].name}' given twice`);
    byPort.set(f.port, f);
  }
  let next = 0;
  for (const f of files) if (f.port < 0) {
    while (next < ports.length && byPort.has(next)) next++;
    if (next >= ports.length) throw usage(`${f.flag} ${f.raw}: more files than ${kind} ports (ports: ${portList(ports)})`);
    f.port = next;
    byPort.set(next, f);
  }
  const dtype = new Map(), shape = new Map();
  for (const a of attrs) {
    const port = a.port >= 0 ? a.port : a.after >= 0 ? files[a.after].port : 0;
    if (port >= ports.length) throw usage(`${a.flag} ${a.raw}: the archive has no ${kind} port ${port}`);
    const m = a.flag === '--dtype' ? dtype : shape;
    if (m.has(port)) throw usage(`${a.flag} ${a.raw}: given twice for ${kind} port ${port} '${ports[port].name}'`);
    m.set(port, a);
  }
  return { files: byPort, dtype, shape };
}

function fillPattern(dtype, n) {
  const es = dtypeSize(dtype), b = new Uint8Array(n * es), dv = new DataView(b.buffer);
  for (let k = 0; k < n; k++) {
    const v = Math.sin(k * 0.37);
    switch (dtype) {
      case 'float32': dv.setFloat32(4 * k, v, true); break;
      case 'float64': dv.setFloat64(8 * k, v, true); break;
      case 'bool': b[k] = v > 0 ? 1 : 0; break;
      case 'int64': case 'int32': break; // indices: 0 is always in range
      default: b[k * es] = k & 0xff;
    }
  }
  return b;
}

/** Inputs for every port: { data: Uint8Array, shape, source }. */
function buildInputs(s, opts) {
  const ports = s.inputs;
  const spec = assignSpecs(opts.list, ports, ['--input'], 'input');
  return ports.map((p, i) => {
    const f = spec.files.get(i), dsp = spec.dtype.get(i), shp = spec.shape.get(i);
    const what = f ? f.value : `input ${i} '${p.name}'`;
    let shape = shp ? parseDims(shp.value, '--shape') : null;
    if (dsp) {
      const dt = parseDtype(dsp.value);
      if (!dt) throw usage(`--dtype ${dsp.raw}: unknown dtype (float32 float64 float16 int8 int16 int32 int64 uint8 uint16 uint32 uint64 bool, or f4 i8 u1 b1 ...)`);
      if (dt !== p.dtype) throw fail(EXIT.input, what, `--dtype ${dt} does not match input ${i} '${p.name}' (${p.dtype})`);
    }
    let bytes = null;
    if (f) bytes = readFile(f.value, EXIT.input);
    if (bytes && isNpy(bytes)) {
      let npy;
      try { npy = parseNpy(bytes); } catch (e) { throw fail(EXIT.input, f.value, e.message); }
      if (npy.dtype !== p.dtype) throw fail(EXIT.input, f.value, `dtype ${npy.dtype} ('${npy.descr}') does not match input ${i} '${p.name}' (${p.dtype})`);
      if (shape && (shape.length !== npy.shape.length || shape.some((d, k) => d !== npy.shape[k]))) throw fail(EXIT.input, f.value, `--shape ${shp.value} differs from the .npy shape`);
      shape = npy.shape;
      bytes = npy.data;
    } else if (!shape) {
      if (!p.shape) throw fail(EXIT.input, what, `input ${i} '${p.name}' has no declared shape: pass --shape`);
      const sym = p.shape.map((d, k) => (typeof d === 'number' ? -1 : k)).filter((k) => k >= 0);
      const known = p.shape.reduce((a, d) => (typeof d === 'number' ? a * d : a), dtypeSize(p.dtype));
      shape = p.shape.map((d) => (typeof d === 'number' ? d : 1));
      if (sym.length && bytes) {
        if (sym.length > 1 || !known || bytes.byteLength % known) throw fail(EXIT.input, f.value, `input ${i} '${p.name}' has symbolic dims: pass --shape (or use a .npy file)`);
        shape[sym[0]] = bytes.byteLength / known;
      }
    }
    if (p.shape && shape.length !== p.shape.length) throw fail(EXIT.input, what, `rank ${shape.length}, input ${i} '${p.name}' has rank ${p.shape.length}`);
    if (p.shape) p.shape.forEach((d, k) => {
      if (typeof d === 'number' && shape[k] !== d) throw fail(EXIT.input, what, `shape ${fmtShape(shape)} does not fit input ${i} '${p.name}' (dim ${k} must be ${d})`);
    });
    const need = shape.reduce((a, d) => a * d, dtypeSize(p.dtype));
    if (!Number.isSafeInteger(need) || need > 2 ** 32) throw fail(EXIT.resource, what, 'shape is too large for this build');
    if (!bytes) bytes = fillPattern(p.dtype, need / dtypeSize(p.dtype));
    else if (bytes.byteLength !== need) throw fail(EXIT.input, f.value, `${bytes.byteLength} bytes, but input ${i} '${p.name}' as ${p.dtype} ${fmtShape(shape)} needs ${need}`);
    // an owned, aligned copy (bench flips bits in it)
    return { data: bytes.slice(), shape, source: f ? f.value : null };
  });
}

function execOrFail(fn, file, HologramError) {
  try {
    return fn();
  } catch (e) {
    if (e instanceof HologramError) throw fromHologram(e, file);
    throw e;
  }
}

// ---------------------------------------------------------------- verbs

async function cmdInfo(args) {
  const o = parseArgs(args, { '--variant': 'value' });
  if (o._.length !== 1) throw usage('info needs one archive');
  const file = o._[0];
  const { s, bytes, loadMs } = await openSession(file, o);
  try {
    console.log(`archive  ${file} (${bytes.length} bytes)`);
    console.log(`label    ${s.archiveLabel}`);
    // Two fields, as the C holo prints them (wasi/cli-info.c): the core module
    // variant that runs, and the backend identity that enters computed labels
    // (variants with the same bytes share it).
    console.log(`variant: ${s.backend}`);
    console.log(`identity: ${s.backendIdentity}`);
    console.log(`kernels  ${s.kernelCount}`);
    console.log(`resident ${s.residentCount} constants, ${s.residentBytes} bytes`);
    for (const p of s.inputs) console.log(`input    ${p.name}: ${p.dtype}${fmtShape(p.shape)}`);
    for (const p of s.outputs) console.log(`output   ${p.name}: ${p.dtype}${fmtShape(p.shape)}`);
    const { readHolo } = await importCompiler('holo-reader.js');
    const g = readHolo(bytes);
    const ops = {};
    for (const n of g.nodes) ops[n.op] = (ops[n.op] ?? 0) + 1;
    console.log(`nodes    ${g.nodes.length}${g.nodes.length ? ': ' + Object.entries(ops).map(([k, v]) => `${k}x${v}`).join(' ') : ''}`);
    for (const [k, v] of g.meta ?? []) console.log(`meta     ${k} = ${v}`);
    console.log(`load_ms  ${ms(loadMs)}`);
  } finally {
    s.dispose();
  }
}

async function cmdRun(args) {
  const o = parseArgs(args, { ...SESSION_SPEC, ...IO_SPEC, '--output': 'value', '--output-dir': 'value', '--print': 'bool' }, { ...IO_ALIASES, '-o': '--output-dir' });
  if (o._.length !== 1) throw usage(o._.length ? `unexpected argument '${o._[1]}'` : 'run needs one archive');
  const file = o._[0];
  const { s, loadMs, HologramError } = await openSession(file, o);
  try {
    const outSpec = assignSpecs(o.list.filter(([f]) => f === '--output'), s.outputs, ['--output'], 'output');
    const inputs = buildInputs(s, o);
    console.log(`load_ms: ${ms(loadMs)}`);
    console.log(`load: ${countersLine(s)}`);
    s.inputs.forEach((p, i) => console.log(`input ${i} ${p.name}: ${p.dtype} ${fmtShape(inputs[i].shape)} <- ${inputs[i].source ?? '(generated)'}`));
    const t0 = performance.now();
    const outs = execOrFail(() => s.execute(inputs.map(({ data, shape }) => ({ data, shape }))), file, HologramError);
    const execMs = performance.now() - t0;
    const dir = o['--output-dir'];
    if (dir) {
      try { fs.mkdirSync(dir, { recursive: true }); } catch (e) { throw fail(EXIT.input, dir, `cannot create the output directory: ${ioCause(e)}`); }
      if (!fs.statSync(dir).isDirectory()) throw fail(EXIT.input, dir, 'is not a directory');
    }
    s.outputs.forEach((p, i) => {
      const y = outs[i];
      const bytes = new Uint8Array(y.data.buffer, y.data.byteOffset, y.data.byteLength);
      const dest = outSpec.files.get(i)?.value ?? (dir ? path.join(dir, `${p.name.replace(/[^A-Za-z0-9._-]/g, '_') || `output${i}`}.npy`) : null);
      let line = `output ${i} ${p.name}: ${y.dtype} ${fmtShape(y.shape)}`;
      if (dest) {
        writeFile(dest, npyBytes(y.dtype, y.shape, bytes));
        line += ` -> ${dest}`;
      }
      if (!dest || o['--print']) line += ` = ${formatValues(y.dtype, bytes, o['--print'] ? Infinity : 16)}`;
      console.log(line);
    });
    console.log(`execute_ms: ${ms(execMs)}`);
    console.log(`counters: ${countersLine(s)}`);
  } finally {
    s.dispose();
  }
}

const median = (a) => {
  const b = [...a].sort((x, y) => x - y), n = b.length;
  return n ? (n % 2 ? b[(n - 1) / 2] : (b[n / 2 - 1] + b[n / 2]) / 2) : 0;
};

async function cmdBench(args) {
  const o = parseArgs(args, { ...SESSION_SPEC, ...IO_SPEC, '--repeat': 'value' }, IO_ALIASES);
  if (o._.length !== 1) throw usage(o._.length ? `unexpected argument '${o._[1]}'` : 'bench needs one archive');
  const file = o._[0];
  const repeat = o['--repeat'] !== undefined ? parseCount(o['--repeat'], '--repeat') : 20;
  const { s, loadMs, HologramError } = await openSession(file, o);
  try {
    const inputs = buildInputs(s, o);
    const feeds = inputs.map(({ data, shape }) => ({ data, shape }));
    const sizes = s.inputs.map((p) => dtypeSize(p.dtype));
    const perturb = (r) => inputs.forEach((t, i) => {
      const es = sizes[i], n = es ? t.data.byteLength / es : 0;
      for (let j = 0; j < n && j < 32; j++) t.data[j * es] ^= (r >>> j) & 1;
    });
    const run = () => execOrFail(() => s.executeAddressed(feeds), file, HologramError);
    run(); // warm-up, untimed
    const full = [], hit = [];
    let memoInTimed = 0, memoInRepeat = 0, dispatches = 0;
    for (let r = 1; r <= repeat; r++) {
      perturb(r);
      let a = s.counters;
      let t = performance.now();
      run();
      full.push(performance.now() - t);
      let b = s.counters;
      memoInTimed += b.memoHits - a.memoHits;
      dispatches += b.dispatches - a.dispatches;
      t = performance.now();
      run();
      hit.push(performance.now() - t);
      a = s.counters;
      memoInRepeat += a.memoHits - b.memoHits;
      perturb(r); // restore
    }
    if (memoInTimed) console.error(`holo: ${file}: note: the memo answered ${memoInTimed} of the timed executions (inputs with very few elements)`);
    const r4 = (x) => Number(x.toFixed(4));
    console.log(JSON.stringify({
      archive: file, backend: s.backendIdentity, variant: s.backend, repeat, load_ms: r4(loadMs),
      median_ms: r4(median(full)), min_ms: r4(Math.min(...full)), max_ms: r4(Math.max(...full)),
      dispatches_per_execution: Number((dispatches / repeat).toFixed(1)), memo_hits_in_timed: memoInTimed,
      memo_hit_median_ms: Number(median(hit).toPrecision(3)), memo_hits_in_repeat: memoInRepeat,
    }));
  } finally {
    s.dispose();
  }
}

/**
 * The converter: in the repository, compiler/ (the sources); in the installed
 * package, bindings-js/compiler/ (the copy `make build` places there).
 */
async function importCompiler(file) {
  const repo = path.join(HERE, '..', '..', 'compiler', file);
  const inRepo = fs.existsSync(repo) && fs.existsSync(path.join(HERE, '..', '..', 'bindings-js', 'package.json'));
  return import(pathToFileURL(inRepo ? repo : path.join(HERE, '..', 'compiler', file)).href);
}

function progressReporter(enabled) {
  if (!enabled) return undefined;
  const t0 = performance.now();
  let last = -1, lastT = 0;
  const tty = process.stderr.isTTY;
  return (stage, done, total) => {
    const now = performance.now();
    const pct = total ? Math.floor((100 * done) / total) : 0;
    if (stage === 'nodes' && done < total && (pct === last || now - lastT < (tty ? 100 : 1000)) && done !== 0) return;
    last = pct; lastT = now;
    const msg = stage === 'nodes' ? `holo: converting: node ${done}/${total} (${pct}%)` : `holo: converting: ${{ decode: 'decoding the model', rewrites: 'rewriting and folding constants', emit: 'writing the archive' }[stage] ?? stage}${done ? ' done' : ''}`;
    const line = `${msg}, ${((now - t0) / 1000).toFixed(1)} s`;
    if (tty) process.stderr.write(`\r\x1b[K${line}`);
    else process.stderr.write(`${line}\n`);
  };
}

async function cmdConvert(args) {
  const o = parseArgs(args, { '--output': 'value', '--shape': 'value', '--no-fold': 'bool', '--no-fuse': 'bool', '--progress': 'bool' }, { '-o': '--output' });
  const shapes = {};
  for (const [flag, spec] of o.list) {
    if (flag !== '--shape') continue;
    const eq = spec.lastIndexOf('=');
    if (eq <= 0) throw usage(`--shape expects name=d0,d1,... (got '${spec}')`);
    shapes[spec.slice(0, eq)] = parseDims(spec.slice(eq + 1), `--shape ${spec.slice(0, eq)}:`);
  }
  if (o._.length > 1) throw usage(`unexpected argument '${o._[1]}'`);
  const input = o._[0], output = o['--output'];
  if (!input || !output) throw usage('convert needs an input model and -o <output>');
  const bytes = readFile(input, EXIT.archive);
  let convert;
  try {
    ({ convert } = await importCompiler('convert.js'));
  } catch (e) {
    if (e && e.code === 'ERR_MODULE_NOT_FOUND' && /onnx-proto|protobufjs/.test(e.message)) {
      throw fail(EXIT.resource, input, 'holo convert needs the optional package onnx-proto to read ONNX (npm install onnx-proto); run, info and bench do not');
    }
    if (e && e.code === 'ERR_MODULE_NOT_FOUND') throw fail(EXIT.resource, input, `the converter is not installed with this package (${e.message})`);
    throw e;
  }
  const tty = process.stderr.isTTY && !process.env.CI;
  const onProgress = progressReporter(o['--progress'] || (tty && bytes.length >= 1 << 20));
  let r;
  try {
    const { init } = await import('../index.js');
    let runtime;
    try { runtime = await init(); } catch { runtime = undefined; }
    r = convert(bytes, { shapes, fold: !o['--no-fold'], fuse: !o['--no-fuse'], onProgress, ...(runtime ? { runtime } : {}) });
  } catch (e) {
    if (onProgress && tty) process.stderr.write('\n');
    if (e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError) throw e;
    // a refusal: the converter's message names the op/opset/dtype (and starts with the subject)
    throw fail(EXIT.archive, input, e.message);
  }
  if (onProgress && tty) process.stderr.write('\n');
  writeFile(output, r.holo);
  const rep = r.report;
  const ops = Object.entries(rep.opsOut).map(([k, v]) => `${k}x${v}`).join(' ');
  console.log(`wrote ${output}: ${r.holo.length} bytes, ${rep.nodes} nodes (${ops || 'none'}), ${rep.constants} constants, opset ${rep.opset}`);
  for (const p of rep.inputs) console.log(`  input  ${p.name}: ${p.dtype}[${p.shape.join(',')}]`);
  for (const p of rep.outputs) console.log(`  output ${p.name}: ${p.dtype}${p.shape ? `[${p.shape.join(',')}]` : '[?]'}`);
  for (const l of rep.rewrites) console.log(`  ${l}`);
  if (!rep.backendChecked) console.error('holo: warning: the wasm runtime is unavailable; ops were not checked against the backend and nothing was folded through it');
}

const VERBS = { convert: cmdConvert, info: cmdInfo, run: cmdRun, bench: cmdBench };

async function main(argv) {
  const [cmd, ...args] = argv;
  if (!cmd || cmd === '-h' || cmd === '--help' || cmd === 'help') {
    if (cmd === 'help' && args[0] && HELP[args[0]]) console.log(HELP[args[0]]);
    else console.log(USAGE);
    return 0;
  }
  if (cmd === '--version' || cmd === '-V') {
    console.log(JSON.parse(fs.readFileSync(path.join(HERE, '..', 'package.json'), 'utf8')).version);
    return 0;
  }
  const verb = VERBS[cmd];
  if (!verb) throw usage(`unknown verb '${cmd}'`);
  if (args.includes('--help') || args.includes('-h')) { console.log(HELP[cmd]); return 0; }
  await verb(args);
  return 0;
}

const isMain = process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
if (isMain) {
  main(process.argv.slice(2)).then(
    (code) => { process.exitCode = code; },
    (e) => {
      if (e instanceof CliError) {
        console.error(`holo: ${e.message}`);
        process.exitCode = e.exit;
        return;
      }
      console.error(`holo: ${e && e.message ? e.message : e}`);
      process.exitCode = e && e.code === 'ERR_WASM_OUT_OF_MEMORY' ? EXIT.resource : EXIT.archive;
    },
  );
}
