// The ai.onnx.ml ops (scikit-learn exports through skl2onnx), each LOWERED
// here to standard ops the backend has: no kernel of their own (the core has
// no size headroom; docs/decisions.md 81). The semantics are onnxruntime
// 1.30's CPU kernels (onnxruntime/core/providers/cpu/ml/*.cc), checked
// against onnxruntime-node by tests/js/convert-ml*.test.mjs. Every numeric
// input (float, double, int64, int32) is cast to float32 first, as those
// kernels do; the outputs are float32 (Binarizer and Imputer keep X's dtype).
// X is [N, C] or [C] (read as [1, C], as onnxruntime does).
//   Scaler(X; offset, scale): (x - offset) * scale, offset and scale of 1 or
//     C values each.
//   Normalizer(X; norm MAX | L1 | L2): per row, x / max(x) (the signed max:
//     onnxruntime's), x / sum|x|, sign(x) sqrt(x^2 / sum x^2) (its order); a
//     row whose max or sum is 0 is copied.
//   Binarizer(X; threshold 0): x > threshold ? 1 : 0 in X's dtype
//     (onnxruntime fails the run on a NaN; here a NaN gives 0).
//   Imputer(X; imputed_value_floats | imputed_value_int64s (1 or C values),
//     replaced_value_float | replaced_value_int64): x == replaced (or both
//     NaN) -> the imputed value of x's column.
//   LinearRegressor(X; coefficients [T x C], intercepts?, targets 1,
//     post_transform NONE): Gemm(X, W^T) + b -> [N, T].
//   LinearClassifier(X; coefficients [K x C], intercepts [K],
//     classlabels_ints, multi_class (ignored, as onnxruntime does),
//     post_transform) -> Y [N] int64, Z [N, K'] float: s = X W^T + b; for K
//     > 1 the label is the first argmax of s and Z = post_transform(s)
//     (NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO, PROBIT); for K = 1 the label is
//     classlabels[1] when s > 0 else classlabels[0] (1 / 0 without two
//     labels) and, with two labels, Z = [logistic(-s), logistic(s)] for
//     LOGISTIC and [1 - s, s] for NONE / SOFTMAX / SOFTMAX_ZERO (onnxruntime
//     1.30's add_second_class, as measured; PROBIT is refused there:
//     onnxruntime writes one column of two), without two labels Z = s
//     (PROBIT applied, the others not).
//     classlabels_strings refused: no string tensors.
//   ArrayFeatureExtractor(X, Y int64): Gather of the flattened Y along X's
//     last axis ([1, k] for a 1-D X).
//   FeatureVectorizer(X...; inputdimensions): each input [N, ...] flattened
//     to [N, c_i], cut or zero-padded to inputdimensions[i], cast to float,
//     concatenated.
//   OneHotEncoder(X; cats_int64s, zeros 1): X (int64 / int32, or a float
//     truncated to int64) -> X.shape + [ncats] float32, 1 where x equals a
//     category. With zeros = 0 onnxruntime fails the run on a value outside
//     cats; here it gives a zero row. cats_strings refused (no strings).
import { A, attr, DT, dtypeName, Unsupported, writeElems } from './ir.js';
import { ML_TREE_OPS } from './onnx-ops-ml-trees.js';
import { ML_SVM_OPS } from './onnx-ops-ml-svm.js';
import { ML_LABEL_OPS } from './onnx-ops-ml-labelencoder.js';
import { ML_TREE5_OPS } from './onnx-ops-ml-tree5.js';

const OPS = Object.create(null);
const NUMERIC = new Set([DT.f32, DT.f64, DT.i64, DT.i32]);

/** e(op, ins, attrs, out?): one emitted node's first output (a fresh name unless `out`). */
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];

export const constF = (ctx, hint, dims, arr) => ctx.constRaw(hint, DT.f32, dims, writeElems(DT.f32, [...arr].map(Number)));
export const constI = (ctx, hint, dims, arr) => ctx.constRaw(hint, DT.i64, dims, writeElems(DT.i64, [...arr].map((x) => BigInt(x))));

