// One implementation per verb (issue 17 item 5), part 1: --help, usage errors and
// every verb that succeeds give the same stdout, stderr, files and exit code
// through the npm package's `node bindings-js/bin/holo.js` as through
// `node tools/wasi-run.mjs` (holo.wasm, `.` preopened, as `wasmtime run --dir .`),
// and the same stdout (the variant aside), files, exit code and stderr class as
// build/native/holo; each program in its own copy of one directory, files
// compared tree against tree (tests/js/cli-parity-lib.mjs). Part 2, the error
// cases: tests/js/cli-parity-errors.test.mjs.
import { test } from 'uvu';
import { parity, VOCAB } from './cli-parity-lib.mjs';

// [args, exit code, what stdout must show, what stderr must be instead of one `holo: ` line], in order
// (the warm-store pair depends on it).
const CASES = [
  [['--help'], 0, /^usage: holo VERB/],
  [['help'], 0, /^usage: holo VERB/],
  [['run', '--help'], 0, /--memory-budget/],
  [['generate', '--help'], 0, /^usage: holo generate/],
  [[], 1, null, /^usage: holo VERB/], // the usage, on stderr
  [['frobnicate', 'fx/mlp.holo'], 1],
  [['run', 'fx/mlp.holo', '--bogus'], 1],
  [['run', 'fx/mlp.holo', '--input'], 1],
  [['run'], 1],
  [['run', 'fx/mlp.holo', 'fx/cse.holo'], 1],
  [['info', 'fx/mlp.holo', '--input', 'in/x.npy'], 1],
  [['info', 'fx/mlp.holo'], 0, /^ops: MatMul=3 Add=3 Relu=2$/m],
  [['info', 'fx/symbolic.holo'], 0, /^input 0 x: float32 \[batch,4\]$/m],
  [['info', 'fx/refine-step.holo'], 0, /^metadata purpose: refinement fixture$/m],
  [['dump', 'fx/cnn.holo'], 0, /"nodes"/],
  [['verify', 'fx/mlp.holo'], 0, /every constant label matches/],
  [['verify', 'flipped.holo'], 2],
  [['run', 'fx/mlp.holo'], 0, /<- \(generated\)/],
  [['run', 'fx/mlp.holo', '-i', 'in/x.npy', '-o', 'out', '--print'], 0, /-> out\/add2_out\.npy = /],
  [['run', 'fx/symbolic.holo', '-i', 'in/x.f32', '--dtype', 'f4', '--shape', '16,4', '--output', '0=sym.npy'], 0, /\[16,3\] -> sym\.npy/],
  [['run', 'fx/symbolic.holo', '-i', 'x=in/x.f32', '--input-dtype', 'float32'], 0, /\.\.\. \(48 values; --print shows all\)/],
  [['run', 'fx/cone.holo', '--warm-store', 'ws', '--output', 'cone-cold.npy'], 0, /^load: .*store_puts=1 /m],
  [['run', 'fx/cone.holo', '--warm-store', 'ws', '--trust-store', '--output', 'cone-warm.npy'], 0, /^load: .*dispatches=0 .*store_hits=1 /m],
  [['run', 'fx/mlp.holo', '--memory-budget', '1m'], 0],
  [['bench', 'fx/mlp.holo', '--repeat', '3'], 0, /"memo_hits_in_repeat":3/],
  [['refine', 'fx/refine-step.holo', '-i', 'in/state.npy', '-i', 'in/step.npy', '--state-in', 'state', '--state-out', '0', '-o', 'refined'], 0, /"status":"converged"/],
  [['generate', 'fx/gen-bigram.holo', '--prompt', 'abc', '--vocab', VOCAB, '--max-tokens', '24', '--greedy'], 0, /^[a-z .,!?;]{24}\n$/],
  [['generate', 'fx/gen-bigram.holo', '--prompt', 'abc', '--vocab', VOCAB, '--max-tokens', '24', '--seed', '7', '--temperature', '1.2'], 0],
];

test('--help, usage errors and every verb: the npm bin == holo.wasm under tools/wasi-run.mjs == native', () => parity(CASES));

test.run();
