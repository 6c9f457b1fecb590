// GEMM efficiency: the SIMD128 peak of this machine/engine (bench/gemm-peak.c:
// register-resident 4x8 / 4x12 tiles, no memory traffic) against a
// 512x512x512 product through hologram's MatMul, B packed by its kernel (the converted
// matmul_512 of make_models.py, fresh random input every run; nothing is
// subtracted: the time is session.execute's, input copy + SHA-256 label +
// GEMM + output copy). The input-side cost is reported separately, measured
// on a view-only graph with the same input shape.
//   node --experimental-wasm-relaxed-simd bench/gemm-peak.mjs [matmul_512.onnx] [--runs 150] [--variant simd128] [--wasm core.wasm]
// The median is over the session's steady state: runs 41.. of a session
// (at least 40 of them). A session's first ~32 runs of a 1 MiB-in / 1 MiB-out
// product each take fresh wasm pages while its dead-value cache (64 MiB by
// default) fills, and a first touch of a page is a page fault: those runs
// are reported on their own (execute_median_first40_ms), not hidden.
// Prints peak GFLOP/s (separate mul+add: the order contract; relaxed madd if
// the engine validates it) and `gemm_efficiency=<achieved (median run) / mul+add peak>`,
// `gemm_efficiency_best` from the fastest run (the machine is shared: load only slows).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings-js/index.js';
import { convert } from '../compiler/convert.js';
import { GraphBuilder, DT } from '../compiler/graph.js';
import { writeHolo } from '../compiler/holo-writer.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const runs = Math.max(80, Number(opt('--runs', '150')));
const COLD = 40; // runs counted as the cold phase
const variant = opt('--variant', 'simd128');
const wasmFile = opt('--wasm', null); // another build of the core module (A/B)
const onnxPath = args[0] ?? path.join(ROOT, 'build/bench-models/matmul_512.onnx');
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };

// ---- peak
async function peakOf(file, fnames) {
  let inst;
  try { inst = (await WebAssembly.instantiate(fs.readFileSync(file))).instance; } catch (e) { return { error: e.message.split('\n')[0] }; }
  const res = {};
  for (const f of fnames) {
    const flopsPerIter = f.endsWith('12') ? 96 : 64, fn = inst.exports[f];
    let iters = 1 << 16, best = 0;
    fn(1000, 1.0001, 1e-3, 2e-3, 3e-3); // tier up
    for (;;) { const a = performance.now(); fn(iters, 1.0001, 1e-3, 2e-3, 3e-3); const t = performance.now() - a; if (t > 15) break; iters *= 2; }
    // many short repetitions, best kept: other load only ever slows a run down
    for (let r = 0; r < 40; r++) {
      const a = performance.now(); fn(iters, 1.0001 + r * 1e-4, 1e-3, 2e-3, 3e-3); const t = (performance.now() - a) / 1e3;
      best = Math.max(best, (iters * flopsPerIter) / t / 1e9);
    }
    res[f] = +best.toFixed(2);
  }
  return res;
}
const peakMulAdd = await peakOf(path.join(ROOT, 'build/wasm/gemm-peak-simd128.wasm'), ['peak_muladd8', 'peak_muladd12']);
const peakMadd = await peakOf(path.join(ROOT, 'build/wasm/gemm-peak-relaxed.wasm'), ['peak_madd8', 'peak_madd12']);
const peak = Math.max(peakMulAdd.peak_muladd8, peakMulAdd.peak_muladd12);
const peakFused = peakMadd.error ? null : Math.max(peakMadd.peak_madd8, peakMadd.peak_madd12);
console.log(JSON.stringify({ peak_gflops_muladd: peakMulAdd, peak_gflops_relaxed_madd: peakMadd }));

// ---- 512^3 through hologram
const { holo, report } = convert(fs.readFileSync(onnxPath));
const shape = report.inputs[0].shape, n = shape.reduce((a, b) => a * b, 1);
const [M, K] = [shape.at(-2), shape.at(-1)];
const N = 512; // make_models.py: x @ W, W [512, 512]
const flops = 2 * M * N * K * (n / (M * K));
const rt = wasmFile ? await init(fs.readFileSync(wasmFile), { variant }) : await init(undefined, { variant });
let rs = 0x2545f491;
const fresh = () => { const d = new Float32Array(n); for (let i = 0; i < n; i++) { rs ^= rs << 13; rs ^= rs >>> 17; rs ^= rs << 5; d[i] = (rs >>> 0) / 2 ** 31 - 1; } return d; };

function timeSession(bytes) {
  const s = rt.load(bytes);
  const t = [];
  const d0 = s.counters;
  for (let i = 0; i < runs; i++) {
    const x = fresh();
    const a = performance.now(); s.execute([{ data: x, shape }]); const dt = performance.now() - a;
    t.push(dt);
  }
  const d1 = s.counters, kernels = d1.dispatches - d0.dispatches, memo = d1.memoHits - d0.memoHits;
  s.dispose();
  const warm = t.slice(COLD);
  return { median: median(warm), min: Math.min(...warm), cold: median(t.slice(3, COLD)), dispatches: kernels, memoHits: memo };
}
const g = new GraphBuilder();
const [y] = g.node('Flatten', [g.input('x', DT.f32, shape)], { attrs: { axis: 1 } });
g.output(y);
const overhead = timeSession(writeHolo(g.toJSON()));
const mm = timeSession(holo);
if (mm.dispatches !== runs || mm.memoHits !== 0) { console.error('matmul runs did not all compute', mm); process.exit(1); }
const gf = flops / (mm.median / 1e3) / 1e9, gfBest = flops / (mm.min / 1e3) / 1e9;
console.log(JSON.stringify({
  model: path.basename(onnxPath), ops: Object.keys(report.ops), rewrites: report.rewrites?.length ?? 0, M, N, K, runs, steady_runs: runs - COLD,
  execute_median_ms: +mm.median.toFixed(3), execute_min_ms: +mm.min.toFixed(3), execute_median_first40_ms: +mm.cold.toFixed(3), achieved_gflops: +gf.toFixed(2), achieved_gflops_best: +gfBest.toFixed(2),
  input_copy_hash_copyout_median_ms: +overhead.median.toFixed(3), input_copy_hash_copyout_min_ms: +overhead.min.toFixed(3),
  gflops_excluding_input_side: +(flops / ((mm.median - overhead.median) / 1e3) / 1e9).toFixed(2),
  gflops_excluding_input_side_best: +(flops / ((mm.min - overhead.min) / 1e3) / 1e9).toFixed(2),
  peak_gflops: peak, peak_gflops_fused: peakFused,
}));
console.log(`simd128_peak_gflops=${peak.toFixed(2)}`);
if (peakFused) console.log(`relaxed_madd_peak_gflops=${peakFused.toFixed(2)}`);
console.log(`gemm_efficiency=${(gf / peak).toFixed(3)}`);
console.log(`gemm_efficiency_best=${(gfBest / peak).toFixed(3)}`);
process.exit(0);
