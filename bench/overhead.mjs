// The fixed cost of one execution (issue 40 item 1): a ladder of synthetic
// graphs (bench/overhead-models.mjs: elementwise chains of 1-256 nodes on
// [1,64] and [1,512], Gemm chains of 1-16 at 64 and 512, an If, a Loop of 1
// and of 16 trips), each raced against onnxruntime-web (wasm EP, numThreads
// 1, simd) in ONE Node process, alternating run by run, medians. Every run
// feeds a fresh random x (the same to both engines) so hologram's memo can
// never answer; the counters after every timed hologram run must show it
// computed everything (bench/zoo/computed.mjs) or the benchmark aborts.
//
// hologram's time of one execute, split (after the race, same session):
//   - js_in:  Session.execute up to the call into wasm: argument checks,
//             holo_alloc of the input/shape/view records, the input copy
//             (copyin: rt.copyIn's share of it, timed on its own);
//   - core:   inside holo_wasm_execute (input labels, per-node labels, memo
//             look-up and insert, dispatch, kernels; the host's SHA-256 of
//             inputs >= 2 KiB is a call back out to node:crypto inside it);
//   - js_out: after it: reading the views, decoding the labels, the output
//             copy (copyout = js_out of execute - js_out of executeAddressed,
//             which returns views), holo_free of the records;
//   - xings:  calls from JS into the module per execute (counted), and the
//             cost of one such call (a guarded holo_alloc+holo_free pair / 2).
// These are performance.now stamps around wrappers of the exports, medians
// over many reps; they add ~3 stamps per run (the instrumented total is
// printed next to the race's). The core cannot be split from JS (the
// counters count, they do not time), so the core's split is a callgrind run
// of the native CLI (build/native/holo bench, the same archive; native build,
// scalar kernels: instruction counts, not wasm time) on a few rungs, one
// profile dump per holo_execute_addressed, full executions only (the CLI's
// memo-hit repeats dropped), grouped by function: SHA-256, label
// bookkeeping, memo, allocation, copies, kernels, walk/dispatch; and by
// purpose (inclusive): input labels, per-node labels, memo key.
//
//   node bench/overhead.mjs [rung ...] [--ms 1500] [--no-callgrind] [--cg ew16_64,gemm16_64,loop16_64]
// Ends with `overhead_ratio_max=R` (the worst rung's hologram / ORT-web median).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings-js/index.js';
import { convert } from '../compiler/convert.js';
import { computedChecker, hasControlFlow } from './zoo/computed.mjs';
import { rungs as allRungs, build, feeds as feedsOf } from './overhead-models.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const OUT = path.join(ROOT, 'build/bench-overhead');

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const flag = (k) => { const i = args.indexOf(k); if (i < 0) return false; args.splice(i, 1); return true; };
const budgetMs = Number(opt('--ms', '1500'));
const noCallgrind = flag('--no-callgrind');
const cgRungs = opt('--cg', 'ew16_64,gemm16_64,loop16_64').split(',').filter(Boolean);
const ladder = allRungs().filter((r) => !args.length || args.includes(r.name));
if (!ladder.length) { console.error(`no rung named ${args.join(' ')} (rungs: ${allRungs().map((r) => r.name).join(' ')})`); process.exit(1); }

let rs = 0x9e3779b9 ^ (Date.now() >>> 0);
function rand(n) {
  const d = new Float32Array(n);
  for (let i = 0; i < n; i++) { rs ^= rs << 13; rs ^= rs >>> 17; rs ^= rs << 5; d[i] = (rs >>> 0) / 2 ** 31 - 1; }
  return d;
}
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };
const us = (ms) => +(ms * 1000).toFixed(1);

const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.wasm.simd = true;
ort.env.logLevel = 'error'; // not its warning about an initializer the 1-node rungs do not read
const rt = await init(undefined, { variant: 'simd128' });

fs.mkdirSync(OUT, { recursive: true });

