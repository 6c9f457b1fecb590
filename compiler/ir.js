// The converter's mutable intermediate graph, shared by convert.js and the
// rewrites (compiler/rewrites/*.js), plus tensor helpers and a static shape /
// dtype inference for the canonical (normalized, opset-18-form) ops.
//
// Values are named (ONNX names). A value is
//   { name, dtype, shape, kind: 'input' | 'const' | 'node', bytes?, sv? }
// shape: array of (number | string symbol), or null when the rank is unknown
// (a dim the inference cannot tell makes the whole shape null).
// sv ("shape value"): for a 1-D or scalar integer node output whose elements
// are known at compile time up to symbolic dims — e.g. Shape(x) of x[N,3]
// gives sv [N, 3n] — an array of (bigint | string).
// A node is { op, name, inputs: [value name | ''], outputs: [value name], attrs: { k: {type, value} } }.
import { DTYPE_SIZE, dtypeName } from './onnx-reader.js';
import { MORE_SHAPE_RULES, SAME_AS_OUT0 } from './shape-rules.js';
import { floatToHalf, floatToBf16 } from './half.js';

export { DTYPE_SIZE, dtypeName };
export const DT = { f32: 1, u8: 2, i8: 3, u16: 4, i16: 5, i32: 6, i64: 7, bool: 9, f16: 10, f64: 11, u32: 12, u64: 13, bf16: 16 };

export class IR {
  constructor() {
    this.values = new Map();
    this.nodes = [];
    this.inputs = [];
    this.outputs = [];
    this._names = new Set();
    this.opset = 18;
    this.log = []; // rewrite notes for the report
  }

  has(name) { return this.values.has(name); }
  get(name) { return name ? this.values.get(name) : undefined; }
  isConst(name) { const v = this.get(name); return !!v && v.kind === 'const'; }

  /** A name not yet used by any value. */
  fresh(hint) {
    let base = hint || 'v', n = base, i = 0;
    while (this.values.has(n) || this._names.has(n)) n = `${base}_${++i}`;
    this._names.add(n);
    return n;
  }

  addValue(v) {
    if (this.values.has(v.name)) throw new Error(`internal: value '${v.name}' defined twice`);
    this._names.add(v.name);
    this.values.set(v.name, v);
    return v.name;
  }

  addConst(hint, dtype, shape, bytes) {
    const name = this.fresh(hint);
    return this.addValue({ name, dtype, shape: [...shape], kind: 'const', bytes });
  }

  /** Turn an existing value into a constant (folding a node output). */
  setConst(name, dtype, shape, bytes) {
    const v = this.values.get(name);
    v.kind = 'const'; v.dtype = dtype; v.shape = [...shape]; v.bytes = bytes; delete v.sv;
  }

  /** Number of uses of each value (node inputs + graph outputs). */
  uses() {
    const u = new Map();
    for (const n of this.nodes) for (const i of n.inputs) if (i) u.set(i, (u.get(i) ?? 0) + 1);
    for (const o of this.outputs) u.set(o, (u.get(o) ?? 0) + 1);
    return u;
  }

  /**
   * A fusion's last step: `consumer`, which reads `producer`'s one output x,
   * is removed, and `producer` makes the consumer's output y instead; y
   * keeps x's record (dtype, shape) under its own name.
   */
  absorb(producer, consumer) {
    const x = producer.outputs[0], y = consumer.outputs[0];
    const xv = this.values.get(x);
    this.nodes.splice(this.nodes.indexOf(consumer), 1);
    this.values.delete(y);
    this.values.delete(x);
    this.values.set(y, { ...xv, name: y });
    producer.outputs = [y];
  }

  consumers(name) {
    const out = [];
    for (const n of this.nodes) if (n.inputs.includes(name)) out.push(n);
    return out;
  }

