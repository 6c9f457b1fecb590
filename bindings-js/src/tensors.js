// Marshalling between JS values and the core's records in wasm memory:
// inputs (bytes + shape, checked against their ports) into holo_input[],
// holo_view[] out into tensors, holo_port_info into port descriptions, and
// feeds in port order or by name.
import { HologramError } from './errors.js';
import { isBuffer } from './args.js';
import { CONST, Struct } from './layout.js';
import { decodeList, encodeInput, isListPort, OPT, SEQ } from './sequences.js';

// holo_dtype (the ONNX TensorProto numbering): name and typed array.
const DT = [['F32', 'float32', Float32Array], ['U8', 'uint8', Uint8Array], ['I8', 'int8', Int8Array], ['U16', 'uint16', Uint16Array],
  ['I16', 'int16', Int16Array], ['I32', 'int32', Int32Array], ['I64', 'int64', BigInt64Array], ['BOOL', 'bool', Uint8Array],
  ['F16', 'float16', Uint16Array], ['F64', 'float64', Float64Array], ['U32', 'uint32', Uint32Array], ['U64', 'uint64', BigUint64Array],
  ['BF16', 'bfloat16', Uint16Array]];
const DTYPES = Object.fromEntries(DT.map(([c, name]) => [CONST[`HOLO_DT_${c}`], name]));
const ARRAYS = Object.fromEntries(DT.map(([c, , A]) => [CONST[`HOLO_DT_${c}`], A]));
const UINT8 = CONST.HOLO_DT_U8; // a Uint8ClampedArray may feed it
const RANK_UNKNOWN = 255; // holo_port_info.rank of an output whose rank inference left open
const INPUT = new Struct('holo_input', ['bytes', 'len', 'shape', 'rank']);
const VIEW = new Struct('holo_view', ['label', 'data', 'len', 'dtype', 'rank', 'shape']);
const PORT = new Struct('holo_port_info', ['name', 'name_len', 'dtype', 'rank', 'shape', 'symbol', 'symbol_len']);
const DIM = VIEW.extent('shape').size; // bytes of one int64 dimension
const DIM_HIGH = DIM / 2; // where a little-endian int64 dimension keeps its high 32 bits

/** The dtype name of a holo_dtype code (the code as a string when unknown). */
export const dtypeName = (code) => (code === SEQ ? 'sequence' : code === OPT ? 'optional' : DTYPES[code] ?? String(code));
const CODES = { sequence: SEQ, optional: OPT };
const isTensorObject = (t) => t !== null && typeof t === 'object' && !ArrayBuffer.isView(t) && !isBuffer(t) && !Array.isArray(t) && 'data' in t;
const arrayName = (A) => (A === Uint8Array ? 'Uint8Array' : A.name);

