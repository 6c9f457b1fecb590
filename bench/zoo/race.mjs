// One zoo model's speed race, hologram-exec vs onnxruntime-web, in ONE
// process (bench/peers.mjs's method): the .holo bench/zoo/check.mjs wrote
// (converter defaults) on the simd128 module (1 thread) or simd128-threads
// (T threads); ORT-web's wasm EP with numThreads = T, simd on. Every run feeds
// a fresh random input set (the same to both engines); hologram's counters are
// checked after every run (dispatches == the first run's per-call count, no
// memo hits, no elisions), and a run that did not compute fails the race. One
// thread alternates run by run; with threads, blocks of >= 40 ms per engine,
// the first run of a block not counted, a 60 ms pause before each block so the
// other engine's pool has parked (ORT-web's spins ~20-25 ms after a run).
//   node bench/zoo/race.mjs DIR KEY [--threads T] [--ms 1000]     (one JSON line)
//   node bench/zoo/race.mjs DIR KEY --mem holo|web                 (RSS growth of one engine)
// Load time: rt.load(.holo) vs InferenceSession.create(onnx). Memory:
// counters.peakResidentBytes, and in --mem children the process RSS growth
// over loading the model and running it 3 times.
import fs from 'node:fs';
import path from 'node:path';
import { init } from '../../bindings-js/index.js';
import { loadManifest } from './manifest.mjs';
import { Feeder } from './inputs.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const threads = Number(opt('--threads', '1'));
const budgetMs = Number(opt('--ms', '1000'));
const mem = opt('--mem', null);
const [dir, key] = args;
const entry = loadManifest(dir).find((e) => e.key === key);
if (!entry) { console.error(`race.mjs: ${key} not in ${dir}/manifest.json`); process.exit(2); }
const onnx = fs.readFileSync(path.join(dir, entry.file));
const holo = fs.readFileSync(path.join(dir, 'holo', `${key}.holo`));
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const mib = (b) => +(b / 2 ** 20).toFixed(1);
const feeder = new Feeder(entry.inputs, Date.now() >>> 0);

const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = threads;
ort.env.wasm.simd = true;
const holoInit = () => init(undefined, threads > 1 ? { variant: 'simd128-threads', threads } : { variant: 'simd128' });
const holoFeeds = (xs) => Object.fromEntries(xs.map((x) => [x.name, { data: x.data, shape: x.shape }]));
const webFeeds = (xs) => Object.fromEntries(xs.map((x) => [x.name, new ort.Tensor(x.dtype, x.data, x.shape)]));

if (mem) {
  const rt = mem === 'holo' ? await holoInit() : null;
  global.gc?.();
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  if (rt) {
    const s = rt.load(holo);
    for (let i = 0; i < 3; i++) { s.run(holoFeeds(feeder.next())); peak = Math.max(peak, process.memoryUsage().rss); }
  } else {
    const web = await ort.InferenceSession.create(onnx, { executionProviders: ['wasm'] });
    for (let i = 0; i < 3; i++) { await web.run(webFeeds(feeder.next())); peak = Math.max(peak, process.memoryUsage().rss); }
  }
  console.log(JSON.stringify({ rss_delta: peak - rss0 }));
  process.exit(0);
}

const rt = await holoInit();
if (rt.threads !== threads) { console.log(JSON.stringify({ key, threads, error: `hologram: ${threads} threads unavailable: ${rt.threadsUnavailable}` })); process.exit(0); }
let t0 = performance.now();
const s = rt.load(holo);
const holoLoad = performance.now() - t0;
t0 = performance.now();
const web = await ort.InferenceSession.create(onnx, { executionProviders: ['wasm'] });
const webLoad = performance.now() - t0;

