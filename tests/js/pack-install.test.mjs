// `npm pack` output installs into an empty folder (offline: the package has
// no dependencies) and works there: a script importing 'hologram-exec' runs a
// fixture and matches the in-repo package; `npx holo` / `npx hologram-exec`
// run the shipped CLI; `holo convert` without the optional onnx-proto says so.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fs from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { load } from '../../bindings-js/index.js';
import { PKG, ROOT, fixture } from './helpers.mjs';

const tmp = fs.mkdtempSync(join(tmpdir(), 'holo-pack-'));
const app = join(tmp, 'app');
const env = { ...process.env, npm_config_cache: join(tmp, 'npm-cache'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
const sh = (cmd, args, cwd) => spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120000 });
let packed;

test('npm pack: a tarball with the shim, CLI, converter, stores and wasm (sizes reported)', () => {
  const r = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], PKG);
  assert.is(r.status, 0, r.stderr);
  packed = JSON.parse(r.stdout)[0];
  const files = packed.files.map((f) => f.path);
  for (const f of ['bin/holo.js', 'index.js', 'compiler/convert.js', 'compiler/holo-reader.js', 'compiler/rewrites/fold-constants.js', 'dist/hologram-simd128.wasm', 'dist/wasi/holo.wasm', 'bin/wasi-runner.js', 'bin/external-files.js']) assert.ok(files.includes(f), `${f} missing`);
  assert.not.ok(files.some((f) => f.endsWith('.c') || f.startsWith('src-c/') || f.startsWith('examples/')), 'no C sources or examples');
  assert.ok(fs.existsSync(join(tmp, packed.filename)));
  console.log(`  # ${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files`);
  assert.ok(packed.size < 1.5e6, `${packed.size} bytes packed`);
});

test('installs offline into an empty folder; a script importing hologram-exec runs mlp.holo like the repo', async () => {
  fs.mkdirSync(app);
  fs.writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'holo-pack-check', version: '1.0.0', private: true, type: 'module' }));
  const r = sh('npm', ['install', join(tmp, packed.filename), '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], app);
  assert.is(r.status, 0, r.stderr);
  assert.ok(fs.existsSync(join(app, 'node_modules', 'hologram-exec', 'dist', 'hologram-simd128.wasm')));
  assert.not.ok(fs.existsSync(join(app, 'node_modules', 'onnx-proto')), 'the optional peer is not installed');
  fs.copyFileSync(join(ROOT, 'tests', 'fixtures', 'mlp.holo'), join(app, 'mlp.holo'));
  fs.writeFileSync(join(app, 'example.mjs'), `
    import { load } from 'hologram-exec';
    import { MemoryWarmStore } from 'hologram-exec/stores/memory';
    import { readFileSync } from 'node:fs';
    const s = await load(readFileSync('mlp.holo'), { warmStore: new MemoryWarmStore() });
    const [y] = s.execute([new Float32Array(64).fill(0.5)]);
    console.log(JSON.stringify({ backend: s.backend, label: y.label, shape: y.shape, y: Array.from(y.data) }));
    s.dispose();`);
  const e = sh(process.execPath, ['example.mjs'], app);
  assert.is(e.status, 0, e.stderr);
  const got = JSON.parse(e.stdout);
  const s = await load(fixture('mlp'), { variant: got.backend });
  const [want] = s.execute([new Float32Array(64).fill(0.5)]);
  assert.is(got.label, want.label);
  assert.equal(got.y, Array.from(want.data));
  assert.equal(got.shape, [1, 10]);
  s.dispose();
});

test('npx holo info / run and npx hologram-exec work in the installed folder', () => {
  let r = sh('npx', ['--offline', 'holo', 'info', 'mlp.holo'], app);
  assert.is(r.status, 0, r.stderr);
  assert.match(r.stdout, /^label: sha256:[0-9a-f]{64}$/m);
  assert.match(r.stdout, /^ops: MatMul=3 Add=3 Relu=2$/m);
  r = sh('npx', ['--offline', 'hologram-exec', 'run', 'mlp.holo', '-o', 'out'], app);
  assert.is(r.status, 0, r.stderr);
  assert.ok(fs.existsSync(join(app, 'out', 'add2_out.npy')));
  fs.writeFileSync(join(app, 'model.onnx'), new Uint8Array(8));
  r = sh('npx', ['--offline', 'holo', 'convert', 'model.onnx', '-o', 'm.holo'], app);
  assert.is(r.status, 4, r.stderr);
  assert.match(r.stderr.trim(), /^holo: model\.onnx: holo convert needs the optional package onnx-proto .*npm install onnx-proto/);
});

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
test.run();