/** The floats attribute `k` (an empty list when absent). */
export const floats = (n, k) => (n.attrs[k] === undefined ? [] : [...attr(n, k, [])].map(Number));
export const ints = (n, k) => (n.attrs[k] === undefined ? [] : [...attr(n, k, [])].map(Number));
export const str = (n, k, dflt) => attr(n, k, dflt);

/** Refuses string attributes/tensors by name. */
export function noStrings(n, ...keys) {
  for (const k of keys) if (n.attrs[k] !== undefined)
    throw new Unsupported(`${k} needs string tensors, which hologram-exec does not support (the int64 form is supported)`);
}

/**
 * X as float32 [N, C] (a 1-D X read as [1, C]); `rank2` false keeps the
 * rank. Returns { x, C } with C the (known) column count or null.
 */
export function floatInput(ctx, x, o, { rank2 = true, cast = true } = {}) {
  const dt = ctx.value(x).dtype;
  if (!NUMERIC.has(dt)) throw new Unsupported(`X of ${dtypeName(dt)} is not supported (float, double, int64, int32)`);
  const s = ctx.shape(x);
  if (!s || (rank2 && s.length !== 1 && s.length !== 2)) throw new Unsupported(`X must be of a known rank 1 or 2 (got ${s ? s.length : 'unknown'})`);
  let v = x;
  if (cast && dt !== DT.f32) v = emitter(ctx, o)('Cast', [v], { to: A.int(DT.f32) });
  if (rank2 && s.length === 1) v = ctx.reshapeTo(v, [1, s[0]]);
  const C = s[s.length - 1];
  return { x: v, C: typeof C === 'number' ? C : null, rank: s.length };
}

/** Checks a per-column vector of `len` values (1 or C). */
function perColumn(len, C, what) {
  if (len === 0) throw new Unsupported(`${what} is required`);
  if (len !== 1 && C !== null && len !== C) throw new Unsupported(`${what} has ${len} values, X has ${C} columns (1 or ${C})`);
}

OPS.Scaler = {
  attrs: ['offset', 'scale'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const { x, C } = floatInput(ctx, n.inputs[0], o, { rank2: false });
    const off = floats(n, 'offset'), sc = floats(n, 'scale');
    perColumn(sc.length, C, 'scale');
    if (off.length !== sc.length) throw new Unsupported(`offset has ${off.length} values, scale ${sc.length}: they must be of one size`);
    const d = e('Sub', [x, constF(ctx, `${o}_offset`, [off.length], off)]);
    e('Mul', [d, constF(ctx, `${o}_scale`, [sc.length], sc)], {}, o);
  },
};

