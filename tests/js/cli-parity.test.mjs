// One implementation per verb: every verb and error case gives the same
// stdout, stderr, files and exit code through the npm package's
// `node bindings-js/bin/holo.js` as through `node tools/wasi-run.mjs`
// (build/wasm/holo.wasm, `.` preopened, as `wasmtime run --dir .` does), and
// the same stdout (the `variant` aside), files, exit code and stderr class
// (one `holo: ` line) as the native build/native/holo. Each program runs in
// its own copy of the same directory, so the files each call leaves are
// compared byte for byte, tree against tree. Timings are the only fields
// masked. (`convert` is JS only: tests/js/cli-js.test.mjs.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { ROOT, PKG } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'holo.js');
const WASI_RUN = join(ROOT, 'tools', 'wasi-run.mjs');
const NATIVE = process.env.HOLO_BIN ?? join(ROOT, 'build', 'native', 'holo');
const HOLO_WASM = join(PKG, 'dist', 'holo.wasm');
const KINDS = ['js', 'wasi', 'native'];
const VOCAB = 'abcdefghijklmnopqrstuvwxyz .,!?;'; // the gen-* fixtures' 32 tokens

const TOP = fs.mkdtempSync(join(tmpdir(), 'holo-cli-parity-'));
test.after(() => fs.rmSync(TOP, { recursive: true, force: true }));

// The same starting tree for each program.
function npy(descr, shape, typed) {
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 'latin1');
  head[6] = 1;
  head.writeUInt16LE(total - 10, 8);
  return Buffer.concat([head, Buffer.from(dict.padEnd(total - 11, ' ') + '\n', 'latin1'), Buffer.from(typed.buffer, typed.byteOffset, typed.byteLength)]);
}
const x64 = Float32Array.from({ length: 64 }, (_, k) => Math.cos(k * 0.11) - 0.2);
for (const k of KINDS) {
  const d = join(TOP, k);
  fs.mkdirSync(join(d, 'fx'), { recursive: true });
  fs.mkdirSync(join(d, 'in'));
  for (const f of fs.readdirSync(join(ROOT, 'tests', 'fixtures')).filter((f) => f.endsWith('.holo')))
    fs.copyFileSync(join(ROOT, 'tests', 'fixtures', f), join(d, 'fx', f));
  fs.writeFileSync(join(d, 'in', 'x.npy'), npy('<f4', [1, 64], x64));
  fs.writeFileSync(join(d, 'in', 'x.f32'), Buffer.from(x64.buffer));
  fs.writeFileSync(join(d, 'in', 'x64.npy'), npy('<f8', [1, 64], new Float64Array(64)));
  fs.writeFileSync(join(d, 'in', 'short.bin'), Buffer.alloc(100));
  fs.writeFileSync(join(d, 'in', 'state.npy'), npy('<f4', [8], Float32Array.of(5, 3, 0.5, 0, 2, 1, 4, 3)));
  fs.writeFileSync(join(d, 'in', 'step.npy'), npy('<f4', [8], new Float32Array(8).fill(1)));
  fs.writeFileSync(join(d, 'garbage.holo'), 'not an archive, just some text for the reader');
  const mlp = fs.readFileSync(join(d, 'fx', 'mlp.holo'));
  fs.writeFileSync(join(d, 'trunc.holo'), mlp.subarray(0, 300));
  const flipped = Buffer.from(mlp);
  flipped[flipped.length >> 1] ^= 1;
  fs.writeFileSync(join(d, 'flipped.holo'), flipped);
}

function call(kind, args) {
  const [cmd, argv] = kind === 'js' ? [process.execPath, [BIN, ...args]]
    : kind === 'wasi' ? [process.execPath, [WASI_RUN, ...args]] : [NATIVE, args];
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, argv, { cwd: join(TOP, kind), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    c.stdout.on('data', (b) => (stdout += b));
    c.stderr.on('data', (b) => (stderr += b));
    const timer = setTimeout(() => c.kill('SIGKILL'), 120000);
    c.on('error', reject);
    c.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status: status ?? `signal ${signal}`, stdout, stderr });
    });
  });
}

