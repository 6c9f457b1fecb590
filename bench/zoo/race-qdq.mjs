// A quantized-vs-float race of one zoo model in ONE process (issue 21 item 2):
// the float export NAME@N, its static-QDQ variant NAME_qdq@N converted with
// the QDQ fusion (compiler/rewrites/fuse-qdq.js) and the same .onnx
// converted op for op (fuse: false: DequantizeLinear / QuantizeLinear passes
// around float ops), all three on one hologram module (simd128, 1 thread).
// Every round feeds one fresh input set to all three in a rotating order
// (as race-ab.mjs), the figures are medians of per-round ratios with their
// 95% intervals (timing.mjs). Before timing, the fused QDQ output is checked
// against onnxruntime-node at its default optimization level on the same
// .onnx (which fuses these patterns too) and its distance printed in quanta
// of... the output is float here, so as max |d| / max |ref| and the count of
// elements differing.
//   node bench/zoo/race-qdq.mjs DIR NAME@N [--rounds 20] [--cap-s 30]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ort from 'onnxruntime-node';
import { init } from '../../bindings-js/index.js';
import { convert } from '../../compiler/convert.js';
import { loadManifest } from './manifest.mjs';
import { Feeder } from './inputs.mjs';
import { median, medianInterval } from './timing.mjs';

const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const rounds = Number(opt('--rounds', '20'));
const capMs = Number(opt('--cap-s', '30')) * 1000;
const [dir, key] = args;
if (!dir || !key) { console.error('usage: race-qdq.mjs DIR NAME@N [--rounds N] [--cap-s S]'); process.exit(2); }
const all = loadManifest(dir);
const [name, opset] = key.split('@');
const fe = all.find((e) => e.key === key), qe = all.find((e) => e.key === `${name}_qdq@${opset}`);
if (!fe || !qe) { console.error(`race-qdq.mjs: ${key} or ${name}_qdq@${opset} not in ${dir}/manifest.json`); process.exit(2); }
const fOnnx = fs.readFileSync(path.join(dir, fe.file)), qOnnx = fs.readFileSync(path.join(dir, qe.file));

const rt = await init(undefined, { variant: 'simd128' });
const feeds = (xs) => Object.fromEntries(xs.map((x) => [x.name, { data: x.data, shape: x.shape }]));
function engine(onnxBytes, fuse, label) {
  const c = convert(onnxBytes, { fuse });
  const s = rt.load(c.holo);
  const run = (xs) => { const a = performance.now(); run.out = s.run(feeds(xs)); return performance.now() - a; };
  return { label, run, ops: c.report.opsOut, dispose: () => s.dispose() };
}
const E = [engine(fOnnx, true, 'float'), engine(qOnnx, true, 'qdq_fused'), engine(qOnnx, false, 'qdq_unfused')];

// agreement of the fused QDQ archive with onnxruntime-node (default level) on one input set
const feeder = new Feeder(fe.inputs, Date.now() >>> 0);
const xs0 = feeder.next();
const ref = await (await ort.InferenceSession.create(qOnnx)).run(Object.fromEntries(xs0.map((x) => [x.name, new ort.Tensor(x.dtype, x.data, x.shape)])));
E[1].run(xs0);
const agree = {};
for (const [n, t] of Object.entries(ref)) {
  const a = t.data, b = E[1].run.out[n].data;
  let d = 0, m = 0, ne = 0;
  for (let i = 0; i < a.length; i++) { const e = Math.abs(a[i] - b[i]); d = Math.max(d, e); m = Math.max(m, Math.abs(a[i])); if (e > 0) ne++; }
  agree[n] = { rel: +(d / (m || 1)).toExponential(2), differing: ne, of: a.length };
}

const load0 = os.loadavg()[0];
for (let w = 0; w < 6; w++) { const xs = feeder.next(); for (const e of E) e.run(xs); }
const T = E.map(() => []), R = { fused_float: [], unfused_float: [], fused_unfused: [] };
const t1 = performance.now();
for (let r = 0; r < rounds && (r < 5 || performance.now() - t1 < capMs); r++) {
  const xs = feeder.next(), t = [0, 0, 0];
  for (let q = 0; q < 3; q++) { const k = (r + q) % 3; t[k] = E[k].run(xs); }
  for (let k = 0; k < 3; k++) T[k].push(t[k]);
  R.fused_float.push(t[1] / t[0]); R.unfused_float.push(t[2] / t[0]); R.fused_unfused.push(t[1] / t[2]);
}
const r3 = (x) => +x.toFixed(3);
const ratio = (xs) => ({ median: r3(median(xs)), ci95: medianInterval(xs).map(r3) });
console.log(JSON.stringify({
  key, rounds: T[0].length, float_ms: r3(median(T[0])), qdq_fused_ms: r3(median(T[1])), qdq_unfused_ms: r3(median(T[2])),
  fused_vs_float: ratio(R.fused_float), unfused_vs_float: ratio(R.unfused_float), fused_vs_unfused: ratio(R.fused_unfused),
  fused_vs_ort_node_default: agree, fused_ops: E[1].ops, loadavg: [r3(load0), r3(os.loadavg()[0])],
}));
for (const e of E) e.dispose();
rt.dispose();
process.exit(0);
