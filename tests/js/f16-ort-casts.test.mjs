// onnxruntime's float16 rounding points (compiler/rewrites/f16-rounding-points.js,
// docs/decisions.md 77), bit for bit against onnxruntime-node: small f16 graphs
// of ops that are exact in f32 on both engines (Add, Mul, Concat, Transpose,
// Cast), so any difference is a rounding point in the wrong place. Also
// re-measures which ops onnxruntime runs with float16 operands (the list the
// rewrite keeps), from the Casts its optimized model keeps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { convert } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { ORT_F16_KERNELS } from '../../compiler/rewrites/f16-rounding-points.js';
import { floatToHalf, halfToFloat } from '../../compiler/half.js';
import onnxProto from 'onnx-proto';
import { OnnxBuilder, FLOAT, FLOAT16 as H, INT64, INT32 } from './onnx-build.mjs';

const { onnx } = onnxProto;

const rt = await init();
const N = 64;
// values that are not float16 (every rounding shows), positive and negative
const X = Float32Array.from({ length: N }, (_, i) => (i % 2 ? -1 : 1) * (0.3 + i * 0.0123457) * (1 + 2 ** -13));
const halfConst = (b, name, v) => b.init(name, H, [N], Uint16Array.from({ length: N }, (_, i) => floatToHalf(v + i * 0.001)));

async function ortRun(bytes, x) {
  const s = await ort.InferenceSession.create(bytes);
  try {
    const out = await s.run({ x: new ort.Tensor('float32', x, [1, 1, 1, N]) });
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, [...t.data].map(Number)]));
  } finally {
    await s.release();
  }
}

function holoRun(bytes, x, opts = {}) {
  const s = rt.load(convert(bytes, opts).holo);
  try {
    const out = s.run({ x: { data: x, shape: [1, 1, 1, N] } });
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, [...t.data].map(Number)]));
  } finally {
    s.dispose();
  }
}

/** x f32 -> Cast(f16) 'h' -> body -> outputs; hologram's outputs equal onnxruntime's bit for bit. */
async function sameBits(what, body, { outputs = [['y', FLOAT]] } = {}) {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 1, 1, N]).node('Cast', ['x'], ['h'], { to: H });
  body(b);
  for (const [o, t] of outputs) b.output(o, t, null);
  const bytes = b.bytes();
  const want = await ortRun(bytes, X), got = holoRun(bytes, X);
  for (const [o] of outputs) assert.equal(got[o], want[o], `${what}: output ${o} bitwise`);
  return { bytes, want, strict: holoRun(bytes, X, { halfRounding: 'onnx' }) };
}

test('a chain of ops with no f16 kernel runs in f32: the model Cast to f16 and every step unrounded (strict ONNX rounds each)', async () => {
  const { want, strict } = await sameBits('chain', (b) => {
    halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']).node('Mul', ['a', 'c'], ['m']).node('Cast', ['m'], ['y'], { to: FLOAT });
  });
  // onnxruntime: (x + c) * c in f32, x not rounded
  const f = Math.fround, c = (i) => halfToFloat(floatToHalf(0.37 + i * 0.001));
  assert.equal(want.y, [...X].map((x, i) => f(f(x + c(i)) * c(i))));
  assert.not.equal(strict.y, want.y, "'onnx' rounding differs");
});

