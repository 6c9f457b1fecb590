// The ai.onnx.ml preprocessing and linear ops (compiler/onnx-ops-ml.js)
// against onnxruntime-node: labels exact, scores within 1e-5 * max|ref|.
// Each refusal's message is checked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOAT, INT64, INT32, DOUBLE, F, Fs, Ss } from './onnx-build.mjs';
import { mlModel, agree, refuses, randn, randint, uni } from './ml-helpers.mjs';

const X = (dims, lo = -3, hi = 3, dt = FLOAT) => ({ x: [dt, dims, dt === FLOAT || dt === DOUBLE ? randn(dims.reduce((a, d) => a * d, 1), lo, hi) : Array.from({ length: dims.reduce((a, d) => a * d, 1) }, () => Math.round(uni(lo, hi)))] });

/** One node `op` on input x (dtype xt, dims xs) with outputs `outs` (dtype per output). */
const one = (op, xs, attrs, outs = { y: FLOAT }, xt = FLOAT, extra = () => {}) => mlModel((b) => {
  b.input('x', xt, xs);
  extra(b);
  b.node(op, ['x', ...(attrs.__ins ?? [])], Object.keys(outs), Object.fromEntries(Object.entries(attrs).filter(([k]) => k !== '__ins')));
  for (const [o, t] of Object.entries(outs)) b.output(o, t, null);
});

test('Scaler: offset/scale of 1 or C values, float/double/int64/int32 inputs, 1-D and 2-D', async () => {
  for (const [dims, dt] of [[[5, 4], FLOAT], [[3, 4], DOUBLE], [[4, 4], INT64], [[2, 4], INT32], [[4], FLOAT]]) {
    for (const k of [1, 4]) {
      const m = one('Scaler', dims, { offset: Fs(randn(k)), scale: Fs(randn(k, 0.1, 3)) }, { y: FLOAT }, dt);
      await agree(`Scaler ${dims} dt${dt} k${k}`, m, X(dims, -5, 5, dt), ['y']);
    }
  }
});

test('Normalizer MAX, L1, L2 (zero rows, negative maxima, int input, 1-D)', async () => {
  for (const norm of ['MAX', 'L1', 'L2']) {
    for (const [dims, dt] of [[[6, 5], FLOAT], [[3, 7], INT64], [[4], FLOAT], [[2, 3], DOUBLE]]) {
      const feeds = X(dims, -4, 4, dt);
      if (dims.length === 2 && dt === FLOAT) { for (let j = 0; j < 5; j++) { feeds.x[2][j] = 0; feeds.x[2][5 + j] = -Math.abs(feeds.x[2][5 + j]) - 0.5; } }
      await agree(`Normalizer ${norm} ${dims} dt${dt}`, one('Normalizer', dims, { norm }, { y: FLOAT }, dt), feeds, ['y']);
    }
  }
});

test('Binarizer: threshold, float and int64', async () => {
  for (const t of [0, 0.5, -1.25]) {
    await agree(`Binarizer f32 ${t}`, one('Binarizer', [4, 6], { threshold: F(t) }), X([4, 6]), ['y']);
    await agree(`Binarizer 1-D ${t}`, one('Binarizer', [7], { threshold: F(t) }), X([7]), ['y']);
  }
  await agree('Binarizer default', one('Binarizer', [3, 3], {}), X([3, 3]), ['y']);
});

test('Imputer: NaN and numeric replaced values, one or per-column imputed values, int64', async () => {
  const feeds = X([5, 4], -2, 2);
  feeds.x[2] = feeds.x[2].map((v, i) => (i % 3 === 0 ? NaN : i % 5 === 0 ? 1.5 : v));
  for (const r of [NaN, 1.5, 0])
    for (const k of [1, 4])
      await agree(`Imputer r=${r} k=${k}`, one('Imputer', [5, 4], { imputed_value_floats: Fs(randn(k)), replaced_value_float: F(r) }), feeds, ['y']);
  const fi = X([3, 4], -2, 2, INT64);
  for (const k of [1, 4])
    await agree(`Imputer int64 k=${k}`, one('Imputer', [3, 4], { imputed_value_int64s: Array.from({ length: k }, () => randint(100)), replaced_value_int64: 1 }, { y: INT64 }, INT64), fi, ['y']);
});

test('LinearRegressor: targets 1 and 3, intercepts present or absent, int input', async () => {
  for (const T of [1, 3]) {
    for (const icpt of [true, false]) {
      const a = { coefficients: Fs(randn(T * 5)), targets: T };
      if (icpt) a.intercepts = Fs(randn(T));
      await agree(`LinearRegressor T${T} ${icpt}`, one('LinearRegressor', [7, 5], a), X([7, 5]), ['y']);
    }
  }
  await agree('LinearRegressor 1-D', one('LinearRegressor', [5], { coefficients: Fs(randn(5)), intercepts: Fs([0.5]) }), X([5], -4, 4), ['y']);
});