/** One hologram execute with the export wrapped: [total, js_in, core, js_out] in ms. */
function instrumented(s, inputs, addressed) {
  const x = rt.x, real = x.holo_wasm_execute;
  let tIn = 0, tOut = 0;
  x.holo_wasm_execute = (...a) => { tIn = performance.now(); try { return real(...a); } finally { tOut = performance.now(); } };
  try {
    const t0 = performance.now();
    if (addressed) s.executeAddressed(inputs); else s.execute(inputs);
    const t1 = performance.now();
    return [t1 - t0, tIn - t0, tOut - tIn, t1 - tOut];
  } finally {
    x.holo_wasm_execute = real;
  }
}

/** Calls into the module during one execute, and the median of rt.copyIn alone over the inputs. */
function crossings(s, inputs) {
  const x = rt.x, saved = { ...x };
  let n = 0;
  for (const [k, f] of Object.entries(saved)) if (typeof f === 'function') x[k] = (...a) => { n++; return f(...a); };
  try { s.execute(inputs); } finally { Object.assign(x, saved); }
  return n;
}

function copyInMs(inputs, reps) {
  const t = [];
  for (let r = 0; r < reps; r++) {
    const a = performance.now();
    const ps = inputs.map((i) => rt.copyIn(new Uint8Array(i.data.buffer, i.data.byteOffset, i.data.byteLength), 64));
    t.push(performance.now() - a);
    for (const p of ps) rt.x.holo_free(p);
  }
  return median(t);
}

// the cost of one guarded call into the module (holo_alloc + holo_free pair / 2)
function crossingUs() {
  const n = 20000, a = performance.now();
  for (let i = 0; i < n; i++) rt.x.holo_free(rt.x.holo_alloc(16, 16));
  return ((performance.now() - a) / n / 2) * 1000;
}

const rows = [];
for (const rung of ladder) {
  const onnx = build(rung);
  const { holo } = convert(onnx);
  fs.writeFileSync(path.join(OUT, `${rung.name}.onnx`), onnx);
  fs.writeFileSync(path.join(OUT, `${rung.name}.holo`), holo);
  const s = rt.load(holo);
  const web = await ort.InferenceSession.create(onnx, { executionProviders: ['wasm'] });
  const names = s.inputs.map((p) => p.name);
  const holoIn = (f) => names.map((k) => ({ data: f[k].data, shape: f[k].shape }));
  const webIn = (f) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, new ort.Tensor(v.type, v.data, v.shape)]));
  const check = computedChecker({ kernelCount: s.kernelCount, controlFlow: hasControlFlow(holo) });
  let bad = null, maxdiff = 0, disp = null, hashed = null;
  const holoRun = (f) => {
    const ins = holoIn(f), c0 = s.counters;
    const a = performance.now();
    const out = s.execute(ins);
    const t = performance.now() - a;
    const c1 = s.counters;
    bad ??= check(c0, c1);
    disp ??= c1.dispatches - c0.dispatches;
    hashed ??= c1.bytesHashed - c0.bytesHashed;
    return { t, out: out[0].data };
  };
  const webRun = async (f) => { const a = performance.now(); const o = await web.run(webIn(f)); return { t: performance.now() - a, out: o[web.outputNames[0]].data }; };

  // warm-up (packing, ORT's first-run allocations, both modules' tier-up
  // to optimized code): 10% of the budget, at least 3 runs, untimed
  for (let i = 0, w0 = performance.now(); i < 3 || performance.now() - w0 < budgetMs / 10; i++) { const f = feedsOf(rung, rand); holoRun(f); await webRun(f); }
  const th = [], tw = [];
  const end = performance.now() + budgetMs;
  while ((performance.now() < end || th.length < 15) && th.length < 5000) {
    const f = feedsOf(rung, rand);
    const h = holoRun(f), w = await webRun(f);
    th.push(h.t); tw.push(w.t);
    if (th.length <= 3) for (let i = 0; i < w.out.length; i++) maxdiff = Math.max(maxdiff, Math.abs(w.out[i] - h.out[i]));
    if (bad) break;
  }
  if (bad) { console.error(`${rung.name}: ${bad}`); process.exit(1); }
  if (!(maxdiff <= 1e-4)) { console.error(`${rung.name}: hologram and ORT-web disagree by ${maxdiff}`); process.exit(1); }

  // the split: instrumented runs, fresh inputs each, within ~budget/3
  const parts = { tot: [], in: [], core: [], out: [], outAddr: [] };
  const splitEnd = performance.now() + budgetMs / 3;
  while ((performance.now() < splitEnd || parts.tot.length < 15) && parts.tot.length < 3000) {
    const c0 = s.counters;
    const [t, a, b, c] = instrumented(s, holoIn(feedsOf(rung, rand)), false);
    const c1 = s.counters;
    bad ??= check(c0, c1);
    parts.tot.push(t); parts.in.push(a); parts.core.push(b); parts.out.push(c);
    const c2 = s.counters;
    parts.outAddr.push(instrumented(s, holoIn(feedsOf(rung, rand)), true)[3]);
    bad ??= check(c2, s.counters);
  }
  if (bad) { console.error(`${rung.name} (split): ${bad}`); process.exit(1); }
  const xings = crossings(s, holoIn(feedsOf(rung, rand)));
  const copyin = copyInMs(holoIn(feedsOf(rung, rand)), 200);
  const row = {
    rung: rung.name, nodes: rung.nodes, dispatches: disp, holo_ms: +median(th).toFixed(4), ort_web_ms: +median(tw).toFixed(4),
    ratio: +(median(th) / median(tw)).toFixed(2), runs: th.length,
    instrumented_us: us(median(parts.tot)), js_in_us: us(median(parts.in)), copyin_us: us(copyin), core_us: us(median(parts.core)),
    js_out_us: us(median(parts.out)), copyout_us: us(Math.max(0, median(parts.out) - median(parts.outAddr))), crossings: xings,
    bytes_hashed: hashed, max_abs_diff_vs_ort_web: +maxdiff.toExponential(2),
  };
  rows.push(row);
  console.log(JSON.stringify(row));
  s.dispose();
  await web.release();
}
const xUs = crossingUs();
console.log(JSON.stringify({ one_crossing_us: +xUs.toFixed(3) }));

