// The converter's rewrites (compiler/rewrites/*.js), each on a hand-built IR.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { IR, DT, readElems, writeElems, i64Bytes, A } from '../../compiler/ir.js';
import { removeIdentity } from '../../compiler/rewrites/remove-identity.js';
import { removeDeadNodes } from '../../compiler/rewrites/dead-nodes.js';
import { foldJS, foldNode, foldConstants, runNode } from '../../compiler/rewrites/fold-constants.js';
import { fuseBatchNorm } from '../../compiler/rewrites/fuse-batchnorm.js';
import { fuseMatMulBias } from '../../compiler/rewrites/fuse-matmul-bias.js';
import { fuseRelu } from '../../compiler/rewrites/fuse-relu.js';
import { convert } from '../../compiler/convert.js';
import { OnnxBuilder, FLOAT, F } from './onnx-build.mjs';
import ort from 'onnxruntime-node';
import { GraphBuilder } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { init } from '../../bindings-js/index.js';
import { rand, close } from './onnx-build.mjs';

const rt = await init();
const rtScalar = await init(undefined, { variant: 'scalar' });
const f32 = (a) => writeElems(DT.f32, [...a]);

function ir0() {
  const ir = new IR();
  ir.addValue({ name: 'x', dtype: DT.f32, shape: ['N', 4], kind: 'input' });
  ir.inputs.push('x');
  return ir;
}
const node = (ir, op, inputs, outputs, attrs = {}, shape = null, dtype = DT.f32) => {
  for (const o of outputs) ir.addValue({ name: o, dtype, shape, kind: 'node' });
  const n = { op, name: op.toLowerCase(), inputs, outputs, attrs };
  ir.nodes.push(n);
  return n;
};

/** Lower an IR to a .holo (constants, inputs, nodes in order) and run it. */
function runIR(ir, inputs) {
  const g = new GraphBuilder();
  const ids = new Map();
  for (const name of ir.inputs) { const v = ir.get(name); ids.set(name, g.input(name, v.dtype, v.shape)); }
  const id = (n) => {
    if (!n) return null;
    if (!ids.has(n)) { const v = ir.get(n); ids.set(n, g.constant(n, v.dtype, v.shape, v.bytes)); }
    return ids.get(n);
  };
  for (const n of ir.nodes) {
    const outs = g.node(n.op, n.inputs.map(id), { name: n.name, attrs: Object.entries(n.attrs).map(([name, a]) => ({ name, ...a })), outputs: n.outputs.length });
    n.outputs.forEach((o, k) => ids.set(o, outs[k]));
  }
  g.output(...ir.outputs.map(id));
  const s = rt.load(writeHolo(g.toJSON()));
  try { return s.execute(inputs); } finally { s.dispose(); }
}

test('remove-identity: Identity/Dropout chains disappear, the declared output name is kept', () => {
  const ir = ir0();
  node(ir, 'Identity', ['x'], ['a'], {}, ['N', 4]);
  node(ir, 'Relu', ['a'], ['r'], {}, ['N', 4]);
  node(ir, 'Dropout', ['r'], ['d', 'mask'], {}, ['N', 4]);
  node(ir, 'Identity', ['d'], ['y'], {}, ['N', 4]);
  ir.outputs.push('y');
  assert.is(removeIdentity(ir), 3);
  assert.equal(ir.nodes.map((n) => [n.op, n.inputs, n.outputs]), [['Relu', ['x'], ['y']]]);
  assert.equal(ir.outputs, ['y']);
  // the Identity's input is read elsewhere too: it still takes the declared name
  const q = ir0();
  node(q, 'Relu', ['x'], ['q'], {}, ['N', 4]);
  node(q, 'Identity', ['q'], ['y'], {}, ['N', 4]);
  node(q, 'Neg', ['q'], ['z'], {}, ['N', 4]);
  q.outputs.push('y', 'z');
  assert.is(removeIdentity(q), 1);
  assert.equal(q.nodes.map((n) => [n.op, n.inputs, n.outputs]), [['Relu', ['x'], ['y']], ['Neg', ['y'], ['z']]]);
  assert.equal(q.outputs, ['y', 'z']);
  assert.ok(!q.values.has('q') && q.get('y').kind === 'node');
  // Identity of a graph input that is also an output: the port is the input
  const j = ir0();
  node(j, 'Identity', ['x'], ['y']);
  j.outputs.push('y');
  removeIdentity(j);
  assert.equal(j.outputs, ['x']);
  assert.equal(j.nodes, []);
});

test('remove-identity: a Cast to its input\'s own dtype goes, any other Cast stays', () => {
  const ir = ir0();
  node(ir, 'Cast', ['x'], ['a'], { to: A.int(DT.f32) }, ['N', 4]);
  node(ir, 'Cast', ['a'], ['h'], { to: A.int(DT.f16) }, ['N', 4], DT.f16);
  node(ir, 'Cast', ['h'], ['y'], { to: A.int(DT.f32) }, ['N', 4]);
  ir.outputs.push('y');
  assert.is(removeIdentity(ir), 1);
  assert.equal(ir.nodes.map((n) => [n.op, n.inputs, n.outputs]), [['Cast', ['x'], ['h']], ['Cast', ['h'], ['y']]]);
  // a no-op Cast of a graph input that is the output stays (the port keeps its name)
  const o = ir0();
  node(o, 'Cast', ['x'], ['y'], { to: A.int(DT.f32) }, ['N', 4]);
  o.outputs.push('y');
  assert.is(removeIdentity(o), 0);
  // a Cast the converter keeps for the load (noFold) stays even when it is a no-op
  const k = ir0();
  node(k, 'Relu', ['x'], ['r'], {}, ['N', 4]);
  node(k, 'Cast', ['r'], ['y'], { to: A.int(DT.f32) }, ['N', 4]).noFold = true;
  k.outputs.push('y');
  assert.is(removeIdentity(k), 0);
});

