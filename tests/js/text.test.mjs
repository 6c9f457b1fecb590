// TfIdfVectorizer (kernels-wasm-simd/operators/tfidf.c) against
// onnxruntime-node: i32 and i64 input, [C] and [N, C], gram lengths 1..3,
// skip counts 0..4, modes TF / IDF / TFIDF with and without weights,
// permuted ngram_indexes (weights are per pool n-gram), two n-grams on one
// output, an empty level, rows of length 0; the refused forms with their messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, INT32, Fs, Ss } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
let seed = 777;
const rnd = (n) => ((seed = (seed * 1664525 + 1013904223) >>> 0) >>> 16) % n; // high bits: an LCG's low bits cycle short

function model(dt, xs, attrs) {
  const b = new OnnxBuilder(9);
  b.input('x', dt, xs);
  b.node('TfIdfVectorizer', ['x'], ['y'], attrs);
  return b.output('y', FLOAT, null).bytes();
}

function holo(bytes, dt, x, xs) {
  const h = rt.load(convert(bytes).holo);
  try {
    return h.run({ x: { data: dt === INT64 ? BigInt64Array.from(x, BigInt) : Int32Array.from(x), shape: xs } }).y;
  } finally {
    h.dispose();
  }
}

async function agree(what, dt, xs, x, attrs) {
  const bytes = model(dt, xs, attrs);
  const t = dt === INT64 ? new ort.Tensor('int64', BigInt64Array.from(x, BigInt), xs) : new ort.Tensor('int32', Int32Array.from(x), xs);
  const want = (await (await ort.InferenceSession.create(bytes)).run({ x: t })).y;
  const got = holo(bytes, dt, x, xs);
  assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
  assert.equal([...got.data], [...want.data], `${what}: values`);
}

/** A pool of `per[l]` distinct (l+1)-grams over values 0..v-1, levels in order. */
function pool(per, v) {
  const out = [], counts = [];
  per.forEach((k, l) => {
    counts.push(out.length);
    const seen = new Set();
    while (seen.size < k) {
      const g = Array.from({ length: l + 1 }, () => rnd(v));
      if (seen.has(g.join())) continue;
      seen.add(g.join());
      out.push(...g);
    }
  });
  return { pool: out, counts };
}

test('TfIdfVectorizer agrees with onnxruntime-node', async () => {
  let cases = 0;
  for (const dt of [INT32, INT64])
    for (const xs of [[13], [3, 9], [2, 1]])
      for (const [minN, maxN] of [[1, 1], [1, 2], [2, 2], [2, 3], [1, 3]])
        for (const skip of [0, 1, 4])
          for (const mode of ['TF', 'IDF', 'TFIDF']) {
            const per = [4, 5, 3].slice(0, Math.max(maxN, 2));
            const { pool: p, counts } = pool(per, 4);
            const total = per.reduce((a, b) => a + b, 0);
            // a permutation of 0..total-1, sometimes with gaps (outputs no n-gram maps to)
            const idx = Array.from({ length: total }, (_, i) => i * (cases % 2 ? 1 : 2));
            for (let i = total - 1; i > 0; i--) { const j = rnd(i + 1); [idx[i], idx[j]] = [idx[j], idx[i]]; }
            const attrs = { min_gram_length: minN, max_gram_length: maxN, max_skip_count: skip, mode, ngram_counts: counts, ngram_indexes: idx, pool_int64s: p };
            if (cases % 3) attrs.weights = Fs(Array.from({ length: total }, (_, i) => 0.1 + i * 0.7));
            const x = Array.from({ length: xs.reduce((a, b) => a * b, 1) }, () => rnd(5));
            await agree(`${dt === INT32 ? 'i32' : 'i64'} ${xs} n=${minN}..${maxN} skip=${skip} ${mode} w=${!!attrs.weights}`, dt, xs, x, attrs);
            cases++;
          }
  assert.ok(cases === 270);
});

test('TfIdfVectorizer: two n-grams on one output index, weights summed in walk order', async () => {
  for (const mode of ['TF', 'IDF', 'TFIDF'])
    await agree(`shared output ${mode}`, INT64, [2, 7], [1, 2, 1, 3, 1, 2, 2, 3, 3, 1, 2, 1, 1, 1], {
      min_gram_length: 1, max_gram_length: 2, max_skip_count: 2, mode, ngram_counts: [0, 3], ngram_indexes: [0, 1, 0, 1, 2], pool_int64s: [1, 2, 3, 1, 2, 2, 1], weights: Fs([0.1, 0.2, 0.3, 0.7, 1.1]),
    });
});

test('TfIdfVectorizer: an empty level, a row of length 0', async () => {
  const attrs = { min_gram_length: 1, max_gram_length: 2, max_skip_count: 1, mode: 'TF', ngram_counts: [0, 0], ngram_indexes: [0, 1], pool_int64s: [1, 2, 2, 1] };
  await agree('empty unigram level', INT64, [8], [1, 2, 1, 2, 2, 1, 0, 1], attrs);
  const got = holo(model(INT64, [3, 0], attrs), INT64, [], [3, 0]);
  assert.equal([...got.shape], [3, 2]);
  assert.equal([...got.data], [0, 0, 0, 0, 0, 0]);
});

test('TfIdfVectorizer refusals say why', () => {
  const base = { min_gram_length: 1, max_gram_length: 2, max_skip_count: 0, mode: 'TF', ngram_counts: [0, 2], ngram_indexes: [0, 1, 2], pool_int64s: [1, 2, 3, 4] };
  const refuse = (attrs, re) => assert.throws(() => convert(model(INT64, [4], attrs)), re);
  const { pool_int64s: _p, ...noPool } = base;
  refuse({ ...noPool, pool_strings: Ss(['a', 'b', 'c']) }, /pool_strings needs string tensors/);
  refuse({ ...base, pool_int64s: [1, 1, 3, 4] }, /lists the 1-gram \[1\] twice/);
  // what only the kernel checks: ngram_indexes shorter than the pool's n-grams, a bad mode
  for (const [attrs, re] of [[{ ...base, ngram_indexes: [0, 1] }, /the pool holds 3 n-grams but ngram_indexes has 2/], [{ ...base, mode: 'BM25' }, /mode must be TF, IDF or TFIDF/]]) {
    let msg = '';
    try {
      const h = rt.load(convert(model(INT64, [4], attrs)).holo);
      h.run({ x: { data: BigInt64Array.of(1n, 2n, 3n, 4n), shape: [4] } });
      h.dispose();
    } catch (e) {
      msg = e.message;
    }
    assert.match(msg, re);
  }
});

test.run();
