// Control flow executed by the runtime (docs/holo-format.md GRPH, §4a;
// runtime/session-control.c, session-loop.c): archives with nested graphs,
// written with compiler/graph.js, each checked against onnxruntime-node
// running the same model as ONNX (tests/js/onnx-build.mjs): a while loop on a
// runtime condition, a Loop whose trip count is an input with a carried value
// that grows every iteration, zero iterations, an If on a runtime condition
// whose branches have different shapes nested in a Loop; the memo (a repeated
// call is one memo hit), elision (an iteration recomputing resident content
// is not dispatched) and the iteration budget (a loop that never ends fails).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { readHolo } from '../../compiler/holo-reader.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, BOOL, G } from './onnx-build.mjs';

const rt = await init(undefined, { variant: 'simd128' });
const ORT_TYPE = { [FLOAT]: 'float32', [INT64]: 'int64', [BOOL]: 'bool' };

/** Runs the ONNX model on onnxruntime and the archive on the runtime with `feeds` (in port order); compares. */
async function againstOrt(onnx, holo, feeds, what, session) {
  const s = await ort.InferenceSession.create(onnx);
  const want = await s.run(Object.fromEntries(s.inputNames.map((k, i) => [k, new ort.Tensor(ORT_TYPE[feeds[i].type], feeds[i].data, feeds[i].shape)])));
  const hs = session ?? rt.load(holo);
  const got = hs.execute(feeds.map((f) => ({ data: f.data, shape: f.shape })));
  s.outputNames.forEach((n, k) => {
    const w = want[n], g = got[k];
    assert.equal(g.shape, [...w.dims], `${what} ${n}: shape`);
    for (let i = 0; i < w.data.length; i++)
      if (!(Math.abs(Number(g.data[i]) - Number(w.data[i])) <= 1e-6 + 1e-5 * Math.abs(Number(w.data[i]))))
        assert.unreachable(`${what} ${n}[${i}]: ${g.data[i]} vs onnxruntime ${w.data[i]}`);
  });
  if (!session) hs.dispose();
  return got;
}

const f32 = (shape, data) => ({ type: FLOAT, data: Float32Array.from(data), shape });
const i64 = (v) => ({ type: INT64, data: BigInt64Array.from([BigInt(v)]), shape: [] });

// while (v > 1) { v = v * 0.5 + 0.1; } with scan output v per iteration: the
// number of iterations (and the scan's shape) depends on the input.
function halvingHolo() {
  const g = new GraphBuilder();
  const v0 = g.input('v0', DT.f32, [1]);
  const half = g.constant('half', DT.f32, [1], Float32Array.from([0.5]));
  const tenth = g.constant('tenth', DT.f32, [1], Float32Array.from([0.1]));
  const one = g.constant('one', DT.f32, [], Float32Array.from([1]));
  const [c0] = g.node('Greater', [v0, one], { outputs: [{ name: 'c0', dtype: DT.bool, shape: [1] }] });
  const [cs] = g.node('Squeeze', [c0], { outputs: [{ name: 'cs', dtype: DT.bool, shape: [] }] });
  const [vf, vs] = g.node('Loop', [null, cs, v0], { name: 'loop', outputs: [{ name: 'vf', shape: null }, { name: 'vs', shape: null }] });
  const it = g.graphInput('i', DT.i64, []), cin = g.graphInput('cin', DT.bool, []), v = g.graphInput('v', DT.f32, null);
  const first = g.nodeCount();
  const [m] = g.node('Mul', [v, half], { outputs: [{ name: 'm', shape: [1] }] });
  const [a] = g.node('Add', [m, tenth], { outputs: [{ name: 'a', shape: [1] }] });
  const [gt] = g.node('Greater', [a, one], { outputs: [{ name: 'gt', dtype: DT.bool, shape: [1] }] });
  const [co] = g.node('Squeeze', [gt], { outputs: [{ name: 'co', dtype: DT.bool, shape: [] }] });
  g.subgraph('body', 2, first, 4, [it, cin, v], [co, a, a]);
  g.output(vf, vs);
  return writeHolo(g.toJSON());
}

