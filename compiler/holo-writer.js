// Writer of the `.holo` archive, version 1.0 (docs/holo-format.md).
//
//   writeHolo(graph) -> Uint8Array        graph = the graph JSON of docs/holo-format.md §8
//   constantDigest(dtype, shape, bytes)   -> 64 lowercase hex (§5 content preimage)
//
// The output is deterministic (§6): the same graph always gives the same bytes.
// The graph is validated first; anything the reader would reject throws an
// Error naming the offending value, node or attribute.
import { createHash } from 'node:crypto';
import { checkNestedGraphs } from './holo-graphs.js';

export const MAGIC = Uint8Array.from([0x89, 0x48, 0x4f, 0x4c, 0x4f, 0x0d, 0x0a, 0x1a]);
export const MAJOR = 1;
export const MINOR = 0;
/** The minor an archive with nested graphs (GRPH) is written with. */
export const MINOR_GRAPHS = 1;
export const HEADER_SIZE = 32;
export const SECTION_ENTRY_SIZE = 24;
export const MAX_SECTIONS = 64;
export const FLAG_REQUIRED = 1;
export const MAX_RANK = 8;
export const RANK_UNKNOWN = 255;
export const MAX_VALUES = 1 << 24;
export const MAX_NODES = 1 << 24;
export const MAX_NODE_IN = 64;
export const MAX_NODE_OUT = 64;
export const MAX_PORTS = 4096;
export const ABSENT = 0xffffffff;
export const KIND = { input: 0, const: 1, node: 2, 'graph-input': 3 };
export const KIND_NAMES = ['input', 'const', 'node', 'graph-input'];
export const DTYPE_SIZE = new Map([
  [1, 4], [2, 1], [3, 1], [4, 2], [5, 2], [6, 4], [7, 8], [9, 1], [10, 2], [11, 8], [12, 4], [13, 8], [16, 2],
  // a sequence and an optional: one byte string each (docs/holo-format.md §4b)
  [128, 1], [129, 1],
]);
export const ATTR_TYPES = { int: 1, float: 2, ints: 3, floats: 4, string: 5 };
export const ATTR_TYPE_NAMES = [null, 'int', 'float', 'ints', 'floats', 'string'];
export const RECORD_SIZE = { SYMS: 8, VALS: 80, CONS: 48, ATTR: 24, NODE: 32, IOIX: 4, META: 16, STAT: 8, GRPH: 32 };
export const SECTION_ORDER = ['STRS', 'SYMS', 'VALS', 'CONS', 'ATTR', 'NODE', 'IOIX', 'PORT', 'META', 'STAT', 'GRPH', 'DATA'];
export const CONTENT_PREFIX = 'holo/content/v1\0';
export const CONTENT_TREE_PREFIX = 'holo/content-tree/v1\0';
export const CONTENT_CHUNK = 65536;
const CONTENT_LEAF_BLOCK = Buffer.alloc(64);
CONTENT_LEAF_BLOCK.write('holo/content-leaf/v1', 0, 'latin1');

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U32_MAX = 0xffffffff;
const enc = new TextEncoder();

const align = (n, a) => Math.ceil(n / a) * a;

/** Bytes of `data`: Uint8Array / typed array / ArrayBuffer / DataView / hex string. */
export function toBytes(data, what = 'data') {
  if (typeof data === 'string') {
    if (data.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(data))
      throw new Error(`${what}: not an even-length hex string`);
    return Uint8Array.from(Buffer.from(data, 'hex'));
  }
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new Error(`${what}: expected hex string or bytes, got ${typeof data}`);
}

/** Parse an i64 given as number, bigint or decimal string; throws (naming `what`) otherwise. */
export function toI64(v, what) {
  let b;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number') {
    if (!Number.isInteger(v)) throw new Error(`${what}: ${v} is not an integer`);
    b = BigInt(v);
  } else if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) b = BigInt(v);
  else throw new Error(`${what}: ${JSON.stringify(String(v))} is not an integer (number, bigint or decimal string)`);
  if (b < I64_MIN || b > I64_MAX) throw new Error(`${what}: ${b} is outside the int64 range`);
  return b;
}