  producer(name) {
    // Indexed: a linear scan per call made the rewrites O(n^2) (a chain of
    // 20,000 nodes took over 10 s). Rewrites edit ir.nodes and node.outputs in
    // place, so a hit is checked against the node list (a value has at most
    // one producer) and a miss rebuilds the index once before answering null.
    const k = this._producers?.get(name);
    if (k !== undefined && this.nodes[k]?.outputs.includes(name)) return this.nodes[k];
    this._producers = new Map();
    this.nodes.forEach((n, i) => { for (const o of n.outputs) if (o) this._producers.set(o, i); });
    const j = this._producers.get(name);
    return j === undefined ? null : this.nodes[j];
  }

  /** Replace every use of value `from` by value `to` (nodes and graph outputs). */
  replaceUses(from, to) {
    for (const n of this.nodes) n.inputs = n.inputs.map((i) => (i === from ? to : i));
    this.outputs = this.outputs.map((o) => (o === from ? to : o));
  }
}

// ---------------------------------------------------------------- tensors

export const isIntDtype = (d) => [2, 3, 4, 5, 6, 7, 12, 13].includes(d);
export const numel = (shape) => shape.reduce((a, d) => a * d, 1);
export const isConcrete = (shape) => Array.isArray(shape) && shape.every((d) => typeof d === 'number');

/** Elements of a constant as JS values: bigint for 64-bit ints, number otherwise (bool as 0/1, f16 and bf16 as raw bits). */
export function readElems(dtype, bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = DTYPE_SIZE.get(dtype);
  const n = bytes.byteLength / size;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const p = i * size;
    switch (dtype) {
      case 1: out[i] = dv.getFloat32(p, true); break;
      case 11: out[i] = dv.getFloat64(p, true); break;
      case 2: case 9: out[i] = dv.getUint8(p); break;
      case 3: out[i] = dv.getInt8(p); break;
      case 4: case 10: case 16: out[i] = dv.getUint16(p, true); break;
      case 5: out[i] = dv.getInt16(p, true); break;
      case 6: out[i] = dv.getInt32(p, true); break;
      case 12: out[i] = dv.getUint32(p, true); break;
      case 7: out[i] = dv.getBigInt64(p, true); break;
      case 13: out[i] = dv.getBigUint64(p, true); break;
      default: throw new Error(`internal: readElems of ${dtypeName(dtype)}`);
    }
  }
  return out;
}

/** JS values -> bytes of dtype (numbers are converted as ONNX Cast would for in-range values). */
export function writeElems(dtype, elems) {
  const size = DTYPE_SIZE.get(dtype);
  const bytes = new Uint8Array(size * elems.length);
  const dv = new DataView(bytes.buffer);
  elems.forEach((x, i) => {
    const p = i * size;
    const num = typeof x === 'bigint' ? Number(x) : x;
    const int = () => (typeof x === 'bigint' ? x : BigInt(Math.trunc(Number.isFinite(x) ? x : 0)));
    switch (dtype) {
      case 1: dv.setFloat32(p, num, true); break;
      case 11: dv.setFloat64(p, num, true); break;
      case 9: dv.setUint8(p, num ? 1 : 0); break;
      case 2: dv.setUint8(p, Number(BigInt.asUintN(8, int()))); break;
      case 3: dv.setInt8(p, Number(BigInt.asIntN(8, int()))); break;
      case 4: dv.setUint16(p, Number(BigInt.asUintN(16, int())), true); break;
      case 5: dv.setInt16(p, Number(BigInt.asIntN(16, int())), true); break;
      case 6: dv.setInt32(p, Number(BigInt.asIntN(32, int())), true); break;
      case 12: dv.setUint32(p, Number(BigInt.asUintN(32, int())), true); break;
      case 7: dv.setBigInt64(p, BigInt.asIntN(64, int()), true); break;
      case 13: dv.setBigUint64(p, BigInt.asUintN(64, int()), true); break;
      // rounded once from the double, as the kernels' Cast from f64 does
      case 10: dv.setUint16(p, floatToHalf(num), true); break;
      case 16: dv.setUint16(p, floatToBf16(num), true); break;
      default: throw new Unsupported(`a ${dtypeName(dtype)} constant would be needed, and the converter computes none of that type`);
    }
  });
  return bytes;
}

