// Decision 72: DynamicQuantizeLinear as one backend node
// (operators/qlinear-quant.c) and the dynamically quantized linear layer
// fused onto holo.MatMulIntegerToFloat / holo.DynamicQuantizeMatMul
// (compiler/rewrites/fuse-qmatmul-float.js, operators/matmul-integer.c).
// Both must give the bytes of what they replace, so both are compared with
// it bit for bit: the kernel with the lowering it implements spelled out as
// ONNX ops (ReduceMin ... Cast, onnx-ops-quant.js lowerDynamicQuantize;
// tests/js/convert-quant.test.mjs holds that chain against onnxruntime),
// over inputs with NaN, infinities, subnormal ranges, one sign only and .5
// ties; the fused layers with the same model converted with fuse: false.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT } from './onnx-build.mjs';

const rt = await init();
const U8 = 2, I8 = 3;
const numel = (s) => s.reduce((a, d) => a * d, 1);
let seed = 11;
const next = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
const ints = (dt, n) => Array.from({ length: n }, () => (dt === U8 ? next() >>> 24 : (next() >>> 24) - 128));
const floats = (n, amp = 1, shift = 0) => Float32Array.from({ length: n }, () => ((next() >>> 8) / 2 ** 24 - 0.5) * 2 * amp + shift);
const bits = (t) => [...new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)];

function run(holo, feeds) {
  const h = rt.load(holo);
  try {
    return h.run(feeds);
  } finally {
    h.dispose();
  }
}

/** DynamicQuantizeLinear's lowering (onnx-ops-quant.js) written out as ONNX ops, opset 18. */
function chainModel(xs) {
  const b = new OnnxBuilder(18);
  b.input('x', FLOAT, xs);
  for (const [k, v] of Object.entries({ f0: 0, f1: 1, f255: 255, fh: 0.5 })) b.init(k, FLOAT, [], [v]);
  const n = (op, ins, out, attrs = {}) => b.node(op, ins, [out], attrs);
  n('ReduceMin', ['x'], 'rmin', { keepdims: 0 }); n('Min', ['rmin', 'f0'], 'mn');
  n('ReduceMax', ['x'], 'rmax', { keepdims: 0 }); n('Max', ['rmax', 'f0'], 'mx');
  n('Sub', ['mx', 'mn'], 'range'); n('Equal', ['range', 'f0'], 'empty'); n('Div', ['range', 'f255'], 'r255');
  n('Where', ['empty', 'f1', 'r255'], 's');
  n('Div', ['mn', 's'], 'ms'); n('Neg', ['ms'], 'nms'); n('Clip', ['nms', 'f0', 'f255'], 'z0');
  n('Floor', ['z0'], 'fl'); n('Sub', ['z0', 'fl'], 'fr'); n('GreaterOrEqual', ['fr', 'fh'], 'up'); n('Ceil', ['z0'], 'ce');
  n('Where', ['up', 'ce', 'fl'], 'zf');
  n('Div', ['x', 's'], 'xs'); n('Round', ['xs'], 'xr'); n('Add', ['xr', 'zf'], 'q');
  n('Cast', ['q'], 'y', { to: U8 }); n('Cast', ['zf'], 'z', { to: U8 });
  b.output('y', U8, null).output('s', FLOAT, null).output('z', U8, null);
  return b.bytes();
}

function dqlModel(xs) {
  const b = new OnnxBuilder(18);
  b.input('x', FLOAT, xs);
  b.node('DynamicQuantizeLinear', ['x'], ['y', 's', 'z']);
  b.output('y', U8, null).output('s', FLOAT, null).output('z', U8, null);
  return b.bytes();
}

test('DynamicQuantizeLinear: the one-node kernel gives its lowered chain\'s bytes, edge inputs included', () => {
  const f = (a) => Float32Array.from(a);
  const cases = [
    floats(24, 1), floats(24, 3, 0.5), floats(7, 1, -2), floats(9, 1, 2), f([0, 0, 0, 0]), f([-0, 0, -0]),
    f([1e-45, -1e-45, 0]), f([1e-40, 3e-41]), f([-2e-44, 1e-45]), f([NaN, 1, 2]), f([1, NaN]), f([Infinity, 1, -1]),
    f([-Infinity, 2, 0.5]), f([-Infinity, Infinity]), f([3.4e38, -3.4e38, 1]), f([255, -0.5, 127.5, 1.5, 2.5]),
    f([-255, 0.5, -127.5, -1.5]), f([1, 2, 3]), f([-1, -2, -3]), f([5]), f([-5]),
    floats(1000, 100), floats(513, 1e-30), f([0.1, 0.2, 0.3, -0.7, 2.55, -2.55]),
  ];
  const chain = new Map(), kernel = new Map();
  for (const x of cases) {
    const xs = [x.length];
    if (!chain.has(x.length)) {
      const c = convert(chainModel(xs)), k = convert(dqlModel(xs));
      assert.ok(!c.graph.nodes.some((n) => n.op === 'DynamicQuantizeLinear'), 'the chain stays a chain');
      assert.equal(k.graph.nodes.map((n) => n.op), ['DynamicQuantizeLinear']);
      chain.set(x.length, c.holo); kernel.set(x.length, k.holo);
    }
    const want = run(chain.get(x.length), { x: { data: x, shape: xs } });
    const got = run(kernel.get(x.length), { x: { data: x, shape: xs } });
    const what = `x = [${[...x.slice(0, 6)]}${x.length > 6 ? ', ...' : ''}]`;
    assert.equal(bits(got.y), bits(want.y), `${what}: y`);
    assert.equal(got.z.data[0], want.z.data[0], `${what}: zero point`);
    const gs = got.s.data[0], ws = want.s.data[0];
    // a NaN scale is NaN on both sides (its payload is wasm's to choose)
    assert.ok(Number.isNaN(ws) ? Number.isNaN(gs) : bits(got.s).join() === bits(want.s).join(), `${what}: scale ${gs} vs ${ws}`);
  }
});

