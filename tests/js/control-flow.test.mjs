// If, Loop, Scan and the sequence ops through the converter
// (compiler/onnx-ops-control.js, onnx-ops-seq.js: subgraphs inlined at
// convert time, docs/decisions.md 41) against onnxruntime-node, and the
// constructs emitted where inlining cannot be exact (decision 53), and the
// refusals that remain, each with its reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, BOOL, F, G, T, rand } from './onnx-build.mjs';

const rt = await init(undefined, { variant: 'simd128' });

const ORT_TYPE = { [FLOAT]: 'float32', [INT64]: 'int64', [BOOL]: 'bool' };

/** Runs `bytes` on onnxruntime and on the converted archive with `feeds` ({name: {type, data, shape}}); compares every output. */
async function againstOrt(bytes, feeds, what) {
  const s = await ort.InferenceSession.create(bytes);
  const want = await s.run(Object.fromEntries(Object.entries(feeds).map(([k, v]) => [k, new ort.Tensor(ORT_TYPE[v.type], v.data, v.shape)])));
  const { holo, report } = convert(bytes);
  const hs = rt.load(holo);
  const got = hs.execute(s.inputNames.map((k) => ({ data: feeds[k].data, shape: feeds[k].shape })));
  hs.dispose();
  s.outputNames.forEach((n, k) => {
    const w = want[n], g = got[k];
    assert.equal(g.shape, [...w.dims], `${what} ${n}: shape`);
    for (let i = 0; i < w.data.length; i++)
      if (!(Math.abs(Number(g.data[i]) - Number(w.data[i])) <= 1e-6 + 1e-5 * Math.abs(Number(w.data[i]))))
        assert.unreachable(`${what} ${n}[${i}]: ${g.data[i]} vs onnxruntime ${w.data[i]}`);
  });
  return report;
}

const refuses = (bytes, re) => assert.throws(() => convert(bytes), re);
const f32 = (shape, s = 1) => ({ type: FLOAT, data: rand(shape.reduce((a, b) => a * b, 1), s), shape });

/** A branch: y = op(x, w) over the outer x and w (outer-scope capture), y declared [2, 3]. */
function branch(op, out = 'y') {
  return new OnnxBuilder().node(op, ['x', 'w'], [out]).output(out, FLOAT, [2, 3]);
}

test('If: a constant condition inlines the taken branch only (outer-scope capture) = onnxruntime', async () => {
  for (const c of [1, 0]) {
    const b = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6)).init('c', BOOL, [], [c]);
    b.node('If', ['c'], ['y'], { then_branch: G(branch('Add')), else_branch: G(branch('Mul')) }).output('y', FLOAT, [2, 3]);
    const r = await againstOrt(b.bytes(), { x: f32([2, 3]) }, `If const ${c}`);
    assert.equal(Object.keys(r.opsOut), [c ? 'Add' : 'Mul'], 'only the taken branch is in the archive');
  }
});

test('If: a condition on a shape test folds (as torch exports emit) = onnxruntime', async () => {
  const b = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6)).init('k', INT64, [], [5]);
  b.node('Size', ['x'], ['n']).node('Greater', ['n', 'k'], ['c']);
  b.node('If', ['c'], ['y'], { then_branch: G(branch('Sub')), else_branch: G(branch('Div')) }).output('y', FLOAT, [2, 3]);
  const r = await againstOrt(b.bytes(), { x: f32([2, 3]) }, 'If shape');
  assert.equal(Object.keys(r.opsOut), ['Sub']);
});

test('If: a runtime condition computes both branches and selects; both values of the condition = onnxruntime', async () => {
  const b = new OnnxBuilder(13).input('c', BOOL, []).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6));
  const t = new OnnxBuilder().node('Add', ['x', 'w'], ['a']).node('Relu', ['a'], ['y']).output('y', FLOAT, [2, 3]);
  b.node('If', ['c'], ['y'], { then_branch: G(t), else_branch: G(branch('Mul')) }).output('y', FLOAT, [2, 3]);
  for (const c of [1, 0]) await againstOrt(b.bytes(), { c: { type: BOOL, data: Uint8Array.of(c), shape: [] }, x: f32([2, 3]) }, `If runtime ${c}`);
});