/** Integer elements of a constant as numbers (for axes, pads, shapes...). */
export function constInts(ir, name) {
  const v = ir.get(name);
  if (!v || v.kind !== 'const' || !isIntDtype(v.dtype)) return null;
  return readElems(v.dtype, v.bytes).map((x) => {
    const n = Number(x);
    return n;
  });
}

export const i64Bytes = (arr) => writeElems(DT.i64, arr.map((x) => BigInt(x)));

// ---------------------------------------------------------------- attributes

/** A conversion the converter refuses (convert.js adds the op and node to the message). */
export class Unsupported extends Error {}

// The ONNX attribute types a default of each JS kind admits.
const ADMITS = { number: ['int', 'float'], string: ['string'], array: ['ints', 'floats'] };
// The types of the attributes the normalizers read by name (ONNX gives each
// of these names one type in every op that has it); other names are checked
// against the kind of their default.
const TYPE_OF = {
  axis: ['int'], to: ['int'], k: ['int'], blocksize: ['int'], start: ['int'], end: ['int'], group: ['int'],
  keepdims: ['int'], allowzero: ['int'], transA: ['int'], transB: ['int'], ceil_mode: ['int'],
  axes: ['ints'], pads: ['ints'], kernel_shape: ['ints'], starts: ['ints'], ends: ['ints'], split: ['ints'],
  output_shape: ['ints'], strides: ['ints'], dilations: ['ints'], perm: ['ints'],
  equation: ['string'], mode: ['string'], auto_pad: ['string'],
};

/**
 * Attribute `k` of `node`, or `dflt` when absent. With a default, an
 * attribute of another kind (a FLOAT `perm`, a STRING `axis`) is refused
 * rather than read as whatever its value happens to be.
 */
export function attr(node, k, dflt) {
  const a = node.attrs[k];
  if (a === undefined) return dflt;
  const admits = TYPE_OF[k] ?? ADMITS[Array.isArray(dflt) ? 'array' : typeof dflt];
  if (admits && !admits.includes(a.type)) throw new Unsupported(`attribute '${k}' is of type ${a.type}, expected ${admits.join(' or ')}`);
  if (a.type === 'int' && typeof a.value === 'bigint') {
    // onnx-reader keeps an int64 beyond 2^53 as a BigInt, which no
    // normalizer's arithmetic takes; Shape's start/end are clamped to the
    // rank by the op, so any such value is the same as +-2^53
    if (k === 'start' || k === 'end') return a.value > 0n ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
    throw new Unsupported(`attribute '${k}' = ${a.value} is out of range`);
  }
  return a.value;
}
export const A = {
  int: (value) => ({ type: 'int', value }),
  float: (value) => ({ type: 'float', value }),
  ints: (value) => ({ type: 'ints', value }),
  floats: (value) => ({ type: 'floats', value }),
  string: (value) => ({ type: 'string', value }),
};

// ---------------------------------------------------------------- shape inference

export const normAxis = (a, r) => (a < 0 ? a + r : a);

export function broadcastShapes(shapes) {
  if (shapes.some((s) => s === null || s === undefined)) return null;
  const r = Math.max(0, ...shapes.map((s) => s.length));
  const out = [];
  for (let i = 0; i < r; i++) {
    let d = 1;
    for (const s of shapes) {
      const k = i - (r - s.length);
      if (k < 0) continue;
      const e = s[k];
      if (e === 1) continue;
      if (d === 1) d = e;
      else if (d !== e) {
        if (typeof d === 'number' && typeof e === 'number') return null; // incompatible
        if (typeof d === 'string' && typeof e === 'number') d = e; // the symbol must equal e
        else if (typeof d === 'string' && typeof e === 'string') return null;
      }
    }
    out.push(d);
  }
  return out;
}

