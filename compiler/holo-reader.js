// Reader of the `.holo` archive, version 1.0 (docs/holo-format.md).
//
//   readHolo(bytes) -> graph JSON (same schema the writer takes, plus "digest" on constants)
//
// Validates everything the doc requires of a reader and throws an Error whose
// message contains the substrings listed in tests/vectors/bad/README.md.
import {
  MAGIC, MAJOR, HEADER_SIZE, SECTION_ENTRY_SIZE, MAX_SECTIONS, FLAG_REQUIRED, MAX_RANK, RANK_UNKNOWN,
  MAX_VALUES, MAX_NODES, MAX_NODE_IN, MAX_NODE_OUT, MAX_PORTS, ABSENT, KIND, KIND_NAMES, DTYPE_SIZE,
  ATTR_TYPE_NAMES, RECORD_SIZE, toBytes,
} from './holo-writer.js';
import { checkNestedGraphs, MAX_GRAPHS } from './holo-graphs.js';

const KNOWN = new Set(['STRS', 'SYMS', 'VALS', 'CONS', 'DATA', 'ATTR', 'NODE', 'IOIX', 'PORT', 'META', 'STAT', 'GRPH']);
const MANDATORY = ['STRS', 'VALS', 'NODE', 'IOIX', 'PORT'];
const dec = new TextDecoder('utf-8');
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** i64 as a JSON-able value: number when safe, else decimal string. */
function jsonInt(b) {
  return b >= -SAFE && b <= SAFE ? Number(b) : b.toString();
}

/** The archive's bytes and the reads every stage shares; `fail` throws `holo: msg`. */
function archiveView(input) {
  const u8 = toBytes(input, 'readHolo input');
  const dv = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  return {
    u8, len: u8.length,
    fail: (msg) => { throw new Error(`holo: ${msg}`); },
    u16: (p) => dv.getUint16(p, true),
    u32: (p) => dv.getUint32(p, true),
    u64: (p) => dv.getBigUint64(p, true),
    i64: (p) => dv.getBigInt64(p, true),
  };
}

/** §1 header: returns the section count. */
function readHeader({ u8, len, fail, u16, u32, u64 }) {
  if (len < 8 || !MAGIC.every((b, i) => u8[i] === b)) fail('bad magic');
  if (len < HEADER_SIZE) fail(`file of ${len} bytes is shorter than the header (file_size)`);
  const major = u16(8);
  if (major !== MAJOR) fail(`unsupported major version ${major} (want ${MAJOR})`);
  const nSec = u32(12);
  if (nSec < 1 || nSec > MAX_SECTIONS) fail(`section_count ${nSec} not in 1..${MAX_SECTIONS}`);
  const fileSize = u64(16);
  if (fileSize !== BigInt(len)) fail(`file_size ${fileSize} != actual length ${len}`);
  if (u64(24) !== 0n) fail('nonzero reserved header field');
  return nSec;
}