OPS.Normalizer = {
  attrs: ['norm'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const { x, rank } = floatInput(ctx, n.inputs[0], o);
    const mode = str(n, 'norm', 'MAX');
    const axes = constI(ctx, `${o}_axes`, [1], [1]);
    const red = (op, v) => e(op, [v, axes], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
    const zero = constF(ctx, `${o}_zero`, [], [0]);
    let d, y;
    const out = rank === 1 ? undefined : o;
    if (mode === 'MAX') {
      d = red('ReduceMax', x);
      y = e('Div', [x, d]);
    } else if (mode === 'L1') {
      d = red('ReduceSum', e('Abs', [x]));
      y = e('Div', [x, d]);
    } else if (mode === 'L2') {
      const sq = e('Mul', [x, x]);
      d = red('ReduceSum', sq);
      const r = e('Sqrt', [e('Div', [sq, d])]);
      y = e('Where', [e('Less', [x, zero]), e('Neg', [r]), r]);
    } else throw new Unsupported(`norm '${mode}' is not one of MAX, L1, L2`);
    const r = e('Where', [e('Equal', [d, zero]), x, y], {}, out);
    if (rank === 1) ctx.emit('Reshape', [r, constI(ctx, `${o}_shape`, [1], [-1])], [o], { allowzero: A.int(0) });
  },
};

OPS.Binarizer = {
  attrs: ['threshold'],
  norm(ctx, n) {
    const x = n.inputs[0], o = n.outputs[0], e = emitter(ctx, o);
    const dt = ctx.value(x).dtype;
    if (!NUMERIC.has(dt)) throw new Unsupported(`X of ${dtypeName(dt)} is not supported (float, double, int64, int32)`);
    const t = attr(n, 'threshold', 0.0);
    // x > t in float for float X; an integer X compares as onnxruntime's T > float does (in float)
    const xf = dt === DT.f32 ? x : e('Cast', [x], { to: A.int(DT.f32) });
    const gt = e('Greater', [xf, ctx.constScalar(`${o}_t`, DT.f32, t)]);
    e('Cast', [gt], { to: A.int(dt) }, o);
  },
};

OPS.Imputer = {
  attrs: ['imputed_value_floats', 'imputed_value_int64s', 'replaced_value_float', 'replaced_value_int64'],
  norm(ctx, n) {
    const x = n.inputs[0], o = n.outputs[0], e = emitter(ctx, o);
    const dt = ctx.value(x).dtype;
    const fl = floats(n, 'imputed_value_floats'), il = ints(n, 'imputed_value_int64s');
    if (!fl.length === !il.length) throw new Unsupported('exactly one of imputed_value_floats and imputed_value_int64s is required');
    const s = ctx.shape(x);
    if (!s || (s.length !== 1 && s.length !== 2)) throw new Unsupported('X must be of a known rank 1 or 2');
    const C = typeof s[s.length - 1] === 'number' ? s[s.length - 1] : null;
    if (fl.length) {
      if (dt !== DT.f32) throw new Unsupported(`imputed_value_floats needs a float X (got ${dtypeName(dt)})`);
      perColumn(fl.length, C, 'imputed_value_floats');
      const r = attr(n, 'replaced_value_float', 0.0);
      const hit = Number.isNaN(r) ? e('IsNaN', [x]) : e('Equal', [x, ctx.constScalar(`${o}_r`, DT.f32, r)]);
      e('Where', [hit, constF(ctx, `${o}_imp`, [fl.length], fl), x], {}, o);
    } else {
      if (dt !== DT.i64) throw new Unsupported(`imputed_value_int64s needs an int64 X (got ${dtypeName(dt)})`);
      perColumn(il.length, C, 'imputed_value_int64s');
      const r = attr(n, 'replaced_value_int64', 0);
      const hit = e('Equal', [x, ctx.constScalar(`${o}_r`, DT.i64, r)]);
      e('Where', [hit, constI(ctx, `${o}_imp`, [il.length], il), x], {}, o);
    }
  },
};

/** s = X W^T + b for W [T x C] (coefficients, row-major) and b [T] (zeros when absent). */
function linear(ctx, n, x, C, T, o, out) {
  const w = floats(n, 'coefficients');
  if (!w.length) throw new Unsupported('coefficients are required');
  if (w.length % T !== 0) throw new Unsupported(`coefficients has ${w.length} values, not a multiple of ${T}`);
  const cols = w.length / T;
  if (C !== null && cols !== C) throw new Unsupported(`coefficients are ${T} x ${cols}, X has ${C} columns`);
  const b = floats(n, 'intercepts');
  if (b.length && b.length !== T) throw new Unsupported(`intercepts has ${b.length} values, ${T} expected`);
  const ins = [x, constF(ctx, `${o}_w`, [T, cols], w)];
  if (b.length) ins.push(constF(ctx, `${o}_b`, [T], b));
  return ctx.emit('Gemm', ins, [out ?? ctx.tmp(`${o}_scores`)], { alpha: A.float(1), beta: A.float(1), transA: A.int(0), transB: A.int(1) })[0];
}

OPS.LinearRegressor = {
  attrs: ['coefficients', 'intercepts', 'targets', 'post_transform'],
  norm(ctx, n) {
    const o = n.outputs[0];
    const pt = str(n, 'post_transform', 'NONE');
    if (pt !== 'NONE') throw new Unsupported(`post_transform '${pt}' is not supported (NONE is)`);
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    linear(ctx, n, x, C, attr(n, 'targets', 1), o, o);
  },
};

export const TRANSFORMS = ['NONE', 'LOGISTIC', 'SOFTMAX', 'SOFTMAX_ZERO', 'PROBIT'];
/** The node's post_transform attribute (default NONE), refused unless one of TRANSFORMS. */
export function postTransformAttr(n) {
  const pt = str(n, 'post_transform', 'NONE');
  if (!TRANSFORMS.includes(pt)) throw new Unsupported(`post_transform '${pt}' is not one of ${TRANSFORMS.join(', ')}`);
  return pt;
}

/** onnxruntime's ComputeProbit: sqrt2 * ErfInv(2v - 1), its ErfInv approximation (ml_common.h) op by op. */
function probit(ctx, v, o) {
  const e = emitter(ctx, o), c = (k, x) => ctx.constScalar(`${o}_${k}`, DT.f32, x);
  const t = e('Sub', [e('Mul', [c('two', 2), v]), c('one', 1)]);
  const sgn = e('Where', [e('Less', [t, c('z', 0)]), c('m1', -1), c('p1', 1)]);
  const xx = e('Mul', [e('Sub', [c('one', 1), t]), e('Add', [c('one', 1), t])]);
  const lg = e('Log', [xx]);
  const a = e('Add', [c('k2', Math.fround(2 / Math.fround(Math.fround(Math.PI) * Math.fround(0.147)))), e('Mul', [c('half', 0.5), lg])]);
  const b = e('Mul', [c('k1', Math.fround(1 / Math.fround(0.147))), lg]);
  const v3 = e('Add', [e('Neg', [a]), e('Sqrt', [e('Sub', [e('Mul', [a, a]), b])])]);
  return e('Mul', [c('sqrt2', Math.SQRT2), e('Mul', [sgn, e('Sqrt', [v3])])]);
}

/** onnxruntime's ComputeSoftmaxZero over axis 1: |v| <= 1e-7 -> v * exp(-max), else exp(v - max); / the sum of the latter. */
function softmaxZero(ctx, s, o) {
  const e = emitter(ctx, o);
  const axes = constI(ctx, `${o}_axes1`, [1], [1]);
  const mx = e('ReduceMax', [s, axes], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
  const eps = ctx.constScalar(`${o}_eps`, DT.f32, 0.0000001);
  const nz = e('Or', [e('Greater', [s, eps]), e('Less', [s, e('Neg', [eps])])]);
  const ex = e('Exp', [e('Sub', [s, mx])]);
  const zeroF = ctx.constScalar(`${o}_zf`, DT.f32, 0);
  const sum = e('ReduceSum', [e('Where', [nz, ex, zeroF]), axes], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) });
  const v = e('Where', [nz, ex, e('Mul', [s, e('Exp', [e('Neg', [mx])])])]);
  return e('Div', [v, sum]);
}

