// The converter's control-flow constructs (compiler/onnx-ops-control.js,
// control-graphs.js, emit-graphs.js; docs/decisions.md 53): ONNX If, Loop and
// Scan it cannot inline become nested graphs the runtime executes. Each case
// is an ONNX model converted and run against onnxruntime-node on several
// inputs: a Loop whose trip count and condition are both run-time inputs,
// with a carried value that grows (and a Shape of it the converter must not
// fold as the first iteration's), a scan output, zero iterations and a nested
// If on a run-time condition whose branch may fail (a construct inside a
// construct); a Scan over a length known only at run time, reversed and on
// another axis, lowered onto the Loop construct (length 0 refused); the memo
// (a repeated call is one memo hit); the scalar core and 2 threads give the
// simd128 bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init, load } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, BOOL, G, rand } from './onnx-build.mjs';

const rt = await init(undefined, { variant: 'simd128' });
const ORT_TYPE = { [FLOAT]: 'float32', [INT64]: 'int64', [BOOL]: 'bool' };

/** Runs `bytes` on onnxruntime and `hs` (the converted archive's session) with `feeds` ({name: {type, data, shape}}); compares every output. */
async function againstOrt(bytes, hs, feeds, what) {
  const s = await ort.InferenceSession.create(bytes);
  const want = await s.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor(ORT_TYPE[v.type], v.data, v.shape)])));
  const got = hs.execute(s.inputNames.map((k) => ({ data: feeds[k].data, shape: feeds[k].shape })));
  s.outputNames.forEach((n, k) => {
    const w = want[n], g = got[k];
    assert.equal(g.shape, [...w.dims], `${what} ${n}: shape`);
    for (let i = 0; i < w.data.length; i++)
      if (!(Math.abs(Number(g.data[i]) - Number(w.data[i])) <= 1e-6 + 1e-5 * Math.abs(Number(w.data[i]))))
        assert.unreachable(`${what} ${n}[${i}]: ${g.data[i]} vs onnxruntime ${w.data[i]}`);
  });
  return got;
}

const i64 = (v) => ({ type: INT64, data: BigInt64Array.of(BigInt(v)), shape: [] });
const f32 = (shape, data) => ({ type: FLOAT, data: Float32Array.from(data), shape });

// for i < M while rows < limit: seq = Concat(seq, x) (grows by a row),
// rows = Shape(seq)[0], acc += rows * x, and a nested If on i even picks
// row i of seq (a Gather: may fail, so no select of both branches) or the
// column sums of seq (another shape source); that pick is the scan output.
function growModel() {
  const gat = new OnnxBuilder().node('Gather', ['seq2', 'i'], ['r'], { axis: 0 }).output('r', FLOAT, [2]);
  const sum = new OnnxBuilder().init('ax0', INT64, [1], [0]).node('ReduceSum', ['seq2', 'ax0'], ['r'], { keepdims: 0 }).output('r', FLOAT, [2]);
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('seq', FLOAT, ['k', 2]).input('acc', FLOAT, [1, 2]);
  body.node('Concat', ['seq', 'x'], ['seq2'], { axis: 0 }).node('Shape', ['seq2'], ['shp']).init('zero', INT64, [], [0]);
  body.node('Gather', ['shp', 'zero'], ['rows'], { axis: 0 }).node('Cast', ['rows'], ['rowsf'], { to: FLOAT });
  body.node('Mul', ['rowsf', 'x'], ['rx']).node('Add', ['acc', 'rx'], ['acc2']).node('Less', ['rows', 'limit'], ['cout']);
  body.init('two', INT64, [], [2]).node('Mod', ['i', 'two'], ['m']).node('Equal', ['m', 'zero'], ['even']);
  body.node('If', ['even'], ['r'], { then_branch: G(gat), else_branch: G(sum) });
  body.output('cout', BOOL, []).output('seq2', FLOAT, ['k2', 2]).output('acc2', FLOAT, [1, 2]).output('r', FLOAT, [2]);
  const b = new OnnxBuilder(13).input('M', INT64, []).input('c0', BOOL, []).input('limit', INT64, []).input('x', FLOAT, [1, 2]);
  b.init('s0', FLOAT, [1, 2], [1, -1]).init('a0', FLOAT, [1, 2], [0, 0]);
  b.node('Loop', ['M', 'c0', 's0', 'a0'], ['seqF', 'accF', 'picks'], { body: G(body) });
  return b.output('seqF', FLOAT, null).output('accF', FLOAT, null).output('picks', FLOAT, null).bytes();
}