/** §2 section table: Map(id -> { id, off, len }) of the known sections, checked for bounds, alignment, overlap. */
function readSectionTable({ u8, len, fail, u32, u64 }, nSec) {
  const tableEnd = HEADER_SIZE + SECTION_ENTRY_SIZE * nSec;
  if (tableEnd > len) fail(`section table (${nSec} entries) out of bounds of the file`);
  const sec = new Map();
  const all = [];
  for (let i = 0; i < nSec; i++) {
    const p = HEADER_SIZE + SECTION_ENTRY_SIZE * i;
    const id = String.fromCharCode(u8[p], u8[p + 1], u8[p + 2], u8[p + 3]);
    const shown = JSON.stringify(id);
    const flags = u32(p + 4);
    const off = u64(p + 8), length = u64(p + 16);
    if (flags & ~FLAG_REQUIRED) fail(`section ${shown}: unknown flags 0x${flags.toString(16)}`);
    if (off < BigInt(tableEnd) || off + length > BigInt(len))
      fail(`section ${shown} [${off}, +${length}) out of bounds (table ends at ${tableEnd}, file_size ${len})`);
    const a = id === 'DATA' ? 64n : 8n;
    if (off % a !== 0n) fail(`section ${shown} offset ${off} not aligned to ${a}`);
    if (KNOWN.has(id)) {
      if (sec.has(id)) fail(`duplicate section ${shown}`);
    } else if (flags & FLAG_REQUIRED) {
      fail(`unknown required section ${shown}`);
    }
    const e = { id, off: Number(off), len: Number(length) };
    all.push(e);
    if (KNOWN.has(id)) sec.set(id, e);
  }
  const sorted = [...all].filter((e) => e.len > 0).sort((x, y) => x.off - y.off);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i].off < sorted[i - 1].off + sorted[i - 1].len)
      fail(`sections ${JSON.stringify(sorted[i - 1].id)} and ${JSON.stringify(sorted[i].id)} overlap`);
  for (const id of MANDATORY) if (!sec.has(id)) fail(`missing section ${id}`);
  return sec;
}

// count limits as the C reader's, runtime/archive.c
const LIMIT = { SYMS: MAX_VALUES, META: MAX_VALUES, VALS: MAX_VALUES, CONS: MAX_VALUES, ATTR: MAX_VALUES, NODE: MAX_NODES, IOIX: Math.floor(0xffffffff / 4), STAT: 64, GRPH: MAX_GRAPHS };

/** Adds the section readers to the view: counted(id) -> { n, base }, str/text of a STRS reference. */
function withSections(view, sec) {
  const { u8, fail, u32 } = view;
  const STRS = sec.get('STRS');
  const str = (p, what) => {
    const o = u32(p), l = u32(p + 4);
    if (o + l > STRS.len) fail(`${what}: string (${o}, ${l}) out of range of STRS (${STRS.len} bytes)`);
    return u8.subarray(STRS.off + o, STRS.off + o + l);
  };
  const counted = (id) => {
    const s = sec.get(id);
    if (!s) return { n: 0, base: 0 };
    if (s.len < 4) fail(`section ${id}: length ${s.len} too short for its count`);
    const n = u32(s.off);
    if (n > LIMIT[id]) fail(`section ${id} count ${n} exceeds the limit ${LIMIT[id]}`);
    const rs = RECORD_SIZE[id];
    if (BigInt(s.len) !== 4n + BigInt(n) * BigInt(rs))
      fail(`section ${id}: length ${s.len} != 4 + count ${n} * ${rs}`);
    return { n, base: s.off + 4 };
  };
  return { ...view, sec, counted, str, text: (p, what) => dec.decode(str(p, what)) };
}

function readMeta({ counted, text }) {
  const META = counted('META');
  const meta = [];
  for (let i = 0; i < META.n; i++) {
    const p = META.base + 16 * i;
    meta.push([text(p, `meta ${i} key`), text(p + 8, `meta ${i} value`)]);
  }
  return meta;
}

function readSymbols({ counted, text }) {
  const SYMS = counted('SYMS');
  const symbols = [];
  for (let i = 0; i < SYMS.n; i++) symbols.push(text(SYMS.base + 8 * i, `symbol ${i}`));
  return symbols;
}

/** PORT: u32 n_in, ids, u32 n_out, ids. Returns { nIn, nOut } after checking the lengths. */
function readPortCounts({ sec, fail, u32 }) {
  const PORT = sec.get('PORT');
  if (PORT.len < 8) fail(`section PORT: length ${PORT.len} too short for its counts`);
  const nIn = u32(PORT.off);
  if (nIn > MAX_PORTS) fail(`PORT n_in count ${nIn} exceeds ${MAX_PORTS}`);
  if (8 + 4 * nIn > PORT.len) fail(`section PORT: length ${PORT.len} too short for n_in count ${nIn}`);
  const nOut = u32(PORT.off + 4 + 4 * nIn);
  if (nOut > MAX_PORTS) fail(`PORT n_out count ${nOut} exceeds ${MAX_PORTS}`);
  if (PORT.len !== 8 + 4 * (nIn + nOut)) fail(`section PORT: length ${PORT.len} != 8 + 4 * (count ${nIn} + count ${nOut})`);
  return { nIn, nOut };
}

