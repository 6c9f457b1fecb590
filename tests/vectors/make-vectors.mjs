// Generates the `.holo` test vectors (docs/holo-format.md §7).
//
//   node tests/vectors/make-vectors.mjs          write tests/vectors/{*.holo,*.json,README.md,bad/*}
//   import { buildVectors } from '...'           the same vectors in memory (used by tests/js)
//
// Good vectors come straight from compiler/holo-writer.js, except those with
// `from` set, which are byte patches of another good vector. Every bad vector
// is a byte patch of a good one that breaks exactly one rule (the first the
// reader meets when it checks header, section table, records, then the graph
// rules walking ports and nodes in order); `expect` is a substring of the error.
import { writeFileSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { readHolo } from '../../compiler/holo-reader.js';
import { encodeInput } from '../../bindings-js/src/sequences.js';

const HERE = dirname(fileURLToPath(import.meta.url));

const f32 = (...xs) => Float32Array.from(xs);
const iota = (n, scale = 1, off = 0) => Float32Array.from({ length: n }, (_, i) => off + i * scale);

// ---------------------------------------------------------------- good graphs
function tinyMlp() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [1, 4]);
  const w = g.constant('w', DT.f32, [4, 3], iota(12, 0.25, -1.5));
  const b = g.constant('b', DT.f32, [3], f32(0.5, -0.5, 1));
  const [h] = g.node('MatMul', [x, w], { name: 'mm0', outputs: [{ name: 'h', shape: [1, 3] }] });
  const [a] = g.node('Add', [h, b], { name: 'add0', outputs: [{ name: 'a', shape: [1, 3] }] });
  const [y] = g.node('Relu', [a], { name: 'relu0', outputs: [{ name: 'y', shape: [1, 3] }] });
  g.output(y);
  return g.toJSON();
}

function symbolic() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, ['batch', 'seq', 4]);
  const bias = g.constant('bias', DT.f32, [4], f32(0.25, -0.25, 2, -2));
  const [s] = g.node('Add', [x, bias], { name: 'add', outputs: [{ name: 's', shape: ['batch', 'seq', 4] }] });
  const [r] = g.node('Relu', [s], { name: 'relu', outputs: [{ name: 'r', shape: ['batch', 'seq', 4] }] });
  const [t] = g.node('Transpose', [r], { name: 'tr', attrs: { perm: [1, 0, 2] }, outputs: [{ name: 't', shape: null }] });
  g.output(t);
  return g.toJSON();
}

function attrs() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [2]);
  const [y] = g.node('holo.AttrZoo', [x], {
    name: 'zoo',
    outputs: [{ name: 'y', shape: [2] }],
    attrs: [
      { name: 'axis', type: 'int', value: -1 },
      { name: 'zero', type: 'int', value: 0 },
      { name: 'big', type: 'int', value: '4611686018427387905' }, // 2^62 + 1
      { name: 'i64min', type: 'int', value: '-9223372036854775808' },
      { name: 'i64max', type: 'int', value: '9223372036854775807' },
      { name: 'alpha', type: 'float', value: 1.5 },
      { name: 'tenth', type: 'float', value: Math.fround(0.1) },
      { name: 'perm', type: 'ints', value: [1, 0, -3, '-9007199254740993', '9007199254740993'] },
      { name: 'perm2', type: 'ints', value: [1, 0, -3, '-9007199254740993', '9007199254740993'] }, // same payload
      { name: 'empty_ints', type: 'ints', value: [] },
      { name: 'scales', type: 'floats', value: [0.5, -2.25, Math.fround(3.3)] },
      { name: 'empty_floats', type: 'floats', value: [] },
      { name: 'mode', type: 'string', value: 'constant' },
      { name: 'utf8', type: 'string', value: 'héllo ∑ 🌍' },
      { name: 'empty_string', type: 'string', value: '' },
      { name: 'x', type: 'string', value: 'zoo' }, // name and payload equal to earlier strings
    ],
  });
  const [z] = g.node('holo.AttrZoo', [y], { name: 'zoo2', outputs: [{ name: 'z', shape: [2] }], attrs: { axis: 3 } });
  g.output(z);
  return g.toJSON();
}