// per-node slope and intercept of the elementwise ladder (least squares over its rungs)
function fit(pts) {
  const n = pts.length, mx = pts.reduce((a, p) => a + p[0], 0) / n, my = pts.reduce((a, p) => a + p[1], 0) / n;
  const sxx = pts.reduce((a, p) => a + (p[0] - mx) ** 2, 0), sxy = pts.reduce((a, p) => a + (p[0] - mx) * (p[1] - my), 0);
  const b = sxy / sxx;
  return { per_node_us: +(b * 1000).toFixed(2), intercept_us: +((my - b * mx) * 1000).toFixed(1) };
}
const fits = [];
for (const w of [64, 512]) {
  const ew = rows.filter((r) => r.rung.startsWith('ew') && r.rung.endsWith(`_${w}`));
  if (ew.length < 2) continue;
  fits.push({ ladder: `ew_${w}`, hologram: fit(ew.map((r) => [r.nodes, r.holo_ms])), ort_web: fit(ew.map((r) => [r.nodes, r.ort_web_ms])),
    hologram_core: fit(ew.map((r) => [r.nodes, r.core_us / 1000])) });
}
for (const f of fits) console.log(JSON.stringify(f));

// ---- the core's split: callgrind on the native CLI ----
const HOLO_CLI = path.join(ROOT, 'build/native/holo');
function npyScalarI64(file, v) {
  let h = "{'descr': '<i8', 'fortran_order': False, 'shape': (), }";
  h += ' '.repeat(Math.ceil((10 + h.length + 1) / 64) * 64 - 10 - h.length - 1) + '\n';
  const b = Buffer.alloc(10 + h.length + 8);
  b.write('\x93NUMPY', 0, 'latin1'); b[6] = 1; b[7] = 0; b.writeUInt16LE(h.length, 8); b.write(h, 10, 'latin1');
  b.writeBigInt64LE(BigInt(v), 10 + h.length);
  fs.writeFileSync(file, b);
}
// self cost -> group: function-name rules first, then the file
const GROUPS = [
  ['sha256', (fn, file) => /sha256/.test(file)],
  ['kernels', (fn) => /^(holo_k_|holo_ukernel_|holo_bcast_|u_run|u_infer|binary_|gemm|holo_gemm)/.test(fn)],
  ['memo', (fn, file) => /memo/.test(file) || /memo/.test(fn)],
  ['labels', (fn, file) => /label\.[ch]$|label-tree/.test(file) || /label|digest/.test(fn)],
  ['copies', (fn, file) => /holo_memcpy|holo_memset|^__mem(cpy|set|move)/.test(fn) || /memcpy|memset|memmove/.test(file)],
  ['alloc', (fn, file) => /arena\.c|std-alloc|malloc/.test(file) || /alloc|free/.test(fn)],
  ['kernels', (fn, file) => /kernels-wasm-simd/.test(file)],
  ['walk', () => true],
];
const PURPOSE = { input_labels: /^label_inputs/, node_labels: /^holo__s_computed_digests$/, memo_key: /^holo__s_memo_key$/, memo_get_put: /^(holo_memo_|memo_hit$)/, loop_scalars: /^scalar_entry$/ };
function annotate(file, inclusive) {
  const txt = execFileSync('callgrind_annotate', [`--inclusive=${inclusive ? 'yes' : 'no'}`, '--threshold=100', '--auto=no', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 << 20 });
  const fns = [];
  let total = 0;
  for (const line of txt.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([^)]*\)\s+(.*?)(?:\s+\[[^\]]*\])?\s*$/.exec(line);
    if (!m) continue;
    const ir = Number(m[1].replace(/,/g, '')), rest = m[2];
    if (rest === 'PROGRAM TOTALS') { total = ir; continue; }
    const k = rest.lastIndexOf(':');
    fns.push({ ir, file: rest.slice(0, k), fn: rest.slice(k + 1) });
  }
  if (inclusive) {
    // a function inlined from several files is listed once per file; its
    // inclusive cost is the largest of those entries
    const best = new Map();
    for (const f of fns) if (!best.has(f.fn) || best.get(f.fn).ir < f.ir) best.set(f.fn, f);
    return { total, fns: [...best.values()] };
  }
  // the frames active at the dump (main, verb_bench, ...) are listed with
  // the whole dump's cost: not self cost; the rest partitions the total
  return { total, fns: fns.filter((f) => f.ir < 0.999 * total) };
}
const cg = [];
let cgNote = null;
if (!noCallgrind) {
  const have = (c) => { try { execFileSync('sh', ['-c', `command -v ${c}`], { stdio: 'ignore' }); return true; } catch { return false; } };
  if (!fs.existsSync(HOLO_CLI)) cgNote = `no ${path.relative(ROOT, HOLO_CLI)} (make native): core split skipped`;
  else if (!have('valgrind') || !have('callgrind_annotate')) cgNote = 'valgrind not installed (apt-get install valgrind): core split skipped';
  for (const name of cgNote ? [] : cgRungs) {
    const rung = allRungs().find((r) => r.name === name);
    const holoFile = path.join(OUT, `${name}.holo`);
    if (!rung) continue;
    if (!fs.existsSync(holoFile)) fs.writeFileSync(holoFile, convert(build(rung)).holo);
    const dir = path.join(OUT, `cg-${name}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir);
    const extra = [];
    if (rung.kind === 'loop') { npyScalarI64(path.join(dir, 'M.npy'), rung.m); extra.push('-i', `M=${path.join(dir, 'M.npy')}`); }
    const REPEAT = 8;
    execFileSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${path.join(dir, 'cg.out')}`, '--collect-atstart=no',
      '--toggle-collect=holo_execute_addressed', '--dump-after=holo_execute_addressed', HOLO_CLI, 'bench', holoFile, '--repeat', String(REPEAT), ...extra],
    { stdio: ['ignore', 'ignore', 'ignore'] });
    // dumps: .1 the warm-up (first execution: packing), then full, memo hit, full, hit, ...
    const full = [];
    for (let k = 2; k <= 2 * REPEAT; k += 2) { const f = path.join(dir, `cg.out.${k}`); if (fs.existsSync(f)) full.push(f); }
    const groups = {}, purpose = {}, self = new Map();
    let total = 0;
    for (const f of full) {
      const a = annotate(f, false);
      total += a.total;
      for (const { ir, file, fn } of a.fns) {
        const g = GROUPS.find(([, t]) => t(fn, file))[0];
        groups[g] = (groups[g] ?? 0) + ir;
        self.set(fn, (self.get(fn) ?? 0) + ir);
      }
      const b = annotate(f, true);
      for (const { ir, fn } of b.fns) for (const [p, re] of Object.entries(PURPOSE)) if (re.test(fn)) purpose[p] = (purpose[p] ?? 0) + ir;
    }
    const pct = (v) => +((100 * (v ?? 0)) / total).toFixed(1);
    const covered = Object.values(groups).reduce((a, b) => a + b, 0) / total;
    if (Math.abs(covered - 1) > 0.01) console.log(`${name}: note: the self costs cover ${(100 * covered).toFixed(1)}% of the total`);
    const row = {
      rung: name, executions: full.length, ir_per_execution: Math.round(total / full.length),
      self_pct: Object.fromEntries(['sha256', 'labels', 'memo', 'alloc', 'copies', 'kernels', 'walk'].map((g) => [g, pct(groups[g])])),
      inclusive_pct: Object.fromEntries(Object.keys(PURPOSE).map((p) => [p, pct(purpose[p])])),
      top_self: [...self].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([fn, ir]) => `${fn} ${pct(ir)}%`),
    };
    cg.push(row);
    console.log(JSON.stringify(row));
  }
  if (cgNote) console.log(cgNote);
}

