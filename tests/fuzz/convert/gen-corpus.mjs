// Seed inputs for fuzz_convert (issue 16), written to a staging directory
// (default build/fuzz/convert/seeds): the ONNX backend-test node models from
// Debian's libonnx-testdata (when installed), small models built like the
// converter tests' (tests/js/onnx-build.mjs), the hand-built hostile models and a
// fixed-seed sample of fast-check's broken graphs (models.mjs). `make
// fuzz-convert-corpus` then minimises them with Jazzer's -merge into the
// committed tests/fuzz/corpus/convert/.
//   node tests/fuzz/convert/gen-corpus.mjs [outdir]
import { mkdirSync, readdirSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import fc from 'fast-check';
import { brokenModel, hostileModels } from './models.mjs';
import { OnnxBuilder, FLOAT, INT64, F, T } from '../../js/onnx-build.mjs';

const MAX_SEED = 64 * 1024;
const out = process.argv[2] ?? 'build/fuzz/convert/seeds';
mkdirSync(out, { recursive: true });
let n = 0;
const put = (bytes) => {
  if (bytes.length > MAX_SEED) return;
  writeFileSync(join(out, createHash('sha1').update(bytes).digest('hex')), bytes);
  n++;
};

export const TESTDATA = '/usr/share/libonnx-testdata/data/node';
if (existsSync(TESTDATA))
  for (const d of readdirSync(TESTDATA)) {
    const f = join(TESTDATA, d, 'model.onnx');
    if (existsSync(f)) put(readFileSync(f));
  }

const mlp = new OnnxBuilder(13).input('x', FLOAT, ['N', 4]).init('w', FLOAT, [4, 3], Array(12).fill(0.5)).init('b', FLOAT, [3], [1, 2, 3])
  .node('MatMul', ['x', 'w'], ['h']).node('Add', ['h', 'b'], ['a']).node('Relu', ['a'], ['y']).output('y', FLOAT, ['N', 3]);
put(mlp.bytes());
const cnn = new OnnxBuilder(11).input('x', FLOAT, [1, 1, 6, 6]).init('w', FLOAT, [2, 1, 3, 3], Array(18).fill(0.1))
  .node('Conv', ['x', 'w'], ['c'], { pads: [1, 1, 1, 1], strides: [1, 1] }).node('MaxPool', ['c'], ['p'], { kernel_shape: [2, 2], strides: [2, 2] })
  .node('Flatten', ['p'], ['f']).node('Softmax', ['f'], ['y'], { axis: 1 }).output('y', FLOAT, [1, 18]);
put(cnn.bytes());
const shp = new OnnxBuilder(13).input('x', FLOAT, ['N', 2, 3]).init('s', INT64, [2], [0, -1])
  .node('Shape', ['x'], ['sh']).node('Reshape', ['x', 's'], ['r']).node('LeakyRelu', ['r'], ['l'], { alpha: F(0.2) })
  .node('ConstantOfShape', ['sh'], ['z'], { value: T(FLOAT, [1], [0]) }).output('l', FLOAT, null).output('z', FLOAT, null);
put(shp.bytes());
const old = new OnnxBuilder(6).input('a', FLOAT, [2, 3]).input('b', FLOAT, [3]).node('Add', ['a', 'b'], ['y'], { broadcast: 1 }).output('y', FLOAT, [2, 3]);
put(old.bytes());

for (const [, bytes] of hostileModels()) put(bytes);
for (const bytes of fc.sample(brokenModel, { seed: 16, numRuns: 300 })) put(bytes);
console.log(`gen-corpus: ${n} seeds in ${out}`);
