// ai.onnx.ml TreeEnsembleRegressor / TreeEnsembleClassifier LOWERED to
// standard ops (decision 81), with onnxruntime 1.30's semantics
// (tree_ensemble_common.h, tree_ensemble_aggregator.h):
//   Nodes: every tree's nodes are one run of nodes_treeids (its root the
//     run's first node); true/false ids are node ids of the same tree. All
//     trees are walked at once, batch-major: node [N, T] starts at the
//     roots, and each of the ensemble's depth steps gathers each node's
//     feature (GatherElements on X), threshold, children and mode, compares
//     exactly in float32 (BRANCH_LEQ <=, LT <, GTE >=, GT >, EQ ==, NEQ !=;
//     a NaN feature goes true where nodes_missing_value_tracks_true is 1,
//     else where the comparison says, so NEQ's true), and moves with Where
//     (a leaf's children are itself, so shallower trees stay put).
//     BRANCH_MEMBER (TreeEnsemble, compiler/onnx-ops-ml-tree5.js): x equal
//     to one of the node's set (a NaN-padded [G, S] table gathered per node).
//   Leaves: each leaf's weights per target/class summed ([G, K] table,
//     gathered at the reached leaves, [N, T, K]), then over the trees:
//     SUM, AVERAGE (/ n_trees), MIN, MAX (over the leaves that carry the
//     target; none: 0). With one target only each leaf's first weight
//     counts (onnxruntime's value_or_unique_weight). base_values: one value
//     per target, or (one target) a single value; post_transform over two
//     or more targets as LinearClassifier's, one target only PROBIT.
//   Classifier (always SUM, as onnxruntime): per class the sum and whether
//     any reached leaf carries it. More than two classes: base_values
//     added, the label the first maximum among the carried classes, the
//     scores post_transformed. Two classes: onnxruntime's binary rules
//     (FinalizeScores) op by op: base_values [2] (class 1 carried: s1 = b1
//     + s0, s0 = -s1), [1] or none; one class id in class_ids is its
//     binary case (label by > 0.5 when every weight is positive, else > 0;
//     scores [1 - s, s], or [logistic(-s), logistic(s)] / [-s, s]), else
//     the label is 1 / 0 by s > 0. What onnxruntime leaves unwritten (one
//     score of two) is refused.
//   Refused by name: *_as_tensor attributes (double trees), string class
//   labels, a tree whose nodes are not one run, a cycle or a missing node.
import { A, attr, DT, Unsupported } from './ir.js';
import { constF, constI, floats, ints, floatInput, noStrings, postTransform, postTransformAttr, scoreTransform } from './onnx-ops-ml.js';

const OPS = Object.create(null);
const emitter = (ctx, o) => (op, ins, attrs = {}, out) => ctx.emit(op, ins, [out ?? ctx.tmp(`${o}_${op}`)], attrs)[0];
const MODES = ['BRANCH_LEQ', 'BRANCH_LT', 'BRANCH_GTE', 'BRANCH_GT', 'BRANCH_EQ', 'BRANCH_NEQ', 'LEAF'];
const CMP = { BRANCH_LEQ: 'LessOrEqual', BRANCH_LT: 'Less', BRANCH_GTE: 'GreaterOrEqual', BRANCH_GT: 'Greater', BRANCH_EQ: 'Equal', BRANCH_NEQ: 'Equal' };

function strs(n, k) {
  const a = n.attrs[k];
  if (a === undefined) return [];
  if (a.type !== 'strings') throw new Unsupported(`attribute '${k}' is of type ${a.type}, expected strings`);
  return a.value;
}