test('If: a runtime condition over a branch that may fail, or branches of different shapes: a construct that runs the taken branch = onnxruntime', async () => {
  const gat = new OnnxBuilder().init('i', INT64, [1], [1]).node('Gather', ['x', 'i'], ['y']).output('y', FLOAT, [1, 3]);
  const b1 = new OnnxBuilder(13).input('c', BOOL, []).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6));
  b1.node('If', ['c'], ['y'], { then_branch: G(gat), else_branch: G(branch('Mul')) }).output('y', FLOAT, null);
  const wide = new OnnxBuilder().node('Concat', ['x', 'w'], ['y'], { axis: 0 }).output('y', FLOAT, [4, 3]);
  const b2 = new OnnxBuilder(13).input('c', BOOL, []).input('x', FLOAT, [2, 3]).init('w', FLOAT, [2, 3], rand(6));
  b2.node('If', ['c'], ['y'], { then_branch: G(wide), else_branch: G(branch('Mul')) }).output('y', FLOAT, null);
  for (const c of [1, 0]) {
    const feeds = { c: { type: BOOL, data: Uint8Array.of(c), shape: [] }, x: f32([2, 3]) };
    let r = await againstOrt(b1.bytes(), feeds, `If Gather ${c}`);
    assert.equal(r.opsOut, { If: 1 }, 'one construct; the branches are its graphs');
    r = await againstOrt(b2.bytes(), feeds, `If shapes ${c}`);
    assert.equal(r.opsOut, { If: 1 });
  }
});

test('If: an untaken branch that would fail does not fail the call (only the taken branch runs)', async () => {
  // then: Gather at index 5 of a [2, 3] input, out of range; else: Neg
  const bad = new OnnxBuilder().init('i', INT64, [1], [5]).node('Gather', ['x', 'i'], ['y']).output('y', FLOAT, [1, 3]);
  const neg = new OnnxBuilder().node('Neg', ['x'], ['y']).output('y', FLOAT, [2, 3]);
  const b = new OnnxBuilder(13).input('c', BOOL, []).input('x', FLOAT, [2, 3]);
  b.node('If', ['c'], ['y'], { then_branch: G(bad), else_branch: G(neg) }).output('y', FLOAT, null);
  await againstOrt(b.bytes(), { c: { type: BOOL, data: Uint8Array.of(0), shape: [] }, x: f32([2, 3]) }, 'If untaken failure');
  const hs = rt.load(convert(b.bytes()).holo);
  assert.throws(() => hs.execute([{ data: Uint8Array.of(1), shape: [] }, { data: rand(6), shape: [2, 3] }]), /Gather|index|range/i, 'the taken failing branch fails with a message');
  hs.dispose();
});

/** Loop of M iterations: s += x * i (carried), scan output x * i per iteration; the body reads x from outside. */
function loopModel(M, { cond = null, opset = 13 } = {}) {
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, [2, 3]);
  body.node('Cast', ['i'], ['fi'], { to: FLOAT }).node('Mul', ['x', 'fi'], ['xi']).node('Add', ['s', 'xi'], ['s2']);
  if (cond !== null) body.init('lim', INT64, [], [cond]).node('Less', ['i', 'lim'], ['cout']);
  else body.node('Identity', ['cin'], ['cout']);
  body.output('cout', BOOL, []).output('s2', FLOAT, [2, 3]).output('xi', FLOAT, [2, 3]);
  const b = new OnnxBuilder(opset).input('x', FLOAT, [2, 3]).init('s0', FLOAT, [2, 3], rand(6));
  const ins = [M === null ? '' : 'M', cond === null ? '' : 'c0', 's0'];
  if (M !== null) b.init('M', INT64, [], [M]);
  if (cond !== null) b.init('c0', BOOL, [], [1]);
  b.node('Loop', ins, ['sum', 'scan'], { body: G(body) }).output('sum', FLOAT, null).output('scan', FLOAT, null);
  return b.bytes();
}

test('Loop: constant trip counts 0, 1, 5 (loop-carried value, scan output) = onnxruntime', async () => {
  for (const M of [0, 1, 5]) await againstOrt(loopModel(M), { x: f32([2, 3]) }, `Loop M=${M}`);
});