function bytesOf(data, port, where) {
  const A = ARRAYS[port.dtypeCode];
  if (isBuffer(data)) return new Uint8Array(data);
  if (data instanceof Uint8Array || data instanceof DataView) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (ArrayBuffer.isView(data)) {
    const ok = data.constructor === A || (port.dtype === 'float16' && typeof Float16Array !== 'undefined' && data instanceof Float16Array) || (port.dtypeCode === UINT8 && data instanceof Uint8ClampedArray);
    if (!ok) throw new HologramError('INPUT', `${where}: a ${data.constructor.name} does not match dtype ${port.dtype} (pass a ${arrayName(A)}, or raw bytes as a Uint8Array)`);
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  if (Array.isArray(data)) {
    if (!A || port.dtype === 'float16' || port.dtype === 'bfloat16') throw new HologramError('INPUT', `${where}: a plain array cannot be converted to dtype ${port.dtype}; pass bytes`);
    try {
      const big = A === BigInt64Array || A === BigUint64Array;
      return new Uint8Array(A.from(data, big ? (v) => BigInt(v) : Number).buffer);
    } catch (e) {
      throw new HologramError('INPUT', `${where}: cannot convert the array to ${port.dtype}: ${e.message}`);
    }
  }
  throw new HologramError('INPUT', `${where}: expected bytes, a typed array, an array or { data, shape }`);
}

function shapeOf(shape, where) {
  if (shape === undefined || shape === null) return undefined;
  if (!Array.isArray(shape) && !ArrayBuffer.isView(shape)) throw new HologramError('INPUT', `${where}: shape must be an array`);
  shape = Array.from(shape);
  if (shape.length > CONST.HOLO_MAX_RANK) throw new HologramError('INPUT', `${where}: rank ${shape.length} exceeds ${CONST.HOLO_MAX_RANK}`);
  for (const d of shape) {
    const ok = typeof d === 'bigint' ? d >= 0n : Number.isSafeInteger(d) && d >= 0;
    if (!ok) throw new HologramError('INPUT', `${where}: shape [${shape}] has an invalid dimension ${String(d)}`);
  }
  return shape;
}

/** Bytes and shape of one input, checked against its port. */
function inputBytes(t, port, i) {
  const where = `input ${i} (${port.name})`;
  if (isListPort(port)) {
    if (t === undefined) throw new HologramError('INPUT', `${where}: missing (an empty optional is null)`);
    return encodeInput(t, port, where);
  }
  if (isListPort({ dtypeCode: CODES[t?.dtype] }) || Array.isArray(t) && t.length && isTensorObject(t[0]))
    throw new HologramError('INPUT', `${where}: a sequence or optional given where the port takes a ${port.dtype} tensor`);
  if (t === undefined || t === null) throw new HologramError('INPUT', `${where}: missing`);
  let data = t, shape;
  if (isTensorObject(t)) {
    data = t.data;
    shape = t.shape ?? t.dims;
    if (t.dtype !== undefined && t.dtype !== port.dtype) throw new HologramError('INPUT', `${where}: dtype '${t.dtype}' does not match the port's dtype '${port.dtype}'`);
  }
  const bytes = bytesOf(data, port, where);
  return { bytes, shape: shapeOf(shape, where) };
}

/** Feeds { name: tensor } (or a Map) in port order. */
export function byName(ports, feeds, what) {
  if (feeds === null || typeof feeds !== 'object' || Array.isArray(feeds)) throw new HologramError('INPUT', `${what}: feeds must be an object { inputName: tensor }`);
  const get = feeds instanceof Map ? (k) => feeds.get(k) : (k) => (Object.prototype.hasOwnProperty.call(feeds, k) ? feeds[k] : undefined);
  const keys = feeds instanceof Map ? [...feeds.keys()] : Object.keys(feeds);
  for (const k of keys) if (!ports.some((p) => p.name === k)) throw new HologramError('INPUT', `${what}: unknown input '${k}' (inputs: ${ports.map((p) => p.name).join(', ')})`);
  return ports.map((p) => {
    const t = get(p.name);
    if (t === undefined) throw new HologramError('INPUT', `${what}: missing feed for input '${p.name}'`);
    return t;
  });
}

/** Inputs in port order: an array as it is, named feeds by name. */
export function ordered(ports, inputs, what) {
  if (Array.isArray(inputs)) return inputs;
  if (inputs !== null && typeof inputs === 'object' && !ArrayBuffer.isView(inputs)) return byName(ports, inputs, what);
  throw new HologramError('INPUT', `${what}: inputs must be an array in port order or an object of named feeds`);
}

/** The name of the entropy input the converter gives an archive with unseeded random ops (docs/decisions.md 99). */
export const ENTROPY = 'holo.entropy';

/** The archive's entropy port (its last input, u32 [4]), or null. */
export function entropyPort(ports) {
  const p = ports[ports.length - 1];
  return p && p.name === ENTROPY && p.dtype === 'uint32' && p.shape?.length === 1 && p.shape[0] === 4 ? p : null;
}

/** 16 fresh random bytes (crypto.getRandomValues). */
function freshEntropy() {
  const c = globalThis.crypto;
  if (!c || typeof c.getRandomValues !== 'function') throw new HologramError('UNSUPPORTED', `this host has no crypto.getRandomValues to fill '${ENTROPY}' (pass it as a feed)`);
  return { data: c.getRandomValues(new Uint32Array(4)), shape: [4] };
}

/**
 * Inputs in port order over `ports` (every port of the archive) when the
 * last is the entropy port and the caller may leave it out: `visible` are
 * the other ports. An array of visible.length inputs, or named feeds
 * without the entropy, get fresh entropy; given, it is used as it is (the
 * run is then reproducible).
 */
export function orderedWithEntropy(ports, visible, inputs, what) {
  if (ports.length === visible.length) return ordered(ports, inputs, what);
  if (Array.isArray(inputs)) return inputs.length === visible.length ? [...inputs, freshEntropy()] : inputs;
  if (inputs === null || typeof inputs !== 'object' || ArrayBuffer.isView(inputs)) return ordered(ports, inputs, what);
  const has = inputs instanceof Map ? inputs.has(ENTROPY) : Object.prototype.hasOwnProperty.call(inputs, ENTROPY);
  if (has) return byName(ports, inputs, what);
  return [...byName(visible, inputs, what), freshEntropy()];
}

/**
 * Writes holo_input[] for `inputs` (port order); returns [array pointer,
 * pointers to free, pointer to `tail` bytes (0: none asked)]. The array,
 * every input's bytes (64-byte aligned) and dims, and the tail are one heap
 * block: one alloc and one free per call, not two per input (a 3-input
 * execute made 8 allocs and 8 frees, ~1 µs).
 */
export function marshalInputs(rt, ports, inputs, what, tail = 0) {
  if (inputs.length !== ports.length) throw new HologramError('INPUT', `${what}: expected ${ports.length} input${ports.length === 1 ? '' : 's'} (${ports.map((p) => p.name).join(', ')}), got ${inputs.length}`);
  const prepared = inputs.map((t, i) => inputBytes(t, ports[i], i));
  const up = (n, a) => Math.ceil(n / a) * a;
  let end = INPUT.sizeof * Math.max(prepared.length, 1);
  const at = prepared.map(({ bytes, shape }) => {
    const data = (end = up(end, 64));
    end += bytes.byteLength;
    const dims = shape ? (end = up(end, DIM)) : 0;
    if (shape) end += DIM * Math.max(shape.length, 1);
    return [data, dims];
  });
  const tailAt = tail ? (end = up(end, 16)) : 0;
  end += tail;
  const block = rt.alloc(end, 64);
  const owned = [block];
  const mem = new Uint8Array(rt.mem), dv = rt.dv();
  prepared.forEach(({ bytes, shape }, i) => {
    const p = block + at[i][0];
    mem.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), p);
    let shapePtr = 0;
    if (shape) {
      shapePtr = block + at[i][1];
      // a Number dim (shapeOf: a safe integer >= 0) as two 32-bit halves: no BigInt made per dim
      shape.forEach((d, k) => {
        const q = shapePtr + DIM * k;
        if (typeof d === 'bigint') dv.setBigInt64(q, d, true);
        else (dv.setUint32(q, d % 2 ** 32, true), dv.setUint32(q + DIM_HIGH, Math.floor(d / 2 ** 32), true));
      });
    }
    const q = block + INPUT.sizeof * i;
    INPUT.set(dv, q, 'bytes', p);
    INPUT.set(dv, q, 'len', bytes.byteLength);
    INPUT.set(dv, q, 'shape', shapePtr);
    INPUT.set(dv, q, 'rank', shape ? shape.length : 0);
  });
  return [block, owned, tail ? block + tailAt : 0];
}

