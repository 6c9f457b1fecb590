// One zoo model's speed race, hologram-exec vs onnxruntime-web, in ONE
// process (bench/peers.mjs's method): the .holo bench/zoo/check.mjs wrote
// (converter defaults) on the simd128 module (1 thread) or simd128-threads
// (T threads); ORT-web's wasm EP with numThreads = T, simd on. The timing
// loop is bench/zoo/timing.mjs (warm-up until steady, ABBA alternation, a
// fresh input set per pair, the median of per-pair ratios with its 95%
// interval, a wall cap per model). hologram's counters are checked after
// every run (dispatches == the first run's count and nonzero, one execution,
// no memo hits, no elisions): a run that did not compute fails the race. One
// run of each engine on the same inputs first: the outputs must agree
// (<= 1e-3 relative; the check held hologram to 1e-4 of onnxruntime-node).
//   node bench/zoo/race.mjs DIR KEY [--threads T] [--ms 500] [--cap-s 10] [--holo-dir D] [--holo-sha256 H]   (one JSON line)
//   node bench/zoo/race.mjs DIR KEY --mem holo|web                 (RSS growth of one engine)
// Load time: rt.load(.holo) vs InferenceSession.create(onnx). Memory:
// counters.peakResidentBytes, and in --mem children the process RSS growth
// over loading the model and running it twice.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { init } from '../../bindings-js/index.js';
import { loadManifest } from './manifest.mjs';
import { Feeder } from './inputs.mjs';
import { race, summarizeRace } from './timing.mjs';
import { computedChecker, hasControlFlow } from './computed.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const threads = Number(opt('--threads', '1'));
const budgetMs = Number(opt('--ms', '500'));
const capMs = Number(opt('--cap-s', '10')) * 1000;
const mem = opt('--mem', null);
const sha = opt('--holo-sha256', null);
const holoDirOpt = opt('--holo-dir', null);
const [dir, key] = args;
const entry = loadManifest(dir).find((e) => e.key === key);
if (!entry) { console.error(`race.mjs: ${key} not in ${dir}/manifest.json`); process.exit(2); }
const onnx = fs.readFileSync(path.join(dir, entry.file));
const holoDir = holoDirOpt ?? path.join(dir, 'holo');
const fail = (error) => { console.log(JSON.stringify({ key, threads, error })); process.exit(0); };
let holo;
try { holo = fs.readFileSync(path.join(holoDir, `${key}.holo`)); } catch (e) { fail(`no archive: ${e.message}`); }
// the archive the check passed, not one another run left in a shared folder
if (sha && createHash('sha256').update(holo).digest('hex') !== sha) fail(`${holoDir}/${key}.holo is not the archive the check passed (sha256 differs)`);
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
    for (let i = 0; i < 2; i++) { s.run(holoFeeds(feeder.next())); peak = Math.max(peak, process.memoryUsage().rss); }
  } else {
    const web = await ort.InferenceSession.create(onnx, { executionProviders: ['wasm'] });
    for (let i = 0; i < 2; i++) { await web.run(webFeeds(feeder.next())); peak = Math.max(peak, process.memoryUsage().rss); }
  }
  console.log(JSON.stringify({ rss_delta: peak - rss0 }));
  process.exit(0);
}

const rt = await holoInit();
if (rt.threads !== threads) { console.log(JSON.stringify({ key, threads, error: `hologram: ${threads} threads unavailable: ${rt.threadsUnavailable}` })); process.exit(0); }
// RSS growth per engine, in this process: hologram's over its load and
// first run (weights are packed at the first execution), then ORT-web's over
// its session and first run on top (a GC in between can only make ORT-web's
// look smaller). The --mem children measure each engine alone (slower: two
// more loads per model).
const rss = () => process.memoryUsage().rss;
const rss0 = rss();
let t0 = performance.now();
let s, web;
try { s = rt.load(holo); } catch (e) { fail(`hologram load: ${e.code ?? ''} ${String(e.message).split('\n')[0]}`); }
const holoLoad = performance.now() - t0;
// Every timed run computes what the fresh session's first run did, never a
// memo answer (computed.mjs has the rule, with its control-flow case).
let perCall = null, perCallElided = null, bad = null, check = null;
const holoRun = (xs) => {
  check ??= computedChecker({ kernelCount: s.kernelCount, controlFlow: hasControlFlow(holo) });
  const c0 = s.counters;
  const a = performance.now();
  const out = s.run(holoFeeds(xs));
  const t = performance.now() - a;
  const c1 = s.counters;
  if (perCall === null) { perCall = c1.dispatches - c0.dispatches; perCallElided = c1.elided - c0.elided; }
  const why = check(c0, c1);
  if (why) { bad ??= why; return null; }
  holoRun.out = out;
  return t;
};
const webRun = async (xs) => { const a = performance.now(); const o = await web.run(webFeeds(xs)); const t = performance.now() - a; webRun.out = o; return t; };

// Both engines on the same inputs before the race: the race times what the
// check (vs onnxruntime-node) passed, so it must agree with ORT-web too.
const xs0 = feeder.next();
holoRun(xs0);
const rss1 = rss();
t0 = performance.now();
try { web = await ort.InferenceSession.create(onnx, { executionProviders: ['wasm'] }); } catch (e) { fail(`ORT-web load: ${String(e.message).split('\n')[0]}`); }
const webLoad = performance.now() - t0;
await webRun(xs0);
const rss2 = rss();
let maxdiff = 0, maxout = 0;
{
  for (const name of web.outputNames) {
    const a = webRun.out[name].data, b = holoRun.out?.[name]?.data;
    if (!b || b.length !== a.length) { bad ??= `output ${name} differs in size from ORT-web's`; break; }
    for (let i = 0; i < a.length; i++) { maxdiff = Math.max(maxdiff, Math.abs(Number(a[i]) - Number(b[i]))); maxout = Math.max(maxout, Math.abs(Number(a[i]))); }
  }
  if (!bad && maxdiff > 1e-3 * (maxout || 1)) bad = `disagrees with ORT-web: max|diff| ${maxdiff.toExponential(2)} vs max|out| ${maxout.toExponential(2)}`;
}
const load0 = os.loadavg()[0];
const r = bad ? { error: bad } : await race({ holoRun, webRun, next: () => feeder.next(), threads, budgetMs, capMs });
if (r.error) bad ??= r.error;
const c = s.counters;
const row = bad ? { key, threads, error: bad } : {
  key, threads, variant: rt.variant, ...summarizeRace(r), dispatches_per_run: perCall, elided_per_run: perCallElided, kernels: s.kernelCount,
  memo_hits: c.memoHits, elided: c.elided,
  holo_load_ms: +holoLoad.toFixed(1), ort_web_load_ms: +webLoad.toFixed(1), holo_peak_resident_mib: mib(c.peakResidentBytes),
  rss_delta_mib: { holo: mib(rss1 - rss0), ort_web: mib(rss2 - rss1) },
  vs_ort_web_rel: +(maxdiff / (maxout || 1)).toExponential(2), loadavg: [+load0.toFixed(2), +os.loadavg()[0].toFixed(2)],
  ...(threads > 1 ? { worker_tasks: rt.poolStats?.workerTasks ?? 0 } : {}),
};
s.dispose();
rt.dispose();
await web.release();
console.log(JSON.stringify(row));
process.exit(0);