test('Loop: a condition the body computes, with and without a trip count = onnxruntime', async () => {
  await againstOrt(loopModel(10, { cond: 3 }), { x: f32([2, 3]) }, 'Loop M=10 cond i<3');
  await againstOrt(loopModel(2, { cond: 3 }), { x: f32([2, 3]) }, 'Loop M=2 cond i<3');
  await againstOrt(loopModel(null, { cond: 4 }), { x: f32([2, 3]) }, 'Loop cond i<4');
});

test('Loop: a loop-carried value whose shape changes every iteration (Concat grows it) = onnxruntime', async () => {
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, null);
  body.node('Concat', ['s', 'x'], ['s2'], { axis: 0 }).node('Identity', ['cin'], ['c']).output('c', BOOL, []).output('s2', FLOAT, null);
  const b = new OnnxBuilder(13).input('x', FLOAT, [1, 3]).init('M', INT64, [], [3]);
  b.node('Loop', ['M', '', 'x'], ['y'], { body: G(body) }).output('y', FLOAT, null);
  await againstOrt(b.bytes(), { x: f32([1, 3]) }, 'Loop growing');
});

test('Loop: a runtime trip count (0, 1, 4), more iterations than the unroll bound, a runtime condition: a construct = onnxruntime', async () => {
  const b = new OnnxBuilder(13).input('M', INT64, []).input('x', FLOAT, [2]);
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, [2]).node('Add', ['s', 'x'], ['s2']).node('Identity', ['cin'], ['c']);
  body.output('c', BOOL, []).output('s2', FLOAT, [2]);
  b.node('Loop', ['M', '', 'x'], ['y'], { body: G(body) }).output('y', FLOAT, null);
  for (const m of [0, 1, 4]) {
    const r = await againstOrt(b.bytes(), { M: { type: INT64, data: BigInt64Array.of(BigInt(m)), shape: [] }, x: f32([2]) }, `Loop M=${m}`);
    assert.equal(r.opsOut, { Loop: 1 });
  }
  const r = await againstOrt(loopModel(5000), { x: f32([2, 3]) }, 'Loop M=5000');
  assert.equal(r.opsOut, { Loop: 1 }, 'over the unroll bound: one construct, not 5000 iterations of nodes');
  const b2 = new OnnxBuilder(13).input('x', FLOAT, [2]).init('M', INT64, [], [30]).init('c0', BOOL, [], [1]);
  const body2 = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, [2]).node('Add', ['s', 'x'], ['s2']);
  body2.node('ReduceSum', ['s2'], ['t'], { keepdims: 0 }).init('z', FLOAT, [], [10]).node('Less', ['t', 'z'], ['c']).output('c', BOOL, []).output('s2', FLOAT, [2]);
  b2.node('Loop', ['M', 'c0', 'x'], ['y'], { body: G(body2) }).output('y', FLOAT, null);
  for (const v of [[1, 2], [0.1, 0.2], [20, 1]]) await againstOrt(b2.bytes(), { x: { type: FLOAT, data: Float32Array.from(v), shape: [2] } }, `Loop while sum < 10 from ${v}`);
});

test('Loop: refused with its reason: neither a trip count nor a condition', () => {
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, [2]).node('Add', ['s', 'x'], ['s2']).node('Identity', ['cin'], ['c']);
  body.output('c', BOOL, []).output('s2', FLOAT, [2]);
  const b = new OnnxBuilder(13).input('x', FLOAT, [2]);
  b.node('Loop', ['', '', 'x'], ['y'], { body: G(body) }).output('y', FLOAT, null);
  refuses(b.bytes(), /neither a trip count nor a condition/);
});