function halvingOnnx() {
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('v', FLOAT, [1]);
  body.node('Mul', ['v', 'half'], ['m']).node('Add', ['m', 'tenth'], ['a']).node('Greater', ['a', 'one'], ['gt']);
  body.node('Squeeze', ['gt'], ['co']).node('Identity', ['a'], ['a2']);
  body.output('co', BOOL, []).output('a', FLOAT, [1]).output('a2', FLOAT, [1]);
  const b = new OnnxBuilder(13).input('v0', FLOAT, [1]);
  b.init('half', FLOAT, [1], [0.5]).init('tenth', FLOAT, [1], [0.1]).init('one', FLOAT, [], [1]);
  b.node('Greater', ['v0', 'one'], ['c0']).node('Squeeze', ['c0'], ['cs']);
  b.node('Loop', ['', 'cs', 'v0'], ['vf', 'vs'], { body: G(body) });
  return b.output('vf', FLOAT, null).output('vs', FLOAT, null).bytes();
}

test('the format round trip: the JS reader reads back the nested graphs the writer wrote', () => {
  const j = readHolo(halvingHolo());
  assert.is(j.graphs.length, 1);
  assert.equal(j.graphs[0].inputs.map((v) => j.values[v].kind), ['graph-input', 'graph-input', 'graph-input']);
});

test('Loop: a while loop on a runtime condition, scan outputs of input-dependent length = onnxruntime', async () => {
  const holo = halvingHolo(), onnx = halvingOnnx();
  const hs = rt.load(holo);
  for (const v of [40, 3, 1.5, 0.5]) {
    const got = await againstOrt(onnx, holo, [f32([1], [v])], `while v0=${v}`, hs);
    if (v === 0.5) assert.equal(got[1].shape, [0, 1], 'no iteration: scan [0, 1] from the body output declared [1]');
  }
  hs.dispose();
});

// for i < M: seq = Concat(seq, x) (a carried value that grows), acc = acc + x;
// scan output acc; inside the body an If on (i < k) picks Add or Mul (both
// branches of one shape here) and another on the same test returns seq's
// last two rows or its first row (different shapes: no Where can merge them).
function growHolo() {
  const g = new GraphBuilder();
  const m = g.input('M', DT.i64, []);
  const x = g.input('x', DT.f32, [1, 2]);
  const k = g.constant('k', DT.i64, [], BigInt64Array.from([2n]));
  const s0 = g.constant('s0', DT.f32, [1, 2], Float32Array.from([1, -1]));
  const [seqF, accF, accS] = g.node('Loop', [m, null, s0, x], {
    name: 'loop', outputs: [{ name: 'seqF', shape: null }, { name: 'accF', shape: null }, { name: 'accS', shape: null }],
  });
  const it = g.graphInput('i', DT.i64, []), cin = g.graphInput('cin', DT.bool, []);
  const seq = g.graphInput('seq', DT.f32, null), acc = g.graphInput('acc', DT.f32, [1, 2]);
  const first = g.nodeCount();
  const [seq2] = g.node('Concat', [seq, x], { attrs: { axis: 0 }, outputs: [{ name: 'seq2', shape: null }] });
  const [lt] = g.node('Less', [it, k], { outputs: [{ name: 'lt', dtype: DT.bool, shape: [] }] });
  const [acc2] = g.node('If', [lt], { name: 'pick', outputs: [{ name: 'acc2', shape: [1, 2] }] });
  g.subgraph('body', 0, first, 3, [it, cin, seq, acc], [cin, seq2, acc2, acc2]);
  const tFirst = g.nodeCount();
  const [ta] = g.node('Add', [acc, x], { outputs: [{ name: 'ta', shape: [1, 2] }] });
  const [tm] = g.node('Mul', [acc, x], { outputs: [{ name: 'tm', shape: [1, 2] }] });
  g.subgraph('then_branch', first + 2, tFirst, 1, [], [ta]);
  g.subgraph('else_branch', first + 2, tFirst + 1, 1, [], [tm]);
  g.output(seqF, accF, accS);
  return writeHolo(g.toJSON());
}

