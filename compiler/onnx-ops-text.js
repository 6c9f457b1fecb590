// The text ops: TfIdfVectorizer (opset 9) over an integer pool, mapped to the
// backend's op of the same name (kernels-wasm-simd/operators/tfidf.c). The
// attributes pass through as they are; what the kernel would refuse at load
// (a pool_strings vectorizer: no string tensors; a duplicate n-gram, which
// onnxruntime also rejects) is refused here, at conversion, with the reason.
import { A, attr, Unsupported } from './ir.js';

const OPS = Object.create(null);

/** Throws when one gram length of the selected ones lists an n-gram twice. */
function checkPool(pool, counts, minN, maxN) {
  for (let l = 0; l < counts.length; l++) {
    const n = l + 1, b = Number(counts[l]), e = l + 1 < counts.length ? Number(counts[l + 1]) : pool.length;
    if (n < minN || n > maxN || !(e >= b)) continue;
    const seen = new Set();
    for (let o = b; o + n <= e; o += n) {
      const key = pool.slice(o, o + n).map(String).join(',');
      if (seen.has(key)) throw new Unsupported(`TfIdfVectorizer: the pool lists the ${n}-gram [${key}] twice`);
      seen.add(key);
    }
  }
}

OPS.TfIdfVectorizer = {
  attrs: ['max_gram_length', 'max_skip_count', 'min_gram_length', 'mode', 'ngram_counts', 'ngram_indexes', 'pool_int64s', 'pool_strings', 'weights'],
  norm(ctx, n) {
    if (n.attrs.pool_strings !== undefined)
      throw new Unsupported('TfIdfVectorizer: pool_strings needs string tensors, which are not supported (pool_int64s is)');
    const ints = (k) => {
      const v = attr(n, k, null);
      if (!Array.isArray(v)) throw new Unsupported(`TfIdfVectorizer: required attribute '${k}' (ints) is missing`);
      return v;
    };
    const pool = ints('pool_int64s'), counts = ints('ngram_counts'), indexes = ints('ngram_indexes');
    const minN = attr(n, 'min_gram_length', 0), maxN = attr(n, 'max_gram_length', 0);
    checkPool(pool, counts, minN, maxN);
    const a = {
      min_gram_length: A.int(minN), max_gram_length: A.int(maxN), max_skip_count: A.int(attr(n, 'max_skip_count', 0)),
      mode: A.string(attr(n, 'mode', '')), ngram_counts: A.ints(counts), ngram_indexes: A.ints(indexes), pool_int64s: A.ints(pool),
    };
    if (n.attrs.weights !== undefined) a.weights = A.floats(attr(n, 'weights'));
    ctx.emit('TfIdfVectorizer', n.inputs, n.outputs, a);
  },
};

export const TEXT_OPS = OPS;
