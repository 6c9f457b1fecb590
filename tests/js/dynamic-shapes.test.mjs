// Symbolic dims at execute time (issue 19 item 1, the part that needs only
// Shape and Size): an exporter's shape arithmetic over a dynamic batch and
// sequence -- Shape -> Gather -> Unsqueeze -> Concat -> Reshape, Size, a
// Shape slice -- stays in the archive when it cannot fold, and one archive
// serves every size, against onnxruntime-node at each.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, T, rand, close } from './onnx-build.mjs';

const rt = await init();
const ops = (graph) => graph.nodes.map((n) => n.op);

/** x [batch, seq, 8] -> split heads: reshape to [batch, seq, 2, 4] from x's own shape, scale by 1/Size, transpose. */
function headsModel(opset) {
  const b = new OnnxBuilder(opset);
  b.input('x', FLOAT, ['batch', 'seq', 8]);
  b.init('i0', INT64, [1], [0n]).init('i1', INT64, [1], [1n]).init('heads', INT64, [2], [2n, 4n]);
  b.node('Shape', ['x'], ['s']);
  b.node('Gather', ['s', 'i0'], ['b0'], { axis: 0 });
  b.node('Gather', ['s', 'i1'], ['s1'], { axis: 0 });
  b.node('Concat', ['b0', 's1', 'heads'], ['shape4'], { axis: 0 });
  b.node('Reshape', ['x', 'shape4'], ['r']);
  b.node('Size', ['x'], ['n']);
  b.node('Cast', ['n'], ['nf'], { to: FLOAT });
  b.node('Div', ['r', 'nf'], ['q']);
  b.node('Transpose', ['q'], ['y'], { perm: [0, 2, 1, 3] });
  b.output('y', FLOAT, ['batch', 2, 'seq', 4]);
  return b.bytes();
}

/** Shape with start/end (opset 15): the trailing dims only, fed to ConstantOfShape's Expand and added. */
function tailModel() {
  const b = new OnnxBuilder(15);
  b.input('x', FLOAT, ['n', 'm', 3]);
  b.node('Shape', ['x'], ['tail'], { start: -2 });
  b.node('ConstantOfShape', ['tail'], ['ones'], { value: T(FLOAT, [1], [1.5]) });
  b.node('Add', ['x', 'ones'], ['y']);
  b.output('y', FLOAT, ['n', 'm', 3]);
  return b.bytes();
}

async function ortRun(bytes, name, data, shape) {
  const s = await ort.InferenceSession.create(bytes);
  const r = await s.run({ [name]: new ort.Tensor('float32', data, shape) });
  return r[s.outputNames[0]];
}

for (const opset of [13, 17]) {
  test(`opset ${opset}: one archive with Shape/Gather/Concat/Reshape/Size serves every batch and sequence length`, async () => {
    const bytes = headsModel(opset);
    const { holo, graph } = convert(bytes);
    // the converter turns Shape -> Gather -> Concat -> Reshape over symbols
    // into a Reshape it can spell (0 / -1); Size of a symbolic shape stays
    assert.ok(ops(graph).includes('Size'), `Size stays a node: ${ops(graph)}`);
    const s = rt.load(holo);
    try {
      for (const [bt, sq] of [[1, 1], [1, 7], [3, 5], [2, 32]]) {
        const x = rand(bt * sq * 8);
        const want = await ortRun(bytes, 'x', x, [bt, sq, 8]);
        const got = s.run({ x: { data: x, shape: [bt, sq, 8] } }).y;
        assert.equal([...got.shape], [...want.dims].map(Number), `shape at [${bt},${sq}]`);
        assert.ok(close(got.data, want.data, 1e-6, 1e-7), `values at [${bt},${sq}]`);
      }
    } finally {
      s.dispose();
    }
  });
}

test('Shape start/end (opset 15) and ConstantOfShape over it at execute time', async () => {
  const bytes = tailModel();
  const { holo, graph } = convert(bytes);
  assert.ok(ops(graph).includes('Shape'));
  const s = rt.load(holo);
  try {
    for (const [n, m] of [[1, 1], [4, 2], [2, 9]]) {
      const x = rand(n * m * 3);
      const want = await ortRun(bytes, 'x', x, [n, m, 3]);
      const got = s.run({ x: { data: x, shape: [n, m, 3] } }).y;
      assert.equal([...got.shape], [n, m, 3]);
      assert.ok(close(got.data, want.data, 0, 0), `values at [${n},${m}]`);
    }
  } finally {
    s.dispose();
  }
});

test('a Shape whose input shape is known still folds (no node, the same archive as before the kernel existed)', () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [2, 3]);
  b.node('Shape', ['x'], ['s']);
  b.node('Reshape', ['x', 's'], ['y']);
  b.output('y', FLOAT, [2, 3]);
  const { graph } = convert(b.bytes());
  assert.not.ok(ops(graph).includes('Shape'), `${ops(graph)}`);
});

// Opset < 13 Softmax coerces its input to 2-D at `axis`. With three symbolic
// dims the converter cannot spell the way back as a constant Reshape target;
// the input's own Shape, read at execute time, restores it (issue 19: the
// exported text recognizer's "opset 9 Softmax needs the input rank").
for (const op of ['Softmax', 'LogSoftmax', 'Hardmax']) {
  for (const axis of [1, -2, 0]) {
    test(`opset 11 ${op} axis ${axis} over three symbolic dims, every shape vs onnxruntime`, async () => {
      const b = new OnnxBuilder(11);
      b.input('x', FLOAT, ['n', 's', 't']);
      b.node(op, ['x'], ['y'], { axis });
      b.output('y', FLOAT, ['n', 's', 't']);
      const bytes = b.bytes();
      const { holo, graph } = convert(bytes);
      assert.ok(ops(graph).includes('Shape'), `the way back reads the dims at execute time: ${ops(graph)}`);
      const s = rt.load(holo);
      try {
        for (const dims of [[1, 1, 1], [2, 3, 4], [3, 1, 5], [1, 6, 2], [2, 0, 3]]) {
          const x = rand(dims[0] * dims[1] * dims[2], 3);
          const want = await ortRun(bytes, 'x', x, dims);
          const got = s.run({ x: { data: x, shape: dims } }).y;
          assert.equal([...got.shape], dims, `shape at ${dims}`);
          assert.ok(close(got.data, want.data, 1e-6, 1e-7), `values at ${dims}`);
        }
      } finally {
        s.dispose();
      }
    });
  }
}

test.run();
