// SIMD128 kernels against the scalar kernels, byte for byte: the same core
// built twice (bindings-js/dist/hologram-simd128.wasm and, with -mno-simd128,
// hologram-scalar.wasm) runs the same small archives (awkward sizes, broadcast
// shapes, NaN/Inf), and the outputs must be the same bytes and carry the same
// labels (the two builds share one byte class, docs/kernels.md). Plus float64
// references within tolerance, and the relaxed-SIMD module (its own identity;
// run in a child node with --experimental-wasm-relaxed-simd).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../bindings-js/index.js';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'bindings-js', 'dist');
const RELAXED_CHILD = process.env.HOLO_RELAXED_CHILD === '1';

const simdBytes = readFileSync(join(DIST, RELAXED_CHILD ? 'hologram-relaxed.wasm' : 'hologram-simd128.wasm'));
const scalarBytes = readFileSync(join(DIST, 'hologram-scalar.wasm'));
const rtS = await init(simdBytes, { variant: RELAXED_CHILD ? 'relaxed' : 'simd128' });
const rtR = await init(scalarBytes, { variant: 'scalar' });

let seed = 0x9e3779b9;
const rnd = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
const randf = (n, s = 1) => Float32Array.from({ length: n }, () => rnd() * s);
const numel = (sh) => sh.reduce((a, b) => a * b, 1);

/** One-node archive: inputs are graph inputs (so the kernel runs at execute). */
function archive(op, shapes, attrs = {}, { dtype = DT.f32, absent = [] } = {}) {
  const g = new GraphBuilder();
  const ins = shapes.map((sh, i) => (absent.includes(i) ? null : g.input(`x${i}`, dtype, sh)));
  const [y] = g.node(op, ins, { attrs });
  g.output(y);
  return writeHolo(g.toJSON());
}

function runOn(rt, holo, inputs) {
  const s = rt.load(holo);
  try {
    const out = s.execute(inputs);
    return { out: out[0], backend: s.backendIdentity, dispatches: s.counters.dispatches };
  } finally {
    s.dispose();
  }
}

const bytesOf = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Runs on both modules; asserts same bytes, same label, same shape; returns the simd output. */
function same(op, shapes, attrs = {}, opts = {}, data) {
  const holo = archive(op, shapes, attrs, opts);
  const inputs = data ?? shapes.filter((_, i) => !(opts.absent ?? []).includes(i)).map((sh) => randf(numel(sh), 2));
  const a = runOn(rtS, holo, inputs), b = runOn(rtR, holo, inputs);
  assert.equal(a.out.shape, b.out.shape, `${op} shape`);
  const ba = bytesOf(a.out.data), bb = bytesOf(b.out.data);
  if (!RELAXED_CHILD || !/^(MatMul|Gemm|Conv|holo\.MatMulPacked|LSTM|GRU|RNN)$/.test(op)) {
    if (!ba.equals(bb)) {
      let i = 0;
      while (i < a.out.data.length && Object.is(a.out.data[i], b.out.data[i])) i++;
      assert.unreachable(`${op} ${JSON.stringify(shapes)} ${JSON.stringify(attrs)}: simd != scalar at element ${i}: ${a.out.data[i]} vs ${b.out.data[i]}`);
    }
    if (!RELAXED_CHILD) assert.is(a.out.label, b.out.label, `${op}: labels differ`);
  }
  return { out: a.out, inputs, ref: b.out };
}

function close(got, want, rtol, atol, what) {
  assert.is(got.length, want.length, `${what}: length`);
  for (let i = 0; i < got.length; i++) {
    const g = got[i], w = want[i];
    if (Number.isNaN(w)) { assert.ok(Number.isNaN(g), `${what}[${i}]: want NaN, got ${g}`); continue; }
    if (!Number.isFinite(w)) { assert.is(g, w, `${what}[${i}]`); continue; }
    if (!(Math.abs(g - w) <= atol + rtol * Math.abs(w))) assert.unreachable(`${what}[${i}]: ${g} vs f64 ${w}`);
  }
}

// f64 references
function mm64(A, B, M, K, N, bias) {
  const Y = new Float64Array(M * N);
  for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
    let s = 0;
    for (let k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
    Y[i * N + j] = s + (bias ? bias[bias.length === 1 ? 0 : j] : 0);
  }
  return Y;
}

const SIZES = [1, 3, 4, 7, 8, 9, 17, 63, 65];
const fl = (value) => ({ type: 'float', value }); // a FLOAT attribute even when integral

test('identities: simd128 and scalar builds share the byte class; relaxed has its own', () => {
  const holo = archive('Relu', [[3]]);
  const a = rtS.load(holo), b = rtR.load(holo);
  if (!RELAXED_CHILD) assert.is(a.backendIdentity, 'hologram-cpu/scalar/1');
  else assert.match(a.backendIdentity, /^hologram-cpu\/relaxed-simd(-unfused)?\/1$/);
  assert.is(b.backendIdentity, 'hologram-cpu/scalar/1');
  a.dispose(); b.dispose();
});