test('LinearClassifier: multi-class and binary layouts, every post_transform', async () => {
  for (const pt of ['NONE', 'LOGISTIC', 'SOFTMAX', 'SOFTMAX_ZERO', 'PROBIT']) {
    for (const K of [3, 4]) {
      const a = { coefficients: Fs(randn(K * 5)), intercepts: Fs(randn(K)), classlabels_ints: Array.from({ length: K }, (_, i) => 10 + 3 * i), post_transform: pt, multi_class: 0 };
      const feeds = X([9, 5]);
      // PROBIT is defined on (0, 1)
      if (pt === 'PROBIT') feeds.x[2] = feeds.x[2].map((v) => v / 40);
      await agree(`LinearClassifier ${pt} K${K}`, one('LinearClassifier', [9, 5], a, { label: INT64, scores: FLOAT }), feeds, ['label', 'scores']);
    }
    // SOFTMAX_ZERO's zero scores: a zero row of coefficients and a zero intercept
    if (pt === 'SOFTMAX_ZERO') {
      const w = randn(15); for (let j = 5; j < 10; j++) w[j] = 0;
      const a = { coefficients: Fs(w), intercepts: Fs([0.3, 0, -0.2]), classlabels_ints: [0, 1, 2], post_transform: pt };
      await agree('LinearClassifier SOFTMAX_ZERO zeros', one('LinearClassifier', [6, 5], a, { label: INT64, scores: FLOAT }), X([6, 5]), ['label', 'scores']);
    }
    // one score column: two labels (Z [N, 2]) or none (Z [N, 1], labels 0/1)
    if (pt !== 'PROBIT') {
      const a = { coefficients: Fs(randn(5)), intercepts: Fs([0.1]), classlabels_ints: [4, 7], post_transform: pt };
      await agree(`LinearClassifier binary ${pt}`, one('LinearClassifier', [8, 5], a, { label: INT64, scores: FLOAT }), X([8, 5]), ['label', 'scores']);
    }
    const b = { coefficients: Fs(randn(5)), intercepts: Fs([-0.2]), post_transform: pt };
    const feeds = X([8, 5]);
    if (pt === 'PROBIT') feeds.x[2] = feeds.x[2].map((v) => v / 40);
    await agree(`LinearClassifier one column ${pt}`, one('LinearClassifier', [8, 5], b, { label: INT64, scores: FLOAT }), feeds, ['label', 'scores']);
  }
  await agree('LinearClassifier double input', one('LinearClassifier', [4, 3], { coefficients: Fs(randn(6)), intercepts: Fs([0, 1]), classlabels_ints: [1, 2] }, { label: INT64, scores: FLOAT }, DOUBLE), X([4, 3], -3, 3, DOUBLE), ['label', 'scores']);
  await agree('LinearClassifier int64 input', one('LinearClassifier', [4, 3], { coefficients: Fs(randn(9)), intercepts: Fs([0, 1, 2]), classlabels_ints: [1, 2, 3] }, { label: INT64, scores: FLOAT }, INT64), X([4, 3], -3, 3, INT64), ['label', 'scores']);
});

test('ArrayFeatureExtractor, FeatureVectorizer, OneHotEncoder', async () => {
  for (const [dims, idx] of [[[4, 6], [5, 0, 2]], [[6], [1, 1, 4]], [[2, 3, 5], [4, 0]]]) {
    const m = one('ArrayFeatureExtractor', dims, { __ins: ['idx'] }, { y: FLOAT }, FLOAT, (b) => b.init('idx', INT64, [idx.length], idx));
    await agree(`ArrayFeatureExtractor ${dims}`, m, X(dims), ['y']);
  }
  const fv = mlModel((b) => {
    b.input('a', FLOAT, [3, 4]).input('b', FLOAT, [3, 2]).input('c', FLOAT, [3, 5]);
    b.node('FeatureVectorizer', ['a', 'b', 'c'], ['y'], { inputdimensions: [4, 3, 2] });
    b.output('y', FLOAT, null);
  });
  await agree('FeatureVectorizer pad/cut', fv, { a: [FLOAT, [3, 4], randn(12)], b: [FLOAT, [3, 2], randn(6)], c: [FLOAT, [3, 5], randn(15)] }, ['y']);
  const fi = mlModel((b) => {
    b.input('a', INT64, [2, 3]).input('b', INT64, [2, 1]);
    b.node('FeatureVectorizer', ['a', 'b'], ['y'], { inputdimensions: [3, 2] });
    b.output('y', FLOAT, null);
  });
  await agree('FeatureVectorizer int64', fi, { a: [INT64, [2, 3], [1, 2, 3, 4, 5, 6]], b: [INT64, [2, 1], [7, 8]] }, ['y']);
  for (const [xt, zeros] of [[INT64, 1], [INT64, 0], [FLOAT, 1], [DOUBLE, 1]]) {
    const cats = [3, 1, 4, 9, 2];
    const vals = Array.from({ length: 8 }, () => cats[randint(5)]);
    if (zeros) vals[2] = 7;
    const m = one('OneHotEncoder', [2, 4], { cats_int64s: cats, zeros }, { y: FLOAT }, xt);
    await agree(`OneHotEncoder dt${xt} zeros${zeros}`, m, { x: [xt, [2, 4], xt === FLOAT || xt === DOUBLE ? vals.map((v) => v + 0.25) : vals] }, ['y']);
  }
});