/** Dims of a VALS record: numbers, symbol names for negative dims; unused slots must be zero. */
function readDims({ fail, i64 }, p, { w, kind, rank }, symbols) {
  const r = rank === RANK_UNKNOWN ? 0 : rank;
  const dims = [];
  for (let k = 0; k < MAX_RANK; k++) {
    const d = i64(p + 16 + 8 * k);
    if (k >= r) {
      if (d !== 0n) fail(`${w}: unused dims slot ${k} is not zero`);
      continue;
    }
    if (d < 0n) {
      if (kind === KIND.const) fail(`${w}: constant dims must be >= 0, dim ${k} is ${d}`);
      const s = -d - 1n;
      if (s >= BigInt(symbols.length)) fail(`${w}: dim ${k} refers to symbol ${s}, out of range (${symbols.length} symbols)`);
      dims.push(symbols[Number(s)]);
    } else {
      if (d > SAFE) fail(`${w}: dim ${k} = ${d} too large for this reader`);
      dims.push(Number(d));
    }
  }
  return dims;
}

/** VALS records: [{ name, dtype, kind, shape, aux, w }] (w: how messages name the value). */
function readValues(view, n, symbols) {
  const { u8, fail, u32, text } = view;
  const vals = [];
  for (let id = 0; id < n.VALS.n; id++) {
    const p = n.VALS.base + 80 * id;
    const what = `value ${id}`;
    const name = text(p, `${what} name`);
    const dtype = u8[p + 8], rank = u8[p + 9], kind = u8[p + 10];
    const w = `${what} (${JSON.stringify(name)})`;
    if (!DTYPE_SIZE.has(dtype)) fail(`${w}: unknown dtype ${dtype}`);
    if ((dtype === 128 || dtype === 129) && rank !== 1 && rank !== RANK_UNKNOWN) fail(`${w}: a sequence or optional (dtype ${dtype}) has rank 1, not ${rank}`);
    if (kind > 3) fail(`${w}: unknown kind ${kind}`);
    if (u8[p + 11] !== 0) fail(`${w}: nonzero reserved byte`);
    if (rank === RANK_UNKNOWN) {
      if (kind !== KIND.node && kind !== KIND['graph-input']) fail(`${w}: unknown rank (255) on a value of kind ${KIND_NAMES[kind]}`);
    } else if (rank > MAX_RANK) fail(`${w}: rank ${rank} exceeds ${MAX_RANK}`);
    const dims = readDims(view, p, { w, kind, rank }, symbols);
    const aux = u32(p + 12);
    if (kind === KIND.input && aux !== 0) fail(`${w}: input with nonzero aux ${aux}`);
    if (kind === KIND.const && aux >= n.CONS.n) fail(`${w}: aux ${aux} is not a CONS index (${n.CONS.n} constants)`);
    if (kind === KIND.node && aux >= n.NODE.n) fail(`${w}: aux ${aux} is not a NODE index (${n.NODE.n} nodes)`);
    vals.push({ name, dtype, kind, shape: rank === RANK_UNKNOWN ? null : dims, aux, w });
  }
  return vals;
}