function dedup() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [2, 2]);
  const c1 = g.constant('c1', DT.f32, [2, 2], f32(1, 2, 3, 4));
  const c2 = g.constant('c2', DT.f32, [2, 2], f32(1, 2, 3, 4)); // same digest as c1: shares its bytes
  const c3 = g.constant('c3', DT.f32, [4], f32(1, 2, 3, 4)); // same bytes, other shape: own copy
  const [a] = g.node('Add', [x, c1], { name: 'a1', outputs: [{ name: 'a', shape: [2, 2] }] });
  const [b] = g.node('Add', [a, c2], { name: 'a2', outputs: [{ name: 'b', shape: [2, 2] }] });
  const [s] = g.node('Reshape', [b, g.constant('s', DT.i64, [1], BigInt64Array.from([4n]))], { name: 'rs', outputs: [{ name: 'f', shape: [4] }] });
  const [o] = g.node('Mul', [s, c3], { name: 'm', outputs: [{ name: 'o', shape: [4] }] });
  g.output(o);
  return g.toJSON();
}

function noConsts() {
  const g = new GraphBuilder();
  const a = g.input('a', DT.f32, [3]);
  const b = g.input('b', DT.f32, [3]);
  const [c] = g.node('Add', [a, b], { name: 'add', outputs: [{ name: 'c', shape: [3] }] });
  const [d] = g.node('Mul', [c, a], { name: 'mul', outputs: [{ name: 'd', shape: [3] }] });
  g.output(d);
  return g.toJSON();
}

function meta() {
  const g = new GraphBuilder();
  g.meta('producer', 'hologram-compiler').meta('opset', '13').meta('source', 'models/relu.onnx');
  const x = g.input('x', DT.f32, [4]);
  const [y] = g.node('Relu', [x], { name: 'relu', outputs: [{ name: 'y', shape: [4] }] });
  g.output(y);
  return g.toJSON();
}

function optionalInput() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [1, 1, 4, 4]);
  const w = g.constant('w', DT.f32, [1, 1, 3, 3], iota(9, 0.125));
  const mx = g.constant('max', DT.f32, [], f32(2));
  const [c] = g.node('Conv', [x, w, null], {
    name: 'conv', outputs: [{ name: 'c', shape: [1, 1, 4, 4] }],
    attrs: { kernel_shape: [3, 3], pads: [1, 1, 1, 1], strides: [1, 1] },
  });
  const [y] = g.node('Clip', [c, null, mx], { name: 'clip', outputs: [{ name: 'y', shape: [1, 1, 4, 4] }] });
  g.output(y);
  return g.toJSON();
}

function outputsOnlyConst() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [2]);
  const c = g.constant('c', DT.i32, [2], Int32Array.from([7, -7]));
  const [y] = g.node('Identity', [x], { name: 'id', outputs: [{ name: 'y', shape: [2] }] });
  g.output(c, y, x);
  return g.toJSON();
}

function multiOut() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [2, 4]);
  const [a, b] = g.node('Split', [x], {
    name: 'split', attrs: { axis: 0 },
    outputs: [{ name: 'a', shape: [1, 4] }, { name: 'b', shape: [1, 4] }],
  });
  g.output(b, a);
  return g.toJSON();
}

function dtypes() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.u8, [0]);
  const cs = [
    g.constant('f32_scalar', DT.f32, [], f32(-1.25)),
    g.constant('u8', DT.u8, [3], Uint8Array.from([0, 128, 255])),
    g.constant('i8', DT.i8, [2], Int8Array.from([-128, 127])),
    g.constant('u16', DT.u16, [2], Uint16Array.from([0, 65535])),
    g.constant('i16', DT.i16, [2], Int16Array.from([-32768, 32767])),
    g.constant('i32', DT.i32, [1, 2], Int32Array.from([-2147483648, 2147483647])),
    g.constant('i64', DT.i64, [2], BigInt64Array.from([-(2n ** 63n), 2n ** 63n - 1n])),
    g.constant('bool', DT.bool, [2], Uint8Array.from([1, 0])),
    g.constant('f16', DT.f16, [2], Uint16Array.from([0x3c00, 0xc000])),
    g.constant('f64', DT.f64, [1], Float64Array.from([Math.PI])),
    g.constant('u32', DT.u32, [1], Uint32Array.from([0xffffffff])),
    g.constant('u64', DT.u64, [1], BigUint64Array.from([2n ** 64n - 1n])),
    g.constant('empty', DT.f32, [0, 3], new Float32Array(0)),
    g.constant('empty_i64', DT.i64, [2, 0], new BigInt64Array(0)),
    g.constant('rank8', DT.u8, [1, 1, 1, 1, 1, 1, 1, 2], Uint8Array.from([9, 8])),
  ];
  g.output(x, ...cs);
  return g.toJSON();
}

function noNodes() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.i64, ['n']);
  g.output(x);
  return g.toJSON();
}

function state() {
  const g = new GraphBuilder();
  const s = g.input('s', DT.f32, [4]);
  const k = g.input('k', DT.f32, [4]);
  const [n] = g.node('Sub', [s, k], { name: 'step', outputs: [{ name: 'next', dtype: DT.f32, shape: [4] }] });
  const [t] = g.node('Add', [s, k], { name: 'total', outputs: [{ name: 'total', dtype: DT.f32, shape: [4] }] });
  g.output(t, n);
  g.state(0, 1);
  return g.toJSON();
}

