// Einsum and LpNormalization (compiler/onnx-ops-einsum.js: lowered onto
// Transpose/Reshape/ReduceSum/MatMul and ReduceMax/ReduceL1/L2/Where/Div)
// against onnxruntime-node: the equations exporters write (attention's
// bhqd,bhkd->bhqk, bilinear forms, outer products, ellipsis, implicit output,
// three operands, reductions, diagonals, f64), LpNormalization's axes and p, zero vectors,
// huge values, Inf and NaN; and the refusals, with their messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, rand } from './onnx-build.mjs';

const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(op, shapes, attrs) {
  const b = new OnnxBuilder(13);
  const names = shapes.map((_, k) => `x${k}`);
  shapes.forEach((s, k) => b.input(names[k], FLOAT, s));
  b.node(op, names, ['y'], attrs);
  b.output('y', FLOAT, null);
  return b.bytes();
}

// relative to the output's largest magnitude, the zoo's criterion; NaN must match NaN
function agreeValues(got, want, what) {
  let m = 0;
  for (const v of want) if (Number.isFinite(v)) m = Math.max(m, Math.abs(v));
  for (let i = 0; i < want.length; i++) {
    const a = got[i], b = want[i];
    if (Number.isNaN(b) || !Number.isFinite(b)) { assert.ok(Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)), `${what}: [${i}] ${a} vs ${b}`); continue; }
    assert.ok(Math.abs(a - b) <= 2e-6 * m + 1e-30, `${what}: [${i}] ${a} vs ${b}`);
  }
}

async function agree(op, shapes, attrs, inputs) {
  const bytes = model(op, shapes, attrs);
  const xs = inputs ?? shapes.map((s) => rand(numel(s)));
  const s = await ort.InferenceSession.create(bytes);
  const feeds = Object.fromEntries(xs.map((x, k) => [`x${k}`, new ort.Tensor('float32', x, shapes[k])]));
  const want = (await s.run(feeds)).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run(Object.fromEntries(xs.map((x, k) => [`x${k}`, { data: x, shape: shapes[k] }]))).y;
    const what = `${op} ${JSON.stringify(attrs)} ${JSON.stringify(shapes)}`;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    agreeValues(got.data, want.data, what);
  } finally {
    h.dispose();
  }
}

test('Einsum: attention, bilinear, outer and inner products, batched matmul', async () => {
  await agree('Einsum', [[2, 3, 5, 4], [2, 3, 6, 4]], { equation: 'bhqd,bhkd->bhqk' });
  await agree('Einsum', [[2, 3, 5, 6], [2, 3, 6, 4]], { equation: 'bhqk,bhkd->bhqd' });
  await agree('Einsum', [[3, 4], [4, 5, 6], [3, 6]], { equation: 'bi,ijk,bk->bj' });
  await agree('Einsum', [[7], [5]], { equation: 'i,j->ij' });
  await agree('Einsum', [[7], [7]], { equation: 'i,i->' });
  await agree('Einsum', [[4, 3, 5], [4, 5, 2]], { equation: 'bij,bjk->bik' });
  await agree('Einsum', [[4, 3, 5], [5, 2]], { equation: 'bij,jk->bki' });
});

test('Einsum: one operand (transpose, sums), implicit output, ellipsis, summed-only indices', async () => {
  await agree('Einsum', [[3, 4, 5]], { equation: 'ijk->kji' });
  await agree('Einsum', [[3, 4, 5]], { equation: 'ijk->j' });
  await agree('Einsum', [[3, 4, 5]], { equation: 'ijk->' });
  await agree('Einsum', [[3, 4], [4, 5]], { equation: 'ij,jk' });
  await agree('Einsum', [[3, 4]], { equation: 'ji' });
  await agree('Einsum', [[2, 3, 4, 5], [2, 3, 5, 6]], { equation: '...ij,...jk->...ik' });
  await agree('Einsum', [[2, 3, 4, 5], [5, 6]], { equation: '...j,jk->...k' });
  await agree('Einsum', [[3, 4, 6], [4, 5]], { equation: 'aib,ic->ac' });
});

test('Einsum: diagonals (a letter twice in one term), traces, a diagonal meeting a contraction', async () => {
  await agree('Einsum', [[3, 3]], { equation: 'ii->i' });
  await agree('Einsum', [[4, 4]], { equation: 'ii' });
  await agree('Einsum', [[4, 2, 4]], { equation: 'iAi->Ai' });
  await agree('Einsum', [[3, 5, 5]], { equation: 'bii->b' });
  await agree('Einsum', [[2, 3, 2, 3]], { equation: 'ijij->ji' });
  await agree('Einsum', [[4, 3, 4], [4, 5]], { equation: 'iji,ik->jk' });
});