/**
 * §5 content digest of a tensor: up to CONTENT_CHUNK bytes, SHA-256 of
 * "holo/content/v1\0" || u32 dtype || u32 rank || i64 dims || bytes; more, the
 * tree label: SHA-256 of "holo/content-tree/v1\0" || u32 dtype || u32 rank ||
 * i64 dims || u64 length || the leaf digests, a leaf being the SHA-256 of the
 * 64-byte block "holo/content-leaf/v1" (NUL-padded) || one 64 KiB chunk.
 */
export function constantDigest(dtype, shape, bytes) {
  const b = toBytes(bytes, 'constantDigest bytes');
  const tree = b.length > CONTENT_CHUNK;
  const tag = tree ? CONTENT_TREE_PREFIX : CONTENT_PREFIX;
  const head = Buffer.alloc(tag.length + 8 + 8 * shape.length + (tree ? 8 : 0));
  head.write(tag, 0, 'latin1');
  head.writeUInt32LE(dtype >>> 0, tag.length);
  head.writeUInt32LE(shape.length >>> 0, tag.length + 4);
  shape.forEach((d, i) => head.writeBigInt64LE(toI64(d, `constantDigest dim ${i}`), tag.length + 8 + 8 * i));
  if (!tree) return createHash('sha256').update(head).update(b).digest('hex');
  head.writeBigUInt64LE(BigInt(b.length), tag.length + 8 + 8 * shape.length);
  const root = createHash('sha256').update(head);
  for (let at = 0; at < b.length; at += CONTENT_CHUNK)
    root.update(createHash('sha256').update(CONTENT_LEAF_BLOCK).update(b.subarray(at, at + CONTENT_CHUNK)).digest());
  return root.digest('hex');
}

function describeValue(g, id) {
  const v = g.values[id];
  return `value ${id}${v && typeof v.name === 'string' ? ` (${JSON.stringify(v.name)})` : ''}`;
}
function describeNode(g, i) {
  const n = g.nodes[i];
  return `node ${i}${n ? ` (${n.op}${n.name ? ' ' + JSON.stringify(n.name) : ''})` : ''}`;
}

function isPlainArray(a) {
  return Array.isArray(a);
}

const fail = (msg) => { throw new Error(`holo-writer: ${msg}`); };

/** The graph's arrays (absent ones empty; values is required). */
function graphArrays(graph) {
  if (graph === null || typeof graph !== 'object') fail('graph must be an object');
  const arrays = {
    meta: graph.meta ?? [],
    symbols: graph.symbols ?? [],
    values: graph.values,
    nodes: graph.nodes ?? [],
    inputs: graph.inputs ?? [],
    outputs: graph.outputs ?? [],
    graphs: graph.graphs ?? [],
  };
  for (const [k, a] of Object.entries(arrays))
    if (!isPlainArray(a)) fail(`"${k}" must be an array`);
  return arrays;
}

function normMeta(meta) {
  return meta.map((p, i) => {
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string')
      fail(`meta[${i}] must be a [key, value] pair of strings`);
    return [p[0], p[1]];
  });
}

/** Map(symbol -> index); symbols are non-empty and distinct. */
function symbolIndex(symbols) {
  const symIndex = new Map();
  symbols.forEach((s, i) => {
    if (typeof s !== 'string' || s.length === 0) fail(`symbols[${i}] must be a non-empty string`);
    if (symIndex.has(s)) fail(`symbol ${JSON.stringify(s)} is listed twice`);
    symIndex.set(s, i);
  });
  return symIndex;
}

/** A value's dims as i64 (a symbol d as -index-1), or null for unknown rank. */
function normDims(v, kind, dv, symIndex) {
  if (v.shape === null || v.shape === undefined) {
    if (kind !== KIND.node && kind !== KIND['graph-input'])
      fail(`${dv()}: unknown rank (shape null) is only allowed for node outputs and graph inputs`);
    return null;
  }
  if (!Array.isArray(v.shape)) fail(`${dv()}: shape must be an array or null`);
  if (v.shape.length > MAX_RANK) fail(`${dv()}: rank ${v.shape.length} exceeds ${MAX_RANK}`);
  return v.shape.map((d, k) => {
    if (typeof d === 'string') {
      if (!symIndex.has(d)) fail(`${dv()}: dim ${k} names symbol ${JSON.stringify(d)} which is not in "symbols"`);
      if (kind === KIND.const) fail(`${dv()}: constant dims must be concrete, dim ${k} is symbol ${JSON.stringify(d)}`);
      return -BigInt(symIndex.get(d)) - 1n;
    }
    if (typeof d === 'bigint' ? d < 0n : !(Number.isSafeInteger(d) && d >= 0))
      fail(`${dv()}: dim ${k} = ${d} is not a non-negative integer or symbol name`);
    return BigInt(d);
  });
}

