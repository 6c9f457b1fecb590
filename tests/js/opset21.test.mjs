// Opsets 19..21 (compiler/onnx-ops-opset21.js and the normalizers whose ops
// changed): models built at those opsets, run through hologram-exec and
// onnxruntime-node, and the refusals with their reasons.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import ort from 'onnxruntime-node';
import { convert, MAX_OPSET } from '../../compiler/convert.js';
import { init } from '../../bindings-js/index.js';
import { OnnxBuilder, FLOAT, INT64, F, rand, close } from './onnx-build.mjs';

ort.env.logLevel = 'error';
const rt = await init();
const numel = (s) => s.reduce((a, d) => a * d, 1);

function model(opset, xs, build) {
  const b = new OnnxBuilder(opset);
  b.input('x', FLOAT, xs);
  build(b);
  return b.output('y', FLOAT, null).bytes();
}

async function agree(what, opset, xs, build, tol = 1e-5) {
  const bytes = model(opset, xs, build), x = rand(numel(xs)).map((v) => v * 3);
  const want = (await (await ort.InferenceSession.create(bytes)).run({ x: new ort.Tensor('float32', x, xs) })).y;
  const h = rt.load(convert(bytes).holo);
  try {
    const got = h.run({ x: { data: x, shape: xs } }).y;
    assert.equal([...got.shape], [...want.dims].map(Number), `${what}: shape`);
    assert.ok(close(got.data, want.data, tol, tol), `${what}: values`);
  } finally {
    h.dispose();
  }
}

const refuses = (what, opset, xs, build, re) => assert.throws(() => convert(model(opset, xs, build)), re, what);

test('opsets 19 to 23 are accepted; 24 is refused', async () => {
  assert.is(MAX_OPSET, 23);
  for (const opset of [19, 20, 21, 22, 23]) await agree(`Relu at ${opset}`, opset, [2, 3], (b) => b.node('Relu', ['x'], ['y']));
  // ops whose opset-22 version only added bfloat16 run as before
  await agree('Conv + AveragePool + Softplus at 22', 22, [1, 2, 5, 5], (b) => {
    b.init('w', FLOAT, [3, 2, 3, 3], rand(54)).node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1] });
    b.node('AveragePool', ['c'], ['p'], { kernel_shape: [2, 2] }).node('Softplus', ['p'], ['y']);
  }, 1e-4);
  // ... and those whose opset-23 version only added float4e2m1
  await agree('Transpose + Reshape + Flatten at 23', 23, [2, 3, 4], (b) => {
    b.init('s', INT64, [2], [4, 6]).node('Transpose', ['x'], ['t'], { perm: [2, 0, 1] });
    b.node('Reshape', ['t', 's'], ['r']).node('Flatten', ['r'], ['y'], { axis: 1 });
  });
  refuses('opset 24', 24, [2], (b) => b.node('Relu', ['x'], ['y']), /unsupported opset 24: hologram-exec converts opsets 1..23/);
  refuses('Cast to float4e2m1', 23, [2], (b) => b.node('Cast', ['x'], ['y'], { to: 23 }), /float4e2m1 \(opset 23\)/);
  refuses('Attention', 23, [1, 2, 4], (b) => b.node('Attention', ['x', 'x', 'x'], ['y']), /Attention \(opset 23\) is not implemented/);
});

test('RMSNormalization-23 agrees with onnxruntime-node; before 23 it is refused', async () => {
  for (const [xs, axis, ss] of [[[2, 3, 8], -1, [8]], [[2, 3, 4], 1, [3, 4]], [[1, 5, 6], 2, [1]], [[3, 16], 0, [3, 16]]])
    await agree(`RMSNormalization ${xs} axis=${axis}`, 23, xs, (b) => {
      b.init('s', FLOAT, ss, rand(numel(ss)));
      b.node('RMSNormalization', ['x', 's'], ['y'], { axis, epsilon: F(1e-3) });
    }, 1e-5);
  refuses('RMSNormalization at 22', 22, [2], (b) => b.init('s', FLOAT, [2], [1, 1]).node('RMSNormalization', ['x', 's'], ['y']), /RMSNormalization is an opset-23 op/);
  refuses('RMSNormalization stash_type 0', 23, [2], (b) => b.init('s', FLOAT, [2], [1, 1]).node('RMSNormalization', ['x', 's'], ['y'], { stash_type: 0 }), /stash_type 0 is not supported/);
});