// If with both branches (one reads an input, one a capture), a Loop whose
// body captures x and holds an If on the body's own condition (graphs two
// deep; an empty branch returning a graph input of the enclosing body); the
// Loop body's nodes placed after a later top-level node.
function control() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [2]);
  const c = g.input('c', DT.bool, []);
  const m = g.input('m', DT.i64, []);
  const [y] = g.node('If', [c], { name: 'if', outputs: [{ name: 'y', shape: [2] }] });
  const [t] = g.node('Add', [x, x], { name: 'then_add', outputs: [{ name: 't', shape: [2] }] });
  const [e] = g.node('Neg', [x], { name: 'else_neg', outputs: [{ name: 'e', shape: [2] }] });
  g.subgraph('then_branch', 0, 1, 1, [], [t]);
  g.subgraph('else_branch', 0, 2, 1, [], [e]);
  const [yf, scan] = g.node('Loop', [m, null, y], {
    name: 'loop', outputs: [{ name: 'yf', shape: [2] }, { name: 'scan', shape: null }],
  });
  const [r] = g.node('Relu', [yf], { name: 'relu', outputs: [{ name: 'r', shape: [2] }] });
  const it = g.graphInput('i', DT.i64, []);
  const cond = g.graphInput('cond', DT.bool, []);
  const acc = g.graphInput('acc', DT.f32, null);
  const first = g.nodeCount();
  const [a2] = g.node('Mul', [acc, x], { name: 'body_mul', outputs: [{ name: 'a2', shape: [2] }] });
  const [co] = g.node('Identity', [cond], { name: 'body_cond', outputs: [{ name: 'cond_out', dtype: DT.bool, shape: [] }] });
  const [pick] = g.node('If', [cond], { name: 'body_if', outputs: [{ name: 'pick', shape: null }] });
  g.subgraph('body', 3, first, 3, [it, cond, acc], [co, a2, pick]);
  g.subgraph('then_branch', first + 2, g.nodeCount(), 0, [], [acc]);
  g.subgraph('else_branch', first + 2, g.nodeCount(), 0, [], [a2]);
  g.output(r, scan);
  return g.toJSON();
}

// Sixteen levels of nested If (the depth limit), then a top-level If; the
// base of bad-graph-depth.
function nestedDeep() {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [1]);
  const c = g.input('c', DT.bool, []);
  const ys = [];
  for (let k = 0; k < 16; k++) [ys[k]] = g.node('If', [c], { name: `if${k}`, outputs: [{ name: `y${k}`, shape: [1] }] });
  for (let k = 0; k < 16; k++) {
    g.subgraph('then_branch', k, k + 1, k < 15 ? 1 : 0, [], [k < 15 ? ys[k + 1] : x]);
    g.subgraph('else_branch', k, 16, 0, [], [x]);
  }
  const [z] = g.node('If', [c], { name: 'top', outputs: [{ name: 'z', shape: [1] }] });
  g.subgraph('then_branch', 16, 17, 0, [], [x]);
  g.subgraph('else_branch', 16, 17, 0, [], [x]);
  g.output(ys[0], z);
  return g.toJSON();
}

function sequence() {
  const g = new GraphBuilder();
  const s = g.input('s', 128, ['n']);
  const o = g.input('o', 129, ['m']);
  const pos = g.input('pos', DT.i64, []);
  // a constant sequence of one f32 [2] tensor, in the encoding of §4b
  const c = g.constant('c', 128, [88 + 8], encodeInput([{ data: f32(1.5, -2) }], { dtypeCode: 128 }, 'c').bytes);
  const [x] = g.node('SequenceAt', [s, pos], { name: 'at', outputs: [{ name: 'x', dtype: DT.f32, shape: null }] });
  const [s2] = g.node('SequenceInsert', [c, x], { name: 'insert', outputs: [{ name: 's2', shape: null }] });
  const [h] = g.node('OptionalHasElement', [o], { name: 'has', outputs: [{ name: 'h', dtype: DT.bool, shape: [] }] });
  g.output(s2, h);
  return g.toJSON();
}