/** { name, dtype, kind (code), dims, aux, bytes?, digestHex? } of value `id`. */
function normValue(graph, v, id, symIndex) {
  const dv = () => describeValue(graph, id);
  if (v === null || typeof v !== 'object') fail(`value ${id} must be an object`);
  if (typeof v.name !== 'string') fail(`${dv()}: name must be a string`);
  if (!DTYPE_SIZE.has(v.dtype)) fail(`${dv()}: dtype ${JSON.stringify(v.dtype)} is not a known dtype code`);
  if ((v.dtype === 128 || v.dtype === 129) && v.shape && v.shape.length !== 1) fail(`${dv()}: a sequence or optional (dtype ${v.dtype}) has rank 1, not ${v.shape.length}`);
  if (typeof v.kind !== 'string' || !Object.hasOwn(KIND, v.kind)) fail(`${dv()}: kind ${JSON.stringify(v.kind)} is not input/const/node/graph-input`);
  const kind = KIND[v.kind];
  const dims = normDims(v, kind, dv, symIndex);
  const out = { name: v.name, dtype: v.dtype, kind, dims, aux: 0 };
  if (kind === KIND.const) {
    if (v.data === undefined) fail(`${dv()}: constant without "data"`);
    let bytes;
    try { bytes = toBytes(v.data, `${dv()} data`); } catch (e) { fail(e.message); }
    const numel = dims.reduce((a, d) => a * d, 1n);
    const want = numel * BigInt(DTYPE_SIZE.get(v.dtype));
    if (BigInt(bytes.length) !== want)
      fail(`${dv()}: constant length ${bytes.length} != numel ${numel} x ${DTYPE_SIZE.get(v.dtype)} = ${want}`);
    out.bytes = bytes;
    out.digestHex = constantDigest(v.dtype, dims, bytes);
  }
  return out;
}

/** Rule 2: every input port is a value of kind input, once; every such value is a port. */
function checkInputPorts(graph, inputs, nValues, checkId) {
  const isInPort = new Set();
  inputs.forEach((id, k) => {
    checkId(id, `inputs[${k}]`);
    if (nValues[id].kind !== KIND.input) fail(`inputs[${k}]: ${describeValue(graph, id)} is not of kind input`);
    if (isInPort.has(id)) fail(`inputs[${k}]: ${describeValue(graph, id)} is listed twice as an input port`);
    isInPort.add(id);
  });
  nValues.forEach((v, id) => {
    if (v.kind === KIND.input && !isInPort.has(id)) fail(`${describeValue(graph, id)} is of kind input but not an input port`);
  });
}

/** A node's attributes, encoded; names distinct. */
function normAttrs(attrs, dn) {
  if (!Array.isArray(attrs)) fail(`${dn()}: attrs must be an array`);
  const seen = new Set();
  return attrs.map((a, k) => {
    const da = `${dn()} attribute ${k}${a && typeof a.name === 'string' ? ` ${JSON.stringify(a.name)}` : ''}`;
    if (a === null || typeof a !== 'object' || typeof a.name !== 'string') fail(`${da}: must be {name, type, value}`);
    if (seen.has(a.name)) fail(`${da}: attribute name given twice`);
    seen.add(a.name);
    if (typeof a.type !== 'string' || !Object.hasOwn(ATTR_TYPES, a.type)) fail(`${da}: unknown attribute type ${JSON.stringify(a.type)}`);
    return encodeAttr(a.name, ATTR_TYPES[a.type], a.value, da, fail);
  });
}

/**
 * Rules 1, 3, 4 for node i: inputs produced earlier (or absent), outputs of
 * kind node produced once (sets producer[] and the value's aux).
 */