test('a pipeline: Imputer -> Scaler -> Normalizer -> LinearClassifier', async () => {
  const m = mlModel((b) => {
    b.input('x', FLOAT, ['N', 4]);
    b.node('Imputer', ['x'], ['i'], { imputed_value_floats: Fs([0.5, -0.5, 1, 2]), replaced_value_float: F(NaN) });
    b.node('Scaler', ['i'], ['s'], { offset: Fs([0.1, 0.2, 0.3, 0.4]), scale: Fs([2, 0.5, 1, 3]) });
    b.node('Normalizer', ['s'], ['n'], { norm: 'L2' });
    b.node('LinearClassifier', ['n'], ['label', 'prob'], { coefficients: Fs(randn(12)), intercepts: Fs(randn(3)), classlabels_ints: [0, 1, 2], post_transform: 'SOFTMAX' });
    b.output('label', INT64, null).output('prob', FLOAT, null);
  });
  const feeds = X([10, 4]);
  feeds.x[2][3] = NaN; feeds.x[2][9] = NaN;
  await agree('pipeline', m, feeds, ['label', 'prob']);
});

test('refusals by name', () => {
  refuses('strings labels', one('LinearClassifier', [2, 3], { coefficients: Fs(randn(6)), intercepts: Fs([0, 1]), classlabels_strings: Ss(['a', 'b']) }, { label: INT64, scores: FLOAT }),
    /unsupported op 'ai\.onnx\.ml\.LinearClassifier' .*classlabels_strings needs string tensors/);
  refuses('OneHotEncoder strings', one('OneHotEncoder', [2, 3], { cats_strings: Ss(['a', 'b']) }), /ai\.onnx\.ml\.OneHotEncoder.*cats_strings needs string tensors/);
  refuses('LinearRegressor transform', one('LinearRegressor', [2, 3], { coefficients: Fs(randn(3)), post_transform: 'LOGISTIC' }), /ai\.onnx\.ml\.LinearRegressor.*post_transform 'LOGISTIC' is not supported \(NONE is\)/);
  refuses('binary PROBIT', one('LinearClassifier', [2, 3], { coefficients: Fs(randn(3)), intercepts: Fs([0]), classlabels_ints: [0, 1], post_transform: 'PROBIT' }, { label: INT64, scores: FLOAT }),
    /post_transform PROBIT with one score column and two class labels is not supported/);
  refuses('Scaler sizes', one('Scaler', [2, 3], { offset: Fs([1, 2]), scale: Fs([1, 2]) }), /scale has 2 values, X has 3 columns/);
  refuses('Normalizer mode', one('Normalizer', [2, 3], { norm: 'L3' }), /norm 'L3' is not one of MAX, L1, L2/);
  refuses('unknown op', one('NotAnMlOp', [2, 3], {}), /unsupported op 'ai\.onnx\.ml\.NotAnMlOp' .*not implemented by hologram-exec \(of ai\.onnx\.ml: /);
  // strings and maps: refused by name with the reason (before their attributes or value types are read)
  refuses('CategoryMapper', one('CategoryMapper', [2, 3], { cats_strings: Ss(['a', 'b']), cats_int64s: [1, 2] }, { y: INT64 }, INT64), /unsupported op 'CategoryMapper' .*maps strings to int64 and int64 to strings: string tensors are not supported \(issue 41\)/);
  refuses('ZipMap', one('ZipMap', [2, 3], { classlabels_int64s: [0, 1, 2] }), /unsupported op 'ZipMap' .*its output is a sequence of maps .*the probabilities tensor ZipMap reads is what to output/);
  refuses('CastMap', one('CastMap', [2, 3], { cast_to: 'TO_FLOAT' }), /unsupported op 'CastMap' .*its input is a map \(map\(int64, string \| float\)\)/);
  refuses('DictVectorizer', one('DictVectorizer', [2, 3], { int64_vocabulary: [1, 2] }), /unsupported op 'DictVectorizer' .*its input is a map/);
  refuses('opset version', mlModel((b) => { b.input('x', FLOAT, [2]); b.node('Binarizer', ['x'], ['y']); b.output('y', FLOAT, null); }, { mlv: 9 }), /'ai\.onnx\.ml' version 9: versions 1\.\.5 are supported/);
  assert.ok(true);
});

test.run();