const GOOD = [
  ['tiny-mlp', tinyMlp, 'MatMul + Add + Relu, f32 constants, concrete shapes; the base of most bad vectors'],
  ['symbolic', symbolic, 'symbolic dims (batch, seq) in SYMS, broadcast with a constant; a node output of unknown rank (shape null, rank 255)'],
  ['attrs', attrs, 'every attribute type: negative/zero ints, int64 min/max and beyond 2^53 (decimal strings), empty ints/floats/string, UTF-8 string, STRS sharing of names and payloads'],
  ['dedup', dedup, 'two identical constants share one DATA copy (equal digest); same bytes with another shape get their own; an i64 constant'],
  ['no-consts', noConsts, 'a graph without constants: no CONS and no DATA sections; two input ports'],
  ['meta', meta, 'META with producer, opset and source'],
  ['optional-input', optionalInput, 'absent optional inputs (Conv without bias, Clip without min) written as 0xFFFFFFFF / null; a rank-0 constant'],
  ['outputs-only-const', outputsOnlyConst, 'output ports that are a constant and an input port (no node involved)'],
  ['multi-out', multiOut, 'a node with two outputs; output ports in another order than produced'],
  ['dtypes', dtypes, 'constants of every dtype, rank 0 and rank 8, zero-element constants (length 0), no nodes'],
  ['no-nodes', noNodes, 'zero nodes (empty NODE and IOIX), an input that is also the output, a symbolic dim'],
  ['state', state, 'a STAT section: state input port 0 is fed by output port 1, input 1 stays fixed'],
  ['control', control, 'GRPH nested graphs: If with two branches (a capture), a Loop body (graph inputs, a capture, an absent cond) holding an If two levels deep with empty branches; body nodes after a later top-level node; minor 1'],
  ['sequence', sequence, 'a sequence input (dtype 128) and an optional input (dtype 129), rank 1 of a symbolic byte length; a constant sequence in the encoding of §4b; SequenceAt, SequenceInsert, OptionalHasElement; node outputs of unknown rank'],
  ['nested-deep', nestedDeep, 'sixteen levels of nested If (the depth limit) and a top-level If with empty branches'],
];

// ---------------------------------------------------------------- archive patching
/** Offsets of the parts of a (writer-produced) archive, for patching. */
function layout(buf) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const n = dv.getUint32(12, true);
  const sec = {};
  for (let i = 0; i < n; i++) {
    const p = 32 + 24 * i;
    const id = String.fromCharCode(...buf.subarray(p, p + 4));
    sec[id] = { entry: p, off: Number(dv.getBigUint64(p + 8, true)), len: Number(dv.getBigUint64(p + 16, true)) };
  }
  const count = (id) => dv.getUint32(sec[id].off, true);
  return {
    dv, sec, count,
    val: (i) => sec.VALS.off + 4 + 80 * i,
    cons: (i) => sec.CONS.off + 4 + 48 * i,
    attr: (i) => sec.ATTR.off + 4 + 24 * i,
    node: (i) => sec.NODE.off + 4 + 32 * i,
    ioix: (k) => sec.IOIX.off + 4 + 4 * k,
    inPort: (k) => sec.PORT.off + 4 + 4 * k,
    outPort: (k) => sec.PORT.off + 8 + 4 * count('PORT') + 4 * k,
  };
}

/** Copy `bytes`, apply `fn(dv, L, buf)` and return the copy. */
function patch(bytes, fn) {
  const buf = Uint8Array.from(bytes);
  const L = layout(buf);
  fn(L.dv, L, buf);
  return buf;
}

const u32 = (dv, p, v) => dv.setUint32(p, v, true);
const u64 = (dv, p, v) => dv.setBigUint64(p, BigInt(v), true);
const i64 = (dv, p, v) => dv.setBigInt64(p, BigInt(v), true);
const setId = (buf, p, id) => buf.set(Buffer.from(id, 'latin1'), p);
const valueId = (json, name) => {
  const i = json.values.findIndex((v) => v.name === name);
  if (i < 0) throw new Error(`no value ${name}`);
  return i;
};
const attrIndex = (json, name) => {
  let k = 0;
  for (const n of json.nodes) for (const a of n.attrs) { if (a.name === name) return k; k++; }
  throw new Error(`no attribute ${name}`);
};

