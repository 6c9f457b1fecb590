// ONNX protobuf decoding for the converter (compiler/convert.js).
//
//   readModel(bytes)  -> { irVersion, opsets: {domain: version}, producer, graph }
//   readTensor(bytes) -> { name, dtype, dims, bytes }   (a standalone TensorProto .pb file)
//   tensorFromProto(tp, what, ctx) -> { name, dtype, dims, bytes } (a decoded onnx.TensorProto)
//
// readModel's `externalData` (a function or an object, compiler/onnx-external.js)
// gives the bytes of tensors kept in side files; model.externalBytes counts them.
//
// Decoding is done by the onnx-proto (protobufjs) schema; this file only turns
// the decoded messages into plain JS: int64 fields become numbers (BigInt when
// not exactly representable), tensors become little-endian bytes in the
// `.holo` dtype codes (the ONNX TensorProto codes). Anything that cannot be
// represented (external data without `externalData`, strings, complex, float8, sequence types) is
// refused with an Error naming the tensor or value.
import onnxProto from 'onnx-proto';
import { externalBytes, isExternal } from './onnx-external.js';

const { onnx } = onnxProto;
export { onnx };

/** ONNX TensorProto data type code -> byte size, for the codes .holo accepts. */
export const DTYPE_SIZE = new Map([
  [1, 4], [2, 1], [3, 1], [4, 2], [5, 2], [6, 4], [7, 8], [9, 1], [10, 2], [11, 8], [12, 4], [13, 8], [16, 2],
]);
export const DTYPE_NAME = {
  0: 'undefined', 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 8: 'string',
  9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64', 14: 'complex64', 15: 'complex128', 16: 'bfloat16',
};
export const dtypeName = (d) => DTYPE_NAME[d] ?? `dtype ${d}`;
/** Largest tensor the converter materialises: the 32-bit runtime addresses less than 4 GiB. */
export const MAX_TENSOR_BYTES = 2 ** 32 - 1;

const utf8 = new TextDecoder();

/** protobufjs int64 (Long, number or string) -> number when safe, else BigInt. */
export function int64(v) {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? Number(v) : v;
  if (typeof v === 'string') return int64(BigInt(v));
  // Long
  const b = (BigInt(v.high >>> 0) << 32n) | BigInt(v.low >>> 0);
  const s = v.unsigned ? b : BigInt.asIntN(64, b);
  return int64(s);
}
/** protobufjs int64 -> BigInt (exact). */
export function int64Big(v) {
  const x = int64(v);
  return typeof x === 'bigint' ? x : BigInt(x);
}

// The TensorProto field holding the elements of each dtype (when not raw_data).
const DATA_FIELD = { 1: ['floatData', 'float_data'], 11: ['doubleData', 'double_data'], 7: ['int64Data', 'int64_data'], 12: ['uint64Data', 'uint64_data'], 13: ['uint64Data', 'uint64_data'] };

/**
 * A decoded TensorProto -> { name, dtype, dims, bytes }. ctx: { externalData,
 * externalBytes } -- the provider of external tensors' bytes, and the count of
 * bytes read through it (added to here).
 */
export function tensorFromProto(tp, what = `tensor '${tp.name ?? ''}'`, ctx = {}) {
  const dtype = tp.dataType ?? 0;
  const dims = (tp.dims ?? []).map((d) => {
    const n = int64(d);
    if (typeof n !== 'number' || n < 0) throw new Error(`${what}: invalid dim ${n}`);
    return n;
  });
  if (!isExternal(tp) && tp.externalData?.length)
    throw new Error(`${what}: external_data entries but data_location is not EXTERNAL (is the data in the file or beside it?)`);
  if (tp.segment) throw new Error(`${what}: segmented tensors are not supported`);
  if (!DTYPE_SIZE.has(dtype)) throw new Error(`${what}: data type ${dtypeName(dtype)} is not supported`);
  const size = DTYPE_SIZE.get(dtype);
  const numel = dims.reduce((a, d) => a * d, 1);
  const nbytes = numel * size;
  // The element count is checked against the data actually present before
  // anything is allocated: a declared dim must not make the converter
  // allocate (a 2^40-element initializer with 8 bytes of raw_data is refused).
  if (!Number.isSafeInteger(nbytes) || nbytes > MAX_TENSOR_BYTES)
    throw new Error(`${what}: dims ${JSON.stringify(dims)} x ${size} bytes exceed the ${MAX_TENSOR_BYTES}-byte limit of a tensor`);
  if (isExternal(tp)) {
    const bytes = externalBytes(tp, what, nbytes, ctx.externalData);
    ctx.externalBytes = (ctx.externalBytes ?? 0) + bytes.length;
    return { name: tp.name ?? '', dtype, dims, bytes };
  }
  const raw = tp.rawData;
  if (raw && raw.length) {
    if (raw.length !== nbytes) throw new Error(`${what}: raw_data has ${raw.length} bytes, dims ${JSON.stringify(dims)} x ${size} need ${nbytes}`);
    return { name: tp.name ?? '', dtype, dims, bytes: new Uint8Array(raw) };
  }
  const [key, pname] = DATA_FIELD[dtype] ?? ['int32Data', 'int32_data'];
  const data = tp[key] ?? [];
  if (data.length !== numel) throw new Error(`${what}: ${pname} has ${data.length} elements, dims ${JSON.stringify(dims)} need ${numel}`);
  const out = new Uint8Array(nbytes);
  const dv = new DataView(out.buffer);
  switch (dtype) {
    case 1: data.forEach((x, i) => dv.setFloat32(4 * i, x, true)); break;
    case 11: data.forEach((x, i) => dv.setFloat64(8 * i, x, true)); break;
    case 7: data.forEach((x, i) => dv.setBigInt64(8 * i, int64Big(x), true)); break;
    case 12: data.forEach((x, i) => dv.setUint32(4 * i, Number(int64Big(x) & 0xffffffffn), true)); break;
    case 13: data.forEach((x, i) => dv.setBigUint64(8 * i, BigInt.asUintN(64, int64Big(x)), true)); break;
    case 6: data.forEach((x, i) => dv.setInt32(4 * i, x, true)); break;
    case 5: data.forEach((x, i) => dv.setInt16(2 * i, x, true)); break;
    // float16 and bfloat16 elements are their bit patterns in int32_data
    case 4: case 10: case 16: data.forEach((x, i) => dv.setUint16(2 * i, x & 0xffff, true)); break;
    case 3: data.forEach((x, i) => dv.setInt8(i, x)); break;
    case 2: data.forEach((x, i) => dv.setUint8(i, x & 0xff)); break;
    case 9: data.forEach((x, i) => dv.setUint8(i, x ? 1 : 0)); break;
    default: throw new Error(`${what}: data type ${dtypeName(dtype)} is not supported`);
  }
  return { name: tp.name ?? '', dtype, dims, bytes: out };
}

