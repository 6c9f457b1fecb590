// hologram-exec vs onnxruntime-web (wasm backend, 1 thread, SIMD) on the same
// models and inputs, in one process. Prints one JSON line per model and a
// summary line. Every timed hologram execution gets a different input (one
// element perturbed per iteration) so the content-addressed memo cannot
// answer; the dispatch counter is checked to prove each run computed.
//   node bench/run.mjs [model ...] [--variant simd128|scalar|relaxed] [--ms 2000] [--budget-mib 64]
// The .holo archives come from the converter (bench/models.mjs): `holo` is
// convert(onnx, { fuse: false }), `holo_packed` the default convert(onnx).
// `holo_packed_budget` runs the default archive with a session memoryBudget
// (--budget-mib, default 64): without one the memo keeps every intermediate
// of every call resident, so each call writes fresh (page-faulting) memory.
import { init } from '../bindings-js/index.js';
import { MODELS } from './models.mjs';
import { GraphBuilder, DT } from '../compiler/graph.js';
import { writeHolo } from '../compiler/holo-writer.js';

/* The per-execution cost outside kernels for this input: a graph whose only
 * node is a view (Flatten: no kernel runs) still copies the input in, hashes
 * it (SHA-256 of every input is how labels are made) and copies the output. */
function overheadHolo(shape) {
  const g = new GraphBuilder();
  const [y] = g.node('Flatten', [g.input('x', DT.f32, shape)], { attrs: { axis: 1 } });
  g.output(y);
  return writeHolo(g.toJSON());
}

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const variant = opt('--variant', 'simd128');
const budgetMs = Number(opt('--ms', '2000'));
const memBudget = Number(opt('--budget-mib', '64')) * 1024 * 1024;
const names = args.length ? args : Object.keys(MODELS);

const ort = await import('onnxruntime-web');
ort.env.wasm.numThreads = 1;
ort.env.wasm.simd = true;
const rt = await init(undefined, { variant });

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
function inputFor(n) { const d = new Float32Array(n); for (let i = 0; i < n; i++) d[i] = Math.sin(i * 0.37); return d; }

async function timeLoop(fn) {
  for (let i = 0; i < 3; i++) await fn(i);
  const t = []; const end = performance.now() + budgetMs;
  for (let i = 3; (performance.now() < end || t.length < 10) && t.length < 300; i++) {
    const a = performance.now(); await fn(i); t.push(performance.now() - a);
  }
  return { median: median(t), runs: t.length };
}

function timeHolo(bytes, base, shape, loadOpts = {}) {
  const s = rt.load(bytes, loadOpts);
  const d0 = s.counters.dispatches, x = base.slice();
  let calls = 0;
  const r = timeLoop((i) => { x[0] = base[0] + i * 1e-3; calls++; return s.execute([{ data: x, shape }]); });
  return r.then((res) => {
    const dispatches = s.counters.dispatches - d0, kernels = s.kernelCount;
    const out = s.execute([{ data: base, shape }])[0].data;
    s.dispose();
    return { ...res, dispatches, calls, perCall: dispatches / calls, kernels, out };
  });
}

const rows = [];
for (const name of names) {
  const m = MODELS[name]();
  const n = m.inShape.reduce((a, b) => a * b, 1), base = inputFor(n);
  const plain = await timeHolo(m.holo, base, m.inShape);
  const packed = await timeHolo(m.holoPacked, base, m.inShape);
  const budgeted = await timeHolo(m.holoPacked, base, m.inShape, { memoryBudget: memBudget });
  const over = await timeHolo(overheadHolo(m.inShape), base, m.inShape);
  const sess = await ort.InferenceSession.create(m.onnx, { executionProviders: ['wasm'] });
  const x = base.slice();
  let ortOut;
  const o = await timeLoop(async (i) => { x[0] = base[0] + i * 1e-3; ortOut = await sess.run({ x: new ort.Tensor('float32', x, m.inShape) }); });
  const ref = (await sess.run({ x: new ort.Tensor('float32', base, m.inShape) }))[sess.outputNames[0]].data;
  await sess.release();
  let maxdiff = 0;
  for (let i = 0; i < ref.length; i++) maxdiff = Math.max(maxdiff, Math.abs(ref[i] - packed.out[i]), Math.abs(ref[i] - plain.out[i]));
  const samePlainPacked = Buffer.from(plain.out.buffer).equals(Buffer.from(packed.out.buffer)) && Buffer.from(budgeted.out.buffer).equals(Buffer.from(packed.out.buffer));
  const row = {
    model: name, variant, ort_ms: +o.median.toFixed(3), holo_ms: +plain.median.toFixed(3), holo_packed_ms: +packed.median.toFixed(3),
    holo_packed_budget_ms: +budgeted.median.toFixed(3), holo_input_overhead_ms: +over.median.toFixed(3),
    ratio: +(o.median / plain.median).toFixed(2), ratio_packed: +(o.median / packed.median).toFixed(2),
    ratio_packed_budget: +(o.median / budgeted.median).toFixed(2),
    runs: { ort: o.runs, holo: plain.runs, holo_packed: packed.runs, holo_packed_budget: budgeted.runs },
    dispatches_per_call: { holo: plain.perCall, holo_packed: packed.perCall, holo_packed_budget: budgeted.perCall },
    kernels: { holo: plain.kernels, holo_packed: packed.kernels }, rewrites: m.rewrites,
    max_abs_diff_vs_ort: +maxdiff.toExponential(2), plain_eq_packed_bytes: samePlainPacked,
  };
  if (plain.perCall < 1 || packed.perCall < 1 || budgeted.perCall < 1) row.warning = 'some timed executions did not dispatch (memo hits?)';
  rows.push(row);
  console.log(JSON.stringify(row));
}
const geo = (k) => Math.exp(rows.reduce((a, r) => a + Math.log(r[k]), 0) / rows.length);
console.log(JSON.stringify({ summary: true, variant, backend: variant, models: rows.length,
  geomean_ratio_ort_over_holo: +geo('ratio').toFixed(2), geomean_ratio_ort_over_holo_packed: +geo('ratio_packed').toFixed(2), geomean_ratio_ort_over_holo_packed_budget: +geo('ratio_packed_budget').toFixed(2),
  holo_faster: rows.filter((r) => r.ratio > 1).map((r) => r.model), holo_packed_faster: rows.filter((r) => r.ratio_packed > 1).map((r) => r.model) }));
process.exit(0);
