// The weight layout is the backend's (docs/decisions.md 32): a MatMul / Gemm /
// Conv whose weight is a constant packs it in its kernel, once per session, at
// the first execution -- the archive says only that the operand is constant.
// Checked here on the CPU backend (simd128 and scalar modules):
//   - constant B gives the bytes (and labels) of the same graph with B fed as
//     an input (the unpacked path), for M = 1, 3, 4, 64, N off the 8/32 tile
//     widths, transB, bias, fused activations, batched A;
//   - the packed form is resident (residentBytes) and made once;
//   - a converted model names no layout (no holo.PackB / holo.MatMulPacked);
//   - an archive of the old form (holo.PackB + holo.MatMulPacked, as the
//     converter wrote them before) still runs, with the same bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { convert } from '../../compiler/convert.js';
import { OnnxBuilder, FLOAT } from './onnx-build.mjs';

const rtS = await init(undefined, { variant: 'simd128' });
const rtR = await init(undefined, { variant: 'scalar' });
const RTS = [['simd128', rtS], ['scalar', rtR]];

let seed = 0x2545f491;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n, s = 1) => Float32Array.from({ length: n }, () => rnd() * s);
const numel = (sh) => sh.reduce((a, b) => a * b, 1);
const bytesOf = (t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);

/**
 * One node over `operands` ({ shape, data, constant }): constants are archive
 * constants, the others graph inputs. Returns the archive and its inputs.
 */
function oneNode(op, operands, attrs = {}) {
  const g = new GraphBuilder();
  const inputs = [];
  const ids = operands.map((o, i) => {
    if (!o) return null;
    const dt = o.dtype ?? DT.f32;
    if (o.constant) return g.constant(`c${i}`, dt, o.shape, o.data);
    inputs.push({ data: o.data, shape: o.shape });
    return g.input(`x${i}`, dt, o.shape);
  });
  const [y] = g.node(op, ids, { attrs });
  g.output(y);
  return { holo: writeHolo(g.toJSON()), inputs };
}

/** Executes twice (a second, different input too): outputs, labels, resident bytes. */
function run(rt, { holo, inputs }) {
  const s = rt.load(holo);
  try {
    const r0 = s.residentBytes;
    const [a] = s.executeAddressed(inputs);
    const out = { bytes: Buffer.from(bytesOf(a)), label: a.label, shape: a.shape };
    const grown = s.residentBytes - r0;
    const d0 = s.counters.dispatches;
    const again = inputs.map((x) => ({ data: x.data.map((v, i) => (i === 0 ? v + (x.data instanceof Float32Array ? 0.5 : 1) : v)), shape: x.shape }));
    s.execute(again);
    return { ...out, grown, dispatches: s.counters.dispatches - d0 };
  } finally {
    s.dispose();
  }
}

/** Constant weight vs the same weight as an input: same bytes and labels on both modules; returns the resident growth. */
function sameAsInput(op, operands, attrs, what, constIdx = 1) {
  const asConst = operands.map((o, i) => (o && i >= constIdx ? { ...o, constant: true } : o));
  const grown = {};
  for (const [name, rt] of RTS) {
    const ca = oneNode(op, asConst, attrs);
    const a = run(rt, ca), b = run(rt, oneNode(op, operands, attrs));
    assert.equal(a.shape, b.shape, `${what} ${name} shape`);
    assert.ok(a.bytes.equals(b.bytes), `${what} ${name}: constant weight != weight as an input`);
    assert.is(a.label, b.label, `${what} ${name}: the packing is not in the label`);
    assert.is(a.dispatches, 1, `${what} ${name}: one kernel call per execution, no packing node`);
    // beyond the copied inputs and the output: the packed weight
    grown[name] = a.grown - a.bytes.length - ca.inputs.reduce((t, x) => t + x.data.byteLength, 0);
  }
  return grown;
}

const W = (shape) => ({ shape, data: randf(numel(shape)) });

test('MatMul: constant B gives the bytes of B as an input (M = 1, 3, 4, 64; N off the tiles; bias; Relu/Clip; batched A)', () => {
  for (const M of [1, 3, 4, 64]) for (const [K, N] of [[7, 5], [33, 33], [64, 70], [16, 100], [9, 32]]) {
    sameAsInput('MatMul', [W([M, K]), W([K, N])], {}, `MatMul ${M}x${K}x${N}`);
    sameAsInput('MatMul', [W([M, K]), W([K, N]), W([N])], { holo_activation: 'Relu' }, `MatMul+bias+Relu ${M}x${K}x${N}`);
  }
  sameAsInput('MatMul', [W([2, 3, 17]), W([17, 40]), W([1, 40])], { holo_activation: 'Clip', holo_clip_min: { type: 'float', value: -0.25 } },
    'MatMul batched A + Clip');
  sameAsInput('MatMul', [W([17]), W([17, 33])], {}, 'MatMul 1-D A');
});

