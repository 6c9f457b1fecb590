// Shape rules for the ops whose output shapes ir.js's core rules do not
// tell: ops with several outputs (Split, TopK, MaxPool's indices, Dropout's
// mask, LayerNormalization's statistics), Slice, GatherElements, OneHot,
// Range, Einsum, ConvTranspose, the depth/space shuffles, the recurrent ops. Only ops the
// converter maps have a rule (each is then checked); an op's mapping brings
// its rule.
//
// Why it matters: a shape the converter cannot tell stops everything
// downstream of it from folding (a Shape of it stays a node, and the model is
// refused), but a shape it tells WRONG folds a wrong constant: a wrong
// answer. So a rule returns null whenever an input it needs is not known,
// and tests/js/shape-rules.test.mjs checks every rule against the reference
// outputs of the ONNX node suite.
//
// A rule gets inferNode's context c and returns output 0's shape (or null);
// it may set c.more[k] = { shape, dtype } for outputs k >= 1.
import { DT, attr, readElems, normAxis, broadcastShapes } from './ir.js';

const known = (d) => typeof d === 'number';
const withDim = (x, a, d) => x.map((v, i) => (i === a ? d : v));
const clamp = (v, lo, hi) => Math.min(Math.max(v, lo), hi);

/** A constant's elements as numbers, any numeric dtype (Range's bounds, Resize's scales). */
function constNumbers(ir, name) {
  const v = name ? ir.get(name) : null;
  if (!v || v.kind !== 'const') return null;
  try {
    return readElems(v.dtype, v.bytes).map(Number);
  } catch {
    return null;
  }
}

function splitShape(c) {
  const { x, r, node, ints } = c;
  if (!x) return null;
  const a = normAxis(attr(node, 'axis', 0), r);
  const d = x[a], n = node.outputs.length;
  if (!known(d) || a < 0 || a >= r) return null;
  let sizes;
  if (node.inputs[1]) {
    sizes = ints(1);
    if (!sizes || sizes.length !== n || sizes.reduce((s, v) => s + v, 0) !== d) return null;
  } else {
    // opset 18: the last chunk is smaller when d does not divide (opset 13
    // requires that it divides, which the same rule gives)
    const chunk = Math.ceil(d / n), last = d - chunk * (n - 1);
    if (last < 0) return null;
    sizes = [...Array(n - 1).fill(chunk), last];
  }
  c.more = sizes.map((s) => ({ shape: withDim(x, a, s), dtype: c.dtype }));
  return withDim(x, a, sizes[0]);
}

/** One axis of Slice: the count of elements from start to end by step (ONNX's clamping). */
function sliceLen(dim, start, end, step) {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = clamp(start, 0, dim);
    end = clamp(end, 0, dim);
    return Math.max(0, Math.ceil((end - start) / step));
  }
  start = clamp(start, 0, dim - 1);
  end = clamp(end, -1, dim - 1);
  return Math.max(0, Math.ceil((start - end) / -step));
}

function sliceShape({ x, r, node, ints }) {
  if (!x) return null;
  const starts = ints(1), ends = ints(2);
  const axes = node.inputs[3] ? ints(3) : starts && starts.map((_, i) => i);
  const steps = node.inputs[4] ? ints(4) : starts && starts.map(() => 1);
  if (!(starts && ends && axes && steps)) return null;
  if (ends.length !== starts.length || axes.length !== starts.length || steps.length !== starts.length) return null;
  const out = [...x];
  const seen = new Set();
  for (let i = 0; i < starts.length; i++) {
    const a = normAxis(axes[i], r);
    if (a < 0 || a >= r || seen.has(a) || steps[i] === 0 || !known(x[a])) return null;
    seen.add(a);
    out[a] = sliceLen(x[a], starts[i], ends[i], steps[i]);
  }
  return out;
}

function topkShape(c) {
  const { x, r, node, ints } = c;
  const k = ints(1);
  if (!x || !k || k.length !== 1 || k[0] < 0) return null;
  const a = normAxis(attr(node, 'axis', -1), r);
  if (a < 0 || a >= r || (known(x[a]) && k[0] > x[a])) return null;
  const shape = withDim(x, a, k[0]);
  c.more = [null, { shape, dtype: DT.i64 }];
  return shape;
}