/** The ensemble's nodes, trees and leaf weights (prefix 'target' or 'class'), checked as onnxruntime does. */
function parseEnsemble(n, p) {
  for (const k of ['nodes_values_as_tensor', 'nodes_hitrates_as_tensor', 'base_values_as_tensor', `${p}_weights_as_tensor`])
    if (n.attrs[k] !== undefined) throw new Unsupported(`${k} (double thresholds/weights) is not supported`);
  const tree = ints(n, 'nodes_treeids'), id = ints(n, 'nodes_nodeids'), feat = ints(n, 'nodes_featureids');
  const modes = strs(n, 'nodes_modes'), vals = floats(n, 'nodes_values'), tr = ints(n, 'nodes_truenodeids'), fa = ints(n, 'nodes_falsenodeids');
  const miss = ints(n, 'nodes_missing_value_tracks_true');
  const G = tree.length;
  if (!G) throw new Unsupported('the ensemble has no nodes');
  for (const [k, v] of [['nodes_nodeids', id], ['nodes_featureids', feat], ['nodes_modes', modes], ['nodes_values', vals], ['nodes_truenodeids', tr], ['nodes_falsenodeids', fa]])
    if (v.length !== G) throw new Unsupported(`${k} has ${v.length} values, nodes_treeids ${G}`);
  const at = new Map();
  const roots = [];
  const seen = new Set();
  for (let g = 0; g < G; g++) {
    if (!MODES.includes(modes[g])) throw new Unsupported(`node mode '${modes[g]}' is not one of ${MODES.join(', ')}`);
    const key = `${tree[g]}:${id[g]}`;
    if (at.has(key)) throw new Unsupported(`node ${id[g]} of tree ${tree[g]} is listed twice`);
    at.set(key, g);
    if (g === 0 || tree[g] !== tree[g - 1]) {
      if (seen.has(tree[g])) throw new Unsupported(`the nodes of tree ${tree[g]} are not one run of nodes_treeids`);
      seen.add(tree[g]);
      roots.push(g);
    }
  }
  const leaf = modes.map((m) => m === 'LEAF');
  const child = (g, ids, what) => {
    if (leaf[g]) return g;
    const c = at.get(`${tree[g]}:${ids[g]}`);
    if (c === undefined) throw new Unsupported(`node ${id[g]} of tree ${tree[g]}: its ${what} node ${ids[g]} does not exist`);
    if (c === g) throw new Unsupported(`node ${id[g]} of tree ${tree[g]} is its own ${what} node`);
    return c;
  };
  const tg = tree.map((_, g) => child(g, tr, 'true')), fg = tree.map((_, g) => child(g, fa, 'false'));
  // depth (edges from the root to the deepest leaf), cycles refused
  let depth = 0;
  for (const r of roots) {
    const stack = [[r, 0]];
    while (stack.length) {
      const [g, d] = stack.pop();
      if (d > G) throw new Unsupported(`tree ${tree[r]} has a cycle`);
      if (leaf[g]) { depth = Math.max(depth, d); continue; }
      stack.push([tg[g], d + 1], [fg[g], d + 1]);
    }
  }
  // the leaves' weights, in onnxruntime's order (sorted by tree, node, then position)
  const wt = ints(n, `${p}_treeids`), wn = ints(n, `${p}_nodeids`), wi = ints(n, `${p}_ids`), ww = floats(n, `${p}_weights`);
  if (wn.length !== wt.length || wi.length !== wt.length || ww.length !== wt.length) throw new Unsupported(`${p}_treeids, ${p}_nodeids, ${p}_ids and ${p}_weights must be of one length`);
  const order = wt.map((_, i) => i).sort((a, b) => wt[a] - wt[b] || wn[a] - wn[b] || a - b);
  const weights = Array.from({ length: G }, () => []);
  for (const i of order) {
    const g = at.get(`${wt[i]}:${wn[i]}`);
    if (g === undefined) throw new Unsupported(`${p} weight ${i} names node ${wn[i]} of tree ${wt[i]}, which does not exist`);
    if (!leaf[g]) continue; // onnxruntime ignores weights on branch nodes
    weights[g].push([wi[i], ww[i]]);
  }
  for (let g = 0; g < G; g++) if (leaf[g] && !weights[g].length) throw new Unsupported(`leaf ${id[g]} of tree ${tree[g]} has no ${p} weight`);
  const usedModes = [...new Set(modes.filter((m) => m !== 'LEAF'))];
  return { G, roots, feat: feat.map((f, g) => (leaf[g] ? 0 : f)), vals, tg, fg, modes, leaf, miss: tree.map((_, g) => !leaf[g] && miss[g] === 1), depth, weights, usedModes, tree, wi, ww };
}