/** CONS records: sets data (hex) and digest on each constant value; each record is referred to exactly once. */
function readConstants({ u8, sec, fail, u64 }, CONS, vals) {
  const DATA = sec.get('DATA') ?? { off: 0, len: 0 };
  const consRefs = new Array(CONS.n).fill(0);
  const cons = [];
  for (let i = 0; i < CONS.n; i++) {
    const p = CONS.base + 48 * i;
    const off = u64(p), length = u64(p + 8);
    if (off % 64n !== 0n) fail(`constant ${i}: constant offset ${off} not aligned to 64`);
    if (off + length > BigInt(DATA.len)) fail(`constant ${i}: bytes [${off}, +${length}) out of DATA (${DATA.len} bytes)`);
    cons.push({ off: Number(off), len: Number(length), digest: Buffer.from(u8.subarray(p + 16, p + 48)).toString('hex') });
  }
  for (const v of vals) {
    if (v.kind !== KIND.const) continue;
    consRefs[v.aux]++;
    const c = cons[v.aux];
    const numel = v.shape.reduce((a, d) => a * BigInt(d), 1n);
    const want = numel * BigInt(DTYPE_SIZE.get(v.dtype));
    if (BigInt(c.len) !== want) fail(`${v.w}: constant length ${c.len} != numel ${numel} x ${DTYPE_SIZE.get(v.dtype)}`);
    v.data = Buffer.from(u8.subarray(DATA.off + c.off, DATA.off + c.off + c.len)).toString('hex');
    v.digest = c.digest;
  }
  consRefs.forEach((k, i) => { if (k !== 1) fail(`constant ${i} is referred to by ${k} values (must be exactly 1)`); });
}

/** ATTR records: [{ name, type (name), value }]. */
function readAttrs({ fail, u32, str, text }, ATTR) {
  const attrs = [];
  for (let i = 0; i < ATTR.n; i++) {
    const p = ATTR.base + 24 * i;
    const name = text(p, `attribute ${i} name`);
    const w = `attribute ${i} (${JSON.stringify(name)})`;
    const type = u32(p + 8), count = u32(p + 12);
    if (type < 1 || type > 5) fail(`${w}: unknown attribute type ${type}`);
    if ((type === 1 || type === 2) && count !== 1) fail(`${w}: count ${count} must be 1 for a scalar`);
    const unit = type === 1 || type === 3 ? 8 : type === 5 ? 1 : 4;
    const plen = u32(p + 20);
    if (BigInt(plen) !== BigInt(count) * BigInt(unit)) fail(`${w}: payload length ${plen} != count ${count} * ${unit}`);
    const pay = str(p + 16, `${w} payload`);
    attrs.push({ name, type: ATTR_TYPE_NAMES[type], value: attrValue(type, count, pay) });
  }
  return attrs;
}

function attrValue(type, count, pay) {
  const pd = new DataView(pay.buffer, pay.byteOffset, pay.byteLength);
  switch (type) {
    case 1: return jsonInt(pd.getBigInt64(0, true));
    case 2: return pd.getFloat32(0, true);
    case 3: return Array.from({ length: count }, (_, k) => jsonInt(pd.getBigInt64(8 * k, true)));
    case 4: return Array.from({ length: count }, (_, k) => pd.getFloat32(4 * k, true));
    case 5: return dec.decode(pay);
  }
  return undefined;
}