test('MatMul: awkward M,K,N, simd == scalar bytes, f64 within tolerance', () => {
  for (const M of [1, 2, 3, 5, 7, 17]) for (const K of [1, 3, 8, 17, 63]) for (const N of [1, 3, 4, 7, 8, 9, 17, 65]) {
    const { out, inputs } = same('MatMul', [[M, K], [K, N]]);
    close(out.data, mm64(inputs[0], inputs[1], M, K, N), 1e-5, 2e-5 * K, `MatMul ${M}x${K}x${N}`);
  }
});

test('MatMul: batch folding, batch broadcast, 1-D operands, fused bias + Relu', () => {
  same('MatMul', [[2, 3, 5, 7], [7, 9]]);
  same('MatMul', [[2, 1, 5, 7], [3, 7, 9]]);
  same('MatMul', [[5, 7], [4, 7, 9]]);
  same('MatMul', [[7], [7, 9]]);
  same('MatMul', [[3, 7], [7]]);
  same('MatMul', [[33, 65], [65, 17]]);
  for (const [M, K, N] of [[1, 17, 9], [6, 9, 17], [64, 63, 65]]) {
    const { out, inputs } = same('MatMul', [[M, K], [K, N], [N]], { holo_activation: 'Relu' });
    const ref = mm64(inputs[0], inputs[1], M, K, N, inputs[2]).map((v) => (v < 0 ? 0 : v));
    close(out.data, ref, 1e-5, 2e-5 * K, 'MatMul+bias+Relu');
  }
});

test('MatMul + bias + Relu fused gives the bytes of MatMul, Add, Relu', () => {
  const [M, K, N] = [9, 17, 13];
  const inputs = [randf(M * K), randf(K * N), randf(N)];
  const fused = same('MatMul', [[M, K], [K, N], [N]], { holo_activation: 'Relu' }, {}, inputs).out;
  const g = new GraphBuilder();
  const a = g.input('a', DT.f32, [M, K]), b = g.input('b', DT.f32, [K, N]), c = g.input('c', DT.f32, [N]);
  const [m] = g.node('MatMul', [a, b]);
  const [s] = g.node('Add', [m, c]);
  const [r] = g.node('Relu', [s]);
  g.output(r);
  const un = runOn(rtS, writeHolo(g.toJSON()), inputs).out;
  assert.ok(bytesOf(fused.data).equals(bytesOf(un.data)), 'fused != unfused bytes');
});

test('Gemm: transA/transB, alpha/beta, C broadcast shapes', () => {
  for (const [M, K, N] of [[1, 7, 9], [3, 17, 8], [5, 3, 65], [17, 63, 7]]) for (const ta of [0, 1]) for (const tb of [0, 1]) {
    const as = ta ? [K, M] : [M, K], bs = tb ? [N, K] : [K, N];
    for (const cs of [null, [N], [1, N], [M, 1], [M, N], [1]]) {
      const shapes = cs ? [as, bs, cs] : [as, bs];
      same('Gemm', shapes, { transA: ta, transB: tb, alpha: 0.75, beta: 1.5 });
    }
    same('Gemm', [as, bs, [N]], { transA: ta, transB: tb, holo_activation: 'Relu' });
  }
});

test('LSTM, GRU (both linear_before_reset), RNN: per-step GEMMs + cell steps, simd == scalar bytes (ragged H, batch 1 and 9, both directions)', () => {
  const G = { LSTM: 4, GRU: 3, RNN: 1 };
  for (const op of ['LSTM', 'GRU', 'RNN']) for (const [S, B, I, H] of [[5, 1, 7, 33], [3, 9, 17, 8], [4, 2, 3, 5]]) {
    for (const direction of ['forward', 'bidirectional']) {
      const D = direction === 'bidirectional' ? 2 : 1, gh = G[op] * H;
      const shapes = [[S, B, I], [D, gh, I], [D, gh, H], [D, 2 * gh], [1], [D, B, H]];
      for (const lbr of op === 'GRU' ? [0, 1] : [null]) {
        const attrs = { hidden_size: H, direction, layout: 0, ...(lbr === null ? {} : { linear_before_reset: lbr }) };
        same(op, shapes, attrs, { absent: [4] });
      }
    }
  }
});

test('holo.PackB (nr 8 and 32) + holo.MatMulPacked: same bytes as MatMul (+bias, Relu)', () => {
  const cases = [[1, 7, 9], [4, 17, 8], [6, 63, 65], [13, 5, 3], [1, 17, 65], [2, 3, 63], [3, 65, 100], [1, 300, 1], [7, 9, 33]];
  for (const [M, K, N] of cases) for (const tb of [0, 1]) for (const nr of [8, 32]) {
    const A = randf(M * K), B = randf(K * N), bias = randf(N);
    const Bt = new Float32Array(K * N);
    for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) Bt[j * K + k] = B[k * N + j];
    const g = new GraphBuilder();
    const a = g.input('a', DT.f32, [M, K]);
    const w = g.constant('w', DT.f32, tb ? [N, K] : [K, N], tb ? Bt : B);
    const c = g.constant('c', DT.f32, [N], bias);
    const [p] = g.node('holo.PackB', [w], { attrs: { transB: tb, ...(nr === 32 ? { nr } : {}) } });
    const [y] = g.node('holo.MatMulPacked', [a, p, c], { attrs: { n: N, holo_activation: 'Relu' } });
    g.output(y);
    const holo = writeHolo(g.toJSON());
    const s = rtS.load(holo);
    const d0 = s.counters.dispatches;
    const got = s.execute([A])[0];
    assert.is(s.counters.dispatches - d0, 1, 'PackB runs once at load (constant cone), not per call');
    s.dispose();
    const want = same('MatMul', [[M, K], [K, N], [N]], { holo_activation: 'Relu' }, {}, [A, B, bias]).out;
    assert.ok(bytesOf(got.data).equals(bytesOf(want.data)), `packed != MatMul bytes ${M}x${K}x${N} tb=${tb} nr=${nr}`);
    if (!RELAXED_CHILD) assert.ok(bytesOf(runOn(rtR, holo, [A]).out.data).equals(bytesOf(got.data)), 'scalar packed differs');
  }
});