/** Einsum without ellipsis: every letter's dim from the operands, the output's letters. */
function einsumShape({ ir, node }) {
  const eq = String(attr(node, 'equation', '')).replace(/\s+/g, '');
  if (eq.includes('.')) return null;
  const [lhs, rhs] = eq.includes('->') ? eq.split('->') : [eq, null];
  const terms = lhs.split(',');
  if (terms.length !== node.inputs.length) return null;
  const dims = new Map();
  for (let t = 0; t < terms.length; t++) {
    const s = ir.get(node.inputs[t])?.shape;
    if (!s || s.length !== terms[t].length) return null;
    for (let i = 0; i < s.length; i++) {
      const L = terms[t][i], prev = dims.get(L);
      if (prev === undefined || prev === 1) dims.set(L, s[i]);
      else if (s[i] !== 1 && s[i] !== prev) return null;
    }
  }
  let out = rhs;
  if (out === null) {
    const count = new Map();
    for (const L of terms.join('')) count.set(L, (count.get(L) ?? 0) + 1);
    out = [...count].filter(([, n]) => n === 1).map(([L]) => L).sort().join('');
  }
  const shape = [...out].map((L) => dims.get(L));
  return shape.every((d) => d !== undefined) ? shape : null;
}

function convTransposeShape({ x, sh, node }) {
  const w = sh(1);
  if (!(x && w && x.length >= 3 && w.length === x.length && known(w[1]))) return null;
  const nsp = x.length - 2, group = attr(node, 'group', 1);
  const ks = attr(node, 'kernel_shape', w.slice(2));
  const strides = attr(node, 'strides', Array(nsp).fill(1));
  const dil = attr(node, 'dilations', Array(nsp).fill(1));
  const outPad = attr(node, 'output_padding', Array(nsp).fill(0));
  const pads = attr(node, 'pads', Array(2 * nsp).fill(0));
  const ap = attr(node, 'auto_pad', 'NOTSET');
  const head = [x[0], w[1] * group];
  const os = attr(node, 'output_shape', null);
  if (os) return os.length === nsp ? [...head, ...os] : null;
  if (!x.slice(2).every(known) || !ks.every(known)) return null;
  return [...head, ...x.slice(2).map((d, i) => {
    if (ap === 'SAME_UPPER' || ap === 'SAME_LOWER') return d * strides[i];
    const full = strides[i] * (d - 1) + outPad[i] + (ks[i] - 1) * dil[i] + 1;
    return ap === 'VALID' ? full : full - pads[i] - pads[i + nsp];
  })];
}

function depthToSpaceShape({ x, node, op }) {
  const b = attr(node, 'blocksize');
  if (!(x && x.length === 4 && x.slice(1).every(known) && Number.isInteger(b) && b > 0)) return null;
  const [n, ch, h, w] = x;
  if (op === 'DepthToSpace') return ch % (b * b) ? null : [n, ch / (b * b), h * b, w * b];
  return h % b || w % b ? null : [n, ch * b * b, h / b, w / b];
}

function oneHotShape({ ir, x, r, node }) {
  const depth = constNumbers(ir, node.inputs[1]);
  if (!x || !depth || depth.length !== 1 || !(depth[0] >= 1)) return null;
  const a = normAxis(attr(node, 'axis', -1), r + 1);
  if (a < 0 || a > r) return null;
  const out = [...x];
  out.splice(a, 0, Math.trunc(depth[0]));
  return out;
}

function rangeShape({ ir, node }) {
  const [s, l, d] = node.inputs.map((n) => constNumbers(ir, n));
  // Range(0, n, 1) over a symbolic n (a Shape's element): n elements
  const lsv = node.inputs[1] ? ir.get(node.inputs[1])?.sv : null;
  if (!l && lsv?.length === 1 && typeof lsv[0] === 'string' && s?.length === 1 && s[0] === 0 && d?.length === 1 && d[0] === 1) return [lsv[0]];
  if (!(s && l && d && s.length === 1 && l.length === 1 && d.length === 1) || d[0] === 0) return null;
  const n = Math.max(Math.ceil((l[0] - s[0]) / d[0]), 0);
  return Number.isSafeInteger(n) ? [n] : null;
}

/** Resize with constant sizes, or constant scales (floor(in * scale)), over `axes` or every axis. */
function resizeShape({ ir, x, r, node }) {
  if (!x) return null;
  const axes = attr(node, 'axes', null)?.map((a) => normAxis(a, r)) ?? x.map((_, i) => i);
  const sizes = node.inputs[3] ? constNumbers(ir, node.inputs[3]) : null;
  const scales = node.inputs[2] ? constNumbers(ir, node.inputs[2]) : null;
  const out = [...x];
  if (sizes && sizes.length) {
    if (sizes.length !== axes.length) return null;
    const policy = attr(node, 'keep_aspect_ratio_policy', 'stretch');
    if (policy === 'stretch') {
      axes.forEach((a, i) => { out[a] = sizes[i]; });
      return out;
    }
    // one f32 scale, the least / greatest sizes[i] / in, and round(scale * in)
    // (half away from zero) on every axis in axes, as the kernel (operators/resize.c)
    if (!axes.every((a) => known(x[a]))) return null;
    const f = Math.fround, q = axes.map((a, i) => (x[a] ? f(f(sizes[i]) / f(x[a])) : 1));
    const p = policy === 'not_larger' ? Math.min(...q) : Math.max(...q);
    axes.forEach((a) => { out[a] = Math.floor(f(p * f(x[a])) + 0.5); });
    return out;
  }
  if (!scales || scales.length !== axes.length) return null;
  for (let i = 0; i < axes.length; i++) {
    if (!known(x[axes[i]])) return null;
    // the kernel's double product of the dim and the f32 scale, floored
    out[axes[i]] = Math.floor(x[axes[i]] * scales[i]);
  }
  return out;
}