// [name, base vector, expect substring, what it breaks, patch(dv, L, buf, json)]
const BAD = [
  ['bad-magic', 'tiny-mlp', 'magic', 'magic byte 1 is "X"', (dv, L, buf) => { buf[1] = 0x58; }],
  ['bad-major', 'tiny-mlp', 'version', 'major version 2', (dv) => dv.setUint16(8, 2, true)],
  ['bad-section-count', 'tiny-mlp', 'section_count', 'section_count 0', (dv) => u32(dv, 12, 0)],
  ['bad-file-size', 'tiny-mlp', 'file_size', 'file_size is 8 more than the file length', (dv, L, buf) => u64(dv, 16, buf.length + 8)],
  ['bad-reserved', 'tiny-mlp', 'reserved', 'nonzero header reserved field', (dv, L, buf) => { buf[24] = 1; }],
  ['bad-section-flags', 'tiny-mlp', 'flags', 'STRS flags 3 (bit 1 set)', (dv, L) => u32(dv, L.sec.STRS.entry + 4, 3)],
  ['bad-section-oob', 'tiny-mlp', 'out of bounds', 'DATA length runs 64 bytes past the end of the file',
    (dv, L) => u64(dv, L.sec.DATA.entry + 16, L.sec.DATA.len + 64)],
  ['bad-section-in-table', 'tiny-mlp', 'out of bounds', 'STRS offset 32: inside the section table',
    (dv, L) => u64(dv, L.sec.STRS.entry + 8, 32)],
  ['bad-overlap', 'tiny-mlp', 'overlap', 'STRS length extended by 8 into the next section',
    (dv, L) => u64(dv, L.sec.STRS.entry + 16, L.sec.STRS.len + 8)],
  ['bad-data-align', 'tiny-mlp', 'align', 'DATA offset moved back by 8 (a multiple of 8, not of 64)', (dv, L) => {
    const before = Math.max(...Object.values(L.sec).filter((s) => s.off < L.sec.DATA.off).map((s) => s.off + s.len));
    if (L.sec.DATA.off - 8 < before) throw new Error('bad-data-align: no gap before DATA');
    u64(dv, L.sec.DATA.entry + 8, L.sec.DATA.off - 8);
  }],
  ['bad-section-align', 'tiny-mlp', 'align', 'VALS offset +4 (length -4): not a multiple of 8', (dv, L) => {
    u64(dv, L.sec.VALS.entry + 8, L.sec.VALS.off + 4);
    u64(dv, L.sec.VALS.entry + 16, L.sec.VALS.len - 4);
  }],
  ['bad-duplicate-section', 'meta', 'duplicate', 'META renamed STRS: a known id twice', (dv, L, buf) => setId(buf, L.sec.META.entry, 'STRS')],
  ['bad-unknown-required', 'meta', 'unknown required section', 'META renamed XTRA, REQUIRED kept', (dv, L, buf) => setId(buf, L.sec.META.entry, 'XTRA')],
  ['bad-missing-section', 'tiny-mlp', 'missing', 'IOIX renamed XIOX (optional): a mandatory section is absent', (dv, L, buf) => {
    setId(buf, L.sec.IOIX.entry, 'XIOX');
    u32(dv, L.sec.IOIX.entry + 4, 0);
  }],
  ['bad-count', 'tiny-mlp', 'count', 'IOIX count one more than its length holds', (dv, L) => u32(dv, L.sec.IOIX.off, L.count('IOIX') + 1)],
  ['bad-port-count', 'tiny-mlp', 'count', 'PORT n_out one more than its length holds', (dv, L) => u32(dv, L.outPort(0) - 4, 2)],
  ['bad-string', 'tiny-mlp', 'string', 'value 0 name length runs past STRS', (dv, L) => u32(dv, L.val(0) + 4, L.sec.STRS.len + 1)],
  ['bad-dtype', 'tiny-mlp', 'dtype', 'input x has dtype 8 (ONNX string: not supported)', (dv, L, buf) => { buf[L.val(0) + 8] = 8; }],
  ['bad-rank', 'tiny-mlp', 'rank', 'input x has rank 9', (dv, L, buf) => { buf[L.val(0) + 9] = 9; }],
  ['bad-seq-rank', 'sequence', 'has rank 1', 'sequence input s (dtype 128) has rank 2', (dv, L, buf) => { buf[L.val(0) + 9] = 2; }],
  ['bad-rank-unknown-input', 'tiny-mlp', 'rank', 'input x has rank 255 (only node outputs may), dims zeroed', (dv, L, buf) => {
    buf[L.val(0) + 9] = 255;
    buf.fill(0, L.val(0) + 16, L.val(0) + 80);
  }],
  ['bad-kind', 'tiny-mlp', 'kind', 'value h has kind 3', (dv, L, buf, j) => { buf[L.val(valueId(j, 'h')) + 10] = 3; }],
  ['bad-value-reserved', 'tiny-mlp', 'reserved', 'value 0 reserved byte is 1', (dv, L, buf) => { buf[L.val(0) + 11] = 1; }],
  ['bad-unused-dims', 'tiny-mlp', 'dims', 'input x (rank 2) has a nonzero third dims slot', (dv, L) => i64(dv, L.val(0) + 16 + 16, 7)],
  ['bad-symbol', 'symbolic', 'symbol', 'input x dim 0 refers to symbol 2 of 2', (dv, L) => i64(dv, L.val(0) + 16, -3)],
  ['bad-const-dim', 'symbolic', 'constant dim', 'constant bias has dim 0 = -1 (symbol batch: valid, but constants must be concrete)', (dv, L, buf, j) => {
    i64(dv, L.val(valueId(j, 'bias')) + 16, -1);
  }],
  ['bad-aux', 'tiny-mlp', 'aux', 'value h (output of node 0) has aux 2', (dv, L, buf, j) => u32(dv, L.val(valueId(j, 'h')) + 12, 2)],
  ['bad-const-length', 'tiny-mlp', 'constant length', 'CONS 0 length 4 short of numel x size', (dv, L) => {
    u64(dv, L.cons(0) + 8, Number(dv.getBigUint64(L.cons(0) + 8, true)) - 4);
  }],
  ['bad-const-offset', 'tiny-mlp', 'constant offset', 'CONS 0 offset 8 (inside DATA, not a multiple of 64)', (dv, L) => u64(dv, L.cons(0), 8)],
  ['bad-const-range', 'tiny-mlp', 'out of DATA', 'CONS 1 offset past the end of DATA', (dv, L) => {
    u64(dv, L.cons(1), Math.ceil((L.sec.DATA.len + 1) / 64) * 64);
  }],
  ['bad-const-shared', 'dedup', 'referred', 'value c2 refers to CONS 0 like c1; CONS 1 is referred to by none', (dv, L, buf, j) => {
    u32(dv, L.val(valueId(j, 'c2')) + 12, 0);
  }],
  ['bad-attr-type', 'attrs', 'attribute type', 'attribute 0 has type 6', (dv, L) => u32(dv, L.attr(0) + 8, 6)],
  ['bad-attr-payload', 'attrs', 'payload', 'INTS attribute perm: count one more than its payload length / 8', (dv, L, buf, j) => {
    const p = L.attr(attrIndex(j, 'perm'));
    u32(dv, p + 12, dv.getUint32(p + 12, true) + 1);
  }],
  ['bad-n-in', 'tiny-mlp', 'n_in', 'node 0 n_in 65', (dv, L) => dv.setUint16(L.node(0) + 20, 65, true)],
  ['bad-n-out', 'tiny-mlp', 'n_out', 'node 2 n_out 0', (dv, L) => dv.setUint16(L.node(2) + 22, 0, true)],
  ['bad-io-range', 'tiny-mlp', 'IOIX', 'node 2 first_io at the end of IOIX', (dv, L) => u32(dv, L.node(2) + 16, L.count('IOIX'))],
  ['bad-value-id', 'tiny-mlp', 'value id', 'node 0 input 0 is value id VALS.count', (dv, L) => u32(dv, L.ioix(0), L.count('VALS'))],
  ['bad-topolog', 'tiny-mlp', 'topolog', 'node 0 reads a, the output of node 1', (dv, L, buf, j) => u32(dv, L.ioix(0), valueId(j, 'a'))],
  ['bad-node-output-kind', 'tiny-mlp', 'kind', 'node 0 writes x (kind 0)', (dv, L, buf, j) => u32(dv, L.ioix(2), valueId(j, 'x'))],
  ['bad-produced-twice', 'multi-out', 'twice', 'Split writes a as both of its outputs', (dv, L, buf, j) => u32(dv, L.ioix(2), valueId(j, 'a'))],
  ['bad-input-port-kind', 'tiny-mlp', 'input port', 'input port 0 is the constant w', (dv, L, buf, j) => u32(dv, L.inPort(0), valueId(j, 'w'))],
  ['bad-input-not-port', 'no-consts', 'input port', 'PORT lists only a: b is of kind 0 but not an input port', (dv, L, buf) => {
    const p = L.sec.PORT.off;
    const nOut = dv.getUint32(L.outPort(0) - 4, true);
    const outs = Array.from({ length: nOut }, (_, k) => dv.getUint32(L.outPort(k), true));
    const a = dv.getUint32(L.inPort(0), true);
    buf.fill(0, p, p + L.sec.PORT.len);
    u32(dv, p, 1); u32(dv, p + 4, a); u32(dv, p + 8, nOut);
    outs.forEach((id, k) => u32(dv, p + 12 + 4 * k, id));
    u64(dv, L.sec.PORT.entry + 16, L.sec.PORT.len - 4);
  }],
  ['bad-output-port-twice', 'multi-out', 'output port', 'output ports [b, b]', (dv, L) => u32(dv, L.outPort(1), dv.getUint32(L.outPort(0), true))],
  ['bad-state-port', 'state', 'port (5, 1) out of range', 'STAT pair 0 names input port 5 of 2', (dv, L) => u32(dv, L.sec.STAT.off + 4, 5)],
  ['bad-state-count', 'state', 'count 65 exceeds the limit 64', 'STAT count 65: at most 64 state pairs (checked before the length)', (dv, L) => u32(dv, L.sec.STAT.off, 65)],
  ['bad-unknown-rank-dims', 'symbolic', 'unused dims slot', 'a node output of rank 255 with dims slot 0 = 5 (rank unknown: all eight slots are unused)', (dv, L, buf, j) => {
    i64(dv, L.val(j.values.findIndex((v) => v.shape === null)) + 16, 5);
  }],
  // Nested graphs (GRPH; graph records of 32 bytes after a u32 count).
  ['bad-graph-cycle', 'control', 'nested in itself', 'graph 0 (then_branch of node 0) owned by node 1, a node of graph 0',
    (dv, L) => u32(dv, L.sec.GRPH.off + 4 + 8, 1)],
  ['bad-graph-two', 'control', 'belongs to two graphs', 'graph 1 (else_branch) range starts at node 1, a node of graph 0',
    (dv, L) => u32(dv, L.sec.GRPH.off + 4 + 32 + 12, 1)],
  ['bad-graph-owner', 'control', 'owner node', 'graph 0 owned by node NODE.count', (dv, L) => u32(dv, L.sec.GRPH.off + 4 + 8, L.count('NODE'))],
  ['bad-graph-scope', 'control', 'out of scope', 'top-level node relu reads t, a node output of the If\'s then_branch', (dv, L, buf, j) => {
    u32(dv, L.ioix(ioOf(j, 'relu', 0)), valueId(j, 't'));
  }],
  ['bad-graph-capture-order', 'control', 'out of scope', 'the Loop body reads r, produced by a top-level node after the Loop', (dv, L, buf, j) => {
    u32(dv, L.ioix(ioOf(j, 'body_mul', 1)), valueId(j, 'r'));
  }],
  ['bad-graph-port', 'control', 'out of scope', 'output port 1 is a2, a value of the Loop body', (dv, L, buf, j) => u32(dv, L.outPort(1), valueId(j, 'a2'))],
  ['bad-graph-input', 'control', 'not a graph input', 'the Loop body lists input x (kind 0) as its first graph input', (dv, L, buf, j) => {
    u32(dv, L.ioix(graphIoOf(j, 2, 0)), valueId(j, 'x'));
  }],
  ['bad-graph-depth', 'nested-deep', 'nesting deeper than the limit 16', 'the innermost branch (graph 30) takes in node 16: its graphs sit 17 deep',
    (dv, L) => u32(dv, L.sec.GRPH.off + 4 + 32 * 30 + 16, 1)],
];

