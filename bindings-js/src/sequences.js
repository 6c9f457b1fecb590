// Sequence and optional values at the session boundary (docs/holo-format.md
// §4b): a port of dtype 'sequence' takes and gives an array of tensors, one
// of dtype 'optional' takes and gives null (empty), a tensor, or an array (an
// optional sequence). The core sees one byte string per value, in the
// canonical encoding this module writes and checks.
import { HologramError } from './errors.js';

export const SEQ = 128, OPT = 129;
const HEADER = 16, RECORD = 72, MAX_ITEMS = 2 ** 24, MAX_RANK = 8;
// the encoding's field offsets (docs/holo-format.md §4b): header elem dtype
// and item count; a record's dims after its rank word
const H_ELEM = 8, H_COUNT = 12, R_DIMS = 8, DIM_BYTES = 8;
const MAGIC = [0x48, 0x53, 0x51, 0x31]; // "HSQ1"
// dtype code -> [name, element size, typed array]
const TYPES = {
  1: ['float32', 4, Float32Array], 2: ['uint8', 1, Uint8Array], 3: ['int8', 1, Int8Array], 4: ['uint16', 2, Uint16Array],
  5: ['int16', 2, Int16Array], 6: ['int32', 4, Int32Array], 7: ['int64', 8, BigInt64Array], 9: ['bool', 1, Uint8Array],
  10: ['float16', 2, Uint16Array], 11: ['float64', 8, Float64Array], 12: ['uint32', 4, Uint32Array], 13: ['uint64', 8, BigUint64Array],
  16: ['bfloat16', 2, Uint16Array],
};
const CODE = Object.fromEntries(Object.entries(TYPES).map(([c, [n]]) => [n, Number(c)]));
const BY_ARRAY = new Map([[Float32Array, 1], [Int8Array, 3], [Int16Array, 5], [Int32Array, 6], [BigInt64Array, 7], [Float64Array, 11], [Uint32Array, 12], [BigUint64Array, 13], [Uint8Array, 2], [Uint16Array, 4]]);
const align8 = (x) => (x + 7) & ~7;

export const isListPort = (port) => port.dtypeCode === SEQ || port.dtypeCode === OPT;

/** One tensor item { data: typed array, shape, dtype? } -> { code, shape, bytes }. */
function item(t, where) {
  if (t === null || typeof t !== 'object' || !ArrayBuffer.isView(t.data)) throw new HologramError('INPUT', `${where}: expected a tensor { data: typed array, shape }`);
  const code = t.dtype !== undefined ? CODE[t.dtype] : BY_ARRAY.get(t.data.constructor);
  if (!code) throw new HologramError('INPUT', `${where}: unknown dtype ${t.dtype ?? t.data.constructor.name}`);
  const shape = Array.from(t.shape ?? t.dims ?? [t.data.length], Number);
  if (shape.length > MAX_RANK || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new HologramError('INPUT', `${where}: bad shape [${shape}]`);
  const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  const want = shape.reduce((a, b) => a * b, 1) * TYPES[code][1];
  if (bytes.byteLength !== want) throw new HologramError('INPUT', `${where}: ${bytes.byteLength} bytes for shape [${shape}] of ${TYPES[code][0]} (needs ${want})`);
  return { code, shape, bytes };
}

/** The encoding of `items` ({ code, shape, bytes }) as a sequence or an optional. */
function encode(kind, elemSeq, elem, items) {
  let at = HEADER + RECORD * items.length;
  const starts = items.map((it) => { const s = align8(at); at = s + it.bytes.byteLength; return s; });
  const out = new Uint8Array(at), dv = new DataView(out.buffer);
  out.set(MAGIC, 0);
  out[4] = kind === OPT ? 1 : 0;
  out[5] = elemSeq ? 1 : 0;
  dv.setUint32(H_ELEM, elem, true);
  dv.setUint32(H_COUNT, items.length, true);
  items.forEach((it, k) => {
    const r = HEADER + RECORD * k;
    dv.setUint32(r, it.shape.length, true);
    it.shape.forEach((d, j) => dv.setBigInt64(r + R_DIMS + DIM_BYTES * j, BigInt(d), true));
    out.set(it.bytes, starts[k]);
  });
  return out;
}

function encodeSeq(arr, where) {
  if (!Array.isArray(arr)) throw new HologramError('INPUT', `${where}: a sequence is an array of tensors`);
  if (arr.length > MAX_ITEMS) throw new HologramError('INPUT', `${where}: more than ${MAX_ITEMS} tensors`);
  const items = arr.map((t, k) => item(t, `${where} item ${k}`));
  const elem = items.length ? items[0].code : 0;
  const k = items.findIndex((it) => it.code !== elem);
  if (k >= 0) throw new HologramError('INPUT', `${where}: item ${k} is ${TYPES[items[k].code][0]}, item 0 is ${TYPES[elem][0]} (a sequence holds one dtype)`);
  return { bytes: encode(SEQ, false, elem, items), elem };
}

/** The input of a sequence or optional port as { bytes, shape } for the core. */
export function encodeInput(v, port, where) {
  let bytes;
  if (port.dtypeCode === SEQ) bytes = encodeSeq(v, where).bytes;
  else if (v === null) bytes = encode(OPT, false, 0, []);
  else if (Array.isArray(v)) {
    const s = encodeSeq(v, where);
    bytes = encode(OPT, true, s.elem, [{ shape: [s.bytes.byteLength], bytes: s.bytes }]);
  } else {
    const it = item(v, where);
    bytes = encode(OPT, false, it.code, [it]);
  }
  return { bytes, shape: [bytes.byteLength] };
}

/** Decodes (and checks) an encoding: an array of tensors, or null / a tensor / an array. */
export function decodeList(bytes, dtype, depth = 0) {
  const bad = (why) => { throw new HologramError('KERNEL', `a ${dtype === SEQ ? 'sequence' : 'optional'} output is not a valid encoding: ${why}`); };
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < HEADER || MAGIC.some((b, i) => bytes[i] !== b)) bad('no header');
  const kind = bytes[4], elemSeq = bytes[5] === 1, elem = dv.getUint32(H_ELEM, true), n = dv.getUint32(H_COUNT, true);
  if (kind !== (dtype === OPT ? 1 : 0) || bytes[5] > 1 || (elemSeq && (kind !== 1 || depth))) bad('bad kind');
  if (n > (kind ? 1 : MAX_ITEMS) || (n && !TYPES[elem])) bad('bad count or dtype');
  let at = HEADER + RECORD * n;
  if (at > bytes.byteLength) bad('records past the end');
  const out = [];
  for (let k = 0; k < n; k++) {
    const r = HEADER + RECORD * k, rank = dv.getUint32(r, true);
    if (rank > MAX_RANK || (elemSeq && rank !== 1)) bad('bad rank');
    const shape = Array.from({ length: rank }, (_, j) => Number(dv.getBigInt64(r + R_DIMS + DIM_BYTES * j, true)));
    const len = shape.reduce((a, b) => a * b, 1) * (elemSeq ? 1 : TYPES[elem][1]);
    const s = align8(at);
    if (shape.some((d) => d < 0) || s + len > bytes.byteLength) bad('an item past the end');
    const part = bytes.slice(s, s + len);
    if (elemSeq) out.push(decodeList(part, SEQ, depth + 1));
    else {
      const [name, size, A] = TYPES[elem];
      out.push({ data: new A(part.buffer, 0, len / size), dtype: name, shape });
    }
    at = s + len;
  }
  if (at !== bytes.byteLength) bad('trailing bytes');
  if (kind === 0) return out;
  return n ? out[0] : null;
}