test('Loop: a nested If in the body reads the body\'s own values and the outer graph\'s = onnxruntime', async () => {
  const t = new OnnxBuilder().node('Add', ['s2', 'x'], ['r']).output('r', FLOAT, [2, 3]);
  const e = new OnnxBuilder().node('Sub', ['s2', 'x'], ['r']).output('r', FLOAT, [2, 3]);
  const body = new OnnxBuilder().input('i', INT64, []).input('cin', BOOL, []).input('s', FLOAT, [2, 3]);
  body.node('Mul', ['s', 'x'], ['s2']).init('two', INT64, [], [2]).node('Mod', ['i', 'two'], ['m']).init('zero', INT64, [], [0]).node('Equal', ['m', 'zero'], ['even']);
  body.node('If', ['even'], ['r'], { then_branch: G(t), else_branch: G(e) }).node('Identity', ['cin'], ['c']);
  body.output('c', BOOL, []).output('r', FLOAT, [2, 3]);
  const b = new OnnxBuilder(13).input('x', FLOAT, [2, 3]).init('M', INT64, [], [4]).init('s0', FLOAT, [2, 3], rand(6));
  b.node('Loop', ['M', '', 's0'], ['y'], { body: G(body) }).output('y', FLOAT, null);
  await againstOrt(b.bytes(), { x: f32([2, 3], 0.9) }, 'Loop+If');
});

test('Scan (opset 9+): state carried, axes and directions = onnxruntime', async () => {
  // running sum over axis 1 of x, read backwards; outputs stacked on axis 1, the second reversed
  const body = new OnnxBuilder().input('s', FLOAT, [2]).input('xt', FLOAT, [2]).node('Add', ['s', 'xt'], ['s2']).node('Mul', ['s2', 'xt'], ['o']);
  body.output('s2', FLOAT, [2]).output('o', FLOAT, [2]).output('o2', FLOAT, [2]);
  body.nodes.push({ opType: 'Identity', input: ['s2'], output: ['o2'], name: 'id', attribute: [] });
  const b = new OnnxBuilder(11).input('x', FLOAT, [2, 4]).init('s0', FLOAT, [2], rand(2));
  b.node('Scan', ['s0', 'x'], ['sf', 'ys', 'zs'], {
    body: G(body), num_scan_inputs: 1, scan_input_axes: [1], scan_input_directions: [1], scan_output_axes: [1, 0], scan_output_directions: [0, 1],
  });
  b.output('sf', FLOAT, null).output('ys', FLOAT, null).output('zs', FLOAT, null);
  await againstOrt(b.bytes(), { x: f32([2, 4]) }, 'Scan');
});

test('Scan-8 (opset 8): batch axis 0, time axis 1, reversed = onnxruntime', async () => {
  const body = new OnnxBuilder().input('s', FLOAT, [2]).input('xt', FLOAT, [2]).node('Add', ['s', 'xt'], ['s2']).node('Mul', ['s2', 'xt'], ['o']);
  body.output('s2', FLOAT, [2]).output('o', FLOAT, [2]);
  const b = new OnnxBuilder(8).input('x', FLOAT, [3, 4, 2]).init('s0', FLOAT, [3, 2], rand(6));
  b.node('Scan', ['', 's0', 'x'], ['sf', 'ys'], { body: G(body), num_scan_inputs: 1, directions: [1] });
  b.output('sf', FLOAT, null).output('ys', FLOAT, null);
  await againstOrt(b.bytes(), { x: f32([3, 4, 2]) }, 'Scan-8');
});

test('If: a runtime condition of shape [1] selecting scalars = onnxruntime', async () => {
  const b = new OnnxBuilder(13).input('c', BOOL, [1]).input('x', FLOAT, []);
  const t = new OnnxBuilder().node('Neg', ['x'], ['y']).output('y', FLOAT, []);
  const e = new OnnxBuilder().node('Abs', ['x'], ['y']).output('y', FLOAT, []);
  b.node('If', ['c'], ['y'], { then_branch: G(t), else_branch: G(e) }).output('y', FLOAT, []);
  for (const c of [1, 0]) await againstOrt(b.bytes(), { c: { type: BOOL, data: Uint8Array.of(c), shape: [1] }, x: { type: FLOAT, data: Float32Array.of(-2.5), shape: [] } }, `If [1] ${c}`);
});