/** NODE records with their IOIX ranges and attributes: [{ op, name, w, inputs, outputs, attrs }]. */
function readNodes({ fail, u16, u32, text }, n, attrs) {
  const ioix = (k) => u32(n.IOIX.base + 4 * k);
  const nodes = [];
  for (let i = 0; i < n.NODE.n; i++) {
    const p = n.NODE.base + 32 * i;
    const op = text(p, `node ${i} op`), name = text(p + 8, `node ${i} name`);
    const w = `node ${i} (${op}${name ? ' ' + JSON.stringify(name) : ''})`;
    const firstIo = u32(p + 16), nIn_ = u16(p + 20), nOut_ = u16(p + 22);
    const firstAttr = u32(p + 24), nAttrs = u32(p + 28);
    if (nIn_ > MAX_NODE_IN) fail(`${w}: n_in ${nIn_} exceeds ${MAX_NODE_IN}`);
    if (nOut_ < 1 || nOut_ > MAX_NODE_OUT) fail(`${w}: n_out ${nOut_} not in 1..${MAX_NODE_OUT}`);
    if (firstIo + nIn_ + nOut_ > n.IOIX.n) fail(`${w}: IOIX range [${firstIo}, +${nIn_ + nOut_}) out of bounds (${n.IOIX.n})`);
    if (firstAttr + nAttrs > n.ATTR.n) fail(`${w}: ATTR range [${firstAttr}, +${nAttrs}) out of bounds (${n.ATTR.n})`);
    nodes.push({
      op, name, w,
      inputs: Array.from({ length: nIn_ }, (_, k) => ioix(firstIo + k)),
      outputs: Array.from({ length: nOut_ }, (_, k) => ioix(firstIo + nIn_ + k)),
      attrs: attrs.slice(firstAttr, firstAttr + nAttrs),
    });
  }
  return nodes;
}

/** §4 graph rules: ports name values of the right kind once; every node value is produced once, in order. */
function checkGraphRules(fail, vals, nodes, inPorts, outPorts) {
  const checkId = (id, where) => { if (id >= vals.length) fail(`${where}: value id ${id} out of range (${vals.length} values)`); };
  const isInPort = new Uint8Array(vals.length);
  inPorts.forEach((id, k) => {
    checkId(id, `input port ${k}`);
    if (vals[id].kind !== KIND.input) fail(`input port ${k}: ${vals[id].w} is of kind ${KIND_NAMES[vals[id].kind]}, not input`);
    if (isInPort[id]) fail(`input port ${k}: ${vals[id].w} listed twice`);
    isInPort[id] = 1;
  });
  vals.forEach((v, id) => { if (v.kind === KIND.input && !isInPort[id]) fail(`${v.w} is of kind input but not an input port`); });
  const produced = new Uint8Array(vals.length);
  nodes.forEach((n, i) => {
    n.inputs.forEach((id, k) => {
      if (id === ABSENT) return;
      checkId(id, `${n.w} input ${k}`);
      if (vals[id].kind === KIND.node && !produced[id])
        fail(`${n.w} input ${k}: ${vals[id].w} is not produced by an earlier node (order is not topological)`);
    });
    n.outputs.forEach((id, k) => {
      checkId(id, `${n.w} output ${k}`);
      const v = vals[id];
      if (v.kind !== KIND.node) fail(`${n.w} output ${k}: ${v.w} has kind ${KIND_NAMES[v.kind]}, a node output must be of kind node`);
      if (produced[id]) fail(`${n.w} output ${k}: ${v.w} produced twice`);
      if (v.aux !== i) fail(`${n.w} output ${k}: ${v.w} has aux ${v.aux}, not its producing node ${i}`);
      produced[id] = 1;
    });
  });
  vals.forEach((v, id) => { if (v.kind === KIND.node && !produced[id]) fail(`${v.w} of kind node is not produced by any node`); });
  const isOutPort = new Uint8Array(vals.length);
  outPorts.forEach((id, k) => {
    checkId(id, `output port ${k}`);
    if (isOutPort[id]) fail(`output port ${k}: ${vals[id].w} listed twice`);
    isOutPort[id] = 1;
  });
}

