// ai.onnx.ml TreeEnsemble (ai.onnx.ml opset 5; compiler/onnx-ops-ml-tree5.js)
// against onnxruntime-node 1.30, which runs it: random ensembles of every
// node mode (BRANCH_MEMBER with membership_values included), missing values
// tracked true or not, 1 to 4 targets, every aggregate_function and
// post_transform. X on a grid (so EQ / NEQ / MEMBER and the thresholds are
// hit; integers where BRANCH_MEMBER is used) with NaNs. Scores within 1e-5
// of max|ref|.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOAT, DOUBLE, T } from './onnx-build.mjs';
import { mlModel, agree, refuses, uni, randint } from './ml-helpers.mjs';

// fractional values, and integers for BRANCH_MEMBER: onnxruntime takes integer members only, and for a
// non-integer X its member test is not x in the set (measured; decision 90)
let integers = false;
const grid = () => (integers ? randint(9) - 2 : randint(9) / 4 - 1);

/** A random v5 ensemble: nTrees trees of depth <= D over C features, modes from `modes`, K targets. */
function ensemble({ nTrees, D, C, K, modes, agg = 1, pt = 0, missing = true }) {
  const a = { feat: [], mode: [], split: [], tn: [], tl: [], fn: [], fl: [], miss: [], members: [], tgt: [], w: [] };
  const leaf = () => { a.tgt.push(randint(K)); a.w.push(uni(-2, 2)); return a.tgt.length - 1; };
  const node = (d) => {
    const j = a.feat.length;
    const m = modes[randint(modes.length)];
    a.feat.push(randint(C)); a.mode.push(m); a.split.push(m === 6 ? 0 : grid() + (integers && randint(2) ? 0.5 : 0)); a.miss.push(missing ? randint(2) : 0);
    a.tn.push(0); a.tl.push(0); a.fn.push(0); a.fl.push(0);
    if (m === 6) a.members.push(...new Set(Array.from({ length: 1 + randint(3) }, grid)), NaN);
    for (const [id, lf] of [['tn', 'tl'], ['fn', 'fl']]) {
      if (d + 1 >= D || (d > 0 && randint(3) === 0)) { a[lf][j] = 1; a[id][j] = leaf(); } else { a[lf][j] = 0; a[id][j] = node(d + 1); }
    }
    return j;
  };
  const roots = Array.from({ length: nTrees }, () => node(0));
  const attrs = {
    n_targets: K, aggregate_function: agg, post_transform: pt, tree_roots: roots,
    nodes_modes: T(2, [a.mode.length], a.mode), nodes_featureids: a.feat, nodes_splits: T(FLOAT, [a.split.length], a.split),
    nodes_truenodeids: a.tn, nodes_trueleafs: a.tl, nodes_falsenodeids: a.fn, nodes_falseleafs: a.fl,
    nodes_missing_value_tracks_true: a.miss, leaf_targetids: a.tgt, leaf_weights: T(FLOAT, [a.w.length], a.w),
  };
  if (a.members.length) attrs.membership_values = T(FLOAT, [a.members.length], a.members);
  return attrs;
}

const model = (attrs, C, dt = FLOAT) => mlModel((b) => {
  b.input('x', dt, ['N', C]);
  b.node('TreeEnsemble', ['x'], ['y'], attrs);
  b.output('y', FLOAT, null);
}, { mlv: 5 });
const xs = (N, C) => ({ x: [FLOAT, [N, C], Array.from({ length: N * C }, () => (randint(12) === 0 ? NaN : grid()))] });

test('TreeEnsemble (opset 5): every node mode, missing values, 1 to 4 targets, every aggregate_function, vs onnxruntime-node', async () => {
  let cases = 0;
  for (const modes of [[0], [1], [2], [3], [4], [5], [6], [0, 1, 2, 3, 4, 5, 6]]) {
    for (const K of [1, 2, 4]) {
      for (const agg of [0, 1, 2, 3]) {
        const C = 4;
        integers = modes.includes(6);
        await agree(`modes ${modes} K${K} agg${agg}`, model(ensemble({ nTrees: 1 + randint(5), D: 1 + randint(5), C, K, modes, agg }), C), xs(50, C), ['y']);
        cases++;
      }
    }
  }
  assert.ok(cases === 96, `${cases}`);
});

test('TreeEnsemble (opset 5): post_transform 0-4 as onnxruntime reads them (1 LOGISTIC, 2 SOFTMAX: the spec swaps them), one target PROBIT only', async () => {
  integers = true;
  for (const pt of [0, 1, 2, 3, 4]) {
    for (const K of [1, 3]) {
      const C = 3;
      // PROBIT of weights in (0, 1): the sum's rounding moves onnxruntime's ErfInv by 1e-4 per ulp near 0.5 (decision 88)
      const attrs = ensemble({ nTrees: 3, D: 3, C, K, modes: [0, 3, 6], agg: pt === 4 ? 0 : 1, pt });
      if (pt === 4) attrs.leaf_weights = T(FLOAT, [attrs.leaf_targetids.length], attrs.leaf_targetids.map(() => randint(7) / 8 + 0.0625));
      await agree(`pt${pt} K${K}`, model(attrs, C), xs(40, C), ['y']);
    }
  }
});

test('TreeEnsemble (opset 5): a single-leaf tree, a deep tree', async () => {
  integers = true;
  const one = { n_targets: 2, tree_roots: [0, 1], nodes_modes: T(2, [2], [0, 0]), nodes_featureids: [0, 1], nodes_splits: T(FLOAT, [2], [0, 0.5]),
    nodes_truenodeids: [0, 1], nodes_trueleafs: [1, 1], nodes_falsenodeids: [0, 2], nodes_falseleafs: [1, 1], leaf_targetids: [1, 0, 1], leaf_weights: T(FLOAT, [3], [3, -1, 2]) };
  await agree('single leaf', model(one, 2), xs(20, 2), ['y']);
  await agree('deep', model(ensemble({ nTrees: 2, D: 12, C: 5, K: 2, modes: [0, 1, 2, 3, 4, 5, 6] }), 5), xs(60, 5), ['y']);

});

test('TreeEnsemble (opset 5) refusals by name', () => {
  const a = ensemble({ nTrees: 1, D: 2, C: 2, K: 1, modes: [0] });
  refuses('double splits', model({ ...a, nodes_splits: T(DOUBLE, [a.nodes_featureids.length], a.nodes_featureids.map(() => 0.5)) }, 2), /ai\.onnx\.ml\.TreeEnsemble.*nodes_splits of float64 is not supported/);
  refuses('mode', model({ ...a, nodes_modes: T(2, [a.nodes_featureids.length], a.nodes_featureids.map(() => 9)) }, 2), /node mode 9 is not one of 0\.\.6/);
  refuses('members', model({ ...a, nodes_modes: T(2, [a.nodes_featureids.length], a.nodes_featureids.map(() => 6)) }, 2), /membership_values holds 0 sets for \d+ BRANCH_MEMBER nodes/);
  refuses('aggregate', model({ ...a, aggregate_function: 7 }, 2), /aggregate_function 7 is not one of 0\.\.3/);
  const m1 = mlModel((b) => { b.input('x', FLOAT, [2]); b.node('TreeEnsemble', ['x'], ['y'], a); b.output('y', FLOAT, null); }, { mlv: 5 });
  refuses('1-D X', m1, /TreeEnsemble.*X must be of a known rank 2 \(got 1/);
});

test.run();
