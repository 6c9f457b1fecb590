// A before/after race of one zoo model in ONE process: two hologram builds
// (an old core module and its archive, the new ones) and onnxruntime-web,
// 1 thread, simd128. Every round feeds one fresh input set to all three in
// a rotating order (old-new-web, new-web-old, web-old-new), so no engine is
// always the one that runs after another's caches; the figures are medians
// of the per-round ratios with their 95% intervals (timing.mjs). Both
// hologram outputs must agree with ORT-web (<= 1e-3 relative, race.mjs's
// bar) and every hologram run must dispatch what its first run did (no memo
// answer: race.mjs's counter check).
//   node bench/zoo/race-ab.mjs DIR KEY --old-wasm F [--old-holo-dir D] [--holo-dir D] [--rounds 30] [--cap-s 20]
// Without --old-holo-dir the old module runs the new archive (a kernel-only change).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { init } from '../../bindings-js/index.js';
import { loadManifest } from './manifest.mjs';
import { Feeder } from './inputs.mjs';
import { median, medianInterval, steady } from './timing.mjs';
import { computedChecker, hasControlFlow } from './computed.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const oldWasm = opt('--old-wasm', null);
const holoDir = opt('--holo-dir', null);
const oldHoloDir = opt('--old-holo-dir', null);
const rounds = Number(opt('--rounds', '30'));
const capMs = Number(opt('--cap-s', '20')) * 1000;
const [dir, key] = args;
if (!dir || !key || !oldWasm) { console.error('usage: race-ab.mjs DIR KEY --old-wasm F [--old-holo-dir D] [--holo-dir D] [--rounds N] [--cap-s S]'); process.exit(2); }
const entry = loadManifest(dir).find((e) => e.key === key);
if (!entry) { console.error(`race-ab.mjs: ${key} not in ${dir}/manifest.json`); process.exit(2); }
const newHolo = fs.readFileSync(path.join(holoDir ?? path.join(dir, 'holo'), `${key}.holo`));
const oldHolo = oldHoloDir ? fs.readFileSync(path.join(oldHoloDir, `${key}.holo`)) : newHolo;
const feeder = new Feeder(entry.inputs, Date.now() >>> 0);

const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.wasm.simd = true;
const feeds = (xs) => Object.fromEntries(xs.map((x) => [x.name, { data: x.data, shape: x.shape }]));

function holoEngine(rt, bytes, name) {
  const s = rt.load(bytes);
  const check = computedChecker({ kernelCount: s.kernelCount, controlFlow: hasControlFlow(bytes) });
  const run = (xs) => {
    const c0 = s.counters, a = performance.now();
    const out = s.run(feeds(xs));
    const t = performance.now() - a, why = check(c0, s.counters);
    if (why) throw new Error(`${name}: ${why}`);
    run.out = out;
    return t;
  };
  return { name, run, dispose: () => s.dispose() };
}
const rtOld = await init(fs.readFileSync(oldWasm), { variant: 'simd128' });
const rtNew = await init(undefined, { variant: 'simd128' });
const web = await ort.InferenceSession.create(fs.readFileSync(path.join(dir, entry.file)), { executionProviders: ['wasm'] });
const webRun = async (xs) => {
  const f = Object.fromEntries(xs.map((x) => [x.name, new ort.Tensor(x.dtype, x.data, x.shape)]));
  const a = performance.now(); const o = await web.run(f); const t = performance.now() - a; webRun.out = o; return t;
};
const E = [holoEngine(rtOld, oldHolo, 'old'), holoEngine(rtNew, newHolo, 'new'), { name: 'web', run: webRun }];

// agreement on one input set
const xs0 = feeder.next();
for (const e of E) await e.run(xs0);
const diffs = {};
for (const e of E.slice(0, 2)) {
  let d = 0, m = 0;
  for (const n of web.outputNames) {
    const a = webRun.out[n].data, b = e.run.out[n].data;
    if (a.length !== b.length) throw new Error(`${e.name}: output ${n} differs in size`);
    for (let i = 0; i < a.length; i++) { d = Math.max(d, Math.abs(Number(a[i]) - Number(b[i]))); m = Math.max(m, Math.abs(Number(a[i]))); }
  }
  diffs[e.name] = +(d / (m || 1)).toExponential(2);
  if (d > 1e-3 * (m || 1)) throw new Error(`${e.name} disagrees with ORT-web: ${diffs[e.name]}`);
}

const load0 = os.loadavg()[0];
const t0 = performance.now();
const warm = E.map(() => []);
while (!warm.every(steady) && warm[0].length < 60 && performance.now() - t0 < capMs / 2) {
  const xs = feeder.next();
  for (let k = 0; k < 3; k++) warm[k].push(await E[k].run(xs));
}
const T = E.map(() => []), R = { new_web: [], old_web: [], new_old: [] };
const t1 = performance.now();
for (let r = 0; r < rounds && (r < 5 || performance.now() - t1 < capMs); r++) {
  const xs = feeder.next(), t = [0, 0, 0];
  for (let q = 0; q < 3; q++) { const k = (r + q) % 3; t[k] = await E[k].run(xs); }
  for (let k = 0; k < 3; k++) T[k].push(t[k]);
  R.old_web.push(t[0] / t[2]); R.new_web.push(t[1] / t[2]); R.new_old.push(t[1] / t[0]);
}
const r3 = (x) => +x.toFixed(3);
const ratio = (xs) => ({ median: r3(median(xs)), ci95: medianInterval(xs).map(r3) });
console.log(JSON.stringify({
  key, rounds: T[0].length, warmup_rounds: warm[0].length,
  old_ms: r3(median(T[0])), new_ms: r3(median(T[1])), web_ms: r3(median(T[2])),
  new_vs_web: ratio(R.new_web), old_vs_web: ratio(R.old_web), new_vs_old: ratio(R.new_old),
  vs_ort_web_rel: diffs, loadavg: [r3(load0), r3(os.loadavg()[0])],
}));
for (const e of E.slice(0, 2)) e.dispose();
rtOld.dispose(); rtNew.dispose();
await web.release();
process.exit(0);