test('an f16-kernel op between cast ops is run in f32 (isolated); with its first operand from a model Cast it stays f16', async () => {
  // Slice between Add and Mul: isolated, so no rounding anywhere (not a
  // Transpose: onnxruntime's transpose optimizer moves it past the Mul first)
  await sameBits('isolated Slice', (b) => {
    b.init('st', INT64, [1], [1]).init('en', INT64, [1], [60]).init('ax', INT64, [1], [3]);
    halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']).node('Slice', ['a', 'st', 'en', 'ax'], ['t']);
    b.node('Mul', ['t', 't'], ['m']).node('Cast', ['m'], ['y'], { to: FLOAT });
  });
  // Concat(Add, Cast): its first operand comes from a node that will be cast -> isolated, f32
  await sameBits('Concat(add, cast) isolated', (b) => {
    halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']).node('Concat', ['a', 'h'], ['k'], { axis: 3 });
    b.node('Mul', ['k', 'k'], ['m']).node('Cast', ['m'], ['y'], { to: FLOAT });
  });
  // Concat(Cast, Add): onnxruntime looks at the first operand only -> f16: both operands rounded
  await sameBits('Concat(cast, add) in f16', (b) => {
    halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']).node('Concat', ['h', 'a'], ['k'], { axis: 3 });
    b.node('Mul', ['k', 'k'], ['m']).node('Cast', ['m'], ['y'], { to: FLOAT });
  });
});

test('one value, two readers: the f16 op reads it rounded, the f32 op unrounded', async () => {
  await sameBits('split readers', (b) => {
    halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']);
    b.node('Concat', ['h', 'a'], ['k'], { axis: 3 }).node('Mul', ['a', 'c'], ['m']);
    b.node('Cast', ['k'], ['y'], { to: FLOAT }).node('Cast', ['m'], ['z'], { to: FLOAT });
  }, { outputs: [['y', FLOAT], ['z', FLOAT]] });
});

test('kept rounding points: model Cast pairs, f16 graph outputs, a Cast to int32 reads the f32 value', async () => {
  await sameBits('model Cast pair', (b) => b.node('Cast', ['h'], ['y'], { to: FLOAT }));
  await sameBits('f16 output', (b) => { halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['y']); }, { outputs: [['y', H]] });
  await sameBits('f16 output read on', (b) => {
    halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']).node('Mul', ['a', 'c'], ['m']).node('Cast', ['m'], ['y'], { to: FLOAT });
  }, { outputs: [['a', H], ['y', FLOAT]] });
  // (x*8 + 0.5): near-integers that f16 rounds up; onnxruntime truncates the f32 value
  await sameBits('Cast to int32', (b) => {
    b.init('e', H, [1], [floatToHalf(8)]).init('q', H, [1], [floatToHalf(0.4995)]);
    b.node('Mul', ['h', 'e'], ['p']).node('Add', ['p', 'q'], ['a']).node('Cast', ['a'], ['y'], { to: INT32 });
  }, { outputs: [['y', INT32]] });
  await sameBits('Cast -> Identity -> Mul (EliminateIdentity first)', (b) => {
    halfConst(b, 'c', 0.37).node('Identity', ['h'], ['i']).node('Mul', ['i', 'c'], ['m']).node('Cast', ['m'], ['y'], { to: FLOAT });
  });
  await sameBits('x + 0 (NoopElimination)', (b) => {
    b.init('zero', H, [], [0]).node('Add', ['h', 'zero'], ['a']).node('Cast', ['a'], ['y'], { to: FLOAT });
  });
});

test("halfRounding: 'onnx' rounds every f16 value; an unknown value is refused", async () => {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, [1, 1, 1, N]).node('Cast', ['x'], ['h'], { to: H });
  halfConst(b, 'c', 0.37).node('Add', ['h', 'c'], ['a']).node('Cast', ['a'], ['y'], { to: FLOAT }).output('y', FLOAT, null);
  const got = holoRun(b.bytes(), X, { halfRounding: 'onnx' }).y;
  const r16 = (v) => halfToFloat(floatToHalf(v));
  assert.equal(got, [...X].map((x, i) => r16(r16(x) + r16(0.37 + i * 0.001))));
  assert.throws(() => convert(b.bytes(), { halfRounding: 'f32' }), /halfRounding: 'f32'/);
});