/** Y [S,D,B,H] (layout 1: [B,S,D,H]); Y_h and Y_c [D,B,H] ([B,D,H]). */
function recurrentShape(c) {
  const { x, node } = c;
  if (!x || x.length !== 3) return null;
  const layout = attr(node, 'layout', 0), H = attr(node, 'hidden_size', null);
  const D = attr(node, 'direction', 'forward') === 'bidirectional' ? 2 : 1;
  if (typeof H !== 'number') return null;
  const [S, B] = layout ? [x[1], x[0]] : [x[0], x[1]];
  const hs = layout ? [B, D, H] : [D, B, H];
  c.more = [null, { shape: hs, dtype: c.dtype }, { shape: hs, dtype: c.dtype }];
  return layout ? [B, S, D, H] : [S, D, B, H];
}

/** Same shape as input 0, with extra outputs of that shape (MaxPool's Indices, Dropout's mask). */
const sameWith = (dtypes) => (c) => {
  c.more = [null, ...dtypes.map((d) => ({ shape: null, dtype: DT[d], same: true }))];
  return null;
};

function layerNormStats(c) {
  const { x, r, node } = c;
  if (!x) return null;
  const a = normAxis(attr(node, 'axis', -1), r);
  const stat = x.map((d, i) => (i >= a ? 1 : d));
  c.more = [null, { shape: stat, dtype: DT.f32 }, { shape: stat, dtype: DT.f32 }];
  return x;
}

/** GatherND: indices.shape[:-1] + data.shape[batch_dims + k:], k the indices' last dim (a number). */
function gatherNdShape({ x, sh, node }) {
  const ind = sh(1);
  if (!x || !ind || !ind.length) return null;
  const k = ind[ind.length - 1], b = attr(node, 'batch_dims', 0);
  if (typeof k !== 'number') return null;
  return [...ind.slice(0, -1), ...x.slice(b + k)];
}

/** TfIdfVectorizer: [C] -> [K], [N, C] -> [N, K], K = max(ngram_indexes) + 1. */
function tfidfShape({ x, node }) {
  const idx = attr(node, 'ngram_indexes', null);
  if (!x || !Array.isArray(idx) || !idx.length || (x.length !== 1 && x.length !== 2)) return null;
  const k = Math.max(...idx.map(Number)) + 1;
  return x.length === 1 ? [k] : [x[0], k];
}

/** Unique: every output's length is the data's; the extra outputs are i64. */
function uniqueShape(c) {
  c.more = [null, ...c.node.outputs.slice(1).map(() => ({ shape: null, dtype: DT.i64 }))];
  return null;
}

/** The window functions: [size], size a constant scalar. */
function windowShape({ ints }) {
  const s = ints(0);
  return s && s.length === 1 && s[0] >= 0 ? [s[0]] : null;
}

/** DFT: the signal axis becomes the bins kept, the last dim 2 (operators/dft.c). */
function dftShape({ x, r, ints, node }) {
  const ax = node.inputs[2] ? ints(2) : [attr(node, 'axis', 1)];
  if (!x || !ax || ax.length !== 1 || !known(x[r - 1])) return null;
  const a = ax[0] < 0 ? ax[0] + r : ax[0];
  const N = node.inputs[1] ? ints(1)?.[0] : x[a];
  if (a < 0 || a > r - 2 || !known(N)) return null;
  return withDim(withDim(x, a, attr(node, 'onesided', 0) ? Math.floor(N / 2) + 1 : N), r - 1, 2);
}

/** STFT: [batch, (L - frame_length) / frame_step + 1, bins, 2]. */
function stftShape({ x, sh, ints, node }) {
  const s = ints(1)?.[0], w = node.inputs[2] ? sh(2) : null;
  const fl = node.inputs[3] ? ints(3)?.[0] : w?.[0];
  if (!x || x.length !== 3 || !known(x[1]) || !known(s) || !known(fl) || s < 1 || fl < 1 || fl > x[1]) return null;
  return [x[0], Math.floor((x[1] - fl) / s) + 1, attr(node, 'onesided', 1) ? Math.floor(fl / 2) + 1 : fl, 2];
}

