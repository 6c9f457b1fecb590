// ai.onnx.ml SVMRegressor / SVMClassifier LOWERED to standard ops (decision
// 81), with onnxruntime 1.30's CPU kernels' semantics (svmregressor.cc,
// svmclassifier.cc/.h, ml_common.h):
//   Kernel k(x, v) of X [N, C] against the rows v of a matrix [R, C]:
//     LINEAR x.v (+ a scalar, below); POLY (gamma x.v + coef0)^degree
//     (degree 2 and 3 as products, else Pow); SIGMOID tanh(gamma x.v +
//     coef0); RBF exp(-gamma sum (x - v)^2). kernel_params [gamma, coef0,
//     degree] (zeros when absent). An unknown kernel_type is refused
//     (onnxruntime reads it as SIGMOID).
//   SVMRegressor: n_supports > 0: Y = k(X, support_vectors) coefficients^T
//     + rho[0]; else (linear) Y = X coefficients^T + rho[0]. one_class: Y =
//     1 where Y > 0 else -1. post_transform is read and not applied, as
//     onnxruntime does. Y [N, 1].
//   SVMClassifier, vectors_per_class given (libsvm SVC): pairwise decision
//     values s_ij = sum_{v of i} coef[j-1][v] k_v + sum_{v of j} coef[i][v]
//     k_v + rho[ij] for i < j in order; a vote for i where s_ij > 0, else
//     for j; the label the class of the first most votes. Scores: K > 2 the
//     P = K(K-1)/2 values post_transformed; K = 2 [-s, s] for NONE,
//     [logistic(-s), logistic(s)] for LOGISTIC, [1 - s, s] for SOFTMAX and
//     SOFTMAX_ZERO (onnxruntime-node 1.30, as measured); PROBIT refused
//     there (onnxruntime writes one score of two). With prob_a / prob_b:
//     the scores are libsvm's pairwise-coupling probabilities (coupling()
//     below) post_transformed, K columns; the label stays the vote's.
//   SVMClassifier, no vectors_per_class (liblinear): s = X coefficients^T
//     [K x C] + rho[0] (to every class); the label the first argmax, except
//     for two classes without prob_a: classlabels[1] when every coefficient
//     is >= 0 and max s >= 0.5, or some is < 0 and max s > 0. Scores: s
//     post_transformed (K >= 2), one class: PROBIT applied, else s.
//   Refused by name: classlabels_strings (no string tensors), SVC with one
//   class (onnxruntime leaves a score unwritten), sizes that do not fit.
import { A, attr, DT, Unsupported } from './ir.js';
import { constF, constI, floats, ints, floatInput, noStrings, postTransform, postTransformAttr, scoreTransform } from './onnx-ops-ml.js';
import { buildGraph, emitControl } from './control-graphs.js';

const OPS = Object.create(null);
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
const KERNELS = ['LINEAR', 'POLY', 'RBF', 'SIGMOID'];

function kernelParams(n) {
  const kt = attr(n, 'kernel_type', 'LINEAR');
  if (!KERNELS.includes(kt)) throw new Unsupported(`kernel_type '${kt}' is not one of ${KERNELS.join(', ')}`);
  const kp = floats(n, 'kernel_params');
  if (kp.length && kp.length < 3) throw new Unsupported(`kernel_params has ${kp.length} values (gamma, coef0, degree expected)`);
  return { kt, gamma: kp[0] ?? 0, coef0: kp[1] ?? 0, degree: kp[2] ?? 0 };
}