/** IOIX index of input k of the node named `name`. */
function ioOf(json, name, k) {
  let io = 0;
  for (const n of json.nodes) {
    if (n.name === name) return io + k;
    io += n.inputs.length + n.outputs.length;
  }
  throw new Error(`no node ${name}`);
}

/** IOIX index of input k of graph g (graph ranges follow every node's). */
function graphIoOf(json, g, k) {
  let io = json.nodes.reduce((a, n) => a + n.inputs.length + n.outputs.length, 0);
  for (let i = 0; i < g; i++) io += json.graphs[i].inputs.length + json.graphs[i].outputs.length;
  return io + k;
}

// Good vectors that are patches (reader behaviour, not writer output).
const PATCHED_GOOD = [
  ['unknown-optional', 'meta', 'an unknown section without REQUIRED (META renamed XTRA, flags 0) is skipped: meta reads back empty',
    (dv, L, buf) => { setId(buf, L.sec.META.entry, 'XTRA'); u32(dv, L.sec.META.entry + 4, 0); },
    (j) => ({ ...j, meta: [] })],
  ['future-minor', 'tiny-mlp', 'minor version 1 is accepted (minors only add optional sections)',
    (dv) => dv.setUint16(10, 1, true), (j) => j],
];

// ---------------------------------------------------------------- build
/** Graph JSON printed one value / node per line (the committed .json format). */
export function formatJSON(g) {
  const keys = ['meta', 'symbols', 'values', 'nodes', 'inputs', 'outputs'];
  const extra = Object.keys(g).filter((k) => !keys.includes(k));
  const parts = [...keys, ...extra].map((k) => {
    const v = g[k];
    if (Array.isArray(v) && v.length && (k === 'values' || k === 'nodes' || k === 'meta'))
      return `  ${JSON.stringify(k)}: [\n${v.map((e) => '    ' + JSON.stringify(e)).join(',\n')}\n  ]`;
    return `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`;
  });
  return `{\n${parts.join(',\n')}\n}\n`;
}

