// hologram-exec vs onnxruntime-web inside headless Debian Chromium (issue 5's
// second table): the same torch-exported models as bench/peers.mjs, converted
// in Node (the converter default) and served with the ORT-web dist files from
// a local cross-origin-isolated server. In one page per thread count, the two
// engines run alternately, a fresh random input per run (the memo can never
// answer; the session counters are checked after every hologram run).
//   node bench/peers-browser.mjs [DIR] [model ...] [--ms 2000] [--threads 1,2]
// Ends with chromium_peer_ratio_max_<T>t=<max over models of hologram / ORT-web median>.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ISOLATION, startServer, launch } from '../tests/browser/harness.mjs';
import { convert } from '../compiler/convert.js';

const ORDER = ['mlp_b1', 'mlp_b64', 'matmul_512', 'transformer_layer', 'mobilenet_v2', 'resnet18'];
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const budgetMs = Number(opt('--ms', '2000'));
const threadList = opt('--threads', '1,2').split(',').map(Number);
let dir = path.join(ROOT, 'build/bench-models');
if (args[0] && fs.existsSync(args[0]) && fs.statSync(args[0]).isDirectory()) dir = args.shift();
const names = (args.length ? args : ORDER).filter((n) => fs.existsSync(path.join(dir, `${n}.onnx`)));

const routes = {};
const meta = {};
for (const n of names) {
  const onnx = fs.readFileSync(path.join(dir, `${n}.onnx`));
  const { holo, report } = convert(onnx);
  routes[`/models/${n}.onnx`] = ['application/octet-stream', onnx];
  routes[`/models/${n}.holo`] = ['application/octet-stream', Buffer.from(holo)];
  meta[n] = { input: report.inputs[0].name, shape: report.inputs[0].shape };
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>holo vs ort-web</title>
<script type="module">
  import * as ort from '/ort/ort.wasm.min.mjs';
  import { init } from '/bindings-js/index.js';
  const T = Number(new URLSearchParams(location.search).get('threads') || 1);
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.wasm.numThreads = T;
  ort.env.wasm.simd = true;
  let rs = (Date.now() >>> 0) | 1;
  const randomInput = (n) => { const d = new Float32Array(n); for (let i = 0; i < n; i++) { rs ^= rs << 13; rs ^= rs >>> 17; rs ^= rs << 5; d[i] = (rs >>> 0) / 2 ** 31 - 1; } return d; };
  const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
  globalThis.bench = async (name, meta, budgetMs) => {
    const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
    const rt = await init(undefined, T > 1 ? { threads: T } : { variant: 'simd128' });
    if (rt.threads !== T) return { error: 'hologram threads unavailable: ' + rt.threadsUnavailable };
    const s = rt.load(await get('/models/' + name + '.holo'));
    const web = await ort.InferenceSession.create(await get('/models/' + name + '.onnx'), { executionProviders: ['wasm'] });
    const n = meta.shape.reduce((a, b) => a * b, 1);
    let perCall = null, bad = null;
    const holoRun = (x) => {
      const c0 = s.counters, a = performance.now();
      s.execute([{ data: x, shape: meta.shape }]);
      const t = performance.now() - a, c1 = s.counters, d = c1.dispatches - c0.dispatches;
      if (perCall === null) perCall = d;
      if (d === 0 || d !== perCall || c1.memoHits !== c0.memoHits || c1.elided !== c0.elided) bad = 'a run did not compute everything';
      return t;
    };
    const webRun = async (x) => { const a = performance.now(); await web.run({ [meta.input]: new ort.Tensor('float32', x, meta.shape) }); return performance.now() - a; };
    for (let i = 0; i < 2; i++) { const x = randomInput(n); holoRun(x); await webRun(x); }
    // With threads, blocks of >= 40 ms per engine, first run of a block not
    // counted, and a 60 ms pause before every block so the other engine's
    // pool has parked (ORT-web's spins ~20-25 ms after a run: bench/peers.mjs).
    const settle = () => (T > 1 ? new Promise((r) => setTimeout(r, 60)) : null);
    let blk = 1, skip = 0;
    if (T > 1) { const a0 = performance.now(); holoRun(randomInput(n)); blk = Math.min(200, Math.max(8, Math.ceil(40 / Math.max(performance.now() - a0, 0.01)))); skip = 1; }
    const th = [], tw = [], end = performance.now() + 3 * budgetMs;
    while ((performance.now() < end || th.length < 10) && th.length < 300 && !bad) {
      const xs = Array.from({ length: blk }, () => randomInput(n));
      await settle();
      xs.forEach((x, k) => { const t = holoRun(x); if (k >= skip) th.push(t); });
      await settle();
      for (let k = 0; k < blk; k++) { const t = await webRun(xs[k]); if (k >= skip) tw.push(t); }
    }
    const pool = rt.poolStats;
    s.dispose(); rt.dispose(); await web.release();
    if (bad) return { error: bad };
    return { holo_ms: median(th), ort_web_ms: median(tw), runs: th.length, worker_tasks: pool ? pool.workerTasks : 0, variant: rt.variant };
  };
  document.body.dataset.ready = '1';
</script><body></body>`;
routes['/'] = ['text/html; charset=utf-8', PAGE];

const server = await startServer({
  routes,
  mounts: [['/bindings-js/', path.join(ROOT, 'bindings-js')], ['/ort/', path.join(ROOT, 'node_modules/onnxruntime-web/dist')]],
  headers: () => ISOLATION,
});
const browser = await launch(60_000 + 6 * budgetMs);
const rows = [];
try {
  const { page } = browser;
  console.log(`chromium: ${(await browser.context.browser()?.version()) ?? 'headless'}`);
  for (const T of threadList) {
    await page.goto(`${server.url}?threads=${T}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    for (const name of names) {
      const r = await page.evaluate(([n, m, b]) => globalThis.bench(n, m, b), [name, meta[name], budgetMs]);
      if (r.error) { console.log(JSON.stringify({ model: name, threads: T, error: r.error })); continue; }
      const row = { model: name, threads: T, variant: r.variant, holo_ms: +r.holo_ms.toFixed(3), ort_web_ms: +r.ort_web_ms.toFixed(3), ratio_holo_over_web: +(r.holo_ms / r.ort_web_ms).toFixed(2), runs: r.runs, worker_tasks: r.worker_tasks };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  try { await Promise.race([browser.context.close(), new Promise((r) => setTimeout(r, 5000))]); } catch { /* closing */ }
  fs.rmSync(browser.profile, { recursive: true, force: true });
  await server.close();
}
console.log('\n| model | threads | hologram ms | ORT-web ms | hologram/ORT-web | runs |');
console.log('|---|--:|--:|--:|--:|--:|');
for (const r of rows) console.log(`| ${r.model} | ${r.threads} | ${r.holo_ms} | ${r.ort_web_ms} | ${r.ratio_holo_over_web} | ${r.runs} |`);
for (const T of threadList) {
  const rs = rows.filter((r) => r.threads === T);
  if (rs.length) console.log(`chromium_peer_ratio_max_${T}t=${Math.max(...rs.map((r) => r.ratio_holo_over_web)).toFixed(2)}`);
}
process.exit(0);