let perCall = null, bad = null, maxdiff = 0, maxout = 0;
const holoRun = (xs) => {
  const c0 = s.counters;
  const a = performance.now();
  const out = s.run(holoFeeds(xs));
  const t = performance.now() - a;
  const c1 = s.counters;
  const d = c1.dispatches - c0.dispatches;
  if (perCall === null) perCall = d;
  if (d === 0 || d !== perCall || c1.memoHits !== c0.memoHits || c1.elided !== c0.elided || c1.executions !== c0.executions + 1)
    bad = `a run did not compute everything: dispatches ${d} (first ${perCall}), memoHits +${c1.memoHits - c0.memoHits}, elided +${c1.elided - c0.elided}`;
  return { t, out };
};
const webRun = async (xs) => { const a = performance.now(); const o = await web.run(webFeeds(xs)); return { t: performance.now() - a, out: o }; };
const agree = (h, w) => {
  for (const name of web.outputNames) {
    const a = w.out[name].data, b = h.out[name]?.data;
    if (!b || b.length !== a.length) { bad = `output ${name} differs in size from ORT-web's`; return; }
    for (let i = 0; i < a.length; i++) { maxdiff = Math.max(maxdiff, Math.abs(Number(a[i]) - Number(b[i]))); maxout = Math.max(maxout, Math.abs(Number(a[i]))); }
  }
};

// Warm-up until both engines are steady: V8 first runs wasm as baseline
// (Liftoff) code and tiers hot functions up to TurboFan in the background,
// which on a loaded 2-core box took ~8 runs of mobilenet_v3_small (1117, 575,
// ... 104, 35 ms; steady 20-50 ms), so a fixed 2-run warm-up timed the
// baseline tier. Steady: >= 6 runs and the median of the last 3 within 1.5x
// of the fastest so far, for each engine; capped at 60 runs / 90 s.
const steady = (ts) => ts.length >= 6 && median(ts.slice(-3)) <= 1.5 * Math.min(...ts);
const wh = [], ww = [], w0 = performance.now();
while (!(steady(wh) && steady(ww)) && wh.length < 60 && performance.now() - w0 < 90_000 && !bad) {
  const xs = feeder.next();
  wh.push(holoRun(xs).t);
  ww.push((await webRun(xs)).t);
}
const est = median(wh.slice(-3));
const minRuns = est > 300 ? 5 : 10;
const SETTLE_MS = 60;
const settle = () => (threads > 1 ? new Promise((r) => setTimeout(r, SETTLE_MS)) : null);
let blk = 1, skip = 0;
if (threads > 1) { blk = Math.min(200, Math.max(est > 300 ? 3 : 8, Math.ceil(40 / Math.max(est, 0.01)))); skip = 1; }
const th = [], tw = [];
const end = performance.now() + 3 * budgetMs;
while ((performance.now() < end || th.length < minRuns) && th.length < 300 && !bad) {
  const xs = Array.from({ length: blk }, () => feeder.next());
  await settle();
  const hs = xs.map((x) => holoRun(x));
  for (const h of hs.slice(skip)) th.push(h.t);
  await settle();
  for (let k = 0; k < blk; k++) {
    const w = await webRun(xs[k]);
    if (tw.length < 3) agree(hs[k], w);
    if (k >= skip) tw.push(w.t);
  }
}
const c = s.counters;
const row = bad ? { key, threads, error: bad } : {
  key, threads, variant: rt.variant, holo_ms: +median(th).toFixed(3), ort_web_ms: +median(tw).toFixed(3),
  ratio: +(median(th) / median(tw)).toFixed(3), runs: th.length, dispatches_per_run: perCall, memo_hits: c.memoHits, elided: c.elided,
  warmup_runs: wh.length, warmup_steady: steady(wh) && steady(ww), holo_load_ms: +holoLoad.toFixed(1), ort_web_load_ms: +webLoad.toFixed(1), holo_peak_resident_mib: mib(c.peakResidentBytes),
  vs_ort_web_rel: +(maxdiff / (maxout || 1)).toExponential(2),
  ...(threads > 1 ? { worker_tasks: rt.poolStats?.workerTasks ?? 0 } : {}),
};
s.dispose();
rt.dispose();
await web.release();
console.log(JSON.stringify(row));
process.exit(0);