test('Loop: run-time trip count and condition, a growing carried value and its Shape, scan output, zero iterations, nested If = onnxruntime', async () => {
  const bytes = growModel();
  const { holo, report } = convert(bytes);
  assert.equal(report.opsOut, { Loop: 1 }, 'one construct at the top level');
  const hs = rt.load(holo);
  const x = [0.5, 2];
  for (const [m, c, lim] of [[0, 1, 9], [5, 0, 9], [1, 1, 9], [5, 1, 9], [7, 1, 4], [40, 1, 30]]) {
    const got = await againstOrt(bytes, hs, { M: i64(m), c0: { type: BOOL, data: Uint8Array.of(c), shape: [] }, limit: i64(lim), x: f32([1, 2], x) }, `M=${m} c0=${c} limit=${lim}`);
    const iters = c ? Math.min(m, Math.max(1, lim - 1)) : 0;
    assert.equal(got[0].shape, [1 + iters, 2], 'the carried value grew by one row per iteration');
    if (!iters) assert.equal(got[2].shape, [0, 2], 'zero iterations: the scan output of the body output\'s shape');
  }
  hs.dispose();
});

test('memo: a repeated call of a converted construct is one memo hit and dispatches nothing', () => {
  const hs = rt.load(convert(growModel()).holo);
  const feeds = [{ data: BigInt64Array.of(6n), shape: [] }, { data: Uint8Array.of(1), shape: [] }, { data: BigInt64Array.of(9n), shape: [] }, { data: Float32Array.of(0.5, 2), shape: [1, 2] }];
  const a = hs.execute(feeds);
  const c1 = hs.counters;
  const b = hs.execute(feeds);
  const c2 = hs.counters;
  assert.is(c2.memoHits - c1.memoHits, 1);
  assert.is(c2.dispatches, c1.dispatches);
  assert.equal([...b[2].data], [...a[2].data]);
  hs.dispose();
});

test('Loop in Loop: the inner trip count is the outer iteration number; the bodies read outer values renamed by the rewrites = onnxruntime', async () => {
  // inner: t = t + xw for j < i; outer: total = total + inner's t, scan output the inner scan of j values
  const inner = new OnnxBuilder().input('j', INT64, []).input('cj', BOOL, []).input('t', FLOAT, [2]);
  inner.node('Add', ['t', 'xw'], ['t2']).node('Identity', ['cj'], ['cj2']).node('Cast', ['j'], ['jf'], { to: FLOAT });
  inner.output('cj2', BOOL, []).output('t2', FLOAT, [2]).output('jf', FLOAT, []);
  const outer = new OnnxBuilder().input('i', INT64, []).input('ci', BOOL, []).input('tot', FLOAT, [2]);
  outer.node('Loop', ['i', '', 'xi'], ['tf', 'js'], { body: G(inner) }).node('Add', ['tot', 'tf'], ['tot2']).node('Identity', ['ci'], ['ci2']);
  outer.node('ReduceSum', ['js'], ['jsum'], { keepdims: 0 });
  outer.output('ci2', BOOL, []).output('tot2', FLOAT, [2]).output('jsum', FLOAT, []);
  const b = new OnnxBuilder(13).input('M', INT64, []).input('x', FLOAT, [2]).init('w', FLOAT, [2], [0.25, -2]);
  // xi: an Identity the top-level rewrite removes; xw: a value only the nested graphs read
  b.node('Identity', ['x'], ['xi']).node('Mul', ['x', 'w'], ['xw']);
  b.node('Loop', ['M', '', 'x'], ['total', 'sums'], { body: G(outer) });
  const bytes = b.output('total', FLOAT, null).output('sums', FLOAT, null).bytes();
  const hs = rt.load(convert(bytes).holo);
  for (const m of [0, 1, 4]) await againstOrt(bytes, hs, { M: i64(m), x: f32([2], [1.5, -0.5]) }, `nested M=${m}`);
  hs.dispose();
});

