// The zoo's race in headless Chromium (bench/peers-browser.mjs's method, for
// the zoo's multi-input models): the .holo files `make zoo` wrote for passing
// models (build/zoo/holo/) and their ONNX files, served with ORT-web's dist
// from a local cross-origin-isolated server; in one page per thread count the
// two engines race with bench/zoo/timing.mjs's loop (the one race.mjs uses:
// warm-up until steady, ABBA alternation, blocks at 2 threads, a fresh input
// set per pair, median of per-pair ratios, a wall cap per model), hologram's
// counters checked after every run. Chromium's default hologram variant (relaxed SIMD where
// the engine has it) at 1 thread; simd128-threads at 2.
//   node bench/zoo/browser.mjs [DIR] [--models a,b@17] [--ms 500] [--cap-s 10] [--threads 1,2] [--json FILE] [--holo-dir DIR/holo]
// Without --models: the passing models of DIR/results.json.
// Ends with chromium_zoo_ratio_geomean_<T>t=.. chromium_zoo_ratio_max_<T>t=..
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ISOLATION, startServer, launch } from '../../tests/browser/harness.mjs';
import { loadManifest, selectModels } from './manifest.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const budgetMs = Number(opt('--ms', '500'));
const capMs = Number(opt('--cap-s', '10')) * 1000;
const threadList = opt('--threads', '1,2').split(',').map(Number);
const list = (opt('--models', '') || '').split(',').filter(Boolean);
const jsonOut = opt('--json', null);
const holoDirOpt = opt('--holo-dir', null);
const dir = path.resolve(args[0] ?? path.join(ROOT, 'build/zoo'));
const holoDir = path.resolve(holoDirOpt ?? path.join(dir, 'holo'));
let keys = list;
if (!keys.length) {
  const res = JSON.parse(fs.readFileSync(path.join(dir, 'results.json'), 'utf8')).results;
  keys = res.filter((r) => r.status === 'pass').map((r) => r.key);
}
const entries = selectModels(loadManifest(dir), keys).filter((e) => fs.existsSync(path.join(holoDir, `${e.key}.holo`)));

const PAGE = `<!doctype html><meta charset="utf-8"><title>zoo: holo vs ort-web</title>
<script type="module">
  import * as ort from '/ort/ort.wasm.min.mjs';
  import { init } from '/bindings-js/index.js';
  import { Feeder } from '/zoo/inputs.mjs';
  import { race, summarizeRace } from '/zoo/timing.mjs';
  const T = Number(new URLSearchParams(location.search).get('threads') || 1);
  ort.env.wasm.wasmPaths = '/ort/';
  ort.env.wasm.numThreads = T;
  ort.env.wasm.simd = true;
  globalThis.bench = async (key, file, ports, budgetMs, capMs) => {
    const get = async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer());
    const rt = await init(undefined, T > 1 ? { threads: T } : {});
    if (rt.threads !== T) return { error: 'hologram threads unavailable: ' + rt.threadsUnavailable };
    const s = rt.load(await get('/holo/' + key + '.holo'));
    const web = await ort.InferenceSession.create(await get('/onnx/' + file), { executionProviders: ['wasm'] });
    const feeder = new Feeder(ports, Date.now() >>> 0);
    let perCall = null, perCallElided = null, bad = null; // elisions: only the first fresh run's (race.mjs)
    const holoRun = (xs) => {
      const c0 = s.counters, a = performance.now();
      s.run(Object.fromEntries(xs.map((x) => [x.name, { data: x.data, shape: x.shape }])));
      const t = performance.now() - a, c1 = s.counters, d = c1.dispatches - c0.dispatches;
      const el = c1.elided - c0.elided;
      if (perCall === null) { perCall = d; perCallElided = el; }
      if (d === 0 || c1.memoHits !== c0.memoHits || d + el !== perCall + perCallElided || c1.executions !== c0.executions + 1) { bad = 'a run did not compute everything: dispatches ' + d + ' (first ' + perCall + ')'; return null; }
      return t;
    };
    const webRun = async (xs) => { const a = performance.now(); await web.run(Object.fromEntries(xs.map((x) => [x.name, new ort.Tensor(x.dtype, x.data, x.shape)]))); return performance.now() - a; };
    const r = await race({ holoRun, webRun, next: () => feeder.next(), threads: T, budgetMs, capMs });
    const variant = rt.variant;
    s.dispose(); rt.dispose(); await web.release();
    if (bad || r.error) return { error: bad ?? r.error };
    return { ...summarizeRace(r), variant, dispatches_per_run: perCall };
  };
  document.body.dataset.ready = '1';
</script><body></body>`;

const server = await startServer({
  routes: { '/': ['text/html; charset=utf-8', PAGE] },
  mounts: [['/bindings-js/', path.join(ROOT, 'bindings-js')], ['/ort/', path.join(ROOT, 'node_modules/onnxruntime-web/dist')],
    ['/zoo/', path.join(ROOT, 'bench/zoo')], ['/holo/', holoDir], ['/onnx/', dir]],
  headers: () => ISOLATION,
});
const browser = await launch(240_000 + 20 * budgetMs);
const rows = [];
try {
  const { page } = browser;
  console.log(`chromium: ${(await browser.context.browser()?.version()) ?? 'headless'}; ${entries.length} models`);
  for (const T of threadList) {
    await page.goto(`${server.url}?threads=${T}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.ready === '1');
    for (const e of entries) {
      let r;
      try {
        r = await page.evaluate(([k, f, p, b, c]) => globalThis.bench(k, f, p, b, c), [e.key, e.file, e.inputs, budgetMs, capMs]);
      } catch (err) {
        r = { error: String(err.message).split('\n')[0] };
      }
      const row = r.error ? { key: e.key, threads: T, error: r.error }
        : { key: e.key, threads: T, ...r };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  try { await Promise.race([browser.context.close(), new Promise((r) => setTimeout(r, 5000))]); } catch { /* closing */ }
  fs.rmSync(browser.profile, { recursive: true, force: true });
  await server.close();
}
const ok = rows.filter((r) => !r.error);
console.log('\n| model | threads | variant | hologram ms | ORT-web ms | hologram/ORT-web [95%] | runs |');
console.log('|---|--:|---|--:|--:|--:|--:|');
for (const r of ok) console.log(`| ${r.key} | ${r.threads} | ${r.variant} | ${r.holo_ms} | ${r.ort_web_ms} | ${r.ratio.toFixed(2)} [${r.ratio_ci95.map((x) => x.toFixed(2)).join('–')}]${r.capped ? ' (capped)' : ''} | ${r.runs} |`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ when: new Date().toISOString(), rows }, null, 1));
for (const r of rows.filter((x) => x.error)) console.log(`error: ${r.key} ${r.threads}t: ${r.error}`);
for (const T of threadList) {
  const rs = ok.filter((r) => r.threads === T).map((r) => r.ratio);
  if (rs.length) console.log(`chromium_zoo_ratio_geomean_${T}t=${Math.exp(rs.reduce((a, x) => a + Math.log(x), 0) / rs.length).toFixed(2)} chromium_zoo_ratio_max_${T}t=${Math.max(...rs).toFixed(2)} (${rs.length} models)`);
}
process.exit(0);