test('remove-identity: a consumed mask, a runtime training_mode or a training draw stays (the converter writes a draw as ops before this: onnx-ops-random.js)', () => {
  const ir = ir0();
  node(ir, 'Dropout', ['x'], ['d', 'mask'], {}, ['N', 4]);
  ir.outputs.push('d', 'mask');
  assert.is(removeIdentity(ir), 0);
  const t = ir0();
  t.addValue({ name: 'tm', dtype: DT.bool, shape: [], kind: 'input' });
  node(t, 'Dropout', ['x', '', 'tm'], ['d']);
  t.outputs.push('d');
  assert.is(removeIdentity(t), 0);
  const r = ir0();
  r.addConst('tm', DT.bool, [], new Uint8Array([1]));
  node(r, 'Dropout', ['x', '', 'tm'], ['d']);
  r.outputs.push('d');
  assert.is(removeIdentity(r), 0);
  const c = ir0();
  c.addConst('tm', DT.bool, [], new Uint8Array([0]));
  node(c, 'Dropout', ['x', '', 'tm'], ['d']);
  c.outputs.push('d');
  assert.is(removeIdentity(c), 1);
});

test('dead-nodes: unreachable nodes and unused constants go, inputs stay', () => {
  const ir = ir0();
  ir.addConst('w', DT.f32, [4], f32([1, 2, 3, 4]));
  ir.addConst('unused', DT.f32, [1], f32([0]));
  node(ir, 'Add', ['x', 'w'], ['a']);
  node(ir, 'Relu', ['x'], ['dead']);
  node(ir, 'Sigmoid', ['dead'], ['dead2']);
  ir.outputs.push('a');
  assert.is(removeDeadNodes(ir), 2);
  assert.equal(ir.nodes.map((n) => n.op), ['Add']);
  assert.ok(ir.has('w') && !ir.has('unused') && !ir.has('dead') && ir.has('x'));
});

test('fold-constants (JS): Shape of a symbolic input gives a shape value; Gather/Unsqueeze/Concat keep it', () => {
  const ir = ir0();
  ir.addConst('zero', DT.i64, [], i64Bytes([0]));
  ir.addConst('ax', DT.i64, [1], i64Bytes([0]));
  ir.addConst('m1', DT.i64, [1], i64Bytes([-1]));
  const sh = node(ir, 'Shape', ['x'], ['s'], {}, [2], DT.i64);
  assert.is(foldJS(ir, sh), 'sv');
  assert.equal(ir.get('s').sv, ['N', 4n]);
  assert.is(foldJS(ir, node(ir, 'Gather', ['s', 'zero'], ['n'], { axis: A.int(0) }, [], DT.i64)), 'sv');
  assert.is(foldJS(ir, node(ir, 'Unsqueeze', ['n', 'ax'], ['n1'], {}, [1], DT.i64)), 'sv');
  assert.is(foldJS(ir, node(ir, 'Concat', ['n1', 'm1'], ['t'], { axis: A.int(0) }, [2], DT.i64)), 'sv');
  assert.equal(ir.get('t').sv, ['N', -1n]);
  // the concrete part folds to a real constant
  const one = ir.addConst('one', DT.i64, [1], i64Bytes([1]));
  assert.is(foldJS(ir, node(ir, 'Gather', ['s', one], ['d1'], { axis: A.int(0) }, [1], DT.i64)), 'const');
  assert.equal(readElems(DT.i64, ir.get('d1').bytes), [4n]);
});