/** The reached leaves [N, T] (global node indices) of X [N, C] float32. */
function walk(ctx, e, o, x, C, ens) {
  const maxF = Math.max(...ens.feat);
  if (C !== null && maxF >= C) throw new Unsupported(`a node reads feature ${maxF}, X has ${C} columns`);
  const { G, roots } = ens, T = roots.length;
  const featG = constI(ctx, `${o}_feat`, [G], ens.feat);
  const thrG = constF(ctx, `${o}_thr`, [G], ens.vals);
  const trueG = constI(ctx, `${o}_true`, [G], ens.tg), falseG = constI(ctx, `${o}_false`, [G], ens.fg);
  const modeMask = Object.fromEntries(ens.usedModes.map((m) => [m, ctx.constRaw(`${o}_is_${m}`, DT.bool, [G], Uint8Array.from(ens.modes, (v) => (v === m ? 1 : 0)))]));
  // BRANCH_MEMBER (TreeEnsemble, opset 5): each node's set as a row of a [G, S] table, NaN-padded (a NaN equals nothing)
  let memberG = null, memberAx = null;
  if (ens.usedModes.includes('BRANCH_MEMBER')) {
    const S = Math.max(1, ...[...ens.members.values()].map((v) => v.length));
    const tab = new Float32Array(G * S).fill(NaN);
    for (const [g, set] of ens.members) set.forEach((v, i) => { tab[g * S + i] = v; });
    memberG = constF(ctx, `${o}_members`, [G, S], tab);
    memberAx = constI(ctx, `${o}_ax2`, [1], [2]);
  }
  const anyMiss = ens.miss.some(Boolean);
  const missG = anyMiss ? ctx.constRaw(`${o}_miss`, DT.bool, [G], Uint8Array.from(ens.miss, (v) => (v ? 1 : 0))) : null;
  // node [N, T]: the roots for every row
  const nDim = ctx.emit('Shape', [x], [ctx.tmp(`${o}_n`)], { start: A.int(0), end: A.int(1) })[0];
  const shp = e('Concat', [nDim, constI(ctx, `${o}_T`, [1], [T])], { axis: A.int(0) });
  let node = e('Expand', [constI(ctx, `${o}_roots`, [1, T], roots), shp]);
  const g0 = (table, idx) => e('Gather', [table, idx], { axis: A.int(0) });
  for (let d = 0; d < ens.depth; d++) {
    const xv = e('GatherElements', [x, g0(featG, node)], { axis: A.int(1) });
    const th = g0(thrG, node);
    let cond = null;
    for (const m of ens.usedModes) {
      let c;
      if (m === 'BRANCH_MEMBER') {
        const eq = e('Equal', [e('Unsqueeze', [xv, memberAx]), e('Gather', [memberG, node], { axis: A.int(0) })]); // [N, T, S]
        c = e('Cast', [e('ReduceMax', [e('Cast', [eq], { to: A.int(DT.f32) }), memberAx], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) })], { to: A.int(DT.bool) });
      } else c = e(CMP[m], [xv, th]);
      if (m === 'BRANCH_NEQ') c = e('Not', [c]);
      if (ens.usedModes.length > 1) c = e('And', [g0(modeMask[m], node), c]);
      cond = cond ? e('Or', [cond, c]) : c;
    }
    if (anyMiss) cond = e('Or', [cond, e('And', [e('IsNaN', [xv]), g0(missG, node)])]);
    node = cond ? e('Where', [cond, g0(trueG, node), g0(falseG, node)]) : node;
  }
  return node;
}

/** Per leaf and target/class: the weight table [G, K] (by `agg`) and whether the leaf carries k. */
function leafTables(ens, K, agg, first) {
  const fill = agg === 'MIN' ? Infinity : agg === 'MAX' ? -Infinity : 0;
  const W = new Float32Array(ens.G * K).fill(fill), H = new Uint8Array(ens.G * K);
  for (let g = 0; g < ens.G; g++) {
    const ws = first ? ens.weights[g].slice(0, 1) : ens.weights[g];
    for (const [k, w] of ws) {
      if (!(k >= 0 && k < K)) throw new Unsupported(`a weight names target/class ${k}, the ensemble has ${K}`);
      const j = g * K + k;
      if (agg === 'MIN') W[j] = H[j] ? Math.min(W[j], w) : w;
      else if (agg === 'MAX') W[j] = H[j] ? Math.max(W[j], w) : w;
      else W[j] = Math.fround(W[j] + w);
      H[j] = 1;
    }
  }
  return { W, H };
}

/** Aggregated scores [N, K] over the trees, and (when asked) has [N, K] bool. */
function aggregate(ctx, e, o, leafIdx, ens, K, agg, first, wantHas) {
  const { W, H } = leafTables(ens, K, agg, first);
  const ax1 = constI(ctx, `${o}_ax1`, [1], [1]);
  const red = (op, v) => e(op, [v, ax1], { keepdims: A.int(0), noop_with_empty_axes: A.int(0) });
  const per = e('Gather', [constF(ctx, `${o}_W`, [ens.G, K], W), leafIdx], { axis: A.int(0) }); // [N, T, K]
  const hasNeeded = wantHas || agg === 'MIN' || agg === 'MAX';
  const has = hasNeeded ? e('Cast', [red('ReduceMax', e('Cast', [e('Gather', [ctx.constRaw(`${o}_H`, DT.bool, [ens.G, K], H), leafIdx], { axis: A.int(0) })], { to: A.int(DT.f32) }))], { to: A.int(DT.bool) }) : null;
  let s;
  if (agg === 'SUM' || agg === 'AVERAGE') s = red('ReduceSum', per);
  else s = e('Where', [has, red(agg === 'MIN' ? 'ReduceMin' : 'ReduceMax', per), ctx.constScalar(`${o}_z`, DT.f32, 0)]);
  return { s, has };
}

