// Per-node time of a converted model, measured from the outside (no runtime
// instrumentation): every computing node is cut out into a one-node archive
// whose non-constant operands are graph inputs fed with the values the full
// model produced, and timed against a baseline archive that only labels the
// same inputs (Reshape views, zero copy), so input hashing cancels out.
//   node bench/op-profile.mjs [model|file.onnx] [--variant simd128] [--runs 15] [--top 30] [--retain] [--zoo DIR] [--stat median|min]
// (--stat min: each node's fastest run instead of its median: on a loaded
// machine the other jobs' time only ever adds, so the minimum is the steadier figure)
// (--zoo: the model is one of DIR/manifest.json's, fed as bench/zoo feeds it)
// (--retain keeps the session's default dead-value cache; by default it is 0.)
// Prints one row per node (op, shapes, median µs) sorted by time, and a
// per-op summary. Each timed run perturbs one element of the first f32
// operand (else of the first integer one) so no memo or elision can answer.
import { loadManifest } from './zoo/manifest.mjs';
import { Feeder } from './zoo/inputs.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../bindings-js/index.js';
import { convert } from '../compiler/convert.js';
import { writeHolo } from '../compiler/holo-writer.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (k, d) => { const i = args.indexOf(k); if (i < 0) return d; const v = args[i + 1]; args.splice(i, 2); return v; };
const variant = opt('--variant', 'simd128');
const runs = Number(opt('--runs', '15'));
const top = Number(opt('--top', '40'));
const keepRetain = args.includes('--retain') && !!args.splice(args.indexOf('--retain'), 1);
const zoo = opt('--zoo', null);
const stat = opt('--stat', 'median');
if (stat !== 'median' && stat !== 'min') throw new Error(`op-profile: --stat is median or min, not ${stat}`);
const model = args[0] ?? 'transformer_layer';
const file = fs.existsSync(model) ? model : path.join(ROOT, 'build/bench-models', `${model}.onnx`);

const { graph, report } = convert(fs.readFileSync(file));
const rt = await init(undefined, { variant });
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[s.length >> 1]; };
const TA = { 1: Float32Array, 6: Int32Array, 7: BigInt64Array, 9: Uint8Array, 2: Uint8Array, 3: Int8Array };

// values computed only from constants (the load-time cone: PackB etc.)
const V = graph.values;
const cone = new Set();
for (const n of graph.nodes) if (n.inputs.every((i) => i === null || V[i].kind === 'const' || cone.has(i))) n.outputs.forEach((o) => cone.add(o));
const producer = new Map();
graph.nodes.forEach((n) => n.outputs.forEach((o) => producer.set(o, n)));

// 1. every intermediate, from one run of the full model with all outputs exposed
const all = structuredClone(graph);
all.outputs = [...graph.outputs, ...graph.nodes.flatMap((n) => n.outputs).filter((o) => !cone.has(o) && !graph.outputs.includes(o))];
const sAll = rt.load(writeHolo(all));
// a zoo model's inputs come from its manifest (token ids in range, masks);
// a one-input float model gets a sine wave
let feeds0;
if (zoo) {
  const entry = loadManifest(zoo).find((e) => path.join(zoo, e.file) === path.resolve(file) || e.file === path.basename(file));
  if (!entry) throw new Error(`op-profile: ${file} is not in ${zoo}/manifest.json`);
  feeds0 = new Feeder(entry.inputs, 1).next().map((x) => ({ data: x.data, shape: x.shape }));
} else {
  const shape = report.inputs[0].shape;
  feeds0 = [{ data: Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => Math.sin(i * 0.37)), shape }];
}
const outs = sAll.execute(feeds0);
const val = new Map(all.outputs.map((o, k) => [o, outs[k]]));
graph.inputs.forEach((i, k) => val.set(i, { ...feeds0[k], dtype: V[i].dtype }));
sAll.dispose();

