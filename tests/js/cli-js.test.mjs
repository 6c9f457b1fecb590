// The `holo` command shipped in the npm package (bindings-js/bin/holo.js):
// convert / info / run / bench, --help on each verb, exit codes 0-4 and the
// one-line `holo: <file>: <cause>` messages, .npy in and out (byte-identical
// to the C program's), progress on stderr. Every call spawns `node` on the bin.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { load } from '../../bindings-js/index.js';
import { npyBytes, parseNpy, fmtG, parseDtype } from '../../bindings-js/bin/holo.js';
import { OnnxBuilder, FLOAT, rand } from './onnx-build.mjs';
import { ROOT, PKG, fixture } from './helpers.mjs';

const BIN = join(PKG, 'bin', 'holo.js');
const NATIVE = process.env.HOLO_BIN ?? join(ROOT, 'build', 'native', 'holo'); // override to test another build
const MLP = join(ROOT, 'tests', 'fixtures', 'mlp.holo');
const SYM = join(ROOT, 'tests', 'fixtures', 'symbolic.holo');
const dir = fs.mkdtempSync(join(tmpdir(), 'holo-cli-js-'));
const holo = (...a) => spawnSync(process.execPath, [BIN, ...a], { encoding: 'utf8', cwd: dir, timeout: 60000 });
const oneLine = (r, code, re) => {
  assert.is(r.status, code, `exit ${r.status}, want ${code}: ${r.stderr}`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.is(lines.length, 1, `one stderr line: ${r.stderr}`);
  assert.match(lines[0], /^holo: /);
  if (re) assert.match(lines[0], re);
};
const x64 = Float32Array.from({ length: 64 }, (_, k) => Math.cos(k * 0.11) - 0.2);

test('package.json ships the bin: "holo" -> ./bin/holo.js, executable, with a node shebang', () => {
  const pkg = JSON.parse(fs.readFileSync(join(PKG, 'package.json'), 'utf8'));
  assert.equal(pkg.bin, { holo: './bin/holo.js' });
  assert.ok(pkg.files.includes('bin/holo.js'));
  assert.ok(fs.statSync(BIN).mode & 0o111, 'executable');
  assert.match(fs.readFileSync(BIN, 'utf8').split('\n')[0], /^#!\/usr\/bin\/env node$/);
});

test('--help: the top level and each verb, exit 0', () => {
  let r = holo('--help');
  assert.is(r.status, 0);
  for (const v of ['convert', 'info', 'run', 'bench']) assert.match(r.stdout, new RegExp(`^  ${v} `, 'm'));
  assert.is(holo().status, 0);
  for (const v of ['convert', 'info', 'run', 'bench']) {
    r = holo(v, '--help');
    assert.is(r.status, 0, v);
    assert.match(r.stdout, new RegExp(`^usage: holo ${v} `), v);
    assert.is(r.stderr, '');
    assert.is(holo('help', v).stdout, r.stdout);
  }
  assert.match(holo('run', '--help').stdout, /--input \[PORT=\]FILE/);
  assert.match(holo('bench', '-h').stdout, /--repeat N/);
  assert.match(holo('--version').stdout.trim(), /^\d+\.\d+\.\d+/);
});

test('usage errors exit 1 with one line', () => {
  oneLine(holo('frobnicate'), 1, /unknown verb 'frobnicate'/);
  oneLine(holo('run', MLP, '--bogus'), 1, /unknown option '--bogus'/);
  oneLine(holo('run', MLP, '--input'), 1, /--input needs a value/);
  oneLine(holo('run'), 1, /run needs one archive/);
  oneLine(holo('run', MLP, MLP), 1, /unexpected argument/);
  oneLine(holo('info'), 1);
  oneLine(holo('bench', MLP, '--repeat', '0'), 1, /--repeat 0/);
  oneLine(holo('run', MLP, '--shape', '1,x'), 1, /--shape 1,x: expected dims/);
  oneLine(holo('run', MLP, '--dtype', 'complex64'), 1, /unknown dtype/);
  oneLine(holo('run', MLP, '--memory-budget', 'lots'), 1, /--memory-budget lots/);
  oneLine(holo('run', MLP, '--variant', 'gpu'), 1, /--variant gpu/);
  oneLine(holo('run', MLP, '--shape', 'nosuch=1,64'), 1, /no input port 'nosuch'.*0 'x'/);
  fs.writeFileSync(join(dir, 'a.bin'), new Uint8Array(256));
  oneLine(holo('run', MLP, '-i', 'a.bin', '-i', 'a.bin'), 1, /more files than input ports/);
  oneLine(holo('convert', 'm.onnx'), 1, /-o <output>/);
});

test('info: label, backend, ports, nodes — the same label as the JS binding', async () => {
  const r = holo('info', MLP);
  assert.is(r.status, 0, r.stderr);
  const s = await load(fixture('mlp'));
  assert.ok(r.stdout.includes(`label    ${s.archiveLabel}`), r.stdout);
  assert.match(r.stdout, /^input    x: float32\[1,64\]$/m);
  assert.match(r.stdout, /^nodes    8: MatMulx3 Addx3 Relux2$/m);
  assert.match(r.stdout, /^kernels  8$/m);
  assert.match(holo('info', SYM).stdout, /^input    x: float32\[batch,4\]$/m);
  s.dispose();
});

test('run: a .npy input gives the JS binding\'s output, written as .npy and printed with %.9g', async () => {
  fs.writeFileSync(join(dir, 'x.npy'), npyBytes('float32', [1, 64], x64));
  const r = holo('run', MLP, '--input', 'x.npy', '-o', 'out', '--print');
  assert.is(r.status, 0, r.stderr);
  const s = await load(fixture('mlp'));
  const [y] = s.execute([x64]);
  const file = join(dir, 'out', 'add2_out.npy');
  const got = new Uint8Array(fs.readFileSync(file));
  assert.equal(got, npyBytes('float32', y.shape, y.data));
  const npy = parseNpy(got);
  assert.equal(npy.shape, [1, 10]);
  assert.match(r.stdout, /^input 0 x: float32 \[1,64\] <- x\.npy$/m);
  const line = r.stdout.split('\n').find((l) => l.startsWith('output 0'));
  assert.ok(line.includes(`-> ${join('out', 'add2_out.npy')} = `), line);
  const printed = line.split(' = ')[1].split(' ').map((v) => Math.fround(Number(v)));
  assert.equal(printed, Array.from(y.data));
  assert.match(r.stdout, /^counters: executions=1 dispatches=8 /m);
  s.dispose();
});

test('run: raw bytes with --dtype/--shape, named ports, --output PORT=FILE; equal to the .npy run', () => {
  fs.writeFileSync(join(dir, 'x.f32'), new Uint8Array(x64.buffer));
  let r = holo('run', MLP, '--input', 'x=x.f32', '--dtype', 'f4', '--shape', '1,64', '--output', 'add2:out=raw.npy');
  assert.is(r.status, 0, r.stderr);
  r = holo('run', MLP, '-i', 'x.npy', '--output', '0=npy.npy');
  assert.is(r.status, 0, r.stderr);
  assert.equal(fs.readFileSync(join(dir, 'raw.npy')), fs.readFileSync(join(dir, 'npy.npy')));
  // no file: the first 16 values are printed; a symbolic dim is taken from a raw file's length
  r = holo('run', SYM, '-i', 'x.f32');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^input 0 x: float32 \[16,4\] <- x\.f32$/m);
  assert.match(r.stdout, /^output 0 relu:out: float32 \[16,3\] = (\S+ ){16}\.\.\. \(48 values; --print shows all\)$/m);
});

test('run: .npy bytes and printed values equal the C program\'s (generated and file inputs)', () => {
  // The C program missing is a failure, not a skip: this test is the only check that the two CLIs agree.
  if (!fs.existsSync(NATIVE)) assert.unreachable(`${NATIVE} is not built: run \`make native\` (or \`make build\`)`);
  for (const args of [[MLP], [MLP, '-i', 'x.npy'], [SYM, '--shape', '3,4'], [SYM, '-i', 'x.f32', '--input-dtype', 'float32']]) {
    const js = holo('run', ...args, '-o', 'js', '--print');
    const c = spawnSync(NATIVE, ['run', ...args, '-o', 'c', '--print'], { encoding: 'utf8', cwd: dir });
    assert.is(js.status, 0, js.stderr);
    assert.is(c.status, 0, c.stderr);
    for (const f of fs.readdirSync(join(dir, 'c'))) assert.equal(fs.readFileSync(join(dir, 'js', f)), fs.readFileSync(join(dir, 'c', f)), `${args.join(' ')}: ${f}`);
    const pick = (out) => out.split('\n').filter((l) => /^(input|output) /.test(l)).map((l) => l.replace(/ -> \S+/, ''));
    assert.equal(pick(js.stdout), pick(c.stdout), args.join(' '));
    fs.rmSync(join(dir, 'js'), { recursive: true });
    fs.rmSync(join(dir, 'c'), { recursive: true });
  }
});

test('bad input exits 3: .npy dtype, raw length, --dtype mismatch, shape, missing file, a directory', () => {
  fs.writeFileSync(join(dir, 'x64.npy'), npyBytes('float64', [1, 64], new Float64Array(64)));
  oneLine(holo('run', MLP, '-i', 'x64.npy'), 3, /^holo: x64\.npy: dtype float64 \('<f8'\) does not match input 0 'x' \(float32\)$/);
  fs.writeFileSync(join(dir, 'short.bin'), new Uint8Array(100));
  oneLine(holo('run', MLP, '-i', 'short.bin'), 3, /^holo: short\.bin: 100 bytes, but input 0 'x' as float32 \[1,64\] needs 256$/);
  oneLine(holo('run', MLP, '-i', 'x.f32', '--dtype', 'int32'), 3, /^holo: x\.f32: --dtype int32 does not match input 0 'x' \(float32\)$/);
  oneLine(holo('run', MLP, '--shape', '2,64'), 3, /dim 0 must be 1/);
  fs.writeFileSync(join(dir, 'bad.npy'), npyBytes('float32', [1, 64], x64).subarray(0, 100));
  oneLine(holo('run', MLP, '-i', 'bad.npy'), 3, /^holo: bad\.npy: \.npy header length \d+ exceeds the file$/);
  oneLine(holo('run', MLP, '-i', 'missing.npy'), 3, /^holo: missing\.npy: cannot read: no such file or directory$/);
  fs.mkdirSync(join(dir, 'adir'), { recursive: true });
  oneLine(holo('run', MLP, '-i', 'adir'), 3, /^holo: adir: cannot read: is a directory, not a file$/);
});

test('bad archive exits 2; resource limits exit 4', () => {
  oneLine(holo('info', 'nope.holo'), 2, /^holo: nope\.holo: cannot read: no such file or directory$/);
  fs.writeFileSync(join(dir, 'junk.holo'), new Uint8Array(300).fill(7));
  oneLine(holo('run', 'junk.holo'), 2, /^holo: junk\.holo: /);
  const trunc = fixture('mlp').subarray(0, 4000);
  fs.writeFileSync(join(dir, 'trunc.holo'), trunc);
  oneLine(holo('bench', 'trunc.holo'), 2, /^holo: trunc\.holo: /);
  oneLine(holo('run', MLP, '--memory-budget', '100'), 4, /^holo: .*mlp\.holo: .*budget/);
});

test('bench: median of fresh-input executions (no memo hits) and the memo-hit latency, as JSON', () => {
  const r = holo('bench', MLP, '--repeat', '12');
  assert.is(r.status, 0, r.stderr);
  const j = JSON.parse(r.stdout);
  assert.is(j.repeat, 12);
  assert.is(j.memo_hits_in_timed, 0);
  assert.is(j.memo_hits_in_repeat, 12);
  assert.is(j.dispatches_per_execution, 8);
  for (const k of ['load_ms', 'median_ms', 'min_ms', 'max_ms', 'memo_hit_median_ms']) assert.ok(Number.isFinite(j[k]) && j[k] >= 0, k);
  assert.ok(j.min_ms <= j.median_ms && j.median_ms <= j.max_ms);
  assert.match(j.backend, /\S/);
  // inputs from a file are perturbed the same way
  const f = JSON.parse(holo('bench', MLP, '--repeat', '3', '-i', 'x.npy').stdout);
  assert.is(f.memo_hits_in_timed, 0);
  assert.is(f.memo_hits_in_repeat, 3);
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
  let r = holo('convert', 'm.onnx', '-o', 'm.holo', '--shape', 'x=2,8');
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stderr, '', 'no progress when stderr is not a terminal');
  assert.match(r.stdout, /^wrote m\.holo: \d+ bytes/);
  r = holo('convert', 'm.onnx', '-o', 'm2.holo', '--progress');
  assert.is(r.status, 0, r.stderr);
  const lines = r.stderr.trimEnd().split('\n');
  assert.ok(lines.length >= 3 && lines.every((l) => /^holo: converting: .*, \d+\.\d s$/.test(l)), r.stderr);
  assert.ok(lines.some((l) => /node 3\/3 \(100%\)/.test(l)), r.stderr);
  r = holo('run', 'm.holo', '--print');
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^output 0 y: float32 \[2,16\] = /m);
  oneLine(holo('convert', 'nope.onnx', '-o', 'x.holo'), 2, /^holo: nope\.onnx: cannot read/);
  fs.writeFileSync(join(dir, 'junk.onnx'), new Uint8Array([0xff, 0xff, 0xff, 0x01]));
  oneLine(holo('convert', 'junk.onnx', '-o', 'j.holo'), 2, /^holo: junk\.onnx: /);
});