test('Gelu-20 (none, tanh) agrees with onnxruntime-node; before 20 it is refused', async () => {
  for (const approximate of ['none', 'tanh']) await agree(`Gelu ${approximate}`, 20, [3, 7], (b) => b.node('Gelu', ['x'], ['y'], { approximate }));
  refuses('Gelu at 18', 18, [2], (b) => b.node('Gelu', ['x'], ['y']), /Gelu is an opset-20 op/);
  refuses('Gelu approximate', 20, [2], (b) => b.node('Gelu', ['x'], ['y'], { approximate: 'erf' }), /approximate must be "none" or "tanh"/);
});

test('GroupNormalization-21 (per-channel scale) agrees with onnxruntime-node', async () => {
  for (const [xs, G] of [[[2, 6, 5], 3], [[1, 4, 3, 3], 2], [[2, 3, 4, 2], 1], [[1, 4, 2, 2], 4]])
    await agree(`GroupNormalization ${xs} G=${G}`, 21, xs, (b) => {
      b.init('s', FLOAT, [xs[1]], rand(xs[1])).init('b', FLOAT, [xs[1]], rand(xs[1]));
      b.node('GroupNormalization', ['x', 's', 'b'], ['y'], { num_groups: G, epsilon: F(1e-3) });
    }, 1e-4);
});

test('GroupNormalization-18 scales per group; a per-channel scale there is refused', async () => {
  // onnxruntime-node runs GroupNormalization-18 through the spec's function body: the same per-group scale
  await agree('GroupNormalization-18', 18, [2, 6, 3], (b) => {
    b.init('s', FLOAT, [3], [0.5, -1, 2]).init('b', FLOAT, [3], [1, 0, -1]);
    b.node('GroupNormalization', ['x', 's', 'b'], ['y'], { num_groups: 3 });
  }, 1e-4);
  refuses('GN-18 per channel', 18, [2, 6, 3], (b) => {
    b.init('s', FLOAT, [6], rand(6)).init('b', FLOAT, [6], rand(6));
    b.node('GroupNormalization', ['x', 's', 'b'], ['y'], { num_groups: 3 });
  }, /must be float32 \[3\] at opset 18 \(per group\)/);
  refuses('GN groups', 21, [2, 6, 3], (b) => {
    b.init('s', FLOAT, [6], rand(6)).init('b', FLOAT, [6], rand(6));
    b.node('GroupNormalization', ['x', 's', 'b'], ['y'], { num_groups: 4 });
  }, /divisible by num_groups 4/);
});

test('AffineGrid-20 (2-D) agrees with onnxruntime-node; 3-D and a runtime size are refused', async () => {
  for (const align_corners of [0, 1])
    for (const size of [[2, 3, 4, 5], [2, 1, 3, 7]])
      await agree(`AffineGrid ${size} align=${align_corners}`, 20, [2, 2, 3], (b) => {
        b.init('size', INT64, [4], size.map(BigInt));
        b.node('AffineGrid', ['x', 'size'], ['y'], { align_corners });
      });
  refuses('AffineGrid 3-D', 20, [2, 3, 4], (b) => {
    b.init('size', INT64, [5], [2n, 1n, 2n, 3n, 4n]);
    b.node('AffineGrid', ['x', 'size'], ['y'], {});
  }, /only the 2-D form/);
  const b = new OnnxBuilder(20);
  b.input('x', FLOAT, [1, 2, 3]).input('size', INT64, [4]).node('AffineGrid', ['x', 'size'], ['y']).output('y', FLOAT, null);
  assert.throws(() => convert(b.bytes()), /the size input must be a constant/);
});