test('fold-constants: Cast, Slice, Concat, Gather, Expand on constants fold through the runtime, not JS', () => {
  const ir = ir0();
  const fold = { rt: rtScalar };
  const both = (n) => { assert.is(foldJS(ir, n), false, `${n.op} of constants is not JS's to fold`); return foldNode(ir, n, fold); };
  ir.addConst('c', DT.f32, [2, 3], f32([1.5, -2.7, 3, 4, 5, 6]));
  assert.is(both(node(ir, 'Cast', ['c'], ['ci'], { to: A.int(DT.i32) }, null, DT.i32)), 'const');
  assert.equal(readElems(DT.i32, ir.get('ci').bytes), [1, -2, 3, 4, 5, 6]);
  ir.addConst('st', DT.i64, [1], i64Bytes([1])); ir.addConst('en', DT.i64, [1], i64Bytes([100])); ir.addConst('ax1', DT.i64, [1], i64Bytes([1]));
  assert.is(both(node(ir, 'Slice', ['c', 'st', 'en', 'ax1'], ['sl'])), 'const');
  assert.equal(ir.get('sl').shape, [2, 2]);
  assert.equal(readElems(DT.f32, ir.get('sl').bytes), [Math.fround(-2.7), 3, 5, 6]);
  assert.is(both(node(ir, 'Concat', ['c', 'sl'], ['cc'], { axis: A.int(1) })), 'const');
  assert.equal(ir.get('cc').shape, [2, 5]);
  assert.equal(readElems(DT.f32, ir.get('cc').bytes).slice(0, 5), [1.5, Math.fround(-2.7), 3, Math.fround(-2.7), 3]);
  ir.addConst('idx', DT.i64, [2], i64Bytes([2, -3]));
  assert.is(both(node(ir, 'Gather', ['c', 'idx'], ['ga'], { axis: A.int(1) })), 'const');
  assert.equal(readElems(DT.f32, ir.get('ga').bytes), [3, 1.5, 6, 4]);
  ir.addConst('seven', DT.i32, [], writeElems(DT.i32, [7]));
  ir.addConst('shp', DT.i64, [2], i64Bytes([2, 2]));
  assert.is(both(node(ir, 'Expand', ['seven', 'shp'], ['z'], {}, [2, 2], DT.i32)), 'const');
  assert.equal(readElems(DT.i32, ir.get('z').bytes), [7, 7, 7, 7]);
  assert.equal(ir.foldStats.runtime, { Cast: 1, Slice: 1, Concat: 1, Gather: 1, Expand: 1 });
  // a node with a non-constant input does not fold
  assert.is(foldNode(ir, node(ir, 'Cast', ['x'], ['xc'], { to: A.int(DT.f32) }), fold), false);
  // and nothing concrete folds without a runtime
  assert.is(foldNode(ir, node(ir, 'Cast', ['c'], ['cj'], { to: A.int(DT.u8) }, null, DT.u8), {}), false);
});

test('fold-constants (wasm): an all-constant node runs through the runtime and gives the kernel bytes', () => {
  const ir = ir0();
  const w = rand(12);
  ir.addConst('w', DT.f32, [3, 4], f32(w));
  node(ir, 'Transpose', ['w'], ['wt'], { perm: A.ints([1, 0]) }, [4, 3]);
  node(ir, 'MatMul', ['x', 'wt'], ['y'], {}, ['N', 3]);
  ir.outputs.push('y');
  const direct = runNode(rt, ir, ir.nodes[0]);
  assert.is(foldConstants(ir, { runtime: { rt } }), 1);
  assert.equal(ir.nodes.map((n) => n.op), ['MatMul']);
  assert.equal(ir.get('wt').shape, [4, 3]);
  assert.equal([...ir.get('wt').bytes], [...direct[0].bytes]);
  const wt = readElems(DT.f32, ir.get('wt').bytes);
  assert.equal(wt[1], w[4]); // wt[0][1] = w[1][0]
  // no runtime: nothing but JS folding happens
  const j = ir0();
  j.addConst('w', DT.f32, [2, 2], f32([1, 2, 3, 4]));
  node(j, 'Transpose', ['w'], ['wt'], { perm: A.ints([1, 0]) });
  j.outputs.push('wt');
  assert.is(foldConstants(j, {}), 0);
  // an op the backend lacks is left in place
  const k = ir0();
  k.addConst('w', DT.f32, [2], f32([1, 2]));
  node(k, 'NoSuchOp', ['w'], ['q']);
  k.outputs.push('q');
  assert.is(foldConstants(k, { runtime: { rt } }), 0);
});

function bnIR(withConv) {
  const ir = new IR();
  ir.addValue({ name: 'x', dtype: DT.f32, shape: [1, 2, 5, 5], kind: 'input' });
  ir.inputs.push('x');
  ir.addConst('w', DT.f32, [3, 2, 3, 3], f32(rand(54, 0.5)));
  ir.addConst('b', DT.f32, [3], f32(rand(3, 0.2)));
  ir.addConst('s', DT.f32, [3], f32([1.2, 0.7, -0.4]));
  ir.addConst('t', DT.f32, [3], f32([0.1, -0.2, 0.3]));
  ir.addConst('m', DT.f32, [3], f32([0.05, 0.5, -0.3]));
  ir.addConst('v', DT.f32, [3], f32([0.9, 1.4, 0.2]));
  const conv = { auto_pad: A.string('NOTSET'), pads: A.ints([1, 1, 1, 1]), strides: A.ints([1, 1]), dilations: A.ints([1, 1]), group: A.int(1), kernel_shape: A.ints([3, 3]) };
  if (withConv) node(ir, 'Conv', ['x', 'w', 'b'], ['c'], conv, [1, 3, 5, 5]);
  node(ir, 'BatchNormalization', [withConv ? 'c' : 'x', 's', 't', 'm', 'v'], ['y'], { epsilon: A.float(1e-5), momentum: A.float(0.9) }, [1, withConv ? 3 : 2, 5, 5]);
  ir.outputs.push('y');
  return ir;
}

function bnReference(ir, x) {
  // y = (conv(x) - m) / sqrt(v + eps) * s + t computed with the unfused Conv through the runtime
  const conv = ir.nodes.find((n) => n.op === 'Conv');
  const g = new IR();
  for (const [k, v] of ir.values) g.values.set(k, { ...v });
  g.inputs = ['x'];
  g.nodes = [conv];
  g.outputs = [conv.outputs[0]];
  const [c] = runIR(g, [{ data: x, shape: [1, 2, 5, 5] }]);
  const [s, t, m, v] = ['s', 't', 'm', 'v'].map((n) => readElems(DT.f32, ir.get(n).bytes));
  return c.data.map((val, i) => { const ch = Math.floor(i / 25); return (val - m[ch]) / Math.sqrt(v[ch] + 1e-5) * s[ch] + t[ch]; });
}

