// Run-time sequences and optionals (docs/holo-format.md §4b, docs/decisions.md
// 63): archives with sequence (dtype 128) and optional (129) ports through
// the JS API (arrays of tensors, null), their labels and the memo; the
// errors a call reports as values (a position out of range, a dtype the
// sequence does not hold, an empty optional read, a sequence where a tensor
// is expected, a malformed encoding), each leaving the session usable;
// converted ONNX models whose positions and splits are known only at run
// time against onnxruntime-node; and If on a numeric condition.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GraphBuilder, DT } from '../../compiler/graph.js';
import { writeHolo } from '../../compiler/holo-writer.js';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64 } from './onnx-build.mjs';

const rt = await init(undefined, { variant: 'simd128' });
const SEQ = 128, OPT = 129;
const f32 = (...xs) => ({ data: Float32Array.from(xs), shape: [xs.length] });
const i64 = (v) => ({ data: BigInt64Array.from([BigInt(v)]), shape: [] });

/** s (sequence), x, pos -> SequenceInsert(s, x, pos), SequenceAt of it at pos, its length. */
function insertAt() {
  const g = new GraphBuilder();
  const s = g.input('s', SEQ, ['n']);
  const x = g.input('x', DT.f32, ['k']);
  const pos = g.input('pos', DT.i64, []);
  const [s2] = g.node('SequenceInsert', [s, x, pos], { outputs: [{ name: 's2', dtype: SEQ, shape: null }] });
  const [y] = g.node('SequenceAt', [s2, pos], { outputs: [{ name: 'y', dtype: DT.f32, shape: null }] });
  const [n] = g.node('SequenceLength', [s2], { outputs: [{ name: 'len', dtype: DT.i64, shape: [] }] });
  g.output(s2, y, n);
  return rt.load(writeHolo(g.toJSON()));
}

test('a sequence port takes and gives arrays of tensors; its label is stable and a repeat is a memo hit', () => {
  const hs = insertAt();
  assert.equal(hs.inputs[0].dtype, 'sequence');
  assert.equal(hs.outputs[0].dtype, 'sequence');
  const feeds = [[f32(1, 2), f32(3, 4, 5)], f32(9), i64(1)];
  const [s2, y, n] = hs.execute(feeds);
  assert.ok(Array.isArray(s2));
  assert.equal(s2.map((t) => [t.dtype, t.shape, [...t.data]]), [['float32', [2], [1, 2]], ['float32', [1], [9]], ['float32', [3], [3, 4, 5]]]);
  assert.match(s2.label, /^sha256:[0-9a-f]{64}$/);
  assert.equal([...y.data], [9]);
  assert.equal(n.data[0], 3n);
  const before = hs.counters.memoHits;
  const again = hs.execute(feeds);
  assert.is(again[0].label, s2.label);
  assert.is(hs.counters.memoHits, before + 1);
  // an empty sequence, a position from the end
  const [e] = hs.execute([[], f32(7), i64(-0)]);
  assert.equal(e.map((t) => [...t.data]), [[7]]);
  hs.dispose();
});

test('errors are values and the session stays usable: a position out of range, a dtype the sequence does not hold', () => {
  const hs = insertAt();
  assert.throws(() => hs.execute([[f32(1)], f32(2), i64(5)]), /SequenceInsert: position 5 is outside \[-1, 1\] of a sequence of 1/);
  assert.throws(() => hs.execute([[f32(1)], f32(2), i64(-3)]), /outside/);
  const g = new GraphBuilder();
  const s = g.input('s', SEQ, ['n']);
  const x = g.input('x', DT.i64, []);
  const [s2] = g.node('SequenceInsert', [s, x], { outputs: [{ name: 's2', dtype: SEQ, shape: null }] });
  g.output(s2);
  const hi = rt.load(writeHolo(g.toJSON()));
  assert.throws(() => hi.execute([[f32(1)], i64(3)]), /the tensor is i64, the sequence holds f32/);
  assert.equal(hi.execute([[], i64(3)])[0].map((t) => t.dtype), ['int64']);
  hi.dispose();
  // the binding refuses what is not a sequence before the core sees it
  assert.throws(() => hs.execute([f32(1), f32(2), i64(0)]), /a sequence is an array of tensors/);
  assert.throws(() => hs.execute([[f32(1), { data: Int32Array.from([1]), shape: [1] }], f32(2), i64(0)]), /item 1 is int32, item 0 is float32/);
  assert.throws(() => hs.execute([[f32(1)], [f32(2)], i64(0)]), /a sequence or optional given where the port takes a float32 tensor/);
  assert.throws(() => hs.execute([[{ data: Float32Array.from([1, 2]), shape: [3] }], f32(2), i64(0)]), /8 bytes for shape \[3\]/);
  const [ok] = hs.execute([[f32(1)], f32(2), i64(1)]);
  assert.is(ok.length, 2);
  hs.dispose();
});