function normNode(graph, n, i, nValues, producer, checkId) {
  const dn = () => describeNode(graph, i);
  if (n === null || typeof n !== 'object') fail(`node ${i} must be an object`);
  if (typeof n.op !== 'string' || n.op.length === 0) fail(`node ${i}: op must be a non-empty string`);
  const name = n.name ?? '';
  if (typeof name !== 'string') fail(`${dn()}: name must be a string`);
  const ins = n.inputs ?? [], outs = n.outputs ?? [];
  if (!Array.isArray(ins) || !Array.isArray(outs)) fail(`${dn()}: inputs and outputs must be arrays`);
  if (ins.length > MAX_NODE_IN) fail(`${dn()}: n_in ${ins.length} exceeds ${MAX_NODE_IN}`);
  if (outs.length < 1 || outs.length > MAX_NODE_OUT) fail(`${dn()}: n_out ${outs.length} not in 1..${MAX_NODE_OUT}`);
  const inIds = ins.map((id, k) => {
    if (id === null || id === undefined) return ABSENT;
    checkId(id, `${dn()} input ${k}`);
    if (nValues[id].kind === KIND.node && producer[id] < 0)
      fail(`${dn()} input ${k}: ${describeValue(graph, id)} is not produced by an earlier node (not topologically ordered)`);
    return id;
  });
  const outIds = outs.map((id, k) => {
    checkId(id, `${dn()} output ${k}`);
    if (nValues[id].kind !== KIND.node)
      fail(`${dn()} output ${k}: ${describeValue(graph, id)} has kind ${KIND_NAMES[nValues[id].kind]}, a node output must be kind node`);
    if (producer[id] >= 0) fail(`${dn()} output ${k}: ${describeValue(graph, id)} is produced twice (also by node ${producer[id]})`);
    producer[id] = i;
    nValues[id].aux = i;
    return id;
  });
  return { op: n.op, name, ins: inIds, outs: outIds, attrs: normAttrs(n.attrs ?? [], dn) };
}

/** Rule 5: an output port is listed once. */
function checkOutputPorts(graph, outputs, checkId) {
  const isOutPort = new Set();
  outputs.forEach((id, k) => {
    checkId(id, `outputs[${k}]`);
    if (isOutPort.has(id)) fail(`outputs[${k}]: ${describeValue(graph, id)} is listed twice as an output port`);
    isOutPort.add(id);
  });
}

/** The state contract (optional): [[input port, output port], ...], each port once, at most 64. */
function checkState(state, inputs, outputs) {
  if (!Array.isArray(state)) fail('graph.state must be an array of [input port, output port] pairs');
  const seenIn = new Set(), seenOut = new Set();
  state.forEach((pair, k) => {
    if (!Array.isArray(pair) || pair.length !== 2 || !pair.every((x) => Number.isInteger(x) && x >= 0))
      fail(`state[${k}] must be a pair of port indices`);
    const [i, o] = pair;
    if (i >= inputs.length) fail(`state[${k}]: input port ${i} does not exist`);
    if (o >= outputs.length) fail(`state[${k}]: output port ${o} does not exist`);
    if (seenIn.has(i) || seenOut.has(o)) fail(`state[${k}]: a port is listed twice in the state contract`);
    seenIn.add(i); seenOut.add(o);
  });
  if (state.length > 64) fail(`state: ${state.length} state ports, at most 64`);
}

/** Validate `graph` and return the normalized form used by the encoder. Throws on any problem. */
export function validateGraph(graph) {
  const { meta, symbols, values, nodes, inputs, outputs, graphs } = graphArrays(graph);
  const nMeta = normMeta(meta);
  const symIndex = symbolIndex(symbols);
  if (values.length > MAX_VALUES) fail(`${values.length} values exceed the limit ${MAX_VALUES}`);
  const nValues = values.map((v, id) => normValue(graph, v, id, symIndex));
  const checkId = (id, where) => {
    if (!Number.isInteger(id) || id < 0 || id >= values.length)
      fail(`${where}: value id ${JSON.stringify(id)} out of range (0..${values.length - 1})`);
  };
  if (inputs.length > MAX_PORTS) fail(`${inputs.length} input ports exceed ${MAX_PORTS}`);
  if (outputs.length > MAX_PORTS) fail(`${outputs.length} output ports exceed ${MAX_PORTS}`);
  checkInputPorts(graph, inputs, nValues, checkId);
  if (nodes.length > MAX_NODES) fail(`${nodes.length} nodes exceed the limit ${MAX_NODES}`);
  const producer = new Array(values.length).fill(-1);
  const nNodes = nodes.map((n, i) => normNode(graph, n, i, nValues, producer, checkId));
  nValues.forEach((v, id) => {
    if (v.kind === KIND.node && producer[id] < 0) fail(`${describeValue(graph, id)} is of kind node but no node produces it`);
  });
  checkOutputPorts(graph, outputs, checkId);
  const state = graph.state ?? [];
  checkState(state, inputs, outputs);
  const nGraphs = normGraphs(graphs, nValues, nNodes, outputs);
  return {
    meta: nMeta, symbols: [...symbols], values: nValues, nodes: nNodes, inputs: [...inputs], outputs: [...outputs],
    state: state.map((p) => [...p]), graphs: nGraphs,
  };
}

