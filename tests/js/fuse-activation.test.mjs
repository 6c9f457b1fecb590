// The activation fusions (compiler/rewrites/fuse-activation.js): Mul(x,
// Sigmoid(x)) -> holo.SiLU, and Conv / Gemm / MatMul + {Sigmoid, holo.SiLU,
// HardSwish, HardSigmoid, Gelu, Tanh} -> the product with holo_activation.
// The fused graph must give the unfused graph's bytes on the simd128 and the
// scalar modules (NaN, +-Inf, -0 and huge inputs included), and
// onnxruntime-node's values within tolerance.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { OnnxBuilder, FLOAT, F, rand, close } from './onnx-build.mjs';

const rt = await init();
const rtScalar = await init(undefined, { variant: 'scalar' });

async function ortRun(bytes, feeds) {
  const s = await ort.InferenceSession.create(bytes);
  const f = {};
  for (const [k, v] of Object.entries(feeds)) f[k] = new ort.Tensor('float32', v.data, v.shape);
  const r = await s.run(f);
  return s.outputNames.map((n) => r[n].data);
}
const execute = (r, holo, inputs) => { const s = r.load(holo); try { return s.execute(inputs); } finally { s.dispose(); } };
const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
const opsOf = (graph) => graph.nodes.map((n) => n.op);
const attr = (n, k) => n.attrs.find((a) => a.name === k)?.value;

async function checkFusion(bytes, feeds) {
  const fused = convert(bytes), plain = convert(bytes, { fuse: false });
  const inputs = Object.values(feeds);
  const special = inputs.map((t) => {
    const d = Float32Array.from(t.data);
    [NaN, 0, Infinity, -0, -Infinity, -3e38, 3e38, -90, 90, 1e-40].forEach((v, i) => { if (i < d.length) d[i * 3 % d.length] = v; });
    return { data: d, shape: t.shape };
  });
  for (const [k, ins] of [inputs, special].entries()) {
    for (const r of [rt, rtScalar]) {
      const a = execute(r, fused.holo, ins), b = execute(r, plain.holo, ins);
      assert.is(a.length, b.length);
      a.forEach((t, i) => { assert.equal(t.shape, b[i].shape); assert.ok(bytesOf(t).equals(bytesOf(b[i])), `output ${i} bytes differ (set ${k}, ${r === rt ? 'simd128' : 'scalar'})`); });
    }
    // the two modules agree byte for byte too
    const s = execute(rt, fused.holo, ins), c = execute(rtScalar, fused.holo, ins);
    // (only a NaN's sign and payload may differ, docs/kernels.md)
    s.forEach((t, i) => {
      const bad = t.data.findIndex((v, j) => !(Object.is(v, c[i].data[j]) || (Number.isNaN(v) && Number.isNaN(c[i].data[j]))));
      assert.is(bad, -1, `output ${i}: simd128 and scalar modules differ at ${bad}: ${t.data[bad]} vs ${c[i].data[bad]} (set ${k})`);
    });
    if (k === 0) {
      const want = await ortRun(bytes, feeds);
      s.forEach((t, i) => assert.ok(close(t.data, want[i], 1e-4, 1e-5), `output ${i} vs onnxruntime`));
    }
  }
  return { fused, plain, ops: opsOf(fused.graph) };
}

test('fuse-silu: Mul(x, Sigmoid(x)) in either order -> holo.SiLU; a Sigmoid used elsewhere or a graph output stays', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 3, 5, 7]);
  b.node('Sigmoid', ['x'], ['s']).node('Mul', ['x', 's'], ['a'])
    .node('Sigmoid', ['a'], ['s2']).node('Mul', ['s2', 'a'], ['c'])
    .node('Sigmoid', ['c'], ['s3']).node('Mul', ['c', 's3'], ['d']).node('Add', ['d', 's3'], ['y']);
  b.output('y', FLOAT, [2, 3, 5, 7]);
  const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(210, 12), shape: [2, 3, 5, 7] } });
  assert.equal(ops, ['holo.SiLU', 'holo.SiLU', 'Sigmoid', 'Mul', 'Add']);
  assert.ok(fused.report.rewrites.some((l) => /fuse-silu: 2/.test(l)));
});

const ACTS = [
  ['Sigmoid', {}], ['HardSwish', {}], ['HardSigmoid', { alpha: F(0.25), beta: F(0.375) }], ['HardSigmoid', {}],
  ['Tanh', {}], ['SiLU', {}],
];