/** holo.NonMaxSuppressionPadded: [B * C * min(N, max_output), 3] rows and an i64 [1] count. */
function nmsPaddedShape(c) {
  const { x, sh, ints } = c;
  c.more = [null, { shape: [1], dtype: DT.i64 }];
  const s = sh(1), mx = c.node.inputs[2] ? ints(2) : [0];
  if (!x || !s || x.length !== 3 || s.length !== 3 || !mx || mx.length !== 1) return null;
  if (![s[0], s[1], x[1]].every(known)) return null;
  return [s[0] * s[1] * Math.min(x[1], Math.max(mx[0], 0)), 3];
}

/** DynamicQuantizeLinear: y u8 of x's shape, a f32 scale and a u8 zero point (scalars). */
function dqlShape(c) {
  c.dtype = DT.u8;
  c.more = [null, { shape: [], dtype: DT.f32 }, { shape: [], dtype: DT.u8 }];
  return c.x;
}

/** holo.MatMulIntegerToFloat / holo.DynamicQuantizeMatMul: MatMul's shape, f32. */
function mmiFloatShape(c) {
  c.dtype = DT.f32;
  const a = c.sh(0), b = c.sh(1);
  if (!(a && b && a.length >= 2 && b.length >= 2)) return null;
  const batch = broadcastShapes([a.slice(0, -2), b.slice(0, -2)]);
  return batch ? [...batch, a[a.length - 2], b[b.length - 1]] : null;
}

export const MORE_SHAPE_RULES = new Map([
  ['DynamicQuantizeLinear', dqlShape],
  ['holo.MatMulIntegerToFloat', mmiFloatShape],
  ['holo.DynamicQuantizeMatMul', mmiFloatShape],
  ['Split', splitShape],
  ['Slice', sliceShape],
  ['TopK', topkShape],
  ['Einsum', einsumShape],
  ['ConvTranspose', convTransposeShape],
  ['DepthToSpace', depthToSpaceShape],
  ['SpaceToDepth', depthToSpaceShape],
  ['GatherElements', ({ sh }) => sh(1)],
  ['ScatterElements', ({ x }) => x],
  ['ScatterND', ({ x }) => x],
  ['GatherND', gatherNdShape],
  ['holo.UniqueOrder', ({ x, node }) => {
    if (!x) return null;
    if (node.attrs.axis === undefined) return x.every(known) ? [x.reduce((p, d) => p * d, 1)] : null;
    const d = x[normAxis(attr(node, 'axis'), x.length)];
    return known(d) ? [d] : null;
  }],
  ['Unique', uniqueShape],
  ['Det', ({ x }) => (x && x.length >= 2 ? x.slice(0, -2) : null)],
  ['Trilu', ({ x }) => x],
  ['EyeLike', ({ x }) => x],
  ...['HannWindow', 'HammingWindow', 'BlackmanWindow'].map((w) => [w, windowShape]),
  ['DFT', dftShape],
  ['STFT', stftShape],
  ['MelWeightMatrix', ({ ints }) => (ints(0) && ints(1) ? [Math.floor(ints(1)[0] / 2) + 1, ints(0)[0]] : null)],
  ['OneHot', oneHotShape],
  ['TfIdfVectorizer', tfidfShape],
  ['holo.NonMaxSuppressionPadded', nmsPaddedShape],
  // the random words (operators/random.c): u32 of the dims input 0 holds, known up to symbols
  ['holo.Philox', (c) => {
    c.dtype = DT.u32;
    const v = c.ins[0];
    const el = c.ints(0) ?? v?.sv?.map((e) => (typeof e === 'bigint' ? Number(e) : e));
    return el && v.shape?.length === 1 ? el : null;
  }],
  ['holo.RoiPoolMax', ({ x, sh }) => (x && x.length === 4 && sh(1) && sh(2) && sh(3) ? [sh(1)[0], x[1], sh(2)[1], sh(3)[1]] : null)],
  ['RoiAlign', ({ x, sh, node }) => (x && x.length === 4 && sh(1) ? [sh(1)[0], x[1], attr(node, 'output_height', 1), attr(node, 'output_width', 1)] : null)],
  ['Range', rangeShape],
  ['Resize', resizeShape],
  ['GridSample', ({ x, sh }) => (x && sh(1) && x.length === 4 && sh(1).length === 4 ? [x[0], x[1], sh(1)[1], sh(1)[2]] : null)],
  ['LayerNormalization', layerNormStats],
  ['LSTM', recurrentShape],
  ['GRU', recurrentShape],
  ['RNN', recurrentShape],
]);

/** Extra outputs whose shape is output 0's (MaxPool's Indices: i64; Dropout's mask: bool). */
export const SAME_AS_OUT0 = new Map([
  ['MaxPool', sameWith(['i64'])],
  ['Dropout', sameWith(['bool'])],
]);