/**
 * The quantized linear layer: A (DynamicQuantizeLinear of x, or a u8 input
 * with a scale input), MatMulInteger, Cast, Mul(Mul(a_scale, b_scale)), bias.
 */
function layer({ M, K, N, batch = [1], bdt = I8, zb = 'scalar', bs = 'scalar', bias = 'after', dql = true, swap = false }) {
  const b = new OnnxBuilder(13);
  const as = [...batch, M, K];
  if (dql) {
    b.input('x', FLOAT, as);
    b.node('DynamicQuantizeLinear', ['x'], ['q', 'qs', 'qz']);
  } else {
    b.input('q', U8, as).input('qs', FLOAT, []).input('qz', U8, []);
  }
  b.init('w', bdt, [K, N], ints(bdt, K * N));
  const zn = zb === 'col' ? [N] : [];
  if (zb) b.init('wz', bdt, zn, ints(bdt, numel(zn)));
  const sn = bs === 'col' ? [N] : [];
  b.init('ws', FLOAT, sn, [...floats(numel(sn), 0.02, 0.03)]);
  b.node('MatMulInteger', ['q', 'w', 'qz', ...(zb ? ['wz'] : [])], ['acc']);
  b.node('Cast', ['acc'], ['accf'], { to: FLOAT });
  b.node('Mul', swap ? ['ws', 'qs'] : ['qs', 'ws'], ['s']);
  b.node('Mul', swap ? ['s', 'accf'] : ['accf', 's'], [bias ? 'p' : 'y']);
  if (bias) {
    b.init('bias', FLOAT, bias === 'one' ? [1] : [N], [...floats(bias === 'one' ? 1 : N, 1)]);
    b.node('Add', bias === 'first' ? ['bias', 'p'] : ['p', 'bias'], ['y']);
  }
  b.output('y', FLOAT, null);
  return { bytes: b.bytes(), as };
}

test('the fused quantized layer gives the unfused chain\'s bytes (u8/i8 B, zero points, scales, bias, batch, M = 1)', () => {
  const cases = [
    { M: 4, K: 128, N: 40 }, { M: 1, K: 64, N: 24, bdt: U8 }, { M: 3, K: 33, N: 13, zb: 'col', bs: 'col' },
    { M: 5, K: 16, N: 8, bdt: U8, zb: null, bias: 'first' }, { M: 2, K: 7, N: 9, bias: null, swap: true },
    { M: 6, K: 20, N: 17, batch: [2, 3], bias: 'one' }, { M: 4, K: 24, N: 16, dql: false, bs: 'col' },
    { M: 1, K: 9, N: 5, dql: false, bdt: U8, zb: 'col', bias: null },
  ];
  for (const c of cases) {
    const { bytes, as } = layer(c);
    const fused = convert(bytes), plain = convert(bytes, { fuse: false });
    const want = c.dql ?? true ? 'holo.DynamicQuantizeMatMul' : 'holo.MatMulIntegerToFloat';
    assert.equal(fused.graph.nodes.map((n) => n.op), [want], JSON.stringify(c));
    assert.ok(plain.graph.nodes.some((n) => n.op === 'MatMulInteger'), 'fuse: false keeps the chain');
    const feeds = c.dql ?? true
      ? { x: { data: floats(numel(as), 2, 0.3), shape: as } }
      : { q: { data: Uint8Array.from(ints(U8, numel(as))), shape: as }, qs: { data: Float32Array.of(0.0137), shape: [] }, qz: { data: Uint8Array.of(121), shape: [] } };
    const a = run(fused.holo, feeds).y, b = run(plain.holo, feeds).y;
    assert.equal([...a.shape], [...b.shape], `${JSON.stringify(c)}: shape`);
    assert.equal(bits(a), bits(b), `${JSON.stringify(c)}: bytes`);
  }
});

test('left as it is: the sums read twice, a scale that is not per column, a Cast to another type', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 4, 8]);
  b.node('DynamicQuantizeLinear', ['x'], ['q', 'qs', 'qz']);
  b.init('w', I8, [8, 6], ints(I8, 48)).init('ws', FLOAT, [4, 1], [0.1, 0.2, 0.3, 0.4]);
  b.node('MatMulInteger', ['q', 'w', 'qz'], ['acc']);
  b.node('Cast', ['acc'], ['accf'], { to: FLOAT });
  b.node('Mul', ['accf', 'ws'], ['y']);
  b.output('y', FLOAT, null);
  assert.ok(convert(b.bytes()).graph.nodes.some((n) => n.op === 'MatMulInteger'), 'a [4, 1] scale (per row) is not fused');
  const c = new OnnxBuilder(13);
  c.input('x', FLOAT, [1, 4, 8]);
  c.node('DynamicQuantizeLinear', ['x'], ['q', 'qs', 'qz']);
  c.init('w', I8, [8, 6], ints(I8, 48));
  c.node('MatMulInteger', ['q', 'w', 'qz'], ['acc']);
  c.node('Cast', ['acc'], ['accf'], { to: FLOAT });
  c.node('Mul', ['accf', 'qs'], ['y']);
  c.output('y', FLOAT, null).output('acc', 6, null);
  const g = convert(c.bytes()).graph;
  assert.ok(g.nodes.some((n) => n.op === 'MatMulInteger'), 'sums that are a graph output stay');
});

test.run();