test('Gemm: constant B (transB 0/1, bias C, alpha/beta, transA) gives the bytes of B as an input', () => {
  for (const M of [1, 3, 4, 64]) for (const [K, N] of [[7, 5], [40, 33], [64, 70]]) for (const transB of [0, 1]) {
    const b = transB ? [N, K] : [K, N];
    sameAsInput('Gemm', [W([M, K]), W(b), W([N])], { transB }, `Gemm ${M}x${K}x${N} transB=${transB}`);
    sameAsInput('Gemm', [W([M, K]), W(b)], { transB, holo_activation: 'Relu' }, `Gemm+Relu ${M}x${K}x${N} transB=${transB}`);
  }
  sameAsInput('Gemm', [W([9, 6]), W([9, 11]), W([6, 11])], { transA: 1, alpha: { type: 'float', value: 0.5 }, beta: { type: 'float', value: 2 } },
    'Gemm transA, alpha, beta, full C');
});

test('Conv: constant weights give the bytes of weights as an input (im2col, grouped, 1x1, depthwise)', () => {
  const cases = [
    [[1, 3, 20, 20], [16, 3, 3, 3], { pads: [1, 1, 1, 1] }],
    [[2, 8, 12, 12], [12, 4, 3, 3], { group: 2, strides: [2, 2] }],
    [[1, 16, 8, 8], [24, 16, 1, 1], {}],
    [[1, 8, 10, 10], [8, 1, 3, 3], { group: 8, pads: [1, 1, 1, 1] }],
    [[1, 5, 3, 3], [9, 5, 2, 2], {}],
  ];
  for (const [x, w, attrs] of cases)
    sameAsInput('Conv', [W(x), W(w), W([w[0]])], { ...attrs, holo_activation: 'Relu' }, `Conv X${x} W${w}`);
});

test('the packed weight is resident: made at the first execution, once (simd128: Gemm, MatMul, an im2col Conv)', () => {
  // 64 x 512 B: 131072 float bytes; packed, panels of 8 (M = 64) + a 64-byte header
  const g = sameAsInput('Gemm', [W([64, 512]), W([512, 64])], {}, 'Gemm 64x512x64');
  assert.is(g.simd128, 64 + 512 * 64 * 4);
  // M = 1, N = 70: panels of 32 (three: 96 columns)
  const m = sameAsInput('MatMul', [W([1, 20]), W([20, 70])], {}, 'MatMul 1x20x70');
  assert.is(m.simd128, 64 + 96 * 20 * 4);
  // 16 x 27 weights as the core's packed A: 4 strips of 4 rows x 27
  const c = sameAsInput('Conv', [W([1, 3, 20, 20]), W([16, 3, 3, 3])], { pads: [1, 1, 1, 1] }, 'Conv 3->16 3x3');
  assert.is(c.simd128, 64 + 16 * 27 * 4);
  assert.is(c.scalar, 0, 'the scalar core reads no packed A: nothing packed');
});

// Integer operands: u8 / i8 tensors, f32 scales (scalar shape []), i32 bias.
const U8 = (shape) => ({ shape, dtype: DT.u8, data: Uint8Array.from({ length: numel(shape) }, () => Math.floor((rnd() + 1) * 127.5)) });
const I8 = (shape) => ({ shape, dtype: DT.i8, data: Int8Array.from({ length: numel(shape) }, () => Math.round(rnd() * 127)) });
const S = (v) => ({ shape: [], data: Float32Array.of(v) });
const zpU8 = (v) => ({ shape: [], dtype: DT.u8, data: Uint8Array.of(v) });
const zpI8 = (v) => ({ shape: [], dtype: DT.i8, data: Int8Array.of(v) });