function conv64(X, W, B, [N, C, H, Wd], [M, Cg, kH, kW], { strides = [1, 1], pads = [0, 0, 0, 0], dilations = [1, 1], group = 1 }) {
  const OH = Math.floor((H + pads[0] + pads[2] - dilations[0] * (kH - 1) - 1) / strides[0]) + 1;
  const OW = Math.floor((Wd + pads[1] + pads[3] - dilations[1] * (kW - 1) - 1) / strides[1]) + 1;
  const Mg = M / group, Y = new Float64Array(N * M * OH * OW);
  for (let n = 0; n < N; n++) for (let m = 0; m < M; m++) for (let oh = 0; oh < OH; oh++) for (let ow = 0; ow < OW; ow++) {
    let s = 0;
    const grp = Math.floor(m / Mg);
    for (let c = 0; c < Cg; c++) for (let i = 0; i < kH; i++) for (let j = 0; j < kW; j++) {
      const ih = oh * strides[0] - pads[0] + i * dilations[0], iw = ow * strides[1] - pads[1] + j * dilations[1];
      if (ih < 0 || ih >= H || iw < 0 || iw >= Wd) continue;
      s += X[((n * C + grp * Cg + c) * H + ih) * Wd + iw] * W[((m * Cg + c) * kH + i) * kW + j];
    }
    Y[((n * M + m) * OH + oh) * OW + ow] = s + (B ? B[m] : 0);
  }
  return Y;
}

test('Conv: kernels, strides, pads, dilations, groups, depthwise; bias; fused Relu', () => {
  const cases = [
    [[1, 1, 5, 5], [1, 1, 3, 3], {}],
    [[2, 3, 7, 9], [5, 3, 3, 3], { pads: [1, 1, 1, 1] }],
    [[1, 4, 17, 13], [8, 4, 1, 1], {}],
    [[1, 3, 16, 17], [7, 3, 5, 5], { strides: [2, 2], pads: [2, 1, 2, 1] }],
    [[1, 4, 9, 11], [4, 1, 3, 3], { group: 4, pads: [1, 1, 1, 1] }],
    [[1, 6, 8, 8], [9, 2, 3, 3], { group: 3, dilations: [2, 2], pads: [2, 2, 2, 2] }],
    [[1, 2, 23, 23], [3, 2, 3, 3], { strides: [3, 2] }],
    [[1, 8, 20, 20], [16, 8, 3, 3], { pads: [1, 1, 1, 1] }], // > one im2col chunk
    // weights packed as the core's A (>= 8 rows, >= 128 positions): one chunk,
    // direct 1x1, groups, several chunks with a ragged last 4-row strip
    [[1, 4, 12, 12], [16, 4, 3, 3], { pads: [1, 1, 1, 1] }],
    [[1, 8, 16, 16], [24, 8, 1, 1], {}],
    [[2, 8, 9, 9], [16, 4, 3, 3], { group: 2, pads: [1, 1, 1, 1] }],
    [[1, 6, 30, 30], [10, 6, 3, 3], {}],
    [[1, 5, 16, 12], [13, 5, 1, 1], {}],
  ];
  for (const [xs, ws, attrs] of cases) {
    for (const bias of [false, true]) {
      const shapes = bias ? [xs, ws, [ws[0]]] : [xs, ws];
      const { out, inputs } = same('Conv', shapes, attrs);
      const ref = conv64(inputs[0], inputs[1], bias ? inputs[2] : null, xs, ws, attrs);
      close(out.data, ref, 1e-5, 1e-5 * ws[1] * ws[2] * ws[3], `Conv ${JSON.stringify([xs, ws, attrs])}`);
      const r = same('Conv', shapes, { ...attrs, holo_activation: 'Relu' }, {}, inputs).out;
      close(r.data, ref.map((v) => (v < 0 ? 0 : v)), 1e-5, 1e-5 * ws[1] * ws[2] * ws[3], 'Conv+Relu');
    }
  }
});