/** Output size of a 2-D-style window along one axis. */
export function windowOut(inp, k, s, d, pb, pe, autoPad, ceil) {
  const ek = (k - 1) * d + 1;
  if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') return Math.ceil(inp / s);
  if (autoPad === 'VALID') return Math.floor((inp - ek) / s) + 1;
  const padded = inp + pb + pe;
  if (ceil) {
    let out = Math.ceil((padded - ek) / s) + 1;
    if ((out - 1) * s >= inp + pb) out--;
    return out;
  }
  return Math.floor((padded - ek) / s) + 1;
}

const UNARY_SAME = new Set([
  'Relu', 'Sigmoid', 'Tanh', 'Softmax', 'LogSoftmax', 'Hardmax', 'Exp', 'Log', 'Abs', 'Neg', 'Sqrt', 'Reciprocal',
  'Floor', 'Ceil', 'Round', 'Erf', 'Sin', 'Cos', 'Tan', 'Asin', 'Acos', 'Atan', 'Sinh', 'Cosh', 'Asinh', 'Acosh', 'Atanh',
  'Sign', 'LeakyRelu', 'Elu', 'Selu', 'Celu', 'HardSigmoid', 'HardSwish', 'Softplus', 'Softsign', 'ThresholdedRelu',
  'Mish', 'Gelu', 'Clip', 'LRN', 'InstanceNormalization', 'LayerNormalization', 'BatchNormalization', 'Identity',
  'Dropout', 'Cast', 'Not', 'BitwiseNot', 'IsNaN', 'IsInf', 'Shrink', 'MeanVarianceNormalization', 'CumSum',
  'QuantizeLinear', 'DequantizeLinear', // the per-tensor kernels only (onnx-ops-quant.js)
]);
const BROADCAST = new Set(['Add', 'Sub', 'Mul', 'Div', 'Pow', 'PRelu', 'Max', 'Min', 'Sum', 'Mean', 'Equal', 'Less',
  'Greater', 'LessOrEqual', 'GreaterOrEqual', 'And', 'Or', 'Xor', 'Where', 'Mod', 'BitShift',
  'BitwiseAnd', 'BitwiseOr', 'BitwiseXor']);
const BOOL_OUT = new Set(['Equal', 'Less', 'Greater', 'LessOrEqual', 'GreaterOrEqual', 'And', 'Or', 'Xor', 'Not', 'IsNaN', 'IsInf']);

/** What the shape rules read of a node: its input values, input 0's shape and rank, constant int inputs. */
function inferContext(ir, node) {
  const ins = node.inputs.map((n) => (n ? ir.get(n) : null));
  const sh = (i) => ins[i]?.shape ?? null;
  const x = sh(0);
  return {
    ir, node, ins, sh, x,
    op: node.op,
    r: x ? x.length : -1,
    dt0: ins.find((v) => v)?.dtype ?? DT.f32,
    ints: (i) => (node.inputs[i] ? constInts(ir, node.inputs[i]) : null),
  };
}

/** Sets c.dtype, the outputs' dtype, rule by rule (a later rule overrides; a throw keeps what was set). */
function inferDtype(c) {
  const op = c.op;
  if (BOOL_OUT.has(op)) c.dtype = DT.bool;
  if (op === 'Cast') c.dtype = attr(c.node, 'to');
  if (op === 'Where') c.dtype = c.ins[1]?.dtype ?? c.dt0;
  if (op === 'MatMulInteger') c.dtype = DT.i32;
  if (op === 'QLinearMatMul' || op === 'QLinearConv') c.dtype = c.ins[7]?.dtype ?? c.dt0;
  if (op === 'holo.DequantizeQ4') c.dtype = DT.f32;
  if (op === 'QuantizeLinear') c.dtype = c.ins[2]?.dtype ?? DT.u8;
  if (op === 'DequantizeLinear') c.dtype = DT.f32;
  if (op === 'EyeLike') c.dtype = attr(c.node, 'dtype', c.dt0);
  if (op === 'OneHot') c.dtype = c.ins[2]?.dtype ?? c.dt0;
  if (op === 'TfIdfVectorizer') c.dtype = DT.f32;
  if (op.endsWith('Window') || op === 'MelWeightMatrix') c.dtype = attr(c.node, 'output_datatype', DT.f32);
  if (op === 'Shape' || op === 'Size' || op === 'ArgMax' || op === 'ArgMin' || op === 'NonZero' || op === 'holo.NonMaxSuppressionPadded' || op === 'holo.UniqueOrder') c.dtype = DT.i64;
}