test('determinism: the scalar core and 2 threads give the simd128 bytes for a converted construct', async () => {
  const holo = convert(growModel()).holo;
  const feeds = [{ data: BigInt64Array.of(7n), shape: [] }, { data: Uint8Array.of(1), shape: [] }, { data: BigInt64Array.of(6n), shape: [] }, { data: Float32Array.of(0.3, -1.7), shape: [1, 2] }];
  const run = (r, opts) => { const hs = r.load(holo, opts); const out = hs.execute(feeds); hs.dispose(); return out.map((o) => Buffer.from(o.data.buffer, o.data.byteOffset, o.data.byteLength).toString('hex')); };
  const want = run(rt);
  const scalar = await init(undefined, { variant: 'scalar' });
  assert.equal(run(scalar), want, 'scalar = simd128');
  const hs2 = await load(holo, { threads: 2 });
  try {
    assert.equal(hs2.execute(feeds).map((o) => Buffer.from(o.data.buffer, o.data.byteOffset, o.data.byteLength).toString('hex')), want, '2 threads = 1 thread');
  } finally {
    hs2.dispose();
  }
});

// Scan: state s += x_t (carried), outputs y_t = s * x_t; input x [T, 2]
// with T known only at run time, read backwards; output on axis 1, reversed.
function scanModel({ inDir = 0, outAxis = 0, outDir = 0, T = 'T' } = {}) {
  const body = new OnnxBuilder().input('s', FLOAT, [2]).input('xt', FLOAT, [2]);
  body.node('Add', ['s', 'xt'], ['s2']).node('Mul', ['s2', 'xt'], ['y']).output('s2', FLOAT, [2]).output('y', FLOAT, [2]);
  const b = new OnnxBuilder(16).input('s0', FLOAT, [2]).input('x', FLOAT, [T, 2]);
  b.node('Scan', ['s0', 'x'], ['sF', 'ys'], {
    body: G(body), num_scan_inputs: 1, scan_input_directions: [inDir], scan_output_axes: [outAxis], scan_output_directions: [outDir],
  });
  return b.output('sF', FLOAT, null).output('ys', FLOAT, null).bytes();
}

test('Scan: a run-time sequence length, lowered onto the Loop construct (directions, output axis) = onnxruntime', async () => {
  for (const o of [{}, { inDir: 1 }, { outAxis: 1 }, { outDir: 1, outAxis: -1 }, { inDir: 1, outDir: 1 }]) {
    const bytes = scanModel(o);
    const { holo, report } = convert(bytes);
    assert.ok(report.opsOut.Loop === 1, `${JSON.stringify(o)}: a Loop construct`);
    const hs = rt.load(holo);
    for (const T of [1, 3, 6]) await againstOrt(bytes, hs, { s0: f32([2], [1, -1]), x: f32([T, 2], rand(2 * T)) }, `Scan ${JSON.stringify(o)} T=${T}`);
    hs.dispose();
  }
});

test('Scan: refusals: a sequence length of 0 (onnxruntime refuses it), scan inputs whose lengths are not known to be equal', () => {
  assert.throws(() => convert(scanModel({ T: 0 })), /a Scan over zero iterations/);
  const body = new OnnxBuilder().input('s', FLOAT, [2]).input('at', FLOAT, [2]).input('bt', FLOAT, [2]);
  body.node('Add', ['s', 'at'], ['s1']).node('Add', ['s1', 'bt'], ['s2']).output('s2', FLOAT, [2]);
  const b = new OnnxBuilder(16).input('s0', FLOAT, [2]).input('a', FLOAT, ['T', 2]).input('b', FLOAT, ['U', 2]);
  b.node('Scan', ['s0', 'a', 'b'], ['sF'], { body: G(body), num_scan_inputs: 2 }).output('sF', FLOAT, null);
  assert.throws(() => convert(b.bytes()), /lengths \["T","U"\] are not one length known to be equal/);
});

test.run();