/** The input graph plus the digest the reader reports for each constant. */
function expectedReadback(input, read) {
  return {
    ...input,
    values: input.values.map((v, i) => (v.kind === 'const' ? { ...v, digest: read.values[i].digest } : v)),
  };
}

export function buildVectors() {
  const good = [];
  const byName = new Map();
  for (const [name, make, covers] of GOOD) {
    const graph = make();
    const bytes = writeHolo(graph);
    const json = readHolo(bytes);
    if (!isDeepStrictEqual(json, expectedReadback(graph, json)))
      throw new Error(`vector ${name}: reader output differs from the writer's input:\n${formatJSON(json)}\n${formatJSON(graph)}`);
    const v = { name, covers, bytes, json, graph, fromWriter: true };
    good.push(v);
    byName.set(name, v);
  }
  for (const [name, base, covers, fn, fix] of PATCHED_GOOD) {
    const b = byName.get(base);
    const bytes = patch(b.bytes, (dv, L, buf) => fn(dv, L, buf, b.json));
    const json = readHolo(bytes);
    if (!isDeepStrictEqual(json, fix(b.json))) throw new Error(`vector ${name}: unexpected read-back`);
    good.push({ name, covers: `${covers} (patch of ${base})`, bytes, json, fromWriter: false, base });
  }
  const bad = BAD.map(([name, base, expect, covers, fn]) => {
    const b = byName.get(base);
    const bytes = patch(b.bytes, (dv, L, buf) => fn(dv, L, buf, b.json));
    let msg = null;
    try { readHolo(bytes); } catch (e) { msg = e.message; }
    if (msg === null) throw new Error(`bad vector ${name}: the reader accepts it`);
    if (!msg.includes(expect)) throw new Error(`bad vector ${name}: error ${JSON.stringify(msg)} lacks ${JSON.stringify(expect)}`);
    return { name, base, expect, covers, bytes, message: msg };
  });
  return { good, bad };
}