/** GRPH records: [{ name, owner, first, count, inputs, outputs }] (§3), ranges checked. */
function readGraphs({ fail, u16, u32, text, counted }, n) {
  const GRPH = counted('GRPH');
  const ioix = (k) => u32(n.IOIX.base + 4 * k);
  const graphs = [];
  for (let k = 0; k < GRPH.n; k++) {
    const p = GRPH.base + 32 * k;
    const name = text(p, `graph ${k} name`);
    const owner = u32(p + 8), first = u32(p + 12), count = u32(p + 16), firstIo = u32(p + 20);
    const nIn_ = u16(p + 24), nOut_ = u16(p + 26);
    if (u32(p + 28) !== 0) fail(`graph ${k}: reserved field is not zero`);
    if (owner >= n.NODE.n) fail(`graph ${k}: owner node ${owner} out of range (${n.NODE.n} nodes)`);
    if (first + count > n.NODE.n) fail(`graph ${k}: node range [${first}, +${count}) out of NODE bounds (${n.NODE.n})`);
    if (nIn_ > 4096 || nOut_ > 4096) fail(`graph ${k}: ${nIn_} inputs / ${nOut_} outputs exceed the limit 4096`);
    if (firstIo + nIn_ + nOut_ > n.IOIX.n) fail(`graph ${k}: io range out of IOIX bounds`);
    graphs.push({
      name, owner, first, count,
      inputs: Array.from({ length: nIn_ }, (_, j) => ioix(firstIo + j)),
      outputs: Array.from({ length: nOut_ }, (_, j) => ioix(firstIo + nIn_ + j)),
    });
  }
  return graphs;
}

/** STAT: [[input port, output port]], each port at most once. */
function readState({ fail, u32, counted }, nIn, nOut) {
  const STAT = counted('STAT');
  const state = [];
  for (let k = 0; k < STAT.n; k++) {
    const i = u32(STAT.base + 8 * k), o = u32(STAT.base + 8 * k + 4);
    if (i >= nIn || o >= nOut) fail(`state ${k}: port (${i}, ${o}) out of range`);
    if (state.some(([a, b]) => a === i || b === o)) fail(`state ${k}: a port is listed twice`);
    state.push([i, o]);
  }
  return state;
}

/** The graph JSON (the writer's schema, plus "digest" on constants). */
function toGraphJSON({ meta, symbols, vals, nodes, inPorts, outPorts, state, graphs }) {
  const graph = {
    meta,
    symbols,
    values: vals.map((v) => {
      const o = { name: v.name, dtype: v.dtype, kind: KIND_NAMES[v.kind], shape: v.shape };
      if (v.kind === KIND.const) { o.data = v.data; o.digest = v.digest; }
      return o;
    }),
    nodes: nodes.map((n) => ({
      op: n.op, name: n.name,
      inputs: n.inputs.map((id) => (id === ABSENT ? null : id)),
      outputs: n.outputs, attrs: n.attrs,
    })),
    inputs: inPorts,
    outputs: outPorts,
  };
  if (state.length) graph.state = state;
  if (graphs.length) graph.graphs = graphs;
  return graph;
}

export function readHolo(input) {
  const view0 = archiveView(input);
  const view = withSections(view0, readSectionTable(view0, readHeader(view0)));
  const { sec, counted, fail, u32 } = view;
  const meta = readMeta(view);
  const symbols = readSymbols(view);
  const n = {};
  for (const id of ['VALS', 'CONS', 'ATTR', 'NODE', 'IOIX']) n[id] = counted(id);
  if (n.CONS.n > 0 && !sec.has('DATA')) fail('missing section DATA (CONS is not empty)');
  const { nIn, nOut } = readPortCounts(view);
  const vals = readValues(view, n, symbols);
  readConstants(view, n.CONS, vals);
  const nodes = readNodes(view, n, readAttrs(view, n.ATTR));
  const PORT = sec.get('PORT');
  const inPorts = Array.from({ length: nIn }, (_, k) => u32(PORT.off + 4 + 4 * k));
  const outPorts = Array.from({ length: nOut }, (_, k) => u32(PORT.off + 8 + 4 * nIn + 4 * k));
  checkGraphRules(fail, vals, nodes, inPorts, outPorts);
  const state = readState(view, inPorts.length, outPorts.length);
  const graphs = readGraphs(view, n);
  checkNestedGraphs({ fail, values: vals, nodes, graphs, outputs: outPorts });
  return toGraphJSON({ meta, symbols, vals, nodes, inPorts, outPorts, state, graphs });
}