function matmulShape({ sh }) {
  const a = sh(0), b = sh(1);
  if (!(a && b && a.length >= 1 && b.length >= 1)) return null;
  const a2 = a.length === 1 ? [1, a[0]] : a, b2 = b.length === 1 ? [b[0], 1] : b;
  const batch = broadcastShapes([a2.slice(0, -2), b2.slice(0, -2)]);
  if (!batch) return null;
  const shape = [...batch, a2[a2.length - 2], b2[b2.length - 1]];
  if (b.length === 1) shape.splice(shape.length - 1, 1);
  if (a.length === 1) shape.splice(shape.length - (b.length === 1 ? 1 : 2), 1);
  return shape;
}

function gemmShape({ sh, node }) {
  const a = sh(0), b = sh(1);
  if (a && b && a.length === 2 && b.length === 2)
    return [attr(node, 'transA', 0) ? a[1] : a[0], attr(node, 'transB', 0) ? b[0] : b[1]];
  return null;
}

/** Conv and the pools: N, C (Conv: W's first dim), then one windowOut per spatial axis. */
function windowShape({ sh, x, node, op }) {
  const w = sh(1);
  if (!(x && x.length >= 3)) return null;
  const nsp = x.length - 2;
  const ks = op === 'Conv' ? (w && w.length === x.length ? w.slice(2) : attr(node, 'kernel_shape')) : attr(node, 'kernel_shape');
  const strides = attr(node, 'strides', Array(nsp).fill(1));
  const dil = attr(node, 'dilations', Array(nsp).fill(1));
  const pads = attr(node, 'pads', Array(2 * nsp).fill(0));
  const ap = attr(node, 'auto_pad', 'NOTSET');
  const ceil = attr(node, 'ceil_mode', 0);
  const c = op === 'Conv' ? (w ? w[0] : null) : x[1];
  if (ks && ks.every((k) => typeof k === 'number') && c !== null && x.slice(2).every((d) => typeof d === 'number'))
    return [x[0], c, ...x.slice(2).map((d, i) => windowOut(d, ks[i], strides[i], dil[i], pads[i], pads[i + nsp], ap, ceil))];
  return null;
}

function flattenShape({ x, r, node }) {
  if (!x) return null;
  const a = normAxis(attr(node, 'axis', 1), r);
  const p = (s) => (s.every((d) => typeof d === 'number') ? numel(s) : s.length === 1 ? s[0] : null);
  const d0 = p(x.slice(0, a)), d1 = p(x.slice(a));
  return d0 !== null && d1 !== null ? [d0, d1] : null;
}

function concatShape({ ir, node }) {
  const ss = node.inputs.map((n) => ir.get(n)?.shape);
  if (!(ss.every(Boolean) && ss.length)) return null;
  const a = normAxis(attr(node, 'axis'), ss[0].length);
  let tot = 0;
  for (const s of ss) { if (typeof s[a] !== 'number') return null; tot += s[a]; }
  const shape = [...ss[0]];
  shape[a] = tot;
  return shape;
}

function unsqueezeShape({ x, r, ints }) {
  const axes = ints(1);
  if (!(x && axes)) return null;
  const R = r + axes.length;
  const ax = new Set(axes.map((a) => normAxis(a, R)));
  const shape = [];
  let k = 0;
  for (let i = 0; i < R; i++) shape.push(ax.has(i) ? 1 : x[k++]);
  return shape;
}

function squeezeShape({ x, r, ints, node }) {
  if (!x) return null;
  const axes = node.inputs[1] ? ints(1) : null;
  if (axes) { const ax = new Set(axes.map((a) => normAxis(a, r))); return x.filter((_, i) => !ax.has(i)); }
  if (!node.inputs[1] && x.every((d) => typeof d === 'number')) return x.filter((d) => d !== 1);
  return null;
}