export function readmeGood(good) {
  return [
    '# .holo test vectors',
    '',
    'Generated by `node tests/vectors/make-vectors.mjs` (do not edit by hand). Each `NAME.holo` has',
    '`NAME.json` beside it: the graph JSON the writer was given, with each constant\'s `digest`, which is',
    'exactly what a reader (JS `readHolo`, C `holo dump`) must return. `bad/` holds archives every reader must reject.',
    '',
    ...good.map((v) => `- \`${v.name}\` — ${v.covers}`),
    '',
  ].join('\n');
}

export function readmeBad(bad) {
  const subs = [...new Set(bad.map((b) => b.expect))];
  return [
    '# Malformed .holo archives',
    '',
    'Generated by `node tests/vectors/make-vectors.mjs`. Each `NAME.holo` is a byte patch of a good vector',
    'that breaks one rule of docs/holo-format.md; `NAME.expect` holds one line (strip the trailing newline):',
    'a substring the reader\'s error message must contain. `holo dump NAME.holo` must exit with code 2.',
    'Where a patch necessarily breaks a second rule too, the intended error is the first one a reader',
    'meets checking, in order: header, section table, section counts, records (SYMS, VALS, CONS, ATTR, NODE),',
    'then graph rules (input ports, nodes in order with each node\'s inputs before its outputs, output ports).',
    '',
    'Substrings in use: ' + subs.map((s) => `\`${s}\``).join(', ') + '.',
    '',
    '| vector | base | expect | breaks |',
    '|---|---|---|---|',
    ...bad.map((b) => `| \`${b.name}\` | ${b.base} | \`${b.expect}\` | ${b.covers} |`),
    '',
  ].join('\n');
}

function main() {
  const { good, bad } = buildVectors();
  const badDir = join(HERE, 'bad');
  mkdirSync(badDir, { recursive: true });
  for (const f of readdirSync(HERE)) if (/\.(holo|json)$/.test(f)) unlinkSync(join(HERE, f));
  for (const f of readdirSync(badDir)) if (/\.(holo|expect)$/.test(f)) unlinkSync(join(badDir, f));
  for (const v of good) {
    writeFileSync(join(HERE, `${v.name}.holo`), v.bytes);
    writeFileSync(join(HERE, `${v.name}.json`), formatJSON(v.json));
  }
  for (const b of bad) {
    writeFileSync(join(badDir, `${b.name}.holo`), b.bytes);
    writeFileSync(join(badDir, `${b.name}.expect`), b.expect + '\n');
  }
  writeFileSync(join(HERE, 'README.md'), readmeGood(good));
  writeFileSync(join(badDir, 'README.md'), readmeBad(bad));
  console.log(`wrote ${good.length} good and ${bad.length} bad vectors`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