test('an optional port takes null, a tensor or an array; reading an empty optional is an error value', () => {
  const g = new GraphBuilder();
  const o = g.input('o', OPT, ['m']);
  const [h] = g.node('OptionalHasElement', [o], { outputs: [{ name: 'h', dtype: DT.bool, shape: [] }] });
  const [e] = g.node('OptionalGetElement', [o], { outputs: [{ name: 'e', dtype: DT.f32, shape: null }] });
  g.output(h, e);
  const ge = g.toJSON();
  const hs = rt.load(writeHolo(ge));
  assert.equal(hs.inputs[0].dtype, 'optional');
  assert.throws(() => hs.execute([null]), /OptionalGetElement: the optional is empty/);
  const [has, el] = hs.execute([f32(4, 5)]);
  assert.equal([has.data[0], [...el.data], el.shape], [1, [4, 5], [2]]);
  // an optional sequence: the element is a sequence
  const g2 = new GraphBuilder();
  const o2 = g2.input('o', OPT, ['m']);
  const [h2] = g2.node('OptionalHasElement', [o2], { outputs: [{ name: 'h', dtype: DT.bool, shape: [] }] });
  g2.output(h2, o2);
  const hq = rt.load(writeHolo(g2.toJSON()));
  const [hh, back] = hq.execute([null]);
  assert.equal([hh.data[0], back], [0, null]);
  const [hh2, back2] = hq.execute([[f32(1), f32(2, 3)]]);
  assert.is(hh2.data[0], 1);
  assert.equal(back2.map((t) => [...t.data]), [[1], [2, 3]]);
  assert.throws(() => hq.execute([undefined]), /missing/);
  hq.dispose();
  hs.dispose();
});

test('a sequence where a tensor is expected, and a malformed encoding, are refused with a message', () => {
  const g = new GraphBuilder();
  const s = g.input('s', SEQ, ['n']);
  const [y] = g.node('Relu', [s], { outputs: [{ name: 'y', dtype: SEQ, shape: null }] });
  g.output(y);
  const hs = rt.load(writeHolo(g.toJSON()));
  assert.throws(() => hs.execute([[f32(1)]]), /sequence/);
  hs.dispose();
  // a constant of dtype 128 whose bytes are not an encoding: the kernel says so when it runs
  const b = new GraphBuilder();
  const c = b.constant('c', SEQ, [16], new Uint8Array(16).fill(7));
  const [n] = b.node('SequenceLength', [c], { outputs: [{ name: 'n', dtype: DT.i64, shape: [] }] });
  b.output(n);
  assert.throws(() => rt.load(writeHolo(b.toJSON())), /SequenceLength: input 0 is not a valid sequence encoding: no HSQ1 header/);
  // a trailing byte after a valid encoding
  const bytes = new Uint8Array(17);
  bytes.set([0x48, 0x53, 0x51, 0x31]);
  const t = new GraphBuilder();
  const x = t.input('x', DT.f32, [1]);
  const tc = t.constant('c', SEQ, [17], bytes);
  const [tn] = t.node('SequenceLength', [tc], { outputs: [{ name: 'n', dtype: DT.i64, shape: [] }] });
  t.output(tn, x);
  assert.throws(() => rt.load(writeHolo(t.toJSON())), /trailing bytes/);
});

async function againstOrt(onnx, feeds, what) {
  const s = await ort.InferenceSession.create(onnx);
  const want = await s.run(Object.fromEntries(s.inputNames.map((k, i) => [k, new ort.Tensor(feeds[i].type, feeds[i].data, feeds[i].shape)])));
  const { holo } = convert(onnx, { runtime: rt });
  const hs = rt.load(holo);
  const got = hs.execute(feeds.map((f) => ({ data: f.data, shape: f.shape })));
  s.outputNames.forEach((n, k) => {
    assert.equal(got[k].shape, [...want[n].dims], `${what} ${n}: shape`);
    assert.equal([...got[k].data], [...want[n].data], `${what} ${n}`);
  });
  hs.dispose();
  return holo;
}

