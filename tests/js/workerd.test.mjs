// The package in workerd (Cloudflare's runtime, npm `workerd`): serves
// bindings-js/examples/workerd/worker.mjs on 127.0.0.1 from a capnp config
// with the core module as a wasm binding (compiled, no run-time compile),
// runs fixture archives and checks the output against Node. workerd not
// running here is a failure with the reason, never a skip. Then the soak
// (issue 24): 10,000 distinct executions of the digit model of `make run` in
// ONE isolate with the default options, the module's linear memory reported
// after each 1,000 and held under 48 MiB and under session.limits'
// ceiling, repeated inputs still memo hits, and a zoo model under its
// ceiling (examples/workerd/soak.mjs).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { load } from '../../bindings-js/index.js';
import { ROOT, PKG, fixture } from './helpers.mjs';
import { convert } from '../../compiler/convert.js';

const WORKERD = join(ROOT, 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
const EX = join(PKG, 'examples', 'workerd');
// Worker entries (the threaded pool's): never imported by the module graph, no threads in workerd.
const WORKER_ENTRIES = ['threads-worker.js', 'threads-supervisor.js'];

const freePort = () => new Promise((resolve, reject) => {
  const srv = createServer();
  srv.on('error', reject);
  srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
});


const MODULES = ['index.js', ...readdirSync(join(PKG, 'src')).filter((f) => f.endsWith('.js') && !WORKER_ENTRIES.includes(f)).map((f) => `src/${f}`), 'dist/layout.js', 'stores/memory.js', 'stores/label.js', 'stores/bounds.js'];

// Serves `worker` (a file of examples/workerd) with `data` ({ name: bytes })
// as its data modules, from the example's config; calls use(get) with
// get(path) -> { status, body }; stops workerd after.
// The worker's files laid out in a fresh directory as config.capnp names
// them: the package's modules, the core module, `worker` (a file of
// examples/workerd) as worker.mjs and `data` ({ name: bytes }) as its data
// modules in place of the example's. Returns { dir, config }.
function layout(worker, data) {
  const dir = mkdtempSync(join(tmpdir(), 'holo-workerd-'));
  for (const d of ['stores', 'src', 'dist']) mkdirSync(join(dir, d));
  let config = readFileSync(join(EX, 'config.capnp'), 'utf8');
  for (const f of MODULES) assert.ok(config.includes(`esModule = embed "${f}"`), `examples/workerd/config.capnp lists ${f}`);
  for (const f of MODULES) copyFileSync(join(PKG, f), join(dir, f));
  copyFileSync(join(PKG, 'dist', 'hologram-simd128.wasm'), join(dir, 'hologram-simd128.wasm'));
  copyFileSync(join(EX, worker), join(dir, 'worker.mjs'));
  config = config.replace(/^ *\(name = "[^"]+", data = embed "[^"]+"\),\n/gm, '');
  const lines = Object.keys(data).map((n) => `    (name = "${n}", data = embed "${n}"),\n`).join('');
  config = config.replace('  ],\n  compatibilityDate', `${lines}  ],\n  compatibilityDate`);
  for (const [n, bytes] of Object.entries(data)) writeFileSync(join(dir, n), bytes);
  return { dir, config };
}

async function serve(worker, data, use) {
  assert.ok(existsSync(WORKERD), `workerd binary missing at ${WORKERD} (npm ci installs the workerd devDependency)`);
  const v = spawnSync(WORKERD, ['--version'], { encoding: 'utf8', timeout: 30000 });
  assert.is(v.status, 0, `workerd cannot run on this machine: ${v.error ?? ''} ${v.stderr}`);
  const { dir, config } = layout(worker, data);
  const port = await freePort();
  let child, log = '';
  try {
    writeFileSync(join(dir, 'config.capnp'), config.replace('127.0.0.1:8787', `127.0.0.1:${port}`));
    child = spawn(WORKERD, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => { log += d; });
    child.stderr.on('data', (d) => { log += d; });
    let exited = null;
    child.on('exit', (code, sig) => { exited = `${code ?? sig}`; });
    const get = async (path) => {
      let res, lastErr;
      const deadline = Date.now() + 20000;
      while (Date.now() < deadline && exited === null) {
        try { res = await fetch(`http://127.0.0.1:${port}${path}`); break; } catch (e) { lastErr = e; await new Promise((r) => setTimeout(r, 100)); }
      }
      assert.ok(res, `workerd did not serve ${path} on 127.0.0.1:${port} (${exited !== null ? `exited ${exited}` : 'timeout'}; ${lastErr?.cause?.code ?? lastErr}):\n${log}`);
      const body = await res.json();
      assert.is(res.status, 200, `worker failed on ${path}: ${JSON.stringify(body)}\n${log}`);
      return body;
    };
    await use(get);
  } finally {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
}

test('workerd serves the package and matches Node', async () => {
  await serve('worker.mjs', { 'mlp.holo': fixture('mlp'), 'cone.holo': fixture('cone') }, async (get) => {
    const body = await get('/');
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
  });
});

const MiB = 1 << 20;
const ZOO = 'mobilenet_v2_w025.op17';

const soakData = () => ({
  'digits.holo': readFileSync(join(ROOT, 'web-demo', 'model', 'digits.holo')),
  'zoo.holo': convert(new Uint8Array(readFileSync(join(ROOT, 'tests', 'zoo', 'models', `${ZOO}.onnx`)))).holo,
});

// The soak through get(path) -> body (workerd serving, or miniflare).
async function soak(get, what, digits, zoo) {
  const first = await get('/repeat');
  assert.is(first.environment, 'workerd', 'the worker detects workerd');
  assert.equal({ ...first.limits, ceilingBytes: 0 }, { environment: 'workerd', retainBytes: 8 * MiB, memoryBudget: 16 * MiB, memoRecords: 4096, ceilingBytes: 0 });
  assert.is(first.repeatHits, 3, 'the second round of three inputs: memo hits');
  const ceiling = first.limits.ceilingBytes;
  assert.ok(ceiling <= digits.length + 40 * MiB, `documented ceiling ${ceiling} = model bytes + < 40 MiB`);
  const rows = [];
  for (let k = 0; k < 10; k++) {
    const r = await get(`/digits?from=${k * 1000}&n=1000`);
    rows.push({ executions: (k + 1) * 1000, memoryMiB: +(r.memoryBytes / MiB).toFixed(2), maxMiB: +(r.maxMemory / MiB).toFixed(2), residentMiB: +(r.residentBytes / MiB).toFixed(2), evictions: r.evictions });
    assert.ok(r.maxMemory <= 48 * MiB, `after ${(k + 1) * 1000}: linear memory ${r.maxMemory} > 48 MiB`);
    assert.ok(r.maxMemory <= ceiling, `after ${(k + 1) * 1000}: linear memory ${r.maxMemory} > the ceiling ${ceiling}`);
  }
  console.log(`${what} digits (ceiling ${(ceiling / MiB).toFixed(2)} MiB):`, JSON.stringify(rows));
  const last = await get('/repeat');
  assert.is(last.executions, 10000 + 12);
  assert.ok(last.evictions > 0, 'the cache filled and evicted');
  assert.is(last.repeatHits, 3, 'after 10,000 distinct executions, repeated inputs are still memo hits');
  const z = await get('/zoo?from=0&n=300');
  assert.is(z.executions, 300);
  console.log(`${what} ${ZOO} (${zoo.length} B): memory ${(z.maxMemory / MiB).toFixed(2)} MiB, ceiling ${(z.limits.ceilingBytes / MiB).toFixed(2)} MiB`);
  assert.ok(z.limits.ceilingBytes <= zoo.length + 40 * MiB, `zoo ceiling ${z.limits.ceilingBytes}`);
  assert.ok(z.maxMemory <= z.limits.ceilingBytes, `${ZOO}: linear memory ${z.maxMemory} > its ceiling ${z.limits.ceilingBytes}`);
}

test('workerd soak: 10,000 distinct digit executions in one isolate stay under 48 MiB and the ceiling; memo hits; a zoo model under its ceiling', async () => {
  const data = soakData();
  await serve('soak.mjs', data, (get) => soak(get, 'workerd', data['digits.holo'], data['zoo.holo']));
});

// The same worker under miniflare (npm `miniflare`, which runs its own
// workerd as `wrangler dev` does), modules listed as config.capnp lists them.
test('miniflare soak: the same worker, the same bounds', async () => {
  const { Miniflare } = await import('miniflare');
  const data = soakData();
  const { dir } = layout('soak.mjs', data);
  const mf = new Miniflare({
    modulesRoot: dir,
    modules: [
      { type: 'ESModule', path: join(dir, 'worker.mjs') },
      ...MODULES.map((f) => ({ type: 'ESModule', path: join(dir, f) })),
      { type: 'CompiledWasm', path: join(dir, 'hologram-simd128.wasm') },
      ...Object.keys(data).map((n) => ({ type: 'Data', path: join(dir, n) })),
    ],
    compatibilityDate: '2025-01-01',
  });
  try {
    const get = async (path) => {
      const res = await mf.dispatchFetch(`http://localhost${path}`);
      const body = await res.json();
      assert.is(res.status, 200, `worker failed on ${path}: ${JSON.stringify(body)}`);
      return body;
    };
    await soak(get, 'miniflare', data['digits.holo'], data['zoo.holo']);
  } finally {
    await mf.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