function shapeOpShape({ x, r, node }) {
  if (!x) return null;
  let s = attr(node, 'start', 0), e = attr(node, 'end', r);
  s = Math.min(Math.max(normAxis(s, r), 0), r); e = Math.min(Math.max(normAxis(e, r), 0), r);
  return [Math.max(e - s, 0)];
}

/** The Reduce* ops, ArgMax and ArgMin. */
function reduceShape({ x, r, op, node, ints }) {
  if (!x) return null;
  const keep = attr(node, 'keepdims', 1);
  let axes = op.startsWith('Reduce') ? (node.inputs[1] ? ints(1) : []) : [attr(node, 'axis', 0)];
  if (axes === null) return null;
  if (axes.length === 0 && op.startsWith('Reduce')) axes = attr(node, 'noop_with_empty_axes', 0) ? [] : x.map((_, i) => i);
  const ax = new Set(axes.map((a) => normAxis(a, r)));
  return keep ? x.map((d, i) => (ax.has(i) ? 1 : d)) : x.filter((_, i) => !ax.has(i));
}

/** op -> (context) => output 0's shape, or null when it cannot be told (a Map: no 'constructor' op). */
const SHAPE_RULES = new Map([
  ['MatMul', matmulShape],
  ['MatMulInteger', matmulShape],
  // B / W is input 3 of the QLinear products
  ['QLinearMatMul', (c) => matmulShape({ ...c, sh: (i) => c.sh(i === 1 ? 3 : i) })],
  ['QLinearConv', (c) => windowShape({ ...c, op: 'Conv', sh: (i) => c.sh(i === 1 ? 3 : i) })],
  // QLinearAdd / QLinearMul: A (input 0) and B (input 3) broadcast
  ['QLinearAdd', (c) => broadcastShapes([c.sh(0), c.sh(3)])],
  ['QLinearMul', (c) => broadcastShapes([c.sh(0), c.sh(3)])],
  ['holo.DequantizeQ4', ({ node }) => [attr(node, 'K'), attr(node, 'N')]],
  ['Gemm', gemmShape],
  ...['Conv', 'MaxPool', 'AveragePool', 'LpPool'].map((op) => [op, windowShape]),
  ...['GlobalAveragePool', 'GlobalMaxPool'].map((op) => [op, ({ x }) => (x && x.length >= 3 ? [x[0], x[1], ...x.slice(2).map(() => 1)] : null)]),
  ['Flatten', flattenShape],
  ['Reshape', ({ ir, x, ints, node }) => {
    // a computed shape known up to symbols (its sv: Concat(Shape(q)[:2], [64]) is [B, S, 64]) tells the dims too
    const sv = ints(1) ? null : ir.get(node.inputs[1])?.sv;
    const s = ints(1) ?? (sv?.every((e) => typeof e === 'string' || typeof e === 'bigint') ? sv.map((e) => (typeof e === 'bigint' ? Number(e) : e)) : null);
    if (s && !x && sv) return s.every((d) => typeof d === 'string' || d > 0) ? s : null;
    return s && x ? reshapeShape(x, s, attr(node, 'allowzero', 0)) : null;
  }],
  ['Transpose', ({ x, r, node }) => (x ? attr(node, 'perm', x.map((_, i) => r - 1 - i)).map((p) => x[p]) : null)],
  ['Concat', concatShape],
  ['Unsqueeze', unsqueezeShape],
  ['Squeeze', squeezeShape],
  ['Shape', shapeOpShape],
  ['Size', () => []],
  ['Gather', ({ x, r, sh, node }) => {
    const ind = sh(1);
    if (!(x && ind)) return null;
    const a = normAxis(attr(node, 'axis', 0), r);
    return [...x.slice(0, a), ...ind, ...x.slice(a + 1)];
  }],
  ['Expand', ({ x, ints }) => { const s = ints(1); return x && s ? broadcastShapes([x, s]) : null; }],
  ['ConstantOfShape', (c) => {
    const s = c.ints(0);
    c.dtype = c.node.attrs.value ? c.node.attrs.value.value.dtype : DT.f32;
    return s || null;
  }],
  ['Tile', ({ x, ints }) => { const rep = ints(1); return x && rep && x.every((d) => typeof d === 'number') ? x.map((d, i) => d * rep[i]) : null; }],
  ['Pad', ({ x, r, ints, node }) => {
    const p = ints(1);
    return x && p && !node.inputs[3] && x.every((d) => typeof d === 'number') ? x.map((d, i) => d + p[i] + p[i + r]) : null;
  }],
]);