test('the .npy writer/reader and %g formatter match NumPy and printf', () => {
  const h = npyBytes('float32', [1, 10], new Float32Array(10));
  assert.is(new TextDecoder('latin1').decode(h.subarray(10, 128)).trimEnd(), "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 10), }");
  assert.is((h.length - 40) % 64, 0);
  assert.is(new TextDecoder('latin1').decode(npyBytes('bool', [3], new Uint8Array(3)).subarray(10, 128)).split('}')[0], "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), ");
  assert.equal(parseNpy(npyBytes('int64', [], new BigInt64Array([5n]))).shape, []);
  assert.throws(() => parseNpy(new Uint8Array([0x93, 78, 85, 77, 80, 89, 9, 0, 0, 0])), /version 9\.0/);
  assert.is(fmtG(0.1, 9), '0.100000001'.slice(0, 3));
  assert.is(fmtG(Math.fround(0.1), 9), '0.100000001');
  assert.is(fmtG(1e-5, 9), '1e-05');
  assert.is(fmtG(123456789012, 9), '1.23456789e+11');
  assert.is(fmtG(-2.5, 5), '-2.5');
  assert.is(fmtG(100, 9), '100');
  assert.is(parseDtype('<f4'), 'float32');
  assert.is(parseDtype('i8'), 'int64');
  assert.is(parseDtype('bool'), 'bool');
  assert.is(parseDtype('<float32'), null);
});