test('fuse-activation: Conv (1x1, 3x3, depthwise) / Gemm / MatMul + each activation -> one node, the pair\'s bytes', async () => {
  for (const [act, at] of ACTS) {
    const b = new OnnxBuilder(14);
    b.input('x', FLOAT, [1, 6, 9, 8]);
    b.init('w', FLOAT, [8, 6, 3, 3], rand(432, 0.9)).init('c', FLOAT, [8], rand(8, 0.3));
    b.init('dw', FLOAT, [8, 1, 3, 3], rand(72, 0.9)).init('pw', FLOAT, [5, 8, 1, 1], rand(40, 0.9));
    b.init('wg', FLOAT, [7, 5 * 9 * 8], rand(7 * 360, 0.2)).init('cg', FLOAT, [7], rand(7, 0.1));
    b.init('wm', FLOAT, [7, 70], rand(490, 0.5));
    const a = (x, y) => act === 'SiLU' ? b.node('Sigmoid', [x], [`${y}_s`]).node('Mul', [x, `${y}_s`], [y]) : b.node(act, [x], [y], at);
    b.node('Conv', ['x', 'w', 'c'], ['h'], { pads: [1, 1, 1, 1], kernel_shape: [3, 3] }); a('h', 'r');
    b.node('Conv', ['r', 'dw'], ['d'], { pads: [1, 1, 1, 1], kernel_shape: [3, 3], group: 8 }); a('d', 'dr');
    b.node('Conv', ['dr', 'pw'], ['p'], { kernel_shape: [1, 1] }); a('p', 'pr');
    b.node('Flatten', ['pr'], ['f'], { axis: 1 }).node('Gemm', ['f', 'wg', 'cg'], ['g'], { transB: 1 }); a('g', 'gr');
    b.node('MatMul', ['gr', 'wm'], ['m']); a('m', 'y');
    b.output('y', FLOAT, [1, 70]);
    const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(432, 4), shape: [1, 6, 9, 8] } });
    assert.equal(ops, ['Conv', 'Conv', 'Conv', 'Flatten', 'Gemm', 'MatMul'], act);
    const want = act === 'SiLU' ? 'holo.SiLU' : act;
    for (const n of fused.graph.nodes) if (n.op !== 'Flatten') assert.is(attr(n, 'holo_activation'), want, `${act} on ${n.op}`);
    if (at.alpha) assert.is(attr(fused.graph.nodes[0], 'holo_activation_alpha'), 0.25);
  }
});

test('fuse-relu / fuse-clip / fuse-activation: ConvTranspose (2-D, 1-D, no bias) + each activation -> one node, the pair\'s bytes', async () => {
  for (const [act, at] of [['Relu', {}], ['Clip', null], ...ACTS]) {
    const b = new OnnxBuilder(14);
    b.input('x', FLOAT, [1, 6, 5, 4]);
    b.init('w', FLOAT, [6, 4, 3, 3], rand(216, 0.9)).init('c', FLOAT, [4], rand(4, 0.3));
    b.init('w1', FLOAT, [4, 3, 2], rand(24, 0.9)).init('lo', FLOAT, [], [-0.25]).init('hi', FLOAT, [], [0.5]);
    const a = (x, y) => act === 'SiLU' ? b.node('Sigmoid', [x], [`${y}_s`]).node('Mul', [x, `${y}_s`], [y])
      : act === 'Clip' ? b.node('Clip', [x, 'lo', 'hi'], [y]) : b.node(act, [x], [y], at);
    b.node('ConvTranspose', ['x', 'w', 'c'], ['h'], { strides: [2, 2], pads: [1, 1, 1, 1], output_padding: [1, 1] }); a('h', 'r');
    b.node('Reshape', ['r', 'shp'], ['r1']).init('shp', 7, [3], [1, 4, 80]);
    b.node('ConvTranspose', ['r1', 'w1'], ['t'], { strides: [2] }); a('t', 'y');
    b.output('y', FLOAT, [1, 3, 160]);
    const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(120, 4), shape: [1, 6, 5, 4] } });
    assert.equal(ops.filter((o) => o !== 'Reshape'), ['ConvTranspose', 'ConvTranspose'], act);
    const want = act === 'SiLU' ? 'holo.SiLU' : act;
    for (const n of fused.graph.nodes) if (n.op === 'ConvTranspose') assert.is(attr(n, 'holo_activation'), want, `${act} on ConvTranspose`);
  }
});

test('fuse-activation: a big MatMul (split into tasks) + Sigmoid, and what must not fuse', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [130, 96]);
  b.init('w', FLOAT, [96, 80], rand(96 * 80, 0.3));
  b.node('MatMul', ['x', 'w'], ['m']).node('Sigmoid', ['m'], ['s']).node('Tanh', ['m'], ['t']).node('Add', ['s', 't'], ['y']);
  b.output('y', FLOAT, [130, 80]);
  const { ops } = await checkFusion(b.bytes(), { x: { data: rand(130 * 96, 2), shape: [130, 96] } });
  assert.equal(ops, ['MatMul', 'Sigmoid', 'Tanh', 'Add'], 'a shared product output is not fused');
  const b2 = new OnnxBuilder(13);
  b2.input('x', FLOAT, [130, 96]);
  b2.init('w', FLOAT, [96, 80], rand(96 * 80, 0.3));
  b2.node('MatMul', ['x', 'w'], ['m']).node('Sigmoid', ['m'], ['y']);
  b2.output('y', FLOAT, [130, 80]);
  const r = await checkFusion(b2.bytes(), { x: { data: rand(130 * 96, 2), shape: [130, 96] } });
  assert.equal(r.ops, ['MatMul']);
});