// 2. one-node archives
function sub(n, baseline) {
  const g = { meta: [], symbols: [], values: [], nodes: [], inputs: [], outputs: [] };
  const map = new Map();
  const add = (id) => {
    if (id === null) return null;
    if (map.has(id)) return map.get(id);
    const v = V[id];
    let nid;
    if (v.kind === 'const') { g.values.push({ ...v }); nid = g.values.length - 1; }
    else if (cone.has(id)) {
      const p = producer.get(id);
      const ins = p.inputs.map(add);
      g.values.push({ ...v }); nid = g.values.length - 1;
      g.nodes.push({ ...p, inputs: ins, outputs: [nid] });
    } else {
      const d = val.get(id);
      g.values.push({ name: v.name, dtype: v.dtype, kind: 'input', shape: d.shape }); nid = g.values.length - 1;
      g.inputs.push(nid);
    }
    map.set(id, nid);
    return nid;
  };
  const ins = n.inputs.map(add);
  if (baseline) {
    for (const i of g.inputs) {
      g.values.push({ name: `${g.values[i].name}:shape`, dtype: 7, kind: 'const', shape: [1], data: Buffer.from(new BigInt64Array([-1n]).buffer).toString('hex') });
      g.values.push({ name: `${g.values[i].name}:flat`, dtype: g.values[i].dtype, kind: 'node', shape: null });
      g.nodes.push({ op: 'Reshape', name: '', inputs: [i, g.values.length - 2], outputs: [g.values.length - 1], attrs: [] });
      g.outputs.push(g.values.length - 1);
    }
  } else {
    const o = n.outputs.map((id) => { g.values.push({ ...V[id], shape: null }); return g.values.length - 1; });
    g.nodes.push({ ...n, inputs: ins, outputs: o });
    g.outputs.push(...o);
  }
  return g;
}

function timeArchive(g, feeds) {
  const s = rt.load(writeHolo(g));
  if (!keepRetain) s.setRetainBytes(0); // no dead-value cache: steady-state buffers, less page-fault noise
  const fresh = feeds.map((f) => ({ ...f, data: f.data.slice() }));
  const t = [];
  for (let r = 0; r < runs + 2; r++) {
    // a new label every run: an f32 operand nudged, else an integer one's low bit
    // flipped (an integer-only node, e.g. QLinearConv on u8, would be memoized)
    const f = fresh.find((q) => q.data instanceof Float32Array && q.data.length) ??
      fresh.find((q) => (q.data instanceof Uint8Array || q.data instanceof Int8Array || q.data instanceof Int32Array) && q.data.length);
    if (f instanceof Object && f.data instanceof Float32Array) f.data[r % f.data.length] += 1e-3;
    else if (f) f.data[r % f.data.length] ^= 1;
    const a = performance.now();
    s.executeAddressed(fresh);
    if (r >= 2) t.push(performance.now() - a);
  }
  s.dispose();
  return (stat === 'min' ? Math.min(...t) : median(t)) * 1000;
}

const rows = [];
for (const n of graph.nodes) {
  if (n.outputs.every((o) => cone.has(o))) continue;
  const g = sub(n, false), b = sub(n, true);
  const feeds = g.inputs.map((i) => { const d = val.get(graph.values.findIndex((v) => v.name === g.values[i].name)); return { data: d.data, shape: d.shape }; });
  const us = timeArchive(g, feeds) - timeArchive(b, feeds);
  const shp = n.inputs.filter((i) => i !== null && V[i].kind !== 'const').map((i) => JSON.stringify(val.get(i)?.shape ?? V[i].shape)).join(' ');
  const attrs = n.attrs.filter((a) => ['kernel_shape', 'group', 'strides', 'perm', 'axis', 'holo_activation', 'n'].includes(a.name)).map((a) => `${a.name}=${JSON.stringify(a.value)}`).join(' ');
  rows.push({ op: n.op, us, desc: `${shp} ${attrs}` });
}
const total = rows.reduce((a, r) => a + r.us, 0);
console.log(`${model} (${variant}): ${rows.length} nodes, sum of per-node ${stat === 'min' ? 'minima' : 'medians'} ${(total / 1000).toFixed(2)} ms`);
for (const r of [...rows].sort((a, b) => b.us - a.us).slice(0, top)) console.log(`${r.us.toFixed(0).padStart(7)} us  ${r.op.padEnd(18)} ${r.desc}`);
const byOp = new Map();
for (const r of rows) { const e = byOp.get(r.op) ?? { us: 0, n: 0 }; e.us += r.us; e.n++; byOp.set(r.op, e); }
console.log('\nper op:');
for (const [op, e] of [...byOp].sort((a, b) => b[1].us - a[1].us)) console.log(`${(e.us / 1000).toFixed(2).padStart(7)} ms ${(100 * e.us / total).toFixed(1).padStart(5)}%  ${op} x${e.n}`);