const AGGS = ['SUM', 'AVERAGE', 'MIN', 'MAX'];

OPS.TreeEnsembleRegressor = {
  attrs: ['aggregate_function', 'base_values', 'base_values_as_tensor', 'n_targets', 'nodes_falsenodeids', 'nodes_featureids', 'nodes_hitrates', 'nodes_hitrates_as_tensor',
    'nodes_missing_value_tracks_true', 'nodes_modes', 'nodes_nodeids', 'nodes_treeids', 'nodes_truenodeids', 'nodes_values', 'nodes_values_as_tensor', 'post_transform',
    'target_ids', 'target_nodeids', 'target_treeids', 'target_weights', 'target_weights_as_tensor'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const agg = attr(n, 'aggregate_function', 'SUM'), pt = postTransformAttr(n);
    if (!AGGS.includes(agg)) throw new Unsupported(`aggregate_function '${agg}' is not one of ${AGGS.join(', ')}`);
    const K = attr(n, 'n_targets', 0);
    if (!(K > 0)) throw new Unsupported('n_targets must be positive');
    if (agg === 'MAX' && K > 1) throw new Unsupported('aggregate_function MAX over more than one target is not supported (onnxruntime-node 1.30 differs from its documented rule there; not matched yet)');
    const ens = parseEnsemble(n, 'target');
    if (K > 1 && ens.weights.some((ws, g) => ens.leaf[g] && new Set(ws.map(([k]) => k)).size < K))
      throw new Unsupported('a leaf without a weight for every target is not supported when n_targets > 1 (onnxruntime-node 1.30 differs from its documented rule there; not matched yet)');
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    const leafIdx = walk(ctx, e, o, x, C, ens);
    const base = floats(n, 'base_values'), T = ens.roots.length;
    let { s } = aggregate(ctx, e, o, leafIdx, ens, K, agg, K === 1, false);
    if (agg === 'AVERAGE') s = e('Div', [s, ctx.constScalar(`${o}_nt`, DT.f32, T)]);
    if (K === 1) {
      const origin = base.length === 1 ? base[0] : 0;
      if (origin !== 0) s = e('Add', [s, ctx.constScalar(`${o}_origin`, DT.f32, origin)]);
    } else if (base.length === K) s = e('Add', [s, constF(ctx, `${o}_base`, [K], base)]);
    scoreTransform(ctx, s, K, pt, o, o);
  },
};