/** Bytes to allocate for n holo_view records. */
export const viewsBytes = (n) => VIEW.sizeof * Math.max(n, 1);

function readView(rt, dv, v) {
  return {
    label: rt.cstr(v + VIEW.offset('label'), CONST.HOLO_LABEL_LEN),
    ptr: VIEW.get(dv, v, 'data'),
    byteLength: VIEW.get(dv, v, 'len'),
    dtypeCode: VIEW.get(dv, v, 'dtype'),
    shape: Array.from({ length: VIEW.get(dv, v, 'rank') }, (_, d) => VIEW.num(dv, v, 'shape', d)),
  };
}

function tensorOf(rt, r, copy) {
  if (r.dtypeCode === SEQ || r.dtypeCode === OPT) {
    // a sequence or optional: decoded into its own arrays (a copy), its label kept
    const v = decodeList(new Uint8Array(rt.mem, r.ptr, r.byteLength).slice(), r.dtypeCode);
    if (v !== null) Object.defineProperty(v, 'label', { value: r.label, enumerable: false });
    return v;
  }
  const A = ARRAYS[r.dtypeCode] ?? Uint8Array;
  let data;
  if (!copy && r.ptr % A.BYTES_PER_ELEMENT === 0 && r.byteLength % A.BYTES_PER_ELEMENT === 0) data = new A(rt.mem, r.ptr, r.byteLength / A.BYTES_PER_ELEMENT);
  else {
    const c = new Uint8Array(rt.mem, r.ptr, r.byteLength).slice();
    data = c.byteLength % A.BYTES_PER_ELEMENT === 0 ? new A(c.buffer) : c;
  }
  return { data, dtype: dtypeName(r.dtypeCode), shape: r.shape, label: r.label };
}

/** The n holo_view records at `views` as tensors (copies, or views into wasm memory). */
export function readTensors(rt, views, n, copy) {
  const dv = rt.dv(), out = [];
  for (let k = 0; k < n; k++) out.push(tensorOf(rt, readView(rt, dv, views + VIEW.sizeof * k), copy));
  return out;
}

/** The session's input (or output) ports: { name, dtype, dtypeCode, shape }, frozen. */
export function readPorts(rt, s, input) {
  const x = rt.x;
  const n = input ? x.holo_session_input_count(s) : x.holo_session_output_count(s);
  const info = rt.alloc(PORT.sizeof);
  const out = [];
  try {
    for (let i = 0; i < n; i++) {
      (input ? x.holo_session_input_info : x.holo_session_output_info)(s, i, info);
      const dv = rt.dv();
      const rank = PORT.get(dv, info, 'rank');
      const shape = rank === RANK_UNKNOWN ? null : Object.freeze(Array.from({ length: rank }, (_, d) => {
        const v = PORT.num(dv, info, 'shape', d);
        return v < 0 ? rt.cstr(PORT.get(dv, info, 'symbol', d), PORT.get(dv, info, 'symbol_len', d)) : v;
      }));
      const dtypeCode = PORT.get(dv, info, 'dtype');
      out.push(Object.freeze({ name: rt.cstr(PORT.get(dv, info, 'name'), PORT.get(dv, info, 'name_len')), dtype: dtypeName(dtypeCode), dtypeCode, shape }));
    }
  } finally {
    x.holo_free(info);
  }
  return out;
}