/** onnxruntime's batched_kernel_dot: X [N, C] against M [R, C] -> [N, R]; `scalar` added for LINEAR when non-zero. */
function kernelDot(ctx, e, o, x, M, R, C, { kt, gamma, coef0, degree }, scalar, tag) {
  const m = constF(ctx, `${o}_${tag}`, [R, C], M);
  if (kt === 'RBF') {
    const d = e('Sub', [e('Unsqueeze', [x, constI(ctx, `${o}_ax1`, [1], [1])]), m]); // [N, R, C]
    const ss = e('ReduceSum', [e('Mul', [d, d]), constI(ctx, `${o}_ax2`, [1], [2])], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) });
    return e('Exp', [e('Mul', [ss, ctx.constScalar(`${o}_ngamma`, DT.f32, -gamma)])]);
  }
  const lin = kt === 'LINEAR';
  const c = lin ? scalar : coef0;
  const ins = [x, m];
  if (c !== 0) ins.push(constF(ctx, `${o}_${tag}_c`, [1], [c]));
  const g = e('Gemm', ins, { alpha: A.float(lin ? 1 : gamma), beta: A.float(1), transA: A.int(0), transB: A.int(1) });
  if (kt === 'POLY') {
    if (degree === 2) return e('Mul', [g, g]);
    if (degree === 3) return e('Mul', [e('Mul', [g, g]), g]);
    return e('Pow', [g, ctx.constScalar(`${o}_degree`, DT.f32, degree)]);
  }
  if (kt === 'SIGMOID') return e('Tanh', [g]);
  return g;
}

function columns(C, total, rows, what) {
  if (rows <= 0 || total % rows !== 0) throw new Unsupported(`${what} has ${total} values, not a multiple of ${rows}`);
  const f = total / rows;
  if (C !== null && f !== C) throw new Unsupported(`${what} has ${f} features per row, X has ${C} columns`);
  return f;
}

OPS.SVMRegressor = {
  attrs: ['coefficients', 'kernel_params', 'kernel_type', 'n_supports', 'one_class', 'post_transform', 'rho', 'support_vectors'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const kp = kernelParams(n);
    const coef = floats(n, 'coefficients'), rho = floats(n, 'rho'), sv = floats(n, 'support_vectors');
    if (!coef.length) throw new Unsupported('coefficients are required');
    if (!rho.length) throw new Unsupported('rho is required');
    const V = attr(n, 'n_supports', 0);
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    let y;
    if (V > 0) {
      const f = columns(C, sv.length, V, 'support_vectors');
      if (coef.length < V) throw new Unsupported(`coefficients has ${coef.length} values for ${V} support vectors`);
      const k = kernelDot(ctx, e, o, x, sv, V, f, kp, 0, 'sv');
      y = e('Gemm', [k, constF(ctx, `${o}_coef`, [1, V], coef.slice(0, V)), constF(ctx, `${o}_rho`, [1], [rho[0]])], { alpha: A.float(1), beta: A.float(1), transA: A.int(0), transB: A.int(1) });
    } else {
      columns(C, coef.length, 1, 'coefficients');
      y = kernelDot(ctx, e, o, x, coef, 1, coef.length, { ...kp, kt: 'LINEAR' }, rho[0], 'coef');
    }
    if (attr(n, 'one_class', 0)) {
      y = e('Where', [e('Greater', [y, ctx.constScalar(`${o}_z`, DT.f32, 0)]), ctx.constScalar(`${o}_p1`, DT.f32, 1), ctx.constScalar(`${o}_m1`, DT.f32, -1)]);
    }
    e('Identity', [y], {}, o);
  },
};