/** A standalone serialized TensorProto (e.g. test_data_set_0/input_0.pb). */
export function readTensor(bytes) {
  let tp;
  try {
    tp = onnx.TensorProto.decode(bytes);
  } catch (e) {
    throw new Error(`not a TensorProto: ${e.message}`);
  }
  return tensorFromProto(tp);
}

const ATTR = { UNDEFINED: 0, FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8, TENSORS: 9, GRAPHS: 10, SPARSE_TENSOR: 11, SPARSE_TENSORS: 12, TYPE_PROTO: 13 };

/**
 * An AttributeProto -> { type, value }: type one of 'float' 'int' 'string'
 * 'tensor' 'floats' 'ints' 'strings' and 'graph' / 'other' (kept opaque, so
 * that an op using one is refused by the converter, not here).
 */
export function decodeAttr(a, where, ctx = {}) {
  let t = a.type ?? 0;
  if (a.refAttrName) return { type: 'other', value: null, why: 'a reference attribute (functions only)' };
  if (t === ATTR.UNDEFINED) { // very old models: infer from the field set
    if (a.floats?.length) t = ATTR.FLOATS;
    else if (a.ints?.length) t = ATTR.INTS;
    else if (a.strings?.length) t = ATTR.STRINGS;
    else if (a.t) t = ATTR.TENSOR;
    else if (a.g) t = ATTR.GRAPH;
    else if (a.s?.length) t = ATTR.STRING;
    else if (a.i !== undefined && a.i !== null && int64(a.i) !== 0) t = ATTR.INT;
    else t = ATTR.FLOAT;
  }
  switch (t) {
    case ATTR.FLOAT: return { type: 'float', value: a.f ?? 0 };
    case ATTR.INT: return { type: 'int', value: int64(a.i) };
    case ATTR.STRING: return { type: 'string', value: utf8.decode(a.s ?? new Uint8Array()) };
    case ATTR.TENSOR:
      if (!a.t) throw new Error(`${where} attribute '${a.name}': of type TENSOR but holds no tensor`);
      return { type: 'tensor', value: tensorFromProto(a.t, `${where} attribute '${a.name}'`, ctx) };
    case ATTR.FLOATS: return { type: 'floats', value: [...(a.floats ?? [])] };
    case ATTR.INTS: return { type: 'ints', value: (a.ints ?? []).map(int64) };
    case ATTR.STRINGS: return { type: 'strings', value: (a.strings ?? []).map((s) => utf8.decode(s)) };
    // a subgraph (If's branches, Loop's and Scan's body) is decoded like the
    // main graph; only the control-flow normalizers accept one
    case ATTR.GRAPH:
      if (!a.g) throw new Error(`${where} attribute '${a.name}': of type GRAPH but holds no graph`);
      return { type: 'graph', value: decodeGraph(a.g, ctx), why: 'a subgraph attribute' };
    // a TypeProto (Optional's `type`): the element type of a tensor type, else unknown (0)
    case ATTR.TYPE_PROTO: return { type: 'typeproto', value: a.tp?.tensorType?.elemType ?? a.tp?.sequenceType?.elemType?.tensorType?.elemType ?? 0, seq: !!a.tp?.sequenceType, why: 'a type attribute' };
    case ATTR.GRAPHS: return { type: 'other', value: null, why: 'a list of subgraphs' };
    default: return { type: 'other', value: null, why: `an attribute of type ${t}` };
  }
}