/** post_transform over scores [N, K] (K >= 2): the transformed value's name, `out` when given. */
export function postTransform(ctx, s, pt, o, out) {
  const e = emitter(ctx, o);
  const name = (v) => (out ? e('Identity', [v], {}, out) : v);
  switch (pt) {
    case 'NONE': return name(s);
    case 'LOGISTIC': return e('Sigmoid', [s], {}, out);
    case 'SOFTMAX': return e('Softmax', [s], { axis: A.int(1) }, out);
    case 'SOFTMAX_ZERO': return name(softmaxZero(ctx, s, o));
    case 'PROBIT': return name(probit(ctx, s, o));
    default: throw new Unsupported(`post_transform '${pt}' is not one of ${TRANSFORMS.join(', ')}`);
  }
}

/**
 * The scores' post_transform as onnxruntime's ML kernels write it, into
 * `out`: over two or more columns (K >= 2) postTransform; over one column
 * only PROBIT is applied (NONE, LOGISTIC, SOFTMAX, SOFTMAX_ZERO leave the
 * score as it is). Shared by LinearClassifier, the SVMs and the tree ensembles.
 */
export function scoreTransform(ctx, s, K, pt, o, out) {
  if (K >= 2) return postTransform(ctx, s, pt, o, out);
  return ctx.emit('Identity', [pt === 'PROBIT' ? probit(ctx, s, o) : s], [out], {})[0];
}