OPS.SVMClassifier = {
  attrs: ['classlabels_ints', 'classlabels_strings', 'coefficients', 'kernel_params', 'kernel_type', 'post_transform', 'prob_a', 'prob_b', 'rho', 'support_vectors', 'vectors_per_class'],
  norm(ctx, n) {
    noStrings(n, 'classlabels_strings');
    const [yo, zo] = n.outputs, o = yo, e = emitter(ctx, o);
    const pt = postTransformAttr(n);
    const labels = ints(n, 'classlabels_ints'), K = labels.length;
    if (!K) throw new Unsupported('classlabels_ints is required');
    const kp = kernelParams(n);
    const coef = floats(n, 'coefficients'), rho = floats(n, 'rho'), sv = floats(n, 'support_vectors');
    const pa = floats(n, 'prob_a'), pb = floats(n, 'prob_b');
    if (pa.length !== pb.length) throw new Unsupported(`prob_a has ${pa.length} values, prob_b ${pb.length}`);
    const haveProba = pa.length > 0;
    if (!coef.length) throw new Unsupported('coefficients are required');
    if (!rho.length) throw new Unsupported('rho is required');
    const vpc = ints(n, 'vectors_per_class');
    const V = vpc.reduce((a, b) => a + b, 0);
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    const lab = constI(ctx, `${o}_labels`, [K], labels);
    const ax1 = constI(ctx, `${o}_ax1r`, [1], [1]);
    if (V === 0) {
      // liblinear layout
      const f = columns(C, coef.length - (coef.length % K), K, 'coefficients');
      const s = kernelDot(ctx, e, o, x, coef.slice(0, K * f), K, f, { ...kp, kt: 'LINEAR' }, rho[0], 'coef');
      const am = e('ArgMax', [s], { axis: A.int(1), keepdims: A.int(0), select_last_index: A.int(0) });
      if (K === 2 && !haveProba) {
        const allPos = coef.every((w) => w >= 0);
        const mx = e('ReduceMax', [s, ax1], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) });
        const hit = e(allPos ? 'GreaterOrEqual' : 'Greater', [mx, ctx.constScalar(`${o}_thr`, DT.f32, allPos ? 0.5 : 0)]);
        e('Where', [hit, ctx.constScalar(`${o}_l1`, DT.i64, labels[1]), e('Gather', [lab, am], { axis: A.int(0) })], {}, yo);
      } else e('Gather', [lab, am], { axis: A.int(0) }, yo);
      if (!zo) return;
      scoreTransform(ctx, s, K, pt, o, zo);
      return;
    }
    // libsvm layout
    if (vpc.length !== K) throw new Unsupported(`vectors_per_class has ${vpc.length} values for ${K} class labels`);
    if (K < 2) throw new Unsupported('one class with support vectors is not supported (onnxruntime leaves its scores unwritten)');
    if (vpc.some((c) => !(c >= 0))) throw new Unsupported('vectors_per_class has a negative count');
    const f = columns(C, sv.length, V, 'support_vectors');
    const P = (K * (K - 1)) / 2;
    if (coef.length < (K - 1) * V) throw new Unsupported(`coefficients has ${coef.length} values, (K - 1) x V = ${(K - 1) * V} expected`);
    if (rho.length < P) throw new Unsupported(`rho has ${rho.length} values for ${P} class pairs`);
    if (haveProba && pa.length < P) throw new Unsupported(`prob_a has ${pa.length} values for ${P} class pairs`);
    const start = [];
    vpc.reduce((a, c, i) => ((start[i] = a), a + c), 0);
    const k = kernelDot(ctx, e, o, x, sv, V, f, kp, 0, 'sv'); // [N, V]
    const W = new Float32Array(P * V), Ai = new Float32Array(P * K), Aj = new Float32Array(P * K);
    let p = 0;
    for (let i = 0; i < K - 1; i++) for (let j = i + 1; j < K; j++, p++) {
      for (let m = 0; m < vpc[i]; m++) W[p * V + start[i] + m] = coef[(j - 1) * V + start[i] + m];
      for (let m = 0; m < vpc[j]; m++) W[p * V + start[j] + m] = coef[i * V + start[j] + m];
      Ai[p * K + i] = 1; Aj[p * K + j] = 1;
    }
    const s = e('Gemm', [k, constF(ctx, `${o}_pairw`, [P, V], W), constF(ctx, `${o}_rho`, [P], rho.slice(0, P))], { alpha: A.float(1), beta: A.float(1), transA: A.int(0), transB: A.int(1) });
    const pos = e('Cast', [e('Greater', [s, ctx.constScalar(`${o}_z`, DT.f32, 0)])], { to: A.int(DT.f32) });
    const neg = e('Sub', [ctx.constScalar(`${o}_one`, DT.f32, 1), pos]);
    const votes = e('Add', [e('MatMul', [pos, constF(ctx, `${o}_ai`, [P, K], Ai)]), e('MatMul', [neg, constF(ctx, `${o}_aj`, [P, K], Aj)])]);
    const am = e('ArgMax', [votes], { axis: A.int(1), keepdims: A.int(0), select_last_index: A.int(0) });
    e('Gather', [lab, am], { axis: A.int(0) }, yo);
    if (!zo) return;
    if (haveProba) return void postTransform(ctx, coupling(ctx, e, o, s, K, P, pa, pb), pt, o, zo);
    if (K > 2) return void postTransform(ctx, s, pt, o, zo);
    if (pt === 'PROBIT') throw new Unsupported('post_transform PROBIT with two classes and no prob_a is not supported (onnxruntime writes one score of two)');
    if (pt === 'LOGISTIC') return void e('Concat', [e('Sigmoid', [e('Neg', [s])]), e('Sigmoid', [s])], { axis: A.int(1) }, zo);
    const first = pt === 'NONE' ? e('Neg', [s]) : e('Sub', [ctx.constScalar(`${o}_one2`, DT.f32, 1), s]);
    e('Concat', [first, s], { axis: A.int(1) }, zo);
  },
};