test('fuse-batchnorm: Conv+BN becomes one Conv, numerically equal to the unfused graph', () => {
  const ir = bnIR(true);
  const x = rand(50);
  const want = bnReference(ir, x);
  assert.is(fuseBatchNorm(ir), 1);
  removeDeadNodes(ir);
  assert.equal(ir.nodes.map((n) => n.op), ['Conv']);
  assert.equal(ir.nodes[0].outputs, ['y']);
  const [got] = runIR(ir, [{ data: x, shape: [1, 2, 5, 5] }]);
  assert.ok(close(got.data, want, 1e-5, 1e-5));
});

test('fuse-batchnorm: without a Conv, BN is lowered to Mul+Add with [C,1,1] constants', () => {
  const ir = bnIR(false);
  ir.values.get('s').shape = [2]; ir.values.get('s').bytes = f32([1.5, -0.5]);
  for (const n of ['t', 'm']) { ir.values.get(n).shape = [2]; ir.values.get(n).bytes = f32([0.25, -0.75]); }
  ir.values.get('v').shape = [2]; ir.values.get('v').bytes = f32([0.5, 2]);
  const x = rand(50);
  assert.is(fuseBatchNorm(ir), 1);
  assert.equal(ir.nodes.map((n) => n.op), ['Mul', 'Add']);
  assert.equal(ir.get(ir.nodes[0].inputs[1]).shape, [2, 1, 1]);
  const [got] = runIR(ir, [{ data: x, shape: [1, 2, 5, 5] }]);
  const want = x.map((val, i) => { const c = Math.floor(i / 25); return (val - [0.25, -0.75][c]) / Math.sqrt([0.5, 2][c] + 1e-5) * [1.5, -0.5][c] + [0.25, -0.75][c]; });
  assert.ok(close(got.data, want, 1e-5, 1e-6));
  // non-constant parameters: left alone
  const k = bnIR(true);
  k.values.get('m').kind = 'input'; k.inputs.push('m');
  assert.is(fuseBatchNorm(k), 0);
});

// ---- kernel-contract fusions (fuse-matmul-bias, fuse-relu, fuse-clip):
// the fused graph must give the unfused graph's bytes on the wasm runtime
// (simd128 and scalar modules), and onnxruntime-node's values within tolerance.

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

/** Convert fused and unfused; require equal bytes on both modules and ORT agreement. Returns the fused graph's ops. */
async function checkFusion(bytes, feeds, { special = true } = {}) {
  const fused = convert(bytes), plain = convert(bytes, { fuse: false });
  const inputs = Object.values(feeds);
  const sets = [inputs];
  if (special) {
    // NaN, ±Inf, -0 and huge values in the input
    sets.push(inputs.map((t) => { const d = Float32Array.from(t.data); d[0] = NaN; if (d.length > 2) d[2] = Infinity; if (d.length > 3) d[3] = -0; if (d.length > 5) d[5] = -3e38; return { data: d, shape: t.shape }; }));
  }
  for (const [k, ins] of sets.entries()) {
    for (const r of [rt, rtScalar]) {
      const a = execute(r, fused.holo, ins), b = execute(r, plain.holo, ins);
      assert.is(a.length, b.length);
      a.forEach((t, i) => { assert.equal(t.shape, b[i].shape); assert.ok(bytesOf(t).equals(bytesOf(b[i])), `output ${i} bytes differ (set ${k}, ${r === rt ? 'simd128' : 'scalar'})`); });
    }
    if (k === 0) {
      const want = await ortRun(bytes, feeds);
      const got = execute(rt, fused.holo, ins);
      want.forEach((w, i) => assert.ok(close(got[i].data, w, 1e-4, 1e-5), `output ${i} vs onnxruntime`));
    }
  }
  return { fused, plain, ops: opsOf(fused.graph) };
}

test('fusions: torch-style MLP (Gemm transB=1 + Relu) -> Gemm with Relu fused, no weight layout in the archive, same bytes', async () => {
  for (const [M, K, H, N] of [[1, 7, 13, 3], [5, 17, 9, 10], [64, 33, 65, 8]]) {
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, [M, K]);
    b.init('w1', FLOAT, [H, K], rand(H * K, 0.5)).init('b1', FLOAT, [H], rand(H, 0.1));
    b.init('w2', FLOAT, [N, H], rand(N * H, 0.5)).init('b2', FLOAT, [1, N], rand(N, 0.1));
    b.node('Gemm', ['x', 'w1', 'b1'], ['h1'], { transB: 1 }).node('Relu', ['h1'], ['h2'])
      .node('Gemm', ['h2', 'w2', 'b2'], ['y'], { transB: 1 });
    b.output('y', FLOAT, [M, N]);
    const { ops, fused, plain } = await checkFusion(b.bytes(), { x: { data: rand(M * K), shape: [M, K] } });
    assert.equal(ops, ['Gemm', 'Gemm']);
    assert.equal(opsOf(plain.graph), ['Gemm', 'Relu', 'Gemm']);
    const g1 = fused.graph.nodes[0];
    assert.equal(g1.attrs.find((a) => a.name === 'holo_activation').value, 'Relu');
    assert.equal(g1.attrs.find((a) => a.name === 'transB').value, 1);
    assert.ok(!fused.report.rewrites.some((l) => /pack/.test(l)));
  }
});