/** The erf GELU chain torch exports at opset < 20, in the given form, after y = x's producer. */
function geluChain(b, x, y, form) {
  const [c2, c5, c1] = [`${y}_c2`, `${y}_c5`, `${y}_c1`];
  b.init(c1, FLOAT, [], [1]).init(c5, FLOAT, [], [0.5]);
  if (form === 'mulrsqrt') b.init(c2, FLOAT, [], [Math.SQRT1_2]).node('Mul', [c2, x], [`${y}_d`]);
  else b.init(c2, FLOAT, [], [Math.SQRT2]).node('Div', [x, c2], [`${y}_d`]);
  b.node('Erf', [`${y}_d`], [`${y}_e`]).node('Add', form === 'mulrsqrt' ? [c1, `${y}_e`] : [`${y}_e`, c1], [`${y}_a`]);
  if (form === 'halffirst') b.node('Mul', [c5, x], [`${y}_h`]).node('Mul', [`${y}_a`, `${y}_h`], [y]);
  else b.node('Mul', [x, `${y}_a`], [`${y}_m`]).node('Mul', [`${y}_m`, c5], [y]);
}

test('fuse-gelu: the exported erf GELU chain (3 spellings) -> Gelu, fused into MatMul; agrees with onnxruntime; simd128 == scalar', async () => {
  for (const form of ['torch', 'halffirst', 'mulrsqrt']) {
    const b = new OnnxBuilder(17);
    b.input('x', FLOAT, [4, 3, 24]);
    b.init('w', FLOAT, [24, 40], rand(960, 0.6)).init('bias', FLOAT, [40], rand(40, 0.2));
    b.node('MatMul', ['x', 'w'], ['m']).node('Add', ['m', 'bias'], ['mb']);
    geluChain(b, 'mb', 'g', form);
    geluChain(b, 'x', 'y2', form); // on a graph input: a Gelu node of its own
    b.output('g', FLOAT, [4, 3, 40]).output('y2', FLOAT, [4, 3, 24]);
    const x = rand(288, 5);
    x[0] = -9; x[1] = 7; x[2] = -0; x[3] = 1e-30;
    const { graph, holo, report } = convert(b.bytes());
    assert.equal(opsOf(graph), ['MatMul', 'Gelu'], form);
    assert.is(attr(graph.nodes[0], 'holo_activation'), 'Gelu');
    assert.ok(report.rewrites.some((l) => /fuse-gelu: 2/.test(l)), form);
    const want = await ortRun(b.bytes(), { x: { data: x, shape: [4, 3, 24] } });
    const got = execute(rt, holo, [{ data: x, shape: [4, 3, 24] }]), gs = execute(rtScalar, holo, [{ data: x, shape: [4, 3, 24] }]);
    got.forEach((t, i) => {
      assert.ok(close(t.data, want[i], 1e-5, 1e-6), `${form} output ${i} vs onnxruntime`);
      assert.ok(bytesOf(t).equals(bytesOf(gs[i])), `${form} output ${i}: simd128 vs scalar bytes`);
    });
  }
  // a chain whose intermediate is also used elsewhere stays
  const b = new OnnxBuilder(17);
  b.input('x', FLOAT, [2, 8]);
  geluChain(b, 'x', 'y', 'torch');
  b.node('Add', ['y_e', 'y'], ['z']);
  b.output('z', FLOAT, [2, 8]);
  assert.equal(opsOf(convert(b.bytes()).graph), ['Div', 'Erf', 'Add', 'Mul', 'Mul', 'Add']);
});

test('holo_activation Gelu (both forms) on MatMul: the bytes of the product then the op', () => {
  const run = (r, holo, ins) => execute(r, holo, ins)[0];
  for (const approximate of [undefined, 'tanh']) {
    for (const [M, K, N] of [[3, 7, 5], [130, 64, 72]]) {
      const mk = (fused) => {
        const g = new GraphBuilder();
        const a = g.input('a', DT.f32, [M, K]), w = g.input('w', DT.f32, [K, N]);
        const act = { holo_activation: 'Gelu', ...(approximate ? { holo_activation_approximate: approximate } : {}) };
        if (fused) g.output(g.node('MatMul', [a, w], { attrs: act })[0]);
        else g.output(g.node('Gelu', [g.node('MatMul', [a, w])[0]], { attrs: approximate ? { approximate } : {} })[0]);
        return writeHolo(g.toJSON());
      };
      const ins = [{ data: rand(M * K, 3), shape: [M, K] }, { data: rand(K * N, 0.5), shape: [K, N] }];
      ins[0].data[0] = NaN; ins[0].data[K] = Infinity; ins[0].data[2 * K] = -Infinity;
      for (const r of [rt, rtScalar]) assert.ok(bytesOf(run(r, mk(true), ins)).equals(bytesOf(run(r, mk(false), ins))), `Gelu ${approximate} ${M}x${K}x${N}`);
    }
  }
});

test.run();