/** GRPH (§3): each graph input's aux is its graph; then the nested-graph rules. */
function normGraphs(graphs, nValues, nNodes, outputs) {
  const out = graphs.map((g, k) => {
    if (g === null || typeof g !== 'object') fail(`graphs[${k}] must be an object`);
    const name = g.name ?? '';
    if (typeof name !== 'string') fail(`graphs[${k}]: name must be a string`);
    if (!Array.isArray(g.inputs ?? []) || !Array.isArray(g.outputs ?? [])) fail(`graphs[${k}]: inputs and outputs must be arrays`);
    const inputs = [...(g.inputs ?? [])], outs = [...(g.outputs ?? [])];
    for (const v of inputs) if (Number.isInteger(v) && nValues[v]?.kind === KIND['graph-input']) nValues[v].aux = k;
    return { name, owner: g.owner, first: g.first, count: g.count, inputs, outputs: outs };
  });
  checkNestedGraphs({ fail, values: nValues, nodes: nNodes.map((n) => ({ inputs: n.ins, outputs: n.outs })), graphs: out, outputs });
  return out;
}

function encodeAttr(name, type, value, da, fail) {
  let payload, count;
  const f32 = (x, k) => {
    if (typeof x !== 'number') fail(`${da}: ${k === undefined ? 'value' : `element ${k}`} ${JSON.stringify(x)} is not a number`);
    return x;
  };
  const i64 = (x, k) => {
    try { return toI64(x, k === undefined ? da : `${da} element ${k}`); } catch (e) { fail(e.message); }
  };
  switch (type) {
    case 1: { // INT
      payload = Buffer.alloc(8); payload.writeBigInt64LE(i64(value)); count = 1; break;
    }
    case 2: { // FLOAT
      payload = Buffer.alloc(4); payload.writeFloatLE(f32(value)); count = 1; break;
    }
    case 3: { // INTS
      if (!Array.isArray(value)) fail(`${da}: ints value must be an array`);
      payload = Buffer.alloc(8 * value.length);
      value.forEach((x, k) => payload.writeBigInt64LE(i64(x, k), 8 * k));
      count = value.length; break;
    }
    case 4: { // FLOATS
      if (!Array.isArray(value)) fail(`${da}: floats value must be an array`);
      payload = Buffer.alloc(4 * value.length);
      value.forEach((x, k) => payload.writeFloatLE(f32(x, k), 4 * k));
      count = value.length; break;
    }
    case 5: { // STRING
      if (typeof value !== 'string') fail(`${da}: string value must be a JS string`);
      payload = Buffer.from(enc.encode(value)); count = payload.length; break;
    }
  }
  if (count > U32_MAX) fail(`${da}: count ${count} exceeds u32`);
  return { name, type, count, payload: new Uint8Array(payload.buffer, payload.byteOffset, payload.length) };
}

/** Pool of distinct byte strings in order of first use; the empty string is (0, 0). */
class StringPool {
  constructor() { this.map = new Map(); this.chunks = []; this.size = 0; }
  add(bytes) {
    if (typeof bytes === 'string') bytes = enc.encode(bytes);
    if (bytes.length === 0) return [0, 0];
    const key = Buffer.from(bytes).toString('latin1');
    let off = this.map.get(key);
    if (off === undefined) {
      off = this.size;
      this.map.set(key, off);
      this.chunks.push(bytes);
      this.size += bytes.length;
      if (this.size > U32_MAX) throw new Error('holo-writer: STRS exceeds 4 GiB');
    }
    return [off, bytes.length];
  }
  bytes() {
    const out = new Uint8Array(this.size);
    let p = 0;
    for (const c of this.chunks) { out.set(c, p); p += c.length; }
    return out;
  }
}

