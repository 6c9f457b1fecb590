// ai.onnx.ml TreeEnsemble (ai.onnx.ml opset 5, the unified form) LOWERED
// onto the tree walk of compiler/onnx-ops-ml-trees.js (decision 81; 90):
//   Nodes: the interior nodes are nodes_* (nodes_modes a uint8 tensor:
//   0 BRANCH_LEQ, 1 BRANCH_LT, 2 BRANCH_GTE, 3 BRANCH_GT, 4 BRANCH_EQ,
//   5 BRANCH_NEQ, 6 BRANCH_MEMBER; nodes_splits the thresholds), a child
//   either a node (nodes_*leafs 0) or a leaf (1: an index into
//   leaf_targetids / leaf_weights); tree_roots the trees' root nodes.
//   BRANCH_MEMBER: x equals one of its set (membership_values: the sets of
//   the member nodes in node order, each closed by a NaN). A NaN feature
//   goes true where nodes_missing_value_tracks_true is 1. The nodes and the
//   leaves are laid out as one table (the leaves after the nodes, each its
//   own children) and walked as TreeEnsembleRegressor's are.
//   Leaves: one weight for one target each; per target over the trees
//   aggregate_function 0 AVERAGE, 1 SUM, 2 MIN, 3 MAX (over the trees whose
//   leaf carries the target; none: 0); post_transform 0 NONE, 1 LOGISTIC,
//   2 SOFTMAX (onnxruntime 1.30's reading, measured; the ONNX spec has 1
//   SOFTMAX, 2 LOGISTIC), 3 SOFTMAX_ZERO, 4 PROBIT over two or more
//   targets, one target only PROBIT (as TreeEnsembleRegressor; measured).
//   X [N, C] (another rank refused, as onnxruntime does). Y [N, n_targets].
//   BRANCH_MEMBER is x == a member exactly; onnxruntime agrees for integer
//   X and takes integer members only, but for a non-integer X its test is
//   not membership (measured: 1.5 is in {1, 40}, -0.5 in {0, 31}).
//   Refused by name: double splits / weights / membership values, a
//   missing or cyclic node, sizes that do not agree.
import { attr, DT, dtypeName, readElems, Unsupported } from './ir.js';
import { floatInput, ints, scoreTransform, TRANSFORMS } from './onnx-ops-ml.js';
import { walk, aggregate, emitter } from './onnx-ops-ml-trees.js';

const OPS = Object.create(null);
const MODES5 = ['BRANCH_LEQ', 'BRANCH_LT', 'BRANCH_GTE', 'BRANCH_GT', 'BRANCH_EQ', 'BRANCH_NEQ', 'BRANCH_MEMBER'];
const AGGS5 = ['AVERAGE', 'SUM', 'MIN', 'MAX'];
// onnxruntime 1.30 reads post_transform as its own enum: 1 LOGISTIC, 2 SOFTMAX (the ONNX spec and its
// reference say 1 SOFTMAX, 2 LOGISTIC); followed as measured (decision 90)

/** A tensor attribute's elements (numbers), of float32 (or, `int`, an integer dtype); [] when absent. */
function tensorAttr(n, k, { int = false, required = false } = {}) {
  const a = n.attrs[k];
  if (a === undefined) {
    if (required) throw new Unsupported(`${k} is required`);
    return [];
  }
  if (a.type !== 'tensor') throw new Unsupported(`attribute '${k}' is of type ${a.type}, expected a tensor`);
  const { dtype, bytes } = a.value;
  if (!int && dtype !== DT.f32) throw new Unsupported(`${k} of ${dtypeName(dtype)} is not supported (float32 is; double trees are not)`);
  if (int && ![DT.u8, DT.i8, DT.i32, DT.i64, DT.u16, DT.i16, DT.u32].includes(dtype)) throw new Unsupported(`${k} of ${dtypeName(dtype)} is not an integer tensor`);
  return [...readElems(dtype, bytes)].map(Number);
}