/** Output 0's shape (null: cannot be told); a rule may also set c.dtype (ConstantOfShape). */
function inferShape(c) {
  const op = c.op;
  const more = MORE_SHAPE_RULES.get(op);
  if (more) return more(c);
  if (UNARY_SAME.has(op)) return c.x;
  if (BROADCAST.has(op)) return broadcastShapes(c.node.inputs.filter(Boolean).map((n) => c.ir.get(n).shape));
  const rule = SHAPE_RULES.get(op) ?? (op.startsWith('Reduce') || op === 'ArgMax' || op === 'ArgMin' ? reduceShape : null);
  return rule ? rule(c) : null;
}

/** A shape of safe non-negative integers and symbols, else null. */
const validShape = (s) =>
  Array.isArray(s) && s.every((d) => (typeof d === 'number' && Number.isSafeInteger(d) && d >= 0) || typeof d === 'string') ? s : null;

/**
 * Infer [{dtype, shape}] for the outputs of a canonical node (opset-18 form,
 * defaults explicit). Unknown parts are null; dtype falls back to input 0's.
 */
export function inferNode(ir, node) {
  const c = inferContext(ir, node);
  c.dtype = c.dt0;
  let shape = null;
  try {
    inferDtype(c);
    shape = inferShape(c);
  } catch {
    shape = null;
  }
  shape = validShape(shape);
  const outs = node.outputs.map(() => ({ dtype: c.dtype, shape: null }));
  if (outs.length) outs[0].shape = shape;
  SAME_AS_OUT0.get(c.op)?.(c);
  for (let k = 1; k < outs.length; k++) {
    const m = c.more?.[k];
    if (!m) continue;
    outs[k].dtype = m.dtype;
    outs[k].shape = m.same ? shape : validShape(m.shape);
  }
  return outs;
}

/** Reshape output shape for requested dims `req` (numbers), or null when it cannot be told. */
export function reshapeShape(x, req, allowzero) {
  const out = req.map((d, i) => (d === 0 && !allowzero ? x[i] : d));
  if (out.some((d) => d === undefined)) return null;
  const neg = out.indexOf(-1);
  if (neg >= 0) {
    // a symbolic dim of the input cancels the same symbol among the other
    // output dims ([B, S, N, h] -> [0, 0, -1]: -1 is N*h); -1 is known if
    // every symbol cancels, or is the one input symbol left when the known
    // dims' products agree ([B, S, 64] -> [0, -1, 4, 16]: -1 is S)
    const rest = out.filter((_, i) => i !== neg), left = rest.filter((d) => typeof d !== 'number');
    const xn = [], xs = [];
    for (const d of x) {
      if (typeof d === 'number') { xn.push(d); continue; }
      if (typeof d !== 'string') return null;
      const k = left.indexOf(d);
      if (k < 0) xs.push(d);
      else left.splice(k, 1);
    }
    if (left.length || xs.length > 1) return null;
    const p = numel(rest.filter((d) => typeof d === 'number'));
    if (p === 0) return null;
    if (xs.length) return numel(xn) === p ? out.map((d, i) => (i === neg ? xs[0] : d)) : null;
    out[neg] = numel(xn) / p;
    if (!Number.isInteger(out[neg])) return null;
  }
  return out;
}