test('Einsum of f64 (no f64 GEMM: a Mul and a ReduceSum per pair)', async () => {
  const b = new OnnxBuilder(13);
  b.input('a', 11, [2, 3, 4]).input('c', 11, [2, 4, 5]).node('Einsum', ['a', 'c'], ['y'], { equation: 'bij,bjk->bik' }).output('y', 11, null);
  const a = Float64Array.from(rand(24)), c = Float64Array.from(rand(40));
  const s = await ort.InferenceSession.create(b.bytes());
  const want = (await s.run({ a: new ort.Tensor('float64', a, [2, 3, 4]), c: new ort.Tensor('float64', c, [2, 4, 5]) })).y;
  const h = rt.load(convert(b.bytes()).holo);
  try {
    const got = h.run({ a: { data: a, shape: [2, 3, 4] }, c: { data: c, shape: [2, 4, 5] } }).y;
    assert.equal(got.dtype, 'float64');
    assert.equal([...got.shape], [2, 3, 5]);
    agreeValues(got.data, want.data, 'f64 bij,bjk->bik');
  } finally {
    h.dispose();
  }
});

test('MeanVarianceNormalization: default axes [0, 2, 3], axes [1], axes [2, 3]', async () => {
  await agree('MeanVarianceNormalization', [[2, 3, 4, 5]], {});
  await agree('MeanVarianceNormalization', [[2, 3, 4, 5]], { axes: [1] });
  await agree('MeanVarianceNormalization', [[2, 3, 4]], { axes: [2] });
});

test('LpNormalization: p 1 and 2, every axis', async () => {
  for (const p of [1, 2]) for (const axis of [-1, 0, 1, 2]) await agree('LpNormalization', [[3, 4, 5]], { axis, p });
});

// onnxruntime 1.30 (the devDependency) forms the norm unscaled, so 3e30 gives
// 0 there and a zero vector 0/0; its current source scales first and writes
// zeros (docs/converter.md): these rows are checked against that rule in f64.
test('LpNormalization: zero vectors, huge and tiny values, Inf and NaN', () => {
  const rows = [[0, 0, 0, 0], [3e30, -4e30, 1, 2], [1, Infinity, 2, 3], [NaN, 0, 0, 0], [1e-30, 2e-30, 0, 0]];
  const h = rt.load(convert(model('LpNormalization', [[5, 4]], { axis: 1, p: 2 })).holo);
  const h1 = rt.load(convert(model('LpNormalization', [[5, 4]], { axis: 1, p: 1 })).holo);
  try {
    for (const [p, s] of [[2, h], [1, h1]]) {
      const got = s.run({ x0: { data: Float32Array.from(rows.flat()), shape: [5, 4] } }).y.data;
      const want = rows.flatMap((r) => {
        const f = r.map(Math.fround), sc = Math.max(...f.map(Math.abs));
        if (sc === 0) return f.map(() => 0);
        const v = Number.isFinite(sc) ? f.map((x) => x / sc) : f;
        const n = p === 1 ? v.reduce((a, x) => a + Math.abs(x), 0) : Math.sqrt(v.reduce((a, x) => a + x * x, 0));
        return v.map((x) => x / n);
      });
      agreeValues(got, want, `p=${p} special rows`);
    }
  } finally {
    h.dispose();
    h1.dispose();
  }
});

test('refusals with a message: broadcasting, unknown dims, p other than 1 or 2', async () => {
  const refuse = (op, shapes, attrs, re) => assert.throws(() => convert(model(op, shapes, attrs)), re);
  refuse('Einsum', [[3, 4], [1, 4]], { equation: 'ij,ij->ij' }, /broadcasting is not supported/);
  refuse('Einsum', [[3, 4]], { equation: 'ijk->i' }, /has 3 letters but input 0 has rank 2/);
  refuse('Einsum', [[3, 4]], { equation: 'ij->ik' }, /output index 'k' appears in no operand/);
  refuse('Einsum', [[3, 4], [4, 2]], { equation: 'ij->ij' }, /1 operand terms but the node has 2 inputs/);
  refuse('Einsum', [['n', 4], [4, 2]], { equation: 'ij,jk->ik' }, /not known at convert time/);
  refuse('LpNormalization', [[3, 4]], { p: 3 }, /p must be 1 or 2/);
});

test.run();