/**
 * onnxruntime's probabilities from the pairwise decision values s [N, P]:
 * r_ij = clamp(1 - logistic(s A + B), 1e-7, 1 - 1e-7), r_ji = 1 - r_ij, then
 * multiclass_probability (libsvm's pairwise coupling, ml_common.h): Q from
 * r, p = 1/K, at most 100 sweeps, a row stopping at the first sweep whose
 * max |Qp_i - pQp| < 0.005 / K. The sweeps are a Loop run while any row
 * goes on; a stopped row's sweeps take diff = 0 (p unchanged, exactly).
 * Returns p [N, K].
 */
function coupling(ctx, e, o, s, K, P, pa, pb) {
  const c = (k, v) => ctx.constScalar(`${o}_${k}`, DT.f32, v);
  const ax = (k, a) => constI(ctx, `${o}_axc${k}`, [a.length], a);
  // sigmoid_probability: 1 - ComputeLogistic(s A + B), ComputeLogistic(v) = v < 0 ? 1 - t : t, t = 1 / (1 + exp(-|v|))
  const v = e('Add', [e('Mul', [s, constF(ctx, `${o}_pa`, [P], pa.slice(0, P))]), constF(ctx, `${o}_pb`, [P], pb.slice(0, P))]);
  const t = e('Div', [c('one_c', 1), e('Add', [c('one_c2', 1), e('Exp', [e('Neg', [e('Abs', [v])])])])]);
  const lg = e('Where', [e('Less', [v, c('zero_c', 0)]), e('Sub', [c('one_c3', 1), t]), t]);
  const val = e('Min', [e('Max', [e('Sub', [c('one_c4', 1), lg]), c('lo', Math.fround(1e-7))]), c('hi', Math.fround(1 - Math.fround(1e-7)))]);
  // r [N, K, K]: r_ij = val, r_ji = 1 - val (each entry one term: exact)
  const Mij = new Float32Array(P * K * K), Mji = new Float32Array(P * K * K);
  let q = 0;
  for (let i = 0; i < K - 1; i++) for (let j = i + 1; j < K; j++, q++) { Mij[q * K * K + i * K + j] = 1; Mji[q * K * K + j * K + i] = 1; }
  const rf = e('Add', [e('MatMul', [val, constF(ctx, `${o}_mij`, [P, K * K], Mij)]), e('MatMul', [e('Sub', [c('one_c5', 1), val]), constF(ctx, `${o}_mji`, [P, K * K], Mji)])]);
  const r = e('Reshape', [rf, constI(ctx, `${o}_rshape`, [3], [0, K, K])], { allowzero: A.int(0) });
  const rT = e('Transpose', [r], { perm: A.ints([0, 2, 1]) }); // rT[i][j] = r[j][i]
  // Q_ii = sum_j r_ji^2 (r_ii = 0), Q_ij = -r_ji r_ij
  const qd = e('ReduceSum', [e('Mul', [rT, rT]), ax('2', [2])], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) }); // [N, K, 1]
  const eye = ctx.constRaw(`${o}_eye`, DT.bool, [K, K], Uint8Array.from({ length: K * K }, (_, k) => (k % (K + 1) === 0 ? 1 : 0)));
  const Q = e('Where', [eye, qd, e('Neg', [e('Mul', [rT, r])])]);
  const qRow = [], qDiag = [];
  for (let i = 0; i < K; i++) {
    qRow.push(e('Gather', [Q, constI(ctx, `${o}_qi${i}`, [], [i])], { axis: A.int(1) })); // [N, K]
    qDiag.push(e('Slice', [qRow[i], constI(ctx, `${o}_qs${i}`, [1], [i]), constI(ctx, `${o}_qe${i}`, [1], [i + 1]), constI(ctx, `${o}_qa${i}`, [1], [1])])); // [N, 1]
  }
  // the initial state: p = 1/K, no row stopped
  const nDim = ctx.emit('Shape', [s], [ctx.tmp(`${o}_cn`)], { start: A.int(0), end: A.int(1) })[0];
  const p0 = e('Expand', [c('invk', Math.fround(1 / K)), e('Concat', [nDim, constI(ctx, `${o}_ck`, [1], [K])], { axis: A.int(0) })]);
  const d0 = e('Expand', [ctx.constRaw(`${o}_f`, DT.bool, [], Uint8Array.of(0)), e('Concat', [nDim, constI(ctx, `${o}_c1`, [1], [1])], { axis: A.int(0) })]);
  const tag = `${o}/coupling`;
  const ax1 = ax('1', [1]);
  const eps = c('eps', Math.fround(Math.fround(0.005) / K));
  const one = c('one_b', 1), two = c('two_b', 2), zero = c('zero_b', 0);
  const ones = constF(ctx, `${o}_ones`, [K, 1], Array(K).fill(1));
  const slice = (v, i, k) => [v, constI(ctx, `${o}_${k}s${i}`, [1], [i]), constI(ctx, `${o}_${k}e${i}`, [1], [i + 1]), ax1];
  const onehot = Array.from({ length: K }, (_, i) => constF(ctx, `${o}_oh${i}`, [K], Array.from({ length: K }, (_, k) => (k === i ? 1 : 0))));
  // the body is built from the backend's own (canonical) ops, not normalized
  // as ONNX nodes at the model's opset (an opset-17 ReduceMax took no axes input)
  const decl = [{ dtype: DT.i64, shape: [] }, { dtype: DT.bool, shape: [] }, { dtype: DT.f32, shape: ctx.shape(p0) }, { dtype: DT.bool, shape: ctx.shape(d0) }];
  let cnt = 0;
  const b = (op, ins, attrs = {}) => ctx.emit(op, ins, [ctx.tmp(`${tag}/v${cnt++}`)], attrs)[0];
  const g = buildGraph(ctx, 'body', decl, ['iter', 'cond_in', 'p_in', 'done_in'], tag, ([, , pIn, dIn]) => {
    let Qp = b('Squeeze', [b('MatMul', [Q, b('Unsqueeze', [pIn, ax('m1', [2])])]), ax('m2', [2])]); // [N, K]
    let pQp = b('MatMul', [b('Mul', [pIn, Qp]), ones]);
    const err = b('Abs', [b('Sub', [Qp, pQp])]);
    const done = b('Or', [dIn, b('Less', [b('ReduceMax', [err, ax1], { keepdims: A.int(1), noop_with_empty_axes: A.int(0) }), eps])]);
    let p = pIn;
    for (let i = 0; i < K; i++) {
      const qpi = b('Slice', slice(Qp, i, 'b'));
      // a stopped row takes diff = 0: its sweep leaves p exactly as it is
      const diff = b('Where', [done, zero, b('Div', [b('Sub', [pQp, qpi]), qDiag[i]])]);
      p = b('Add', [p, b('Mul', [diff, onehot[i]])]);
      const d1 = b('Add', [one, diff]);
      pQp = b('Div', [b('Div', [b('Add', [pQp, b('Mul', [diff, b('Add', [b('Mul', [diff, qDiag[i]]), b('Mul', [two, qpi])])])]), d1]), d1]);
      Qp = b('Div', [b('Add', [Qp, b('Mul', [diff, qRow[i]])]), d1]);
      p = b('Div', [p, d1]);
    }
    const condOut = b('Not', [b('Cast', [b('ReduceMin', [b('Cast', [done], { to: A.int(DT.f32) })], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) })], { to: A.int(DT.bool) })]);
    return [condOut, p, done];
  });
  const pFinal = ctx.tmp(`${o}_prob`), dFinal = ctx.tmp(`${o}_done`);
  const trips = ctx.constScalar(`${o}_trips`, DT.i64, 100), cond0 = ctx.constRaw(`${o}_cond0`, DT.bool, [], Uint8Array.of(1));
  emitControl(ctx, 'Loop', tag, [trips, cond0, p0, d0], [g], [{ name: pFinal, ...decl[2] }, { name: dFinal, ...decl[3] }]);
  return pFinal;
}

export const ML_SVM_OPS = OPS;