// `holo info` prints the variant and the identity as two fields, `variant: V`
// and `identity: I`, as the C holo does (wasi/cli-info.c), no `backend` line;
// the values are what the loaded session reports, and the identity is the C
// holo's too (the same kernels' bytes label alike in every build).
test('info: variant and identity, two fields in the C holo\'s format, equal to the session\'s', async () => {
  const field = (out, k) => {
    const m = [...out.matchAll(new RegExp(`^${k}: (.*)$`, 'gm'))];
    assert.is(m.length, 1, `one ${k}: line in\n${out}`);
    return m[0][1];
  };
  const { VARIANTS, features } = await import('../../bindings-js/index.js');
  const f = features();
  const runs = VARIANTS.filter((v) => v === 'scalar' || (v === 'simd128' && f.simd) || (v === 'relaxed' && f.relaxedSimd));
  assert.ok(runs.includes('simd128'), `this node runs simd128 (${runs})`);
  if (!fs.existsSync(NATIVE)) assert.unreachable(`${NATIVE} is not built: run \`make native\` (or \`make build\`)`);
  const c = spawnSync(NATIVE, ['info', MLP], { encoding: 'utf8' });
  assert.is(c.status, 0, c.stderr);
  const cIdentity = field(c.stdout, 'identity');
  for (const v of [undefined, ...runs]) {
    const r = v ? holo('info', MLP, '--variant', v) : holo('info', MLP);
    assert.is(r.status, 0, r.stderr);
    assert.not.match(r.stdout, /^backend/m, 'no one-line backend field');
    const s = await load(fixture('mlp'), v ? { variant: v } : {});
    assert.is(field(r.stdout, 'variant'), s.backend, `variant (${v ?? 'default'})`);
    assert.is(field(r.stdout, 'identity'), s.backendIdentity, `identity (${v ?? 'default'})`);
    assert.is(field(r.stdout, 'identity'), cIdentity, `the C holo's identity (${v ?? 'default'})`);
    if (v) assert.is(s.backend, v);
    s.dispose();
  }
});

test.after(() => fs.rmSync(dir, { recursive: true, force: true }));
test.run();