// x f32 -> Relu -> Cast(f16) 'h' -> OP -> Cast(f32): OP has an f16 kernel iff
// onnxruntime's optimized model keeps the model Cast and OP reads 'h'
const PROBES = {
  Concat: (b) => b.node('Concat', ['h', 'h'], ['o'], { axis: 1 }),
  Transpose: (b) => b.node('Transpose', ['h'], ['o'], { perm: [0, 1, 3, 2] }),
  Reshape: (b) => { b.init('sh', INT64, [2], [1, N]); b.node('Reshape', ['h', 'sh'], ['o']); },
  Slice: (b) => { b.init('st', INT64, [1], [1]).init('en', INT64, [1], [60]).init('ax', INT64, [1], [3]); b.node('Slice', ['h', 'st', 'en', 'ax'], ['o']); },
  Gather: (b) => { b.init('ix', INT64, [2], [0, 3]); b.node('Gather', ['h', 'ix'], ['o'], { axis: 3 }); },
  Unsqueeze: (b) => { b.init('ax', INT64, [1], [0]); b.node('Unsqueeze', ['h', 'ax'], ['o']); },
  Max: (b) => { halfConst(b, 'c', 0.5); b.node('Max', ['h', 'c'], ['o']); },
  Clip: (b) => b.node('Clip', ['h'], ['o']),
  LayerNormalization: (b) => { halfConst(b, 'g', 0.5); b.node('LayerNormalization', ['h', 'g'], ['o'], { axis: -1 }); },
  Relu: (b) => b.node('Relu', ['h'], ['o']),
  Add: (b) => { halfConst(b, 'c', 0.5); b.node('Add', ['h', 'c'], ['o']); },
  Mul: (b) => { halfConst(b, 'c', 0.5); b.node('Mul', ['h', 'c'], ['o']); },
  Where: (b) => { b.init('cd', 9, [N], Array.from({ length: N }, (_, i) => i & 1)); halfConst(b, 'c', 0.5); b.node('Where', ['cd', 'h', 'c'], ['o']); },
  MaxPool: (b) => b.node('MaxPool', ['h'], ['o'], { kernel_shape: [1, 2] }),
  Sigmoid: (b) => b.node('Sigmoid', ['h'], ['o']),
  Softmax: (b) => b.node('Softmax', ['h'], ['o'], { axis: -1 }),
  Conv: (b) => { b.init('w', H, [1, 1, 1, 3], [0x3800, 0x3801, 0x3802]); b.node('Conv', ['h', 'w'], ['o']); },
  Gemm: [[1, N], (b) => { b.init('w', H, [N, 4], Array.from({ length: 4 * N }, (_, i) => 0x3000 + i)); b.node('Gemm', ['h', 'w'], ['o']); }],
  Resize: (b) => { b.init('sc', FLOAT, [4], [1, 1, 1, 2]); b.node('Resize', ['h', '', 'sc'], ['o'], { mode: 'linear' }); },
  Pad: (b) => { b.init('pd', INT64, [8], [0, 0, 0, 1, 0, 0, 0, 1]); b.node('Pad', ['h', 'pd'], ['o']); },
};

test("the f16-kernel list is onnxruntime-node's (its optimized model keeps the model's Cast where the op reads f16)", async () => {
  const file = path.join(os.tmpdir(), `f16-ort-casts-${process.pid}.onnx`);
  try {
    for (const [op, probe] of Object.entries(PROBES)) {
      const [shape, body] = Array.isArray(probe) ? probe : [[1, 1, 1, N], probe];
      const b = new OnnxBuilder(17);
      b.input('x', FLOAT, shape).node('Relu', ['x'], ['r']).node('Cast', ['r'], ['h'], { to: H });
      body(b);
      b.node('Cast', ['o'], ['y'], { to: FLOAT }).output('y', FLOAT, null);
      const s = await ort.InferenceSession.create(b.bytes(), { optimizedModelFilePath: file, logSeverityLevel: 3 });
      await s.release();
      const g = onnx.ModelProto.decode(fs.readFileSync(file)).graph;
      const f16 = g.node.some((n) => n.opType === op && n.input.includes('h'));
      assert.is(f16, ORT_F16_KERNELS.has(op), `${op}: onnxruntime ${f16 ? 'has' : 'has no'} f16 kernel`);
    }
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test.run();