test('Conv depthwise (direct kernel): simd == scalar, f64 within tolerance, bytes of the im2col+GEMM path', () => {
  // [X shape, k, attrs]: strides, asymmetric pads, dilations, padding wider than the kernel, OW = 1, rows of padding
  const cases = [
    [[1, 4, 9, 11], 3, { pads: [1, 1, 1, 1] }], [[2, 5, 8, 7], 3, { strides: [2, 2], pads: [1, 0, 2, 1] }],
    [[1, 3, 10, 10], 5, { dilations: [2, 2], pads: [4, 4, 4, 4] }], [[1, 2, 3, 3], 3, { pads: [5, 5, 5, 5] }],
    [[1, 6, 7, 1], 1, {}], [[1, 3, 1, 9], 3, { pads: [1, 1, 1, 1], strides: [1, 3] }],
    [[1, 4, 12, 13], 2, { strides: [3, 2], pads: [0, 1, 1, 0] }], [[1, 17, 14, 14], 3, { pads: [1, 1, 1, 1] }],
  ];
  for (const [xs, k, at] of cases) {
    const C = xs[1], ws = [C, 1, k, k];
    for (const bias of [false, true]) for (const relu of [false, true]) {
      const shapes = bias ? [xs, ws, [C]] : [xs, ws];
      const attrs = { ...at, group: C, ...(relu ? { holo_activation: 'Relu' } : {}) };
      const { out, inputs } = same('Conv', shapes, attrs);
      const ref = conv64(inputs[0], inputs[1], bias ? inputs[2] : null, xs, ws, { ...at, group: C });
      close(out.data, relu ? ref.map((v) => (v < 0 ? 0 : v)) : ref, 1e-5, 1e-5 * k * k, `depthwise ${JSON.stringify([xs, k, at])}`);
      // channel multiplier 2 with duplicated weights runs im2col + the GEMM core; its
      // even channels must be the depthwise output's bytes
      const w2 = new Float32Array(2 * inputs[1].length), b2 = bias ? new Float32Array(2 * C) : null;
      for (let c = 0; c < C; c++) for (const r of [0, 1]) {
        w2.set(inputs[1].subarray(c * k * k, (c + 1) * k * k), (2 * c + r) * k * k);
        if (bias) b2[2 * c + r] = inputs[2][c];
      }
      const g = same('Conv', bias ? [xs, [2 * C, 1, k, k], [2 * C]] : [xs, [2 * C, 1, k, k]], attrs, {}, bias ? [inputs[0], w2, b2] : [inputs[0], w2]).out;
      const plane = out.shape[2] * out.shape[3];
      for (let n = 0; n < xs[0]; n++) for (let c = 0; c < C; c++) {
        const a = out.data.subarray((n * C + c) * plane, (n * C + c + 1) * plane), b = g.data.subarray((n * 2 * C + 2 * c) * plane, (n * 2 * C + 2 * c + 1) * plane);
        assert.ok(bytesOf(a).equals(bytesOf(b)), `depthwise vs GEMM path, channel ${c} of ${JSON.stringify([xs, k, at, bias, relu])}`);
      }
    }
  }
});

test('Binary ops: same shape, scalar, row and column broadcast, odd sizes', () => {
  const shapes = [[[1], [1]], [[7], [7]], [[65], [1]], [[1], [63]], [[3, 17], [17]], [[3, 17], [3, 1]],
    [[2, 3, 9], [2, 1, 9]], [[4, 1, 5], [1, 3, 1]], [[17, 5], [1]], [[129], [129]]];
  for (const op of ['Add', 'Sub', 'Mul', 'Div'])
    for (const sh of shapes) {
      const { out, inputs } = same(op, sh);
      if (sh[0].length === 1 && sh[0][0] === sh[1][0]) {
        const f = { Add: (a, b) => a + b, Sub: (a, b) => a - b, Mul: (a, b) => a * b, Div: (a, b) => a / b }[op];
        for (let i = 0; i < out.data.length; i++) assert.is(out.data[i], Math.fround(f(inputs[0][i], inputs[1][i])), `${op}[${i}]`);
      }
    }
});