test('converted: positions and splits known only at run time = onnxruntime (SequenceAt, Erase, SplitToSequence, ConcatFromSequence)', async () => {
  const b = new OnnxBuilder(13).input('x', FLOAT, [2, 5]).input('p', INT64, []).input('split', INT64, [3]);
  b.node('SplitToSequence', ['x', 'split'], ['pieces'], { axis: 1 });
  b.node('SequenceAt', ['pieces', 'p'], ['piece']);
  b.node('SequenceErase', ['pieces', 'p'], ['rest']);
  b.node('ConcatFromSequence', ['rest'], ['joined'], { axis: 1 });
  b.node('SequenceLength', ['rest'], ['n']);
  b.output('piece', FLOAT, null).output('joined', FLOAT, null).output('n', INT64, []);
  const onnx = b.bytes();
  const x = { type: 'float32', data: Float32Array.from({ length: 10 }, (_, i) => i - 3.5), shape: [2, 5] };
  const holo = await againstOrt(onnx, [x, { type: 'int64', data: BigInt64Array.from([1n]), shape: [] }, { type: 'int64', data: BigInt64Array.from([2n, 1n, 2n]), shape: [3] }], 'split 2,1,2 at 1');
  await againstOrt(onnx, [x, { type: 'int64', data: BigInt64Array.from([-1n]), shape: [] }, { type: 'int64', data: BigInt64Array.from([0n, 4n, 1n]), shape: [3] }], 'split 0,4,1 at -1');
  // a split that does not sum to the axis is an error value, as in onnxruntime
  const hs = rt.load(holo);
  assert.throws(() => hs.execute([{ data: x.data, shape: x.shape }, i64(0), { data: BigInt64Array.from([1n, 1n, 1n]), shape: [3] }]), /SplitToSequence: the split lengths sum to 3, the axis length is 5/);
  hs.dispose();
});

test('a static sequence still folds at convert time: no sequence kernel reaches the archive', () => {
  const b = new OnnxBuilder(13).input('x', FLOAT, [2, 4]);
  b.init('two', INT64, [], [2]);
  b.node('SplitToSequence', ['x', 'two'], ['pieces'], { axis: 1 });
  b.node('ConcatFromSequence', ['pieces'], ['y'], { axis: 0, new_axis: 1 });
  b.output('y', FLOAT, null);
  const { graph } = convert(b.bytes(), { runtime: rt });
  assert.ok(graph.nodes.every((n) => !/Sequence/.test(n.op)), graph.nodes.map((n) => n.op).join(','));
  assert.ok(graph.values.every((v) => v.dtype !== SEQ && v.dtype !== OPT));
});

test('If on a numeric condition: nonzero is true (-0.0 false, NaN true), as ONNX has it', () => {
  for (const [dtype, cases] of [[DT.f32, [[0, 0], [-0, 0], [2.5, 1], [NaN, 1]]], [DT.i32, [[0, 0], [-7, 1]]], [DT.i64, [[0n, 0], [1n << 40n, 1]]]]) {
    const g = new GraphBuilder();
    const c = g.input('c', dtype, []);
    const a = g.input('a', DT.f32, [1]);
    const k = g.constant('k', DT.f32, [1], Float32Array.from([-1]));
    const [y] = g.node('If', [c], { outputs: [{ name: 'y', dtype: DT.f32, shape: [1] }] });
    g.subgraph('then_branch', 0, 1, 0, [], [a]);
    g.subgraph('else_branch', 0, 1, 0, [], [k]);
    g.output(y);
    const hs = rt.load(writeHolo(g.toJSON()));
    const A = dtype === DT.f32 ? Float32Array : dtype === DT.i32 ? Int32Array : BigInt64Array;
    for (const [v, taken] of cases) {
      const [out] = hs.execute([{ data: A.from([v]), shape: [] }, { data: Float32Array.from([5]), shape: [1] }]);
      assert.is(out.data[0], taken ? 5 : -1, `dtype ${dtype} cond ${v}`);
    }
    hs.dispose();
  }
});

test('holo run prints a sequence output and an optional one', () => {
  const g = new GraphBuilder();
  const x = g.input('x', DT.f32, [3]);
  const [s] = g.node('SplitToSequence', [x], { outputs: [{ name: 'pieces', dtype: SEQ, shape: null }], attrs: { keepdims: 0 } });
  const [o] = g.node('Optional', [x], { outputs: [{ name: 'o', dtype: OPT, shape: null }] });
  g.output(s, o);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-seq-'));
  const file = path.join(dir, 'seq.holo');
  fs.writeFileSync(file, writeHolo(g.toJSON()));
  const bin = fileURLToPath(new URL('../../bindings-js/bin/holo.js', import.meta.url));
  const r = spawnSync(process.execPath, [bin, 'run', 'seq.holo', '-o', 'out'], { encoding: 'utf8', cwd: dir, timeout: 120000 });
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /output 0 pieces: sequence 3 items: float32\[\] = \S+; float32\[\] = \S+; float32\[\] = \S+/);
  assert.match(r.stdout, /output 1 o: optional float32\[3\] = /);
  assert.not.ok(fs.existsSync(path.join(dir, 'out', 'pieces.npy')), 'a sequence has no .npy form');
  fs.rmSync(dir, { recursive: true, force: true });
});

test.run();