test('the archive names no weight layout: 1 or 4 rows of A, the same nodes and attributes (the kernel packs B at run time); same bytes', async () => {
  const graphs = [];
  for (const M of [1, 3, 4]) {
    const [K, H, N] = [40, 70, 33];
    const b = new OnnxBuilder(13);
    b.input('x', FLOAT, [M, K]);
    b.init('w1', FLOAT, [H, K], rand(H * K, 0.5)).init('b1', FLOAT, [H], rand(H, 0.1));
    b.init('w2', FLOAT, [N, H], rand(N * H, 0.5));
    b.node('Gemm', ['x', 'w1', 'b1'], ['h1'], { transB: 1 }).node('Relu', ['h1'], ['h2'])
      .node('Gemm', ['h2', 'w2'], ['y'], { transB: 1 });
    b.output('y', FLOAT, [M, N]);
    const { fused } = await checkFusion(b.bytes(), { x: { data: rand(M * K), shape: [M, K] } });
    graphs.push(fused.graph);
  }
  const nodesOf = (g) => JSON.stringify(g.nodes.map((n) => [n.op, n.attrs, n.inputs.map((i) => i !== null && g.values[i].kind === 'const' ? g.values[i].shape : null)]));
  assert.is(nodesOf(graphs[0]), nodesOf(graphs[1]));
  assert.is(nodesOf(graphs[0]), nodesOf(graphs[2]));
  for (const g of graphs) assert.ok(g.nodes.every((n) => !n.op.startsWith('holo.')), g.nodes.map((n) => n.op).join(' '));
});

test('fusions: MatMul + Add(bias) + Relu (2-D and batched 3-D A, bias [N] and [1,1,N]) -> MatMul(bias, Relu), same bytes', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 3, 12]);
  b.init('w1', FLOAT, [12, 17], rand(204, 0.5)).init('b1', FLOAT, [1, 1, 17], rand(17, 0.1));
  b.init('w2', FLOAT, [17, 9], rand(153, 0.5)).init('b2', FLOAT, [9], rand(9, 0.1));
  b.node('MatMul', ['x', 'w1'], ['h1']).node('Add', ['h1', 'b1'], ['h2']).node('Relu', ['h2'], ['h3'])
    .node('MatMul', ['h3', 'w2'], ['h4']).node('Add', ['h4', 'b2'], ['y']);
  b.output('y', FLOAT, [2, 3, 9]);
  const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(72), shape: [2, 3, 12] } });
  assert.equal(ops, ['MatMul', 'MatMul']);
  assert.equal(fused.graph.nodes[1].inputs.length, 3);
  assert.ok(fused.report.rewrites.some((l) => /fuse-matmul-bias: 2/.test(l)));
  assert.ok(fused.report.rewrites.some((l) => /fuse-relu: 1/.test(l)));
});

test('fusions: MatMul * scalar (either order, [] or [1,1,1]; then bias + Relu) -> MatMul(holo_alpha), attention q k^T scale too; same bytes', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 3, 12]);
  b.init('w1', FLOAT, [12, 17], rand(204, 0.5)).init('b1', FLOAT, [17], rand(17, 0.1)).init('s0', FLOAT, [], [0.3]);
  b.init('w2', FLOAT, [17, 9], rand(153, 0.5)).init('s1', FLOAT, [1, 1, 1], [-1.75]);
  b.node('MatMul', ['x', 'w1'], ['h1']).node('Mul', ['h1', 's0'], ['h2']).node('Add', ['h2', 'b1'], ['h3']).node('Relu', ['h3'], ['h4'])
    .node('MatMul', ['h4', 'w2'], ['h5']).node('Mul', ['s1', 'h5'], ['y']);
  b.output('y', FLOAT, [2, 3, 9]);
  const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(72), shape: [2, 3, 12] } });
  assert.equal(ops, ['MatMul', 'MatMul']);
  const attr = (n, k) => n.attrs.find((a) => a.name === k)?.value;
  assert.is(attr(fused.graph.nodes[0], 'holo_alpha'), Math.fround(0.3));
  assert.is(attr(fused.graph.nodes[0], 'holo_activation'), 'Relu');
  assert.is(fused.graph.nodes[0].inputs.length, 3);
  assert.is(attr(fused.graph.nodes[1], 'holo_alpha'), -1.75);
  assert.ok(fused.report.rewrites.some((l) => /fuse-matmul-scale: 2/.test(l)));

  const a = new OnnxBuilder(13);
  a.input('q', FLOAT, [1, 16, 8]).input('k', FLOAT, [1, 16, 8]);
  a.init('scale', FLOAT, [], [0.125]);
  a.node('Transpose', ['k'], ['kt'], { perm: [0, 2, 1] }).node('MatMul', ['q', 'kt'], ['s']).node('Mul', ['s', 'scale'], ['ss'])
    .node('Softmax', ['ss'], ['y'], { axis: -1 });
  a.output('y', FLOAT, [1, 16, 16]);
  const att = await checkFusion(a.bytes(), { q: { data: rand(128), shape: [1, 16, 8] }, k: { data: rand(128), shape: [1, 16, 8] } });
  assert.equal(att.ops, ['Transpose', 'MatMul', 'Softmax']);
});