console.log('\n| rung | nodes | dispatches | hologram ms | ORT-web ms | hologram/ORT-web | js_in µs (copy in) | core µs | js_out µs (copy out) | crossings | bytes hashed |');
console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
for (const r of rows)
  console.log(`| ${r.rung} | ${r.nodes} | ${r.dispatches} | ${r.holo_ms.toFixed(4)} | ${r.ort_web_ms.toFixed(4)} | ${r.ratio.toFixed(2)} | ${r.js_in_us} (${r.copyin_us}) | ${r.core_us} | ${r.js_out_us} (${r.copyout_us}) | ${r.crossings} | ${r.bytes_hashed} |`);
console.log(`\none call into the module: ${xUs.toFixed(3)} µs`);
for (const f of fits) console.log(`${f.ladder}: hologram ${f.hologram.intercept_us} µs + ${f.hologram.per_node_us} µs/node (core ${f.hologram_core.intercept_us} + ${f.hologram_core.per_node_us}/node); ORT-web ${f.ort_web.intercept_us} µs + ${f.ort_web.per_node_us} µs/node`);
if (cg.length) {
  console.log('\ncore split (callgrind, native CLI, scalar kernels; % of Ir inside holo_execute_addressed, full executions only)');
  console.log('| rung | Ir/exec | sha256 | labels | memo | alloc | copies | kernels | walk/dispatch | input labels (incl) | node labels (incl) | memo key (incl) | loop scalars (incl) |');
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (const c of cg) {
    const p = c.self_pct, q = c.inclusive_pct;
    console.log(`| ${c.rung} | ${c.ir_per_execution} | ${p.sha256} | ${p.labels} | ${p.memo} | ${p.alloc} | ${p.copies} | ${p.kernels} | ${p.walk} | ${q.input_labels} | ${q.node_labels} | ${q.memo_key} | ${q.loop_scalars} |`);
  }
  for (const c of cg) console.log(`${c.rung} top self: ${c.top_self.join(', ')}`);
}
const worst = rows.reduce((a, r) => (r.ratio > a.ratio ? r : a), rows[0]);
console.log(`\nworst rung: ${worst.rung}`);
console.log(`overhead_ratio_max=${(worst.holo_ms / worst.ort_web_ms).toFixed(2)}`);
process.exit(0);