function growOnnx() {
  const th = new OnnxBuilder().node('Add', ['acc', 'x'], ['ta']).output('ta', FLOAT, [1, 2]);
  const el = new OnnxBuilder().node('Mul', ['acc', 'x'], ['tm']).output('tm', FLOAT, [1, 2]);
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('seq', FLOAT, null).input('acc', FLOAT, [1, 2]);
  body.node('Concat', ['seq', 'x'], ['seq2'], { axis: 0 }).node('Less', ['i', 'k'], ['lt']);
  body.node('If', ['lt'], ['acc2'], { then_branch: G(th), else_branch: G(el) }).node('Identity', ['cin'], ['co']);
  body.node('Identity', ['acc2'], ['acc3']);
  body.output('co', BOOL, []).output('seq2', FLOAT, null).output('acc2', FLOAT, [1, 2]).output('acc3', FLOAT, [1, 2]);
  const b = new OnnxBuilder(13).input('M', INT64, []).input('x', FLOAT, [1, 2]);
  b.init('k', INT64, [], [2]).init('s0', FLOAT, [1, 2], [1, -1]);
  b.node('Loop', ['M', '', 's0', 'x'], ['seqF', 'accF', 'accS'], { body: G(body) });
  return b.output('seqF', FLOAT, null).output('accF', FLOAT, null).output('accS', FLOAT, null).bytes();
}

test('Loop: a runtime trip count from an input (0, 1, 5), a carried value that grows, a nested If = onnxruntime', async () => {
  const holo = growHolo(), onnx = growOnnx();
  const hs = rt.load(holo);
  for (const n of [0, 1, 5]) {
    const got = await againstOrt(onnx, holo, [i64(n), f32([1, 2], [0.5, 2])], `M=${n}`, hs);
    assert.equal(got[0].shape, [1 + n, 2], `M=${n}: the carried value grew by one row per iteration`);
    if (n === 0) assert.equal(got[2].shape, [0, 1, 2], 'zero iterations: scan of the declared shape');
  }
  hs.dispose();
});

test('memo and elision: a repeated call is one memo hit; an iteration recomputing resident content is elided', () => {
  const hs = rt.load(growHolo());
  const feeds = [{ data: BigInt64Array.from([5n]), shape: [] }, { data: Float32Array.from([0.5, 2]), shape: [1, 2] }];
  const a = hs.execute(feeds);
  const c1 = hs.counters;
  const b = hs.execute(feeds);
  const c2 = hs.counters;
  assert.is(c2.memoHits - c1.memoHits, 1, 'the second call is a memo hit');
  assert.is(c2.dispatches, c1.dispatches, 'and dispatches nothing');
  assert.equal([...b[1].data], [...a[1].data]);
  hs.dispose();
  // A body whose output does not depend on the iteration: Add(x, c) computed
  // once, the later iterations find its label resident.
  const g = new GraphBuilder();
  const m = g.input('M', DT.i64, []);
  const x = g.input('x', DT.f32, [2]);
  const c = g.constant('c', DT.f32, [2], Float32Array.from([1, 2]));
  const [yf] = g.node('Loop', [m, null, x], { outputs: [{ name: 'yf', dtype: DT.f32, shape: [2] }] });
  const it = g.graphInput('i', DT.i64, []), cin = g.graphInput('cin', DT.bool, []), y = g.graphInput('y', DT.f32, [2]);
  const first = g.nodeCount();
  const [s] = g.node('Add', [x, c], { outputs: [{ name: 's', shape: [2] }] });
  g.subgraph('body', 0, first, 1, [it, cin, y], [cin, s]);
  g.output(yf);
  const hs2 = rt.load(writeHolo(g.toJSON()));
  const before = hs2.counters;
  const out = hs2.execute([{ data: BigInt64Array.from([4n]), shape: [] }, { data: Float32Array.from([3, 4]), shape: [2] }]);
  const after = hs2.counters;
  assert.equal([...out[0].data], [4, 6]);
  assert.is(after.dispatches - before.dispatches, 1, 'one Add dispatched for four iterations');
  assert.is(after.elided - before.elided, 3, 'three elided');
  hs2.dispose();
});