test('Relu, Sigmoid, Tanh, Softmax, pools: same bytes; NaN and Inf propagate', () => {
  const special = Float32Array.from([NaN, Infinity, -Infinity, 0, -0, 1e-40, -1e-40, 88.9, -104.5, 3, -3, 0.01]);
  for (const op of ['Relu', 'Sigmoid', 'Tanh'])
    for (const n of [1, 3, 4, 7, 17, 63, 65]) same(op, [[n]]);
  for (const op of ['Relu', 'Sigmoid', 'Tanh']) {
    const out = same(op, [[special.length]], {}, {}, [special]).out.data;
    assert.ok(Number.isNaN(out[0]), `${op}(NaN)`);
  }
  const relu = same('Relu', [[special.length]], {}, {}, [special]).out.data;
  assert.equal(Array.from(relu.slice(1, 5)), [Infinity, 0, 0, -0]);
  for (const sh of [[1, 7], [3, 17], [2, 3, 65], [5, 1]]) same('Softmax', [sh]);
  same('Softmax', [[3, 5, 4]], { axis: 1 });
  const smx = Float32Array.from([1, NaN, 2, 3, 1, 2, Infinity, 0]);
  const so = same('Softmax', [[2, 4]], {}, {}, [smx]).out.data;
  assert.ok(so.slice(0, 4).every(Number.isNaN), 'NaN row');
  for (const [xs, attrs] of [[[1, 3, 9, 9], { kernel_shape: [2, 2], strides: [2, 2] }], [[2, 2, 7, 17], { kernel_shape: [3, 3], pads: [1, 1, 1, 1] }]]) {
    same('MaxPool', [xs], attrs);
    same('AveragePool', [xs], attrs);
    same('AveragePool', [xs], { ...attrs, count_include_pad: 1 });
  }
  same('GlobalAveragePool', [[2, 3, 7, 5]]);
  // MaxPool's SIMD row interior (ops/maxpool2d-f32-simd128.c): strides 1 and
  // 2 along W, pads, dilation, rows of 1..65 columns, windows holding NaN,
  // +0/-0 ties (the first of equal values is kept) and -Inf
  for (const [xs, attrs] of [
    [[1, 2, 9, 33], { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] }],
    [[1, 3, 12, 65], { kernel_shape: [3, 3], strides: [1, 1] }],
    [[2, 1, 7, 17], { kernel_shape: [2, 3], strides: [1, 2], pads: [0, 1, 1, 0] }],
    [[1, 2, 11, 40], { kernel_shape: [3, 2], strides: [2, 1], dilations: [1, 2], pads: [1, 1, 1, 1] }],
    [[1, 1, 5, 1], { kernel_shape: [1, 1] }],
    [[1, 1, 6, 63], { kernel_shape: [5, 5], strides: [2, 2], pads: [2, 2, 2, 2], ceil_mode: 1 }],
    [[1, 1, 4, 24], { kernel_shape: [2, 2], strides: [3, 3] }]]) {
    const n = numel(xs), X = randf(n, 4);
    for (let i = 0; i < n; i += 7) X[i] = [NaN, 0, -0, -Infinity, Infinity, 0, -0][(i / 7) % 7];
    same('MaxPool', [xs], attrs, {}, [X]);
    same('MaxPool', [xs], attrs);
  }
  const zeros = Float32Array.from({ length: 2 * 40 }, (_, i) => (i % 3 ? 0 : -0));
  const mz = same('MaxPool', [[1, 1, 2, 40]], { kernel_shape: [2, 3], strides: [1, 2] }, {}, [zeros]).out.data;
  // every window holds only zeros: the output is its first element, X[0][2*ow]
  assert.ok(mz.every((v, ow) => Object.is(v, (2 * ow) % 3 ? 0 : -0)), 'ties keep the first of equal values');
  const mp = Float32Array.from([NaN, 1, 2, 3]);
  assert.ok(Number.isNaN(same('MaxPool', [[1, 1, 2, 2]], { kernel_shape: [2, 2] }, {}, [mp]).out.data[0]));
});

test('GEMM with NaN and Inf operands: simd == scalar bytes', () => {
  const [M, K, N] = [6, 9, 13];
  const A = randf(M * K), B = randf(K * N);
  A[3] = NaN; A[K + 2] = Infinity; B[5] = -Infinity; B[2 * N + 7] = NaN;
  const y = same('MatMul', [[M, K], [K, N]], {}, {}, [A, B]).out.data;
  assert.ok(Number.isNaN(y[0]), 'NaN row');
  const W = randf(2 * 1 * 3 * 3); W[0] = Infinity;
  same('Conv', [[1, 1, 4, 4], [2, 1, 3, 3]], { pads: [1, 1, 1, 1] }, {}, [randf(16), W]);
});

test('GEMM with long K (257..1024) and ragged tiles: simd == scalar, f64 within tolerance; packed + bias + Clip', () => {
  for (const [M, K, N] of [[5, 257, 17], [17, 300, 9], [1, 513, 33], [3, 1024, 65], [65, 600, 7], [4, 256, 8], [7, 1023, 12]]) {
    const { out, inputs } = same('MatMul', [[M, K], [K, N]]);
    close(out.data, mm64(inputs[0], inputs[1], M, K, N), 1e-5, 3e-6 * K, `MatMul ${M}x${K}x${N}`);
    // packed B, fused bias + Clip in the epilogue
    const g = new GraphBuilder();
    const a = g.input('a', DT.f32, [M, K]), bb = g.input('b', DT.f32, [K, N]), bias = g.input('c', DT.f32, [N]);
    const [bp] = g.node('holo.PackB', [bb]);
    const [y] = g.node('holo.MatMulPacked', [a, bp, bias], { attrs: { n: N, holo_activation: 'Clip', holo_clip_min: fl(-0.5), holo_clip_max: fl(0.75) } });
    g.output(y);
    const c = randf(N);
    const holo = writeHolo(g.toJSON());
    const p = runOn(rtS, holo, [inputs[0], inputs[1], c]).out, q = runOn(rtR, holo, [inputs[0], inputs[1], c]).out;
    if (!RELAXED_CHILD) assert.ok(bytesOf(p.data).equals(bytesOf(q.data)), `MatMulPacked+Clip ${M}x${K}x${N}`);
    const ref = mm64(inputs[0], inputs[1], M, K, N, c).map((v) => Math.min(Math.max(v, -0.5), 0.75));
    close(p.data, ref, 1e-5, 3e-6 * K, `MatMulPacked+Clip ${M}x${K}x${N}`);
  }
});