OPS.LinearClassifier = {
  attrs: ['coefficients', 'intercepts', 'classlabels_ints', 'classlabels_strings', 'multi_class', 'post_transform'],
  norm(ctx, n) {
    noStrings(n, 'classlabels_strings');
    const [yo, zo] = n.outputs, o = yo, e = emitter(ctx, o);
    const pt = postTransformAttr(n);
    const K = floats(n, 'intercepts').length;
    if (!K) throw new Unsupported('intercepts are required (one per class)');
    const labels = ints(n, 'classlabels_ints');
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    const s = linear(ctx, n, x, C, K, o);
    if (K > 1) {
      if (labels.length !== K) throw new Unsupported(`classlabels_ints has ${labels.length} labels, intercepts ${K}`);
      const am = e('ArgMax', [s], { axis: A.int(1), keepdims: A.int(0), select_last_index: A.int(0) });
      e('Gather', [constI(ctx, `${o}_labels`, [K], labels), am], { axis: A.int(0) }, yo);
      if (zo) postTransform(ctx, s, pt, o, zo);
      return;
    }
    // one score column
    const two = labels.length === 2;
    const [neg, pos] = two ? labels : [0, 1];
    const s1 = ctx.reshapeTo(s, [-1]);
    const gt = e('Greater', [s1, ctx.constScalar(`${o}_zero`, DT.f32, 0)]);
    e('Where', [gt, ctx.constScalar(`${o}_pos`, DT.i64, pos), ctx.constScalar(`${o}_neg`, DT.i64, neg)], {}, yo);
    if (!zo) return;
    if (two) {
      if (pt === 'PROBIT') throw new Unsupported('post_transform PROBIT with one score column and two class labels is not supported (onnxruntime writes one of the two columns)');
      // LOGISTIC: [logistic(-s), logistic(s)]; the others [1 - s, s] (the transform not applied)
      if (pt === 'LOGISTIC') e('Concat', [e('Sigmoid', [e('Neg', [s])]), e('Sigmoid', [s])], { axis: A.int(1) }, zo);
      else e('Concat', [e('Sub', [ctx.constScalar(`${o}_one`, DT.f32, 1), s]), s], { axis: A.int(1) }, zo);
    } else scoreTransform(ctx, s, 1, pt, o, zo);
  },
};

OPS.ArrayFeatureExtractor = {
  attrs: [],
  norm(ctx, n) {
    const [x, y] = n.inputs, o = n.outputs[0], e = emitter(ctx, o);
    if (!y) throw new Unsupported('Y (the indices) is required');
    const dt = ctx.value(x).dtype;
    if (!NUMERIC.has(dt)) throw new Unsupported(`X of ${dtypeName(dt)} is not supported (float, double, int64, int32)`);
    if (ctx.value(y).dtype !== DT.i64) throw new Unsupported('Y must be int64');
    const s = ctx.shape(x);
    if (!s || !s.length) throw new Unsupported('X needs a known rank of 1 or more');
    const idx = ctx.reshapeTo(y, [-1]);
    if (s.length === 1) {
      const g = e('Gather', [x, idx], { axis: A.int(0) });
      ctx.emit('Unsqueeze', [g, constI(ctx, `${o}_ax0`, [1], [0])], [o], {});
    } else e('Gather', [x, idx], { axis: A.int(s.length - 1) }, o);
  },
};