// The iteration number is content-labelled like any i64 scalar input, on the
// first trip that binds it and on every later one (the session keeps the
// digests of 0..63: session-loop.c). A top-level Cast(k) and the body's Cast(i)
// at trip k share a label, so one is elided for the other.
test('Loop: the iteration number has the content label of the same i64 scalar, cached or not', () => {
  const g = new GraphBuilder();
  const m = g.input('M', DT.i64, []);
  const k = g.input('k', DT.i64, []);
  const y0 = g.constant('y0', DT.f32, [], Float32Array.from([0]));
  const [a] = g.node('Cast', [k], { attrs: { to: 1 }, outputs: [{ name: 'a', dtype: DT.f32, shape: [] }] });
  const [yf] = g.node('Loop', [m, null, y0], { outputs: [{ name: 'yf', dtype: DT.f32, shape: [] }] });
  const it = g.graphInput('i', DT.i64, []), cin = g.graphInput('cin', DT.bool, []), y = g.graphInput('y', DT.f32, []);
  const first = g.nodeCount();
  const [fi] = g.node('Cast', [it], { attrs: { to: 1 }, outputs: [{ name: 'fi', dtype: DT.f32, shape: [] }] });
  g.subgraph('body', 1, first, 1, [it, cin, y], [cin, fi]);
  g.output(a);
  g.output(yf);
  const hs = rt.load(writeHolo(g.toJSON()));
  const run = (kv) => {
    const c0 = hs.counters;
    const out = hs.execute([{ data: BigInt64Array.from([4n]), shape: [] }, { data: BigInt64Array.from([BigInt(kv)]), shape: [] }]);
    assert.equal([...out[0].data, ...out[1].data], [kv, 3]);
    return hs.counters.elided - c0.elided;
  };
  assert.is(run(2), 1, 'first trips: the body Cast at i = 2 finds the top-level Cast(2) resident');
  assert.is(run(3), 5, 'cached digests: all four body Casts resident from the last call, and Cast(3) is trip 3');
  hs.dispose();
});

test('Loop: an iteration budget ends a loop that never ends, with a message; the session stays usable', () => {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [1]);
  const t = g.constant('t', DT.bool, [], Uint8Array.from([1]));
  const [yf] = g.node('Loop', [null, t, x], { outputs: [{ name: 'yf', shape: [1] }] });
  const it = g.graphInput('i', DT.i64, []), cin = g.graphInput('cin', DT.bool, []), y = g.graphInput('y', DT.f32, [1]);
  const first = g.nodeCount();
  const [n] = g.node('Neg', [y], { outputs: [{ name: 'n', shape: [1] }] });
  g.subgraph('body', 0, first, 1, [it, cin, y], [cin, n]);
  g.output(yf);
  const hs = rt.load(writeHolo(g.toJSON()));
  assert.throws(() => hs.execute([{ data: Float32Array.from([1]), shape: [1] }]), /65536 iterations, the budget/);
  assert.throws(() => hs.execute([{ data: Float32Array.from([2]), shape: [1] }]), /budget/);
  hs.dispose();
});

test('load refuses a malformed construct with a message', () => {
  const g = new GraphBuilder();
  const c = g.input('c', DT.bool, []);
  const x = g.input('x', DT.f32, [1]);
  const [y] = g.node('If', [c], { outputs: [{ name: 'y', shape: [1] }] });
  g.subgraph('then_branch', 0, 1, 0, [], [x]);
  g.output(y);
  assert.throws(() => rt.load(writeHolo(g.toJSON())), /If needs the graphs then_branch, else_branch/);
});

test.run();