/** The v5 ensemble as parseEnsemble's shape: interior nodes 0..I-1, leaves I..I+L-1. */
function parseEnsemble5(n) {
  const feat = ints(n, 'nodes_featureids'), I = feat.length;
  if (!I) throw new Unsupported('the ensemble has no nodes');
  const modeIds = tensorAttr(n, 'nodes_modes', { int: true, required: true }), splits = tensorAttr(n, 'nodes_splits', { required: true });
  const tr = ints(n, 'nodes_truenodeids'), tl = ints(n, 'nodes_trueleafs'), fa = ints(n, 'nodes_falsenodeids'), fl = ints(n, 'nodes_falseleafs');
  const missAttr = ints(n, 'nodes_missing_value_tracks_true');
  for (const [k, v] of [['nodes_modes', modeIds], ['nodes_splits', splits], ['nodes_truenodeids', tr], ['nodes_trueleafs', tl], ['nodes_falsenodeids', fa], ['nodes_falseleafs', fl]])
    if (v.length !== I) throw new Unsupported(`${k} has ${v.length} values, nodes_featureids ${I}`);
  if (missAttr.length && missAttr.length !== I) throw new Unsupported(`nodes_missing_value_tracks_true has ${missAttr.length} values, nodes_featureids ${I}`);
  const targets = ints(n, 'leaf_targetids'), lw = tensorAttr(n, 'leaf_weights', { required: true }), L = targets.length;
  if (lw.length !== L) throw new Unsupported(`leaf_weights has ${lw.length} values, leaf_targetids ${L}`);
  const roots = ints(n, 'tree_roots');
  if (!roots.length) throw new Unsupported('tree_roots is empty');
  const G = I + L;
  const modes = [...modeIds.map((m) => {
    if (!(m >= 0 && m < MODES5.length)) throw new Unsupported(`node mode ${m} is not one of 0..6 (${MODES5.join(', ')})`);
    return MODES5[m];
  }), ...Array(L).fill('LEAF')];
  const child = (j, id, isLeaf, what) => {
    if (isLeaf) {
      if (!(id >= 0 && id < L)) throw new Unsupported(`node ${j}: its ${what} leaf ${id} does not exist (${L} leaves)`);
      return I + id;
    }
    if (!(id >= 0 && id < I)) throw new Unsupported(`node ${j}: its ${what} node ${id} does not exist (${I} nodes)`);
    if (id === j) throw new Unsupported(`node ${j} is its own ${what} node`);
    return id;
  };
  const tg = [], fg = [];
  for (let j = 0; j < I; j++) { tg.push(child(j, tr[j], tl[j] === 1, 'true')); fg.push(child(j, fa[j], fl[j] === 1, 'false')); }
  for (let l = 0; l < L; l++) { tg.push(I + l); fg.push(I + l); }
  for (const r of roots) if (!(r >= 0 && r < I)) throw new Unsupported(`tree root ${r} is not a node (${I} nodes)`);
  // depth (edges from a root to its deepest leaf); a cycle refused
  let depth = 0;
  for (const r of roots) {
    const stack = [[r, 0]];
    while (stack.length) {
      const [g, d] = stack.pop();
      if (d > I) throw new Unsupported(`the tree at root ${r} has a cycle`);
      if (g >= I) { depth = Math.max(depth, d); continue; }
      stack.push([tg[g], d + 1], [fg[g], d + 1]);
    }
  }
  // the member sets, in node order, each closed by a NaN
  const mv = tensorAttr(n, 'membership_values');
  const memberNodes = modes.map((m, g) => (m === 'BRANCH_MEMBER' ? g : -1)).filter((g) => g >= 0);
  const sets = [];
  let cur = [];
  for (const v of mv) {
    if (Number.isNaN(v)) { sets.push(cur); cur = []; } else cur.push(v);
  }
  if (cur.length) throw new Unsupported('membership_values does not end with a NaN');
  if (sets.length !== memberNodes.length) throw new Unsupported(`membership_values holds ${sets.length} sets for ${memberNodes.length} BRANCH_MEMBER nodes`);
  const members = new Map(memberNodes.map((g, i) => [g, sets[i]]));
  const weights = Array.from({ length: G }, (_, g) => (g < I ? [] : [[targets[g - I], lw[g - I]]]));
  return {
    G, roots, depth, modes, tg, fg, weights, members, tree: null,
    feat: [...feat, ...Array(L).fill(0)], vals: [...splits.map((v, j) => (modes[j] === 'BRANCH_MEMBER' ? 0 : v)), ...Array(L).fill(0)],
    leaf: modes.map((m) => m === 'LEAF'), miss: modes.map((m, g) => g < I && missAttr[g] === 1),
    usedModes: [...new Set(modes.filter((m) => m !== 'LEAF'))],
  };
}

OPS.TreeEnsemble = {
  attrs: ['aggregate_function', 'leaf_targetids', 'leaf_weights', 'membership_values', 'n_targets', 'nodes_falseleafs', 'nodes_falsenodeids', 'nodes_featureids', 'nodes_hitrates',
    'nodes_missing_value_tracks_true', 'nodes_modes', 'nodes_splits', 'nodes_trueleafs', 'nodes_truenodeids', 'post_transform', 'tree_roots'],
  norm(ctx, n) {
    const o = n.outputs[0], e = emitter(ctx, o);
    const aggId = attr(n, 'aggregate_function', 1), ptId = attr(n, 'post_transform', 0);
    const agg = AGGS5[aggId], pt = TRANSFORMS[ptId];
    if (agg === undefined) throw new Unsupported(`aggregate_function ${aggId} is not one of 0..3 (${AGGS5.join(', ')})`);
    if (pt === undefined) throw new Unsupported(`post_transform ${ptId} is not one of 0..4 (${TRANSFORMS.join(', ')})`);
    const K = attr(n, 'n_targets', 0);
    if (!(K > 0)) throw new Unsupported('n_targets must be positive');
    const ens = parseEnsemble5(n);
    const xs = ctx.shape(n.inputs[0]);
    if (!xs || xs.length !== 2) throw new Unsupported(`X must be of a known rank 2 (got ${xs ? xs.length : 'unknown'}; onnxruntime refuses another rank)`);
    const { x, C } = floatInput(ctx, n.inputs[0], o);
    const leafIdx = walk(ctx, e, o, x, C, ens);
    let { s } = aggregate(ctx, e, o, leafIdx, ens, K, agg, false, false);
    if (agg === 'AVERAGE') s = e('Div', [s, ctx.constScalar(`${o}_nt`, DT.f32, ens.roots.length)]);
    scoreTransform(ctx, s, K, pt, o, o);
  },
};

export const ML_TREE5_OPS = OPS;
