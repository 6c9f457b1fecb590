// The npm package inside a module Web Worker: a page starts
// `new Worker(url, { type: 'module' })`; the worker imports bindings-js/index.js,
// fetches a fixture archive, executes it and posts the outputs back. The
// outputs (bytes and κ-labels) must equal Node's for the same input and variant.
// Headless Debian chromium through playwright-core, fresh profile, a local
// static server (bindings-js/ and tests/fixtures/ only).
//
//   node tests/browser/worker.test.mjs      last line: "browser-worker: N passed, N failed"
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
const WATCHDOG_MS = 50_000, STEP_MS = 15_000;

let passed = 0, failed = 0, context = null, server = null, profile = null;
const summary = () => console.log(`browser-worker: ${passed} passed, ${failed} failed`);
const watchdog = setTimeout(() => {
  console.log(`FAIL watchdog: the worker test did not finish in ${WATCHDOG_MS / 1000} s`);
  failed++;
  summary();
  process.exit(1);
}, WATCHDOG_MS);

async function check(name, fn) {
  const t0 = Date.now();
  try {
    const note = await fn();
    passed++;
    console.log(`ok   ${name}${note ? ` — ${note}` : ''} (${Date.now() - t0} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${(e && e.message ? e.message : String(e)).split('\n').slice(0, 6).join('\n     ')}`);
  }
}
function assert(cond, msg) { if (!cond) throw new Error(msg); }

const PAGE = `<!doctype html><meta charset="utf-8"><title>holo worker</title>
<script type="module">
  globalThis.runInWorker = (job) => new Promise((resolve, reject) => {
    const w = new Worker('/worker.mjs', { type: 'module' });
    w.onmessage = (e) => { w.terminate(); resolve(e.data); };
    w.onerror = (e) => { w.terminate(); reject(new Error(e.message || 'worker error')); };
    w.postMessage(job);
  });
  document.body.dataset.ready = '1';
</script><body></body>`;