OPS.FeatureVectorizer = {
  attrs: ['inputdimensions'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const dims = ints(n, 'inputdimensions');
    const ins = n.inputs.filter(Boolean);
    if (dims.length !== ins.length) throw new Unsupported(`inputdimensions has ${dims.length} values for ${ins.length} inputs`);
    const parts = ins.map((v, i) => {
      const { x } = floatInput(ctx, v, `${o}_in${i}`, { rank2: false });
      const s = ctx.shape(v);
      const w = s.length === 1 ? s[0] : s.slice(1).reduce((a, d) => (typeof a === 'number' && typeof d === 'number' ? a * d : null), 1);
      if (typeof w !== 'number') throw new Unsupported(`input ${i} needs known dims after the first`);
      const x2 = s.length === 1 ? ctx.reshapeTo(x, [1, w]) : s.length === 2 ? x : ctx.reshapeTo(x, [0, w]);
      if (w === dims[i]) return x2;
      if (w > dims[i]) return e('Slice', [x2, constI(ctx, `${o}_s${i}`, [1], [0]), constI(ctx, `${o}_e${i}`, [1], [dims[i]]), constI(ctx, `${o}_a${i}`, [1], [1])]);
      return e('Pad', [x2, constI(ctx, `${o}_p${i}`, [4], [0, 0, 0, dims[i] - w]), ctx.constScalar(`${o}_pv${i}`, DT.f32, 0)], { mode: A.string('constant') });
    });
    if (parts.length === 1) e('Identity', parts, {}, o);
    else e('Concat', parts, { axis: A.int(1) }, o);
  },
};

OPS.OneHotEncoder = {
  attrs: ['cats_int64s', 'cats_strings', 'zeros'],
  norm(ctx, n) {
    noStrings(n, 'cats_strings');
    const x = n.inputs[0], o = n.outputs[0], e = emitter(ctx, o);
    const cats = ints(n, 'cats_int64s');
    if (!cats.length) throw new Unsupported('cats_int64s is required');
    const dt = ctx.value(x).dtype;
    if (!NUMERIC.has(dt)) throw new Unsupported(`X of ${dtypeName(dt)} is not supported (int64, int32, float, double)`);
    const s = ctx.shape(x);
    if (!s || s.length > 2) throw new Unsupported('X must be of a known rank of at most 2');
    // a category listed twice is its last index (onnxruntime's map)
    const last = new Map(cats.map((c, i) => [c, i]));
    const col = cats.map((c, i) => (last.get(c) === i ? c : null));
    const xi = dt === DT.i64 ? x : e('Cast', [x], { to: A.int(DT.i64) });
    const u = e('Unsqueeze', [xi, constI(ctx, `${o}_axm1`, [1], [-1])]);
    // an index never matched (a duplicate's earlier slot) compares against a value it cannot hold: a mask zeroes it
    const eq = e('Equal', [u, constI(ctx, `${o}_cats`, [cats.length], cats)]);
    const f = e('Cast', [eq], { to: A.int(DT.f32) }, col.every((c) => c !== null) ? o : undefined);
    if (col.some((c) => c === null)) e('Mul', [f, constF(ctx, `${o}_mask`, [cats.length], col.map((c) => (c === null ? 0 : 1)))], {}, o);
  },
};

// Refused by name, with the reason: ops over strings or maps (hologram-exec's
// values are numeric tensors; string tensors are issue 41)
for (const [op, why] of [
  ['CategoryMapper', 'it maps strings to int64 and int64 to strings: string tensors are not supported (issue 41)'],
  ['ZipMap', 'its output is a sequence of maps (seq(map(int64 | string, float))), which hologram-exec does not support; the probabilities tensor ZipMap reads is what to output (skl2onnx: options zipmap False)'],
  ['CastMap', 'its input is a map (map(int64, string | float)), which hologram-exec does not support'],
  ['DictVectorizer', 'its input is a map (map(string | int64, ...)), which hologram-exec does not support'],
]) OPS[op] = { attrs: [], refuse: why };

export const ML_DOMAIN = 'ai.onnx.ml';
export const ML_OPS = Object.assign(OPS, ML_TREE_OPS, ML_TREE5_OPS, ML_SVM_OPS, ML_LABEL_OPS); // + the tree ensembles (onnx-ops-ml-trees.js, onnx-ops-ml-tree5.js), the SVMs (onnx-ops-ml-svm.js), LabelEncoder (onnx-ops-ml-labelencoder.js)