test('fusions: a Mul that must stay: a non-scalar or NaN factor, a product used twice, a scalar of higher rank, a MatMul with a bias already', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [3, 12]);
  b.init('w', FLOAT, [12, 5], rand(60, 0.5)).init('w1', FLOAT, [3, 5], rand(15, 1)).init('row', FLOAT, [5], rand(5, 1)).init('hi', FLOAT, [1, 1, 1], [2]);
  b.init('b', FLOAT, [5], rand(5, 0.1)).init('two', FLOAT, [], [2]);
  b.node('MatMul', ['x', 'w'], ['m1']).node('Mul', ['m1', 'w1'], ['y1']);
  b.node('MatMul', ['x', 'w'], ['m2']).node('Mul', ['m2', 'row'], ['y2']);
  b.node('MatMul', ['x', 'w'], ['m3']).node('Mul', ['m3', 'two'], ['y3']);
  b.node('MatMul', ['x', 'w'], ['m4']).node('Mul', ['m4', 'hi'], ['y4']);
  b.node('MatMul', ['x', 'w'], ['m5']).node('Add', ['m5', 'b'], ['m6']).node('Mul', ['m6', 'two'], ['y5']);
  b.output('y1', FLOAT, [3, 5]).output('y2', FLOAT, [3, 5]).output('y3', FLOAT, [3, 5]).output('m3', FLOAT, [3, 5]).output('y4', FLOAT, [1, 3, 5]).output('y5', FLOAT, [3, 5]);
  const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(36), shape: [3, 12] } });
  assert.is(ops.filter((o) => o === 'Mul').length, 5, ops.join(' '));
  assert.ok(!fused.graph.nodes.some((n) => n.attrs.some((a) => a.name === 'holo_alpha')));
  // a NaN factor (its product's NaN payload could depend on the order): kept
  const n = new OnnxBuilder(13);
  n.input('x', FLOAT, [3, 12]);
  n.init('w', FLOAT, [12, 5], rand(60, 0.5)).init('nan', FLOAT, [], [NaN]);
  n.node('MatMul', ['x', 'w'], ['m']).node('Mul', ['m', 'nan'], ['y']);
  n.output('y', FLOAT, [3, 5]);
  assert.equal(opsOf(convert(n.bytes()).graph), ['MatMul', 'Mul']);
});

test('fusions: Conv + Relu -> Conv(holo_activation), MaxPool/Softmax untouched, same bytes', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 3, 9, 7]);
  b.init('w', FLOAT, [5, 3, 3, 3], rand(135, 0.4)).init('c', FLOAT, [5], rand(5, 0.1));
  b.init('w2', FLOAT, [5 * 4 * 3, 6], rand(360, 0.2));
  b.node('Conv', ['x', 'w', 'c'], ['h'], { pads: [1, 1, 1, 1], kernel_shape: [3, 3] }).node('Relu', ['h'], ['r'])
    .node('MaxPool', ['r'], ['p'], { kernel_shape: [2, 2], strides: [2, 2] })
    .node('Flatten', ['p'], ['f'], { axis: 1 }).node('MatMul', ['f', 'w2'], ['m']).node('Softmax', ['m'], ['y'], { axis: -1 });
  b.output('y', FLOAT, [1, 6]);
  const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(189), shape: [1, 3, 9, 7] } });
  assert.equal(ops, ['Conv', 'MaxPool', 'Flatten', 'MatMul', 'Softmax']);
  assert.equal(fused.graph.nodes[0].attrs.find((a) => a.name === 'holo_activation').value, 'Relu');
});

test('fusions: what must not be rewritten is kept (alpha/beta != 1, per-row C, transA, shared Relu input); Add(bias, MatMul) fuses', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [4, 6]);
  b.init('w', FLOAT, [5, 6], rand(30, 0.5)).init('c', FLOAT, [5], rand(5, 0.1)).init('cm', FLOAT, [4, 5], rand(20, 0.1));
  b.init('cr', FLOAT, [4, 1], rand(4, 0.1)).init('wt', FLOAT, [4, 5], rand(20, 0.5)).init('bm', FLOAT, [5], rand(5, 0.1));
  b.node('Gemm', ['x', 'w', 'c'], ['g1'], { transB: 1, alpha: F(0.5) })
    .node('Gemm', ['x', 'w', 'c'], ['g2'], { transB: 1, beta: F(2) })
    .node('Gemm', ['x', 'w', 'cm'], ['g3'], { transB: 1 })
    .node('Gemm', ['x', 'w', 'cr'], ['g4'], { transB: 1 })
    .node('Gemm', ['x', 'wt'], ['g5'], { transA: 1 });
  b.init('wk', FLOAT, [6, 5], rand(30, 0.5));
  b.node('MatMul', ['x', 'wk'], ['m1']).node('Add', ['bm', 'm1'], ['a1']) // bias first: fused too (addition commutes)
    .node('Gemm', ['x', 'w', 'c'], ['g6'], { transB: 1 }).node('Relu', ['g6'], ['r6']).node('Sigmoid', ['g6'], ['s6']);
  for (const o of ['g1', 'g2', 'g3', 'g4', 'g5', 'a1', 'r6', 's6']) b.output(o, FLOAT, null);
  const { ops } = await checkFusion(b.bytes(), { x: { data: rand(24), shape: [4, 6] } });
  assert.equal(ops, ['Gemm', 'Gemm', 'Gemm', 'Gemm', 'Gemm', 'MatMul', 'Gemm', 'Relu', 'Sigmoid']);
});