/** STRS walk order (§6): meta, symbols, values, nodes (op, name, attrs: name, payload), graph names. */
function stringRefs(g, strs) {
  return {
    metaRefs: g.meta.map(([k, v]) => [strs.add(k), strs.add(v)]),
    symRefs: g.symbols.map((s) => strs.add(s)),
    valRefs: g.values.map((v) => strs.add(v.name)),
    nodeRefs: g.nodes.map((n) => ({
      op: strs.add(n.op),
      name: strs.add(n.name),
      attrs: n.attrs.map((a) => ({ name: strs.add(a.name), payload: strs.add(a.payload) })),
    })),
    graphRefs: g.graphs.map((gr) => strs.add(gr.name)),
  };
}

/** Constants: CONS in value order (sets each value's aux); DATA dedup by digest. */
function layoutConstants(g) {
  const consts = [];
  const dataOffsetByDigest = new Map();
  let dataCursor = 0;
  for (const v of g.values) {
    if (v.kind !== KIND.const) continue;
    v.aux = consts.length;
    let off = dataOffsetByDigest.get(v.digestHex);
    let fresh = false;
    if (off === undefined) {
      off = align(dataCursor, 64);
      dataCursor = off + v.bytes.length;
      dataOffsetByDigest.set(v.digestHex, off);
      fresh = true;
    }
    consts.push({ off, v, fresh });
  }
  return { consts, dataSize: dataCursor };
}

/** A counted section: u32 count, then `size`-byte records written by record(b, p, item, i). */
function counted(items, size, record) {
  const b = Buffer.alloc(4 + size * items.length);
  b.writeUInt32LE(items.length, 0);
  items.forEach((x, i) => record(b, 4 + size * i, x, i));
  return b;
}

const ref = (b, p, [o, l]) => { b.writeUInt32LE(o, p); b.writeUInt32LE(l, p + 4); };

function valsSection(g, valRefs) {
  return counted(g.values, 80, (b, p, v, i) => {
    ref(b, p, valRefs[i]);
    b[p + 8] = v.dtype;
    b[p + 9] = v.dims === null ? RANK_UNKNOWN : v.dims.length;
    b[p + 10] = v.kind;
    b[p + 11] = 0;
    b.writeUInt32LE(v.aux, p + 12);
    (v.dims ?? []).forEach((d, k) => b.writeBigInt64LE(d, p + 16 + 8 * k));
  });
}

function consSection(consts) {
  return counted(consts, 48, (b, p, c) => {
    b.writeBigUInt64LE(BigInt(c.off), p);
    b.writeBigUInt64LE(BigInt(c.v.bytes.length), p + 8);
    Buffer.from(c.v.digestHex, 'hex').copy(b, p + 16);
  });
}

/** ATTR: every node's attributes in node order (a node's are a range of it). */
function attrSection(g, nodeRefs) {
  const all = g.nodes.flatMap((n, i) => n.attrs.map((a, j) => ({ a, r: nodeRefs[i].attrs[j] })));
  return counted(all, 24, (b, p, { a, r }) => {
    ref(b, p, r.name);
    b.writeUInt32LE(a.type, p + 8);
    b.writeUInt32LE(a.count, p + 12);
    ref(b, p + 16, r.payload);
  });
}

function nodeSection(g, nodeRefs) {
  let io = 0, at = 0;
  return counted(g.nodes, 32, (b, p, n, i) => {
    const r = nodeRefs[i];
    ref(b, p, r.op);
    ref(b, p + 8, r.name);
    b.writeUInt32LE(io, p + 16);
    b.writeUInt16LE(n.ins.length, p + 20);
    b.writeUInt16LE(n.outs.length, p + 22);
    b.writeUInt32LE(at, p + 24);
    b.writeUInt32LE(n.attrs.length, p + 28);
    io += n.ins.length + n.outs.length;
    at += n.attrs.length;
  });
}

/** GRPH: name, owner, node range, IOIX range (after every node's), n_in, n_out, reserved. */
function grphSection(g, graphRefs) {
  let io = g.nodes.reduce((a, n) => a + n.ins.length + n.outs.length, 0);
  return counted(g.graphs, 32, (b, p, gr, k) => {
    ref(b, p, graphRefs[k]);
    b.writeUInt32LE(gr.owner, p + 8);
    b.writeUInt32LE(gr.first, p + 12);
    b.writeUInt32LE(gr.count, p + 16);
    b.writeUInt32LE(io, p + 20);
    b.writeUInt16LE(gr.inputs.length, p + 24);
    b.writeUInt16LE(gr.outputs.length, p + 26);
    io += gr.inputs.length + gr.outputs.length;
  });
}