const WORKER = `import { load, features } from '/bindings-js/index.js';
self.onmessage = async (e) => {
  const { archive, variant, inputs } = e.data;
  try {
    const bytes = new Uint8Array(await (await fetch('/tests/fixtures/' + archive)).arrayBuffer());
    const s = await load(bytes, variant ? { variant } : {});
    const outs = s.execute(inputs.map((t) => ({ data: new Float32Array(t.data), shape: t.shape })));
    const again = s.execute(inputs.map((t) => ({ data: new Float32Array(t.data), shape: t.shape })));
    const c = s.counters;
    self.postMessage({ ok: true, inWorker: typeof document === 'undefined' && typeof WorkerGlobalScope !== 'undefined', features: features(),
      backend: s.backend, archiveLabel: s.archiveLabel, memoHits: c.memoHits, sameLabels: outs.every((o, i) => o.label === again[i].label),
      outputs: outs.map((o) => ({ label: o.label, dtype: o.dtype, shape: o.shape, bytes: Array.from(new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength)) })) });
    s.dispose();
  } catch (err) {
    self.postMessage({ ok: false, error: String(err && err.message || err), code: err && err.code });
  }
};`;

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.holo': 'application/octet-stream' };
function startServer() {
  const mounts = [['/bindings-js/', path.join(ROOT, 'bindings-js')], ['/tests/fixtures/', path.join(ROOT, 'tests/fixtures')]];
  const srv = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const send = (status, type, body) => { res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }); res.end(body); };
    if (u.pathname === '/') return send(200, 'text/html; charset=utf-8', PAGE);
    if (u.pathname === '/worker.mjs') return send(200, 'text/javascript', WORKER);
    if (u.pathname === '/favicon.ico') return send(204, 'image/x-icon', '');
    for (const [prefix, dir] of mounts) {
      if (!u.pathname.startsWith(prefix)) continue;
      const file = path.resolve(dir, decodeURIComponent(u.pathname.slice(prefix.length)));
      if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) break;
      return send(200, TYPES[path.extname(file)] ?? 'application/octet-stream', fs.readFileSync(file));
    }
    send(404, 'text/plain', 'not found');
  });
  return new Promise((resolve) => srv.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${srv.address().port}/`, close: () => new Promise((r) => { srv.closeAllConnections?.(); srv.close(r); }) })));
}

async function nodeOutputs(archive, variant, inputs) {
  const { load } = await import('../../bindings-js/index.js');
  const s = await load(new Uint8Array(fs.readFileSync(path.join(ROOT, 'tests/fixtures', archive))), { variant });
  const outs = s.execute(inputs.map((t) => ({ data: new Float32Array(t.data), shape: t.shape })));
  const r = { archiveLabel: s.archiveLabel, outputs: outs.map((o) => ({ label: o.label, dtype: o.dtype, shape: o.shape, bytes: Array.from(new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength)) })) };
  s.dispose();
  return r;
}

async function main() {
  const { chromium } = await import('playwright-core');
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found (make setup installs chromium)`);
  if (!fs.existsSync(path.join(ROOT, 'bindings-js/dist/hologram-simd128.wasm'))) throw new Error('bindings-js/dist is not built: run `make build`');
  server = await startServer();
  profile = fs.mkdtempSync(path.join(os.tmpdir(), 'holo-chromium-worker-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: STEP_MS });
  context.setDefaultTimeout(STEP_MS);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(server.url, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.ready === '1', null, { timeout: STEP_MS });

  const mlpIn = [{ data: Array.from({ length: 64 }, (_, k) => Math.sin(k * 0.23) * 1.5), shape: [1, 64] }];
  const symIn = [{ data: Array.from({ length: 12 }, (_, k) => k / 3 - 2), shape: [3, 4] }];
  const runJob = (job) => page.evaluate((j) => globalThis.runInWorker(j), job);

  for (const variant of ['simd128', 'scalar']) {
    await check(`module worker: mlp.holo (${variant}) equals Node byte for byte and label for label`, async () => {
      const got = await runJob({ archive: 'mlp.holo', variant, inputs: mlpIn });
      assert(got.ok, `worker: ${got.error} (${got.code})`);
      assert(got.inWorker, 'did not run in a worker scope');
      assert(got.backend === variant, `backend ${got.backend}`);
      const want = await nodeOutputs('mlp.holo', variant, mlpIn);
      assert(got.archiveLabel === want.archiveLabel, 'archive label differs');
      assert(JSON.stringify(got.outputs) === JSON.stringify(want.outputs), `outputs differ:\n${JSON.stringify(got.outputs[0]).slice(0, 200)}\n${JSON.stringify(want.outputs[0]).slice(0, 200)}`);
      assert(got.memoHits === 1 && got.sameLabels, `a repeat is a memo hit (${got.memoHits})`);
      return `${got.outputs[0].label.slice(0, 19)}…, shape [${got.outputs[0].shape}]`;
    });
  }

  await check('module worker: symbolic.holo with a bound batch dim, default variant, equals Node', async () => {
    const got = await runJob({ archive: 'symbolic.holo', inputs: symIn });
    assert(got.ok, `worker: ${got.error}`);
    const want = await nodeOutputs('symbolic.holo', got.backend === 'relaxed' ? 'simd128' : got.backend, symIn);
    // relaxed (FMA) labels differ from simd128 by design; compare within the variant the worker chose when Node can run it
    if (got.backend !== 'relaxed') assert(JSON.stringify(got.outputs) === JSON.stringify(want.outputs), 'outputs differ');
    else assert(JSON.stringify(got.outputs.map((o) => o.shape)) === JSON.stringify(want.outputs.map((o) => o.shape)), 'shapes differ');
    return `${got.backend}, features ${JSON.stringify(got.features)}, shape [${got.outputs[0].shape}]`;
  });

  await check('a bad archive is a HologramError posted back from the worker, not a crash', async () => {
    const got = await runJob({ archive: 'make-fixtures.mjs', inputs: [] });
    assert(!got.ok && got.code === 'FORMAT', `got ${JSON.stringify(got).slice(0, 200)}`);
    return got.error.slice(0, 80);
  });

  await check('no page errors, console errors or failed requests', async () => {
    assert(problems.length === 0, problems.join('\n'));
  });
}

try {
  await main();
} catch (e) {
  failed++;
  console.log(`FAIL setup: ${e && e.message ? e.message.split('\n')[0] : e}`);
}
try { if (context) await Promise.race([context.close(), new Promise((r) => setTimeout(r, 5000))]); } catch { /* closing */ }
try { if (server) await server.close(); } catch { /* closing */ }
try { if (profile) fs.rmSync(profile, { recursive: true, force: true }); } catch { /* best effort */ }
clearTimeout(watchdog);
summary();
process.exitCode = failed ? 1 : 0;