test('fusions: a shared weight stays one constant; one dispatch per MatMul per call (packing is not a node); fuse:false disables', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [3, 8]);
  b.init('w', FLOAT, [8, 8], rand(64, 0.5));
  b.node('MatMul', ['x', 'w'], ['h']).node('MatMul', ['h', 'w'], ['y']);
  b.output('y', FLOAT, [3, 8]);
  const { fused, plain } = await checkFusion(b.bytes(), { x: { data: rand(24), shape: [3, 8] } });
  assert.equal(opsOf(fused.graph), ['MatMul', 'MatMul']);
  assert.is(fused.graph.values.filter((v) => v.kind === 'const').length, 1);
  assert.equal(opsOf(plain.graph), ['MatMul', 'MatMul']);
  const s = rt.load(fused.holo);
  const d0 = s.counters.dispatches;
  for (let i = 0; i < 3; i++) s.execute([{ data: rand(24), shape: [3, 8] }]);
  assert.is(s.counters.dispatches - d0, 6, 'two MatMul per call, nothing else');
  s.dispose();
});

test('fusions: Conv + Clip(0, 6) (ReLU6), Clip with one bound, Gemm + Clip -> fused holo_activation "Clip", same bytes', async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 3, 9, 8]);
  b.init('w', FLOAT, [6, 3, 3, 3], rand(162, 0.6)).init('c', FLOAT, [6], rand(6, 0.2));
  b.init('dw', FLOAT, [6, 1, 3, 3], rand(54, 0.8)).init('pw', FLOAT, [4, 6, 1, 1], rand(24, 0.8));
  b.init('lo', FLOAT, [], [0]).init('hi', FLOAT, [], [6]).init('hi2', FLOAT, [], [0.25]);
  b.init('wg', FLOAT, [5, 4 * 5 * 4], rand(400, 0.3)).init('cg', FLOAT, [5], rand(5, 0.1));
  b.node('Conv', ['x', 'w', 'c'], ['h'], { pads: [1, 1, 1, 1], kernel_shape: [3, 3], strides: [2, 2] }).node('Clip', ['h', 'lo', 'hi'], ['r'])
    .node('Conv', ['r', 'dw'], ['d'], { pads: [1, 1, 1, 1], kernel_shape: [3, 3], group: 6 }).node('Clip', ['d', '', 'hi2'], ['dr'])
    .node('Conv', ['dr', 'pw'], ['p'], { kernel_shape: [1, 1] })
    .node('Flatten', ['p'], ['f'], { axis: 1 }).node('Gemm', ['f', 'wg', 'cg'], ['g'], { transB: 1 }).node('Clip', ['g', 'lo'], ['y']);
  b.output('y', FLOAT, [1, 5]);
  const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(216, 3), shape: [1, 3, 9, 8] } });
  assert.equal(ops, ['Conv', 'Conv', 'Conv', 'Flatten', 'Gemm']);
  const at = (n, k) => n.attrs.find((a) => a.name === k)?.value;
  const [c0, c1, , , mm] = fused.graph.nodes;
  assert.equal([at(c0, 'holo_activation'), at(c0, 'holo_clip_min'), at(c0, 'holo_clip_max')], ['Clip', 0, 6]);
  assert.equal([at(c1, 'holo_activation'), at(c1, 'holo_clip_min'), at(c1, 'holo_clip_max')], ['Clip', undefined, 0.25]);
  assert.equal([at(mm, 'holo_activation'), at(mm, 'holo_clip_min'), at(mm, 'holo_clip_max')], ['Clip', 0, undefined]);
  assert.ok(fused.report.rewrites.some((l) => /fuse-clip: 3/.test(l)));
});

/** The LayerNorm chain torch exports (opset 18: ReduceMean axes as an input). */
function lnChain(b, x, y, { pow = true, eps = 1e-5, scale = 'g', bias = 'be', commute = false } = {}) {
  b.node('ReduceMean', [x, 'ax'], [`${y}_m`], { keepdims: 1 }).node('Sub', [x, `${y}_m`], [`${y}_d`]);
  if (pow) b.node('Pow', [`${y}_d`, 'two'], [`${y}_p`]); else b.node('Mul', [`${y}_d`, `${y}_d`], [`${y}_p`]);
  b.init(`${y}_eps`, FLOAT, [], [eps]);
  b.node('ReduceMean', [`${y}_p`, 'ax'], [`${y}_v`], { keepdims: 1 }).node('Add', commute ? [`${y}_eps`, `${y}_v`] : [`${y}_v`, `${y}_eps`], [`${y}_ve`])
    .node('Sqrt', [`${y}_ve`], [`${y}_s`]).node('Div', [`${y}_d`, `${y}_s`], [scale || bias ? `${y}_q` : y]);
  if (scale) b.node('Mul', commute ? [scale, `${y}_q`] : [`${y}_q`, scale], [bias ? `${y}_qs` : y]);
  if (bias) b.node('Add', commute ? [bias, scale ? `${y}_qs` : `${y}_q`] : [scale ? `${y}_qs` : `${y}_q`, bias], [y]);
}

