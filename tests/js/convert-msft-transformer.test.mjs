// The com.microsoft transformer contrib ops (compiler/onnx-ops-msft-transformer.js)
// against onnxruntime-node: every output within 1e-5 * max|ref| of
// onnxruntime's. The reference is onnxruntime's own contrib kernel where its
// CPU provider has one, else (BiasAdd, BiasSplitGelu: CUDA only there; the
// com.microsoft LayerNormalization / SimplifiedLayerNormalization, which
// onnxruntime registers in the default domain) onnxruntime running the
// op's float twin / default-domain op. Each refusal's message is checked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, DOUBLE, F, rand, msftDomain as msft } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);
const TOL = 1e-5;

/** A model of one input x (shape xs) and outputs `outs`, built by `build`, its `ops` in com.microsoft. */
function model(xs, outs, build, ops, opset = 17, xt = FLOAT) {
  const b = new OnnxBuilder(opset);
  if (xs) b.input('x', xt, xs);
  build(b);
  for (const o of outs) b.output(o, FLOAT, null);
  return msft(b, ops);
}

/** Runs `bytes` in hologram and `ref` (default: bytes) in onnxruntime on one random x; compares `outs`. */
async function agree(what, xs, outs, bytes, ref = bytes, scale = 3) {
  const x = rand(numel(xs)).map((v) => v * scale);
  const want = await (await ort.InferenceSession.create(ref)).run({ x: new ort.Tensor('float32', x, xs) });
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run({ x: { data: x, shape: xs } });
    for (const o of outs) {
      const g = got[o], w = want[o];
      assert.ok(g, `${what}: output ${o} missing`);
      assert.equal([...g.shape], [...w.dims].map(Number), `${what}: ${o} shape`);
      const max = Math.max(1e-30, ...[...w.data].map(Math.abs));
      const worst = Math.max(0, ...[...g.data].map((v, i) => Math.abs(v - w.data[i])));
      assert.ok(worst / max <= TOL, `${what}: ${o} max |diff| / max |ref| = ${worst / max}`);
    }
  } finally {
    h.dispose();
  }
}

const refuses = (what, bytes, re) => assert.throws(() => convert(bytes), re, what);

test('Gelu, FastGelu (bias or none), BiasGelu, QuickGelu (alpha) agree with onnxruntime\'s kernels', async () => {
  for (const xs of [[3, 7], [2, 5, 16], [1, 2, 3, 64]]) {
    const H = xs[xs.length - 1];
    const one = (op, ins, attrs = {}) => model(xs, ['y'], (b) => {
      b.init('bias', FLOAT, [H], rand(H));
      b.node(op, ins, ['y'], attrs);
    }, [op]);
    await agree(`Gelu ${xs}`, xs, ['y'], one('Gelu', ['x']));
    await agree(`FastGelu ${xs}`, xs, ['y'], one('FastGelu', ['x']));
    await agree(`FastGelu+bias ${xs}`, xs, ['y'], one('FastGelu', ['x', 'bias']));
    await agree(`BiasGelu ${xs}`, xs, ['y'], one('BiasGelu', ['x', 'bias']));
    await agree(`QuickGelu ${xs}`, xs, ['y'], one('QuickGelu', ['x']));
    for (const alpha of [1, 2.5, -0.75]) await agree(`QuickGelu alpha=${alpha} ${xs}`, xs, ['y'], one('QuickGelu', ['x'], { alpha: F(alpha) }));
  }
});

test('BiasAdd and BiasSplitGelu agree with onnxruntime running their float twins', async () => {
  for (const xs of [[2, 3, 8], [1, 5, 32], [3, 1, 6]]) {
    const C = xs[2], bias = rand(C), skip = rand(numel(xs));
    const add = (ops) => (b) => {
      b.init('bias', FLOAT, [C], bias).init('skip', FLOAT, xs, skip);
      if (ops.length) b.node('BiasAdd', ['x', 'bias', 'skip'], ['y']);
      else b.node('Add', ['x', 'bias'], ['v']).node('Add', ['v', 'skip'], ['y']);
    };
    await agree(`BiasAdd ${xs}`, xs, ['y'], model(xs, ['y'], add(['BiasAdd']), ['BiasAdd']), model(xs, ['y'], add([]), []));
    const split = (fused) => (b) => {
      b.init('bias', FLOAT, [C], bias);
      if (fused) return b.node('BiasSplitGelu', ['x', 'bias'], ['y']);
      b.init('half', INT64, [2], [C / 2, C / 2]).init('r2', FLOAT, [], [Math.SQRT2]).init('one', FLOAT, [], [1]).init('h', FLOAT, [], [0.5]);
      b.node('Add', ['x', 'bias'], ['v']).node('Split', ['v', 'half'], ['l', 'r'], { axis: 2 });
      b.node('Div', ['r', 'r2'], ['d']).node('Erf', ['d'], ['e']).node('Add', ['e', 'one'], ['e1']).node('Mul', ['r', 'e1'], ['g0']).node('Mul', ['g0', 'h'], ['g']);
      b.node('Mul', ['l', 'g'], ['y']);
    };
    await agree(`BiasSplitGelu ${xs}`, xs, ['y'], model(xs, ['y'], split(true), ['BiasSplitGelu']), model(xs, ['y'], split(false), []));
  }
});