// The integer products pack their constant weight too (int16 panels of
// the weight's values, zero point applied at run): made once at the first
// execution, resident, and the bytes and label of the weight as an input.
// Until 2026-12-07 the pack hook failed its own arity check (the runtime
// gives pack no outputs), so every call repacked the weight: 45 % of a
// dynamically quantized decoder's time.
test('integer products pack their constant weights: MatMulInteger, QLinearMatMul, MatMulIntegerToFloat, DynamicQuantizeMatMul, ConvInteger, QLinearConv', () => {
  const [M, K, N] = [5, 40, 70];
  const mm = [
    ['MatMulInteger', [U8([M, K]), I8([K, N]), zpU8(128), zpI8(3)]],
    ['QLinearMatMul', [U8([M, K]), S(0.02), zpU8(128), I8([K, N]), S(0.01), zpI8(0), S(0.05), zpU8(120)]],
    ['holo.MatMulIntegerToFloat', [U8([M, K]), I8([K, N]), S(0.02), S(0.01), zpU8(128), zpI8(2), W([N])]],
    ['holo.DynamicQuantizeMatMul', [W([M, K]), I8([K, N]), S(0.01), zpI8(0), W([N])]],
  ];
  for (const [op, operands] of mm) {
    const g = sameAsInput(op, operands, {}, `${op} ${M}x${K}x${N}`);
    assert.ok(g.simd128 >= 2 * K * N, `${op}: B packed once (int16 panels, ${2 * K * N} B at least), grew ${g.simd128} B`);
  }
  const [C, F, H] = [6, 16, 9];
  const conv = [
    ['ConvInteger', [U8([1, C, H, H]), I8([F, C, 3, 3]), zpU8(100), zpI8(1)]],
    ['QLinearConv', [U8([1, C, H, H]), S(0.02), zpU8(100), I8([F, C, 3, 3]), S(0.01), zpI8(0), S(0.08), zpU8(110),
      { shape: [F], dtype: DT.i32, data: Int32Array.from({ length: F }, (_, i) => i * 7 - 40) }]],
  ];
  for (const [op, operands] of conv) {
    const g = sameAsInput(op, operands, { pads: [1, 1, 1, 1] }, `${op} ${C}->${F} 3x3`);
    assert.ok(g.simd128 >= 2 * F * C * 9, `${op}: W packed once, grew ${g.simd128} B`);
  }
});

test('a converted model names no weight layout: no holo.PackB / holo.MatMulPacked, the bytes of the op-for-op graph', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 24]);
  b.init('w1', FLOAT, [40, 24], randf(960, 0.3)).init('b1', FLOAT, [40], randf(40, 0.1));
  b.init('w2', FLOAT, [40, 33], randf(1320, 0.3)).init('b2', FLOAT, [33], randf(33, 0.1));
  b.node('Gemm', ['x', 'w1', 'b1'], ['h'], { transB: 1 }).node('Relu', ['h'], ['r'])
    .node('MatMul', ['r', 'w2'], ['m']).node('Add', ['m', 'b2'], ['y']);
  b.output('y', FLOAT, [1, 33]);
  const fused = convert(b.bytes()), plain = convert(b.bytes(), { fuse: false });
  const ops = fused.graph.nodes.map((n) => n.op);
  assert.equal(ops, ['Gemm', 'MatMul']);
  assert.ok(!fused.report.rewrites.some((l) => /PackB|MatMulPacked|pack-weights/.test(l)), fused.report.rewrites.join('\n'));
  const x = [{ data: randf(24), shape: [1, 24] }];
  for (const [name, rt] of RTS) {
    const a = run(rt, { holo: fused.holo, inputs: x }), p = run(rt, { holo: plain.holo, inputs: x });
    assert.ok(a.bytes.equals(p.bytes), `${name}: fused != op-for-op`);
  }
});

test('an archive of the old form (holo.PackB nr 8 / 32 + holo.MatMulPacked) still runs, with the bytes of the new form', () => {
  for (const [M, K, N, nr, transB] of [[1, 24, 40, 32, 1], [3, 17, 33, 32, 0], [8, 9, 20, 8, 1]]) {
    const A = randf(M * K), B = randf(K * N), bias = randf(N);
    const Bt = new Float32Array(K * N);
    for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) Bt[j * K + k] = B[k * N + j];
    const wdata = transB ? Bt : B, wshape = transB ? [N, K] : [K, N];
    const old = new GraphBuilder();
    const a = old.input('a', DT.f32, [M, K]);
    const [p] = old.node('holo.PackB', [old.constant('w', DT.f32, wshape, wdata)], { attrs: { ...(transB ? { transB } : {}), ...(nr === 32 ? { nr } : {}) } });
    const [y] = old.node('holo.MatMulPacked', [a, p, old.constant('c', DT.f32, [N], bias)], { attrs: { n: N, holo_activation: 'Relu' } });
    old.output(y);
    const now = new GraphBuilder();
    const [z] = now.node('Gemm', [now.input('a', DT.f32, [M, K]), now.constant('w', DT.f32, wshape, wdata), now.constant('c', DT.f32, [N], bias)],
      { attrs: { transB, holo_activation: 'Relu' } });
    now.output(z);
    for (const [name, rt] of RTS) {
      const o = run(rt, { holo: writeHolo(old.toJSON()), inputs: [{ data: A, shape: [M, K] }] });
      const n = run(rt, { holo: writeHolo(now.toJSON()), inputs: [{ data: A, shape: [M, K] }] });
      assert.ok(o.bytes.equals(n.bytes), `${name} ${M}x${K}x${N} nr=${nr}: old form != new form`);
      assert.is(o.dispatches, 1, 'holo.PackB still runs once, at load');
    }
  }
});

test.run();