test('fused Clip epilogue (holo_clip_min / holo_clip_max, either optional) = the Clip kernel on the unfused value, NaN and -0 kept', () => {
  const cl = (v, lo, hi) => { if (lo !== undefined && v < lo) v = lo; if (hi !== undefined && v > hi) v = hi; return v; };
  for (const [lo, hi] of [[0, 6], [undefined, 0.25], [-0.5, undefined], [0.3, -0.3]]) {
    const act = { holo_activation: 'Clip', ...(lo !== undefined ? { holo_clip_min: fl(lo) } : {}), ...(hi !== undefined ? { holo_clip_max: fl(hi) } : {}) };
    for (const [M, K, N] of [[1, 3, 7], [3, 17, 65], [9, 63, 4]]) {
      const A = randf(M * K, 3), B = randf(K * N, 3);
      A[0] = NaN; if (A.length > 4) A[4] = Infinity;
      const y = same('MatMul', [[M, K], [K, N]], act, {}, [A, B]).out.data;
      const plain = same('MatMul', [[M, K], [K, N]], {}, {}, [A, B]).out.data;
      const want = same('Clip', [[M * N], [], []], {}, { absent: [lo === undefined ? 1 : -1, hi === undefined ? 2 : -1] },
        [plain, ...(lo !== undefined ? [Float32Array.of(lo)] : []), ...(hi !== undefined ? [Float32Array.of(hi)] : [])]).out.data;
      assert.ok(bytesOf(y).equals(bytesOf(want)), `MatMul+Clip ${JSON.stringify([lo, hi, M, K, N])} vs MatMul then Clip`);
      for (let i = 0; i < y.length; i++) if (!Number.isNaN(plain[i])) assert.is(y[i], Math.fround(cl(plain[i], lo === undefined ? undefined : Math.fround(lo), hi === undefined ? undefined : Math.fround(hi))));
    }
    same('Gemm', [[5, 7], [9, 7], [9]], { transB: 1, ...act });
    same('Conv', [[1, 3, 9, 9], [4, 3, 3, 3], [4]], { pads: [1, 1, 1, 1], ...act });
    same('Conv', [[1, 5, 9, 7], [5, 1, 3, 3], [5]], { pads: [1, 1, 1, 1], group: 5, ...act });
  }
  const holo = archive('Conv', [[1, 1, 3, 3], [1, 1, 1, 1]], { holo_activation: 'Softsign' });
  assert.throws(() => runOn(rtS, holo, [randf(9), randf(1)]), /holo_activation must be/);
});

test('1x1 stride-1 Conv runs the GEMM on X directly: bytes of MatMul(W, X) per image, simd == scalar', () => {
  for (const [N, C, H, W, M] of [[1, 16, 8, 8, 24], [2, 7, 4, 9, 5], [1, 3, 1, 4, 65], [1, 33, 5, 5, 9], [1, 960, 2, 2, 17]]) {
    const xs = [N, C, H, W], ws = [M, C, 1, 1];
    for (const bias of [false, true]) {
      const { out, inputs } = same('Conv', bias ? [xs, ws, [M]] : [xs, ws]);
      const ref = conv64(inputs[0], inputs[1], bias ? inputs[2] : null, xs, ws, {});
      close(out.data, ref, 1e-5, 1e-5 * C, `1x1 Conv ${JSON.stringify(xs)}`);
      if (bias) continue;
      const P = H * W;
      for (let n = 0; n < N; n++) {
        const mm = same('MatMul', [[M, C], [C, P]], {}, {}, [inputs[1], inputs[0].slice(n * C * P, (n + 1) * C * P)]).out.data;
        assert.ok(bytesOf(out.data.subarray(n * M * P, (n + 1) * M * P)).equals(bytesOf(mm)), `1x1 Conv = MatMul ${JSON.stringify(xs)} image ${n}`);
      }
    }
  }
});

test('Conv depthwise SIMD path: large and tiny planes, stride 2 on odd widths, Inf/NaN weights beside padding, Clip', () => {
  const cases = [
    [[1, 3, 112, 112], 3, { pads: [1, 1, 1, 1] }], [[1, 4, 113, 57], 3, { strides: [2, 2], pads: [1, 1, 1, 1] }],
    [[1, 9, 7, 7], 3, { pads: [1, 1, 1, 1] }], [[2, 3, 5, 6], 3, { strides: [2, 2], pads: [0, 1, 1, 0] }],
    [[1, 2, 9, 10], 5, { strides: [1, 2], pads: [2, 2, 2, 2] }], [[1, 2, 6, 5], 3, { dilations: [1, 2], pads: [1, 2, 1, 2] }],
    [[1, 13, 4, 3], 3, { pads: [3, 3, 3, 3] }],
  ];
  for (const [xs, k, at] of cases) {
    const C = xs[1], ws = [C, 1, k, k];
    for (const act of [{}, { holo_activation: 'Clip', holo_clip_min: fl(0), holo_clip_max: fl(6) }]) {
      const { out, inputs } = same('Conv', [xs, ws, [C]], { ...at, group: C, ...act });
      let ref = conv64(inputs[0], inputs[1], inputs[2], xs, ws, { ...at, group: C });
      if (act.holo_activation) ref = ref.map((v) => Math.min(Math.max(v, 0), 6));
      close(out.data, ref, 1e-5, 1e-5 * k * k, `depthwise ${JSON.stringify([xs, k, at, act])}`);
    }
  }
  // an infinite weight next to zero padding gives NaN (w * 0) at the border, as the GEMM path does
  const W = randf(2 * 9); W[0] = Infinity; W[9 + 4] = NaN;
  const X = randf(2 * 25); X[7] = -Infinity;
  const y = same('Conv', [[1, 2, 5, 5], [2, 1, 3, 3]], { pads: [1, 1, 1, 1], group: 2 }, {}, [X, W]).out.data;
  assert.ok(Number.isNaN(y[0]), 'corner output touches padding with an Inf weight');
  assert.ok(y.subarray(25).every(Number.isNaN), 'a NaN centre weight makes every output NaN');
});