/**
 * A ValueInfoProto -> { name, dtype, shape } with shape an array of
 * (number | string | null) — string = dim_param, null = unknown dim — or null
 * for an unknown rank. Non-tensor types get dtype 0 and `nonTensor` set.
 */
export function decodeValueInfo(vi) {
  const tt = vi.type?.tensorType;
  const list = listType(vi.type);
  if (list) return { name: vi.name, dtype: list.dtype, shape: null, list };
  if (!tt) {
    const kind = vi.type ? Object.keys(vi.type).find((k) => vi.type[k] && k !== 'denotation') : undefined;
    return { name: vi.name, dtype: 0, shape: null, nonTensor: kind ?? 'unknown type' };
  }
  const dtype = tt.elemType ?? 0;
  if (!tt.shape) return { name: vi.name, dtype, shape: null };
  const shape = (tt.shape.dim ?? []).map((d) => {
    if (d.value === 'dimParam' && d.dimParam) return d.dimParam;
    if (d.value === 'dimValue') {
      const n = int64(d.dimValue);
      return typeof n === 'number' && n >= 0 ? n : null;
    }
    return null; // neither field set: unknown dim
  });
  return { name: vi.name, dtype, shape };
}

/**
 * A sequence or optional TypeProto -> { dtype: 128 (sequence) | 129
 * (optional), elem: the tensors' dtype, elemSeq: an optional's element is a
 * sequence }, or null (a tensor, or a type the archive cannot hold: a map,
 * a sequence of sequences, an optional of an optional).
 */
export function listType(t) {
  const tensorElem = (x) => (x?.tensorType ? x.tensorType.elemType ?? 0 : null);
  if (t?.sequenceType) {
    const e = tensorElem(t.sequenceType.elemType);
    return e === null ? null : { dtype: 128, elem: e, elemSeq: false };
  }
  if (t?.optionalType) {
    const inner = t.optionalType.elemType;
    const e = tensorElem(inner);
    if (e !== null) return { dtype: 129, elem: e, elemSeq: false };
    const s = inner?.sequenceType ? tensorElem(inner.sequenceType.elemType) : null;
    return s === null ? null : { dtype: 129, elem: s, elemSeq: true };
  }
  return null;
}

function decodeGraph(g, ctx) {
  const nodes = (g.node ?? []).map((n, i) => {
    const where = `node '${n.name || `#${i}`}' (${n.opType})`;
    // null prototype: an attribute named '__proto__' or 'constructor' is an
    // ordinary (unknown, refused) attribute, not a property of Object
    const attrs = Object.create(null);
    for (const a of n.attribute ?? []) {
      if (Object.hasOwn(attrs, a.name ?? '')) throw new Error(`${where}: attribute '${a.name}' is given twice`);
      attrs[a.name ?? ''] = decodeAttr(a, where, ctx);
    }
    return { opType: n.opType, domain: n.domain ?? '', name: n.name ?? '', inputs: [...(n.input ?? [])], outputs: [...(n.output ?? [])], attrs };
  });
  const initializers = (g.initializer ?? []).map((t) => tensorFromProto(t, `initializer '${t.name}'`, ctx));
  const inputs = (g.input ?? []).map(decodeValueInfo);
  const seen = new Set();
  for (const [k, v] of inputs.entries()) {
    if (!v.name) throw new Error(`graph input #${k} has no name`);
    if (seen.has(v.name)) throw new Error(`graph input '${v.name}' is declared twice`);
    seen.add(v.name);
  }
  if ((g.sparseInitializer ?? []).length) throw new Error(`sparse initializers are not supported ('${g.sparseInitializer[0].values?.name ?? ''}')`);
  return {
    name: g.name ?? '',
    nodes,
    initializers,
    inputs,
    outputs: (g.output ?? []).map(decodeValueInfo),
    valueInfo: (g.valueInfo ?? []).map(decodeValueInfo),
  };
}

/**
 * Decode a serialized ModelProto. opts.externalData: the provider of external
 * tensors' bytes (compiler/onnx-external.js); the result's externalBytes is
 * how many bytes it gave.
 */
export function readModel(bytes, opts = {}) {
  let mp;
  try {
    mp = onnx.ModelProto.decode(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
  } catch (e) {
    throw new Error(`not an ONNX model: ${e.message}`);
  }
  if (!mp.graph) throw new Error('not an ONNX model: no graph');
  const opsets = {};
  for (const o of mp.opsetImport ?? []) opsets[o.domain ?? ''] = Number(int64(o.version));
  const ctx = { externalData: opts.externalData, externalBytes: 0 };
  const graph = decodeGraph(mp.graph, ctx);
  return {
    irVersion: Number(int64(mp.irVersion)),
    opsets,
    producer: [mp.producerName, mp.producerVersion].filter(Boolean).join(' '),
    graph,
    externalBytes: ctx.externalBytes,
  };
}
