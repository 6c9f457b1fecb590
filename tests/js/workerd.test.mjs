// The package in workerd (Cloudflare's runtime, npm `workerd`): serves
// bindings-js/examples/workerd/worker.mjs on 127.0.0.1 from a capnp config
// with the core module as a wasm binding (compiled, no run-time compile),
// runs fixture archives and checks the output against Node. workerd not
// running here is a failure with the reason, never a skip.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { load } from '../../bindings-js/index.js';
import { ROOT, PKG, fixture } from './helpers.mjs';

const WORKERD = join(ROOT, 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
const EX = join(PKG, 'examples', 'workerd');

const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.on('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});

test('workerd serves the package and matches Node', async () => {
  assert.ok(existsSync(WORKERD), `workerd binary missing at ${WORKERD} (npm ci installs the workerd devDependency)`);
  const v = spawnSync(WORKERD, ['--version'], { encoding: 'utf8', timeout: 30000 });
  assert.is(v.status, 0, `workerd cannot run on this machine: ${v.error ?? ''} ${v.stderr}`);

  const dir = mkdtempSync(join(tmpdir(), 'holo-workerd-'));
  const port = await freePort();
  let child, log = '';
  try {
    for (const d of ['stores', 'src', 'dist']) mkdirSync(join(dir, d));
    const modules = ['index.js', ...readdirSync(join(PKG, 'src')).filter((f) => f.endsWith('.js') && f !== 'threads-worker.js').map((f) => `src/${f}`), 'dist/layout.js', 'stores/memory.js', 'stores/label.js'];
    const config = readFileSync(join(EX, 'config.capnp'), 'utf8');
    for (const f of modules) assert.ok(config.includes(`esModule = embed "${f}"`), `examples/workerd/config.capnp lists ${f}`);
    for (const f of modules) copyFileSync(join(PKG, f), join(dir, f));
    copyFileSync(join(PKG, 'dist', 'hologram-simd128.wasm'), join(dir, 'hologram-simd128.wasm'));
    for (const f of ['mlp', 'cone']) copyFileSync(join(ROOT, 'tests', 'fixtures', `${f}.holo`), join(dir, `${f}.holo`));
    copyFileSync(join(EX, 'worker.mjs'), join(dir, 'worker.mjs'));
    writeFileSync(join(dir, 'config.capnp'), config.replace('127.0.0.1:8787', `127.0.0.1:${port}`));
    child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => { log += d; });
    child.stderr.on('data', (d) => { log += d; });
    let exited = null;
    child.on('exit', (code, sig) => { exited = `${code ?? sig}`; });

    let res, lastErr;
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline && exited === null) {
      try { res = await fetch(`http://127.0.0.1:${port}/`); break; } catch (e) { lastErr = e; await new Promise((r) => setTimeout(r, 100)); }
    }
    assert.ok(res, `workerd did not serve on 127.0.0.1:${port} (${exited !== null ? `exited ${exited}` : 'timeout'}; ${lastErr?.cause?.code ?? lastErr}):\n${log}`);
    const body = await res.json();
    assert.is(res.status, 200, `worker failed: ${JSON.stringify(body)}\n${log}`);

    const s = await load(fixture('mlp'), { variant: 'simd128' });
    const [y] = s.execute([Float32Array.from({ length: 64 }, (_, i) => Math.sin(i * 0.37))]);
    assert.is(body.variant, 'simd128');
    assert.is(body.label, y.label, 'same module, same labels');
    assert.equal(body.shape, y.shape);
    assert.equal(body.y, Array.from(y.data));
    assert.is(body.memoHits, 1);
    assert.is(body.cold.dispatches, 1);
    assert.is(body.cold.storePuts, 1);
    assert.is(body.warm.storeHits, 1);
    assert.is(body.warm.dispatches, 0);
  } finally {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