test('Softmax SIMD rows (exp on 4 lanes = holo_expf): lengths 1..129, wide ranges, NaN/Inf/-0 rows', () => {
  for (const n of [1, 3, 4, 7, 8, 17, 63, 64, 65, 128, 129]) {
    same('Softmax', [[5, n]]);
    same('Softmax', [[3, n]], {}, {}, [randf(3 * n, 120)]); // exps that underflow to 0 and near 88.8
  }
  // every special value in a row of a SIMD-width multiple, and in the scalar tail
  const sp = [NaN, Infinity, -Infinity, 0, -0, 1e-40, -1e-40, 88.7, 88.9, -103.9, -104.1, 3, -3, 1e30, -1e30, 50];
  for (const v of sp) {
    const row = Float32Array.from({ length: 9 }, (_, i) => (i === 6 ? v : (i % 3) - 1));
    const o = same('Softmax', [[1, 9]], {}, {}, [row]).out.data;
    if (Number.isNaN(v) || v === Infinity) assert.ok(o.every(Number.isNaN), `row with ${v}`);
    else {
      const mx = Math.max(...row), e = Array.from(row, (x) => Math.exp(x - mx)), s = e.reduce((a, b) => a + b, 0);
      close(o, e.map((x) => x / s), 1e-6, 1e-7, `softmax row with ${v}`);
    }
  }
  // x - max over a full range of exp arguments: the vector exp against the scalar one, lane by lane
  const wide = Float32Array.from({ length: 4096 }, (_, i) => -110 + (i * 199.3) / 4096);
  wide[0] = 88.8; // the row max: arguments run from about -199 to 0
  same('Softmax', [[1, 4096]], {}, {}, [wide]);
  const wide2 = Float32Array.from({ length: 4096 }, (_, i) => ((i * 2654435761) % 4096) / 4096 * 30 - 15);
  same('Softmax', [[64, 64]], {}, {}, [wide2]);
});

test('holo.LayerNormSteps: the unfused chain\'s bytes (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add), f64 within tolerance', () => {
  for (const n of [1, 3, 4, 7, 17, 63, 65, 256]) {
    for (const [hasS, hasB, sN, bN] of [[true, true, n, n], [true, false, 1, 0], [false, true, 0, 1], [false, false, 0, 0], [true, true, 1, n]]) {
      const R = 3, eps = 1e-5;
      const X = randf(R * n, 5);
      if (n > 3) { X[2] = NaN; X[n + 1] = Infinity; X[2 * n + 3] = -0; }
      const S = randf(Math.max(sN, 1), 2), B = randf(Math.max(bN, 1));
      const ins = [X, ...(hasS ? [S] : []), ...(hasB ? [B] : [])];
      const g = new GraphBuilder();
      const x = g.input('x', DT.f32, [R, n]);
      const s = hasS ? g.input('s', DT.f32, [sN]) : null, b = hasB ? g.input('b', DT.f32, [bN]) : null;
      const [y] = g.node('holo.LayerNormSteps', [x, s, b], { attrs: { epsilon: fl(eps) } });
      g.output(y);
      const fused = writeHolo(g.toJSON());
      // the chain it stands for
      const h = new GraphBuilder();
      const hx = h.input('x', DT.f32, [R, n]);
      const hs = hasS ? h.input('s', DT.f32, [sN]) : null, hb = hasB ? h.input('b', DT.f32, [bN]) : null;
      const ax = h.constant('ax', DT.i64, [1], new BigInt64Array([-1n]));
      const [m] = h.node('ReduceMean', [hx, ax], { attrs: { keepdims: 1 } });
      const [d] = h.node('Sub', [hx, m]);
      const [p] = h.node('Pow', [d, h.constant('two', DT.f32, [], Float32Array.of(2))]);
      const [v] = h.node('ReduceMean', [p, ax], { attrs: { keepdims: 1 } });
      const [ve] = h.node('Add', [v, h.constant('eps', DT.f32, [], Float32Array.of(eps))]);
      const [sq] = h.node('Sqrt', [ve]);
      let [q] = h.node('Div', [d, sq]);
      if (hasS) [q] = h.node('Mul', [q, hs]);
      if (hasB) [q] = h.node('Add', [q, hb]);
      h.output(q);
      const chain = writeHolo(h.toJSON());
      const a = runOn(rtS, fused, ins).out, c = runOn(rtR, fused, ins).out, u = runOn(rtR, chain, ins).out;
      assert.ok(bytesOf(a.data).equals(bytesOf(c.data)), `LayerNormSteps simd == scalar n=${n}`);
      assert.ok(bytesOf(a.data).equals(bytesOf(u.data)), `LayerNormSteps == chain n=${n} ${[hasS, hasB, sN, bN]}`);
      const ref = new Float64Array(R * n);
      for (let r = 0; r < R; r++) {
        const row = Array.from(X.subarray(r * n, (r + 1) * n));
        const mu = row.reduce((q0, t) => q0 + t, 0) / n, va = row.reduce((q0, t) => q0 + (t - mu) ** 2, 0) / n;
        row.forEach((t, i) => { ref[r * n + i] = ((t - mu) / Math.sqrt(va + Math.fround(eps))) * (hasS ? S[sN === 1 ? 0 : i] : 1) + (hasB ? B[bN === 1 ? 0 : i] : 0); });
      }
      close(a.data, ref, 1e-4, n === 1 ? 1e-2 : 1e-4, `LayerNormSteps f64 n=${n}`);
    }
  }
  const bad = archive('holo.LayerNormSteps', [[2, 5], [4]], { epsilon: 1e-5 });
  assert.throws(() => runOn(rtS, bad, [randf(10), randf(4)]), /Scale/);
});

