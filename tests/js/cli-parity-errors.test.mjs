// One implementation per verb (issue 17 item 5), part 2: every error case --
// missing file, bad archive, bad input, budget exhausted, bad flags, convert in
// the C program, a --variant not built in -- gives the same exit code, stdout,
// stderr and files through `node bindings-js/bin/holo.js` as through
// `node tools/wasi-run.mjs`, and the same exit code, stdout and stderr class as
// build/native/holo (tests/js/cli-parity-lib.mjs; part 1: cli-parity.test.mjs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parity, call, mask, VOCAB } from './cli-parity-lib.mjs';

const CASES = [
  // bad archive: exit 2
  [['info', 'missing.holo'], 2],
  [['run', 'fx'], 2],
  [['info', 'garbage.holo'], 2],
  [['run', 'trunc.holo'], 2],
  [['generate', 'missing.holo', '--prompt', 'a'], 2],
  // bad input: exit 3
  [['run', 'fx/mlp.holo', '-i', 'missing.npy'], 3],
  [['run', 'fx/mlp.holo', '-i', 'in/x64.npy'], 3],
  [['run', 'fx/mlp.holo', '-i', 'in/short.bin'], 3],
  [['run', 'fx/mlp.holo', '-i', 'in/x.f32', '--dtype', 'int32'], 3],
  [['run', 'fx/mlp.holo', '--warm-store', 'fx/mlp.holo'], 3],
  [['refine', 'fx/refine-step.holo'], 3],
  // usage: exit 1
  [['bench', 'fx/mlp.holo', '--repeat', '0'], 1],
  [['run', 'fx/mlp.holo', '--shape', 'nosuch=1,64'], 1],
  [['run', 'fx/mlp.holo', '--variant', 'gpu'], 1],
  [['run', 'fx/mlp.holo', '--warm-store', 'ws', '--warm-store-max-entries', '0'], 1],
  [['run', 'fx/mlp.holo', '--warm-store', 'ws', '--warm-store-max-bytes', '12x'], 1],
  [['run', 'fx/mlp.holo', '--warm-store-max-bytes', '1m'], 1], // a bound without a store
  [['generate', 'fx/gen-bigram.holo', '--prompt', 'abc', '--vocab', VOCAB, '--warm-store', 'ws', '--warm-store-max-entries', '-1'], 1],
  [['generate', 'fx/gen-bigram.holo', '--prompt', 'abc', '--vocab', VOCAB, '--max-tokens', 'abc'], 1],
  // resource: exit 4
  [['run', 'fx/mlp.holo', '--memory-budget', '100'], 4],
  [['bench', 'fx/mlp.holo', '--memory-budget', '100'], 4],
  [['convert', 'm.onnx', '-o', 'm.holo'], null], // JS converts; the C program says where the verb is
];

test('every error case: the npm bin == holo.wasm under tools/wasi-run.mjs == native', () => parity(CASES));

test('--variant: the variant built in runs; another is refused with a reason (the same from the bin and holo.wasm)', async () => {
  for (const [v, code] of [['simd128', 0], ['scalar', 1], ['relaxed', 1]]) {
    const args = ['info', 'fx/mlp.holo', '--variant', v];
    const [js, wasi] = await Promise.all(['js', 'wasi'].map((k) => call(k, args)));
    assert.is(js.status, code, js.stderr);
    assert.is(mask(js.stdout), mask(wasi.stdout));
    assert.is(js.stderr, wasi.stderr);
    if (code) assert.match(js.stderr, new RegExp(`^holo: --variant ${v}: this holo is built with the simd128 kernels`));
  }
  const n = await call('native', ['info', 'fx/mlp.holo', '--variant', 'scalar']);
  assert.is(n.status, 0, n.stderr);
  assert.match(n.stdout, /^variant: scalar$/m);
});

test.run();