test('Pad-19 wrap agrees with onnxruntime-node; wrap before 19 is refused', async () => {
  await agree('Pad wrap', 19, [3, 4], (b) => {
    b.init('p', INT64, [4], [1n, 2n, 2n, 1n]);
    b.node('Pad', ['x', 'p'], ['y'], { mode: 'wrap' });
  });
  refuses('wrap at 18', 18, [3, 4], (b) => {
    b.init('p', INT64, [4], [1n, 2n, 2n, 1n]);
    b.node('Pad', ['x', 'p'], ['y'], { mode: 'wrap' });
  }, /mode 'wrap' is opset 19/);
});

test('DFT-20 axis input agrees with onnxruntime-node', async () => {
  await agree('DFT-20 axis 1', 20, [2, 6, 3, 1], (b) => {
    b.init('axis', INT64, [], [1n]);
    b.node('DFT', ['x', '', 'axis'], ['y'], {});
  }, 1e-4);
});

test('GridSample-20 modes linear / cubic agree with onnxruntime-node; bilinear at 20 is refused', async () => {
  for (const mode of ['linear', 'nearest', 'cubic'])
    await agree(`GridSample-20 ${mode}`, 20, [1, 2, 4, 5], (b) => {
      b.init('g', FLOAT, [1, 3, 3, 2], rand(18).map((v) => v * 1.2));
      b.node('GridSample', ['x', 'g'], ['y'], { mode, align_corners: 0 });
    }, 1e-4);
  refuses('bilinear at 20', 20, [1, 2, 4, 5], (b) => {
    b.init('g', FLOAT, [1, 3, 3, 2], rand(18));
    b.node('GridSample', ['x', 'g'], ['y'], { mode: 'bilinear' });
  }, /mode 'bilinear' is not valid at opset 20/);
});

test('Cast-19 saturate is accepted for non-float8 targets; float8 and int4 are refused by name', async () => {
  // (onnxruntime refuses saturate on a non-float8 Cast; the spec says it is unused there)
  const x = rand(6);
  const h = rt.load(convert(model(19, [2, 3], (b) => b.node('Cast', ['x'], ['y'], { to: FLOAT, saturate: 0 }))).holo);
  assert.equal([...h.run({ x: { data: x, shape: [2, 3] } }).y.data], [...x]);
  h.dispose();
  refuses('saturate at 18', 18, [2], (b) => b.node('Cast', ['x'], ['y'], { to: FLOAT, saturate: 1 }), /'saturate' is opset 19/);
  refuses('f8', 19, [2], (b) => b.node('Cast', ['x'], ['y'], { to: 17 }), /cast to float8e4m3fn \(opset 19\) is not supported/);
  refuses('int4', 21, [2], (b) => b.node('Cast', ['x'], ['y'], { to: 22 }), /cast to int4 \(opset 21\) is not supported/);
});

test('the ops of 18..21 not implemented are refused with their reason', () => {
  refuses('Resize half_pixel_symmetric', 19, [1, 1, 2, 2], (b) => {
    b.init('sc', FLOAT, [4], [1, 1, 2, 2]);
    b.node('Resize', ['x', '', 'sc'], ['y'], { mode: 'linear', coordinate_transformation_mode: 'half_pixel_symmetric' });
  }, /'half_pixel_symmetric' \(opset 19\) is not supported/);
  refuses('DeformConv', 19, [1, 1, 3, 3], (b) => b.node('DeformConv', ['x', 'x', 'x'], ['y'], { kernel_shape: [1, 1] }), /DeformConv: kernel_shape \[1,1\] is not W's \[3, 3\]/);
  refuses('Col2Im', 18, [1, 4, 4], (b) => b.node('Col2Im', ['x', 'x', 'x'], ['y']), /Col2Im: image_shape must be a constant int64 tensor/);
  refuses('QuantizeLinear block', 21, [2, 4], (b) => {
    b.init('s', FLOAT, [2, 2], [1, 1, 1, 1]);
    b.node('QuantizeLinear', ['x', 's'], ['y'], { block_size: 2, axis: 1 });
  }, /blocked quantization/);
});

test.run();