OPS.TreeEnsembleClassifier = {
  attrs: ['base_values', 'base_values_as_tensor', 'class_ids', 'class_nodeids', 'class_treeids', 'class_weights', 'class_weights_as_tensor', 'classlabels_int64s', 'classlabels_strings',
    'nodes_falsenodeids', 'nodes_featureids', 'nodes_hitrates', 'nodes_hitrates_as_tensor', 'nodes_missing_value_tracks_true', 'nodes_modes', 'nodes_nodeids', 'nodes_treeids',
    'nodes_truenodeids', 'nodes_values', 'nodes_values_as_tensor', 'post_transform'],
  norm(ctx, n) {
    noStrings(n, 'classlabels_strings');
    const [yo, zo] = n.outputs, o = yo, e = emitter(ctx, o);
    const pt = postTransformAttr(n);
    const labels = ints(n, 'classlabels_int64s'), K = labels.length;
    if (K < 2) throw new Unsupported(`classlabels_int64s has ${K} labels (2 or more are supported)`);
    const ens = parseEnsemble(n, 'class');
    const base = floats(n, 'base_values');
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    const leafIdx = walk(ctx, e, o, x, C, ens);
    let { s, has } = aggregate(ctx, e, o, leafIdx, ens, K, 'SUM', false, true);
    const c = (k, v) => ctx.constScalar(`${o}_${k}`, DT.f32, v);
    const lab = (k, v) => ctx.constScalar(`${o}_${k}`, DT.i64, v);
    if (K > 2) {
      if (base.length > K) throw new Unsupported(`base_values has ${base.length} values for ${K} classes`);
      if (base.length) {
        const b = Array.from({ length: K }, (_, k) => base[k] ?? 0);
        s = e('Add', [s, constF(ctx, `${o}_base`, [K], b)]);
        has = e('Or', [has, ctx.constRaw(`${o}_based`, DT.bool, [K], Uint8Array.from(b, (_, k) => (k < base.length ? 1 : 0)))]);
      }
      // the first maximum among the classes a reached leaf (or a base value) carries
      const am = e('ArgMax', [e('Where', [has, s, c('ninf', -Infinity)])], { axis: A.int(1), keepdims: A.int(0), select_last_index: A.int(0) });
      e('Gather', [constI(ctx, `${o}_labels`, [K], labels), am], { axis: A.int(0) }, yo);
      if (zo) postTransform(ctx, s, pt, o, zo);
      return;
    }
    // two classes: onnxruntime's FinalizeScores / _set_score_binary / write_scores, per row
    if (base.length > 2) throw new Unsupported(`base_values has ${base.length} values for 2 classes`);
    const col = (v, k) => e('Slice', [v, constI(ctx, `${o}_s${k}`, [1], [k]), constI(ctx, `${o}_e${k}`, [1], [k + 1]), constI(ctx, `${o}_a${k}`, [1], [1])]);
    const s0 = col(s, 0), s1 = col(s, 1), h0 = col(has, 0), h1 = col(has, 1);
    let p0, p1, h1b;
    if (base.length === 2) {
      const q1 = e('Add', [c('b1', base[1]), s0]);
      p1 = e('Where', [h1, q1, e('Add', [s1, c('b1x', base[1])])]);
      p0 = e('Where', [h1, e('Neg', [q1]), e('Add', [s0, c('b0', base[0])])]);
      h1b = h1;
    } else {
      p0 = base.length === 1 ? e('Add', [s0, c('b0', base[0])]) : s0;
      p1 = s1;
      h1b = h1;
    }
    const pos = e('Where', [h1b, p1, e('Where', [h0, p0, c('zero', 0)])]);
    const classes = new Set(ints(n, 'class_ids'));
    const binaryCase = classes.size === 1;
    if (binaryCase || ens.weights.some((ws, g) => ens.leaf[g] && new Set(ws.map(([k]) => k)).size < 2))
      throw new Unsupported('two classes with a leaf that lacks a weight for either class (the binary case) are not supported (onnxruntime-node 1.30 differs from its documented rule there; not matched yet)');
    const allPos = floats(n, 'class_weights').every((w) => !(w < 0));
    // write_additional_scores for the rows of one score; the label by pos
    const w = binaryCase ? (allPos ? 0 : 2) : base.length === 0 ? 3 : -1;
    const l2 = binaryCase
      ? e('Where', [e('Greater', [pos, c('thr', allPos ? 0.5 : 0)]), lab('l1', labels[1]), lab('l0', labels[0])])
      : e('Where', [e('Greater', [pos, c('thr', 0)]), lab('l1', 1), lab('l0', 0)]);
    ctx.emit('Reshape', [l2, constI(ctx, `${o}_flat`, [1], [-1])], [yo], { allowzero: A.int(0) });
    if (!zo) return;
    // can a row hold one score (class 1 carried by no reached leaf)? Not when some tree carries class 1 at every leaf
    const h1Always = base.length === 2 || ens.roots.some((r, t) => ens.leaf.every((l, g) => !l || ens.tree[g] !== ens.tree[r] || ens.weights[g].some(([k]) => k === 1)));
    const two = postTransform(ctx, e('Concat', [p0, p1], { axis: A.int(1) }), pt, `${o}_two`);
    if (h1Always) return void e('Identity', [two], {}, zo);
    if (pt === 'PROBIT') throw new Unsupported('post_transform PROBIT with rows of one score (class 1 on no reached leaf) is not supported: onnxruntime writes one score of two');
    if (w === -1) throw new Unsupported('one base value without a binary class id: onnxruntime writes one score of two for rows where class 1 is on no reached leaf');
    const one = w <= 1 ? e('Concat', [e('Sub', [c('one', 1), p0]), p0], { axis: A.int(1) })
      : pt === 'LOGISTIC' ? e('Concat', [e('Sigmoid', [e('Neg', [p0])]), e('Sigmoid', [p0])], { axis: A.int(1) })
        : e('Concat', [e('Neg', [p0]), p0], { axis: A.int(1) });
    e('Where', [h1b, two, one], {}, zo);
  },
};

export const ML_TREE_OPS = OPS;
export { parseEnsemble, walk, aggregate, emitter, strs };
