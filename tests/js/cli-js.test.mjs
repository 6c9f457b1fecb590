// The `holo` command shipped in the npm package (bindings-js/bin/holo.js):
// `convert` in JS, every other verb the C program (dist/wasi/holo.wasm under
// node:wasi, bin/wasi-runner.js) -- tests/js/cli-parity.test.mjs shows each
// verb and error case equal to tools/wasi-run.mjs and the native build. Here:
// what the package ships, the host the runner gives holo.wasm (paths relative,
// ../ and absolute, stdin/stdout/stderr, exit codes, traps, a missing module,
// the node flags), the command lines of the earlier JS-only CLI, and convert.
// Every call spawns `node` on the bin.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import binaryen from 'binaryen';
import { load } from '../../bindings-js/index.js';
import { NODE_WASI_FLAGS as RUNNER_FLAGS, wasiHost } from '../../bindings-js/bin/wasi-runner.js';
import { NODE_WASI_FLAGS } from '../../tools/wasi-run.mjs';
import { OnnxBuilder, FLOAT, rand } from './onnx-build.mjs';
import { ROOT, PKG, fixture } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'holo.js');
const NATIVE = process.env.HOLO_BIN ?? join(ROOT, 'build', 'native', 'holo'); // override to test another build
const MLP = join(ROOT, 'tests', 'fixtures', 'mlp.holo');
const dir = fs.mkdtempSync(join(tmpdir(), 'holo-cli-js-'));
const holo = (args, opts = {}) => spawnSync(process.execPath, [...(opts.node ?? []), BIN, ...args], { encoding: 'utf8', cwd: opts.cwd ?? dir, timeout: 120000, input: opts.input, env: { ...process.env, ...opts.env } });
const native = (args, cwd) => spawnSync(NATIVE, args, { encoding: 'utf8', cwd, timeout: 60000 });
const oneLine = (r, code, re) => {
  assert.is(r.status, code, `exit ${r.status}, want ${code}: ${r.stderr}`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.is(lines.length, 1, `one stderr line: ${r.stderr}`);
  assert.match(lines[0], /^holo: /);
  if (re) assert.match(lines[0], re);
};
const maskTimes = (t) => t.replace(/^(load_ms|execute_ms): [0-9.]+$/gm, '$1: T').replace(/^variant: \S+$/m, 'variant: V');
const x64 = Float32Array.from({ length: 64 }, (_, k) => Math.cos(k * 0.11) - 0.2);
function npy(shape, f32) {
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64, head = Buffer.alloc(10);
  head.write('\x93NUMPY', 'latin1');
  head[6] = 1;
  head.writeUInt16LE(total - 10, 8);
  return Buffer.concat([head, Buffer.from(dict.padEnd(total - 11, ' ') + '\n', 'latin1'), Buffer.from(f32.buffer)]);
}

test('the package ships the bin, its runner and holo.wasm (the bytes `make build` made)', () => {
  const pkg = JSON.parse(fs.readFileSync(join(PKG, 'package.json'), 'utf8'));
  assert.equal(pkg.bin, { holo: './bin/holo.js' });
  for (const f of ['bin/holo.js', 'bin/wasi-runner.js', 'dist/wasi/holo.wasm']) assert.ok(pkg.files.includes(f), `files lacks ${f}`);
  assert.ok(fs.statSync(BIN).mode & 0o111, 'executable');
  assert.match(fs.readFileSync(BIN, 'utf8').split('\n')[0], /^#!\/usr\/bin\/env node$/);
  const shipped = join(PKG, 'dist', 'wasi', 'holo.wasm'), built = join(ROOT, 'build', 'wasm', 'holo.wasm');
  assert.ok(fs.existsSync(shipped), `${shipped} is not built: run \`make build\``);
  assert.ok(fs.readFileSync(shipped).equals(fs.readFileSync(built)), 'dist/wasi/holo.wasm is build/wasm/holo.wasm');
  assert.equal(RUNNER_FLAGS, NODE_WASI_FLAGS, 'the package and tools/wasi-run.mjs run node:wasi with the same flags');
});

test('paths relative, ../, ./ and absolute, inputs, outputs and the warm store: as the native program resolves them', () => {
  if (!fs.existsSync(NATIVE)) assert.unreachable(`${NATIVE} is not built: run \`make build\``);
  for (const k of ['js', 'native']) {
    fs.mkdirSync(join(dir, k, 'deep', 'er'), { recursive: true });
    fs.copyFileSync(MLP, join(dir, k, 'mlp.holo'));
    fs.writeFileSync(join(dir, k, 'x.npy'), npy([1, 64], x64));
  }
  const cases = (k) => [
    ['run', '../../mlp.holo', '-i', '../../x.npy', '-o', '../outs'],
    ['run', join(dir, k, 'mlp.holo'), '-i', `x=${join(dir, k, 'x.npy')}`, '--warm-store', join(dir, k, 'ws'), '--output', `0=${join(dir, k, 'abs.npy')}`],
    ['run', './../../mlp.holo', '-o', 'here', '--print'],
    ['verify', './../../mlp.holo'],
    ['info', '../er/../../mlp.holo'],
  ];
  for (let c = 0; c < cases('js').length; c++) {
    const js = holo(cases('js')[c], { cwd: join(dir, 'js', 'deep', 'er') });
    const n = native(cases('native')[c], join(dir, 'native', 'deep', 'er'));
    assert.is(js.status, 0, `${cases('js')[c].join(' ')}: ${js.stderr}`);
    assert.is(n.status, 0, n.stderr);
    assert.is(maskTimes(js.stdout), maskTimes(n.stdout).replaceAll(join(dir, 'native'), join(dir, 'js')));
  }
  for (const f of ['deep/outs/add2_out.npy', 'abs.npy', 'deep/er/here/add2_out.npy'])
    assert.ok(fs.readFileSync(join(dir, 'js', f)).equals(fs.readFileSync(join(dir, 'native', f))), f);
  assert.equal(fs.readdirSync(join(dir, 'js', 'ws')), fs.readdirSync(join(dir, 'native', 'ws')));
  assert.equal(wasiHost('/a/b c/d'), { preopens: { '/': '/' }, env: { PWD: '/a/b c/d' } });
  assert.equal(wasiHost('/'), { preopens: { '/': '/' }, env: { PWD: '/' } });
});

// Programs made for the runner (HOLO_WASM runs another module in the package's place).
function wat(name, text) {
  const m = binaryen.parseText(text);
  const file = join(dir, name);
  fs.writeFileSync(file, m.emitBinary());
  m.dispose();
  return file;
}
const WASI_IMPORTS = `
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)`;

test('the runner: stdin to the program, its stdout and stderr, its exit code; a trap or a missing module is one line', () => {
  // reads stdin once, writes it to stdout and "err\n" to stderr, exits 3
  const echo = wat('echo.wasm', `(module ${WASI_IMPORTS}
    (data (i32.const 2048) "err\\n")
    (func (export "_start")
      (i32.store (i32.const 0) (i32.const 64)) (i32.store (i32.const 4) (i32.const 1024))
      (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 16)))
      (i32.store (i32.const 4) (i32.load (i32.const 16)))
      (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 20)))
      (i32.store (i32.const 0) (i32.const 2048)) (i32.store (i32.const 4) (i32.const 4))
      (drop (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 20)))
      (call $proc_exit (i32.const 3))))`);
  let r = holo(['info', 'x'], { env: { HOLO_WASM: echo }, input: 'from stdin' });
  assert.is(r.status, 3, r.stderr);
  assert.is(r.stdout, 'from stdin');
  assert.is(r.stderr, 'err\n');
  const trap = wat('trap.wasm', `(module ${WASI_IMPORTS} (func (export "_start") unreachable))`);
  oneLine(holo(['run', 'x'], { env: { HOLO_WASM: trap } }), 2, /^holo: holo\.wasm trapped: unreachable/);
  const deep = wat('deep.wasm', `(module ${WASI_IMPORTS} (func $f (export "_start") (call $f)))`);
  oneLine(holo(['run', 'x'], { env: { HOLO_WASM: deep } }), 4, /^holo: holo\.wasm ran out of engine resources: Maximum call stack size exceeded/);
  oneLine(holo(['info', 'x'], { env: { HOLO_WASM: join(dir, 'none.wasm') } }), 4, /none\.wasm: cannot read the WASI program \(ENOENT\)/);
  fs.writeFileSync(join(dir, 'bad.wasm'), 'not wasm');
  oneLine(holo(['info', 'x'], { env: { HOLO_WASM: join(dir, 'bad.wasm') } }), 4, /bad\.wasm: cannot instantiate the WASI program/);
});

test('node started with the flags runs holo.wasm in-process: the same output', () => {
  const a = holo(['info', MLP]), b = holo(['info', MLP], { node: NODE_WASI_FLAGS });
  assert.is(a.status, 0, a.stderr);
  assert.is(b.status, 0, b.stderr);
  assert.is(maskTimes(a.stdout), maskTimes(b.stdout));
  assert.is(b.stderr, '', 'no ExperimentalWarning either');
});

test('command lines of the earlier JS-only holo: work, or say why not', async () => {
  fs.writeFileSync(join(dir, 'x.f32'), new Uint8Array(x64.buffer));
  let r = holo(['run', MLP, '--input', 'x=x.f32', '--dtype', 'f4', '--shape', '1,64', '--output', 'add2:out=raw.npy']);
  assert.is(r.status, 0, r.stderr);
  r = holo(['run', MLP, '-i', 'x.f32', '--input-dtype', 'float32', '--output', '0=raw2.npy', '--memory-budget', '64m']);
  assert.is(r.status, 0, r.stderr);
  assert.ok(fs.readFileSync(join(dir, 'raw.npy')).equals(fs.readFileSync(join(dir, 'raw2.npy'))));
  const s = await load(fixture('mlp'));
  const [y] = s.execute([x64]);
  assert.ok(fs.readFileSync(join(dir, 'raw.npy')).subarray(-40).equals(Buffer.from(y.data.buffer)), 'the JS binding\'s output');
  s.dispose();
  r = holo(['bench', MLP, '--repeat', '3', '--warm-store', 'ws', '--trust-store', '--variant', 'simd128']);
  assert.is(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.variant, 'simd128');
  assert.is(j.memo_hits_in_timed, 0);
  for (const k of ['archive', 'backend', 'repeat', 'load_ms', 'median_ms', 'min_ms', 'max_ms', 'dispatches_per_execution', 'memo_hits_in_timed', 'memo_hit_median_ms', 'memo_hits_in_repeat'])
    assert.ok(k in j, `bench JSON keeps ${k}`);
  oneLine(holo(['info', MLP, '--variant', 'scalar']), 1, /--variant scalar: this holo is built with the simd128 kernels \(one variant per build; the npm library's init\(undefined, \{variant\}\) chooses/);
  r = holo(['info', MLP]);
  assert.match(r.stdout, /^nodes: 8$/m);
  assert.match(r.stdout, /^ops: MatMul=3 Add=3 Relu=2$/m);
  assert.match(r.stdout, /^label: sha256:[0-9a-f]{64}$/m);
  r = holo([]);
  assert.is(r.status, 1, 'no verb: the usage on stderr, exit 1 (as every build of holo)');
  assert.match(r.stderr, /^usage: holo VERB/);
  for (const a of [['--help'], ['help', 'run'], ['info', '--help']]) {
    r = holo(a);
    assert.is(r.status, 0, a.join(' '));
    assert.match(r.stdout, /^usage: holo VERB/);
    assert.match(r.stdout, /^  convert MODEL\.onnx -o FILE\.holo /m);
  }
  assert.match(holo(['--version']).stdout.trim(), /^\d+\.\d+\.\d+$/);
});

test('convert --help: the JS converter\'s own usage', () => {
  for (const a of [['convert', '--help'], ['help', 'convert'], ['convert', '-h']]) {
    const r = holo(a);
    assert.is(r.status, 0, r.stderr);
    assert.match(r.stdout, /^usage: holo convert MODEL\.onnx -o FILE\.holo/);
    assert.match(r.stdout, /--no-fold/);
  }
  oneLine(holo(['convert', 'm.onnx']), 1, /-o <output>/);
  oneLine(holo(['convert', 'm.onnx', '-o', 'x.holo', '--bogus']), 1, /unknown option '--bogus'/);
});

function onnxMlp() {
  const b = new OnnxBuilder(13);
  b.input('x', FLOAT, ['batch', 8]);
  b.init('w1', FLOAT, [8, 16], rand(128, 0.5)).init('b1', FLOAT, [16], rand(16, 0.1));
  b.node('MatMul', ['x', 'w1'], ['h1']).node('Add', ['h1', 'b1'], ['h2']).node('Relu', ['h2'], ['y']);
  b.output('y', FLOAT, ['batch', 16]);
  return b.bytes();
}

test('convert: writes an archive `holo run` executes; --progress reports on stderr, silent otherwise', () => {
  fs.writeFileSync(join(dir, 'm.onnx'), onnxMlp());
  let r = holo(['convert', 'm.onnx', '-o', 'm.holo', '--shape', 'x=2,8']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stderr, '', 'no progress when stderr is not a terminal');
  assert.match(r.stdout, /^wrote m\.holo: \d+ bytes/);
  r = holo(['convert', 'm.onnx', '-o', 'm2.holo', '--progress']);
  assert.is(r.status, 0, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  assert.ok(lines.length >= 3 && lines.every((l) => /^holo: converting: .*, \d+\.\d s$/.test(l)), r.stderr);
  assert.ok(lines.some((l) => /node 3\/3 \(100%\)/.test(l)), r.stderr);
  r = holo(['run', 'm.holo', '--print']);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^output 0 y: float32 \[2,16\] = /m);
  oneLine(holo(['convert', 'nope.onnx', '-o', 'x.holo']), 2, /^holo: nope\.onnx: cannot read/);
  fs.writeFileSync(join(dir, 'junk.onnx'), new Uint8Array([0xff, 0xff, 0xff, 0x01]));
  oneLine(holo(['convert', 'junk.onnx', '-o', 'j.holo']), 2, /^holo: junk\.onnx: /);
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
test.run();