test('the Gelu family refuses other dtypes and ill-shaped biases by name', () => {
  const dbl = (op, ins) => model([2, 4], ['y'], (b) => b.node(op, ins, ['y']), [op], 17, DOUBLE);
  refuses('Gelu f64', dbl('Gelu', ['x']), /X of float64 is not supported \(float32 only\)/);
  refuses('QuickGelu f64', dbl('QuickGelu', ['x']), /X of float64 is not supported/);
  refuses('FastGelu f64', dbl('FastGelu', ['x']), /the input of float64 is not supported/);
  const bad = (op, ins, bs, xs = [2, 4]) => model(xs, ['y'], (b) => b.init('bias', FLOAT, bs, rand(numel(bs))).init('skip', FLOAT, xs, rand(numel(xs))).node(op, ins, ['y']), [op]);
  refuses('FastGelu bias size', bad('FastGelu', ['x', 'bias'], [3]), /bias has 3 elements, the input's last dim is 4/);
  refuses('BiasGelu bias 2-D', bad('BiasGelu', ['x', 'bias'], [1, 4]), /bias must be 1-D/);
  refuses('BiasGelu no bias', model([2, 4], ['y'], (b) => b.node('BiasGelu', ['x'], ['y']), ['BiasGelu']), /bias \(input 1\) is required/);
  refuses('BiasAdd 2-D', bad('BiasAdd', ['x', 'bias', 'skip'], [4]), /X must be 3-D \[N, S, C\]/);
  refuses('BiasSplitGelu odd', bad('BiasSplitGelu', ['x', 'bias'], [5], [1, 2, 5]), /the last dim must be known and even \(got 5\)/);
});

// s = x + skip (+ bias); gamma, beta, bias random; epsilon large enough that dropping it fails the bar
test('SkipLayerNormalization: beta and bias present or absent, 2-D and 3-D, skip broadcast, all four outputs vs onnxruntime', async () => {
  const cases = [
    { xs: [2, 4, 8], ss: [2, 4, 8], beta: true, bias: true, outs: ['y', 'mean', 'iv', 'sum'] },
    { xs: [2, 4, 8], ss: [4, 8], beta: false, bias: true, outs: ['y', '', '', 'sum'] },
    { xs: [3, 16], ss: [3, 16], beta: true, bias: false, outs: ['y', 'mean', 'iv'] },
    { xs: [1, 5, 32], ss: [1, 5, 32], beta: false, bias: false, outs: ['y', '', 'iv'], eps: 1e-12 },
    { xs: [2, 3, 12], ss: [1, 3, 12], beta: true, bias: true, outs: ['y'], eps: 0.05 },
  ];
  for (const c of cases) {
    const H = c.xs[c.xs.length - 1];
    const bytes = model(c.xs, c.outs.filter(Boolean), (b) => {
      b.init('skip', FLOAT, c.ss, rand(numel(c.ss))).init('g', FLOAT, [H], rand(H)).init('be', FLOAT, [H], rand(H)).init('bi', FLOAT, [H], rand(H));
      const ins = ['x', 'skip', 'g', c.beta ? 'be' : '', c.bias ? 'bi' : ''];
      while (!ins[ins.length - 1]) ins.pop();
      b.node('SkipLayerNormalization', ins, c.outs, { epsilon: F(c.eps ?? 1e-3) });
    }, ['SkipLayerNormalization']);
    // small-variance rows for the large epsilon, so that epsilon matters
    await agree(`SkipLayerNormalization ${JSON.stringify(c)}`, c.xs, c.outs.filter(Boolean), bytes, bytes, c.eps === 0.05 ? 0.2 : 3);
  }
});

test('SkipSimplifiedLayerNormalization: bias present or absent, inv_std_var and sum outputs vs onnxruntime; mean refused', async () => {
  const cases = [
    { xs: [2, 4, 8], bias: true, outs: ['y', '', 'iv', 'sum'] },
    { xs: [3, 16], bias: false, outs: ['y'] },
    { xs: [1, 6, 24], bias: true, outs: ['y', '', '', 'sum'], eps: 0.05 },
    { xs: [2, 2, 32], bias: false, outs: ['y', '', 'iv'] },
  ];
  for (const c of cases) {
    const H = c.xs[c.xs.length - 1];
    const bytes = model(c.xs, c.outs.filter(Boolean), (b) => {
      b.init('skip', FLOAT, c.xs, rand(numel(c.xs))).init('g', FLOAT, [H], rand(H)).init('bi', FLOAT, [H], rand(H));
      b.node('SkipSimplifiedLayerNormalization', ['x', 'skip', 'g', ...(c.bias ? ['bi'] : [])], c.outs, { epsilon: F(c.eps ?? 1e-3) });
    }, ['SkipSimplifiedLayerNormalization']);
    await agree(`SkipSimplifiedLayerNormalization ${JSON.stringify(c)}`, c.xs, c.outs.filter(Boolean), bytes, bytes, c.eps === 0.05 ? 0.2 : 3);
  }
  refuses('mean output', model([2, 8], ['y', 'm'], (b) => {
    b.init('g', FLOAT, [8], rand(8)).node('SkipSimplifiedLayerNormalization', ['x', 'x', 'g'], ['y', 'm']);
  }, ['SkipSimplifiedLayerNormalization']), /output 1 \(mean\) is not supported/);
  refuses('SkipLayerNormalization gamma', model([2, 8], ['y'], (b) => {
    b.init('g', FLOAT, [4], rand(4)).node('SkipLayerNormalization', ['x', 'x', 'g'], ['y']);
  }, ['SkipLayerNormalization']), /gamma has 4 elements, the input's last dim is 8/);
  refuses('SkipLayerNormalization f64', model([2, 8], ['y'], (b) => {
    b.init('g', DOUBLE, [8], rand(8)).node('SkipLayerNormalization', ['x', 'x', 'g'], ['y']);
  }, ['SkipLayerNormalization'], 17, DOUBLE), /gamma of float64 is not supported/);
});

test('com.microsoft SimplifiedLayerNormalization and LayerNormalization agree with onnxruntime\'s default-domain ops', async () => {
  for (const [xs, axis, eps] of [[[2, 4, 8], -1, 1e-3], [[2, 3, 4], 1, 0.05], [[5, 16], -1, undefined], [[1, 2, 3, 6], 2, 1e-2]]) {
    const ss = xs.slice(axis < 0 ? axis + xs.length : axis), sc = rand(numel(ss)), bi = rand(numel(ss));
    const attrs = { axis, ...(eps === undefined ? {} : { epsilon: F(eps) }) };
    const scale = eps === 0.05 ? 0.2 : 3;
    const simp = (ops) => model(xs, ['y', 'iv'], (b) => b.init('s', FLOAT, ss, sc).node('SimplifiedLayerNormalization', ['x', 's'], ['y', 'iv'], attrs), ops);
    await agree(`SimplifiedLayerNormalization ${xs} axis=${axis}`, xs, ['y', 'iv'], simp(['SimplifiedLayerNormalization']), simp([]), scale);
    const ln = (ops, opset) => model(xs, ['y', 'mean', 'iv'], (b) => b.init('s', FLOAT, ss, sc).init('b', FLOAT, ss, bi).node('LayerNormalization', ['x', 's', 'b'], ['y', 'mean', 'iv'], attrs), ops, opset);
    await agree(`LayerNormalization ${xs} axis=${axis}`, xs, ['y', 'mean', 'iv'], ln(['LayerNormalization'], 13), ln([], 17), scale);
    const ln1 = (ops, opset) => model(xs, ['y'], (b) => b.init('s', FLOAT, ss, sc).node('LayerNormalization', ['x', 's'], ['y'], attrs), ops, opset);
    await agree(`LayerNormalization no bias ${xs} axis=${axis}`, xs, ['y'], ln1(['LayerNormalization'], 13), ln1([], 17), scale);
  }
  refuses('stash_type 0', model([2, 4], ['y'], (b) => b.init('s', FLOAT, [4], rand(4)).node('SimplifiedLayerNormalization', ['x', 's'], ['y'], { stash_type: 0 }), ['SimplifiedLayerNormalization']), /stash_type 0 is not supported/);
  refuses('LN stash_type 0', model([2, 4], ['y'], (b) => b.init('s', FLOAT, [4], rand(4)).node('LayerNormalization', ['x', 's'], ['y'], { stash_type: 0 }), ['LayerNormalization']), /stash_type 0 is not supported/);
  refuses('axis', model([2, 4], ['y'], (b) => b.init('s', FLOAT, [4], rand(4)).node('SimplifiedLayerNormalization', ['x', 's'], ['y'], { axis: 2 }), ['SimplifiedLayerNormalization']), /axis 2 is out of range for rank 2/);
});

test('FusedMatMul: alpha, transA, transB, batched and broadcast operands vs onnxruntime; transBatch refused', async () => {
  const cases = [
    { xs: [2, 3, 4], bs: [4, 5], alpha: 0.5 },
    { xs: [2, 4, 3], bs: [4, 5], transA: 1 },
    { xs: [2, 3, 4], bs: [2, 5, 4], transB: 1, alpha: -1.25 },
    { xs: [3, 6], bs: [5, 3], transA: 1, transB: 1, alpha: 2 },
    { xs: [1, 2, 7, 3], bs: [2, 7, 4], transA: 1 },
    { xs: [4, 8], bs: [8, 2] },
  ];
  for (const c of cases) {
    const { xs, bs, ...attrs } = c;
    if (attrs.alpha !== undefined) attrs.alpha = F(attrs.alpha);
    const bytes = model(xs, ['y'], (b) => b.init('w', FLOAT, bs, rand(numel(bs))).node('FusedMatMul', ['x', 'w'], ['y'], attrs), ['FusedMatMul']);
    await agree(`FusedMatMul ${JSON.stringify(c)}`, xs, ['y'], bytes);
  }
  for (const k of ['transBatchA', 'transBatchB'])
    refuses(k, model([2, 3, 4], ['y'], (b) => b.init('w', FLOAT, [4, 5], rand(20)).node('FusedMatMul', ['x', 'w'], ['y'], { [k]: 1 }), ['FusedMatMul']), new RegExp(`${k} = 1 is not supported`));
  refuses('transA 1-D', model([4], ['y'], (b) => b.init('w', FLOAT, [4, 5], rand(20)).node('FusedMatMul', ['x', 'w'], ['y'], { transA: 1 }), ['FusedMatMul']), /transA needs A of a known rank of 2 or more/);
});

test('com.microsoft Trilu (upper, k) and Range (delta present or absent, float and int64) vs onnxruntime', async () => {
  for (const [xs, upper, k] of [[[4, 5], 1, null], [[2, 3, 6], 0, 1], [[5, 3], 1, -2], [[2, 4, 4], 0, null]]) {
    const bytes = model(xs, ['y'], (b) => {
      if (k !== null) b.init('k', INT64, [], [k]);
      b.node('Trilu', ['x', ...(k !== null ? ['k'] : [])], ['y'], { upper });
    }, ['Trilu']);
    await agree(`Trilu ${xs} upper=${upper} k=${k}`, xs, ['y'], bytes);
  }
  // Range's operands are initializers; the output is added to x so that the model has an input
  for (const [s, l, d, n] of [[0.5, 4, null, 4], [1, -2, -0.75, 4], [0, 3.5, 0.5, 7]]) {
    const bytes = model([n], ['y'], (b) => {
      b.init('s', FLOAT, [], [s]).init('l', FLOAT, [], [l]);
      if (d !== null) b.init('d', FLOAT, [], [d]);
      b.node('Range', ['s', 'l', ...(d !== null ? ['d'] : [])], ['r']).node('Add', ['x', 'r'], ['y']);
    }, ['Range']);
    await agree(`Range ${s} ${l} ${d}`, [n], ['y'], bytes);
  }
  const b = new OnnxBuilder(17);
  b.init('s', INT64, [], [2]).init('l', INT64, [], [9]).node('Range', ['s', 'l'], ['r']).node('Cast', ['r'], ['y'], { to: FLOAT });
  b.output('y', FLOAT, null);
  const bytes = msft(b, ['Range']);
  const want = (await (await ort.InferenceSession.create(bytes)).run({})).y;
  const h = rt.load(convert(bytes).holo);
  try {
    assert.equal([...h.run({}).y.data], [...want.data], 'Range int64, no delta');
    assert.equal([...want.data], [2, 3, 4, 5, 6, 7, 8]);
  } finally {
    h.dispose();
  }
  refuses('Range bool', model(null, ['y'], (b) => b.init('s', 9, [], [1]).init('l', 9, [], [1]).node('Range', ['s', 'l'], ['y']), ['Range']), /Range of bool is not supported/);
});

test.run();