test('fusions: exported LayerNorm chains -> holo.LayerNormSteps (Pow or Mul square, scale/bias optional or commuted), same bytes', async () => {
  for (const [R, N] of [[3, 1], [2, 3], [5, 7], [4, 17], [3, 63], [2, 65], [6, 256]]) {
    const b = new OnnxBuilder(18);
    b.input('x', FLOAT, [R, N]);
    b.init('ax', 7, [1], [-1]).init('two', FLOAT, [], [2]);
    b.init('g', FLOAT, [N], rand(N, 1.5)).init('be', FLOAT, [N], rand(N, 0.5)).init('g1', FLOAT, [1], [0.75]);
    lnChain(b, 'x', 'y1');
    lnChain(b, 'y1', 'y2', { pow: false, eps: 1e-3, scale: 'g1', bias: '', commute: true });
    lnChain(b, 'y2', 'y3', { scale: '', bias: 'be', commute: true });
    lnChain(b, 'y3', 'y', { scale: '', bias: '' });
    b.output('y', FLOAT, [R, N]);
    const { ops, fused } = await checkFusion(b.bytes(), { x: { data: rand(R * N, 4), shape: [R, N] } });
    assert.equal(ops, ['holo.LayerNormSteps', 'holo.LayerNormSteps', 'holo.LayerNormSteps', 'holo.LayerNormSteps'], `${R}x${N}`);
    assert.equal(fused.graph.nodes.map((n) => n.inputs.filter((i) => i !== null).length), [3, 2, 2, 1]);
    assert.ok(fused.report.rewrites.some((l) => /fuse-layernorm: 4/.test(l)));
  }
});

test('fusions: LayerNorm chains that must stay (mean over another axis, an intermediate used twice, non-row scale)', async () => {
  const b = new OnnxBuilder(18);
  b.input('x', FLOAT, [3, 5]);
  b.init('ax', 7, [1], [-1]).init('ax0', 7, [1], [0]).init('two', FLOAT, [], [2]).init('g', FLOAT, [3, 5], rand(15));
  b.node('ReduceMean', ['x', 'ax0'], ['m'], { keepdims: 1 }).node('Sub', ['x', 'm'], ['d']).node('Pow', ['d', 'two'], ['p'])
    .node('ReduceMean', ['p', 'ax0'], ['v'], { keepdims: 1 }).node('Sqrt', ['v'], ['s']).node('Div', ['d', 's'], ['y1']);
  b.init('eps', FLOAT, [], [1e-5]);
  b.node('ReduceMean', ['x', 'ax'], ['m2'], { keepdims: 1 }).node('Sub', ['x', 'm2'], ['d2']).node('Pow', ['d2', 'two'], ['p2'])
    .node('ReduceMean', ['p2', 'ax'], ['v2'], { keepdims: 1 }).node('Add', ['v2', 'eps'], ['ve2']).node('Sqrt', ['ve2'], ['s2'])
    .node('Div', ['d2', 's2'], ['q2']).node('Mul', ['q2', 'g'], ['y2']);
  b.output('y1', FLOAT, [3, 5]).output('y2', FLOAT, [3, 5]).output('v2', FLOAT, [3, 1]);
  const { ops } = await checkFusion(b.bytes(), { x: { data: rand(15, 2), shape: [3, 5] } });
  assert.ok(!ops.includes('holo.LayerNormSteps'), ops.join(' '));
});

test('fusion rewrites on the IR: conditions of fuse-matmul-bias / fuse-relu', () => {
  const ir = ir0();
  ir.addConst('w', DT.f32, [4, 3], f32(rand(12)));
  ir.addConst('b', DT.f32, [1, 3], f32(rand(3)));
  ir.addConst('bm', DT.f32, [2, 3], f32(rand(6))); // not a row vector
  node(ir, 'MatMul', ['x', 'w'], ['m'], {}, ['N', 3]);
  node(ir, 'Add', ['m', 'bm'], ['a'], {}, null);
  ir.outputs.push('a');
  assert.is(fuseMatMulBias(ir), 0);
  ir.nodes[1].inputs = ['m', 'b'];
  assert.is(fuseMatMulBias(ir), 1);
  assert.equal(ir.nodes.map((n) => [n.op, n.inputs, n.outputs]), [['MatMul', ['x', 'w', 'b'], ['a']]]);
  node(ir, 'Relu', ['a'], ['r'], {}, ['N', 3]);
  ir.outputs = ['r', 'a'];
  assert.is(fuseRelu(ir), 0, 'the MatMul output is also a graph output');
  ir.outputs = ['r'];
  assert.is(fuseRelu(ir), 1);
  assert.equal(ir.nodes.map((n) => [n.op, n.inputs, n.outputs]), [['MatMul', ['x', 'w', 'b'], ['r']]]);
  assert.equal(ir.nodes[0].attrs, { holo_activation: A.string('Relu') });
});

test.run();
