// The npm package inside a module Web Worker: a page starts
// `new Worker(url, { type: 'module' })`; the worker imports bindings-js/index.js,
// fetches a fixture archive, executes it and posts the outputs back. The
// outputs (bytes and κ-labels) must equal Node's for the same input and variant.
// Headless Debian chromium through playwright-core, fresh profile, a local
// static server (bindings-js/ and tests/fixtures/ only).
//
//   node tests/browser/worker.test.mjs      last line: "browser-worker: N passed, N failed"
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, assert, suite, startServer, launch, finish } from './harness.mjs';

const STEP_MS = 15_000;
const S = suite('browser-worker', 50_000);
const check = S.check;

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

async function nodeOutputs(archive, variant, inputs) {
  const { load } = await import('../../bindings-js/index.js');
  const s = await load(new Uint8Array(fs.readFileSync(path.join(ROOT, 'tests/fixtures', archive))), { variant });
  const outs = s.execute(inputs.map((t) => ({ data: new Float32Array(t.data), shape: t.shape })));
  const r = { archiveLabel: s.archiveLabel, outputs: outs.map((o) => ({ label: o.label, dtype: o.dtype, shape: o.shape, bytes: Array.from(new Uint8Array(o.data.buffer, o.data.byteOffset, o.data.byteLength)) })) };
  s.dispose();
  return r;
}

let server = null, browser = null;
async function main() {
  if (!fs.existsSync(path.join(ROOT, 'bindings-js/dist/hologram-simd128.wasm'))) throw new Error('bindings-js/dist is not built: run `make build`');
  server = await startServer({
    routes: { '/': ['text/html; charset=utf-8', PAGE], '/worker.mjs': ['text/javascript', WORKER] },
    mounts: [['/bindings-js/', path.join(ROOT, 'bindings-js')], ['/tests/fixtures/', path.join(ROOT, 'tests/fixtures')]],
  });
  browser = await launch(STEP_MS);
  const { page, problems } = browser;
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
  S.failed++;
  console.log(`FAIL setup: ${e && e.message ? e.message.split('\n')[0] : e}`);
}
await finish(S, { browser, server });
