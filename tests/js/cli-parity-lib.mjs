// Shared by tests/js/cli-parity*.test.mjs (two files, so that each stays well
// inside tests/js/run.mjs's per-file timeout on a loaded machine).
//
// One implementation per verb: every verb and error case gives the same
// stdout, stderr, files and exit code through the npm package's
// `node bindings-js/bin/holo.js` as through `node tools/wasi-run.mjs`
// (build/wasm/holo.wasm, `.` preopened, as `wasmtime run --dir .` does), and
// the same stdout (the `variant` aside), files, exit code and stderr class
// (one `holo: ` line) as the native build/native/holo. Each program runs in
// its own copy of the same directory, so the files each call leaves are
// compared byte for byte, tree against tree. Timings are the only fields
// masked. (`convert` is JS only: tests/js/cli-js.test.mjs.)
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { ROOT, PKG } from './helpers.mjs';
import { NODE_WASI_FLAGS } from '../../tools/wasi-run.mjs';

const BIN = join(PKG, 'bin', 'holo.js');
const WASI_RUN = join(ROOT, 'tools', 'wasi-run.mjs');
export const NATIVE = process.env.HOLO_BIN ?? join(ROOT, 'build', 'native', 'holo');
export const HOLO_WASM = join(PKG, 'dist', 'wasi', 'holo.wasm');
const KINDS = ['js', 'wasi', 'native'];
export const VOCAB = 'abcdefghijklmnopqrstuvwxyz .,!?;'; // the gen-* fixtures' 32 tokens

export const TOP = fs.mkdtempSync(join(tmpdir(), 'holo-cli-parity-'));
process.on('exit', () => fs.rmSync(TOP, { recursive: true, force: true }));

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

// The bin as a user starts it (it re-executes node with NODE_WASI_FLAGS);
// tools/wasi-run.mjs started as it re-executes itself (one node start-up less).
export function call(kind, args) {
  const [cmd, argv] = kind === 'js' ? [process.execPath, [BIN, ...args]]
    : kind === 'wasi' ? [process.execPath, [...NODE_WASI_FLAGS, WASI_RUN, ...args]] : [NATIVE, args];
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
export function mask(t, native) {
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

/**
 * Runs each case [args, exit code, what stdout must show, what stderr must be
 * instead of one `holo: ` line] in the three programs, in order, and compares.
 */
export async function parity(CASES) {
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
}