test('sequences: SplitToSequence, SequenceInsert/Erase/At/Length, ConcatFromSequence (new_axis) = onnxruntime', async () => {
  const b = new OnnxBuilder(13).input('x', FLOAT, [4, 3]).init('two', INT64, [], [2]).init('p0', INT64, [], [0]).init('pm1', INT64, [], [-1]);
  b.node('SplitToSequence', ['x', 'two'], ['sq']); // chunks of 2 rows
  b.node('SequenceAt', ['sq', 'pm1'], ['last']).node('Relu', ['last'], ['rl']);
  b.node('SequenceInsert', ['sq', 'rl', 'p0'], ['sq2']).node('SequenceErase', ['sq2', 'pm1'], ['sq3']);
  b.node('SequenceLength', ['sq3'], ['len']);
  b.node('ConcatFromSequence', ['sq3'], ['cat'], { axis: 0, new_axis: 1 });
  b.node('SplitToSequence', ['x'], ['rows'], { axis: 1, keepdims: 0 }).node('ConcatFromSequence', ['rows'], ['cols'], { axis: -1 });
  b.output('cat', FLOAT, null).output('len', INT64, null).output('cols', FLOAT, null);
  await againstOrt(b.bytes(), { x: f32([4, 3]) }, 'sequences');
});

test('Optional: OptionalHasElement/OptionalGetElement of Optional(x), of an empty Optional chosen by a folded If = onnxruntime', async () => {
  const b = new OnnxBuilder(18).input('x', FLOAT, [2, 3]).init('c', BOOL, [], [0]);
  b.node('Optional', ['x'], ['o']).node('OptionalHasElement', ['o'], ['h']).node('OptionalGetElement', ['o'], ['g0']).node('Neg', ['g0'], ['g']);
  const tb = new OnnxBuilder().node('Optional', ['x'], ['r']);
  tb.outputs.push({ name: 'r', type: { optionalType: { elemType: { tensorType: { elemType: FLOAT } } } } });
  const eb = new OnnxBuilder().node('Optional', [], ['r'], { type: { __tp: FLOAT } });
  eb.outputs.push({ name: 'r', type: { optionalType: { elemType: { tensorType: { elemType: FLOAT } } } } });
  b.node('If', ['c'], ['oe'], { then_branch: G(tb), else_branch: G(eb) }).node('OptionalHasElement', ['oe'], ['he']);
  b.output('h', BOOL, []).output('g', FLOAT, [2, 3]).output('he', BOOL, []);
  await againstOrt(b.bytes(), { x: f32([2, 3]) }, 'Optional');
  const b2 = new OnnxBuilder(18).input('x', FLOAT, [2, 3]);
  b2.node('Optional', [], ['o'], { type: { __tp: FLOAT } }).node('OptionalGetElement', ['o'], ['g']).output('g', FLOAT, null);
  refuses(b2.bytes(), /unsupported op 'OptionalGetElement'.*the optional 'o' is empty/);
});

test('sequences at run time (decision 57): a runtime position and a sequence graph output run; a sequence of sequences is refused', () => {
  const b = new OnnxBuilder(13).input('x', FLOAT, [2]).input('p', INT64, []);
  b.node('Neg', ['x'], ['nx']).node('SequenceConstruct', ['x', 'nx'], ['sq']).node('SequenceAt', ['sq', 'p'], ['y']).output('y', FLOAT, null);
  const s = rt.load(convert(b.bytes(), { runtime: rt }).holo);
  const x = { data: Float32Array.from([1, -2]), shape: [2] };
  assert.equal([...s.execute([x, { data: BigInt64Array.from([1n]), shape: [] }])[0].data], [-1, 2]);
  assert.throws(() => s.execute([x, { data: BigInt64Array.from([2n]), shape: [] }]), /SequenceAt: position 2 is outside \[-2, 1\]/);
  s.dispose();
  const b2 = new OnnxBuilder(13).input('x', FLOAT, [2]);
  b2.node('SequenceConstruct', ['x', 'x'], ['sq']).output('sq', FLOAT, null);
  const s2 = rt.load(convert(b2.bytes(), { runtime: rt }).holo);
  assert.equal(s2.execute([x])[0].map((t) => [...t.data]), [[1, -2], [1, -2]]);
  s2.dispose();
  const b3 = new OnnxBuilder(13).input('x', FLOAT, [2]);
  b3.node('SequenceConstruct', ['x'], ['sq']).node('SequenceConstruct', ['sq'], ['sq2']).output('sq2', FLOAT, null);
  refuses(b3.bytes(), /a tensor is expected \(a sequence of sequences is not supported\)/);
});

test.run();