function portSection(g) {
  const b = Buffer.alloc(8 + 4 * (g.inputs.length + g.outputs.length));
  let p = 0;
  b.writeUInt32LE(g.inputs.length, p); p += 4;
  for (const id of g.inputs) { b.writeUInt32LE(id, p); p += 4; }
  b.writeUInt32LE(g.outputs.length, p); p += 4;
  for (const id of g.outputs) { b.writeUInt32LE(id, p); p += 4; }
  return b;
}

function dataSection(consts, dataSize) {
  const b = new Uint8Array(dataSize);
  for (const c of consts) if (c.fresh) b.set(c.v.bytes, c.off);
  return b;
}

/** The sections in SECTION_ORDER: [{ id, bytes }] (the optional ones only when not empty). */
function encodeSections(g) {
  const strs = new StringPool();
  const { metaRefs, symRefs, valRefs, nodeRefs, graphRefs } = stringRefs(g, strs);
  const { consts, dataSize } = layoutConstants(g);
  const sections = [];
  const put = (id, bytes) => sections.push({ id, bytes });
  put('STRS', strs.bytes());
  if (g.symbols.length) put('SYMS', counted(symRefs, 8, (b, p, r) => ref(b, p, r)));
  put('VALS', valsSection(g, valRefs));
  if (consts.length) put('CONS', consSection(consts));
  if (g.nodes.some((n) => n.attrs.length)) put('ATTR', attrSection(g, nodeRefs));
  put('NODE', nodeSection(g, nodeRefs));
  const io = [...g.nodes.flatMap((n) => [...n.ins, ...n.outs]), ...g.graphs.flatMap((gr) => [...gr.inputs, ...gr.outputs])];
  put('IOIX', counted(io, 4, (b, p, id) => b.writeUInt32LE(id, p)));
  put('PORT', portSection(g));
  if (g.meta.length) put('META', counted(metaRefs, 16, (b, p, [k, v]) => { ref(b, p, k); ref(b, p + 8, v); }));
  if (g.state.length) put('STAT', counted(g.state, 8, (b, p, [i, o]) => { b.writeUInt32LE(i, p); b.writeUInt32LE(o, p + 4); }));
  if (g.graphs.length) put('GRPH', grphSection(g, graphRefs));
  if (consts.length) put('DATA', dataSection(consts, dataSize));
  return sections;
}

/** Layout: header, table, sections in order, each at the next multiple of 8 (DATA 64). */
function assemble(sections, minor) {
  let pos = HEADER_SIZE + SECTION_ENTRY_SIZE * sections.length;
  for (const s of sections) {
    s.offset = align(pos, s.id === 'DATA' ? 64 : 8);
    pos = s.offset + s.bytes.length;
  }
  const fileSize = pos;
  if (!Number.isSafeInteger(fileSize)) throw new Error('holo-writer: archive too large');
  const out = Buffer.alloc(fileSize);
  out.set(MAGIC, 0);
  out.writeUInt16LE(MAJOR, 8);
  out.writeUInt16LE(minor, 10);
  out.writeUInt32LE(sections.length, 12);
  out.writeBigUInt64LE(BigInt(fileSize), 16);
  out.writeBigUInt64LE(0n, 24);
  sections.forEach((s, i) => {
    const p = HEADER_SIZE + SECTION_ENTRY_SIZE * i;
    out.write(s.id, p, 'latin1');
    out.writeUInt32LE(FLAG_REQUIRED, p + 4);
    out.writeBigUInt64LE(BigInt(s.offset), p + 8);
    out.writeBigUInt64LE(BigInt(s.bytes.length), p + 16);
    out.set(s.bytes, s.offset);
  });
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** Encode `graph` (graph JSON, docs/holo-format.md §8) as a `.holo` archive. */
export function writeHolo(graph) {
  const g = validateGraph(graph);
  return assemble(encodeSections(g), g.graphs.length ? MINOR_GRAPHS : MINOR);
}