test('merged broadcast walk, Reduce runs, LayerNormalization, Transpose tiles, GAP: simd == scalar bytes', () => {
  // per-channel NCHW (squeeze-excite), channel bias, plane over channels, dims of 1
  for (const sh of [[[2, 5, 3, 7], [2, 5, 1, 1]], [[1, 6, 9, 9], [6, 1, 1]], [[1, 3, 5, 5], [1, 1, 5, 5]], [[3, 1, 4, 1, 9], [1, 1, 4, 1, 1]]])
    for (const op of ['Add', 'Sub', 'Mul', 'Div']) same(op, sh);
  const X = randf(3 * 5 * 7 * 6, 4);
  X[3] = NaN; X[40] = Infinity; X[41] = -Infinity; X[77] = -0;
  for (const op of ['ReduceSum', 'ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceSumSquare', 'ReduceL1', 'ReduceL2'])
    for (const axes of [[3], [2, 3], [0], [1], [0, 1], [1, 2], [0, 2]]) {
      const g = new GraphBuilder();
      const x = g.input('x', DT.f32, [3, 5, 7, 6]);
      const [y] = g.node(op, [x, g.constant('ax', DT.i64, [axes.length], BigInt64Array.from(axes.map(BigInt)))], { attrs: { keepdims: 0 } });
      g.output(y);
      const holo = writeHolo(g.toJSON());
      const a = runOn(rtS, holo, [X]).out, b = runOn(rtR, holo, [X]).out;
      assert.ok(bytesOf(a.data).equals(bytesOf(b.data)), `${op} axes ${axes}`);
    }
  for (const [xs, ss] of [[[5, 96], [96]], [[2, 3, 17], [17]], [[7, 4, 5], [4, 5]], [[6, 9], [1]]]) {
    const n = numel(ss);
    same('LayerNormalization', [xs, ss, ss], { axis: xs.length - ss.length });
    same('LayerNormalization', [xs, ss], { axis: -ss.length }, {}, [randf(numel(xs), 3), randf(n)]);
  }
  for (const [xs, perm] of [[[1, 6, 7, 9], [0, 2, 3, 1]], [[1, 7, 9, 6], [0, 3, 1, 2]], [[13, 11], [1, 0]], [[2, 5, 1, 8], [3, 0, 2, 1]]])
    same('Transpose', [xs], { perm });
  for (const xs of [[1, 13, 7, 7], [2, 5, 3, 3], [1, 4, 1, 1]]) same('GlobalAveragePool', [xs]);
});

test('Slice with a unit last step copies runs: same bytes as the element walk (negative outer steps, offsets)', () => {
  const X = randf(4 * 6 * 10);
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [4, 6, 10]);
  const c = (name, a) => g.constant(name, DT.i64, [a.length], BigInt64Array.from(a.map(BigInt)));
  const [y] = g.node('Slice', [x, c('st', [3, 1, 2]), c('en', [0, 6, 9]), c('ax', [0, 1, 2]), c('sp', [-1, 2, 1])]);
  g.output(y);
  const holo = writeHolo(g.toJSON());
  const a = runOn(rtS, holo, [X]).out, b = runOn(rtR, holo, [X]).out;
  assert.equal(a.shape, [3, 3, 7]);
  assert.ok(bytesOf(a.data).equals(bytesOf(b.data)));
  let k = 0;
  for (let i = 3; i > 0; i--) for (let j = 1; j < 6; j += 2) for (let l = 2; l < 9; l++) assert.is(a.data[k++], X[(i * 6 + j) * 10 + l]);
});

if (!RELAXED_CHILD) {
  test('relaxed-SIMD module: runs under --experimental-wasm-relaxed-simd, own identity, close to scalar', () => {
    if (!existsSync(join(DIST, 'hologram-relaxed.wasm'))) assert.unreachable('hologram-relaxed.wasm not built');
    const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', fileURLToPath(import.meta.url)], {
      encoding: 'utf8', env: { ...process.env, HOLO_RELAXED_CHILD: '1', FORCE_COLOR: '0' }, timeout: 120000,
    });
    const out = (r.stdout ?? '') + (r.stderr ?? '');
    assert.is(r.status, 0, out.slice(-3000));
    assert.match(out, /Passed:\s+\d+/);
  });
} else {
  test('relaxed GEMM is within float tolerance of the f64 reference', () => {
    for (const [M, K, N] of [[1, 63, 65], [17, 64, 33]]) {
      const { out, inputs } = same('MatMul', [[M, K], [K, N]]);
      close(out.data, mm64(inputs[0], inputs[1], M, K, N), 1e-5, 2e-5 * K, 'relaxed MatMul');
    }
  });
}

test.run();