/** Timings masked; `native` also masks the kernel variant (scalar there, simd128 in holo.wasm). */
function mask(t, native) {
  let s = t.replace(/^(load_ms|execute_ms): [0-9.]+$/gm, '$1: T')
    .replace(/"(\w+_ms|tokens_per_s)": ?[-0-9.e+]+/g, '"$1":T');
  if (native) s = s.replace(/^variant: \S+$/m, 'variant: V').replace(/"variant":"[^"]*"/, '"variant":"V"');
  return s;
}

/** path -> sha256 of every file under dir. */
function tree(dir, rel = '', out = {}) {
  for (const e of fs.readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) tree(dir, r, out);
    else out[r] = createHash('sha256').update(fs.readFileSync(join(dir, r))).digest('hex');
  }
  return out;
}

// [args, exit code, what stdout must show, what stderr must be instead of one `holo: ` line]; run in this order (the warm-store pair depends on it).
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
  [['generate', 'fx/gen-bigram.holo', '--prompt', 'abc', '--vocab', VOCAB, '--max-tokens', 'abc'], 1],
  // resource: exit 4
  [['run', 'fx/mlp.holo', '--memory-budget', '100'], 4],
  [['bench', 'fx/mlp.holo', '--memory-budget', '100'], 4],
  [['convert', 'm.onnx', '-o', 'm.holo'], null], // JS converts; the C program says where the verb is
];

test('every verb and error case: the npm bin == holo.wasm under tools/wasi-run.mjs == native', async () => {
  if (!fs.existsSync(HOLO_WASM)) assert.unreachable(`${HOLO_WASM} is not built: run \`make build\``);
  if (!fs.existsSync(NATIVE)) assert.unreachable(`${NATIVE} is not built: run \`make build\``);
  for (const [args, code, shows, stderrIs] of CASES) {
    const what = `holo ${args.join(' ')}`;
    const [js, wasi, native] = await Promise.all(KINDS.map((k) => call(k, args)));
    if (code === null) { // convert: not a verb of the C program in any build
      for (const r of [wasi, native]) {
        assert.is(r.status, 4, `${what}: ${r.stderr}`);
        assert.match(r.stderr, /^holo: convert: the ONNX converter is JavaScript.*npx hologram-exec convert/);
      }
      assert.is(js.status, 2, `${what} (js, no such model): ${js.stderr}`);
      assert.match(js.stderr, /^holo: m\.onnx: cannot read: no such file or directory\n$/);
      continue;
    }
    for (const [k, r] of [['js', js], ['wasi', wasi], ['native', native]]) {
      assert.is(r.status, code, `${what} (${k}): exit ${r.status}, want ${code}; stderr: ${r.stderr}`);
      if (stderrIs) assert.match(r.stderr, stderrIs, `${what} (${k})`);
      else if (code !== 0 || args[0] !== 'generate') {
        const lines = r.stderr.split('\n').filter(Boolean);
        assert.is(lines.length, code === 0 ? 0 : 1, `${what} (${k}): stderr ${JSON.stringify(r.stderr)}`);
        for (const l of lines) assert.match(l, /^holo: /, `${what} (${k})`);
      }
      if (shows) assert.match(r.stdout, shows, `${what} (${k}): stdout\n${r.stdout}`);
    }
    assert.is(mask(js.stderr), mask(wasi.stderr), `${what}: stderr, js vs wasi`);
    assert.is(mask(js.stdout), mask(wasi.stdout), `${what}: stdout, js vs wasi`);
    assert.is(mask(native.stdout, true), mask(wasi.stdout, true), `${what}: stdout, native vs wasi`);
    if (args[0] === 'generate' && code === 0) assert.is(mask(native.stderr), mask(wasi.stderr), `${what}: summary, native vs wasi`);
    const [tj, tw, tn] = KINDS.map((k) => tree(join(TOP, k)));
    assert.equal(tj, tw, `${what}: files, js vs wasi`);
    assert.equal(tn, tw, `${what}: files, native vs wasi`);
  }
  assert.ok(fs.existsSync(join(TOP, 'js', 'out', 'add2_out.npy')) && fs.existsSync(join(TOP, 'js', 'ws')), 'the cases wrote files');
});

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
